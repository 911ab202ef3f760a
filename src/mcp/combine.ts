/**
 * An agent's write through an MCP server, committed together with the writes other servers are
 * waiting to make: whoever holds the board lock carries out every call queued for it, in one
 * transaction and one commit (one round of fsyncs for all), and each caller gets its answer when
 * that commit is on disk (store/calls.ts). Under contention the board does many writes per round
 * of fsyncs instead of one, and every answer still means: written, and durable.
 *
 * Only agents' writes are queued (access `agent`, never a person's or a reviewer's), on a board
 * that is not shared (each write of a shared board is a push of its own). The holder checks every
 * queued call as the tool would: its fields against the operation's schema, and an agent id as
 * the actor.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentboardError, fail, toPayload, type ErrorPayload } from '../errors.js';
import type { Stage } from '../domain/model.js';
import { isHuman } from '../domain/ids.js';
import type { BatchOutcome, Board, Notice } from '../store/board.js';
import { CallQueue, type QueuedCall } from '../store/calls.js';
import { awaitTurn, type BoardLock } from '../store/lock.js';
import { runParsed } from '../ops/execute.js';
import { findOperation } from '../ops/index.js';
import { parseInput } from '../ops/input.js';
import type { Context, Operation } from '../ops/registry.js';
import { fitsFor, type ResponseFormat } from './result.js';

/** The most calls one commit carries out: the first caller of a batch waits for no more than these. */
const BATCH_MAX = 16;
/** How long a queued call waits for its answer or a free lock before it joins the race for the lock (and looks at its holder). */
const TURN_WAIT_MS = 2_000;

/** A call as it waits in the queue. */
interface CallBody {
  op: string;
  input: Record<string, unknown>;
  format: ResponseFormat;
  /** The documents the caller's profile writes (Context.writesDocuments). */
  writes?: Stage[];
}

/** What the holder of the lock leaves for a caller. */
type Answer = { ok: true; result: unknown; notices: Notice[] } | { ok: false; error: ErrorPayload; notices: Notice[] };

/** Whether an operation's calls may be queued for the holder of the lock. */
export function combinable(op: Operation, input: Record<string, unknown>): boolean {
  return op.access === 'agent' && op.ownSync !== true && !(typeof input.agent_id === 'string' && isHuman(input.agent_id));
}

/**
 * Runs an operation on input already checked, as runParsed does, its write committed together with
 * the calls other processes queued meanwhile. A free lock is taken at once, and nothing is queued;
 * while another process holds it, the call is queued (without trying the lock: each try costs a
 * holder file), and carried out by whichever process holds the lock next: this one, or another
 * that answers for it.
 */
export async function runCombined(op: Operation, ctx: Context, input: Record<string, unknown>, format: ResponseFormat): Promise<Record<string, unknown>> {
  if (!combinable(op, input)) return runParsed(op, ctx, input);
  ctx.begin();
  const board = ctx.board();
  if (board.config.remote !== undefined) return runParsed(op, ctx, input);
  const queue = new CallQueue(board.runtimeDir);
  const body: CallBody = { op: op.name, input, format, ...(ctx.writesDocuments ? { writes: [...ctx.writesDocuments] } : {}) };
  const done = (outcome: BatchOutcome<unknown>) => {
    if (!outcome.ok) throw outcome.error;
    return op.output.parse(outcome.value) as Record<string, unknown>;
  };
  if (!existsSync(join(board.runtimeDir, 'lock'))) {
    let held = false;
    try {
      const outcome = await board.lockedUnless(
        undefined,
        (lock) => {
          held = true;
          return carryOut(ctx, board, lock, queue, null, body);
        },
        { timeoutMs: 0 },
      );
      return done(outcome!);
    } catch (err) {
      if (held || !(err instanceof AgentboardError && err.code === 'BOARD_BUSY')) throw err;
    }
  }
  const id = queue.post(body);
  const answered = { dir: queue.dir, name: queue.answerName(id), check: () => queue.hasAnswer(id) };
  await awaitTurn(board.runtimeDir, answered, TURN_WAIT_MS);
  for (;;) {
    let outcome: BatchOutcome<unknown> | null;
    try {
      outcome = await board.lockedUnless(answered, (lock) => carryOut(ctx, board, lock, queue, id, body));
    } catch (err) {
      // Taken back: nothing of it was carried out. Else it was taken up by the holder of the lock: its answer stands, or is coming.
      if (queue.withdraw(id)) throw err;
      if (queue.hasAnswer(id)) outcome = null;
      else if (err instanceof AgentboardError && err.code === 'BOARD_BUSY') continue;
      else throw err;
    }
    if (outcome) return done(outcome);
    const answer = queue.takeAnswer(id) as Answer;
    board.notices.push(...answer.notices);
    if (answer.ok) return done({ ok: true, value: answer.result });
    const { code, message, next_step, details } = answer.error;
    return done({ ok: false, error: new AgentboardError(code, message, next_step, details) });
  }
}

