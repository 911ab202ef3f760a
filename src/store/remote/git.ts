/**
 * git, as a shared board talks to it: plumbing commands run in the board's repository, with git's
 * own configuration and authentication (agentboard stores no credential). Messages are read in the
 * C locale; a command never waits for a password on a terminal (the board lock is held meanwhile),
 * and one that talks to the remote gives up after NETWORK_TIMEOUT_MS.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { testHooks } from '../../clock.js';
import { fail } from '../../errors.js';
import { refTo } from '../../domain/refs.js';
import { alikeHashes } from '../board.js';
import { textOf } from '../fs.js';
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

export interface SavedIndex {
  path: string;
  /** null: there was no index yet. */
  bytes: Buffer | null;
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
      timeoutMs: options.network ? (testHooks()?.networkTimeoutMs ?? NETWORK_TIMEOUT_MS) : undefined,
      noTerminal: options.network,
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

  /** A merge or a rebase that stopped half-way (on a conflict, say) and waits for a person to finish it; null when none does. */
  midway(): 'merge' | 'rebase' | null {
    if (this.run(['rev-parse', '-q', '--verify', 'MERGE_HEAD']).code === 0) return 'merge';
    const dirs = this.run(['rev-parse', '--path-format=absolute', '--git-path', 'rebase-merge', '--git-path', 'rebase-apply']).stdout.toString('utf8').split('\n');
    return dirs.some((d) => d && existsSync(d)) ? 'rebase' : null;
  }

  /** The branch checked out; null when HEAD is detached. */
  branch(): string | null {
    return this.run(['symbolic-ref', '--short', '-q', 'HEAD']).stdout.toString('utf8').trim() || null;
  }

  /** The index file as it is now, for restoreIndex to put back when a command that stages files fails. */
  savedIndex(): SavedIndex {
    const path = this.must(['rev-parse', '--path-format=absolute', '--git-path', 'index']);
    try {
      return { path, bytes: readFileSync(path) };
    } catch {
      return { path, bytes: null };
    }
  }

  /**
   * Puts a saved index back, taking git's own index.lock as git does; false when another git
   * command holds that lock (the index is then left as it is).
   */
  restoreIndex(saved: SavedIndex): boolean {
    const lock = `${saved.path}.lock`;
    try {
      writeFileSync(lock, saved.bytes ?? '', { flag: 'wx' });
    } catch {
      return false;
    }
    if (saved.bytes !== null) renameSync(lock, saved.path);
    else {
      rmSync(saved.path, { force: true });
      rmSync(lock);
    }
    return true;
  }

  /** The URL of a remote, or null when the repository has no remote of that name. */
  remoteUrl(remote: string): string | null {
    const r = this.run(['remote', 'get-url', '--', remote]);
    return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
  }
}

/** At most this many of git's lines are kept in a message, and at most REASON_CHARS characters. */
const REASON_LINES = 24;
const REASON_CHARS = 2_000;

/**
 * What git said, for a message: its "fatal:" and "error:" lines (git's reason, without those
 * prefixes; the last line when it wrote none of them); with `whole`, every line that says something,
 * "hint:" lines and all (a porcelain command such as git pull explains over several, and its hints
 * name the choices), one per line. Capped, so that a long list of files does not flood the message.
 */
export function gitReason(stderr: string, whole = false): string {
  const said = stderr.split('\n').filter((l) => l.trim() && !/^(hint:\s*$|To |From )/.test(l.trim()));
  const reasons = said.filter((l) => /^(fatal|error):/i.test(l));
  const picked = whole ? said : reasons.length > 0 ? reasons : said.slice(-1);
  const lines = picked.map((l) => l.replace(/^(fatal|error|remote): ?/i, '').trimEnd()).map((l) => (l.startsWith('hint:') ? l : l.trim()));
  if (lines.length === 0) return 'no reason given';
  let text = lines.slice(0, REASON_LINES).join(whole ? '\n  ' : '; ');
  if (lines.length > REASON_LINES || text.length > REASON_CHARS) text = `${text.slice(0, REASON_CHARS)} …`;
  return text.replace(/\.$/, '');
}

/** At most this many of the remote's own lines are kept in a message, and at most REMOTE_CHARS characters. */
const REMOTE_LINES = 10;
const REMOTE_CHARS = 1_000;

/**
 * What the remote's side said (a hook's output, which git prints as "remote:" lines), for a
 * message: usually the reason it refused a push. Each line trimmed, terminal escapes and other
 * control characters taken out (they are the remote's, not ours to send to a terminal), capped;
 * '' when it said nothing.
 */
export function remoteSaid(stderr: string): string {
  const lines = stderr
    .split(/\r\n|\r|\n/)
    .filter((l) => l.startsWith('remote:'))
    .map((l) => l.slice('remote:'.length).replace(/\x1b\[[0-?]*[ -\/]*[@-~]/g, '').replace(/[\x00-\x1f\x7f-\x9f]/g, '').trim())
    .filter(Boolean);
  let text = lines.slice(0, REMOTE_LINES).join('\n  ');
  if (lines.length > REMOTE_LINES || text.length > REMOTE_CHARS) text = `${text.slice(0, REMOTE_CHARS)} …`;
  return text;
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

/**
 * Whether a file holds a blob: byte for byte, or but for its line ends (CRLF, LF or a lone CR) and byte order
 * mark, as on a board of one clone (board.ts's asWritten). A checkout with git's core.autocrlf, or
 * an editor that saves with Windows' line ends, changes those alone, and that is no person's edit.
 */
export function holdsBlob(bytes: Buffer, blob: string | undefined): boolean {
  if (blob === undefined) return false;
  return blobId(bytes, blob.length) === blob || alikeBlobIds(bytes, blob.length).includes(blob);
}

/** The blob ids of a file's text with LF, CRLF and lone CR line ends, each with and without a byte order mark. */
export function alikeBlobIds(bytes: Buffer, idLength: number): string[] {
  return alikeHashes(textOf(bytes), (text) => blobId(Buffer.from(text, 'utf8'), idLength));
}
