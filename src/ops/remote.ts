/**
 * A board shared by every clone through a git remote (docs/shared-boards.md): turning it on and
 * off, what this clone's copy stands at, syncing it, and publishing the board into a branch for
 * review. People's commands; an agent's writes sync by themselves.
 */
import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { AgentboardError, fail } from '../errors.js';
import type { Board } from '../store/board.js';
import { REMOTE_NAME, withRemote } from '../store/config.js';
import { filesUnder, readTextFile } from '../store/fs.js';
import { gitReason, holdsBlob } from '../store/remote/git.js';
import { runWithIntent } from '../store/remote/intent.js';
import { RemoteFiles, type Synced } from '../store/remote/state.js';
import { BOARD_REF, foldersOf } from '../store/remote/tree.js';
import type { Transaction } from '../store/transaction.js';
import type { SharedBoard } from '../store/remote/shared.js';
import { defineOp, requireHuman, type Context } from './registry.js';
import { Actor, line } from './schemas.js';
import { refTo, SAME_CALL } from '../domain/refs.js';
import { printable } from '../domain/text.js';

const RemoteName = z.string().regex(REMOTE_NAME, 'a git remote name, like origin').describe('The git remote, as `git remote -v` lists it.');

async function sharedBoard(board: Board, remote?: string): Promise<SharedBoard> {
  const shared = await board.sharing(remote);
  if (!shared) fail('REMOTE_NOT_ENABLED', 'This board is not shared: agentd/config.yaml names no remote.', `Share it with ${refTo('remote.enable')}.`);
  return shared;
}

function configText(board: Board): string {
  return readTextFile(board.configPath, board.rel(board.configPath)) ?? '';
}

/** Folders under agentd/ that the shared board (as last synced) does not hold: they are not read. */
function localOnly(board: Board, synced: Synced | null): string[] {
  if (!synced) return [];
  const folders = foldersOf(synced.listing);
  const out: string[] = [];
  for (const area of ['changes', 'archive']) {
    for (const name of listDir(join(board.dir, area))) if (!name.startsWith('.') && !folders.has(`${area}/${name}`)) out.push(`agentd/${area}/${name}/`);
  }
  return out;
}

export const enableRemote = defineOp({
  name: 'remote.enable',
  summary: 'Share this board with every clone through a git remote (default origin); people only',
  access: 'human',
  ownSync: true,
  input: z.strictObject({ agent_id: Actor, remote: RemoteName.default('origin') }),
  output: z.object({
    remote: z.string(),
    url: z.string(),
    changed: z.boolean().describe('False when the board was already shared through this remote.'),
    joined: z.boolean().describe('True when the remote already held a board, which this clone now shows.'),
    commit: z.string().nullable().describe('The board commit this clone now shows.'),
    local_only: z.array(z.string()).describe('Folders of this clone that the shared board does not hold: they are not read (see docs/shared-boards.md).'),
    next_step: z.string(),
  }),
  cli: { command: 'remote enable', args: ['remote?'] },
  async run(ctx, input) {
    requireHuman(input.agent_id, 'Sharing the board through a remote');
    const board = ctx.board();
    const current = board.config.remote;
    if (current !== undefined && current !== input.remote) {
      fail('REMOTE_ENABLED', `This board is already shared through the remote "${current}".`, `To move it, run ${refTo('remote.disable')}, then ${refTo('remote.enable', { remote: input.remote })}.`);
    }
    const shared = await sharedBoard(board, input.remote);
    const url = shared.check();
    const effect = 'every clone that has it shares the board';
    if (current === input.remote) {
      // Never synced: the first sync joins the remote's board, or, where the remote holds none (agentd/config.yaml given the remote by hand), shares this clone's.
      const joined = !shared.synced() && (await board.locked(() => shared.fetch() !== null));
      if (!shared.synced()) await runWithIntent({ publish: 'board' }, () => board.mutate(() => undefined));
      return { remote: input.remote, url, changed: false, joined, commit: shared.synced()?.commit ?? null, local_only: localOnly(board, shared.synced()), next_step: configStep(board, shared, effect) };
    }
    let joined = false;
    await board.locked((lock) => {
      joined = shared.fetch() !== null;
      // The first clone to enable puts its board on the remote.
      runWithIntent({ publish: 'board' }, () =>
        shared.write(lock, (tx) => {
          tx.putBoardFile('config.yaml', withRemote(configText(board), input.remote));
          tx.log(input.agent_id, 'remote.enable', 'agentd', `shared the board through the remote ${input.remote}`);
        }),
      );
    });
    board.reread();
    return { remote: input.remote, url, changed: true, joined, commit: shared.synced()?.commit ?? null, local_only: localOnly(board, shared.synced()), next_step: configStep(board, shared, effect) };
  },
});

