/**
 * The `run` and `runs` commands: flags to options, the person, the display, the signals. The
 * command line registers them (src/cli/main.ts); everything they do is in the engine.
 */
import { colorLevel } from '../render/colors.js';
import { fail } from '../errors.js';
import { Board } from '../store/board.js';
import { SnapshotReader } from '../console/snapshot.js';
import { listRuns, readInvocations, readRun, runState, type RunRecord } from '../store/runs.js';
import { currentPerson } from '../cli/person.js';
import { agentboardBin, importTui, type ImportModule } from '../cli/tui.js';
import type { Io } from '../cli/main.js';
import { readUserFile } from '../cli/user-file.js';
import { table } from '../render/text.js';
import { RUN_PHASES, type RunPhase, type RunView } from './events.js';
import { runChange } from './run.js';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_MINUTES, type RunOptions } from './settings.js';
import { duration, tokens } from './views/format.js';
import { jsonView, plainView } from './views/lines.js';
import { printable } from '../domain/text.js';
import { changeIdProblem } from '../domain/ids.js';

export interface RunFlags {
  goal?: string;
  goalFile?: string;
  until?: string;
  planner?: string;
  reviewer?: string;
  worker?: string[];
  workers?: string;
  maxAttempts?: string;
  timeout?: string;
  maxCost?: string;
  wait?: boolean;
  merge?: boolean;
  worktrees?: boolean;
}

function number(flag: string, value: string | undefined, check: (n: number) => boolean, rule: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !check(n)) fail('USAGE', `${flag} ${printable(value)} is not ${rule}.`, `Give ${flag} ${rule}.`);
  return n;
}

/** The options of a run; `io` reads --goal-file. */
export function runOptions(changeId: string, flags: RunFlags, io: Pick<Io, 'cwd' | 'stdin'>): RunOptions {
  const badId = changeIdProblem(changeId);
  if (badId) fail('USAGE', `Invalid input: <change_id>: ${badId}.`, 'Correct the change id and run the command again (`agentboard run --help` says what it takes); nothing was changed.');
  if (flags.goal !== undefined && flags.goalFile !== undefined) fail('USAGE', 'Give --goal or --goal-file, not both.', 'Keep one of them.');
  const goal = flags.goalFile !== undefined ? readUserFile(flags.goalFile, '--goal-file', io, 'agentboard run') : flags.goal;
  if (goal !== undefined && goal.trim() === '') fail('USAGE', 'The goal is empty.', 'Say what the change should achieve with --goal "…".');
  if (flags.until !== undefined && !(RUN_PHASES as readonly string[]).includes(flags.until)) {
    fail('USAGE', `--until ${printable(flags.until)} is not a phase.`, `Give --until one of ${RUN_PHASES.join(', ')}.`);
  }
  return {
    changeId,
    goal: goal?.trim(),
    until: flags.until as RunPhase | undefined,
    planner: flags.planner,
    reviewer: flags.reviewer,
    workers: flags.worker,
    workerCount: number('--workers', flags.workers, (n) => Number.isInteger(n) && n >= 1 && n <= 64, 'a whole number from 1 to 64'),
    maxAttempts: number('--max-attempts', flags.maxAttempts, (n) => Number.isInteger(n) && n >= 1 && n <= 20, 'a whole number from 1 to 20') ?? DEFAULT_MAX_ATTEMPTS,
    timeoutMinutes: number('--timeout', flags.timeout, (n) => n > 0, 'a number of minutes above 0 (decimals allowed, like 0.5)') ?? DEFAULT_TIMEOUT_MINUTES,
    maxCost: number('--max-cost', flags.maxCost, (n) => n > 0, 'an amount in US dollars above 0'),
    wait: flags.wait === true,
    merge: flags.merge === true,
    worktrees: flags.worktrees !== false,
  };
}

/** The live view; its agents pane reads the change as the console does (its agents' workflow state, the tasks they hold, their seats in the run). */
async function liveView(importModule: ImportModule, colors: boolean, onInterrupt: () => void, root: string, changeId: string): Promise<RunView> {
  const reader = new SnapshotReader(Board.open(root), changeId);
  return (await importTui(importModule, colors)).startRunView({ onInterrupt, agents: () => reader.read().agents });
}

