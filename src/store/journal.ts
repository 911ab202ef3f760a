/**
 * The commit journal: how one operation's writes land all together or not at all, across a
 * kill -9 at any instant, and stay once the operation has answered, across a power cut.
 *
 * A transaction first writes every new file to a temp file next to its target (new folders are
 * built under a temp name) and checks that nothing it read has changed. Then it puts
 * agentd/.runtime/journal.json in place, naming every rename still to do (with the SHA-1 of each
 * temp file's bytes) and the activity entries to append, and makes the temp files, the journal and
 * their folders durable in one round of fsyncs made together: from then on the operation has
 * happened. Applying it renames the temp files into place and appends the activity entries, and
 * the journal becomes journal.done.json. The next commit makes those renames and appends durable
 * in its own round of fsyncs, then removes journal.done.json: one round of fsyncs per operation,
 * and nothing lost in between, since the done journal can still redo whatever of it a power cut
 * undid.
 *
 * Applying is idempotent, so the next command that takes the lock simply applies a journal it
 * finds (roll forward). A journal whose temp files are not all there with the bytes it names was
 * cut short by a power cut before its round of fsyncs ended, before anything was renamed: it is
 * dropped with its temp files (roll back). Temp files without a journal belong to a transaction
 * that never committed and are removed.
 */
import { closeSync, constants, linkSync, lstatSync, openSync, readdirSync, readSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { faultPoint } from '../clock.js';
import { appendFile, fsError, isNamed, readAll, readBoardFile, syncAll, unlinkIfThere, writeNewFile } from './fs.js';
import { sha1 } from './hash.js';

export interface Journal {
  v: 1;
  token: string;
  /** New folders, built under a temp name; paths relative to the repository root, with the SHA-1 of each file in them. */
  dirs: { target: string; temp: string; hashes?: Record<string, string> }[];
  /**
   * Files to rename into place, with the SHA-1 of the temp file's bytes (absent in journals of older
   * versions); for a document, `replaces`: the SHA-1 of the file the commit checked, which it puts
   * its own in place of without renaming over it (linkInPlace): anything else found there is a save.
   */
  files: { target: string; temp: string; hash?: string; replaces?: string }[];
  moves: { from: string; to: string }[];
  /** Moved out of the way before anything else is put in place (the originals of a folder converted in place). */
  aside?: { from: string; to: string }[];
  /** Files to remove after the renames (bookkeeping of an archived change). */
  removes: string[];
  /** Folders to remove after that when they are empty, deepest first (a change a sync took away). */
  prune?: string[];
  activity: { file: string; offset: number; text: string } | null;
}

export const JOURNAL_FILE = 'journal.json';
/** The journal of the last commit, applied, whose renames and appends the next commit makes durable. */
export const DONE_FILE = 'journal.done.json';

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // a file where a folder of the path belongs: nothing is there
  }
}

/** Every path of a journal is inside the board, as agentboard writes them: a journal naming anything else is no journal of agentboard's. */
function insideBoard(journal: Journal): boolean {
  const paths = [
    ...journal.dirs.flatMap((d) => [d.target, d.temp, ...Object.keys(d.hashes ?? {})]),
    ...journal.files.flatMap((f) => [f.target, f.temp]),
    ...[...(journal.aside ?? []), ...journal.moves].flatMap((m) => [m.from, m.to]),
    ...journal.removes,
    ...(journal.prune ?? []),
    ...(journal.activity ? [journal.activity.file] : []),
  ];
  return paths.every((p) => typeof p === 'string' && !isAbsolute(p) && !p.split(/[\\/]/).includes('..'));
}

/** Puts the journal in place as journal.json, durable with the commit's round of fsyncs: from then on the transaction counts as committed. */
export function writeJournal(runtimeDir: string, journal: Journal, shown: (p: string) => string): void {
  const path = join(runtimeDir, JOURNAL_FILE);
  const temp = join(runtimeDir, `.${JOURNAL_FILE}.${journal.token}.tmp`);
  writeNewFile(temp, JSON.stringify(journal), shown(path), { sync: false });
  try {
    renameSync(temp, path);
  } catch (err) {
    throw fsError(err, shown(path), 'write');
  }
}

