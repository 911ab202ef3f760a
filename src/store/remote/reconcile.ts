/**
 * Bringing the working tree's agentd/ to a board commit: after every fetch that moved the board,
 * and whenever a shared file was changed from outside since agentboard wrote it (a branch switched,
 * a file deleted). It goes through the store's commit journal, so a kill -9 leaves either the
 * old state or the new one, and the commit it shows is recorded with it (synced.json).
 *
 * A person's unsaved work is never destroyed. A file is a person's work when it differs from
 * what agentboard last synced, from the commit being brought in, and from the version committed
 * in the current branch (a file equal to that is a snapshot the branch brought, not an edit), by
 * more than line ends and a byte order mark (a checkout with core.autocrlf changes those alone):
 * - a document the board also changed stays as the person left it, and the ledger takes the
 *   board's version as agentboard's last write, so the next write merges the person's edit onto
 *   it (store/merge.ts) and shares the result;
 * - a document the board did not change stays, and is merged the same way by the next write;
 * - anything else about to be replaced or removed is first copied to .runtime/remote/kept/, and
 *   reported.
 * A board file git left unmerged (a merge or a rebase stopped on a conflict in it, both branches
 * having published the board) is git's mix of two copies of the shared board, not a person's work:
 * it is copied to kept/, reported, and replaced by the shared board, which holds both sides' writes.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DOC_FILES, isHeld, type DocType, type Task } from '../../domain/model.js';
import type { ActivityEntry } from '../activity.js';
import type { Board, Notice } from '../board.js';
import { parseDocText } from '../documents.js';
import { filesUnder, fsyncDir, identityOf, newToken, tempPath, writeNewFile } from '../fs.js';
import { commitJournal, discardTemps, writeJournal, type Journal } from '../journal.js';
import { nextEntry, serializeLedger, taskItem, type Ledger } from '../ledger.js';
import { fingerprints } from '../merge.js';
import { alikeBlobIds, blobId, type Git } from './git.js';
import { RemoteFiles, type Dropped, type Synced } from './state.js';
import { ACTIVITY_DIR, activityChunks, activitySize, boardPathOf, readBlobs, readListing, STATE_PATH, type Listing } from './tree.js';
import { refTo } from '../../domain/refs.js';

const DOC_OF_FILE = new Map(Object.entries(DOC_FILES).map(([type, file]) => [file, type as DocType]));

/** The change id and document type of a tree path that is a document of an open change. */
function docOf(treePath: string): { changeId: string; type: DocType } | null {
  const m = /^changes\/([^/]+)\/([^/]+)$/.exec(treePath);
  const type = m ? DOC_OF_FILE.get(m[2]!) : undefined;
  return m && type ? { changeId: m[1]!, type } : null;
}

/** The folder a tree path lives in (changes/<id> or archive/<folder>), or null for runtime files. */
function folderOf(treePath: string): string | null {
  return /^((?:changes|archive)\/[^/]+)\//.exec(treePath)?.[1] ?? null;
}

