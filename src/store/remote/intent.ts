/**
 * What the operation running now asks of a shared board's write, beyond its transaction. It is
 * carried by the call (AsyncLocalStorage), not by the board, because one MCP server runs several
 * calls at once on one board.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { QueuedWrite } from './state.js';

export interface WriteIntent {
  /**
   * The operation may be queued (notes, progress): when the remote cannot be reached, its write is
   * checked against the local copy and kept in the queue, to be replayed in order on the next sync.
   */
  queueable?: { op: string; input: Record<string, unknown> };
  /** The operation replays this queued write: only while the claims it was made under still hold. */
  replay?: QueuedWrite;
  /**
   * A person's operation that may put a board on a remote that holds none (SharedBoard.missing):
   * this clone's copy as last synced (remote sync), or also, in a clone that never synced, its own
   * board (remote enable).
   */
  publish?: 'copy' | 'board';
}

const current = new AsyncLocalStorage<WriteIntent>();

export function runWithIntent<T>(intent: WriteIntent, fn: () => T): T {
  return current.run(intent, fn);
}

export function writeIntent(): WriteIntent | undefined {
  return current.getStore();
}

/**
 * When what the running write says was written: `now` (the board's time of this write) or, for a
 * write queued offline and replayed now, the time it was queued, so that a note or a progress
 * report keeps the time its author wrote it. Never later than `now`.
 */
export function writtenAt(now: string): string {
  const queued = current.getStore()?.replay?.queued_at;
  return queued !== undefined && Date.parse(queued) <= Date.parse(now) ? queued : now;
}