/** The journal in `name` (journal.json or journal.done.json), or null; one that does not parse is set aside (it was cut short before its commit's fsyncs ended). */
export function readJournal(runtimeDir: string, shown: (p: string) => string, name = JOURNAL_FILE): Journal | null {
  const path = join(runtimeDir, name);
  const read = readBoardFile(path, shown(path));
  if (!read) return null;
  const journal = parseJournal(read.text);
  if (!journal) renameSync(path, `${path}.damaged`);
  return journal;
}

function parseJournal(text: string): Journal | null {
  try {
    const j = JSON.parse(text) as Journal;
    if (j.v === 1 && Array.isArray(j.files) && Array.isArray(j.dirs) && Array.isArray(j.moves) && Array.isArray(j.removes) && insideBoard(j)) return j;
  } catch {
    // not a journal
  }
  return null;
}

/** What a committed journal not applied yet holds for a reader: each file's temp file by its target (absolute paths), and the log entries. */
export interface Pending {
  files: Map<string, string>;
  activity: { path: string; offset: number; text: string } | null;
}

/**
 * The commit a reader must see that is not in place yet: journal.json is there and complete, so its
 * operation has happened, but its process was killed before applying it, or is applying it now.
 * Reads never write, so they do not roll it forward: they read its files from their temp files (a
 * temp file gone was renamed into place meanwhile). Null when there is no journal, or it is damaged
 * or incomplete (a power cut cut it short: it never happened). New folders, moves and removals of a
 * journal (creating or archiving a change) show once it is rolled forward.
 */
export function pendingCommit(root: string, runtimeDir: string, shown: (p: string) => string): Pending | null {
  const path = join(runtimeDir, JOURNAL_FILE);
  let read;
  try {
    read = readBoardFile(path, shown(path));
  } catch {
    return null;
  }
  const journal = read && parseJournal(read.text);
  if (!journal || !journalComplete(root, journal)) return null;
  const { activity } = journal;
  return {
    files: new Map(journal.files.map((f) => [join(root, f.target), join(root, f.temp)])),
    activity: activity && { path: join(root, activity.file), offset: activity.offset, text: activity.text },
  };
}

/** The bytes at `path` (not through a link); null when they cannot be read. */
function bytesAt(path: string): Buffer | null {
  return withOpen(path, (fd) => readAll(fd), null);
}

/** `use` of the file at `path` opened for reading (not through a link), or `otherwise` when it cannot be opened or read. */
function withOpen<T>(path: string, use: (fd: number) => T, otherwise: T): T {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return otherwise;
  }
  try {
    return use(fd);
  } catch {
    return otherwise;
  } finally {
    closeSync(fd);
  }
}

/** Whether every file of a journal is there with the bytes it names: in its temp file, or renamed into place already. */
export function journalComplete(root: string, journal: Journal): boolean {
  const holds = (path: string, hash: string) => {
    const bytes = bytesAt(path);
    return bytes !== null && sha1(bytes) === hash;
  };
  const where = (temp: string, target: string) => (exists(join(root, temp)) ? join(root, temp) : join(root, target));
  // A document whose temp file is gone was put in place (temp files are durable before anything is):
  // a person may have saved over it since, a hand edit the next write merges, not a sign of a lost file.
  const placed = (f: Journal['files'][number]) => f.replaces !== undefined && !exists(join(root, f.temp));
  return (
    journal.files.every((f) => f.hash === undefined || placed(f) || holds(where(f.temp, f.target), f.hash)) &&
    journal.dirs.every((d) => Object.entries(d.hashes ?? {}).every(([file, hash]) => holds(join(where(d.temp, d.target), file), hash)))
  );
}

/** Whether the activity entries of a journal are in the log already: the bytes at their offset are theirs. */
function activityLanded(path: string, activity: NonNullable<Journal['activity']>): boolean {
  const want = Buffer.from(activity.text, 'utf8');
  return withOpen(
    path,
    (fd) => {
      const got = Buffer.alloc(want.length);
      return readSync(fd, got, 0, got.length, activity.offset) === want.length && got.equals(want);
    },
    false,
  );
}

/**
 * Does every step of a committed journal that is not done yet (renames, removals, the activity
 * entries), without waiting for the disk: the caller makes them durable (durableSet) before the
 * journal goes. Of a done journal (`done`), the log entries are written again only when the log
 * ends exactly where they began: what a power cut that lost them leaves, and nothing else; and
 * nothing is removed again.
 */
