/**
 * The files a command is given: --input, --from and run's --goal-file ("-" is standard input).
 * They are held to the rules of the board's own files: bytes that are not UTF-8 text, or a NUL
 * byte, are refused with the line they are on, never decoded into replacement characters.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { sleepSync } from '../clock.js';
import { AgentboardError, fail } from '../errors.js';
import { LIMITS } from '../domain/limits.js';
import { textFault } from '../store/fs.js';
import { withoutBom } from '../store/markdown.js';
import type { Io } from './main.js';

/**
 * A file named by `flag`, as text, refused when over the input limit or not text. `command` is the
 * command it was given to (`agentboard spec`): each refusal says to run it again, not to call a tool.
 */
export function readUserFile(path: string, flag: string, io: Pick<Io, 'cwd' | 'stdin'>, command: string): string {
  const shown = path === '-' ? 'standard input' : path;
  const tooLarge = `Give ${flag} ${path === '-' ? 'at most 1 MB on standard input' : 'a file of at most 1 MB'}, then run \`${command}\` again.`;
  let bytes: Buffer;
  try {
    if (path !== '-' && statSync(resolve(io.cwd, path)).size > LIMITS.inputBytesMax) fail('INPUT_TOO_LARGE', `${path} is larger than 1 MB.`, tooLarge);
    const read = path === '-' ? io.stdin() : readFileAtMost(resolve(io.cwd, path), LIMITS.inputBytesMax + 1);
    bytes = typeof read === 'string' ? Buffer.from(read, 'utf8') : read;
  } catch (err) {
    if (err instanceof AgentboardError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? ': it does not exist' : code === 'EISDIR' ? ': it is a folder, not a file' : code === 'EACCES' || code === 'EPERM' ? ': permission denied' : '';
    return fail('USAGE', path === '' ? `${flag} is empty: it names no file.` : `Cannot read ${shown}${why}.`, `Check the path given to ${flag} (use - for standard input), then run \`${command}\` again.`);
  }
  if (bytes.length > LIMITS.inputBytesMax) fail('INPUT_TOO_LARGE', `${shown} is larger than 1 MB (${LIMITS.inputBytesMax} bytes).`, tooLarge);
  const fault = textFault(bytes);
  if (fault) {
    const what = fault.binary ? 'binary data (a NUL byte), not text' : 'bytes that are not UTF-8 text';
    fail('INVALID_INPUT', `${shown}:${fault.line}: ${flag} holds ${what}; nothing was written, so that nothing is silently replaced.`, `${path === '-' ? 'Send standard input' : `Save ${path}`} as UTF-8 text (line ${fault.line} first), then run \`${command}\` again.`, { file: shown, line: fault.line });
  }
  return withoutBom(bytes.toString('utf8'));
}

/**
 * Up to `max` bytes of a file descriptor, read to its end or until there are more: a device or a
 * pipe that never ends (/dev/zero, `yes |`) is cut there, and refused as too large by the caller.
 */
export function readAtMost(fd: number, max: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(64 * 1024);
  while (total < max) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, Math.min(chunk.length, max - total), null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        sleepSync(5); // a non-blocking pipe with nothing in it yet
        continue;
      }
      if (code === 'EOF') break;
      throw err;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, n)));
    total += n;
  }
  return Buffer.concat(chunks);
}

function readFileAtMost(path: string, max: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    return readAtMost(fd, max);
  } finally {
    closeSync(fd);
  }
}
