/**
 * The board ref's tree, and how it maps onto agentd/.
 *
 * refs/agentboard/board on the remote holds one commit per write; its tree carries what agents and
 * people share, and nothing a clone keeps for itself (ledgers, parse caches, the lock, runs, this
 * clone's queue):
 *
 *     changes/<change_id>/…         agentd/changes/<change_id>/…
 *     archive/<folder>/…            agentd/archive/<folder>/…
 *     runtime/state.json            agentd/.runtime/state.json (agents, sessions, questions, review keys' hashes)
 *     runtime/activity/000001.jsonl agentd/.runtime/activity.jsonl, cut in chunks of about
 *     runtime/activity/000002.jsonl ACTIVITY_CHUNK bytes, so that a write adds a small blob
 *
 * config.yaml and people.yaml travel in people's branches (they are settings, reviewed like code).
 */
import { hasBom, textOf } from '../fs.js';
import { withLf } from '../markdown.js';
import type { Git } from './git.js';

/** The ref on the remote that holds the board. */
export const BOARD_REF = 'refs/agentboard/board';

/** Where a tree path's content is: its blob id and size. */
export interface Entry {
  blob: string;
  size: number;
}

/** Every file of a board commit, by tree path. */
export type Listing = Record<string, Entry>;

export const STATE_PATH = 'runtime/state.json';
export const ACTIVITY_DIR = 'runtime/activity/';
const ACTIVITY_CHUNK = 256 * 1024;

/** The tree path of a file under agentd/ (given relative to agentd/), or null when it stays local. */
export function treePathOf(boardRel: string): string | null {
  if (boardRel.startsWith('changes/') || boardRel.startsWith('archive/')) return boardRel;
  if (boardRel === '.runtime/state.json') return STATE_PATH;
  return null;
}

/** The file under agentd/ (relative to agentd/) of a tree path; activity chunks have none of their own. */
export function boardPathOf(treePath: string): string | null {
  if (treePath.startsWith('changes/') || treePath.startsWith('archive/')) return treePath;
  if (treePath === STATE_PATH) return '.runtime/state.json';
  return null;
}

/**
 * A file's bytes as the board ref holds them: a document of a change or of the archive with LF line
 * ends and without a byte order mark, whatever the clone's copy has (a checkout with core.autocrlf,
 * an editor that saves Windows' line ends, or an old Mac's lone CR), so that the board's history
 * does not flip between them with whoever wrote last. Each clone keeps its own: a file that differs
 * from the board's version only in those holds that version (git.ts holdsBlob).
 */
export function sharedBytes(treePath: string, bytes: Buffer): Buffer {
  if (!/^(changes|archive)\//.test(treePath) || (!hasBom(bytes) && !bytes.includes(CR))) return bytes;
  return Buffer.from(withLf(textOf(bytes)), 'utf8');
}

const CR = 0x0d;

/** The activity chunks of a listing, in order. */
export function activityChunks(listing: Listing): { path: string; entry: Entry }[] {
  return Object.keys(listing)
    .filter((p) => p.startsWith(ACTIVITY_DIR))
    .sort()
    .map((path) => ({ path, entry: listing[path]! }));
}

/** The size of the activity log a listing holds (the sum of its chunks). */
export function activitySize(listing: Listing): number {
  return activityChunks(listing).reduce((n, c) => n + c.entry.size, 0);
}

function chunkPath(n: number): string {
  return `${ACTIVITY_DIR}${String(n).padStart(6, '0')}.jsonl`;
}

/**
 * Where new activity lines go: appended to the last chunk while it is small, else a chunk of their
 * own. Returns the chunk's path and the offset in the whole log where that chunk starts.
 */
export function activityTarget(listing: Listing): { path: string; start: number } {
  const chunks = activityChunks(listing);
  const last = chunks[chunks.length - 1];
  const total = activitySize(listing);
  if (last && last.entry.size < ACTIVITY_CHUNK) return { path: last.path, start: total - last.entry.size };
  return { path: chunkPath(chunks.length + 1), start: total };
}

/** Cuts a whole activity log into chunks at line ends (for a board's first commit). */
export function cutActivity(text: Buffer): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(from + ACTIVITY_CHUNK, text.length);
    if (to < text.length) {
      const nl = text.indexOf(10, to - 1);
      to = nl < 0 ? text.length : nl + 1;
    }
    out.push({ path: chunkPath(out.length + 1), bytes: text.subarray(from, to) });
    from = to;
  }
  return out;
}

