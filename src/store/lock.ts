/**
 * The board lock: one cross-process critical section for every mutation.
 *
 * Taking it is an atomic link(2) of a fully written holder file onto `lock`, which fails when the
 * lock exists, so nobody ever sees a half-written holder. A lock whose holder died (same host, pid
 * gone) or that is older than STALE_MS is reaped: the reaper first links the lock to a name made
 * from the holder's token, which only one process can do, checks that the lock is still that same
 * file, and only then removes it. A fresh lock taken by someone else in between is never removed.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fail } from '../errors.js';
import { TEMP_FILE } from './fs.js';

const STALE_MS = 60_000;
const REAP_STALE_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 20_000;

interface Holder {
  pid: number;
  host: string;
  token: string;
  at: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function readHolder(path: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Holder;
    return typeof h.token === 'string' && typeof h.pid === 'number' ? h : null;
  } catch {
    return null;
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(holder: Holder, now: number): boolean {
  if (holder.host === hostname() && !pidAlive(holder.pid)) return true;
  return now - holder.at > STALE_MS;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Removes the lock only if it is still the stale holder's file. Returns true when it removed it. */
function reap(lockPath: string, holder: Holder): boolean {
  const reapPath = `${lockPath}.reap.${holder.token}`;
  try {
    linkSync(lockPath, reapPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      // Another process is reaping this holder, or one died doing it.
      try {
        if (Date.now() - statSync(reapPath).ctimeMs > REAP_STALE_MS) unlinkQuietly(reapPath);
      } catch {
        // gone meanwhile
      }
    }
    return false;
  }
  try {
    const linked = readHolder(reapPath);
    if (linked?.token !== holder.token) return false;
    if (statSync(lockPath).ino !== statSync(reapPath).ino) return false;
    unlinkSync(lockPath);
    return true;
  } catch {
    return false;
  } finally {
    unlinkQuietly(reapPath);
  }
}

const HOLDER_FILE = /^lock\.(\d+)-[0-9a-f]{12}$/;

/** Removes temp and holder files that processes which no longer run left behind. */
function sweepTempFiles(dirs: string[]): void {
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const temp = TEMP_FILE.exec(name);
      const holder = HOLDER_FILE.exec(name);
      const pid = temp ? Number(temp[2]) : holder ? Number(holder[1]) : null;
      if (pid !== null && !pidAlive(pid)) unlinkQuietly(join(dir, name));
    }
  }
}

export interface LockOptions {
  timeoutMs?: number;
  /** Folders whose dead processes' temp files are swept when a stale lock is taken over. */
  sweep?: () => string[];
}

export class BoardLock {
  private token: string | null = null;
  readonly path: string;

  constructor(private readonly runtimeDir: string) {
    this.path = join(runtimeDir, 'lock');
  }

  acquire(options: LockOptions = {}): void {
    mkdirSync(this.runtimeDir, { recursive: true });
    const token = `${process.pid}-${randomBytes(6).toString('hex')}`;
    const holderFile = `${this.path}.${token}`;
    const fd = openSync(holderFile, 'wx', 0o644);
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), token, at: Date.now() }));
    } finally {
      closeSync(fd);
    }
    const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let wait = 1;
    let lastHolder: Holder | null = null;
    try {
      for (;;) {
        try {
          linkSync(holderFile, this.path);
          this.token = token;
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        const holder = readHolder(this.path);
        if (holder) {
          lastHolder = holder;
          if (isStale(holder, Date.now()) && reap(this.path, holder)) {
            sweepTempFiles([this.runtimeDir, ...(options.sweep?.() ?? [])]);
            continue;
          }
        }
        if (Date.now() > deadline) {
          fail(
            'BOARD_BUSY',
            `The board stayed locked by another agentboard process${lastHolder ? ` (pid ${lastHolder.pid})` : ''} for ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)}s.`,
            'Try again in a moment. If no agentboard process is running, delete agentd/.runtime/lock.',
          );
        }
        sleep(wait + Math.random() * wait);
        wait = Math.min(wait * 2, 25);
      }
    } finally {
      unlinkQuietly(holderFile);
    }
  }

  release(): void {
    if (this.token === null) return;
    const holder = readHolder(this.path);
    if (holder?.token === this.token) unlinkQuietly(this.path);
    this.token = null;
  }

  /** Runs fn inside the critical section. */
  run<T>(fn: () => T, options?: LockOptions): T {
    this.acquire(options);
    try {
      return fn();
    } finally {
      this.release();
    }
  }
}
