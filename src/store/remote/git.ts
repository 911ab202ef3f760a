/**
 * git, as a shared board talks to it: plumbing commands run in the board's repository, with git's
 * own configuration and authentication (agentboard stores no credential). Messages are read in the
 * C locale; a command never waits for a password on a terminal (the board lock is held meanwhile),
 * and one that talks to the remote gives up after NETWORK_TIMEOUT_MS.
 */
import { createHash } from 'node:crypto';
import { fail } from '../../errors.js';
import { refTo } from '../../domain/refs.js';
import { gitSync } from '../git-sync.js';

const NETWORK_TIMEOUT_MS = 60_000;

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  /** The command talks to the remote: bounded in time. */
  network?: boolean;
}

export class Git {
  constructor(
    /** The board's root, inside the repository's working tree. */
    readonly cwd: string,
  ) {}

  run(args: string[], options: GitOptions = {}): GitResult {
    const r = gitSync(args, {
      cwd: this.cwd,
      input: options.input,
      env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', ...options.env },
      timeoutMs: options.network ? NETWORK_TIMEOUT_MS : undefined,
    });
    if (r.missing) {
      fail('NOT_A_GIT_REPOSITORY', 'git is not installed, and a shared board lives in git.', `Install git, or turn sharing off with ${refTo('remote.disable')}.`);
    }
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  }

  /** Runs a command that must succeed (local plumbing); its output, trimmed. */
  must(args: string[], options: GitOptions = {}): string {
    const r = this.run(args, options);
    if (r.code !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.trim()}`);
    return r.stdout.toString('utf8').trim();
  }

  /** Whether the board is in a git working tree. */
  inRepository(): boolean {
    return this.run(['rev-parse', '--is-inside-work-tree']).stdout.toString().trim() === 'true';
  }

  /** The URL of a remote, or null when the repository has no remote of that name. */
  remoteUrl(remote: string): string | null {
    const r = this.run(['remote', 'get-url', '--', remote]);
    return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
  }
}

/**
 * The last line git wrote to stderr that says something, without the "fatal:" and "error:"
 * prefixes; with `whole`, every such line (a porcelain command such as git pull explains over several).
 */
export function gitReason(stderr: string, whole = false): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/^(fatal|error|remote): ?/i, '').trim())
    .filter((l) => l && !/^(hint:|To |From )/.test(l));
  return ((whole ? lines.join(' ') : lines[lines.length - 1]) || 'no reason given').slice(0, 300);
}

/** A URL as it may be shown: without a user name, password or token in it. */
export function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

/** The id git gives a blob with these bytes (SHA-1, or SHA-256 in a repository that uses it: told by the length of its ids). */
export function blobId(bytes: Buffer, idLength = 40): string {
  return createHash(idLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}
