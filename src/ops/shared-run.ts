/**
 * Operations on a shared board (docs/shared-boards.md). A write first pushes what this clone
 * queued while it was offline, so that its writes land in the order they were made; a read answers
 * from this clone's copy and says how fresh it is (--sync fetches first). The store does the rest:
 * every write is agreed with the remote (store/remote/shared.ts).
 */
import { AgentboardError, type ErrorCode } from '../errors.js';
import { runWithIntent } from '../store/remote/intent.js';
import { ReplayedElsewhere, TRANSIENT, type SharedBoard } from '../store/remote/shared.js';
import { faultPoint } from '../clock.js';
import { findOperation } from './index.js';
import type { Context, Operation } from './registry.js';
import { refTo, SAME_CALL } from '../domain/refs.js';

export async function runShared(op: Operation, ctx: Context, input: Record<string, unknown>): Promise<unknown> {
  const board = ctx.board();
  const shared = (await board.sharing())!;
  if (op.access !== 'read') {
    await replayQueue(ctx, shared);
    return runWithIntent(op.queueable ? { queueable: { op: op.name, input } } : {}, () => op.run(ctx, input as never));
  }
  await shared.settleForRead();
  const synced = ctx.sync ? await syncForRead(ctx, shared) : true;
  const fresh = freshness(shared, ctx.sync ? undefined : ctx.syncHint, !synced);
  let result: unknown;
  try {
    result = await op.run(ctx, input as never);
  } catch (err) {
    throw ctx.sync && synced ? err : notInCopy(err, fresh);
  }
  board.notices.push({ kind: 'remote', message: fresh });
  return result;
}

/** What another clone may have written on the shared board: absent from a copy that was not fetched, it may be there. */
const SHARED_THINGS: ReadonlySet<ErrorCode> = new Set(['CHANGE_NOT_FOUND', 'TASK_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'AGENT_NOT_FOUND', 'INPUT_NOT_FOUND']);

/**
 * A read that finds nothing in this clone's copy (one that never synced, or not since another clone
 * wrote) says how fresh the copy is, and that the shared board is fetched before anything else: its
 * usual next step (create the change, register the agent) would make again what the board may hold.
 * Asked again after a sync, the board answers for itself.
 */
function notInCopy(err: unknown, fresh: string): unknown {
  if (!(err instanceof AgentboardError) || !SHARED_THINGS.has(err.code)) return err;
  return new AgentboardError(err.code, `${err.message} ${fresh}`, `The shared board may hold it: fetch it first with ${refTo('remote.sync')}, then try ${SAME_CALL} again.`, err.details);
}

/**
 * How fresh this clone's copy is, for a read; `hint`: how the reader has a read fetch first, when it
 * did not; `failed`: a sync was tried and failed (the remote answered, with no board, say: that is
 * no sync of the copy).
 */
export function freshness(shared: SharedBoard, hint?: string, failed = false): string {
  const at = shared.files.fetchedAt();
  const when = failed ? 'as this clone last synced it: it could not be synced now' : at === null ? 'never synced yet' : `last synced ${ago(Date.now() - at)}`;
  const unsettled = shared.files.pending() ? '; an interrupted write is not settled yet' : '';
  return `Read from this clone's copy of the shared board (remote "${shared.remote}"), ${when}${unsettled}${hint ? `; ${hint}` : ''}.`;
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}

/**
 * Brings a shared board's copy up to date, as a read with --sync does: this clone's queued writes
 * pushed, the board fetched. Throws REMOTE_UNREACHABLE (and the like) when the remote cannot be
 * reached. Nothing to do on a board that is not shared.
 */
export async function syncCopy(ctx: Context): Promise<void> {
  const shared = await ctx.board().sharing();
  if (!shared) return;
  await replayQueue(ctx, shared);
  await ctx.board().mutate(() => undefined);
}

/** A read with --sync: fetch first; when the remote cannot be reached (or holds no board), answer from the local copy and say so (false). */
async function syncForRead(ctx: Context, shared: SharedBoard): Promise<boolean> {
  try {
    await syncCopy(ctx);
    return true;
  } catch (err) {
    if (!(err instanceof AgentboardError) || !['REMOTE_UNREACHABLE', 'REMOTE_NO_BOARD', 'REMOTE_NOT_FOUND'].includes(err.code)) throw err;
    // Unreachable, the remote may be back by itself; otherwise someone has to act, and the step says who and how.
    const step = err.code === 'REMOTE_UNREACHABLE' ? '' : ` ${err.nextStep}`;
    ctx.board().notices.push({ kind: 'remote', message: `Could not sync with "${shared.remote}": ${err.message.split(' (')[0].replace(/\.$/, '')}.${step}` });
    return false;
  }
}

/**
 * Replays this clone's queued writes, oldest first, each under the rules of the board as it is
 * now and only while the claim it was made under holds. A write the rules refuse is kept, marked,
 * for a person to see; the replay stops at the first that fails for want of the remote.
 */
export async function replayQueue(ctx: Context, shared: SharedBoard): Promise<{ replayed: number; refused: number }> {
  const out = { replayed: 0, refused: 0 };
  const tried = new Set<number>();
  for (;;) {
    const entry = shared.files.queue().entries.find((e) => !e.refused && !tried.has(e.id));
    if (!entry) return out;
    tried.add(entry.id);
    faultPoint('remote:replay');
    const op = findOperation(entry.op);
    try {
      if (!op) throw new AgentboardError('QUEUED_WRITE_REFUSED', `The queued write #${entry.id} is a ${entry.op}, which this version of agentboard does not know.`, `Remove it with ${refTo('remote.drop', { queue_id: entry.id })}.`);
      ctx.begin();
      await runWithIntent({ replay: entry }, () => op.run(ctx, entry.input as never));
      out.replayed++;
    } catch (err) {
      if (err instanceof ReplayedElsewhere) continue;
      if (!(err instanceof AgentboardError)) throw err;
      if (TRANSIENT.has(err.code)) return out;
      await ctx.board().locked(() => shared.refuse(entry.id, err));
      out.refused++;
    }
  }
}
