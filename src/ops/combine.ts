/**
 * An agent's write (through an MCP server, or a command run as an agent), committed together with
 * the writes other processes are waiting to make: whoever holds the board lock carries out every
 * call queued for it, in one transaction and one commit (one round of fsyncs for all), and each
 * caller gets its answer when that commit is on disk (store/calls.ts). Under contention the board
 * does many writes per round of fsyncs instead of one, and every answer still means: written, and
 * durable.
 *
 * A process whose commit carried out other processes' calls (a busy board) keeps the lock after
 * it while calls keep coming (within LINGER_MS of each other, for TENURE_MS at most, and never
 * while someone waits in line for the lock), and carries them out batch after batch: one process
 * serves the others, with what it read and parsed still current (the files are the ones it wrote)
 * and its code warm. Its caller gets its answer as soon as its own batch is committed. Without
 * other callers the lock goes at once, as after any write; a command (which exits once it has its
 * answer) never keeps it.
 *
 * Only agents' writes are queued (access `agent`, never a person's or a reviewer's). On a shared
 * board a batch is one push; while this clone has writes queued offline, or when the remote cannot
 * be reached, each call goes alone, as a write of its own (queued offline in turn). The holder
 * checks every queued call as the tool would: its fields against the operation's schema, and an
 * agent id as the actor.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { testHooks } from '../clock.js';
import { AgentboardError, fail, toPayload, type ErrorPayload } from '../errors.js';
import { SAME_CALL } from '../domain/refs.js';
import type { Stage } from '../domain/model.js';
import { isHuman } from '../domain/ids.js';
import { conflictNotices, type BatchOutcome, type Board, type Notice } from '../store/board.js';
import { CallQueue, isCallName, type QueuedCall } from '../store/calls.js';
import { awaitTurn, changeIn, someoneInLine, type Answered, type BoardLock, type LockOptions } from '../store/lock.js';
import { refuseOutsideAssignment, runParsed } from './execute.js';
import { catalog, loadOperation } from './catalog.js';
import { CALL_LOST, parseInput } from './input.js';
import { inputRulesOf, type Context, type Operation, type RunPhase } from './registry.js';
import { fitsFor, type ResponseFormat } from '../mcp/result.js';
import { printable } from '../domain/text.js';

/** The most calls one commit carries out: the first caller of a batch waits for no more than these. */
const BATCH_MAX = 16;
/** After a commit, how long the holder of the lock waits for more calls before it lets the lock go. */
const LINGER_MS = 20;
/** How long a batch of the holder of the lock waits, at most, for the calls it expects before its commit. */
const GATHER_MS = 5;
/** The longest the holder of the lock goes on carrying out queued calls, batch after batch. */
const TENURE_MS = 10_000;
/** While the holder waits for calls, how often it looks whether someone is in line for the lock. */
const LINE_LOOK_MS = 100;
/** How long a queued call waits for its answer or a free lock before it joins the race for the lock (and looks at its holder). */
const TURN_WAIT_MS = 2_000;

/** How the caller shows results: an MCP client in one of its formats (results fit its size cap), or the command line (whole). */
export type CallerFormat = ResponseFormat | 'cli';