/** The change folders (changes/<id>) and archive folders (archive/<folder>) a listing holds. */
export function foldersOf(listing: Listing): Set<string> {
  const out = new Set<string>();
  for (const p of Object.keys(listing)) {
    const m = /^((?:changes|archive)\/[^/]+)\//.exec(p);
    if (m) out.add(m[1]!);
  }
  return out;
}

// ---- git ------------------------------------------------------------------------------------------

/** Every file of a commit's tree. */
export function readListing(git: Git, commit: string): Listing {
  const out: Listing = {};
  const text = git.must(['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
  for (const record of text.split('\0')) {
    // <mode> SP <type> SP <object> SP+ <size> TAB <path>
    const m = /^\d+ blob ([0-9a-f]+) +(\d+)\t(.+)$/s.exec(record);
    if (m) out[m[3]!] = { blob: m[1]!, size: Number(m[2]) };
  }
  return out;
}

/** The bytes of some blobs, by id. */
export function readBlobs(git: Git, ids: string[]): Map<string, Buffer> {
  const wanted = [...new Set(ids)];
  const out = new Map<string, Buffer>();
  if (wanted.length === 0) return out;
  const r = git.run(['cat-file', '--batch'], { input: `${wanted.join('\n')}\n` });
  if (r.code !== 0) throw new Error(`git cat-file failed: ${r.stderr.trim()}`);
  let at = 0;
  for (const id of wanted) {
    const nl = r.stdout.indexOf(10, at);
    const header = r.stdout.toString('utf8', at, nl).split(' ');
    if (header[1] !== 'blob') throw new Error(`git cat-file: ${id} is missing`);
    const size = Number(header[2]);
    out.set(id, r.stdout.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return out;
}

/** Where a commit being built comes from, and what it is. */
export interface NewCommit {
  parent: string | null;
  /** A second parent: the other history a merge brings in (store/remote/fork.ts). */
  merge?: string;
  /** The parent's files (none for a first commit). */
  base: Listing;
  /** Every file of the new commit. */
  listing: Listing;
  /** The bytes of the blobs the repository may not have yet, by id. */
  data: Map<string, Buffer>;
  message: string;
  author: string;
  /** A ref of this board's own that fast-import writes the commit on (it needs one). */
  ref: string;
  /** The time of the write (ms since the epoch), the commit's date: what the clones' clocks said is compared by it (SharedBoard.checkClock). */
  at: number;
}

/** Stores the commit in the repository with one `git fast-import` (its blobs, trees and the commit); its id. */
export function writeCommit(git: Git, c: NewCommit): string {
  const now = Math.floor(c.at / 1000);
  const text = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    return [Buffer.from(`data ${b.length}\n`), b, Buffer.from('\n')];
  };
  const parts: Buffer[] = [Buffer.from(`reset ${c.ref}\ncommit ${c.ref}\nmark :1\n`)];
  parts.push(Buffer.from(`author ${c.author.replace(/[<>\n]/g, '').slice(0, 100)} <agentboard@localhost> ${now} +0000\ncommitter agentboard <agentboard@localhost> ${now} +0000\n`));
  parts.push(...text(c.message));
  if (c.parent) parts.push(Buffer.from(`from ${c.parent}\n`));
  if (c.merge) parts.push(Buffer.from(`merge ${c.merge}\n`));
  for (const p of Object.keys(c.base)) if (!c.listing[p]) parts.push(Buffer.from(`D ${quote(p)}\n`));
  for (const [p, e] of Object.entries(c.listing)) {
    if (c.base[p]?.blob === e.blob) continue;
    const bytes = c.data.get(e.blob);
    if (!bytes) {
      parts.push(Buffer.from(`M 100644 ${e.blob} ${quote(p)}\n`));
      continue;
    }
    parts.push(Buffer.from(`M 100644 inline ${quote(p)}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
  }
  parts.push(Buffer.from('get-mark :1\n'));
  return git.must(['fast-import', '--quiet', '--force', '--date-format=raw'], { input: Buffer.concat(parts) });
}

/** A path as fast-import reads it (quoted when it holds what would end it). */
function quote(path: string): string {
  return /^[^"\\\n ]+$/.test(path) && !path.startsWith('"') ? path : JSON.stringify(path);
}
