/**
 * The commit journal: how one operation's writes land all together or not at all, across a
 * kill -9 at any instant.
 *
 * A transaction first writes every new file to a temp file next to its target (new folders are
 * built under a temp name), fsyncs them, and checks that nothing it read has changed. Then it
 * writes agentd/.runtime/journal.json, which names every rename still to do and the activity
 * entries to append: once the journal is on disk, the operation has happened. Applying it renames
 * the temp files into place, appends the activity entries and removes the journal. Applying is
 * idempotent, so the next command that takes the lock simply applies a journal it finds (roll
 * forward); temp files without a journal belong to a transaction that never committed and are
 * removed (roll back).
 */
import { existsSync, lstatSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { faultPoint } from '../clock.js';
import { appendFile, fsError, fsyncDir, readBoardFile, writeNewFile } from './fs.js';

export interface Journal {
  v: 1;
  token: string;
  /** New folders, built under a temp name; paths relative to the repository root. */
  dirs: { target: string; temp: string }[];
  files: { target: string; temp: string }[];
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

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes the journal durably: from this moment the transaction counts as committed. */
export function writeJournal(runtimeDir: string, journal: Journal, shown: (p: string) => string): void {
  const path = join(runtimeDir, JOURNAL_FILE);
  const temp = join(runtimeDir, `.${JOURNAL_FILE}.${journal.token}.tmp`);
  writeNewFile(temp, JSON.stringify(journal), shown(path));
  try {
    renameSync(temp, path);
  } catch (err) {
    throw fsError(err, shown(path), 'write');
  }
  fsyncDir(runtimeDir);
}

export function readJournal(runtimeDir: string, shown: (p: string) => string): Journal | null {
  const path = join(runtimeDir, JOURNAL_FILE);
  const read = readBoardFile(path, shown(path));
  if (!read) return null;
  try {
    const j = JSON.parse(read.text) as Journal;
    if (j.v === 1 && Array.isArray(j.files)) return j;
  } catch {
    // A journal is renamed into place only once written whole: one that does not parse was damaged from outside.
  }
  renameSync(path, `${path}.damaged`);
  return null;
}

/** Does every step of a committed journal that is not done yet, then removes the journal. */
export function applyJournal(root: string, runtimeDir: string, journal: Journal, shown: (p: string) => string): void {
  const abs = (p: string) => join(root, p);
  const touched = new Set<string>();
  let step = 0;
  const rename = (from: string, to: string) => {
    try {
      renameSync(from, to);
    } catch (err) {
      throw fsError(err, shown(to), 'write');
    }
    touched.add(dirname(to));
    faultPoint(`commit:apply:${++step}`, to);
  };
  for (const m of journal.aside ?? []) {
    if (exists(abs(m.from)) && !exists(abs(m.to))) rename(abs(m.from), abs(m.to));
  }
  for (const d of journal.dirs) {
    if (exists(abs(d.temp)) && !exists(abs(d.target))) rename(abs(d.temp), abs(d.target));
  }
  for (const f of journal.files) {
    if (exists(abs(f.temp))) rename(abs(f.temp), abs(f.target));
  }
  for (const m of journal.moves) {
    if (exists(abs(m.from)) && !exists(abs(m.to))) rename(abs(m.from), abs(m.to));
  }
  for (const r of journal.removes) {
    try {
      unlinkSync(abs(r));
    } catch {
      // already gone
    }
  }
  for (const dir of journal.prune ?? []) {
    try {
      rmdirSync(abs(dir));
      touched.add(dirname(abs(dir)));
    } catch {
      // gone already, or holds files of a person's (kept)
    }
  }
  for (const dir of touched) fsyncDir(dir);
  if (journal.activity) {
    appendFile(abs(journal.activity.file), journal.activity.text, shown(abs(journal.activity.file)), journal.activity.offset);
    faultPoint('commit:activity');
  }
  unlinkSync(join(runtimeDir, JOURNAL_FILE));
  fsyncDir(runtimeDir);
  faultPoint('commit:done');
}

/** Removes what an uncommitted transaction left: its temp files and temp folders. */
export function discardTemps(root: string, journal: Pick<Journal, 'dirs' | 'files'>): void {
  for (const f of journal.files) rmSync(join(root, f.temp), { force: true });
  for (const d of journal.dirs) rmSync(join(root, d.temp), { recursive: true, force: true });
}

export function hasJournal(runtimeDir: string): boolean {
  return existsSync(join(runtimeDir, JOURNAL_FILE));
}
