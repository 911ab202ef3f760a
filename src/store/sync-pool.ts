/**
 * fsyncs made at once, for a long-lived process (the MCP server, which serves other processes'
 * calls commit after commit). A commit makes a dozen files and folders durable; made one after
 * another, each fsync waits for the disk in turn, while made together the file system writes them
 * out as one (here, eleven fsyncs took 2.3 ms in turn and 0.9 ms at once). A worker thread waits
 * for a round of fsyncs and has node's thread pool make the ones it takes; the calling thread takes
 * them too (the round is done even if the worker never wakes) and waits, blocked as in fsyncSync,
 * until every fsync of the round is done. The caller sees what fsyncs in turn give: everything
 * durable, or the error of the first that failed. One worker thread, not one per fsync: each costs
 * the memory of a JavaScript engine of its own.
 */
import { getSystemErrorName } from 'node:util';
import { Worker } from 'node:worker_threads';

/** The most fsyncs of one round; a larger set is made in rounds. */
const SLOTS = 128;
/** ctl: the round (the worker waits for it to change), how many fsyncs it has, how many are done. */
const ROUND = 0;
const TOTAL = 1;
const DONE = 2;

interface Pool {
  ctl: Int32Array;
  fds: Int32Array;
  /** Per slot: 0 while its fsync is to be made, 1 once a thread has taken it (every slot starts taken). */
  taken: Int32Array;
  /** Per slot: the errno of its fsync (negative, as libuv gives it), 0 when it succeeded. */
  errs: Int32Array;
}

let pool: Pool | null = null;
/** Whether this process makes fsyncs at once (a long-lived one: the thread starts at its first commit). */
let wanted = false;

/**
 * What the pool's thread runs: wait for a round, take every fsync not taken yet and have node's
 * own threads (libuv's) make them at once, each counted done as it ends.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { fsync } = require('node:fs');
const [ctl, fds, taken, errs] = workerData.map((b) => new Int32Array(b));
const finish = (i, err) => {
  Atomics.store(errs, i, err ? (typeof err.errno === 'number' && err.errno < 0 ? err.errno : -5) : 0);
  Atomics.add(ctl, 2, 1);
  Atomics.notify(ctl, 2);
};
(async () => {
  for (let seen = 0; ; ) {
    Atomics.wait(ctl, 0, seen);
    seen = Atomics.load(ctl, 0);
    const total = Atomics.load(ctl, 1);
    const made = [];
    for (let i = 0; i < total; i++) if (Atomics.compareExchange(taken, i, 0, 1) === 0) made.push(new Promise((done) => fsync(fds[i], (err) => done(finish(i, err)))));
    await Promise.all(made);
  }
})();
`;

/** From now on, fsyncs are made at once: the pool's thread starts when first needed. */
export function useSyncPool(): void {
  wanted = true;
}

/** Starts the pool's thread; without it (none can start), fsyncs stay one after another. */
function startPool(): void {
  wanted = false;
  const buffers = [3, SLOTS, SLOTS, SLOTS].map((n) => new SharedArrayBuffer(n * 4));
  const made: Pool = { ctl: new Int32Array(buffers[0]!), fds: new Int32Array(buffers[1]!), taken: new Int32Array(buffers[2]!).fill(1), errs: new Int32Array(buffers[3]!) };
  try {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: buffers, stdout: true, stderr: true });
    // The thread keeps no process alive; one that stops leaves every fsync to the calling thread.
    worker.unref();
    worker.on('error', () => undefined);
  } catch {
    return;
  }
  pool = made;
}

/**
 * fsyncs every descriptor of `fds`, at once when the pool runs, else in turn; gives each one's
 * error (null when it succeeded).
 */
export function fsyncEach(fds: readonly number[], fsync: (fd: number) => void): (NodeJS.ErrnoException | null)[] {
  const errors: (NodeJS.ErrnoException | null)[] = [];
  if (wanted && fds.length > 1) startPool();
  if (!pool || fds.length < 2) {
    for (const fd of fds) errors.push(attempt(() => fsync(fd)));
    return errors;
  }
  for (let from = 0; from < fds.length; from += SLOTS) errors.push(...round(pool, fds.slice(from, from + SLOTS), fsync));
  return errors;
}

function attempt(fn: () => void): NodeJS.ErrnoException | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

/** One round: the worker woken, this thread taking what it has not, then waiting for the rest. */
function round(p: Pool, fds: readonly number[], fsync: (fd: number) => void): (NodeJS.ErrnoException | null)[] {
  const n = fds.length;
  const mine = new Map<number, NodeJS.ErrnoException | null>();
  // Everything the worker reads is in place before a slot is free to take.
  for (let i = 0; i < n; i++) {
    p.fds[i] = fds[i]!;
    Atomics.store(p.errs, i, 0);
  }
  Atomics.store(p.ctl, DONE, 0);
  Atomics.store(p.ctl, TOTAL, n);
  for (let i = 0; i < n; i++) Atomics.store(p.taken, i, 0);
  Atomics.add(p.ctl, ROUND, 1);
  Atomics.notify(p.ctl, ROUND);
  for (let i = 0; i < n; i++) {
    if (Atomics.compareExchange(p.taken, i, 0, 1) !== 0) continue;
    mine.set(i, attempt(() => fsync(fds[i]!)));
    Atomics.add(p.ctl, DONE, 1);
  }
  for (let done = Atomics.load(p.ctl, DONE); done < n; done = Atomics.load(p.ctl, DONE)) Atomics.wait(p.ctl, DONE, done, 1_000);
  return fds.map((_, i) => (mine.has(i) ? mine.get(i)! : failure(Atomics.load(p.errs, i))));
}

/** The error of an fsync the worker had made, as fsyncSync would have thrown it. */
function failure(errno: number): NodeJS.ErrnoException | null {
  if (errno === 0) return null;
  const code = getSystemErrorName(errno);
  return Object.assign(new Error(`${code}: fsync failed`), { errno, code, syscall: 'fsync' });
}
