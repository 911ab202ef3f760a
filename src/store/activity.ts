/**
 * The activity log: one JSON line per event in agentd/.runtime/activity.jsonl, appended inside
 * the board lock, so a write costs the same on day 300 as on day 1. A line torn by a crash is
 * skipped on read; every other line is kept forever.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

export interface ActivityEntry {
  at: string;
  actor: string;
  action: string;
  /** What was acted on: a change id, "<change>/<doc>", "<change>/<task>", an agent or input id. */
  target: string;
  change_id?: string;
  summary: string;
}

export function appendActivity(path: string, entries: ActivityEntry[]): void {
  if (entries.length === 0) return;
  const fd = openSync(path, 'a+', 0o644);
  try {
    // A crash may have left a torn last line; start on a fresh line so the new entries stay whole.
    const size = fstatSync(fd).size;
    const last = Buffer.alloc(1);
    const torn = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 10;
    writeSync(fd, (torn ? '\n' : '') + entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Every readable entry, oldest first. */
export function readActivity(path: string): ActivityEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
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
