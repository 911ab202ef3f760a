/**
 * git run to its end synchronously, for the few places that need git inside one synchronous
 * operation (a shared board's writes, the person's name, an import's source commit). Like every
 * process agentboard starts, it goes through execa, but for the two runs of `startedDirectly`;
 * execa is loaded on first use, as most commands never start git.
 */

import type { SpawnSyncOptionsWithBufferEncoding } from 'node:child_process';

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
  /**
   * Started without loading execa: a read that every command on a fresh clone makes (store/git-head.ts),
   * where loading execa would cost several times what git does.
   */
  direct?: boolean;
}

export function gitSync(args: string[], options: GitSyncOptions): GitSyncResult {
  if (options.noTerminal || options.direct) return startedDirectly(args, options);
  const { execaSync } = require('execa') as typeof import('execa');
  const r = execaSync('git', args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    input: options.input,
    timeout: options.timeoutMs,
    maxBuffer: 1024 * 1024 * 1024,
    encoding: 'buffer',
    stripFinalNewline: false,
    reject: false,
  });
  const missing = (r as { code?: string }).code === 'ENOENT';
  const timedOut = r.timedOut || r.signal !== undefined;
  const ran = !missing && !timedOut && r.exitCode !== undefined;
  return {
    code: ran ? r.exitCode! : -1,
    stdout: Buffer.from(r.stdout ?? new Uint8Array()),
    stderr: timedOut ? 'the command timed out' : Buffer.from(r.stderr ?? new Uint8Array()).toString('utf8'),
    missing,
    timedOut,
  };
}

/**
 * git started by Node's spawnSync: in a new session for `noTerminal` (execa's synchronous mode
 * refuses `detached`, which spawnSync honours by libuv's setsid though its types leave it out), or
 * `direct`, without execa's loading.
 */
function startedDirectly(args: string[], options: GitSyncOptions): GitSyncResult {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const spawnOptions = { cwd: options.cwd, env: options.env, input: options.input, timeout: options.timeoutMs, maxBuffer: 1024 * 1024 * 1024, detached: options.noTerminal === true, stdio: 'pipe' as const };
  const r = spawnSync('git', args, spawnOptions as SpawnSyncOptionsWithBufferEncoding);
  const missing = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
  const timedOut = !missing && (r.signal !== null || r.error !== undefined);
  return {
    code: missing || timedOut || r.status === null ? -1 : r.status,
    stdout: r.stdout ?? Buffer.alloc(0),
    stderr: timedOut ? 'the command timed out' : (r.stderr?.toString('utf8') ?? ''),
    missing,
    timedOut,
  };
}
