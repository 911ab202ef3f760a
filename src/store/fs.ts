/**
 * File primitives for everything agentboard reads and writes under agentd/.
 *
 * Reads open with O_NOFOLLOW and look at what they opened: only a regular file with one link is
 * read, so a symlink, hard link, folder, FIFO or device committed to a hostile clone can neither
 * redirect a write nor hang a read. Every folder between the board and a file is checked the
 * same way. Writes go to a temp file written in full (short writes are continued, the size is
 * checked) and fsynced before anything is renamed. File system errors become errors that name the
 * file and say what to do; nothing half-done is left behind.
 */
import { randomBytes } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { accessSync, closeSync, constants, fchmodSync, fstatSync, fsyncSync, ftruncateSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, writeSync, type Dirent, type Stats } from 'node:fs';
import { basename, delimiter, dirname, join, relative, sep } from 'node:path';
import { faultPoint } from '../clock.js';
import { fsyncEach } from './sync-pool.js';
import { AgentboardError, fail } from '../errors.js';
import { LIMITS } from '../domain/limits.js';
import { SAME_CALL } from '../domain/refs.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_APPEND } = constants;

/**
 * What identifies one version of a file without reading it: replacing the file changes the inode,
 * writing into it changes the mtime (to the nanosecond). ctime is left out because a rename changes
 * it, and the identity of what agentboard writes is taken before the rename.
 */
