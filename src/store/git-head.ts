/**
 * What the commit checked out (HEAD) holds of the board, told without running git where it can be:
 * the commit HEAD names is read from the repository's files, and the blob ids of the change
 * documents in it are listed by one `git ls-tree` per commit (kept while HEAD names that commit). A
 * file whose bytes hash to the blob id HEAD holds for it is as the commit has it.
 */
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { textOf } from './fs.js';
import { gitSync } from './git-sync.js';

const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function readIfThere(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The commit HEAD names, read from `headFile` and the refs it points to (a worktree's refs are in
 * its main repository's folder); null when that cannot be told from the files (no commit yet, refs
 * kept in a format not read here).
 */
export function headCommit(headFile: string): string | null {
  const head = readIfThere(headFile)?.trim();
  if (head === undefined) return null;
  if (COMMIT_ID.test(head)) return head;
  if (!head.startsWith('ref: ')) return null;
  const ref = head.slice(5);
  const gitDir = dirname(headFile);
  const common = readIfThere(join(gitDir, 'commondir'))?.trim();
  const refsDir = common ? resolve(gitDir, common) : gitDir;
  const loose = readIfThere(join(refsDir, ref))?.trim();
  if (loose !== undefined && COMMIT_ID.test(loose)) return loose;
  const packed = readIfThere(join(refsDir, 'packed-refs'))?.split('\n').find((line) => line.endsWith(` ${ref}`));
  const id = packed?.slice(0, packed.indexOf(' '));
  return id !== undefined && COMMIT_ID.test(id) ? id : null;
}

/** The blob ids of the files under `dir` in HEAD, by path relative to `root` (where git runs), with the commit they were listed for. */
let listed: { key: string; blobs: Map<string, string> } | null = null;

/**
 * The blob ids HEAD holds for the files under `dir` (a path relative to `root`, with forward
 * slashes), by path relative to `root`; empty when there is no commit yet; null when git cannot be
 * run (nothing is known either way). Listed again only when HEAD names another commit (`commit`,
 * null: not known from the files, listed each time).
 */
export function committedBlobs(root: string, dir: string, commit: string | null): Map<string, string> | null {
  const key = `${root}\0${dir}\0${commit}`;
  if (commit !== null && listed?.key === key) return listed.blobs;
  let blobs: Map<string, string> | null = new Map<string, string>();
  try {
    const git = gitSync(['ls-tree', '-r', '-z', 'HEAD', '--', `${dir}/`], { cwd: root, env: { ...process.env, LC_ALL: 'C' }, timeoutMs: 10_000 });
    // No commit yet: HEAD holds nothing. Any other failure (git missing, a repository git will not
    // read, say one owned by another user) tells nothing.
    if (git.code !== 0) blobs = /Not a valid object name HEAD/.test(git.stderr) ? blobs : null;
    else {
      // "<mode> blob <id>\t<path>", each ended by NUL.
      for (const entry of git.stdout.toString('utf8').split('\0')) {
        const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
        if (m) blobs!.set(m[2]!, m[1]!);
      }
    }
  } catch {
    blobs = null;
  }
  if (blobs !== null) listed = { key, blobs };
  return blobs;
}

/** The id git gives a blob of these bytes, in the form of `like` (SHA-1, or SHA-256 for a repository made with it). */
export function blobId(bytes: Uint8Array, like: string): string {
  return createHash(like.length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

/** A file as the commit checked out holds it: its text (null: the commit has no such file, or there is no commit yet), or why git could not say. */
export type CommittedFile = { text: string | null } | { unknown: string; missing: boolean };

/** The file at `shown` (a path relative to `root`, where git runs) as HEAD holds it. */
export function committedFile(root: string, shown: string): CommittedFile {
  const git = gitSync(['cat-file', 'blob', `HEAD:./${shown}`], { cwd: root, env: { ...process.env, LC_ALL: 'C' }, timeoutMs: 10_000 });
  if (git.code === 0) return { text: textOf(git.stdout) };
  if (/does not exist in 'HEAD'|exists on disk, but not in 'HEAD'|invalid object name 'HEAD'/.test(git.stderr)) return { text: null };
  return { unknown: git.missing ? 'git is not installed' : (git.stderr.split('\n').find((l) => l.trim() !== '')?.trim() ?? `git exited with ${git.code}`), missing: git.missing };
}