export function applyJournal(root: string, journal: Journal, shown: (p: string) => string, options: { done?: boolean; replace?: (temp: string, target: string, file: Journal['files'][number]) => boolean } = {}): void {
  const abs = (p: string) => join(root, p);
  let step = 0;
  const rename = (from: string, to: string) => {
    try {
      renameSync(from, to);
    } catch (err) {
      throw fsError(err, shown(to), 'write');
    }
    faultPoint(`commit:apply:${++step}`, to);
  };
  for (const m of journal.aside ?? []) {
    if (exists(abs(m.from)) && !exists(abs(m.to))) rename(abs(m.from), abs(m.to));
  }
  for (const d of journal.dirs) {
    if (exists(abs(d.temp)) && !exists(abs(d.target))) rename(abs(d.temp), abs(d.target));
  }
  for (const f of journal.files) {
    if (!exists(abs(f.temp))) continue;
    if (options.replace?.(abs(f.temp), abs(f.target), f)) faultPoint(`commit:apply:${++step}`, abs(f.target));
    // Linked in already by a process killed before it unlinked the temp name (a rename would leave both names).
    else if (!options.replace && isNamed(lstatSync(abs(f.temp)), abs(f.target))) unlinkSync(abs(f.temp));
    else rename(abs(f.temp), abs(f.target));
  }
  for (const m of journal.moves) {
    if (exists(abs(m.from)) && !exists(abs(m.to))) rename(abs(m.from), abs(m.to));
  }
  // Of a done journal, removals are not done again: a file of that name may have been made since
  // (a shared board's pending push), and one that came back after a power cut is only bookkeeping.
  for (const r of options.done ? [] : journal.removes) {
    try {
      unlinkSync(abs(r));
    } catch {
      // already gone
    }
  }
  for (const dir of options.done ? [] : (journal.prune ?? [])) {
    try {
      rmdirSync(abs(dir));
    } catch {
      // gone already, or holds files of a person's (kept)
    }
  }
  const activity = journal.activity;
  const lost = (path: string) => {
    try {
      const st = lstatSync(path, { throwIfNoEntry: false });
      return st !== undefined && st.isFile() && st.size === activity!.offset;
    } catch {
      return false;
    }
  };
  if (activity && (options.done ? lost(abs(activity.file)) : !activityLanded(abs(activity.file), activity))) {
    appendFile(abs(activity.file), activity.text, shown(abs(activity.file)), { truncateTo: activity.offset, sync: false });
    faultPoint('commit:activity');
  }
}

/**
 * Puts a commit's temp file in place of a document without ever destroying a save an editor renames
 * over it: the file in place is first moved aside to a second name (a rename to a new name replaces
 * nothing), then the temp file is linked in (a link replaces nothing either: a save renamed in
 * meanwhile makes it fail, and is moved aside in turn). Gives the names moved aside, oldest first:
 * any of them but the file the commit checked is a save, to merge. Between the two steps the
 * document's name is missing for an instant; readers then read the temp file, which the journal
 * names (Board.readListed), and for the instant after the link the file has both names.
 */