export function identityOf(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** Why there is no room, by the code the system gave: a file system also runs out of files (inodes) with space left. */
const NO_ROOM: Record<string, string> = {
  ENOSPC: 'the disk is full, or can hold no more files: `df -h` and `df -i` say which',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'file size limit reached',
};

/** Turns a file system error into an agentboard error naming the file (as shown to the user). */
export function fsError(err: unknown, shown: string, doing: 'read' | 'write'): AgentboardError {
  if (err instanceof AgentboardError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const nothing = doing === 'write' ? ' Nothing was changed.' : '';
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
    case 'EFBIG':
      return new AgentboardError('DISK_FULL', `There is no room to write ${shown} (${NO_ROOM[code]}).${nothing}`, `Free some disk space, then try ${SAME_CALL} again.`);
    case 'EACCES':
    case 'EPERM':
      return new AgentboardError('PERMISSION_DENIED', `agentboard is not allowed to ${doing} ${shown} (permission denied).${nothing}`, `Check the owner and permissions of ${shown} and its folder (ls -l), then try ${SAME_CALL} again.`);
    case 'EROFS':
      return new AgentboardError('READ_ONLY', `${shown} is on a read-only file system.${nothing}`, 'Run agentboard in a writable checkout of the repository.');
    case 'EISDIR':
      return folderInPlace(shown, nothing);
    case 'ENOTDIR':
      return new AgentboardError('NOT_A_FOLDER', `A part of the path ${shown} is a file where a folder belongs.${nothing}`, `Restore the board's folders from git (git status agentd/ shows what changed).`);
    case 'ELOOP':
      return unsafePath(shown, 'a symbolic link');
    default:
      return new AgentboardError('IO_ERROR', `Could not ${doing} ${shown} (${code || (err as Error).message}).${nothing}`, `Check the disk and the file, then try ${SAME_CALL} again.`);
  }
}

export function unsafePath(shown: string, what: string, place = 'a plain file or folder'): AgentboardError {
  return new AgentboardError(
    'UNSAFE_PATH',
    `${shown} is ${what}; agentboard only reads and writes plain files and folders inside agentd/, so it did not touch it.`,
    `Replace ${shown} with ${place} (git checkout -- ${shown} restores a committed one), or remove it.`,
  );
}

/** A folder where a file belongs; `nothing`: what a write that met it says it left as it was. */
function folderInPlace(shown: string, nothing = ''): AgentboardError {
  return new AgentboardError('NOT_A_FILE', `${shown} is a folder, not a file.${nothing}`, `Move the folder ${shown} aside, or, when it is committed, restore it from git (git checkout -- ${shown}).`);
}

const HARD_LINKED = 'a file with more than one hard link';

/** The error for something at a file's place that is not a plain file. */
function notAFile(shown: string, what: string): AgentboardError {
  if (what === 'a folder') return folderInPlace(shown);
  if (what !== HARD_LINKED) return unsafePath(shown, what, 'a plain file');
  // Its text is the board's as much as another name's: copied to a file of its own, nothing is lost.
  return new AgentboardError(
    'UNSAFE_PATH',
    `${shown} is ${what} (ls -l counts them); agentboard only reads and writes files that have one name, so it did not touch it.`,
    `Give it a file of its own, keeping what it holds: \`cp ${shown} ${shown}.own && mv ${shown}.own ${shown}\` (its other names keep the file as it is), or restore it from git (git checkout -- ${shown}).`,
  );
}

function kindOf(st: Stats): string | null {
  if (st.isFile()) return st.nlink > 1 ? HARD_LINKED : null;
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Checks that every folder from `top` (exclusive) down to `dir` (inclusive) is a plain folder.
 * Returns false when one of them does not exist.
 */
export function checkDirs(top: string, dir: string, show: (p: string) => string): boolean {
  const rel = dir.startsWith(top + sep) ? dir.slice(top.length + 1) : relative(top, dir);
  if (rel === '') return true;
  if (rel.startsWith('..')) throw new Error(`${dir} is not inside ${top}`);
  let current = top;
  for (const part of rel.split(sep)) {
    current = `${current}${sep}${part}`;
    let st: Stats | undefined;
    try {
      // A folder not there is common (a board without ledgers yet): told without an exception.
      st = lstatSync(current, { throwIfNoEntry: false });
    } catch (err) {
      throw fsError(err, show(current), 'read');
    }
    if (st === undefined) return false;
    if (st.isSymbolicLink()) throw unsafePath(show(current), 'a symbolic link');
    if (!st.isDirectory()) throw new AgentboardError('NOT_A_FOLDER', `${show(current)} is ${kindOf(st) ?? 'a file'}, where agentboard expects a folder.`, `Move ${show(current)} aside or restore the folder from git.`);
  }
  return true;
}

/**
 * Makes `dir` and the folders above it up to `top` (exclusive, trusted), one at a time, checking
 * each: a symbolic link or anything but a folder on the way is refused, so that a folder made
 * here is never made through a link into somewhere else.
 */
export function ensureDir(top: string, dir: string, show: (p: string) => string): void {
  if (checkDirs(top, dir, show)) return;
  let current = top;
  for (const part of relative(top, dir).split(sep)) {
    current = join(current, part);
    try {
      mkdirSync(current, 0o755);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw fsError(err, show(current), 'write');
    }
  }
  checkDirs(top, dir, show);
}

/** `path` relative to `top`, with forward slashes (for messages and findings). */
export function relativePath(top: string, path: string): string {
  const rel = path.startsWith(top + sep) ? path.slice(top.length + 1) : relative(top, path);
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Whether bytes start with UTF-8's byte order mark (EF BB BF). */
export function hasBom(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** A board file's bytes as text: UTF-8 without the byte order mark some editors put first (Notepad's). */
export function textOf(bytes: Buffer): string {
  return bytes.toString('utf8', hasBom(bytes) ? 3 : 0);
}

/**
 * A file as read: its bytes (checked to be UTF-8 text), decoded when its text is first asked for,
 * so that a command that needs only the frontmatter of most documents (`next` on a big board) does
 * not decode, and keep, the whole of each.
 */
export class FileRead {
  /** The SHA-1 of the bytes, once asked for (see board.ts). */
  hash?: string;
  /** The SHA-1s of the same text with other line ends and with or without a byte order mark, once asked for (see board.ts). */
  alike?: readonly string[];
  private decoded?: string;

  constructor(
    /** The bytes read, to tell a later read of the same content without decoding it again. */
    readonly bytes: Buffer,
    readonly identity: string,
  ) {}

  /** The text, without the byte order mark some editors put first (Notepad's UTF-8): it is no part of a document. */
  get text(): string {
    return (this.decoded ??= textOf(this.bytes));
  }

  /** Whether the file starts with a byte order mark, which agentboard's writes of it keep. */
  get bom(): boolean {
    return hasBom(this.bytes);
  }

  /**
   * The text up to the end of a frontmatter in agentboard's shape (the first line `---` after the
   * opening one), or the whole text when there is none: enough for store/quick-meta.ts.
   */
  head(): string {
    if (this.decoded !== undefined) return this.decoded;
    const start = hasBom(this.bytes) ? 3 : 0;
    const end = this.bytes.indexOf('\n---\n', start + 3);
    return end < 0 ? this.text : this.bytes.toString('utf8', start, end + 5);
  }

  /** The same content, seen with another identity (the file was written again with the same bytes). */
  withIdentity(identity: string): FileRead {
    const read = new FileRead(this.bytes, identity);
    read.hash = this.hash;
    read.alike = this.alike;
    read.decoded = this.decoded;
    return read;
  }
}

function lineOfOffset(buf: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (buf[i] === 10) line++;
  return line;
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 character. */
function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > buf.length || !isUtf8(buf.subarray(i, i + n))) return i;
    i += n;
  }
  return i;
}

/**
 * Why bytes are not text, if they are not: the line of the first byte that is not well-formed
 * UTF-8, else of the first NUL byte (binary data). Board files and the files a command is given
 * (--input, --from) are checked alike, so that no byte is ever silently replaced.
 */
export function textFault(buf: Buffer): { line: number; binary: boolean } | null {
  if (!isUtf8(buf)) return { line: lineOfOffset(buf, firstInvalidUtf8(buf)), binary: false };
  const nul = buf.indexOf(0);
  return nul < 0 ? null : { line: lineOfOffset(buf, nul), binary: true };
}

/**
 * Reads a board file as UTF-8 text, or null when it does not exist. Refuses anything but a plain
 * file, files over the size limit, bytes that are not UTF-8 and NUL bytes, naming the line. Given
 * an earlier read of the file, bytes that are the same keep its text.
 */
/**
 * `twin`: the one other name the file may have, the temp file a commit links in its place
 * (Transaction's replaceHeld), for the instant before that name goes.
 */
export function readBoardFile(path: string, shown: string, previous?: FileRead, listed = false, twin?: string): FileRead | null {
  faultPoint('read', path);
  // Looked at first, unless its folder's listing named it (`listed`): a file that is not there is
  // common (a change without a review), and a failed open costs an exception.
  if (!listed && !lstatSync(path, { throwIfNoEntry: false })) return null;
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw notAFile(shown, 'a symbolic link');
    throw fsError(err, shown, 'read');
  }
  try {
    const st = fstatSync(fd);
    return readOpenFile(fd, twin !== undefined && isTwin(st, twin) ? Object.assign(st, { nlink: 1 }) : st, shown, previous);
  } finally {
    closeSync(fd);
  }
}

