/**
 * Shared helpers: temporary boards, the CLI (in-process where a process adds nothing, as a real
 * process where it does: races, kills, stdio, terminals), and folder snapshots.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { hooksFromEnv } from './hooks/from-env.mjs';

export const ROOT = resolve(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin', 'agentboard.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures');
export const HOOKS = join(ROOT, 'test', 'hooks', 'install.mjs');
/** How tests start node for agentboard: with the test hooks (clock, fault injection) loaded. */
export const NODE_ARGS = ['--import', HOOKS];

/** A new temporary folder, under the test run's own folder (test/temp-root.ts), which goes when the run ends. */
export function tempDir(prefix = 'agentboard-test-'): string {
  return mkdtempSync(join(process.env.AGENTBOARD_TEST_TMP ?? tmpdir(), prefix));
}

/** The person's key of the tests' person, human:tester (recorded in each test board by addPerson). */
export const TEST_PERSON_KEY = 'abpk_the-key-of-the-tests-own-person-tester';

/**
 * The environment every run gets: no git identity (so a person at a terminal is human:tester), and
 * the key of human:tester, as a script or CI would pass it.
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = tempDir('agentboard-home-');
  return { PATH: process.env.PATH ?? '', HOME: home, USER: 'tester', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), AGENTBOARD_PERSON_KEY: TEST_PERSON_KEY, ...extra };
}

/** Records human:tester in the board's people.yaml, as `agentboard person key` at a terminal would. */
export function addPerson(dir: string): void {
  const hash = createHash('sha256').update(TEST_PERSON_KEY).digest('hex');
  writeFileSync(join(dir, 'agentd', 'people.yaml'), `people:\n  - name: human:tester\n    key_sha256: ${hash}\n    added: 2026-11-22T00:00:00.000Z\n`);
}

const ENV = childEnv();

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON when it is JSON, else undefined. */
  json: any;
}

function parse(stdout: string): any {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

interface CliOptions {
  /** Standard input (bytes, to give it what is not UTF-8). */
  stdin?: string | Buffer;
  env?: Record<string, string>;
  /** Run as a person at a terminal would (standard input is a terminal). */
  interactive?: boolean;
  /** Standard output and error are terminals (colour goes to them). */
  tty?: boolean;
}

type Main = (argv: string[], io: object) => Promise<number>;
let loaded: Main | null = null;
async function cliMain(): Promise<Main> {
  if (!loaded) loaded = ((await import(join(ROOT, 'bin', 'load.mjs'))) as { loadCli: () => { main: Main } }).loadCli().main;
  return loaded;
}

const HOOKS_KEY = Symbol.for('agentboard.test-hooks');

/** Runs the built CLI in this process, as `agentboard <args>` would run in `cwd`. */
export async function cli(cwd: string, args: string[], options: CliOptions = {}): Promise<CliResult> {
  const main = await cliMain();
  const env = { ...ENV, ...options.env };
  let stdout = '';
  let stderr = '';
  const g = globalThis as Record<symbol, unknown>;
  const saved = g[HOOKS_KEY];
  g[HOOKS_KEY] = hooksFromEnv(env);
  try {
    const code = await main(args, { out: (t: string) => (stdout += t), err: (t: string) => (stderr += t), stdin: () => options.stdin ?? '', env, cwd, interactive: options.interactive === true, tty: { out: options.tty === true, err: options.tty === true } });
    return { code, stdout, stderr, json: parse(stdout) };
  } finally {
    g[HOOKS_KEY] = saved;
  }
}

/** Runs the CLI as its own process (the real binary, with the test hooks loaded). */
export function cliProcess(cwd: string, args: string[], options: CliOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [...NODE_ARGS, BIN, ...args], {
    cwd,
    input: options.stdin,
    encoding: 'utf8',
    env: { ...ENV, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: parse(r.stdout) };
}

/** Runs the CLI as its own process without waiting for it (races). */
export function cliAsync(cwd: string, args: string[], options: { env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, BIN, ...args], { cwd, env: { ...ENV, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr, json: parse(stdout) }));
  });
}