const DisableOut = z.object({ changed: z.boolean(), remote: z.string().nullable(), synced: z.boolean().describe('False when the remote could not be reached: the board is kept as this clone last synced it.'), next_step: z.string() });

export const disableRemote = defineOp({
  name: 'remote.disable',
  summary: 'Stop sharing this board through its git remote; this clone keeps the board as last synced (people only)',
  access: 'human',
  ownSync: true,
  input: z.strictObject({ agent_id: Actor }),
  output: DisableOut,
  cli: { command: 'remote disable' },
  async run(ctx, input) {
    requireHuman(input.agent_id, 'Turning sharing off');
    const board = ctx.board();
    const remote = board.config.remote;
    const effect = 'every clone that has it stops sharing the board (the board ref stays on the remote)';
    if (remote === undefined) return forgetUnshared(board, input.agent_id);
    const shared = await sharedBoard(board);
    refuseWaiting(shared.files, remote, `Sync them first with ${refTo('remote.sync')} (when the remote can be reached), or remove them`);
    const write = (tx: Transaction) => {
      tx.putBoardFile('config.yaml', withRemote(configText(board), null));
      tx.log(input.agent_id, 'remote.disable', 'agentd', `stopped sharing the board through the remote ${remote}`);
    };
    let synced = true;
    await board.locked((lock) => {
      try {
        shared.write(lock, write);
      } catch (err) {
        // A remote that refuses the board's pushes (a hook, a ref protection) must not keep the board shared either.
        if (!(err instanceof AgentboardError) || !['REMOTE_UNREACHABLE', 'REMOTE_REFUSED', 'REMOTE_NO_BOARD', 'REMOTE_NOT_FOUND', 'NOT_A_GIT_REPOSITORY'].includes(err.code)) throw err;
        synced = false;
        board.write(lock, write);
      }
      shared.files.forget();
    });
    board.reread();
    return { changed: true, remote, synced, next_step: configStep(board, shared, effect) };
  },
});