export function linkInPlace(temp: string, target: string, token: string, first = 0): string[] {
  const aside: string[] = [];
  for (let attempt = first; attempt < first + HOLD_ATTEMPTS; attempt++) {
    const name = heldName(target, attempt, token);
    try {
      faultPoint('commit:hold', target);
      renameSync(target, name);
      aside.push(name);
    } catch (err) {
      // Not there (a person removed it): nothing to hold.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    faultPoint('commit:held', target);
    try {
      linkSync(temp, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue; // a save landed in the instant the name was free
      break; // links not supported here: the plain rename
    }
    faultPoint('commit:linked', target);
    unlinkIfThere(temp);
    return aside;
  }
  // Saves landing at every try, or no links: the rename, which replaces a save landing in the same instant.
  renameSync(temp, target);
  return aside;
}

/** How many times a document is moved aside while saves keep landing in its place. */
const HOLD_ATTEMPTS = 100;

/** The name a document's file is moved aside to, at a commit's `attempt` (a temp file's name: swept if left behind). */
function heldName(target: string, attempt: number, token: string): string {
  return join(dirname(target), `.${basename(target)}.held${attempt}.${token}.tmp`);
}

/**
 * The name a person's save found aside is kept under until the commit that merges it removes it: a
 * name no sweep of temp files takes (KEPT_SAVE), so that a process killed before that commit leaves
 * it for the next write to merge, and one git ignores as it ignores temp files (`.*.tmp`), so that
 * it is never committed to another clone.
 */
export function keptSaveName(held: string): string {
  return held.replace(/\.held(\d+)\.([^.]+)\.tmp$/, '.saved$1.$2.kept.tmp');
}

/** The name of a save of `target` kept by a commit of `token` (what keptSaveName gives of its first name aside). */
export function keptSavePath(target: string, token: string): string {
  return keptSaveName(heldName(target, 0, token));
}

/** A kept save's name: the document's file name, then the place and token of the commit that found it. */
export const KEPT_SAVE = /^\.(.+)\.saved\d+\.\d+-[0-9a-f]{12}\.kept\.tmp$/;

/** The number after every file a commit of `token` moved aside from `target` and left there: where a recovery's own go on. */
export function nextHeld(target: string, token: string): number {
  const last = heldBy(target, token).at(-1);
  return last === undefined ? 0 : Number(/\.held(\d+)\.[^.]+\.tmp$/.exec(last)![1]) + 1;
}

/** The files a commit of `token`, or its recovery, moved aside from `target` and left there (its process was killed), oldest first. */
export function heldBy(target: string, token: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return [];
  }
  const pattern = new RegExp(`^\\.${basename(target).replace(/[.]/g, '\\.')}\\.held(\\d+)\\.${token}\\.tmp$`);
  return names
    .map((n) => ({ n, at: pattern.exec(n) }))
    .filter((h) => h.at !== null)
    .sort((a, b) => Number(a.at![1]) - Number(b.at![1]))
    .map((h) => join(dirname(target), h.n));
}

/** What must be fsynced for a journal's renames and appends to be durable: the folders they changed, and the log. */
export function durableSet(root: string, journal: Journal): { files: string[]; dirs: string[] } {
  const abs = (p: string) => join(root, p);
  const dirs = new Set<string>();
  for (const m of [...(journal.aside ?? []), ...journal.moves]) {
    dirs.add(dirname(abs(m.from)));
    dirs.add(dirname(abs(m.to)));
  }
  for (const d of journal.dirs) dirs.add(dirname(abs(d.target)));
  for (const f of journal.files) dirs.add(dirname(abs(f.target)));
  for (const r of [...journal.removes, ...(journal.prune ?? [])]) dirs.add(dirname(abs(r)));
  return { files: journal.activity ? [abs(journal.activity.file)] : [], dirs: [...dirs] };
}

/**
 * Commits a journal put in place (writeJournal) whose files are durable already (written with
 * fsync), at once and whole: the journal made durable, applied, its renames made durable, removed.
 * For writes other than a transaction's (a sync bringing in the shared board).
 */
export function commitJournal(root: string, runtimeDir: string, journal: Journal, shown: (p: string) => string): void {
  syncAll([join(runtimeDir, JOURNAL_FILE)], [runtimeDir], shown);
  applyJournal(root, journal, shown);
  const durable = durableSet(root, journal);
  syncAll(durable.files, durable.dirs, shown);
  removeJournal(runtimeDir, JOURNAL_FILE);
  faultPoint('commit:done');
}

/** Applied: the commit's journal becomes the done journal, for the next commit to make durable and remove. */
export function markDone(runtimeDir: string): void {
  renameSync(join(runtimeDir, JOURNAL_FILE), join(runtimeDir, DONE_FILE));
  faultPoint('commit:done');
}

export function removeJournal(runtimeDir: string, name: string): void {
  unlinkIfThere(join(runtimeDir, name));
}

/** Removes what an uncommitted transaction left: its temp files and temp folders. */
export function discardTemps(root: string, journal: Pick<Journal, 'dirs' | 'files'>): void {
  for (const f of journal.files) unlinkIfThere(join(root, f.temp));
  for (const d of journal.dirs) rmSync(join(root, d.temp), { recursive: true, force: true });
}
