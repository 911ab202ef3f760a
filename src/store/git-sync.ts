/**
 * git run to its end synchronously, for the few places that need git inside one synchronous
 * operation (a shared board's writes, the person's name, an import's source commit, what the
 * commit checked out holds). Like every process agentboard starts, it goes through execa (loaded on
 * first use, as most commands never start git).
 */
import { randomBytes } from 'node:crypto';
import { onPath } from './fs.js';
import { processesWith } from './processes.js';

export interface GitSyncResult {
  /** The exit code; -1 when git did not run to its end (timed out, killed, or missing). */
  code: number;
  stdout: Buffer;
  stderr: string;
  /** git is not installed. */
  missing: boolean;
  timedOut: boolean;
}

export interface GitSyncOptions {
  cwd: string;
  /** git's whole environment (nothing else is inherited). */
  env: Record<string, string | undefined>;
  input?: string | Buffer;
  timeoutMs?: number;
  /**
   * Run in a session of its own, without a controlling terminal, so that nothing git starts can
   * wait for an answer typed there (ssh asks for a passphrase or a host key's confirmation on the
   * terminal itself, whatever GIT_TERMINAL_PROMPT says): it fails instead.
   */
  noTerminal?: boolean;
}

export function gitSync(args: string[], options: GitSyncOptions): GitSyncResult {
  const { execaSync } = require('execa') as typeof import('execa');
  // A session of its own: execa's synchronous mode takes no `detached`, so setsid(1) starts git in one,
  // where the system has it (util-linux, on Linux); elsewhere git runs in this process's session.
  const session = options.noTerminal === true && hasSetsid();
  // A network git that times out is killed, but what it started (ssh) would go on: each such run is
  // marked, and what carries its mark is killed with it.
  const mark = options.noTerminal === true && options.timeoutMs !== undefined ? randomBytes(8).toString('hex') : null;
  const r = execaSync(session ? 'setsid' : 'git', session ? ['--wait', 'git', ...args] : args, {
    cwd: options.cwd,
    env: mark === null ? options.env : { ...options.env, [RUN_MARKER]: mark },
    extendEnv: false,
    input: options.input,
    timeout: options.timeoutMs,
    maxBuffer: 1024 * 1024 * 1024,
    encoding: 'buffer',
    stripFinalNewline: false,
    reject: false,
  });
  const stderr = Buffer.from(r.stderr ?? new Uint8Array()).toString('utf8');
  // setsid says it could not start git with exit 127 (command not found).
  const missing = (r as { code?: string }).code === 'ENOENT' || (session && r.exitCode === 127 && /failed to execute git/.test(stderr));
  const timedOut = r.timedOut || r.signal !== undefined;
  if (timedOut && mark !== null) killMarked(mark);
  const ran = !missing && !timedOut && r.exitCode !== undefined;
  return {
    code: ran ? r.exitCode! : -1,
    stdout: Buffer.from(r.stdout ?? new Uint8Array()),
    stderr: timedOut ? 'the command timed out' : stderr,
    missing,
    timedOut,
  };
}

/** The mark of a network git's run, in the environment of every process it starts. */
const RUN_MARKER = 'AGENTBOARD_GIT_RUN';

/** Kills what a timed-out git left running (its transport: ssh, a remote helper). */
function killMarked(mark: string): void {
  for (const pid of processesWith({ [RUN_MARKER]: mark })) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

let setsidFound: boolean | undefined;

/** Whether setsid(1) is on the PATH, looked for once. */
function hasSetsid(): boolean {
  return (setsidFound ??= process.platform !== 'win32' && onPath(['setsid'], process.env.PATH));
}
