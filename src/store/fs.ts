/** File primitives: atomic replace and guarded reads. */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail } from '../errors.js';
import { LIMITS } from '../domain/limits.js';

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Names temp files so that a reader never mistakes one for a document and a sweep can tell whose it is. */
export function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export const TEMP_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** Write to a temp file, fsync, rename over the target: a reader sees the old file or the new one. */
export function writeFileAtomic(path: string, data: string): void {
  const tmp = tempName(path);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
  fsyncDir(dirname(path));
}

/** Reads a board file as text, or null when it does not exist. Refuses files that are too large or binary. */
export function readTextFile(path: string, shownAs: string): string | null {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > LIMITS.fileBytesMax) {
      fail('PARSE_ERROR', `${shownAs} is ${size} bytes, more than agentboard reads (${LIMITS.fileBytesMax}).`, `Split or shorten ${shownAs}.`);
    }
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
  if (text.includes('\u0000')) {
    fail('PARSE_ERROR', `${shownAs} holds binary data (a NUL byte), not text.`, `Restore ${shownAs} from git (git checkout -- ${shownAs}) or rewrite it as markdown.`);
  }
  return text;
}