function refuseWaiting(files: RemoteFiles, remote: string, sync: string): void {
  const waiting = files.queue().entries.filter((e) => !e.refused);
  if (waiting.length > 0) {
    fail('QUEUE_NOT_EMPTY', `${waiting.length} write${waiting.length === 1 ? ' made offline waits' : 's made offline wait'} to be pushed to "${remote}" (${waiting.map((e) => `#${e.id}`).join(', ')}).`, `${sync} with ${refTo('remote.drop', { queue_id: waiting[0]!.id })}; then turn sharing off.`);
  }
}

/**
 * Sharing turned off where config.yaml names no remote already (a branch from before the board was
 * shared), though this clone still shares the board: its sync state is forgotten, so that the
 * board, as this clone last synced it, is its own and takes writes again.
 */
async function forgetUnshared(board: Board, agentId: string): Promise<z.input<typeof DisableOut>> {
  const files = new RemoteFiles(board.runtimeDir, (p) => board.rel(p));
  if (!files.hasSynced()) return { changed: false, remote: null, synced: false, next_step: 'Nothing to do: agentd/config.yaml names no remote.' };
  const remote = files.synced()?.remote ?? null;
  await board.locked((lock) => {
    refuseWaiting(files, remote ?? 'the remote', `Sync them first with ${refTo('remote.sync')} on a branch that shares the board, or remove them`);
    board.write(lock, (tx) => tx.log(agentId, 'remote.disable', 'agentd', `stopped sharing the board${remote ? ` through the remote ${remote}` : ''} in this clone`));
    files.forget();
  });
  board.reread();
  return { changed: true, remote, synced: false, next_step: `Nothing to commit: agentd/config.yaml names no remote already. This clone's board is its own now, as it last synced it; the clones that still share it go on through the remote.` };
}

/** The step after config.yaml was changed: commit it and push it, or only push when it is as committed already (sharing turned off, then on again). */
function configStep(board: Board, shared: SharedBoard, effect: string): string {
  const path = board.rel(board.configPath);
  const r = shared.git.run(['status', '--porcelain', '--', path]);
  if (r.code !== 0 || r.stdout.length > 0) return `Commit ${path} (git add ${path} && git commit) and push it: ${effect}.`;
  return `${path} is as committed, so there is nothing to commit; push the branch if the other clones do not have that commit yet: ${effect}.`;
}

const QueuedOut = z.object({ id: z.number().int(), op: z.string(), actor: z.string(), summary: z.string(), queued_at: z.string() });

export const remoteStatus = defineOp({
  name: 'remote.status',
  summary: "Where this clone's copy of the shared board stands: the remote, the last sync, writes waiting to be pushed",
  access: 'human',
  ownSync: true,
  input: z.strictObject({}),
  output: z.object({
    shared: z.boolean(),
    remote: z.string().nullable(),
    url: z.string().nullable(),
    ref: z.string(),
    last_sync: z.string().nullable().describe('When the remote last answered this clone.'),
    commit: z.string().nullable().describe('The board commit this clone shows.'),
    waiting: z.array(QueuedOut).describe('Writes made while the remote could not be reached, pushed in order on the next sync.'),
    refused: z.array(QueuedOut.extend({ code: z.string(), message: z.string(), refused_at: z.string() })).describe('Queued writes the rules no longer allowed when they were replayed: kept, never applied.'),
    interrupted_push: z.object({ summary: z.string(), at: z.string() }).nullable().describe('A write whose push was interrupted; the next command settles it.'),
    local_only: z.array(z.string()).describe('Folders under agentd/ that are not part of the shared board: they are not read.'),
    hand_edited: z.array(z.string()).describe('Documents edited by hand, merged into the shared board by the next write or `agentboard remote sync`.'),
    kept: z.array(z.string()).describe("Copies of a person's files that a sync replaced or removed."),
  }),
  cli: { command: 'remote status' },
  async run(ctx) {
    const board = ctx.board();
    const remote = board.config.remote ?? null;
    const files = new RemoteFiles(board.runtimeDir, (p) => board.rel(p));
    const queue = files.queue().entries;
    const synced = files.synced();
    const shared = remote === null ? null : await sharedBoard(board);
    await shared?.settleForRead();
    const url = shared?.url() ?? null;
    const pending = files.pending();
    const fetched = files.fetchedAt();
    return {
      shared: remote !== null,
      remote,
      url,
      ref: BOARD_REF,
      last_sync: fetched === null ? null : new Date(fetched).toISOString(),
      commit: synced?.commit ?? null,
      waiting: queue.filter((e) => !e.refused).map(queuedOut),
      refused: queue.filter((e) => e.refused).map((e) => ({ ...queuedOut(e), code: e.refused!.code, message: e.refused!.message, refused_at: e.refused!.at })),
      interrupted_push: pending ? { summary: pending.summary, at: pending.at } : null,
      local_only: localOnly(board, synced && synced.remote === remote ? synced : null),
      hand_edited: remote === null ? [] : board.handEdited(),
      kept: filesUnder(files.path('kept')).map((rel) => board.rel(join(files.path('kept'), rel))),
    };
  },
});

function queuedOut(e: { id: number; op: string; actor: string; summary: string; queued_at: string }): z.input<typeof QueuedOut> {
  return { id: e.id, op: e.op, actor: e.actor, summary: e.summary, queued_at: e.queued_at };
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export const syncRemote = defineOp({
  name: 'remote.sync',
  summary: 'Sync now: push the writes queued offline, fetch the shared board, and share the documents edited by hand (people only)',
  access: 'human',
  ownSync: true,
  input: z.strictObject({ agent_id: Actor }),
  output: z.object({
    commit: z.string().nullable(),
    replayed: z.number().int().describe('Queued writes pushed.'),
    refused: z.number().int().describe('Queued writes the rules refused (kept; see agentboard remote status).'),
    merged: z.array(z.string()).describe('Documents edited by hand whose edits are now on the shared board.'),
  }),
  cli: { command: 'remote sync' },
  async run(ctx, input) {
    requireHuman(input.agent_id, 'Syncing the shared board');
    const board = ctx.board();
    const shared = await sharedBoard(board);
    // A remote that holds no board gets this clone's copy back first (SharedBoard.missing).
    await runWithIntent({ publish: 'copy' }, () => board.mutate(() => undefined));
    const { replayQueue } = await import('./shared-run.js');
    const { replayed, refused } = await replayQueue(ctx, shared);
    // The person who syncs shares the hand edits: the shared board's commit and its activity name them.
    const merged = await board.mutate((tx) =>
      board.handEditedDocs().map((d) => {
        tx.readDoc(d.changeId, d.type);
        const file = board.rel(board.docPath(d.changeId, d.type));
        tx.log(input.agent_id, 'file.share', file, `shared the hand edit of ${file}`, d.changeId);
        return file;
      }),
    );
    return { commit: shared.synced()?.commit ?? null, replayed, refused, merged };
  },
});

export const publishRemote = defineOp({
  name: 'remote.publish',
  summary: 'Commit the shared board (agentd/changes and agentd/archive, as last synced) into the current branch, for review (people only)',
  access: 'human',
  ownSync: true,
  input: z.strictObject({ agent_id: Actor, message: line(200).optional().describe('The commit message.') }),
  output: z.object({ committed: z.boolean().describe('False when the branch already holds the board as it is.'), commit: z.string().nullable(), branch: z.string().nullable(), board_commit: z.string().nullable(), files: z.number().int() }),
  cli: { command: 'remote publish' },
  async run(ctx, input) {
    requireHuman(input.agent_id, 'Publishing the board into a branch');
    const board = ctx.board();
    const shared = await sharedBoard(board);
    await board.mutate(() => undefined);
    return board.locked(() => {
      // A commit cannot be made while git waits for a merge or a rebase to be finished: the steps that finish it come first.
      const midway = shared.git.midway();
      if (midway) fail('GIT_FAILED', `git is in the middle of a ${midway} that stopped half-way (on a conflict, say), so no commit can be made; nothing was changed.`, finishStep(shared, midway));
      return publishIntoBranch(board, shared, input.message);
    });
  },
});

/** git add and commit of the board's folders (those of the shared board only) on the current branch. */
function publishIntoBranch(board: Board, shared: SharedBoard, message: string | undefined): { committed: boolean; commit: string | null; branch: string | null; board_commit: string | null; files: number } {
  const synced = shared.synced();
  const specs = shared.areas().filter((p) => listDir(join(board.root, p)).length > 0 || shared.git.run(['ls-files', '--', p]).stdout.length > 0);
  const excludes = localOnly(board, synced).map((f) => `:(exclude)${f.slice(0, -1)}`);
  const branch = shared.git.branch();
  const none = { committed: false, commit: null, branch, board_commit: synced?.commit ?? null, files: 0 };
  if (specs.length === 0) return none;
  const paths = ['--', ...specs, ...excludes];
  // A git add or commit that fails (a pre-commit hook, say) leaves the index as it was: a refused publish stages nothing.
  const index = shared.git.savedIndex();
  const failed = (what: string, stderr: string): never => {
    const restored = shared.git.restoreIndex(index);
    return gitFailed(what, gitReason(stderr), restored ? 'the branch and the index were not changed' : `the branch was not changed, but the board's files may be left staged (\`git restore --staged -- ${specs.join(' ')}\` unstages them)`);
  };
  const add = shared.git.run(['add', '-A', ...paths]);
  if (add.code !== 0) failed('git add', add.stderr);
  const staged = shared.git
    .run(['diff', '--cached', '--name-only', ...paths])
    .stdout.toString('utf8')
    .split('\n')
    .filter(Boolean);
  if (staged.length === 0) return none;
  const text = message ?? `agentboard: the shared board at ${synced?.commit.slice(0, 12) ?? 'its last sync'}`;
  const commit = shared.git.run(['commit', '-q', '-m', text, ...paths]);
  if (commit.code !== 0) failed('git commit', commit.stderr);
  return { committed: true, commit: shared.git.must(['rev-parse', 'HEAD']), branch, board_commit: synced?.commit ?? null, files: staged.length };
}

function gitFailed(what: string, reason: string, changed = 'the branch was not changed'): never {
  return fail('GIT_FAILED', `${what} failed: ${reason}; ${changed}.`, `Fix what git says (git status shows the state), then try ${SAME_CALL} again.`);
}

const AsideOut = z.object({
  branch: z.string().nullable(),
  before: z.string().nullable().describe('The commit checked out before.'),
  after: z.string().nullable().describe('The commit checked out now.'),
  made_way: z.array(z.string()).describe("The board's files that were in git's way: copies of the shared board, taken away for git and written back from the shared board afterwards."),
  board_commit: z.string().nullable(),
});

interface Copy {
  path: string;
  /** The branch's commit (HEAD) holds the path: set back to its version, instead of removed. */
  tracked: boolean;
  /** Staged (git add): unstaged first. */
  staged: boolean;
}

/**
 * The board's files in git's way. A clone that shares the board holds it under agentd/changes and
 * agentd/archive, untracked, changed from the branch's version or staged (git add), and git will
 * not overwrite those when the commit it brings in has the same paths (a board published into the
 * branch, say). A file that holds exactly what this clone last synced, in the working tree and in
 * the index (where a version the shared board held before will do), is a copy of the shared board
 * (`copies`); one that differs is a person's work (`edited`, or `staged` when it is the staged
 * version that differs). Files the shared board does not hold are nobody's copies: they are left
 * to git.
 */
function inGitsWay(board: Board, shared: SharedBoard): { copies: Copy[]; edited: string[]; staged: string[] } {
  const listing = shared.synced()?.listing ?? {};
  const listed = (args: string[]) => {
    const r = shared.git.run([...args, '-z', '--', ...shared.areas()]);
    if (r.code !== 0) gitFailed(`git ${args[0]}`, gitReason(r.stderr), 'nothing was changed');
    return r.stdout.toString('utf8').split('\0').filter(Boolean);
  };
  const entryOf = (path: string) => listing[shared.treePath(path)];
  const out: { copies: Copy[]; edited: string[]; staged: string[] } = { copies: [], edited: [], staged: [] };
  const sort = (path: string, tracked: boolean, staged: boolean) => {
    const entry = entryOf(path);
    const file = join(board.root, path);
    if (!entry || !lstatSync(file, { throwIfNoEntry: false })?.isFile()) return;
    if (holdsBlob(readFileSync(file), entry.blob)) out.copies.push({ path, tracked, staged });
    else out.edited.push(path);
  };
  // Staged: ":<mode> <mode> <blob in HEAD> <blob in the index> <status>", then the path.
  const records = listed(['diff', '--cached', '--raw', '--no-renames', '--no-abbrev']);
  const staged = new Map<string, { blob: string; inHead: boolean }>();
  for (let i = 0; i + 1 < records.length; i += 2) {
    const [, , , blob, status] = records[i]!.split(' ');
    staged.set(records[i + 1]!, { blob: blob!, inHead: status !== 'A' });
  }
  for (const path of listed(['ls-files', '--others', '--exclude-standard'])) sort(path, false, false);
  for (const path of listed(['ls-files', '--modified'])) if (!staged.has(path)) sort(path, true, false);
  // A staged copy may be of an older board (agents wrote since the git add): any version the shared board held is a copy.
  for (const [path, s] of staged) {
    const entry = entryOf(path);
    if (!entry) continue;
    if (s.blob === entry.blob || shared.heldOnce(shared.treePath(path), s.blob)) sort(path, s.inHead, true);
    else out.staged.push(path);
  }
  return out;
}

/** Takes the copies out of git's way: a staged one unstaged, then an untracked one removed, a tracked one set back to the branch's version. */
function makeWay(board: Board, shared: SharedBoard, copies: Copy[]): void {
  const git = (args: string[], paths: string[]) => {
    if (paths.length > 0) shared.git.must(['--literal-pathspecs', ...args, '--pathspec-from-file=-', '--pathspec-file-nul'], { input: paths.join('\0') });
  };
  git(['reset', '-q'], copies.filter((c) => c.staged).map((c) => c.path));
  git(['checkout', '-q'], copies.filter((c) => c.tracked).map((c) => c.path));
  for (const c of copies) if (!c.tracked) rmSync(join(board.root, c.path));
}

/**
 * How to finish a merge or a rebase git stopped half-way. A rebase goes on only with nothing
 * unstaged, and agents keep writing the board's tracked files meanwhile: they are staged as they are.
 */
function finishStep(shared: SharedBoard, midway: 'merge' | 'rebase'): string {
  const settle = 'Settle the conflicts `git status` lists and `git add` them';
  if (midway === 'merge') return `${settle}; then \`git commit\` finishes the merge (\`git merge --abort\` gives it up). The board's files need nothing: they show the shared board, and those git stopped on are staged.`;
  const areas = shared.areas().filter((p) => shared.git.run(['ls-files', '--', p]).stdout.length > 0);
  const stage = areas.length > 0 ? `, stage the board's files as agents left them with \`git add -u -- ${areas.join(' ')}\`` : '';
  return `${settle}${stage}, then \`git rebase --continue\` goes on (\`git rebase --abort\` gives it up).`;
}

/**
 * Runs a git command that brings commits into the working tree (git pull, git switch) with the
 * board's copies out of its way, all within the board lock, so that no write of this clone's
 * agents puts them back meanwhile: the copies are taken away (makeWay), git runs, and agentd/ is
 * brought back to the shared board as this clone last synced it (SharedBoard.runAside), whether
 * git succeeded, stopped on a conflict, or the command was killed. Nothing of the board is lost:
 * those copies are on the remote. A person's work in the way stops it before anything changes.
 */
async function asideForGit(ctx: Context, agentId: string, gitArgs: string[], check: (shared: SharedBoard) => void = () => undefined, lastShared = false): Promise<z.input<typeof AsideOut>> {
  requireHuman(agentId, `Running git ${gitArgs[0]} with the shared board's files out of its way`);
  const board = ctx.board();
  // On a branch from before the board was shared, a switch goes by the remote this clone last shared through: it is the way back.
  const named = board.config.remote;
  const shared = await sharedBoard(board, lastShared ? (named ?? new RemoteFiles(board.runtimeDir, (p) => board.rel(p)).synced()?.remote) : undefined);
  // What waits to be pushed goes first; a branch that names no remote has no write to make.
  if (named !== undefined) await board.mutate(() => undefined);
  return board.locked(() => {
    const midway = shared.git.midway();
    if (midway) fail('GIT_FAILED', `git is in the middle of a ${midway} that stopped half-way (on a conflict, say); nothing was changed.`, finishStep(shared, midway));
    check(shared);
    const { copies, edited, staged } = inGitsWay(board, shared);
    if (edited.length > 0) {
      fail(
        'HAND_EDITED',
        `${printable(edited.join(', '), 400)} ${edited.length === 1 ? 'differs' : 'differ'} from the shared board (edited here, not shared yet), and git may overwrite ${edited.length === 1 ? 'it' : 'them'}; nothing was changed.`,
        `Share the edits with ${refTo('remote.sync')} (a file it does not share, move out of agentd/), then try ${SAME_CALL} again.`,
      );
    }
    if (staged.length > 0) {
      fail('HAND_EDITED', `${printable(staged.join(', '), 400)} ${staged.length === 1 ? 'is' : 'are'} staged (git add or git rm) in a version that differs from the shared board, and git may overwrite it; nothing was changed.`, `Commit what you staged, or unstage it with \`git restore --staged\` followed by the files (the working tree keeps them as they are); then try ${SAME_CALL} again.`);
    }
    const head = () => shared.git.run(['rev-parse', '-q', '--verify', 'HEAD']).stdout.toString('utf8').trim() || null;
    const before = head();
    const r = shared.runAside(() => makeWay(board, shared, copies), gitArgs);
    if (r.code !== 0) {
      const stopped = shared.git.midway();
      const reason = gitReason(`${r.stdout.toString('utf8')}\n${r.stderr}`, true);
      if (!stopped) gitFailed(`git ${gitArgs.join(' ')}`, reason, 'agentd/ shows the shared board as before');
      fail('GIT_FAILED', `git ${gitArgs.join(' ')} stopped half-way: ${reason}; agentd/ shows the shared board.`, finishStep(shared, stopped));
    }
    return { branch: shared.git.branch(), before, after: head(), made_way: copies.map((c) => c.path), board_commit: shared.synced()?.commit ?? null };
  });
}

export const pullBeside = defineOp({
  name: 'remote.pull',
  summary: "git pull, with the shared board's files out of git's way: for a pull that brings a published board (people only)",
  access: 'human',
  ownSync: true,
  input: z.strictObject({ agent_id: Actor }),
  output: AsideOut,
  cli: { command: 'remote pull' },
  run: (ctx, input) => asideForGit(ctx, input.agent_id, ['pull', '--quiet']),
});

export const switchBeside = defineOp({
  name: 'remote.switch',
  summary: "git switch to a branch, with the shared board's files out of git's way (people only)",
  access: 'human',
  ownSync: true,
  input: z.strictObject({
    agent_id: Actor,
    branch: z.string().min(1).max(255).regex(/^[^-\s][^\s]*$/, 'a branch name, like main').describe('The branch to switch to, as `git branch -a` lists it.'),
  }),
  output: AsideOut,
  cli: { command: 'remote switch', args: ['branch'] },
  run: (ctx, input) =>
    asideForGit(ctx, input.agent_id, ['switch', '--quiet', input.branch], (shared) => {
      const local = shared.git.run(['rev-parse', '-q', '--verify', `refs/heads/${input.branch}`]).code === 0;
      if (!local && shared.git.must(['for-each-ref', '--format=%(refname)', `refs/remotes/*/${input.branch}`]) === '') {
        fail('INVALID_INPUT', `This repository has no branch "${printable(input.branch)}"; nothing was changed.`, `\`git branch -a\` lists the branches (\`git fetch\` brings new ones); then run ${refTo('remote.switch')} again.`);
      }
    }, true),
});

export const dropQueued = defineOp({
  name: 'remote.drop',
  summary: 'Remove a write queued offline (one the rules refused, or one you no longer want pushed); people only',
  access: 'human',
  ownSync: true,
  input: z.strictObject({ agent_id: Actor, queue_id: z.coerce.number().int().min(1).describe('The number of the queued write, as `agentboard remote status` shows it.') }),
  output: z.object({ dropped: QueuedOut }),
  cli: { command: 'remote drop', args: ['queue_id'] },
  async run(ctx: Context, input) {
    requireHuman(input.agent_id, 'Removing a queued write');
    const board = ctx.board();
    const files = new RemoteFiles(board.runtimeDir, (p) => board.rel(p));
    return board.locked(() => {
      const queue = files.queue();
      const entry = queue.entries.find((e) => e.id === input.queue_id);
      if (!entry) fail('QUEUED_WRITE_NOT_FOUND', `There is no queued write #${input.queue_id}.`, `See the queue with ${refTo('remote.status')}.`);
      queue.entries = queue.entries.filter((e) => e.id !== entry.id);
      files.writeQueue(queue);
      return { dropped: queuedOut(entry) };
    });
  },
});

export const REMOTE_OPS = [enableRemote, disableRemote, remoteStatus, syncRemote, publishRemote, pullBeside, switchBeside, dropQueued];