/** A call as it waits in the queue. */
interface CallBody {
  op: string;
  input: Record<string, unknown>;
  format: CallerFormat;
  /** The documents the caller's profile writes (Context.writesDocuments). */
  writes?: Stage[];
  /** The caller works for this agent of `agentboard run` (Board.agentOfRun): the write merges no hand edit. */
  run_agent?: string;
  /** The phase the run started the caller's agent for (Context.runPhase): its question is that phase's. */
  run_phase?: RunPhase;
  /** The task the run gave the caller's agent (Context.assignment): its `next` answers with that task, whoever carries it out. */
  assignment?: string;
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
 * that answers for it. `serve`: whether this process may go on serving queued calls after its own
 * (a long-lived MCP server may; a command, which exits once it has answered, does not). `signal`:
 * the caller cancelled the call (an MCP client's notifications/cancelled); a call still queued is
 * then taken back, nothing of it carried out, while one the holder of the lock took up is waited for.
 */
export async function runCombined(op: Operation, ctx: Context, input: Record<string, unknown>, format: CallerFormat, options: { serve?: boolean; signal?: AbortSignal } = {}): Promise<Record<string, unknown>> {
  const serve = options.serve !== false;
  if (!combinable(op, input)) return runParsed(op, ctx, input);
  refuseOutsideAssignment(op, ctx, input);
  ctx.begin();
  const board = ctx.board();
  // On a shared board, a call the batch could not push goes alone: as a write of its own, queued offline when the remote is out of reach.
  const alone = (err: unknown) => err instanceof GoAlone || (board.config.remote !== undefined && err instanceof AgentboardError && err.code === 'REMOTE_UNREACHABLE');
  const queue = new CallQueue(board.runtimeDir);
  const body: CallBody = { op: op.name, input, format, ...(ctx.writesDocuments ? { writes: [...ctx.writesDocuments] } : {}), ...(board.agentOfRun ? { run_agent: board.agentOfRun } : {}), ...(ctx.runPhase ? { run_phase: ctx.runPhase } : {}), ...(ctx.assignment ? { assignment: ctx.assignment } : {}) };
  const done = (outcome: BatchOutcome<unknown>) => {
    if (!outcome.ok) throw outcome.error;
    return op.output.parse(outcome.value) as Record<string, unknown>;
  };
  if (!existsSync(join(board.runtimeDir, 'lock'))) {
    let held = false;
    try {
      const outcome = await holding(
        ctx,
        board,
        queue,
        serve,
        undefined,
        (lock) => {
          held = true;
          return carryOut(ctx, board, lock, queue, { id: null, body });
        },
        { timeoutMs: 0, signal: options.signal },
      );
      return done(outcome!);
    } catch (err) {
      if (alone(err)) return runParsed(op, ctx, input);
      if (held || !(err instanceof AgentboardError && err.code === 'BOARD_BUSY')) throw err;
    }
  }
  const id = queue.post(body);
  const answered = { check: () => queue.hasAnswer(id) };
  let signal = options.signal;
  await awaitTurn(board.runtimeDir, answered, TURN_WAIT_MS, false, signal);
  for (;;) {
    let outcome: BatchOutcome<unknown> | null = null;
    try {
      // Answered while it waited (most often): nothing of the lock is touched.
      if (!queue.hasAnswer(id)) outcome = await holding(ctx, board, queue, serve, answered, (lock) => carryOut(ctx, board, lock, queue, { id, body }), { signal });
    } catch (err) {
      // Taken back: nothing of it was carried out. Else it was taken up by the holder of the lock: its answer stands, or is coming.
      const withdrawn = queue.withdraw(id);
      if (!withdrawn && queue.hasAnswer(id)) outcome = null;
      else if (alone(err)) return runParsed(op, ctx, input);
      else if (withdrawn) throw err;
      else if (err instanceof AgentboardError && err.code === 'BOARD_BUSY') {
        // Its answer is coming: waited for even by a process that waits for the lock no more (stopWaiting),
        // and for a call cancelled, which may take the lock again to carry itself out.
        signal = undefined;
        await awaitTurn(board.runtimeDir, answered, TURN_WAIT_MS, true);
        continue;
      }
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
 * Runs `first` holding the board lock (as Board.lockedUnless does) and gives its outcome as soon as
 * it has one; with `serve`, the lock stays held meanwhile while other processes' calls keep coming,
 * and they are carried out batch after batch (serveOn). One process so keeps serving a busy board:
 * what it read and parsed stays current (the files it finds are the ones it wrote), its code stays
 * warm, and no lock changes hands between batches. Without `serve` the outcome comes once the lock
 * is let go.
 */
function holding(ctx: Context, board: Board, queue: CallQueue, serve: boolean, answered: Answered | undefined, first: (lock: BoardLock) => Promise<Served>, options: Pick<LockOptions, 'timeoutMs' | 'signal'> = {}): Promise<BatchOutcome<unknown> | null> {
  return new Promise((resolve, reject) => {
    let given = false;
    const give = (outcome: BatchOutcome<unknown> | null) => {
      given = true;
      resolve(outcome);
    };
    const tenure = board
      .lockedUnless(
        answered,
        async (lock) => {
          const { outcome, others } = await first(lock);
          if (!serve) return outcome;
          give(outcome);
          // A board with no other caller: the lock goes at once, as after any write.
          if (others > 0) await serveOn(ctx, board, lock, queue, others + 1);
          return outcome;
        },
        options,
      )
      .then(
        (outcome) => given || give(outcome),
        (err) => {
          if (!given) reject(err);
          else process.stderr.write(`agentboard mcp: serving queued calls failed: ${(err as Error)?.stack ?? String(err)}\n`);
        },
      );
    tenures.add(tenure);
    void tenure.finally(() => tenures.delete(tenure));
  });
}

/** The holders of the lock in this process serving queued calls, and whether they are to stop (the server is closing). */
const tenures = new Set<Promise<unknown>>();
let closing: (() => void) | null = null;
let closed = false;

/** Has the holders of the lock in this process stop serving queued calls and let the lock go; settles when they have. */
export async function endTenures(): Promise<void> {
  closed = true;
  closing?.();
  await Promise.allSettled([...tenures]);
}

/**
 * Holding the lock after a commit: carries out the calls queued meanwhile, batch after batch, each a
 * commit of its own with the board's time of its own, for as long as calls come within LINGER_MS,
 * for TENURE_MS at most, and only while nobody has waited in line for the lock (a person's command,
 * a write that cannot be queued: they get the lock at the end of the batch under way). A batch
 * starts with the first call that comes, and waits before its commit (GATHER_MS at most) for as
 * many calls as the one before answered: callers answered at once call again at once, and one
 * commit for all of them costs one round of fsyncs instead of several.
 */
async function serveOn(ctx: Context, board: Board, lock: BoardLock, queue: CallQueue, answered: number): Promise<void> {
  const until = Date.now() + (testHooks()?.tenureMs ?? TENURE_MS);
  // The callers of the last batch (`answered` calls) are expected to call again.
  let expect = answered;
  let renewed = 0;
  while (Date.now() < until) {
    // A turn of the event loop between batches: this server's own client is read and answered too
    // (with calls waiting batch after batch, nothing here waits on input, and its stdin went unread).
    await new Promise<void>((resolve) => setImmediate(resolve));
    const waiting = await callsCome(board, queue, until);
    if (!waiting) return;
    // The lock is written again before a batch (its time is the batch's), unless the last commit just did.
    if (Date.now() - renewed > LINGER_MS && !lock.renew()) return;
    board.begin();
    const start = board.notices.length;
    try {
      expect = (await carryOut(ctx, board, lock, queue, null, waiting, expect)).others;
      // The commit wrote the lock again when it answered someone (carryOut).
      if (expect > 0) renewed = Date.now();
    } catch (err) {
      // Nothing of the batch was committed, and its calls are back in the queue: the next holder of the lock carries them out.
      if (!(err instanceof AgentboardError) && !(err instanceof GoAlone)) process.stderr.write(`agentboard mcp: a batch of queued calls failed: ${(err as Error)?.stack ?? String(err)}\n`);
      return;
    } finally {
      // The notices of this batch went with its answers.
      board.notices.splice(start);
    }
  }
}

/**
 * The calls waiting in the queue now or coming within the linger time (before `until`); null when
 * none come, and as soon as someone is in line for the lock (a person's command, a write that
 * cannot be queued) or the server is closing.
 */
async function callsCome(board: Board, queue: CallQueue, until: number): Promise<QueuedCall[] | null> {
  const deadline = Math.min(until, Date.now() + (testHooks()?.lingerMs ?? LINGER_MS));
  for (let want = 1; await callsQueued(board, queue, want, deadline); ) {
    // A call's process is looked at once, here, when it is about to be taken up.
    const waiting = queue.waiting();
    if (waiting.length > 0) return waiting;
    // The calls counted were gone (their callers too): one more than are left is waited for.
    want = queue.count() + 1;
  }
  return null;
}

/**
 * Waits until `want` calls are in the queue (counted by name, the ones a batch took up included):
 * true once they are; false when `until` passes first, someone is in line for the lock or the
 * server is closing. The wait ends when the calls it counts as they come are enough, not at each.
 */
async function callsQueued(board: Board, queue: CallQueue, want: number, until: number): Promise<boolean> {
  while (!closed && !someoneInLine(board.runtimeDir)) {
    // Watched before the queue is counted, so that no call comes unseen.
    let come = 0;
    let seen = false;
    const arrived = new Set<string>();
    const enough = (file: string) => isCallName(file) && (arrived.add(file), (seen ||= come + arrived.size >= want));
    // The line is looked at again at least every LINE_LOOK_MS while this holder waits.
    const woken = changeIn([{ dir: queue.dir, names: enough }], Math.max(0, Math.min(until - Date.now(), LINE_LOOK_MS)));
    closing = woken.cancel;
    come = queue.count();
    if (come >= want || Date.now() >= until) {
      woken.cancel();
      return come >= want;
    }
    await woken.done;
    // Woken by as many calls as wanted coming (their names seen): not counted again, the batch takes them up.
    if (seen) return true;
  }
  return false;
}

/** What a batch gave this process (nothing without a call of its own), and how many calls of other processes it carried out. */
interface Served {
  outcome: BatchOutcome<unknown>;
  others: number;
}

/**
 * Holding the lock: carries out this process's call (queued as `own.id`, or not queued: null),
 * when it has one, and the calls waiting (`found` when just looked at), oldest first, as one commit.
 */
async function carryOut(ctx: Context, board: Board, lock: BoardLock, queue: CallQueue, own: { id: string | null; body: CallBody } | null, found?: QueuedCall[], expect = 0): Promise<Served> {
  if (await offlineWrites(board)) throw new GoAlone();
  const waiting = found ?? queue.waiting();
  const queued = own?.id == null ? null : waiting.find((c) => c.id === own.id);
  if (queued === undefined) {
    fail('BOARD_CHANGED', 'This call is gone from the queue of the board, and no answer was left for it.', CALL_LOST);
  }
  // This process's call comes first when it was not queued: it asked while the lock was free.
  const mine: QueuedCall | null = own === null ? null : (queued ?? { id: '', pid: process.pid, path: '' });
  const calls: { call: QueuedCall; body: CallBody }[] = [];
  const takeUp = (found: QueuedCall[]) => {
    const taken: typeof calls = [];
    for (const call of found.sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (calls.length + taken.length >= BATCH_MAX) break;
      if (call === mine && queued) queue.take(call);
      const body = call === mine ? own!.body : (queue.take(call) as CallBody | null);
      if (body) taken.push({ call, body });
    }
    calls.push(...taken);
    return taken.map(({ call, body }) => () => runQueued(ctx, body, call === mine));
  };
  const first = takeUp([...(mine ? [mine] : []), ...waiting.filter((c) => c !== mine).slice(0, BATCH_MAX - 1)]);
  if (first.length === 0) return { outcome: { ok: true, value: undefined }, others: 0 }; // every call waiting was taken back meanwhile
  // Calls queued while the batch ran join it: they are carried out before its commit. The batch waits
  // (GATHER_MS at most) for the calls it expects: the others come meanwhile, while it runs the first.
  const gatherUntil = Date.now() + (testHooks()?.gatherMs ?? GATHER_MS);
  const more = async () => {
    if (calls.length >= BATCH_MAX) return [];
    if (calls.length < expect) await callsQueued(board, queue, expect, gatherUntil);
    return takeUp(queue.waiting({ except: new Set(calls.map((t) => t.call.id)), answers: false }));
  };
  let outcomes: BatchOutcome<unknown>[];
  try {
    outcomes = await board.writeBatch(lock, first, more, (tx, results) => {
      calls.forEach(({ call }, i) => {
        if (call.path) tx.removeWith(call.path);
        // With the notices of this batch's merges, which the board says only once the commit is done.
        if (call !== mine) tx.putVolatile(queue.answerPath(call.id), JSON.stringify(answerOf(results[i]!, [...board.notices, ...conflictNotices(tx)])));
      });
      // The callers waiting on the lock look for their answers as soon as they are in place (they
      // watch the lock, not the calls folder), and go on while this holder finishes its commit.
      if (calls.some(({ call }) => call !== mine)) tx.whenApplied(() => lock.renew());
    });
  } catch (err) {
    // Nothing was committed: the others' calls wait for the next holder; this one ends with the error.
    for (const { call } of calls) if (call === mine) queue.drop(call);
    else queue.putBack(call);
    throw err;
  }
  const index = calls.findIndex(({ call }) => call === mine);
  const others = calls.length - (index < 0 ? 0 : 1);
  return { outcome: index < 0 ? { ok: true, value: undefined } : outcomes[index]!, others };
}

/**
 * A shared board with writes this clone made offline: they are pushed first, in order, by the next
 * write of its own (ops/shared-run.ts), so no batch runs before them.
 */
class GoAlone extends Error {}

async function offlineWrites(board: Board): Promise<boolean> {
  const shared = await board.sharing();
  return shared !== null && shared.files.queue().entries.some((e) => !e.refused);
}

/** One queued call, inside the batch: checked as the tool checks it (its own process did already), then run. */
async function runQueued(ctx: Context, body: CallBody, ownCall: boolean): Promise<unknown> {
  const op = await operationNamed(body.op);
  let input = body.input;
  if (!ownCall) {
    if (!op || !combinable(op, {})) fail('USAGE', `"${printable(String(body.op))}" is not a write an agent may queue.`, `Try ${SAME_CALL} again.`);
    const { imported_from: _set, ...fields } = (body.input ?? {}) as Record<string, unknown>;
    input = parseInput(op.input, fields, { rules: inputRulesOf(op, ctx) }) as Record<string, unknown>;
    if (!combinable(op, input)) fail('HUMAN_ONLY', 'A person acts from the agentboard CLI, not through an MCP server.', 'Call the tool with your agent id.');
  }
  // A command line shows a result whole; an MCP client gets it cut to fit its cap, in its format.
  const fits = body.format === 'cli' ? undefined : fitsFor(body.op, body.format === 'json' ? 'json' : 'markdown');
  // The caller's rule, whichever process carries the call out.
  const board = ctx.board();
  const own = board.agentOfRun;
  board.agentOfRun = typeof body.run_agent === 'string' ? body.run_agent : null;
  try {
    const assignment = typeof body.assignment === 'string' ? body.assignment : undefined;
    return await op!.run({ ...ctx, writesDocuments: body.writes, fits, runPhase: runPhaseOf(body.run_phase), assignment }, input as never);
  } finally {
    board.agentOfRun = own;
  }
}

/** A queued call's run phase as another process wrote it: used only when whole. */
function runPhaseOf(given: unknown): RunPhase | undefined {
  const p = given as Partial<RunPhase> | undefined;
  return typeof p?.agentId === 'string' && typeof p.changeId === 'string' && typeof p.phase === 'string' ? { agentId: p.agentId, changeId: p.changeId, phase: p.phase } : undefined;
}

/** The operations of queued calls this process has carried out, by name. */
const loaded = new Map<string, Operation>();

/** The operation of a queued call, its module loaded when first needed (a command loads only its own). */
async function operationNamed(name: unknown): Promise<Operation | undefined> {
  if (typeof name !== 'string') return undefined;
  let op = loaded.get(name);
  if (!op) {
    const info = (await catalog()).find((i) => i.name === name);
    if (!info) return undefined;
    loaded.set(name, (op = await loadOperation(info)));
  }
  return op;
}

function answerOf(outcome: BatchOutcome<unknown>, notices: readonly Notice[]): Answer {
  if (!outcome.ok && !(outcome.error instanceof AgentboardError)) {
    process.stderr.write(`agentboard mcp: a queued call failed: ${(outcome.error as Error)?.stack ?? String(outcome.error)}\n`);
  }
  return outcome.ok ? { ok: true, result: outcome.value, notices: [...notices] } : { ok: false, error: toPayload(outcome.error), notices: [...notices] };
}
