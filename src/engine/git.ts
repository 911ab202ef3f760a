/**
 * git for the run: a worktree and a branch per task, outside the repository's working tree; the
 * agent's leftovers committed on its branch; finished branches merged with --merge. Every git
 * command goes through execa.
 */
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmdirSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { execa } from 'execa';
import { shellWord } from '../shell.js';
import { fail } from '../errors.js';

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** git itself could not be started (not on PATH). */
  missing?: boolean;
}

export interface Workspace {
  /** Where the worker runs: the task's worktree (at the board's place in it), or the repository root. */
  dir: string;
  /** The worktree's top folder, where git commands for the task run; null without worktrees. */
  worktree: string | null;
  branch: string | null;
  /** Branches merged into a new worktree so the worker starts from its dependencies' work, and those that conflicted. */
  merged: string[];
  conflicts: string[];
  /** What a hook of the repository said when it failed after git made the worktree (a post-checkout hook). */
  hookFailed?: string;
}

/**
 * What became of what an agent left uncommitted in its worktree: committed, or refused by git (what
 * git said, and the commands that commit it by hand once git can). Null: nothing was left.
 */
export type Leftovers = { commit: string } | { refused: string; command: string } | null;

/** Where a worker's turn in its worktree starts from (Git.turnStart). */
export interface TurnStart {
  moves: number;
  tips: Map<string, string>;
}

export function taskBranch(changeId: string, localTaskId: string): string {
  return `agentboard/${changeId}/${localTaskId}`;
}

/** Where the task's own work starts on its branch (after the merges it started from): its diff is start..branch. */
function startRef(changeId: string, localTaskId: string): string {
  return `refs/agentboard/start/${changeId}/${localTaskId}`;
}

/** The default place of worktrees: a folder beside the repository, named after it. */
export function defaultWorktreesDir(top: string): string {
  return join(dirname(top), `${basename(top)}.agentboard-worktrees`);
}

/** What git said when it refused: its error lines, else the first lines it said (its hints left out). */
function gitSaid(r: GitResult): string {
  const lines = r.stderr.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('hint:'));
  const errors = lines.filter((l) => /^(error|fatal):/.test(l));
  return (errors.length > 0 ? errors : lines.slice(0, 6)).join(' ') || 'git exited with an error';
}

async function git(cwd: string, args: string[], env?: Record<string, string>): Promise<GitResult> {
  const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore', env, extendEnv: true });
  return { ok: r.exitCode === 0, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), missing: (r as { code?: string }).code === 'ENOENT' };
}

/**
 * The git command that gives a file of the working tree back its last committed version, run from
 * `cwd` (`path` relative to it); null when git holds no other version of it: never committed (or
 * added only), unchanged since its commit, or no repository at all.
 */
export async function restoreCommand(cwd: string, path: string, shown = path): Promise<string | null> {
  const status = await git(cwd, ['status', '--porcelain', '--', path]).catch(() => null);
  const xy = status?.ok ? status.stdout.slice(0, 2) : '';
  if (xy === '' || xy === '??' || xy[0] === 'A') return null;
  // Changed in the working tree only: the index holds the committed version; staged too: HEAD does.
  return xy[0] === ' ' ? `git checkout -- ${shown}` : `git checkout HEAD -- ${shown}`;
}

/** Why a folder cannot hold worktrees: the path in the way, what is wrong with it, and whether it is a matter of permissions. */
interface Unusable {
  path: string;
  why: string;
  denied: boolean;
}

/**
 * Why a folder cannot hold worktrees: something other than a folder at its place or on the way to
 * it, or a folder this user may not write in. Null when it can (the folders still missing are made
 * when a worktree needs them).
 */
function unusableFolder(dir: string): Unusable | null {
  for (let path = dir; ; path = dirname(path)) {
    let st: Stats | undefined;
    try {
      st = statSync(path, { throwIfNoEntry: false });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const target = danglingLink(path);
      if (target !== null) return { path, why: `${shellWord(path)} is a symbolic link to ${shellWord(target)}, which is no folder and cannot be made one`, denied: false };
      // A file above it, or a folder above it this user may not look into: said when the walk up reaches it.
      if (code === 'ENOTDIR' || code === 'EACCES') continue;
      return { path, why: `${shellWord(path)} cannot be looked at (${code})`, denied: false };
    }
    if (st === undefined) {
      const target = danglingLink(path);
      if (target !== null) return { path, why: `${shellWord(path)} is a symbolic link to ${shellWord(target)}, which does not exist`, denied: false };
      if (dirname(path) === path) return null;
      continue;
    }
    if (!st.isDirectory()) return { path, why: `${shellWord(path)} is ${st.isFile() ? 'a file' : 'something other than a folder'}, where a folder belongs`, denied: false };
    try {
      accessSync(path, constants.W_OK | constants.X_OK);
    } catch {
      return { path, why: `this user may not write in ${shellWord(path)} (permission denied)`, denied: true };
    }
    return null;
  }
}

