/**
 * A linked worktree of a clone whose board is shared through a git remote: its writes go through
 * the remote as the main worktree's do, so it is told nothing of a copy apart.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli } from '../helpers.js';
import { git, sharedBoard } from './helpers.js';

describe('a linked worktree of a clone that shares its board', () => {
  it('writes through the remote with no note of a copy apart, and no task goes to two agents', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }, { title: 'Go' }]));
    const [clone] = shared.clones as [string];
    const tree = join(shared.remote, '..', 'feature-tree');
    git(clone, ['worktree', 'add', '-q', '-b', 'feature', tree]);
    const here = await cli(tree, ['next', '--as', 'w-tree', '--json']);
    expect(here.code, here.stdout).toBe(0);
    expect(here.json.data.task.task_id).toBe('trip/T1');
    expect(JSON.stringify(here.json.notices ?? [])).not.toContain('git worktree');
    const there = await cli(clone, ['next', '--as', 'w-main', '--json']);
    expect(there.json.data.task.task_id).toBe('trip/T2');
  });
});
