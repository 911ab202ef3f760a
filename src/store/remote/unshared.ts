/**
 * A clone that shares a board, on a branch whose agentd/config.yaml names no remote (a branch from
 * before the board was shared, say). A write there would go to this clone's copy alone, beside the
 * shared board that other clones go on writing, so it is refused until the clone is back on a
 * branch that shares the board, or keeps the board as its own (agentboard remote disable). Reads
 * show this clone's copy as it last synced it.
 */
import { relative, sep } from 'node:path';
import { fail } from '../../errors.js';
import { refTo } from '../../domain/refs.js';
import type { Board } from '../board.js';
import { parseConfig } from '../config.js';
import { Git } from './git.js';
import { RemoteFiles } from './state.js';

/** At most this many branches (the latest committed to first) are looked at for one that shares the board. */
const BRANCHES_LOOKED_AT = 200;

/** The remote this clone last shared the board through, when synced.json says. */
function lastRemote(board: Board): string | undefined {
  return new RemoteFiles(board.runtimeDir, (p) => board.rel(p)).synced()?.remote;
}

/** The local branches whose agentd/config.yaml shares the board through `remote`, the latest committed to first. */
function sharingBranches(git: Git, board: Board, remote: string | undefined): string[] {
  const heads = git.run(['for-each-ref', '--sort=-committerdate', '--format=%(refname:short)', `--count=${BRANCHES_LOOKED_AT}`, 'refs/heads/']);
  if (heads.code !== 0) return [];
  const path = `./${relative(board.root, board.configPath).split(sep).join('/')}`;
  return heads.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .filter((branch) => {
      const r = git.run(['show', `${branch}:${path}`]);
      if (r.code !== 0) return false;
      try {
        const named = parseConfig(r.stdout.toString('utf8'), path).remote;
        return named !== undefined && (remote === undefined || named === remote);
      } catch {
        return false;
      }
    });
}

/** Refuses a write: this clone shares a board, and agentd/config.yaml names no remote. */
export function refuseUnshared(board: Board): never {
  const remote = lastRemote(board);
  const through = remote === undefined ? 'a git remote' : `the git remote "${remote}"`;
  let current: string | null = null;
  let branches: string[] = [];
  try {
    const git = new Git(board.root);
    if (git.inRepository()) {
      current = git.branch();
      branches = sharingBranches(git, board, remote).filter((b) => b !== current);
    }
  } catch {
    // Without git, no branch can be named: the step says how to find one.
  }
  const back =
    branches.length > 0
      ? `Switch back to a branch that shares the board with ${refTo('remote.switch', { branch: branches[0] })} (it moves the shared board's files out of git's way${branches.length > 1 ? `; ${branches.slice(1, 4).join(', ')} share it too` : ''})`
      : `Switch back to a branch whose agentd/config.yaml shares the board through ${through} with ${refTo('remote.switch')} (it moves the shared board's files out of git's way)`;
  fail(
    'REMOTE_NOT_CONFIGURED',
    `This clone shares its board through ${through}, but agentd/config.yaml ${current ? `on the branch checked out (${current}) ` : ''}names no remote: a write here would miss the shared board, so nothing was written.`,
    `${back}, or keep the board as this clone's own with ${refTo('remote.disable')}. Reads still show this clone's copy as it last synced it.`,
  );
}