/** Where a symbolic link at `path` points when what it points to is not there; null for anything else. */
function danglingLink(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null;
  }
}

/** Refuses a folder of worktrees that cannot be used, naming it and what to do. */
function refuseUnusable(dir: string, unusable: Unusable, setting: string | undefined): never {
  const fix = unusable.denied ? `Give this user write access to ${shellWord(unusable.path)}` : `Move ${shellWord(unusable.path)} aside`;
  return fail(
    'RUN_REFUSED',
    `The tasks' worktrees go in ${shellWord(dir)} (${setting ? 'run: worktrees: in agentd/config.yaml' : 'beside the repository, as run: worktrees: is not set'}), and it cannot be used: ${unusable.why}.`,
    `${fix}, or set run: worktrees: in agentd/config.yaml to a folder outside the repository that you can write in; then run again (or run with --no-worktrees to share the working tree).`,
  );
}

/** What archiving a change did with the worktrees of its tasks. */
export interface LetGo {
  removed: string[];
  kept: { path: string; reason: string }[];
}

/**
 * The worktrees `agentboard run` made for a change's tasks (on branches agentboard/<change_id>/…),
 * let go once the change is archived: each one git removes as it is (nothing uncommitted in it)
 * goes, with the change's folder of worktrees once empty; its branch, which holds the task's
 * commits, stays. A worktree with work left in it is kept and named. `root`: any folder of the
 * repository; without git or a repository there is nothing to let go.
 */
export async function letGoOfWorktrees(root: string, changeId: string): Promise<LetGo> {
  const out: LetGo = { removed: [], kept: [] };
  const list = await git(root, ['worktree', 'list', '--porcelain']);
  if (!list.ok) return out;
  const branch = `branch refs/heads/${taskBranch(changeId, '')}`;
  const folders = new Set<string>();
  for (const entry of list.stdout.split('\n\n')) {
    const lines = entry.split('\n');
    const path = lines.find((l) => l.startsWith('worktree '))?.slice('worktree '.length);
    if (!path || !lines.some((l) => l.startsWith(branch))) continue;
    const removed = await git(root, ['worktree', 'remove', path]);
    if (removed.ok) {
      out.removed.push(path);
      folders.add(dirname(path));
    } else {
      out.kept.push({ path, reason: keptBecause(path, removed.stderr) });
    }
  }
  for (const folder of folders) {
    try {
      if (readdirSync(folder).length === 0) rmdirSync(folder);
    } catch {
      // gone already
    }
  }
  return out;
}

/**
 * Why a task's worktree was kept, and what the person does with it: never git's own advice for work
 * left in it (`use --force`), which would delete that work.
 */
function keptBecause(path: string, stderr: string): string {
  if (/modified or untracked files/.test(stderr)) {
    return `it holds changes not committed; look at them with \`git -C ${path} status\`, commit what is worth keeping (or copy it elsewhere), then remove it with \`git worktree remove ${path}\``;
  }
  return stderr.trim().split('\n').pop()?.replace(/^fatal: /, '') || 'git could not remove it';
}

/**
 * Commits need an identity. Where git cannot make one (nothing configured, or a part missing that
 * user.useConfigOnly forbids it to guess), the person the run acts for fills in what is missing:
 * the committer of the agents' commits, whose author is the agent, and the author of merges.
 */
async function identityFor(top: string, person: string): Promise<Record<string, string>> {
  if ((await git(top, ['var', 'GIT_COMMITTER_IDENT'])).ok) return {};
  const fallback = person.replace(/^human:/, '');
  const name = (await git(top, ['config', 'user.name'])).stdout.trim() || fallback;
  const email = (await git(top, ['config', 'user.email'])).stdout.trim() || `${fallback.replace(/[^A-Za-z0-9._-]/g, '-')}@agentboard.invalid`;
  return { GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email, GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email };
}