/** Whether a file with two names has `twin` as its other one. */
function isTwin(st: Stats, twin: string): boolean {
  return st.isFile() && st.nlink === 2 && isNamed(st, twin);
}

/** Whether the file of `st` is the one `path` names (not through a link). */
export function isNamed(st: Stats, path: string): boolean {
  const other = lstatSync(path, { throwIfNoEntry: false });
  return other !== undefined && other.ino === st.ino && other.dev === st.dev;
}

/** Whether an error is the refusal of a file with more than one name. */
export function isHardLinked(err: unknown): boolean {
  return err instanceof AgentboardError && err.code === 'UNSAFE_PATH' && err.message.includes(HARD_LINKED);
}

/** The rest of readBoardFile, on a file already open (`st` is its fstat). */
export function readOpenFile(fd: number, st: Stats, shown: string, previous?: FileRead): FileRead {
  try {
    const odd = kindOf(st);
    if (odd) throw notAFile(shown, odd);
    if (st.size > LIMITS.fileBytesMax) {
      fail('PARSE_ERROR', `${shown} is ${st.size} bytes, more than agentboard reads (${LIMITS.fileBytesMax}).`, `Split or shorten ${shown}.`);
    }
    // One byte more than its size: a read that comes back short has met the end of the file (a file
    // that grew meanwhile is read on, the buffer grown).
    let buf = Buffer.allocUnsafe(st.size + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(Math.max(4096, buf.length))]);
      const asked = buf.length - length;
      const n = readSync(fd, buf, length, asked, length);
      length += n;
      if (n < asked) break;
    }
    buf = buf.subarray(0, length);
    if (previous?.bytes.equals(buf)) return previous.identity === identityOf(st) ? previous : previous.withIdentity(identityOf(st));
    // UTF-16, as Windows PowerShell's > and Out-File write text: said as such, not as binary data.
    if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
      fail('PARSE_ERROR', `${shown} is UTF-16 text (as Windows PowerShell's > and Out-File write it); agentboard reads UTF-8 only, so it did not read it.`, `Save ${shown} as UTF-8 (in your editor, or with PowerShell: (Get-Content ${shown}) | Set-Content -Encoding utf8 ${shown}), or restore it from git.`);
    }
    const fault = textFault(buf);
    if (fault?.binary) {
      fail('PARSE_ERROR', `${shown}:${fault.line}: the file holds binary data (a NUL byte), not text.`, `Take the binary data out of line ${fault.line} of ${shown}, or, when it is committed, restore it from git (git checkout -- ${shown}).`, { line: fault.line });
    }
    if (fault) {
      fail('PARSE_ERROR', `${shown}:${fault.line}: the file holds bytes that are not UTF-8 text; agentboard will not rewrite it, so that nothing is silently replaced.`, `Fix the encoding of line ${fault.line} of ${shown} (save it as UTF-8), or restore it from git.`, { line: fault.line });
    }
    return new FileRead(buf, identityOf(st));
  } catch (err) {
    throw fsError(err, shown, 'read');
  }
}

