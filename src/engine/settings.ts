/**
 * Who plays which role in a run: config.yaml's `agents` and `run`, overridden by --planner,
 * --reviewer, --worker and --workers. Every role instance gets its own agent id (claude-planner,
 * codex-w2, codex-reviewer): separation of duties is by id, so one CLI can serve several roles.
 */
import { isAbsolute, resolve } from 'node:path';
import { isProgram, onPath } from '../store/fs.js';
import { fail } from '../errors.js';
import type { AgentSettings, Config } from '../store/config.js';
import type { Role, RunPhase } from './events.js';
import { printable } from '../domain/text.js';
import { fillPlaceholders, placeholdersIn } from './adapters/custom.js';

export interface AgentInstance {
  /** The agent id the board records: <name>-planner, <name>-reviewer, <name>-w<n>. */
  id: string;
  /** The key under `agents:` in config.yaml. */
  name: string;
  role: Role;
  config: AgentSettings;
}

export interface RunOptions {
  changeId: string;
  goal?: string;
  until?: RunPhase;
  planner?: string;
  reviewer?: string;
  workers?: string[];
  workerCount?: number;
  maxAttempts: number;
  /** Per invocation; the agent's whole process tree is killed when it runs out. */
  timeoutMinutes: number;
  maxCost?: number;
  wait: boolean;
  merge: boolean;
  worktrees: boolean;
}

export const DEFAULT_MAX_ATTEMPTS = 3;
export const DEFAULT_TIMEOUT_MINUTES = 30;

export interface RunAgents {
  planner: AgentInstance;
  reviewer: AgentInstance;
  workers: AgentInstance[];
}

const EXAMPLE = [
  'agents:',
  '  claude: { adapter: claude }',
  '  codex:  { adapter: codex }',
  'run:',
  '  planner: claude',
  '  reviewer: codex',
  '  workers: [claude, codex]',
];

function notConfigured(what: string): never {
  fail('RUN_NOT_CONFIGURED', `agentd/config.yaml does not say ${what}.`, `Add these lines to agentd/config.yaml (any of claude, codex, gemini, or your own command):\n\n${EXAMPLE.map((l) => `    ${l}`).join('\n')}\n`);
}

/** Where a setting of config.yaml is, as errors name it (agentd/config.yaml:LINE): Board.settingAt. */
export type SettingAt = (path: readonly PropertyKey[]) => string;

/** The agent `name` of config.yaml; `setting`: where config.yaml names it (null: a flag does), for the line a refusal names. */
function instance(config: Config, name: string, role: Role, id: string, flag: string, setting: PropertyKey[] | null, at: SettingAt): AgentInstance {
  const agent = config.agents[name];
  if (!agent) {
    const known = Object.keys(config.agents);
    fail(
      'RUN_NOT_CONFIGURED',
      `${setting ? `${at(setting)}: the` : 'The'} ${role} "${printable(name)}" (${flag}) is not an agent of agentd/config.yaml${known.length ? `; its agents are ${known.join(', ')}` : ''}.`,
      `Add it under agents: in agentd/config.yaml, like \`  ${printable(name)}: { adapter: claude }\`, or name one of the configured agents.`,
    );
  }
  return { id, name, role, config: agent };
}

/**
 * The run's agents, named <agent>-planner, <agent>-w<n> and <agent>-reviewer. On a shared board
 * each clone's run names them with the clone's tag too (`claude-w1.3fa2`): the runs of two clones
 * are different agents, and neither takes the other's task for its own to resume. `at` names the
 * line of a setting a refusal is about.
 */