/**
 * Holding the lock: carries out this process's call (queued as `ownId`, or not queued: null) and
 * the calls waiting, oldest first, as one commit; gives this process's outcome.
 */
async function carryOut(ctx: Context, board: Board, lock: BoardLock, queue: CallQueue, ownId: string | null, ownBody: CallBody): Promise<BatchOutcome<unknown>> {
  const waiting = queue.waiting();
  const queued = ownId === null ? null : waiting.find((c) => c.id === ownId);
  if (queued === undefined) {
    fail('BOARD_CHANGED', 'This call is gone from the queue of the board, and no answer was left for it.', 'See where things stand (get_task or get_workflow_state), then call again if it is still needed.');
  }
  // This process's call comes first when it was not queued: it asked while the lock was free.
  const own: QueuedCall = queued ?? { id: '', pid: process.pid, path: '' };
  const calls: { call: QueuedCall; body: CallBody }[] = [];
  const takeUp = (found: QueuedCall[]) => {
    const taken: typeof calls = [];
    for (const call of found.sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (calls.length + taken.length >= BATCH_MAX) break;
      if (call === own && queued) queue.take(call);
      const body = call === own ? ownBody : (queue.take(call) as CallBody | null);
      if (body) taken.push({ call, body });
    }
    calls.push(...taken);
    return taken.map(({ call, body }) => () => runQueued(ctx, body, call === own));
  };
  const first = takeUp([own, ...waiting.filter((c) => c !== own).slice(0, BATCH_MAX - 1)]);
  // Calls queued while the batch ran join it: they are carried out before its commit.
  const more = () => (calls.length >= BATCH_MAX ? [] : takeUp(queue.waiting().filter((c) => !calls.some((t) => t.call.id === c.id))));
  let outcomes: BatchOutcome<unknown>[];
  try {
    outcomes = await board.writeBatch(lock, first, more, (tx, results) => {
      calls.forEach(({ call }, i) => {
        if (call.path) tx.removeWith(call.path);
        if (call !== own) tx.putVolatile(queue.answerPath(call.id), JSON.stringify(answerOf(results[i]!, board.notices)));
      });
    });
  } catch (err) {
    // Nothing was committed: the others' calls wait for the next holder; this one ends with the error.
    for (const { call } of calls) if (call === own) queue.drop(call);
    else queue.putBack(call);
    throw err;
  }
  return outcomes[calls.findIndex(({ call }) => call === own)]!;
}

/** One queued call, inside the batch: checked as the tool checks it (its own process did already), then run. */
async function runQueued(ctx: Context, body: CallBody, ownCall: boolean): Promise<unknown> {
  const op = findOperation(body.op);
  let input = body.input;
  if (!ownCall) {
    if (!op || !combinable(op, {})) fail('USAGE', `"${String(body.op).slice(0, 60)}" is not a write an agent may queue.`, 'Call the tool again.');
    const { imported_from: _set, ...fields } = (body.input ?? {}) as Record<string, unknown>;
    input = parseInput(op.input, fields, { rules: op.inputRules }) as Record<string, unknown>;
    if (!combinable(op, input)) fail('HUMAN_ONLY', 'A person acts from the agentboard CLI, not through an MCP server.', 'Call the tool with your agent id.');
  }
  const format = body.format === 'json' ? 'json' : 'markdown';
  return op!.run({ ...ctx, writesDocuments: body.writes, fits: fitsFor(body.op, format) }, input as never);
}

function answerOf(outcome: BatchOutcome<unknown>, notices: readonly Notice[]): Answer {
  if (!outcome.ok && !(outcome.error instanceof AgentboardError)) {
    process.stderr.write(`agentboard mcp: a queued call failed: ${(outcome.error as Error)?.stack ?? String(outcome.error)}\n`);
  }
  return outcome.ok ? { ok: true, result: outcome.value, notices: [...notices] } : { ok: false, error: toPayload(outcome.error), notices: [...notices] };
}
