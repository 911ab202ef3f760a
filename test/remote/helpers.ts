/**
 * Shared boards for the tests: a bare repository in a temporary folder as the remote, and clones of
 * it, each with the board; real git throughout.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addPerson, BIN, childEnv, NODE_ARGS, ok, processState, tempDir } from '../helpers.js';

const GIT_ENV = childEnv();

/** Runs git in `cwd`; its output, or a thrown error saying what failed. */
export function git(cwd: string, args: string[]): string {
  const r = gitTry(cwd, args);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** Runs git in `cwd`, which may fail: its exit code and what it wrote. */
export function gitTry(cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface Shared {
  /** The bare repository every clone pushes to. */
  remote: string;
  clones: string[];
}

function cloneOf(remote: string, dir: string): string {
  git(join(dir, '..'), ['clone', '-q', remote, dir]);
  git(dir, ['config', 'user.name', 'tester']);
  git(dir, ['config', 'user.email', 'tester@example.com']);
  return dir;
}

/** A repository with a board (and the tests' person), committed and pushed to a bare remote, not shared yet. */
export async function boardWithRemote(): Promise<Shared> {
  const top = tempDir('agentboard-remote-');
  const remote = join(top, 'remote.git');
  git(top, ['init', '-q', '--bare', remote]);
  const first = cloneOf(remote, join(top, 'clone-0'));
  await ok(first, ['init']);
  addPerson(first);
  git(first, ['add', '-A']);
  git(first, ['commit', '-q', '-m', 'A board']);
  git(first, ['push', '-q', 'origin', 'HEAD']);
  return { remote, clones: [first] };
}

/** The board shared through the remote (agentboard remote enable, config.yaml pushed), and `count` clones of it in all. */
export async function sharedBoard(count: number, setup?: (first: string) => Promise<void>): Promise<Shared> {
  const shared = await boardWithRemote();
  const first = shared.clones[0]!;
  if (setup) await setup(first);
  await ok(first, ['remote', 'enable']);
  git(first, ['add', 'agentd/config.yaml']);
  git(first, ['commit', '-q', '-m', 'Share the board']);
  git(first, ['push', '-q', 'origin', 'HEAD']);
  for (let i = 1; i < count; i++) shared.clones.push(cloneOf(shared.remote, join(shared.remote, '..', `clone-${i}`)));
  return shared;
}

/** Another clone of the remote (with config.yaml as pushed). */
export function addClone(shared: Shared): string {
  const dir = cloneOf(shared.remote, join(shared.remote, '..', `clone-${shared.clones.length}`));
  shared.clones.push(dir);
  return dir;
}

/** Commits code.txt with `text` in a clone. */
export function commitCode(dir: string, text: string): void {
  writeFileSync(join(dir, 'code.txt'), text);
  git(dir, ['add', 'code.txt']);
  git(dir, ['commit', '-q', '-m', `code: ${text.trim()}`]);
}

/**
 * Both clones change code.txt; a publishes the board and pushes, b claims a task with `agent`: b's
 * next pull (merge or rebase, as `rebase` says) stops on a conflict in the code.
 */
export async function codeConflict(shared: Shared, agent: string, rebase: boolean): Promise<void> {
  const [a, b] = shared.clones as [string, string];
  commitCode(a, 'from a\n');
  await ok(a, ['remote', 'publish']);
  git(a, ['push', '-q', 'origin', 'HEAD']);
  commitCode(b, 'from b\n');
  await ok(b, ['next', '--as', agent]);
  git(b, ['config', 'pull.rebase', String(rebase)]);
}

/** The files of the board ref on the remote: path → blob id. */
export function remoteTree(shared: Shared): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of git(shared.remote, ['ls-tree', '-r', 'refs/agentboard/board']).split('\n').filter(Boolean)) {
    const [meta, path] = line.split('\t');
    out[path!] = meta!.split(' ')[2]!;
  }
  return out;
}

/** A file of the board ref on the remote. */
export function remoteFile(shared: Shared, path: string): string {
  return git(shared.remote, ['show', `refs/agentboard/board:${path}`]);
}

/** The shared files of a clone's working tree, as the board ref lays them out: path → git blob id. */
export function cloneTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const blob = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  const walk = (rel: string) => {
    const abs = join(dir, 'agentd', rel);
    if (!existsSync(abs)) return;
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(`${rel}/${e.name}`);
      else out[`${rel}/${e.name}`] = blob(readFileSync(join(abs, e.name)));
    }
  };
  walk('changes');
  walk('archive');
  const state = join(dir, 'agentd/.runtime/state.json');
  if (existsSync(state)) out['runtime/state.json'] = blob(readFileSync(state));
  return out;
}

/** The activity log of a clone, parsed. */
export function activityOf(dir: string): { actor: string; action: string; target: string; summary: string }[] {
  const path = join(dir, 'agentd/.runtime/activity.jsonl');
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
}

function stopped(pid: number): boolean {
  return processState(pid) === 'T';
}

/**
 * A command run in its own process that stops itself (SIGSTOP) at a fault point of the store, such
 * as remote:push; resolves once it has stopped. `go()` lets it carry on and gives its exit code and stdout.
 */
export async function stoppedAt(dir: string, args: string[], point: string): Promise<{ child: ChildProcess; go: () => Promise<{ code: number; stdout: string }> }> {
  const child = spawn(process.execPath, [...NODE_ARGS, BIN, ...args], { cwd: dir, env: childEnv({ AGENTBOARD_TEST_FAULT: `stop:${point}` }) });
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const deadline = Date.now() + 30_000;
  while (!stopped(child.pid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (!stopped(child.pid!)) throw new Error(`agentboard ${args.join(' ')} did not stop at ${point}`);
  return {
    child,
    go: async () => {
      child.kill('SIGCONT');
      return { code: await closed, stdout };
    },
  };
}
