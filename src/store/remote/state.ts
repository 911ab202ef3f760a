/**
 * What a clone of a shared board keeps for itself, in agentd/.runtime/remote/ (never shared):
 *
 * - synced.json: the board commit the working tree's agentd/ shows (the base of the next write),
 *   its files, and the identity each file had when agentboard wrote it (so that a file changed
 *   since is noticed without reading it);
 * - fetched: written whenever the remote answered, so its time is the last sync; it holds the board
 *   commit the remote held then, and the time by the clock of the process that fetched it;
 * - pending.json: the commit a write is pushing, written before the push and removed with the
 *   write's local commit; finding one means a push was interrupted (store/remote/shared.ts);
 * - queue.json: notes and progress made while the remote could not be reached, in order, and
 *   those the rules no longer allowed when they were replayed;
 * - aside.json: written while a git command (remote pull, remote switch) runs with the board's
 *   copies taken out of its way, removed once agentd/ shows the shared board again and git is
 *   done; finding one means that command was killed, and the next command puts the board back, or
 *   that git waits for a person to finish a merge or a rebase (store/remote/shared.ts);
 * - kept/: copies of a person's files that a sync would otherwise have replaced or removed;
 * - seen.json: when this clone first knew of each open question, by its own clock (a question asked
 *   on a machine whose clock is behind does not expire here before its time has passed here too);
 * - dropped.json: writes of this clone's that the shared board does not keep (made while this
 *   clone did not share the board, found as it joined it: store/remote/reconcile.ts; queued offline
 *   and refused on replay), for the board's activity log: the next write that lands logs them and
 *   removes the file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { readBoardFile, writeFileAtomic } from '../fs.js';
import type { ActivityEntry } from '../activity.js';
import type { Listing } from './tree.js';

export interface Synced {
  remote: string;
  commit: string;
  listing: Listing;
  /** Per tree path: the identity (inode, size, mtime) of the local file when agentboard last wrote it. */
  identities: Record<string, string>;
}

export interface Pending {
  commit: string;
  parent: string | null;
  /** Set in the environment of the push, so that a push that outlived its process can be found. */
  token: string;
  summary: string;
  /** The queued write this push replays, removed from the queue once it is known to have landed. */
  queue_id?: number;
  at: string;
}

/** A git command run with the board's copies out of its way; `token` is set in its environment, so that it can be found still running. */
export interface Aside {
  token: string;
  git: string;
  at: string;
  /** git stopped half-way (a merge or a rebase waits for a person): kept until it is done. */
  midway?: true;
}

/** A task's claim as a queued write found it: the write is replayed only while it still holds. */
export interface Claim {
  task_id: string;
  assignee: string | null;
  claimed_at: string | null;
}

export interface QueuedWrite {
  id: number;
  op: string;
  input: Record<string, unknown>;
  actor: string;
  summary: string;
  claims: Claim[];
  queued_at: string;
  /** Set when the rules refused it on replay: kept for a person to see, never applied. */
  refused?: { code: string; message: string; at: string };
}

/** A write the shared board does not keep, as the activity entry that says so (logged by agentboard). */
export type Dropped = Pick<ActivityEntry, 'action' | 'target' | 'change_id' | 'summary'>;

export interface Seen {
  state?: string;
  at: Record<string, number>;
}

export interface Queue {
  next_id: number;
  entries: QueuedWrite[];
}

export class RemoteFiles {
  readonly dir: string;

  constructor(
    runtimeDir: string,
    private readonly shown: (path: string) => string,
  ) {
    this.dir = join(runtimeDir, 'remote');
  }

  path(name: 'synced.json' | 'pending.json' | 'aside.json' | 'queue.json' | 'dropped.json' | 'seen.json' | 'fetched' | 'kept' | 'clone-id' | 'waiting.json'): string {
    return join(this.dir, name);
  }

  private readJson<T>(name: 'synced.json' | 'pending.json' | 'aside.json' | 'queue.json' | 'dropped.json' | 'seen.json' | 'waiting.json'): T | null {
    const path = this.path(name);
    const read = readBoardFile(path, this.shown(path));
    if (!read) return null;
    try {
      return JSON.parse(read.text) as T;
    } catch {
      return null;
    }
  }

  ensureDir(): void {
    mkdirSync(this.dir, { recursive: true });
  }