export async function runCommand(io: Io, importModule: ImportModule | undefined, changeId: string, flags: RunFlags, globals: { root?: string; json?: boolean; as?: string }): Promise<number> {
  const options = runOptions(changeId, flags, io);
  const root = Board.open(globals.root, io.cwd).root;
  const person = currentPerson(globals.as, 'Running a change', io, root);
  const bin = agentboardBin();
  const controller = new AbortController();
  let signals = 0;
  const onSignal = () => {
    // The first Ctrl-C stops the run cleanly (agents stopped, claims released); a second one does not wait.
    if (++signals > 1) process.exit(130);
    controller.abort();
  };
  const interactive = !globals.json && process.stdout.isTTY === true && process.stdin.isTTY === true && importModule !== undefined;
  let view: RunView | null = null;
  const makeView = async () => (view = globals.json ? jsonView(io.out) : interactive ? await liveView(importModule!, colorLevel(io.env, true) > 0, onSignal, root, changeId) : plainView(io.out));
  // A terminal closed (SIGHUP), or a reader of the output gone (EPIPE: `| head` has read enough), stops the run as Ctrl-C does.
  const onOutputGone = () => {
    if (!controller.signal.aborted) controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  process.stdout.on('error', onOutputGone);
  try {
    return await runChange({ options, root, person, bin, view: makeView, signal: controller.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    await (view as RunView | null)?.close();
    // Writes that failed before the run ended are not said again.
    process.stdout.off('error', onOutputGone);
    process.stdout.on('error', () => undefined);
  }
}

// ---- runs -----------------------------------------------------------------------------------------

const cost = (c: number | null) => (c === null ? '-' : `$${c.toFixed(4)}`);

/** How a run ended; "running" while its process runs, "died" when it is gone without saying (kill -9: the next run cleans up). */
function outcomeOf(r: RunRecord): string {
  return r.outcome ?? runState(r);
}

function runSummary(r: RunRecord): Record<string, unknown> {
  return {
    run_id: r.run_id,
    change_id: r.change_id,
    phase: r.phase,
    agents: r.agents,
    invocations: r.invocations,
    usage: r.usage,
    outcome: outcomeOf(r),
    started_at: r.started_at,
    ended_at: r.ended_at,
    person: r.person,
  };
}

export function runsList(io: Io, globals: { root?: string; json?: boolean }): number {
  const runs = listRuns(Board.open(globals.root, io.cwd).runtimeDir);
  if (globals.json) {
    io.out(`${JSON.stringify({ ok: true, data: { runs: runs.map(runSummary) } })}\n`);
    return 0;
  }
  if (runs.length === 0) {
    io.out('No runs yet: start one with `agentboard run` followed by a change id and --goal with what the change should achieve.\n');
    return 0;
  }
  io.out(
    table(
      ['RUN', 'CHANGE', 'PHASE', 'AGENTS', 'INVOCATIONS', 'TOKENS', 'COST', 'OUTCOME'],
      runs.map((r) => [r.run_id, r.change_id, r.phase, [r.agents.planner, r.agents.reviewer, ...r.agents.workers].filter(Boolean).join(', '), String(r.invocations), tokens(r.usage).toLocaleString('en-US'), cost(r.usage.cost_usd), outcomeOf(r)]),
    ),
  );
  return 0;
}

export function runsShow(io: Io, runId: string, globals: { root?: string; json?: boolean }): number {
  const runtimeDir = Board.open(globals.root, io.cwd).runtimeDir;
  const run = readRun(runtimeDir, runId);
  const invocations = readInvocations(runtimeDir, runId);
  if (globals.json) {
    io.out(`${JSON.stringify({ ok: true, data: { run: { ...runSummary(run), goal: run.goal, message: run.message, options: run.options }, invocations } })}\n`);
    return 0;
  }
  let out = `run ${run.run_id} of ${run.change_id} for ${run.person}: ${outcomeOf(run)}${run.message ? `\n  ${run.message}` : ''}\n`;
  out += `  started ${run.started_at}${run.ended_at ? `, ended ${run.ended_at}` : ''} · reached ${run.phase} · ${tokens(run.usage).toLocaleString('en-US')} tokens · ${cost(run.usage.cost_usd)}\n\n`;
  out += invocations.length
    ? table(
        ['#', 'ROLE', 'AGENT', 'PHASE', 'TASK', 'ATTEMPT', 'EXIT', 'DURATION', 'TOKENS', 'COST', 'TRANSCRIPT'],
        invocations.map((i) => [
          String(i.n),
          i.role,
          i.agent_id,
          i.phase,
          i.task_id ?? '-',
          String(i.attempt),
          i.timed_out ? 'timeout' : i.exit_code === null ? (i.signal ?? (i.ended_at ? '-' : 'running')) : String(i.exit_code),
          i.duration_ms === null ? '-' : duration(i.duration_ms),
          tokens(i.usage).toLocaleString('en-US'),
          cost(i.usage.cost_usd),
          i.transcript,
        ]),
      )
    : 'No agent was invoked.\n';
  io.out(out);
  return 0;
}