/** A local file's bytes and identity; null when there is no plain file there (a link is not followed). */
function readLocal(path: string): { bytes: Buffer; identity: string } | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    return st.isFile() ? { bytes: readFileSync(fd), identity: identityOf(st) } : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function identityAt(path: string): string | null {
  try {
    const st = lstatSync(path);
    return st.isFile() ? identityOf(st) : null;
  } catch {
    return null;
  }
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface Target {
  commit: string;
  listing: Listing;
}

export class Reconciler {
  private readonly token = newToken();
  private readonly journal: Journal = { v: 1, token: this.token, dirs: [], files: [], moves: [], removes: [], activity: null, prune: [] };
  private readonly identities: Record<string, string> = {};
  private readonly ledgers = new Map<string, Ledger>();
  private readonly newFolders = new Map<string, string>();
  private branchBlobs: Set<string> | null = null;
  /** Documents this clone wrote while it did not share the board, met as it joins it (no base): see sayDropped. */
  private readonly joined: { p: string; changeId: string; type: DocType; local: string; shared: string; kept: string }[] = [];
  private unmerged: Set<string> | null = null;
  private readonly keptDir: string;
  readonly notices: Notice[] = [];
  private readonly blobs = new Map<string, Buffer>();

  private constructor(
    private readonly board: Board,
    private readonly git: Git,
    private readonly files: RemoteFiles,
    private readonly target: Target,
    private readonly base: Synced | null,
  ) {
    this.keptDir = join(files.path('kept'), new Date().toISOString().replace(/[:.]/g, '-'));
  }

  /**
   * Brings agentd/ to `target` from `base` (what it showed so far; null when this clone never
   * synced), checking every shared file against what agentboard last wrote there.
   */
  static run(board: Board, git: Git, files: RemoteFiles, remote: string, target: Target, base: Synced | null): Notice[] {
    const r = new Reconciler(board, git, files, target, base);
    return r.apply(remote);
  }

  private abs(treePath: string): string {
    return join(this.board.dir, boardPathOf(treePath)!);
  }

  private shown(treePath: string): string {
    return `agentd/${boardPathOf(treePath)}`;
  }

  private idLength(): number {
    return Object.values(this.target.listing)[0]?.blob.length ?? 40;
  }

  /**
   * Whether a blob is a board file's version in the current branch's commit, or in the commit a
   * merge in progress brings (a `git pull` stopped on a conflict): those are snapshots (read once,
   * when needed).
   */
  private inBranch(treePath: string, blob: string): boolean {
    if (!this.branchBlobs) {
      this.branchBlobs = new Set();
      for (const commit of ['HEAD', 'MERGE_HEAD']) {
        const r = this.git.run(['ls-tree', '-r', '-z', commit, '--', 'agentd']);
        for (const record of r.code === 0 ? r.stdout.toString('utf8').split('\0') : []) {
          const m = /^\d+ blob ([0-9a-f]+)\tagentd\/(.+)$/s.exec(record);
          if (m) this.branchBlobs.add(`${m[2]!}\0${m[1]!}`);
        }
      }
    }
    return this.branchBlobs.has(`${boardPathOf(treePath)!}\0${blob}`);
  }

  /** Whether git left a board file unmerged: a merge or a rebase stopped on a conflict in it (read once, when needed). */
  private stoppedOn(treePath: string): boolean {
    if (!this.unmerged) {
      const r = this.git.run(['ls-files', '--unmerged', '-z', '--', 'agentd']);
      const paths = r.code === 0 ? r.stdout.toString('utf8').split('\0').map((record) => /^\d+ [0-9a-f]+ \d\tagentd\/(.+)$/s.exec(record)?.[1]) : [];
      this.unmerged = new Set(paths.filter((p): p is string => p !== undefined));
    }
    return this.unmerged.has(boardPathOf(treePath)!);
  }

  private apply(remote: string): Notice[] {
    const S = this.base?.listing ?? {};
    const N = this.target.listing;
    // The runtime store is looked at even when neither commit has one: this clone's own must not stay.
    const paths = new Set([STATE_PATH, ...Object.keys(S), ...Object.keys(N)].filter((p) => boardPathOf(p) !== null));
    const decisions: { path: string; write: boolean }[] = [];
    for (const p of [...paths].sort()) {
      const d = this.decide(p, S[p]?.blob, N[p]?.blob);
      if (d !== null) decisions.push({ path: p, write: d });
    }
    let activity = this.planActivity();
    const seen = Object.entries(this.identities).every(([p, id]) => this.base?.identities[p] === id);
    if (decisions.length === 0 && !activity && seen && this.base?.commit === this.target.commit) return this.notices;

    const toRead = decisions.filter((d) => d.write).map((d) => N[d.path]!.blob);
    for (const [id, bytes] of readBlobs(this.git, [...toRead, ...(activity?.blobs ?? [])])) this.blobs.set(id, bytes);
    if (activity && activity.from > 0 && !this.appends(activity.from)) {
      // The target's log does not go on from the local one (a board merged from two histories): written again whole.
      activity = { from: 0, blobs: activityChunks(this.target.listing).map((c) => c.entry.blob) };
      for (const [id, bytes] of readBlobs(this.git, activity.blobs.filter((b) => !this.blobs.has(b)))) this.blobs.set(id, bytes);
    }
    // This clone's own log entries are those after the part it shares with the board's log, which is then read whole.
    const dropped = activity?.from === 0 ? this.sayDropped() : [];
    try {
      if (dropped.length > 0) this.stage(this.files.path('dropped.json'), RemoteFiles.droppedText([...this.files.dropped(), ...dropped]));
      for (const d of decisions) {
        if (d.write) this.write(d.path);
        else this.remove(d.path);
      }
      this.pruneFolders(S, N);
      if (activity) this.writeActivity(activity);
      this.stageLedgers();
      for (const [folder, temp] of this.newFolders) this.journal.dirs.push({ target: this.board.rel(join(this.board.dir, folder)), temp: this.board.rel(temp) });
      for (const temp of this.newFolders.values()) fsyncDir(temp);
      const synced: Synced = { remote, commit: this.target.commit, listing: N, identities: this.identities };
      this.stage(this.files.path('synced.json'), RemoteFiles.syncedText(synced));
      // The last commit's renames are made durable first: this sync rewrites files they touched (the log).
      this.board.settleDone();
      writeJournal(this.board.runtimeDir, this.journal, (p) => this.board.rel(p));
    } catch (err) {
      discardTemps(this.board.root, this.journal);
      throw err;
    }
    commitJournal(this.board.root, this.board.runtimeDir, this.journal, (p) => this.board.rel(p));
    this.board.reread();
    return this.notices;
  }

  /**
   * What to do with one shared file: true to write the commit's version, false to remove the
   * local file, null to leave it as it is.
   */
  private decide(p: string, baseBlob: string | undefined, targetBlob: string | undefined): boolean | null {
    const path = this.abs(p);
    const recorded = this.base?.identities[p];
    const identity = identityAt(path);
    if (baseBlob === targetBlob && identity !== null && identity === recorded) {
      this.identities[p] = identity;
      return null;
    }
    const local = identity === null ? null : readLocal(path);
    if (!local) return targetBlob === undefined ? null : true;
    // A file holds a version also when it differs from it only in its line ends or byte order mark (holdsBlob).
    const localBlob = blobId(local.bytes, this.idLength());
    let alike: string[] | undefined;
    const variants = () => (alike ??= alikeBlobIds(local.bytes, this.idLength()));
    const holds = (blob: string | undefined) => blob !== undefined && (blob === localBlob || variants().includes(blob));
    if (holds(targetBlob)) {
      this.identities[p] = local.identity;
      if (baseBlob !== targetBlob) this.adoptDoc(p, local.bytes.toString('utf8'), local.identity);
      return null;
    }
    const snapshot = holds(baseBlob) || this.inBranch(p, localBlob) || variants().some((blob) => this.inBranch(p, blob));
    if (snapshot) return targetBlob === undefined ? false : true;
    if (this.stoppedOn(p)) {
      this.keepFile(p, local.bytes, "git stopped on a conflict in it (a merge or a rebase); the shared board holds both sides' writes and shows instead", "git's version");
      return targetBlob !== undefined;
    }
    // A person's work: this file differs from every version agentboard and git know of.
    const doc = docOf(p);
    if (doc && targetBlob !== undefined) {
      this.identities[p] = local.identity;
      if (baseBlob !== targetBlob) {
        const shared = this.advanceLedger(p, targetBlob);
        if (this.base) {
          this.notices.push({ kind: 'remote', message: `${this.shown(p)}: edited by hand in this clone, and the shared board changed it too: the hand edit is kept, and the next write of the file merges it onto the shared version (${refTo('remote.sync')} merges it now).` });
        } else {
          // Without a base, this clone joins the board (remote enable): what it holds may be its own board's work, no person's edit.
          const kept = this.copyToKept(p, local.bytes);
          this.notices.push({
            kind: 'remote',
            message: `${this.shown(p)}: this clone's version differs from the shared board's (written while this clone did not share the board, or edited by hand); it stays in the file and the next write merges it onto the shared version as a person's edit is, so that no claim or status the shared board holds is undone (${refTo('remote.sync')} does it now). This clone's version is kept in ${kept}.`,
          });
          this.joined.push({ p, changeId: doc.changeId, type: doc.type, local: local.bytes.toString('utf8'), shared, kept });
        }
      }
      return null;
    }
    this.keep(p, local.bytes, targetBlob === undefined ? 'the shared board removed it' : 'the shared board has another version');
    return targetBlob === undefined ? false : true;
  }

  private keep(p: string, bytes: Buffer, why: string): void {
    this.keepFile(p, bytes, `your version differed from every synced one and ${why}`);
  }

  /** Copies a file (by its tree path) into kept/ before a sync replaces it, and says so. */
  private keepFile(p: string, bytes: Buffer, why: string, whose = 'your version'): void {
    this.notices.push({ kind: 'remote', message: `${p.startsWith(ACTIVITY_DIR) ? 'agentd/.runtime/activity.jsonl' : this.shown(p)}: ${why}; ${whose} is kept in ${this.copyToKept(p, bytes)}.` });
  }

  /** Copies a file (by its tree path) into kept/; where, as shown. */
  private copyToKept(p: string, bytes: Buffer): string {
    const copy = join(this.keptDir, p);
    mkdirSync(dirname(copy), { recursive: true });
    writeFileSync(copy, bytes);
    return this.board.rel(copy);
  }

  private stage(path: string, data: string | Buffer): string {
    mkdirSync(dirname(path), { recursive: true });
    const temp = tempPath(path, this.token);
    const identity = writeNewFile(temp, data, this.board.rel(path));
    this.journal.files.push({ target: this.board.rel(path), temp: this.board.rel(temp) });
    return identity;
  }

  private write(p: string): void {
    const bytes = this.blobs.get(this.target.listing[p]!.blob)!;
    const folder = folderOf(p);
    let identity: string;
    if (folder && !isFolder(join(this.board.dir, folder))) {
      let temp = this.newFolders.get(folder);
      if (!temp) {
        mkdirSync(dirname(join(this.board.dir, folder)), { recursive: true });
        temp = tempPath(join(this.board.dir, folder), this.token);
        mkdirSync(temp);
        this.newFolders.set(folder, temp);
      }
      const file = join(temp, p.slice(folder.length + 1));
      mkdirSync(dirname(file), { recursive: true });
      identity = writeNewFile(file, bytes, this.shown(p));
    } else identity = this.stage(this.abs(p), bytes);
    this.identities[p] = identity;
    this.adoptDoc(p, bytes.toString('utf8'), identity);
  }

  private remove(p: string): void {
    this.journal.removes.push(this.board.rel(this.abs(p)));
    const doc = docOf(p);
    if (doc) delete this.ledger(doc.changeId).files[DOC_FILES[doc.type]];
  }

  /** Folders the commit no longer has: a person's other files in them are kept aside, then the folders go. */
  private pruneFolders(S: Listing, N: Listing): void {
    const remaining = new Set(Object.keys(N).map(folderOf).filter(Boolean));
    const gone = new Set(Object.keys(S).map(folderOf).filter((f): f is string => f !== null && !remaining.has(f)));
    for (const folder of gone) {
      const dir = join(this.board.dir, folder);
      for (const rel of filesUnder(dir)) {
        const p = `${folder}/${rel}`;
        if (S[p]) continue;
        const local = readLocal(join(dir, rel));
        if (local) this.keep(p, local.bytes, 'the shared board removed its folder');
        this.journal.removes.push(this.board.rel(join(dir, rel)));
      }
      const subdirs = new Set<string>();
      for (const rel of filesUnder(dir)) for (let d = dirname(rel); d !== '.'; d = dirname(d)) subdirs.add(d);
      for (const d of [...subdirs].sort((a, b) => b.length - a.length)) this.journal.prune!.push(this.board.rel(join(dir, d)));
      this.journal.prune!.push(this.board.rel(dir));
      const change = /^changes\/(.+)$/.exec(folder)?.[1];
      if (change) {
        this.ledgers.delete(change);
        this.journal.removes.push(this.board.rel(this.board.ledgerPath(change)));
      }
    }
  }

  // ---- ledgers: what agentboard last wrote to each document ----------------------------------------

  private ledger(changeId: string): Ledger {
    let l = this.ledgers.get(changeId);
    if (!l) this.ledgers.set(changeId, (l = structuredClone(this.board.ledgerOf(changeId))));
    return l;
  }

  /** Records a document written from the shared board as agentboard's write of it. */
  private adoptDoc(p: string, text: string, identity: string): void {
    const doc = docOf(p);
    if (!doc) return;
    const ledger = this.ledger(doc.changeId);
    const file = DOC_FILES[doc.type];
    ledger.files[file] = nextEntry(ledger.files[file], parseDocText(doc.type, text, this.shown(p)), text, identity);
  }

  /** A person's edit stays in the file; the shared version becomes agentboard's last write, to merge onto. Returns its text. */
  private advanceLedger(p: string, targetBlob: string): string {
    const text = readBlobs(this.git, [targetBlob]).get(targetBlob)!.toString('utf8');
    this.adoptDoc(p, text, `shared:${targetBlob}`);
    return text;
  }

  private stageLedgers(): void {
    for (const [changeId, ledger] of this.ledgers) this.stage(this.board.ledgerPath(changeId), serializeLedger(ledger, this.board.branch()));
  }

  // ---- joining: what this clone wrote while it did not share the board ------------------------------

  /**
   * Joining the shared board, a task list this clone wrote while it did not share it stays, and the
   * next write merges it onto the shared version as a person's edit is. There the board's version of
   * a task stands: this clone's claims, statuses, progress and plan edits were agreed with no other
   * clone, and in its ledger they are earlier writes than the board's version, which the merge never
   * lets an earlier write undo (notes, and a person's new text, are merged in). So that none of it
   * goes unsaid, each task this clone wrote meanwhile (its own entries of the activity log: those
   * after the part it shares with the board's) whose version the board does not hold is named now,
   * with how the board holds it, and recorded for the board's activity log (the next write that lands
   * logs it: dropped.json); the file itself is kept whole (kept/).
   */
  private sayDropped(): Dropped[] {
    const local = readLocal(this.board.activityPath);
    if (!local || !this.joined.some((j) => j.type === 'tasks')) return [];
    const lines = (bytes: Buffer) => bytes.toString('utf8').split('\n').filter(Boolean);
    const mine = lines(local.bytes);
    const board = lines(Buffer.concat(activityChunks(this.target.listing).map((c) => this.blobs.get(c.entry.blob)!)));
    let common = 0;
    while (common < mine.length && mine[common] === board[common]) common++;
    const own = mine.slice(common).flatMap((line): ActivityEntry[] => {
      try {
        return [JSON.parse(line) as ActivityEntry];
      } catch {
        return [];
      }
    });
    const out: Dropped[] = [];
    for (const j of this.joined.filter((j) => j.type === 'tasks')) {
      const writers = new Map<string, Set<string>>();
      for (const e of own) {
        if (e.action.startsWith('task.') && e.action !== 'task.note' && e.target.startsWith(`${j.changeId}/`)) writers.set(e.target, (writers.get(e.target) ?? new Set()).add(e.actor));
      }
      const here = tasksOf(j.local, this.shown(j.p));
      const there = tasksOf(j.shared, this.shown(j.p));
      for (const [ref, actors] of writers) {
        const id = ref.slice(j.changeId.length + 1);
        const mineTask = here.get(id);
        const boardTask = there.get(id);
        const [plan, state] = mineTask ? fingerprints(taskItem(mineTask)) : ['', ''];
        const [boardPlan, boardState] = boardTask ? fingerprints(taskItem(boardTask)) : ['', ''];
        if (plan === boardPlan && state === boardState) continue;
        const claim = mineTask && isHeld(mineTask) && !(boardTask && isHeld(boardTask) && boardTask.assignee === mineTask.assignee && boardTask.claimed_at === mineTask.claimed_at);
        const what = claim
          ? `${mineTask.assignee}'s claim of ${ref} (claimed ${mineTask.claimed_at ?? 'then'})`
          : `what ${[...actors].join(', ')} wrote of ${ref} (${!mineTask ? 'it removed the task' : !boardTask ? 'the task itself' : state === boardState ? 'its plan' : describe(mineTask)})`;
        const summary = `${what}, made while this clone did not share the board, was dropped: ${onBoard(boardTask)}`;
        out.push({ action: claim ? 'task.claim_dropped' : 'task.write_dropped', target: ref, change_id: j.changeId, summary });
        this.notices.push({ kind: 'remote', message: `${this.shown(j.p)}: ${summary}; the board's activity log records it, and this clone's version is kept in ${j.kept}.` });
      }
    }
    return out;
  }

  // ---- the activity log -----------------------------------------------------------------------------

  /**
   * The activity log only grows: when the local log is what the base commit held and the target
   * extends it, what the target added is appended; otherwise the log is written again whole.
   */
  private planActivity(): { blobs: string[]; from: number } | null {
    const S = this.base?.listing ?? {};
    const N = this.target.listing;
    const local = identityAt(this.board.activityPath) === null ? 0 : lstatSync(this.board.activityPath).size;
    const before = activityChunks(S);
    const after = activityChunks(N);
    const total = activitySize(N);
    const extends_ = local === activitySize(S) && total >= local && before.slice(0, -1).every((c) => N[c.path]?.blob === c.entry.blob);
    if (extends_ && local === total) return null;
    const from = extends_ ? local : 0;
    const blobs: string[] = [];
    let start = 0;
    for (const c of after) {
      if (start + c.entry.size > from) blobs.push(c.entry.blob);
      start += c.entry.size;
    }
    return { blobs, from };
  }

  /**
   * Whether the target's log holds the local one (`from` bytes) at its start. The chunks before the
   * one the local log ends in are the base's (planActivity); that one is compared byte by byte,
   * unless the target has it unchanged.
   */
  private appends(from: number): boolean {
    const last = activityChunks(this.base?.listing ?? {}).at(-1);
    if (!last) return true;
    const start = from - last.entry.size;
    const now = this.target.listing[last.path];
    if (now?.blob === last.entry.blob) return true;
    const bytes = now && this.blobs.get(now.blob);
    return bytes !== undefined && bytes.subarray(0, last.entry.size).equals(readRange(this.board.activityPath, start, from));
  }

  private writeActivity(plan: { blobs: string[]; from: number }): void {
    const parts: Buffer[] = [];
    let start = 0;
    for (const c of activityChunks(this.target.listing)) {
      if (start + c.entry.size > plan.from) parts.push(this.blobs.get(c.entry.blob)!.subarray(Math.max(0, plan.from - start)));
      start += c.entry.size;
    }
    const bytes = Buffer.concat(parts);
    if (plan.from > 0) {
      this.journal.activity = { file: this.board.rel(this.board.activityPath), offset: plan.from, text: bytes.toString('utf8') };
      return;
    }
    const local = readLocal(this.board.activityPath);
    if (local && local.bytes.length > 0 && !bytes.subarray(0, local.bytes.length).equals(local.bytes) && !holdsLines(bytes, local.bytes)) {
      this.keepFile(`${ACTIVITY_DIR}local.jsonl`, local.bytes, "this clone's activity log is not the shared board's");
    }
    this.stage(this.board.activityPath, bytes);
  }
}

/** Bytes [start, end) of a file (the part of the activity log a chunk holds). */
export function readRange(path: string, start: number, end: number): Buffer {
  if (end <= start) return Buffer.alloc(0);
  const buf = Buffer.alloc(end - start);
  const fd = openSync(path, 'r');
  try {
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, start + n);
      if (got === 0) break;
      n += got;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Whether a log holds every line of another (a board merged from two histories holds both sides' lines, in another order). */
function holdsLines(log: Buffer, other: Buffer): boolean {
  const lines = new Set(log.toString('utf8').split('\n'));
  return other.toString('utf8').split('\n').every((l) => lines.has(l));
}

/** The tasks of a task list's text, by id. */
function tasksOf(text: string, shown: string): Map<string, Task> {
  const content = parseDocText('tasks', text, shown).content;
  return new Map((content?.blocks ?? []).flatMap((b) => (b.task ? [[b.id, b.task] as const] : [])));
}

function describe(task: Task): string {
  if (isHeld(task)) return `${task.status}, held by ${task.assignee}`;
  return task.status === 'done' && task.assignee ? `done by ${task.assignee}` : task.status;
}

/** How the shared board holds a task, said of a write of this clone's that it does not keep. */
function onBoard(task: Task | undefined): string {
  if (!task) return 'the shared board does not have the task';
  if (isHeld(task)) return `${task.assignee} holds it on the shared board (claimed ${task.claimed_at ?? 'earlier'}${task.status === 'in_progress' ? '' : `, ${task.status}`})`;
  return `the shared board has it ${describe(task)}${task.status === 'done' ? '' : ', held by nobody'}`;
}

/** Reads the listing of a commit (for callers that have only its id). */
export function targetOf(git: Git, commit: string): Target {
  return { commit, listing: readListing(git, commit) };
}