  /** Forgets this clone's sync state (sharing turned off); the queue and kept copies stay for a person to see. */
  forget(): void {
    let names: Dirent[];
    try {
      names = readdirSync(this.dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const name of names) {
      if (name.name === 'queue.json' || name.name === 'kept') continue;
      rmSync(join(this.dir, name.name), { recursive: true, force: true });
    }
  }

  /** Whether this clone has synced a shared board and not turned sharing off since (remote disable forgets synced.json). */
  hasSynced(): boolean {
    return existsSync(this.path('synced.json'));
  }

  synced(): Synced | null {
    const s = this.readJson<{ remote: string; commit: string; listing: Record<string, [string, number]>; identities?: Record<string, string> }>('synced.json');
    if (!s || typeof s.commit !== 'string') return null;
    const listing: Listing = {};
    for (const [p, [blob, size]] of Object.entries(s.listing ?? {})) listing[p] = { blob, size };
    return { remote: s.remote, commit: s.commit, listing, identities: s.identities ?? {} };
  }

  static syncedText(synced: Synced): string {
    const listing: Record<string, [string, number]> = {};
    for (const p of Object.keys(synced.listing).sort()) listing[p] = [synced.listing[p]!.blob, synced.listing[p]!.size];
    return `${JSON.stringify({ remote: synced.remote, commit: synced.commit, listing, identities: synced.identities })}\n`;
  }

  pending(): Pending | null {
    return this.readJson<Pending>('pending.json');
  }

  writePending(p: Pending): void {
    this.writeJson('pending.json', p);
  }

  private writeJson(name: 'pending.json' | 'aside.json', value: unknown): void {
    this.ensureDir();
    writeFileAtomic(this.path(name), `${JSON.stringify(value)}\n`, this.shown(this.path(name)));
  }

  aside(): Aside | null {
    return this.readJson<Aside>('aside.json');
  }

  writeAside(a: Aside): void {
    this.writeJson('aside.json', a);
  }

  queue(): Queue {
    const q = this.readJson<Queue>('queue.json');
    return q && Array.isArray(q.entries) ? q : { next_id: 1, entries: [] };
  }

  static queueText(q: Queue): string {
    return `${JSON.stringify(q, null, 2)}\n`;
  }

  writeQueue(q: Queue): void {
    this.ensureDir();
    writeFileAtomic(this.path('queue.json'), RemoteFiles.queueText(q), this.shown(this.path('queue.json')));
  }

  /** Writes the shared board does not keep, waiting to be logged there. */
  dropped(): Dropped[] {
    const d = this.readJson<Dropped[]>('dropped.json');
    return Array.isArray(d) ? d : [];
  }

  static droppedText(d: Dropped[]): string {
    return `${JSON.stringify(d, null, 2)}\n`;
  }

  writeDropped(d: Dropped[]): void {
    this.ensureDir();
    writeFileAtomic(this.path('dropped.json'), RemoteFiles.droppedText(d), this.shown(this.path('dropped.json')));
  }

  /** When this clone first knew of each open question (ms since the epoch, by its own clock), as of the runtime store `state` (its blob id). */
  seen(): Seen {
    const s = this.readJson<Seen>('seen.json');
    return s && typeof s.at === 'object' && s.at !== null ? s : { at: {} };
  }

  writeSeen(seen: Seen): void {
    this.ensureDir();
    writeFileAtomic(this.path('seen.json'), `${JSON.stringify(seen)}\n`, this.shown(this.path('seen.json')));
  }

  /** This clone's id on the remote (its waiting ref), made on first use. */
  cloneId(): string {
    const path = this.path('clone-id');
    const read = readBoardFile(path, this.shown(path));
    if (read && /^[0-9a-f]{12}$/.test(read.text.trim())) return read.text.trim();
    const id = randomBytes(6).toString('hex');
    this.ensureDir();
    writeFileAtomic(path, `${id}\n`, this.shown(path));
    return id;
  }

  /** Records the waiting refs a fetch found, with when each value was first seen here. */
  noteWaiting(refs: Record<string, string>): void {
    const known = this.readJson<Record<string, { value: string; seen: number }>>('waiting.json') ?? {};
    const next: Record<string, { value: string; seen: number }> = {};
    for (const [clone, value] of Object.entries(refs)) next[clone] = known[clone]?.value === value ? known[clone]! : { value, seen: Date.now() };
    if (JSON.stringify(next) === JSON.stringify(known)) return;
    this.ensureDir();
    writeFileAtomic(this.path('waiting.json'), `${JSON.stringify(next)}\n`, this.shown(this.path('waiting.json')));
  }

  waitingOf(clone: string): boolean {
    return (this.readJson<Record<string, unknown>>('waiting.json') ?? {})[clone] !== undefined;
  }

  /** Whether another clone said lately that it keeps losing the race (a ref that stopped moving is stale). */
  othersWaiting(staleMs: number): boolean {
    const me = this.cloneId();
    const known = this.readJson<Record<string, { value: string; seen: number }>>('waiting.json') ?? {};
    return Object.entries(known).some(([clone, w]) => clone !== me && Date.now() - w.seen < staleMs);
  }

  /** Marks now as the last time the remote answered (the file's time), with the board commit it held (null: none) and this process's clock (SharedBoard.checkClock). */
  touchFetched(head: string | null, at: number): void {
    this.ensureDir();
    writeFileSync(this.path('fetched'), `${head ?? ''} ${at}\n`);
  }

  /** The board commit the remote held when it last answered ('' for none), and when, by the clock of the process that fetched it. */
  lastFetch(): { head: string; at: number } | null {
    const text = readBoardFile(this.path('fetched'), this.shown(this.path('fetched')))?.text;
    const m = text === undefined ? null : /^([0-9a-f]*) (\d+)\n$/.exec(text);
    return m ? { head: m[1]!, at: Number(m[2]) } : null;
  }

  /** When the remote last answered (ms since the epoch), or null when it never has. */
  fetchedAt(): number | null {
    try {
      return statSync(this.path('fetched')).mtimeMs;
    } catch {
      return null;
    }
  }
}
