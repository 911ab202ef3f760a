/** Engine test helpers: a git repository with a board whose agents are the fake agent, runs as real processes. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { addPerson, BIN, childEnv, cliProcess, FIXTURES, NODE_ARGS, ok, processState, tempDir, type CliResult } from '../helpers.js';

export const FAKE_AGENT = join(FIXTURES, 'fake-agent.mjs');
const ENV = childEnv();

export interface TestBoard {
  /** The repository root, holding agentd/. */
  dir: string;
  /** The fake agent's state folder: its counters, invocations.jsonl, hang-*.json. */
  state: string;
  scenarioFile: string;
}

export function git(dir: string, args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=tester', '-c', 'user.email=tester@example.com', ...args], { cwd: dir, encoding: 'utf8', env: ENV });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/**
 * A repository (in a folder of its own, `name`, so that the default worktrees folder beside it is
 * in the test's temporary folder too) with a board whose planner, reviewer and workers are the fake agent.
 */
export async function fakeBoard(options: { scenario?: object; config?: string; git?: boolean; agentEnv?: Record<string, string>; name?: string } = {}): Promise<TestBoard> {
  const base = tempDir('agentboard-engine-');
  const dir = join(base, options.name ?? 'repo');
  const state = join(base, 'state');
  mkdirSync(dir);
  const scenarioFile = join(base, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify(options.scenario ?? {}));
  await ok(dir, ['init']);
  addPerson(dir);
  const env = { FAKE_AGENT_SCENARIO: scenarioFile, FAKE_AGENT_STATE: state, ...options.agentEnv };
  const config = [
    'agents:',
    `  fake: { command: ["${process.execPath}", "${FAKE_AGENT}", "{prompt_file}"], env: ${JSON.stringify(env)} }`,
    'run:',
    '  planner: fake',
    '  reviewer: fake',
    '  workers: [fake]',
    options.config ?? '',
  ].join('\n');
  writeFileSync(join(dir, 'agentd/config.yaml'), `${config}\n`);
  if (options.git !== false) {
    git(dir, ['init', '-q']);
    writeFileSync(join(dir, 'README.md'), '# A project\n');
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'start']);
  }
  return { dir, state, scenarioFile };
}

export function setScenario(board: TestBoard, scenario: object): void {
  writeFileSync(board.scenarioFile, JSON.stringify(scenario));
}

/** agentboard run as its own process: it starts agents, watches signals and stops process trees. */
export function run(dir: string, args: string[], env: Record<string, string> = {}): CliResult & { events: any[] } {
  const r = cliProcess(dir, ['run', ...args, '--json'], { env });
  return { ...r, events: jsonLines(r.stdout) };
}

export function jsonLines(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** Runs next steps as a person would, in a shell at the repository root (the comment after `   #` left out): their exit codes. */
export function shellSteps(dir: string, steps: string[]): (number | null)[] {
  return steps.map((step) => spawnSync('sh', ['-c', step.split('   #')[0]!], { cwd: dir, encoding: 'utf8' }).status);
}

/** What the fake agent wrote about each of its invocations. */
export function agentInvocations(board: TestBoard): any[] {
  const file = join(board.state, 'invocations.jsonl');
  return existsSync(file) ? jsonLines(readFileSync(file, 'utf8')) : [];
}

export function runIds(dir: string): string[] {
  const runs = join(dir, 'agentd/.runtime/runs');
  return existsSync(runs) ? readdirSync(runs).sort() : [];
}

export function runRecord(dir: string, runId: string): any {
  return JSON.parse(readFileSync(join(dir, 'agentd/.runtime/runs', runId, 'run.json'), 'utf8'));
}

export function prompt(dir: string, runId: string, n: number): string {
  return readFileSync(join(dir, 'agentd/.runtime/runs', runId, `${String(n).padStart(3, '0')}.prompt.md`), 'utf8');
}

/** The pids the fake agent wrote when it hung or left: its own, its child's, and the one that escaped its process group. */
export function hangs(board: TestBoard): { agent: number; child?: number; escaped: number }[] {
  if (!existsSync(board.state)) return [];
  return readdirSync(board.state)
    .filter((f) => f.startsWith('hang-') && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(board.state, f), 'utf8')));
}

/** True while the process runs: a zombie (killed, not yet reaped by its new parent) is not running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = processState(pid);
  return state !== null && state !== 'Z';
}

/** Polls `check` every 100 ms until it holds, failing after `ms` (a bound, not a timing assertion). */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A run as a child process whose JSON events are collected as they come. */
export interface LiveRun {
  child: ChildProcess;
  events: any[];
  stderr: () => string;
  done: Promise<number>;
}

export function startRun(dir: string, args: string[], env: Record<string, string> = {}): LiveRun {
  const child = spawn(process.execPath, [...NODE_ARGS, BIN, 'run', ...args, '--json'], { cwd: dir, env: { ...ENV, ...env } });
  const events: any[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    events.push(...jsonLines(lines.join('\n')));
  });
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : -1))));
  return { child, events, stderr: () => stderr, done };
}

/**
 * Two `agentboard run` processes of the same new change started at the same instant: exactly one
 * runs (its planner invoked once), the other is refused with RUN_REFUSED before it records a run.
 */
export async function expectOneOfTwoRuns(board: TestBoard, changeId: string): Promise<void> {
  const before = runIds(board.dir).length;
  const pair = [0, 1].map(() => startRun(board.dir, [changeId, '--goal', 'Let people search the board', '--until', 'proposal']));
  const codes = await Promise.all(pair.map((r) => r.done));
  const ran = pair.filter((r) => r.events.some((e) => e.type === 'run.started'));
  expect(ran, pair.map((r) => r.stderr()).join('\n')).toHaveLength(1);
  expect(ran[0]!.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished', exit_code: 0 });
  const other = pair.find((r) => r !== ran[0])!;
  expect(other.events).toEqual([expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'RUN_REFUSED' }) })]);
  expect(codes.sort()).toEqual([0, 1]);
  expect(runIds(board.dir)).toHaveLength(before + 1);
  expect(agentInvocations(board).filter((i) => i.env.AGENTBOARD_CHANGE_ID === changeId).map((i) => i.env.AGENTBOARD_PHASE)).toEqual(['proposal']);
}
