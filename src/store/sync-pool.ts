/**
 * fsyncs made at once, for a long-lived process (the MCP server, which serves other processes'
 * calls commit after commit). A commit makes a dozen files and folders durable; made one after
 * another, each fsync waits for the disk in turn, while made together the file system writes them
 * out as one (here, eleven fsyncs took 2.3 ms in turn and 0.9 ms at once). A few worker threads wait
 * for a round of fsyncs; the calling thread takes its share too (the round is done even if no worker
 * wakes) and waits, blocked as in fsyncSync, until every fsync of the round is done. The caller sees
 * what fsyncs in turn give: everything durable, or the error of the first that failed.
 */
import { getSystemErrorName } from 'node:util';
import { Worker } from 'node:worker_threads';

/** Worker threads of the pool (with the calling thread, this many plus one fsyncs at once). */
const WORKERS = 3;
/** The most fsyncs of one round; a larger set is made in rounds. */
const SLOTS = 128;
/** ctl: the round (workers wait for it to change), how many fsyncs it has, how many are done. */
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
/** Whether this process makes fsyncs at once (a long-lived one: the threads start at its first commit). */
let wanted = false;

/** What each worker runs: wait for a round, take fsyncs not taken yet, count each one done. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { fsyncSync } = require('node:fs');
const [ctl, fds, taken, errs] = workerData.map((b) => new Int32Array(b));
let seen = 0;
for (;;) {
  Atomics.wait(ctl, 0, seen);
  seen = Atomics.load(ctl, 0);
  const total = Atomics.load(ctl, 1);
  for (let i = 0; i < total; i++) {
    if (Atomics.compareExchange(taken, i, 0, 1) !== 0) continue;
    let err = 0;
    try {
      fsyncSync(fds[i]);
    } catch (e) {
      err = typeof e.errno === 'number' && e.errno < 0 ? e.errno : -5;
    }
    Atomics.store(errs, i, err);
    Atomics.add(ctl, 2, 1);
    Atomics.notify(ctl, 2);
  }
}
`;

/** From now on, fsyncs are made at once: the pool's threads start when first needed. */
export function useSyncPool(): void {
  wanted = true;
}

/** Starts the pool's threads; without them (none can start), fsyncs stay one after another. */
function startPool(): void {
  wanted = false;
  const buffers = [3, SLOTS, SLOTS, SLOTS].map((n) => new SharedArrayBuffer(n * 4));
  const made: Pool = { ctl: new Int32Array(buffers[0]!), fds: new Int32Array(buffers[1]!), taken: new Int32Array(buffers[2]!).fill(1), errs: new Int32Array(buffers[3]!) };
  try {
    for (let i = 0; i < WORKERS; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: buffers, stdout: true, stderr: true });
      // The threads keep no process alive, and one that stops leaves its share to the others (the calling thread first).
      worker.unref();
      worker.on('error', () => undefined);
    }
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

/** One round: the workers woken, this thread taking what they have not, then waiting for the rest. */
function round(p: Pool, fds: readonly number[], fsync: (fd: number) => void): (NodeJS.ErrnoException | null)[] {
  const n = fds.length;
  const mine = new Map<number, NodeJS.ErrnoException | null>();
  // Everything a worker reads is in place before a slot is free to take.
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

/** The error of an fsync a worker made, as fsyncSync would have thrown it. */
function failure(errno: number): NodeJS.ErrnoException | null {
  if (errno === 0) return null;
  const code = getSystemErrorName(errno);
  return Object.assign(new Error(`${code}: fsync failed`), { errno, code, syscall: 'fsync' });
}
