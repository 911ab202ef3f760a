/** The files of a source repository an importer reads: listed once, read on demand. */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { mergeConflict } from '../store/conflict-markers.js';
import { textFault } from '../store/fs.js';
import { gitSync, type GitSyncResult } from '../store/git-sync.js';
import { userLines, withoutBom } from '../store/markdown.js';

export interface SourceTree {
  /** Every file under the folders read, relative to the root with "/", sorted. */
  readonly files: string[];
  /** What was not read under those folders (links that lead elsewhere, folders that cannot be listed), and why. */
  readonly skipped: { path: string; why: string }[];
  bytes(path: string): Buffer;
  /** The file as text (line ends as LF, no byte order mark); null when it cannot be read as a document (see fault). */
  text(path: string): string | null;
  /** Why the file cannot be read as a document, at which line: bytes that are not UTF-8 text, or an unresolved merge conflict. */
  fault(path: string): { line: number; message: string; fix: string } | null;
  /** The day (YYYY-MM-DD) of the last commit that changed the path, when the repository is in git and has one. */
  lastCommitDay(path: string): string | null;
}

const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * The files under `folders` (relative to `root`) that exist. A symbolic link is read only when it
 * leads to a file inside the repository; one that leads out of it, to a folder (which could lead
 * back into itself) or nowhere is skipped, and said so: a cloned repository cannot bring a file of
 * this machine into the board.
 */
export function readTree(root: string, folders: string[]): SourceTree {
  const files: string[] = [];
  const skipped: { path: string; why: string }[] = [];
  const rel = (path: string) => relative(root, path).split(sep).join('/');
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    realRoot = root;
  }
  const linked = (path: string): string | null => {
    let target: string;
    try {
      target = realpathSync(path);
    } catch {
      return 'a symbolic link that leads nowhere (or back to itself)';
    }
    if (!target.startsWith(realRoot + sep)) return 'a symbolic link that leads out of the repository';
    return lstatSync(target).isFile() ? null : 'a symbolic link to a folder';
  };
  const walk = (dir: string, top: boolean) => {
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isSymbolicLink() || !st.isDirectory()) {
      if (!top || st.isSymbolicLink()) skipped.push({ path: rel(dir), why: st.isSymbolicLink() ? 'a symbolic link to a folder' : 'not a regular file or folder' });
      return;
    }
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      skipped.push({ path: rel(dir), why: `a folder that cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      const path = join(dir, name);
      const entry = lstatSync(path, { throwIfNoEntry: false });
      if (!entry) continue;
      if (entry.isDirectory()) walk(path, false);
      else if (entry.isFile()) files.push(rel(path));
      else if (entry.isSymbolicLink()) {
        const why = linked(path);
        if (why) skipped.push({ path: rel(path), why });
        else files.push(rel(path));
      } else skipped.push({ path: rel(path), why: 'not a regular file or folder' });
    }
  };
  for (const f of folders) walk(join(root, f), true);
  files.sort();
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
  const cache = new Map<string, Buffer>();
  const bytes = (path: string) => {
    let b = cache.get(path);
    if (!b) cache.set(path, (b = readFileSync(join(root, path))));
    return b;
  };
  return {
    files,
    skipped,
    bytes,
    text(path) {
      const text = decode(bytes(path));
      return typeof text === 'string' ? text : null;
    },
    fault(path) {
      const text = decode(bytes(path));
      return typeof text === 'string' ? null : text;
    },
    lastCommitDay(path) {
      const git = sourceGit(root, ['log', '-1', '--format=%cs', '--', path]);
      const day = git.stdout.toString('utf8').trim();
      return git.code === 0 && /^\d{4}-\d\d-\d\d$/.test(day) ? day : null;
    },
  };
}

/** git in the source repository, as import asks it what it holds: five seconds at most. */
export function sourceGit(root: string, args: string[]): GitSyncResult {
  return gitSync(['-C', root, ...args], { cwd: root, env: process.env, timeoutMs: 5000 });
}

function decode(bytes: Buffer): string | { line: number; message: string; fix: string } {
  // By the bytes, as the board's own files are judged: a replacement character (U+FFFD) the file
  // holds as such is text, like any other.
  const fault = textFault(bytes);
  if (fault) {
    const { line } = fault;
    return { line, message: `line ${line} holds bytes that are not UTF-8 text${fault.binary ? ' (a NUL byte)' : ''}, so nothing of this file was read as a document`, fix: 'save the file as UTF-8 text and import again' };
  }
  const text = userLines(withoutBom(bytes.toString('utf8')));
  // Both sides of a merge left unresolved are neither: the markers would read as tasks and text.
  const conflict = mergeConflict(text);
  if (conflict) {
    return { line: conflict.start, message: `an unresolved git merge conflict (the markers <<<<<<<, ======= and >>>>>>> on lines ${conflict.start}–${conflict.end}), so nothing of this file was read as a document`, fix: 'resolve the conflict in the source repository and import again' };
  }
  return text;
}

/** A tree made of texts (for tests and for files already in memory). */
export function memoryTree(texts: Record<string, string>): SourceTree {
  const files = Object.keys(texts).sort();
  return { files, skipped: [], bytes: (p) => Buffer.from(texts[p] ?? '', 'utf8'), text: (p) => texts[p] ?? null, fault: () => null, lastCommitDay: () => null };
}
