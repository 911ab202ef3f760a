/**
 * git run to its end synchronously, for the few places that need git inside one synchronous
 * operation (a shared board's writes, the person's name, an import's source commit). Like every
 * process agentboard starts, it goes through execa; execa is loaded on first use, as most commands
 * never start git.
 */

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
}

export function gitSync(args: string[], options: GitSyncOptions): GitSyncResult {
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
