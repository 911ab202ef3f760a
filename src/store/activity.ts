/**
 * The activity log: one JSON line per event in agentd/.runtime/activity.jsonl, appended as part of
 * an operation's commit (store/journal.ts), so a write costs the same on day 300 as on day 1 and
 * an entry is there exactly when its operation is. A line torn by a crash before the commit is
 * skipped on read; every other line is kept forever.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { fsError, unsafePath } from './fs.js';

export interface ActivityEntry {
  at: string;
  actor: string;
  action: string;
  /** What was acted on: a change id, "<change>/<doc>", "<change>/<task>", an agent or input id. */
  target: string;
  change_id?: string;
  summary: string;
}

export function formatEntries(entries: ActivityEntry[]): string {
  return entries.map((e) => `${JSON.stringify(e)}\n`).join('');
}

/** The log's size in bytes (where the next commit appends), and whether its last line is torn. */
export function activityEnd(path: string, shown: string): { size: number; torn: boolean } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { size: 0, torn: false };
    throw fsError(err, shown, 'read');
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) throw unsafePath(shown, st.isFile() ? 'a file with more than one hard link' : 'not a plain file');
    if (st.size === 0) return { size: 0, torn: false };
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, st.size - 1);
    return { size: st.size, torn: last[0] !== 10 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Every readable entry, oldest first; with `pending`, the entries of a committed write not appended
 * yet (store/journal.ts, pendingCommit) follow, when the log ends where they begin.
 */
export function readActivity(path: string, shown: string, pending?: { offset: number; text: string } | null): ActivityEntry[] {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw fsError(err, shown, 'read');
  }
  let text: string;
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) throw unsafePath(shown, st.isFile() ? 'a file with more than one hard link' : 'not a plain file');
    const buf = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    text = buf.subarray(0, n).toString('utf8');
    if (pending && n === pending.offset) text += pending.text;
  } finally {
    closeSync(fd);
  }
  const out: ActivityEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const entry = JSON.parse(line) as ActivityEntry;
      if (entry && typeof entry.at === 'string' && typeof entry.actor === 'string') out.push(entry);
    } catch {
      // a line torn by a crash
    }
  }
  return out;
}
