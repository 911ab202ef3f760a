/**
 * The board lock: one cross-process critical section for every mutation.
 *
 * Taking it is an atomic link(2) of a fully written holder file onto `lock`, which fails while the
 * lock exists, so nobody ever sees a half-written holder. The holder records who it is in a way
 * that survives PID reuse and PID namespaces (boot id, PID namespace, process start time), so a
 * lock is taken over only when its holder is provably gone, never while it lives (even paused).
 * When liveness cannot be checked (another host, another namespace, a lock file holding garbage),
 * the lock is stale once it is older than STALE_MS by the file system's own clock (the mtimes of
 * the lock and of the waiter's own holder file), never by one process's clock. A stale lock is
 * reaped through a link named after it, which only one process can make, and removed only if it
 * is still the same file. Waiting is asynchronous and woken by the folder changing, so an MCP
 * server goes on answering while it waits; those who have waited a while keep a line (Line), so
 * that the lock goes to them first, not to whoever comes next. A holder confirms the lock is still
 * its own before it commits anything.
 */
import { setMaxListeners } from 'node:events';
import { closeSync, constants, existsSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, statSync, unlinkSync, utimesSync, watch, writeSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { faultPoint, testHooks } from '../clock.js';
import { fail } from '../errors.js';
import { ensureDir, fsError, newToken, unlinkQuietly, unsafePath } from './fs.js';
import { sha1 } from './hash.js';

const STALE_MS = 60_000;
const REAP_STALE_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 120_000;
/** A waiter that has waited this long joins the line (see Line): from then on, the lock goes to those who waited longest first. */
const LINE_AFTER_MS = 500;
/** A place in the line not kept fresh for this long is passed over (its waiter is stopped, or gone without a trace). */
const LINE_STALE_MS = 3_000;

/** Who a process is, in a way that survives PID reuse and PID namespaces: what a lock's holder and a run record. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  boot?: string;
  pidns?: string;
  start?: string;
}

export interface Holder extends ProcessIdentity {
  token: string;
}

function readQuietly(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The fields of /proc/<pid>/stat from the state on (field 3), when the system tells. */
function statFields(pid: number): string[] | undefined {
  const stat = readQuietly(`/proc/${pid}/stat`);
  return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ') : undefined;
}

/** The start time of a process in clock ticks since boot (field 22 of /proc/<pid>/stat), when the system tells. */
function processStart(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

let self: ProcessIdentity | null = null;
/** This process's identity. */
export function selfIdentity(): ProcessIdentity {
  if (!self) {
    self = { pid: process.pid, host: hostname() };
    const boot = readQuietly('/proc/sys/kernel/random/boot_id');
    const start = processStart(process.pid);
    let pidns: string | undefined;
    try {
      pidns = readlinkSync('/proc/self/ns/pid');
    } catch {
      // no /proc: liveness falls back to the pid alone
    }
    if (boot) self.boot = boot;
    if (pidns) self.pidns = pidns;
    if (start) self.start = start;
  }
  return self;
}

/**
 * Whether the process of this pid (on this machine) still runs. A process that ended and that its
 * parent has not reaped yet (a zombie, state Z, or X) does not: it runs no code and holds nothing,
 * however long a parent that never reaps keeps it in the process table.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = statFields(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}

/** Whether the process still runs: true, false, or null when this process cannot tell (another host or PID namespace). */
export function processAlive(h: ProcessIdentity): boolean | null {
  const me = selfIdentity();
  if (h.host !== me.host) return null;
  if (h.boot && me.boot && h.boot !== me.boot) return false;
  if (h.pidns && me.pidns && h.pidns !== me.pidns) return null;
  if (!processRuns(h.pid)) return false;
  if (h.start && me.start) {
    const start = processStart(h.pid);
    if (start !== undefined && start !== h.start) return false;
  }
  return true;
}

function parseHolder(text: string | undefined): Holder | null {
  if (!text) return null;
  try {
    const h = JSON.parse(text) as Holder;
    return typeof h.token === 'string' && typeof h.pid === 'number' && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

/** Names to watch for in a folder (these, or those a test accepts), or one file (its changes, its removal). */
type Watched = { dir: string; names: readonly string[] | ((file: string) => boolean) } | { file: string };

/** A watcher shared by the waits on one folder or file, kept WATCHER_LINGER_MS after the last of them. */
interface KeptWatcher<L> {
  listeners: Set<L>;
  watcher: ReturnType<typeof watch>;
  closing?: NodeJS.Timeout;
}

/**
 * One watcher per folder, shared by the waits on it while there are any: it goes with the last of
 * them, so that a process that waits for nothing is not woken by every file the others make there
 * (on a busy board, every queued call, answer and commit woke every MCP server). It does not keep
 * the process alive; one that fails is dropped, and the next wait sets up another (meanwhile the
 * timer wakes it).
 */
const folderWatchers = new Map<string, KeptWatcher<(file: string | null) => void>>();
/**
 * How long a watcher outlives its last wait: the holder of the lock serving calls waits on the
 * calls folder again at once after each batch (and a caller on the lock at its next call), and
 * would otherwise set up a watcher per batch.
 */
const WATCHER_LINGER_MS = 250;

/** A wait's listener added to a kept watcher; the stop it returns lets the watcher go WATCHER_LINGER_MS after its last wait. */
function joinWatcher<L>(watchers: Map<string, KeptWatcher<L>>, key: string, kept: KeptWatcher<L>, listener: L): () => void {
  if (kept.closing) {
    clearTimeout(kept.closing);
    kept.closing = undefined;
  }
  kept.listeners.add(listener);
  return () => {
    kept.listeners.delete(listener);
    if (kept.listeners.size > 0 || watchers.get(key) !== kept || kept.closing) return;
    kept.closing = setTimeout(() => {
      if (kept.listeners.size === 0) dropWatcher(watchers, key, kept);
    }, WATCHER_LINGER_MS);
    kept.closing.unref();
  };
}

/** Closes a kept watcher, and forgets it unless another took its place. */
function dropWatcher<L>(watchers: Map<string, KeptWatcher<L>>, key: string, kept: KeptWatcher<L>): void {
  if (watchers.get(key) === kept) watchers.delete(key);
  if (kept.closing) clearTimeout(kept.closing);
  kept.watcher.close();
}

function listen(dir: string, listener: (file: string | null) => void): (() => void) | null {
  let entry = folderWatchers.get(dir);
  if (!entry) {
    const listeners = new Set<(file: string | null) => void>();
    let watcher: ReturnType<typeof watch>;
    try {
      watcher = watch(dir, { persistent: false }, (_event, file) => {
        // The folder itself was removed (or renamed): this watcher sees nothing more.
        if (file === basename(dir)) drop();
        else for (const l of [...listeners]) l(file);
      });
    } catch {
      return null; // no file watching here: the timer alone wakes us
    }
    const made: KeptWatcher<(file: string | null) => void> = { listeners, watcher };
    const drop = () => {
      dropWatcher(folderWatchers, dir, made);
      for (const l of [...listeners]) l(null);
    };
    watcher.on('error', drop);
    folderWatchers.set(dir, (entry = made));
  }
  return joinWatcher(folderWatchers, dir, entry, listener);
}

/** The watcher of a file (the lock), kept like a folder's; `ino` is the file it was set up on. */
const fileWatchers = new Map<string, KeptWatcher<() => void> & { ino: number }>();

/**
 * Watches one file (the lock: the file itself, not its folder, where every commit writes its
 * journal): `changed` is called when it is written or removed, or, while it is not there, made. A
 * watcher kept from an earlier wait serves only while the file is the one it was set up on (a lock
 * taken anew is another file).
 */
function listenFile(path: string, changed: () => void): (() => void) | null {
  let entry = fileWatchers.get(path);
  if (entry && lstatSync(path, { throwIfNoEntry: false })?.ino !== entry.ino) {
    dropWatcher(fileWatchers, path, entry);
    entry = undefined;
  }
  if (!entry) {
    // The file looked at before its watcher is set up: replaced in between, the watcher is made anew at the next wait.
    const ino = lstatSync(path, { throwIfNoEntry: false })?.ino;
    let watcher: ReturnType<typeof watch>;
    try {
      if (ino === undefined) throw Object.assign(new Error('no file'), { code: 'ENOENT' });
      watcher = watch(path, { persistent: false }, (event) => {
        for (const l of [...made.listeners]) l();
        // Removed or renamed: this watcher sees that file no more.
        if (event === 'rename') dropWatcher(fileWatchers, path, made);
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null; // no file watching here: the timer alone wakes us
      const name = basename(path);
      return listen(dirname(path), (file) => (file === null || file === name) && changed());
    }
    const made = { ino, listeners: new Set<() => void>(), watcher };
    watcher.on('error', () => {
      for (const l of [...made.listeners]) l();
      dropWatcher(fileWatchers, path, made);
    });
    fileWatchers.set(path, (entry = made));
  }
  return joinWatcher(fileWatchers, path, entry, changed);
}

/** A wait that ends when something of `watched` changes ('changed'), after `ms` ('timeout'), or when cancelled. */
export function changeIn(watched: readonly Watched[], ms: number): { done: Promise<'changed' | 'timeout'>; cancel: () => void } {
  let cancel: () => void = () => undefined;
  const done = new Promise<'changed' | 'timeout'>((resolve) => {
    const stops: (() => void)[] = [];
    let over = false;
    const finish = (how: 'changed' | 'timeout') => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      for (const stop of stops) stop();
      resolve(how);
    };
    cancel = () => finish('changed');
    const timer = setTimeout(() => finish('timeout'), ms);
    for (const w of watched) {
      const stop =
        'file' in w
          ? listenFile(w.file, () => finish('changed'))
          : listen(w.dir, (file) => {
              if (file === null || (typeof w.names === 'function' ? w.names(file) : w.names.includes(file))) finish('changed');
            });
      if (stop) stops.push(stop);
    }
  });
  return { done, cancel };
}

/**
 * Aborted once this process waits no more for a lock another process holds (stopWaiting), with why
 * as its reason: the waits under way listen to it as to a cancelled call's signal.
 */
const stopping = new AbortController();
// One listener for each wait under way, as many as the calls this process waits for at once.
setMaxListeners(0, stopping.signal);

/**
 * From now on, this process waits for no lock another live process holds (an MCP server told to
 * stop): a wait under way ends at once, and a call that was waiting fails with BOARD_BUSY saying
 * `why`, nothing of it carried out. A free lock, or one whose holder is gone, is still taken.
 */
export function stopWaiting(why: string): void {
  stopping.abort(why);
}

/**
 * Why a wait for a lock another process holds ends now: this process waits no more (stopWaiting),
 * or the call that waits was cancelled (its `signal`, an MCP client's notifications/cancelled);
 * null while it waits on.
 */
function whyStop(signal?: AbortSignal): { why: string; next: string } | null {
  if (stopping.signal.aborted) return { why: String(stopping.signal.reason), next: 'Make the same call again on an agentboard MCP server that is running: this one takes no more calls.' };
  return signal?.aborted ? CANCELLED : null;
}

const CANCELLED = { why: 'This call was cancelled', next: 'Make the same call again if it is still wanted.' };

/** Waits for `woken`, or for stopWaiting or `signal` when `stoppable`. */
async function waitFor(woken: ReturnType<typeof changeIn>, stoppable = true, signal?: AbortSignal): Promise<'changed' | 'timeout'> {
  if (!stoppable) return woken.done;
  const stops = signal ? [stopping.signal, signal] : [stopping.signal];
  for (const stop of stops) stop.addEventListener('abort', woken.cancel);
  try {
    return await woken.done;
  } finally {
    for (const stop of stops) stop.removeEventListener('abort', woken.cancel);
  }
}

/**
 * Another process may answer for this one (a call it queued, see store/calls.ts): `check` tells
 * whether it has. The holder that answers writes the lock again once its answers are in place
 * (BoardLock.renew once the commit's files are in place, ops/combine.ts), so the waiter watches the lock alone.
 */
export interface Answered {
  check: () => boolean;
}

/** What a waiter watches: the lock file (its holder writes it again after each commit that answered others' calls, and removes it when done). */
function lockFile(runtimeDir: string): Watched[] {
  return [{ file: join(runtimeDir, 'lock') }];
}

/**
 * Waits, without joining the race for the lock, until it is free or another process has answered
 * for this one; at most `ms` (a holder that died is dealt with by acquire). A process whose call is
 * queued waits so first: most often the holder of the lock carries its call out meanwhile. Once
 * this process stops waiting (stopWaiting), or its call is cancelled (`signal`), it waits no more,
 * unless `untilAnswered`: its call was taken up by the holder, and its answer is the only way to
 * know what became of it.
 */
export async function awaitTurn(runtimeDir: string, answered: Answered, ms: number, untilAnswered = false, signal?: AbortSignal): Promise<void> {
  const lock = join(runtimeDir, 'lock');
  const watched = lockFile(runtimeDir);
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (answered.check() || !existsSync(lock) || (!untilAnswered && whyStop(signal) !== null)) return;
    const woken = changeIn(watched, Math.min(250, Math.max(1, deadline - Date.now())));
    if (answered.check() || !existsSync(lock)) {
      woken.cancel();
      return;
    }
    // A holder that is gone answers nobody: the lock is taken over at once (acquire).
    if ((await waitFor(woken, !untilAnswered, signal)) === 'timeout') {
      const holder = parseHolder(readQuietly(lock));
      if (holder && processAlive(holder) === false) return;
    }
  }
}

export interface LockOptions {
  timeoutMs?: number;
  /** Path of the lock file as shown to people (agentd/.runtime/lock). */
  shown?: string;
  /** Another process may answer for this one while it waits: the wait ends without the lock (null) once it has. */
  answered?: Answered;
  /** The call that waits is cancelled: the wait ends as at stopWaiting, with BOARD_BUSY, nothing of the call carried out. */
  signal?: AbortSignal;
}

export interface Acquired {
  lock: BoardLock;
  /** The token of a dead or stale holder this process took the lock over from, whose temp files may remain. */
  reaped: string | null;
}

/**
 * The line of processes that have waited for the lock a while, so that none waits for ever while
 * newcomers take the lock in turn (a waiter woken by a release races everyone woken with it). A
 * waiter that has waited LINE_AFTER_MS puts its place in agentd/.runtime/line/ (a file named by the
 * time it joined), keeps it fresh while it waits and removes it once it has the lock or gives up.
 * While the line holds anyone, only its first may take the lock; newcomers wait behind it. Places
 * of processes that are gone (on this machine) are removed, and a place not kept fresh (its process
 * stopped) is passed over, so the line never wedges the board.
 */
class Line {
  private readonly dir: string;
  private place: string | null = null;

  constructor(runtimeDir: string) {
    this.dir = join(runtimeDir, 'line');
  }

  /** Whether this waiter may try the lock now: nobody is in line ahead of it. */
  mayTry(): boolean {
    if (!this.plain()) return true;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return true;
    }
    const now = Date.now();
    const mine = this.place === null ? null : basename(this.place);
    for (const name of names.sort()) {
      if (name === mine) return true;
      const found = PLACE.exec(name);
      if (!found) continue;
      const path = join(this.dir, name);
      if (goneHere(Number(found[1]), found[2]!) === true) {
        unlinkQuietly(path);
        continue;
      }
      try {
        if (now - statSync(path).mtimeMs <= LINE_STALE_MS) return false;
      } catch {
        // left the line meanwhile
      }
    }
    return true;
  }

  /** Joins the line (once), or keeps this waiter's place fresh. */
  keep(): void {
    try {
      if (this.place === null) {
        mkdirSync(this.dir, { recursive: true });
        if (!this.plain()) return;
        const place = join(this.dir, `${waiterStamp()}-${newToken()}`);
        closeSync(openSync(place, 'wx'));
        this.place = place;
      } else {
        const now = new Date();
        utimesSync(this.place, now, now);
      }
    } catch {
      // no place in line: this waiter races as before
    }
  }

  leave(): void {
    if (this.place !== null) unlinkQuietly(this.place);
    this.place = null;
  }

  /** The line's folder is there and a folder of its own (a link put there is not followed: no line, then). */
  private plain(): boolean {
    return lstatSync(this.dir, { throwIfNoEntry: false })?.isDirectory() === true;
  }
}

/** Whether a process has waited for the lock a while and is in line for it: a holder serving queued calls makes way then (ops/combine.ts). */
export function someoneInLine(runtimeDir: string): boolean {
  return !new Line(runtimeDir).mayTry();
}

const HOST_TAG = sha1(hostname()).slice(0, 8);

/**
 * The start of the name of a file that stands for this process while it waits (a queued call, a
 * place in line): `<time>-<pid>-<host tag>`, so that names sort by time and whoever reads one can
 * tell whether its process is gone (goneHere).
 */
export function waiterStamp(): string {
  return `${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${HOST_TAG}`;
}

/** A waiterStamp, in a regular expression's source: its pid and its host tag captured, in that order. */
export const STAMP = '[0-9a-z]+-(\\d+)-([0-9a-f]{8})';

/** A place in line: <waiterStamp>-<token>. */
const PLACE = new RegExp(`^${STAMP}-`);

/** Processes of this machine found running, and when (ms): see goneHere. */
const seenRunning = new Map<number, number>();
/** How long a process found running is taken to run still, unlooked at. */
const SEEN_RUNNING_MS = 1_000;

/**
 * Whether the process of a waiterStamp is provably gone: it ran on this machine and runs no more.
 * Another machine's cannot be looked at (null). A holder serving batch after batch asks this of
 * every caller of every batch: one found running is not looked at again for SEEN_RUNNING_MS (a
 * caller gone meanwhile has its call carried out, as one that goes just after its call is taken).
 */
export function goneHere(pid: number, hostTag: string): boolean | null {
  if (hostTag !== HOST_TAG) return null;
  if (pid === process.pid) return false;
  const now = Date.now();
  const seen = seenRunning.get(pid);
  if (seen !== undefined && now - seen < SEEN_RUNNING_MS) return false;
  if (!processRuns(pid)) {
    seenRunning.delete(pid);
    return true;
  }
  if (seenRunning.size > 1_000) seenRunning.clear();
  seenRunning.set(pid, now);
  return false;
}

export class BoardLock {
  private stamped: number;

  private constructor(
    readonly path: string,
    readonly token: string,
    time: number,
    /** What the holder wrote in the lock file. */
    private readonly content: string,
  ) {
    this.stamped = time;
  }

  /** The board's time of this holder's write (ms): the mtime the file system gave the lock file when it was taken or last renewed. */
  get time(): number {
    return testHooks()?.boardNow?.() ?? this.stamped;
  }

  /**
   * Stamps the lock with the file system's time again, for a further write of the same holder (one
   * serving the calls queued for it, ops/combine.ts); false when the lock is no longer this
   * holder's. The file is read and written through one descriptor, so that a lock taken over
   * meanwhile is never written to.
   */
  renew(): boolean {
    let fd: number;
    try {
      fd = openSync(this.path, constants.O_RDWR | constants.O_NOFOLLOW);
    } catch {
      return false;
    }
    try {
      const buf = Buffer.alloc(Buffer.byteLength(this.content) + 1);
      const n = readSync(fd, buf, 0, buf.length, 0);
      if (parseHolder(buf.toString('utf8', 0, n).trim())?.token !== this.token) return false;
      this.stamped = touch(fd, this.content);
      return true;
    } catch {
      return false;
    } finally {
      closeSync(fd);
    }
  }

  static async acquire(runtimeDir: string, options: LockOptions & { answered?: undefined }): Promise<Acquired>;
  static async acquire(runtimeDir: string, options: LockOptions): Promise<Acquired | null>;
  static async acquire(runtimeDir: string, options: LockOptions = {}): Promise<Acquired | null> {
    const path = join(runtimeDir, 'lock');
    const shown = options.shown ?? path;
    // Made or checked from the repository down: a board being created has no agentd/ yet.
    const repo = dirname(dirname(runtimeDir));
    ensureDir(repo, runtimeDir, (p) => relative(repo, p));
    const token = newToken();
    const holderPath = `${path}.${token}`;
    const content = JSON.stringify({ ...selfIdentity(), token });
    let fd: number | undefined;
    try {
      fd = openSync(holderPath, 'wx', 0o644);
      writeSync(fd, content, 0);
    } catch (err) {
      // A full disk lets the file be made and not written: it goes, not left beside the lock.
      if (fd !== undefined) closeSync(fd);
      unlinkQuietly(holderPath);
      throw fsError(err, shown, 'write');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    let reaped: string | null = null;
    let lastHolder: Holder | null = null;
    // Who holds the lock is looked at first and whenever a wait ends without the lock changing
    // hands (its holder may have died); a waiter woken because the lock changed hands just tries
    // again, so that many waiters do not take turns reading the holder while it works.
    let look = true;
    const answered = options.answered;
    const watched = lockFile(runtimeDir);
    const line = new Line(runtimeDir);
    const lineAt = Date.now() + LINE_AFTER_MS;
    try {
      for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
        if (answered?.check()) return null;
        // A cancelled call takes not even a free lock: nothing of it is carried out.
        if (options.signal?.aborted) fail('BOARD_BUSY', `${CANCELLED.why}: it was not carried out, and nothing of it was written.`, CANCELLED.next);
        if (Date.now() >= lineAt) line.keep();
        if (line.mayTry() && tryLink(holderPath, path, shown)) {
          // Touching the lock stamps it with the file system's time: that is the board's time for this write.
          return { lock: new BoardLock(path, token, touch(fd, content), content), reaped };
        }
        if (look) {
          const found = inspect(path, fd, content, shown);
          if (found.stale) {
            if (reap(path, found)) reaped = found.holder?.token ?? reaped;
            continue;
          }
          lastHolder = found.holder ?? lastHolder;
        }
        const stop = whyStop(options.signal);
        if (stop !== null) {
          fail(
            'BOARD_BUSY',
            `${stop.why}: this call was not carried out, and nothing of it was written (the board is locked by another agentboard process${lastHolder ? `, pid ${lastHolder.pid} on ${lastHolder.host}` : ''}).`,
            stop.next,
          );
        }
        if (Date.now() >= deadline) {
          fail(
            'BOARD_BUSY',
            `The board stayed locked by another agentboard process${lastHolder ? ` (pid ${lastHolder.pid} on ${lastHolder.host})` : ''} for ${Math.round(timeoutMs / 1000)} s.`,
            `Try again in a moment. If that process is stopped or stuck, end it; a lock whose holder is gone is taken over by the next command.`,
          );
        }
        // Watch first, then try once more: a release between the two cannot be missed.
        const woken = changeIn(watched, wait + Math.random() * wait);
        if (answered?.check()) {
          woken.cancel();
          return null;
        }
        if (line.mayTry() && tryLink(holderPath, path, shown)) {
          woken.cancel();
          return { lock: new BoardLock(path, token, touch(fd, content), content), reaped };
        }
        // Told to stop waiting: the holder is looked at once more (one that is gone is taken over).
        look = (await waitFor(woken, true, options.signal)) === 'timeout' || whyStop(options.signal) !== null;
      }
    } finally {
      line.leave();
      closeSync(fd);
      unlinkQuietly(holderPath);
    }
  }

  /** True while the lock file is still this holder's. */
  confirm(): boolean {
    return parseHolder(readQuietly(this.path))?.token === this.token;
  }

  release(): void {
    if (this.confirm()) unlinkQuietly(this.path);
  }
}

/** Writes a holder's content again through `fd`, and gives the time the file system stamped the file with (its mtime, ms). */
function touch(fd: number, content: string): number {
  writeSync(fd, content, 0);
  return fstatSync(fd).mtimeMs;
}

function tryLink(from: string, to: string, shown: string): boolean {
  try {
    faultPoint('write', to);
    linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw fsError(err, shown, 'write');
  }
}

interface Found {
  holder: Holder | null;
  ino: number;
  stale: boolean;
}

/** Looks at the current lock; staleness is judged by the file system's clock, touched through our own holder file. */
function inspect(path: string, ownFd: number, ownContent: string, shown: string): Found {
  let ino = 0;
  let mtime = 0;
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return { holder: null, ino: 0, stale: false }; // released meanwhile: try again
  }
  // agentboard makes the lock as a plain file; a link, pipe or folder there was put by something else.
  if (!st.isFile()) throw unsafePath(shown, st.isSymbolicLink() ? 'a symbolic link' : st.isDirectory() ? 'a folder' : 'not a plain file');
  ino = st.ino;
  mtime = st.mtimeMs;
  const holder = parseHolder(readQuietly(path));
  const alive = holder ? processAlive(holder) : null;
  if (alive === true) return { holder, ino, stale: false };
  if (alive === false) return { holder, ino, stale: true };
  const fsNow = touch(ownFd, ownContent);
  return { holder, ino, stale: fsNow - mtime > (testHooks()?.staleMs ?? STALE_MS) };
}

/** Removes the lock only if it is still the file that was judged stale. Returns true when it removed it. */
function reap(path: string, found: Found): boolean {
  const reapPath = `${path}.reap.${found.holder?.token ?? `ino-${found.ino}`}`;
  try {
    linkSync(path, reapPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      // Another process is reaping this holder, or one died doing it.
      try {
        const st = statSync(reapPath);
        if (Date.now() - st.ctimeMs > REAP_STALE_MS) unlinkQuietly(reapPath);
      } catch {
        // gone meanwhile
      }
    }
    return false;
  }
  try {
    if (statSync(reapPath).ino !== found.ino || lstatSync(path).ino !== found.ino) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  } finally {
    unlinkQuietly(reapPath);
  }
}

export const HOLDER_FILE = /^lock\.(\d+)-([0-9a-f]{12})$/;
