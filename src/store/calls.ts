/**
 * Calls queued for the holder of the board lock: how several processes share one commit.
 *
 * A process about to wait for the lock to write (an MCP server carrying out an agent's call) puts
 * its call in agentd/.runtime/calls/ first, as `call.<id>.json`. Whoever holds the lock next takes up
 * every call waiting (renamed to `call.<id>.json.taken`, so that a caller giving up can tell it was
 * too late), carries them out one after another in one transaction, and commits them at once: one
 * round of fsyncs for all. With the same commit it puts each caller's answer in place
 * (`answer.<id>.json`) and removes the calls it carried out, so that a call is carried out exactly
 * once, whatever process dies when: a commit that did not happen leaves the calls waiting, and one
 * that did (rolled forward by the next holder, see journal.ts) leaves their answers. Then it writes
 * the lock again: the callers wait watching the lock file alone, and each wakes when its answer is
 * there or the lock is free, whichever comes first; it reads and removes its answer.
 *
 * Only the holder of the lock takes calls or removes them, so a taken call found while holding the
 * lock was left by a holder that died before its commit: it is carried out again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { unlinkQuietly, writeNewFile } from './fs.js';
import { goneHere, STAMP, waiterStamp } from './lock.js';

export const CALLS_DIR = 'calls';
// <id> is <waiterStamp>-<process tag and count>: the stamp holds the caller's time, process and a
// tag of its host (a board on a shared file system may have callers on several machines; only this
// machine's can be looked at).
const CALL = new RegExp(`^call\\.(${STAMP}-[0-9a-f]+)\\.json(\\.taken|\\.part)?$`);
const ANSWER = new RegExp(`^answer\\.(${STAMP}-[0-9a-f]+)\\.json$`);
/**
 * The end of this process's call ids: a random tag drawn once, at its first call (another machine's
 * process may have the same pid and host tag), then a count of its calls, so that each id is unique
 * without drawing random bytes for every call, nor at the start of every command.
 */
let processTag: string | undefined;
let posted = 0;
/** A call or answer of another machine's process this old is abandoned (its caller gives up after two minutes). */
const ABANDONED_MS = 10 * 60_000;

/** Whether a file name in the calls folder is that of a call put in the queue (not yet taken up). */
export function isCallName(name: string): boolean {
  const call = CALL.exec(name);
  return call !== null && call[4] === undefined;
}

/** A call waiting in the queue (or taken by a holder that died), oldest first by its id. */
export interface QueuedCall {
  id: string;
  pid: number;
  /** Where it is now. */
  path: string;
}

export class CallQueue {
  /** agentd/.runtime/calls: the calls and answers, apart from the files of commits. */
  readonly dir: string;

  constructor(runtimeDir: string) {
    this.dir = join(runtimeDir, CALLS_DIR);
  }

  private callPath(id: string): string {
    return join(this.dir, `call.${id}.json`);
  }

  answerPath(id: string): string {
    return join(this.dir, `answer.${id}.json`);
  }

  /** Puts a call in the queue; returns its id. Visible whole or not at all (written aside, then renamed). */
  post(body: unknown): string {
    const id = `${waiterStamp()}-${(processTag ??= randomBytes(4).toString('hex'))}${(++posted).toString(16)}`;
    const path = this.callPath(id);
    const temp = `${path}.part`;
    const data = JSON.stringify(body);
    try {
      writeNewFile(temp, data, path, { sync: false });
    } catch {
      // The folder is made by the first call that finds it missing, not looked at by every call. Another
      // caller may make it between this one's failure and a look at it, so the write is simply tried
      // again once the folder is sure to be there; a failure that was not about the folder comes back.
      mkdirSync(this.dir, { recursive: true });
      writeNewFile(temp, data, path, { sync: false });
    }
    renameSync(temp, path);
    return id;
  }

  /** The answer to a call, if it has come: read and removed. */
  takeAnswer(id: string): unknown {
    const path = this.answerPath(id);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    unlinkQuietly(path);
    return JSON.parse(text) as unknown;
  }

  hasAnswer(id: string): boolean {
    return existsSync(this.answerPath(id));
  }

  /**
   * Takes a call back before anyone took it up (the caller gives up waiting). False when the
   * holder of the lock has taken it already: it will be carried out, or was.
   */
  withdraw(id: string): boolean {
    try {
      unlinkSync(this.callPath(id));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The calls waiting, oldest first, the lock held; the calls of processes that are gone, and their
   * answers nobody will read, are removed on the way. `except`: calls to pass over (taken up
   * already); `answers: false`: answers are not looked at.
   */
  waiting(options: { except?: ReadonlySet<string>; answers?: boolean } = {}): QueuedCall[] {
    const calls: QueuedCall[] = [];
    for (const name of this.names()) {
      const call = CALL.exec(name);
      const answer = call || options.answers === false ? null : ANSWER.exec(name);
      const found = call ?? answer;
      if (!found || (call && options.except?.has(call[1]!))) continue;
      const pid = Number(found[2]);
      const path = join(this.dir, name);
      if (this.abandoned(pid, found[3]!, path)) unlinkQuietly(path);
      else if (call && call[4] !== '.part') calls.push({ id: call[1]!, pid, path });
    }
    return calls.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** How many calls are in the queue (taken ones left by a holder that died included), as their names say: their processes are not looked at. */
  count(): number {
    let n = 0;
    for (const name of this.names()) {
      const call = CALL.exec(name);
      if (call && call[4] !== '.part') n++;
    }
    return n;
  }

  /** The names in the calls folder; none while it is not there. */
  private names(): string[] {
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
    }
  }

  /** Whether nobody waits for a call or answer any more: its process is gone (on this machine), or it is very old. */
  private abandoned(pid: number, host: string, path: string): boolean {
    const gone = goneHere(pid, host);
    if (gone !== null) return gone;
    try {
      return Date.now() - statSync(path).mtimeMs > ABANDONED_MS;
    } catch {
      return false;
    }
  }

  /** Takes up a waiting call, the lock held; returns its body, or null when its caller withdrew it (or it is unreadable: then it goes). */
  take(call: QueuedCall): unknown {
    const taken = this.callPath(call.id) + '.taken';
    if (call.path !== taken) {
      try {
        renameSync(call.path, taken);
      } catch {
        return null; // withdrawn
      }
      call.path = taken;
    }
    try {
      return JSON.parse(readFileSync(taken, 'utf8')) as unknown;
    } catch {
      unlinkQuietly(taken);
      return null;
    }
  }

  /** Puts a taken call back in the queue (its batch did not commit): the next holder of the lock carries it out. */
  putBack(call: QueuedCall): void {
    try {
      renameSync(call.path, this.callPath(call.id));
      call.path = this.callPath(call.id);
    } catch {
      // gone: its caller is gone too
    }
  }

  /** Removes a call outright (the caller's own, when its batch did not commit and it answers itself). */
  drop(call: QueuedCall): void {
    if (call.path) unlinkQuietly(call.path);
  }
}