export class Git {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    /** The top of the repository's working tree. */
    readonly top: string,
    /** The board root's place inside the working tree ("" when agentd/ is at the top). */
    readonly boardPath: string,
    readonly worktreesDir: string,
    private readonly identity: Record<string, string>,
    /** run: worktrees: as config.yaml sets it, if it does. */
    private readonly setting: string | undefined,
  ) {}

  /**
   * The repository the board is in, when tasks can have worktrees there: git is installed, the
   * board is in a work tree with at least one commit. Otherwise the reason they cannot.
   */
  static async open(root: string, worktreesSetting: string | undefined, person: string): Promise<Git | string> {
    let top: GitResult;
    try {
      top = await git(root, ['rev-parse', '--show-toplevel']);
    } catch {
      return 'git is not installed';
    }
    if (top.missing) return 'git is not installed (not found on PATH)';
    if (!top.ok) return 'the board is not in a git repository';
    const topDir = top.stdout.trim();
    if (!(await git(topDir, ['rev-parse', '--verify', '--quiet', 'HEAD'])).ok) return 'the repository has no commit yet';
    const dir = worktreesSetting ? resolve(root, worktreesSetting) : defaultWorktreesDir(topDir);
    const inside = relative(topDir, dir);
    if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
      fail('RUN_REFUSED', `run: worktrees: ${worktreesSetting} is inside the repository's working tree.`, 'Point run: worktrees: in agentd/config.yaml at a folder outside the repository, like ../my-repo.worktrees, or leave it out.');
    }
    const unusable = unusableFolder(dir);
    if (unusable) refuseUnusable(dir, unusable, worktreesSetting);
    return new Git(topDir, relative(topDir, root), dir, await identityFor(topDir, person), worktreesSetting);
  }

  /** git commands on the main repository, one at a time (worktree add and merge share its index and config). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  run(args: string[], cwd = this.top): Promise<GitResult> {
    return git(cwd, args, this.identity);
  }

  worktreeOf(changeId: string, localTaskId: string): string {
    return join(this.worktreesDir, changeId, localTaskId);
  }

  /** The task's worktree on its branch, made when missing; `bases` are merged into a new one. */
  async prepare(changeId: string, localTaskId: string, bases: string[]): Promise<Workspace> {
    const branch = taskBranch(changeId, localTaskId);
    const worktree = this.worktreeOf(changeId, localTaskId);
    const ws: Workspace = { dir: join(worktree, this.boardPath), worktree, branch, merged: [], conflicts: [] };
    if (existsSync(join(worktree, '.git'))) return ws;
    await this.serial(async () => {
      try {
        mkdirSync(dirname(worktree), { recursive: true });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        refuseUnusable(this.worktreesDir, unusableFolder(dirname(worktree)) ?? { path: dirname(worktree), why: `${shellWord(dirname(worktree))} could not be made (${code})`, denied: code === 'EACCES' || code === 'EPERM' }, this.setting);
      }
      await this.run(['worktree', 'prune']);
      const exists = (await this.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).ok;
      const added = await this.run(exists ? ['worktree', 'add', '-q', worktree, branch] : ['worktree', 'add', '-q', '-b', branch, worktree, 'HEAD']);
      // A post-checkout hook that fails makes git fail once the worktree is made and checked out: the task is worked there all the same.
      if (!added.ok && existsSync(join(worktree, '.git'))) ws.hookFailed = gitSaid(added);
      else if (!added.ok) fail('RUN_REFUSED', `git could not make the worktree of ${changeId}/${localTaskId} at ${shellWord(worktree)}: ${added.stderr.trim().split('\n').pop()}`, `Remove ${shellWord(worktree)} (git worktree remove ${shellWord(worktree)}), or set run: worktrees: in agentd/config.yaml, then run again.`);
      if (exists) return;
      for (const base of bases) {
        // --no-verify: these merges only start the task's branch from work already on branches, as the commits of what agents left record it.
        const merge = await this.run(['merge', '--no-verify', '--no-edit', '-m', `Start ${branch} from ${base}`, base], worktree);
        if (merge.ok) ws.merged.push(base);
        else {
          await this.run(['merge', '--abort'], worktree);
          ws.conflicts.push(base);
        }
      }
      await this.run(['update-ref', startRef(changeId, localTaskId), 'HEAD'], worktree);
    });
    return ws;
  }

  /** Commits what the agent left uncommitted in its worktree (none: the task works in the repository itself), with the agent as author. */
  async commitLeftovers(worktree: string | null, agentId: string, message: string): Promise<Leftovers> {
    if (!worktree) return null;
    const status = await this.run(['status', '--porcelain'], worktree);
    if (!status.ok || status.stdout.trim() === '') return null;
    // In a sparse checkout, what the agent wrote outside the folders checked out is its work too.
    const sparse = (await this.run(['config', '--bool', 'core.sparseCheckout'], worktree)).stdout.trim() === 'true';
    const add = ['add', '-A', ...(sparse ? ['--sparse'] : [])];
    // --no-verify: the commit records what the agent left, as it is; the person's hooks run on their own commits and merges.
    const commit = (text: string) => ['commit', '--no-verify', '-m', text, '--author', `${agentId} <${agentId}@agents.agentboard.invalid>`];
    for (const args of [add, commit(message)]) {
      const r = await this.run(args, worktree);
      // Refused (a signing key git cannot use, a line-ending check…): the work stays where it is, with the commands that commit it by hand.
      if (!r.ok) return { refused: gitSaid(r), command: [add, commit(message.split('\n')[0]!)].map((a) => `git -C ${shellWord(worktree)} ${a.map(shellWord).join(' ')}`).join(' && ') };
    }
    return { commit: (await this.run(['rev-parse', 'HEAD'], worktree)).stdout.trim() };
  }

  /**
   * Where a task's worktree stands when it is no longer on the task's branch (its agent switched
   * branches, renamed the branch, or left HEAD detached): the branch it is on (null when detached),
   * its commit, the commits there that the task's branch lacks (when the branch is gone, those its
   * start lacks), and whether the task's branch is gone. Null while it is on the branch (or cannot be read).
   */
  async offBranch(changeId: string, localTaskId: string): Promise<{ on: string | null; head: string; commits: string[]; gone: boolean } | null> {
    const worktree = this.worktreeOf(changeId, localTaskId);
    const branch = taskBranch(changeId, localTaskId);
    const on = await this.run(['symbolic-ref', '-q', '--short', 'HEAD'], worktree);
    if (on.ok && on.stdout.trim() === branch) return null;
    const head = await this.run(['rev-parse', 'HEAD'], worktree);
    if (!head.ok) return null;
    const gone = !(await this.branchExists(branch));
    const start = startRef(changeId, localTaskId);
    const base = !gone ? `refs/heads/${branch}` : (await this.run(['rev-parse', '--verify', '--quiet', start])).ok ? start : null;
    const commits = base ? (await this.run(['rev-list', `${base}..HEAD`], worktree)).stdout.split('\n').filter(Boolean) : [];
    return { on: on.ok ? on.stdout.trim() : null, head: head.stdout.trim(), commits, gone };
  }

  /** Where a turn in a worktree starts from: how many moves its HEAD has made, and the tip of every branch. */
  async turnStart(worktree: string): Promise<TurnStart> {
    return { moves: (await this.headMoves(worktree)).length, tips: await this.tips() };
  }

  /**
   * The branches other than the task's that the turn committed on in the worktree and left, with
   * their commits the task's branch lacks: HEAD was at their tip during the turn, and the tip is new
   * or moved since it started (a `git checkout -b`, commits, and back to the task's branch).
   */
  async leftBranches(worktree: string, branch: string, start: TurnStart): Promise<{ on: string; commits: string[] }[]> {
    const moves = await this.headMoves(worktree);
    const visited = new Set(moves.slice(0, moves.length - start.moves));
    const out: { on: string; commits: string[] }[] = [];
    for (const [name, tip] of await this.tips()) {
      if (name === branch || start.tips.get(name) === tip || !visited.has(tip)) continue;
      const commits = (await this.run(['rev-list', `refs/heads/${branch}..${tip}`], worktree)).stdout.split('\n').filter(Boolean);
      if (commits.length > 0) out.push({ on: name, commits });
    }
    return out;
  }

  /** The commits the worktree's HEAD was at, newest first (its reflog). */
  private async headMoves(worktree: string): Promise<string[]> {
    return (await this.run(['reflog', 'show', '--format=%H', 'HEAD'], worktree)).stdout.split('\n').filter(Boolean);
  }

  private async tips(): Promise<Map<string, string>> {
    const r = await this.run(['for-each-ref', '--format=%(objectname) %(refname:short)', 'refs/heads']);
    return new Map(r.stdout.split('\n').filter(Boolean).map((l) => [l.slice(l.indexOf(' ') + 1), l.slice(0, l.indexOf(' '))] as [string, string]));
  }

  /**
   * Whether the task's start is recorded here: a run of this repository started it, or its branch,
   * made by another clone's run, was here before a merge (keepStart). A task another clone worked on
   * whose branch never came here has none.
   */
  async startedHere(changeId: string, localTaskId: string): Promise<boolean> {
    return (await this.run(['rev-parse', '--verify', '--quiet', startRef(changeId, localTaskId)])).ok;
  }

  /**
   * Records where a branch made in another clone leaves the current branch as the start of the
   * task's own work, before --merge merges it: its diff then stays that work once it is merged
   * (from the current branch, it would be empty).
   */
  async keepStart(changeId: string, localTaskId: string): Promise<void> {
    const base = await this.run(['merge-base', 'HEAD', `refs/heads/${taskBranch(changeId, localTaskId)}`]);
    if (base.ok) await this.run(['update-ref', startRef(changeId, localTaskId), base.stdout.trim()]);
  }

  async branchExists(branch: string): Promise<boolean> {
    return (await this.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).ok;
  }

  async isMerged(branch: string): Promise<boolean> {
    return (await this.run(['merge-base', '--is-ancestor', branch, 'HEAD'])).ok;
  }

  /** The files of the repository's own working tree that differ from its last commit (untracked ones too, or not), outside the board's folder (which the run itself writes). */
  private async changedFiles(untracked: boolean): Promise<string[]> {
    // -z: the names as they are (git quotes a name with a space or other than plain ASCII otherwise).
    const r = await this.run(['status', '--porcelain', '-z', `--untracked-files=${untracked ? 'all' : 'no'}`, '--', '.', `:(exclude)${this.boardPath ? `${this.boardPath}/` : ''}agentd`]);
    if (!r.ok) return [];
    const fields = r.stdout.split('\0');
    const files: string[] = [];
    for (let i = 0; i < fields.length; i++) {
      const entry = fields[i]!;
      if (!entry) continue;
      files.push(entry.slice(3));
      // A rename or copy is followed by the name it had, a field of its own.
      if (/[RC]/.test(entry.slice(0, 2))) i++;
    }
    return files;
  }

  /** The files of the working tree with changes not committed, outside the board's folder; at most `max`. */
  async uncommitted(max = 5): Promise<string[]> {
    return (await this.changedFiles(false)).slice(0, max);
  }

  /** Every changed file of the repository's own working tree, untracked ones too: a worker with a worktree of its own should change none. */
  async changedOutsideWorktrees(): Promise<Set<string>> {
    return new Set(await this.changedFiles(true));
  }

  /** Which of `names` (files in the board's folder, agentd/) the branch's own work changes, as paths from the top. */
  async branchChanges(branch: string, names: string[]): Promise<string[]> {
    const paths = names.map((n) => join(this.boardPath, 'agentd', n));
    // -z: the names as they are (git quotes a name with other than plain ASCII otherwise).
    const r = await this.run(['diff', '--name-only', '-z', `HEAD...${branch}`, '--', ...paths]);
    return r.stdout.split('\0').filter(Boolean);
  }

  /** Merges a branch into the current branch; on a conflict, aborts and names the conflicting files. */
  merge(branch: string, message: string): Promise<{ ok: true } | { ok: false; files: string[]; message: string }> {
    return this.serial(async () => {
      const r = await this.run(['merge', '--no-ff', '--no-edit', '-m', message, branch]);
      if (r.ok) return { ok: true as const };
      const files = (await this.run(['diff', '--name-only', '--diff-filter=U'])).stdout.split('\n').filter(Boolean);
      // Conflicted, or stopped before its commit (a hook or the signing refused it): either way the merge is undone.
      if ((await this.run(['rev-parse', '-q', '--verify', 'MERGE_HEAD'])).ok) await this.run(['merge', '--abort']);
      // git's word to complete the merge with a commit is left out: the merge is undone.
      const said = (r.stderr || r.stdout).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('Not committing merge'));
      return { ok: false as const, files, message: said.slice(-3).join(' ') };
    });
  }

  /** What the task's branch changes (its own work, not what it started from): the stat and the patch, cut to `max` characters. */
  async diff(changeId: string, localTaskId: string, max: number): Promise<string> {
    const start = startRef(changeId, localTaskId);
    const range = (await this.run(['rev-parse', '--verify', '--quiet', start])).ok ? `${start}..${taskBranch(changeId, localTaskId)}` : `HEAD...${taskBranch(changeId, localTaskId)}`;
    const stat = (await this.run(['diff', '--stat', range])).stdout.trim();
    if (!stat) return '';
    const patch = (await this.run(['diff', range])).stdout;
    const cut = patch.length > max ? `${patch.slice(0, max)}\n… (cut at ${max} characters; see \`git diff ${range}\`)` : patch;
    return `${stat}\n\n${cut}`.trim();
  }
}