/**
 * The CLI as its own process, the child of a parent that never reaps it (a shell that has become
 * `sleep`, as a container's init that reaps late): killed, it stays a zombie (state Z) until
 * `parent` is killed. Its output goes to the file `out`.
 */
export async function unreapedCli(cwd: string, args: string[], out: string, env: Record<string, string> = {}): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = spawn('sh', ['-c', '"$@" > "$UNREAPED_OUT" 2>&1 & echo $!; exec sleep 600', 'sh', process.execPath, ...NODE_ARGS, BIN, ...args], { cwd, env: { ...ENV, ...env, UNREAPED_OUT: out }, stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolvePid, reject) => {
    parent.stdout!.once('data', (d) => resolvePid(Number(String(d).trim())));
    parent.once('error', reject);
  });
  return { pid, parent };
}

/** The state of a process as /proc/<pid>/stat says (R, S, T, Z…), or null when there is none. */
export function processState(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0]!;
  } catch {
    return null;
  }
}

/** A person's save as editors make it: `text` written beside `file` and renamed over it. */
export function saveByRename(file: string, text: string): void {
  writeFileSync(`${file}.swp`, text);
  renameSync(`${file}.swp`, file);
}

/** A person's save as editors make it: the file as it is now with `from` replaced, written beside it and renamed over it. */
export function saveRenamedOver(file: string, from: string, to: string): void {
  saveByRename(file, readFileSync(file, 'utf8').replace(from, to));
}

/** Waits, up to 15 s, for a process to stop (SIGSTOP at a fault point); its state then. */
export async function untilStopped(pid: number): Promise<string | null> {
  for (let i = 0; i < 600 && processState(pid) !== 'T'; i++) await new Promise((r) => setTimeout(r, 25));
  return processState(pid);
}

/** Runs a --json command and returns its data, failing loudly when it did not succeed. */
export async function ok(cwd: string, args: string[], options?: CliOptions): Promise<any> {
  const r = await cli(cwd, [...args, '--json'], options);
  if (r.code !== 0 || !r.json?.ok) throw new Error(`agentboard ${args.join(' ')} failed (${r.code}): ${r.stdout}${r.stderr}`);
  return r.json.data;
}

export async function newBoard(): Promise<string> {
  const dir = tempDir();
  await ok(dir, ['init']);
  addPerson(dir);
  return dir;
}

/** Every file under dir with a hash of its bytes: two equal snapshots mean nothing changed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        out[`${relative(dir, p)}/`] = 'dir';
        walk(p);
      } else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

export function write(dir: string, name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

export function read(dir: string, name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}

export const WHY = 'Agents and people need one place to see who works on what, so that no work is done twice.';

export const SPEC_MD = `# Specification: Task board

## Overview

The board keeps the tasks of a change and hands each one to exactly one agent at a time.

## Requirements

### R1: Claims

The board MUST hand a task to at most one agent.

### R2: Attribution

Every change SHALL record who made it.

## Acceptance Criteria

### Scenario: Two agents ask at once

- **GIVEN** one ready task
- **WHEN** two agents ask for work at the same moment
- **THEN** exactly one of them gets the task
`;

/** Brings a change through proposal and spec, and writes the given tasks. */
export async function changeWithTasks(dir: string, changeId: string, tasks: object[], actor = 'planner'): Promise<void> {
  await ok(dir, ['propose', changeId, '--as', actor, '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'No additional notes.']);
  await ok(dir, ['spec', changeId, '--as', actor, '--from', write(dir, `${changeId}-spec.md`, SPEC_MD), '--notes', 'No additional notes.']);
  await ok(dir, ['tasks', changeId, '--as', actor, '--input', write(dir, `${changeId}-tasks.json`, JSON.stringify({ tasks, notes: 'No additional notes.' }))]);
}

/** A document as `show <change> <document>` gives it, with its fields too (two reads: markdown, then --format fields). */
export async function showDocument(cwd: string, changeId: string, document: string): Promise<any> {
  const markdown = await ok(cwd, ['show', changeId, document]);
  const fields = await ok(cwd, ['show', changeId, document, '--format', 'fields']);
  return { ...markdown, content: fields.content };
}