/** Every byte of a file already open, from its start. */
export function readAll(fd: number): Buffer {
  const buf = Buffer.alloc(fstatSync(fd).size);
  let n = 0;
  while (n < buf.length) {
    const got = readSync(fd, buf, n, buf.length - n, n);
    if (got === 0) break;
    n += got;
  }
  return buf.subarray(0, n);
}

/** The identity of what is at `path` now, without following a link; null when nothing is there. */
export function currentIdentity(path: string, shown: string): string | null {
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) return null;
    const odd = kindOf(st);
    if (odd) throw notAFile(shown, odd);
    return identityOf(st);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fsError(err, shown, 'read');
  }
}

export const TEMP_FILE = /^\.(.+)\.(\d+)-([0-9a-f]{12})\.tmp$/;

/** The temp name a writer holding `token` ("<pid>-<hex>") uses for `target`: hidden, and swept by token. */
export function tempPath(target: string, token: string): string {
  return join(dirname(target), `.${basename(target)}.${token}.tmp`);
}

export function newToken(): string {
  return `${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Removes a file, whatever stands in the way (it may be gone already). */
export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Removes a file if it is there; any other failure is thrown (rmSync's `force`, without its recursive machinery). */
export function unlinkIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** The permission bits of the plain file at `path` (a link is not followed); undefined when there is none. */
export function fileMode(path: string): number | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st?.isFile() ? st.mode & 0o7777 : undefined;
}

/**
 * Writes `data` whole to a new file at `path` (which must not exist) and fsyncs it, unless the
 * caller makes it durable with others (`sync: false`, then syncAll); returns the file's identity.
 * `mode` gives it the permissions of the file it is to replace (a person's read-only or private file stays so).
 */
export function writeNewFile(path: string, data: string | Buffer, shown: string, options: { sync?: boolean; mode?: number } = {}): string {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let fd: number | undefined;
  try {
    faultPoint('write', path);
    fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
    if (options.mode !== undefined) fchmodSync(fd, options.mode);
    let written = 0;
    while (written < buf.length) {
      const n = writeSync(fd, buf, written, buf.length - written);
      if (n <= 0) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
      written += n;
    }
    if (options.sync !== false) fsyncSync(fd);
    const st = fstatSync(fd);
    if (st.size !== buf.length) throw Object.assign(new Error('size mismatch after write'), { code: 'EIO' });
    return identityOf(st);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // reported below
      }
      fd = undefined;
      unlinkQuietly(path);
    }
    throw fsError(err, shown, 'write');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Appends `data` to a log file (created when missing) and fsyncs it (unless `sync: false`: the
 * caller makes it durable later); refuses a link or anything but a file. `truncateTo` first cuts
 * the file to that length (rolling a commit forward that may have appended part of its entries).
 */
export function appendFile(path: string, data: string, shown: string, options: { truncateTo?: number; sync?: boolean } = {}): void {
  const { truncateTo } = options;
  let fd: number | undefined;
  let start: number | undefined;
  try {
    faultPoint('write', path);
    // Non-blocking: a named pipe at the log's place must be refused, not waited on for a reader.
    try {
      fd = openSync(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENXIO') throw unsafePath(shown, 'a named pipe (FIFO)');
      throw err;
    }
    const st = fstatSync(fd);
    const odd = kindOf(st);
    if (odd) throw unsafePath(shown, odd);
    if (truncateTo !== undefined && st.size > truncateTo) ftruncateSync(fd, truncateTo);
    start = truncateTo !== undefined ? Math.min(st.size, truncateTo) : st.size;
    const buf = Buffer.from(data, 'utf8');
    let written = 0;
    while (written < buf.length) {
      const n = writeSync(fd, buf, written, buf.length - written);
      if (n <= 0) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
      written += n;
    }
    if (data !== '' && options.sync !== false) fsyncSync(fd);
  } catch (err) {
    // A write cut short (a full disk) leaves no torn line at the end of the log.
    if (fd !== undefined && start !== undefined) {
      try {
        ftruncateSync(fd, start);
      } catch {
        // reported below
      }
    }
    throw fsError(err, shown, 'write');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Makes files and folders durable, written first and synced after, all of them (the file system
 * commits most of them with the first; a long-lived process makes them at once, store/sync-pool.ts).
 * A file that cannot be synced is an error naming it; a folder some file systems refuse to sync is
 * let be (its renames are atomic all the same); what is gone since has nothing left to make durable.
 */
export function syncAll(files: readonly string[], dirs: readonly string[], shown: (p: string) => string): void {
  const opened: { fd: number; path: string; isDir: boolean }[] = [];
  try {
    for (const [paths, isDir] of [[files, false], [dirs, true]] as const) {
      for (const path of new Set(paths)) {
        try {
          opened.push({ fd: openSync(path, O_RDONLY), path, isDir });
        } catch (err) {
          if (isDir || (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw fsError(err, shown(path), 'write');
        }
      }
    }
    // A folder's fsync may be refused (some file systems do): its renames are atomic all the same.
    const errors = fsyncEach(opened.map((o) => o.fd), fsyncSync);
    const failed = opened.findIndex((o, i) => errors[i] && !o.isDir);
    if (failed >= 0) throw fsError(errors[failed], shown(opened[failed]!.path), 'write');
  } finally {
    for (const o of opened) closeSync(o.fd);
  }
}

/** Makes a rename or a new name in `dir` durable. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Replaces a file outside the board's own bookkeeping (an MCP client's config, a new board's
 * files): temp file written whole and fsynced, renamed over the target, folder fsynced.
 */
export function writeFileAtomic(path: string, data: string | Buffer, shown = path): void {
  const tmp = tempPath(path, newToken());
  writeNewFile(tmp, data, shown, { mode: fileMode(path) });
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkQuietly(tmp);
    throw fsError(err, shown, 'write');
  }
  fsyncDir(dirname(path));
}

/** Reads a small file outside the board's own files (configs of other tools), or null when absent. */
export function readTextFile(path: string, shown: string): string | null {
  return readBoardFile(path, shown)?.text ?? null;
}

/** Every plain file under a folder (hidden ones, like temp files, aside), as paths relative to it; none when it does not exist. */
export function filesUnder(dir: string, prefix = ''): string[] {
  let names: Dirent[];
  try {
    names = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return names.flatMap((e) => (e.name.startsWith('.') ? [] : e.isDirectory() ? filesUnder(dir, `${prefix}${e.name}/`) : e.isFile() ? [`${prefix}${e.name}`] : []));
}

/** Whether `path` is a file this process may run. */
export function isProgram(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether a program of one of these names is in a folder of `path` (a PATH value), as a shell would find it. */
export function onPath(names: readonly string[], path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && names.some((n) => isProgram(join(dir, n))));
}