export function resolveAgents(config: Config, options: RunOptions, clone?: string, at: SettingAt = () => 'agentd/config.yaml'): RunAgents {
  const tag = clone === undefined ? '' : `.${clone}`;
  if (Object.keys(config.agents).length === 0 || config.run === undefined) notConfigured('which agents run the change (agents: and run:)');
  const plannerName = options.planner ?? config.run.planner ?? notConfigured('who plans (run: planner:)');
  const reviewerName = options.reviewer ?? config.run.reviewer ?? notConfigured('who reviews (run: reviewer:)');
  const workerNames = options.workers?.length ? options.workers : (config.run.workers ?? notConfigured('who works the tasks (run: workers:)'));
  const count = options.workerCount ?? workerNames.length;
  const workers: AgentInstance[] = [];
  // Workers are taken round-robin from the list: --workers 3 with [claude, codex] is claude-w1, codex-w2, claude-w3.
  for (let i = 1; i <= count; i++) {
    const n = (i - 1) % workerNames.length;
    const name = workerNames[n]!;
    workers.push(instance(config, name, 'worker', `${name}-w${i}${tag}`, options.workers?.length ? '--worker' : 'run: workers:', options.workers?.length ? null : ['run', 'workers', n], at));
  }
  return {
    planner: instance(config, plannerName, 'planner', `${plannerName}-planner${tag}`, options.planner ? '--planner' : 'run: planner:', options.planner ? null : ['run', 'planner'], at),
    reviewer: instance(config, reviewerName, 'reviewer', `${reviewerName}-reviewer${tag}`, options.reviewer ? '--reviewer' : 'run: reviewer:', options.reviewer ? null : ['run', 'reviewer'], at),
    workers,
  };
}

/** The program an agent's CLI starts: the built-in CLI's name, or the first word of a custom command. */
export function programOf(config: AgentSettings): string {
  return config.adapter ?? config.command?.[0] ?? '';
}

/**
 * Whether a program can be started as given: a name found on the PATH the agent gets (its own
 * env: may set one), a path to an executable file. A relative path (./agent.sh) is resolved as the
 * run will, in the folder the agent starts in: the repository's root (a worker's worktree is a
 * checkout of it).
 */
function startable(program: string, path: string | undefined, root: string): boolean {
  if (program.includes('/')) return isProgram(resolve(root, program));
  return onPath([program], path);
}

/**
 * Refuses a run whose agents' CLIs cannot be started (not installed, not on PATH, a path with no
 * program), before a run is recorded or an agent started: naming the role and the program, and what to do.
 */
export function refuseMissingPrograms(agents: RunAgents, env: NodeJS.ProcessEnv, root: string): void {
  const missing = new Map<string, { path: string; who: string[] }>();
  for (const agent of [agents.planner, agents.reviewer, ...agents.workers]) {
    const program = programOf(agent.config);
    // A command's {root} and {workdir} are known now (a worker's worktree is a checkout of the root);
    // a program named by another placeholder is known only when its agent starts.
    if (agent.config.adapter === undefined && placeholdersIn(program).some((p) => p !== 'root' && p !== 'workdir')) continue;
    const path = agent.config.adapter === undefined ? fillPlaceholders(program, { root, workdir: root }) : program;
    if (startable(path, agent.config.env?.PATH ?? env.PATH, root)) continue;
    const was = missing.get(program);
    missing.set(program, { path, who: [...new Set([...(was?.who ?? []), `${agent.name} (${agent.role})`])] });
  }
  if (missing.size === 0) return;
  const where = (program: string, path: string) =>
    !path.includes('/')
      ? 'not found on PATH (or not executable)'
      : isAbsolute(path)
        ? path === program
          ? 'no executable file there'
          : `no executable file at ${path}`
        : `no executable file at ${resolve(root, path)} (a relative command is looked for in the folder agents start in, the repository's root)`;
  const said = [...missing].map(([program, { path, who }]) => `\`${program}\` for ${who.join(', ')}: ${where(program, path)}`).join('; ');
  fail(
    'RUN_REFUSED',
    `The run cannot start its agents: ${said}.`,
    'Install the CLI (or put it on PATH), or fix the path of the command under agents: in agentd/config.yaml, or choose other agents with --planner, --reviewer and --worker, or under run: and agents: in agentd/config.yaml.',
  );
}
