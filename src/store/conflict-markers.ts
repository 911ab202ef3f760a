/**
 * Unresolved git merge conflicts. A `git pull` or `git merge` that cannot join two edits of a file
 * leaves both in it between marker lines: `<<<<<<< ours`, (`||||||| base` with diff3,) `=======`,
 * `>>>>>>> theirs`. Such a file is neither side, and its markers would read as text (a task's
 * description): a board document holding one is not read, nor written, until a person resolves it.
 * Only the whole structure counts: a line `=======` alone is a markdown heading's underline.
 */
import { fail } from '../errors.js';
import type { FileRead } from './fs.js';

const START = '<<<<<<< ';
const SEPARATOR = /^=======\r*$/;
const END = /^>>>>>>>(?: |\r*$)/;

/** The lines (1-based) of the first unresolved merge conflict in a text; null when it holds none. */
export function mergeConflict(text: string): { start: number; end: number } | null {
  const lines = text.split('\n');
  let start = -1;
  let separated = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith(START)) [start, separated] = [i, false];
    else if (start >= 0 && SEPARATOR.test(line)) separated = true;
    else if (separated && END.test(line)) return { start: start + 1, end: i + 1 };
  }
  return null;
}

/** The reads of files found free of conflicts (a read unchanged on disk is the same object: it is not searched again). */
const clean = new WeakSet<FileRead>();

/**
 * Refuses a board document that holds an unresolved merge conflict, naming its lines and what to
 * do. Only a file with a marker line `<<<<<<< ` is looked at further (one search of its bytes).
 */
export function refuseMergeConflict(read: FileRead, shown: string): void {
  if (clean.has(read)) return;
  const bytes = read.bytes;
  const first = bytes[0] === 0xef ? 3 : 0; // after a byte order mark
  if (!bytes.includes(`\n${START}`) && bytes.toString('utf8', first, first + START.length) !== START) return void clean.add(read);
  const conflict = mergeConflict(read.text);
  if (!conflict) return void clean.add(read);
  fail(
    'PARSE_ERROR',
    `${shown}:${conflict.start}: unresolved git merge conflict (the markers <<<<<<<, ======= and >>>>>>> on lines ${conflict.start}–${conflict.end}).`,
    `Resolve it in ${shown} (keep one side or both), remove the markers, then git add ${shown}.`,
    { line: conflict.start },
  );
}
