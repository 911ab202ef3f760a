/**
 * A linked worktree of a clone whose board is shared through a git remote: its writes go through
 * the remote as the main worktree's do, so it is told nothing of a copy apart.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, cliAsync } from '../helpers.js';
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

describe('calls that change nothing shared, made at once in one clone', () => {
  it('push no commit that records nothing', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'done-trip', [{ title: 'Pack' }]));
    const [clone] = shared.clones as [string];
    await cli(clone, ['next', '--as', 'w1']);
    await cli(clone, ['task', 'done', 'done-trip/T1', '--as', 'w1']);
    const agents = ['p1', 'p2', 'p3', 'p4'];
    // Each agent's first call opens its session (that is shared); the calls after it change nothing.
    for (const agent of agents) await cli(clone, ['next', '--as', agent]);
    const before = git(shared.remote, ['rev-parse', 'refs/agentboard/board']);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(agents.map((agent) => cliAsync(clone, ['next', '--as', agent, '--json'])));
      for (const a of answers) expect(a.json.data.status).toBe('nothing_available');
    }
    const commits = git(shared.remote, ['rev-list', `${before}..refs/agentboard/board`]).split('\n').filter(Boolean);
    const empty = commits.filter((c) => git(shared.remote, ['rev-parse', `${c}^{tree}`]) === git(shared.remote, ['rev-parse', `${c}^^{tree}`]));
    expect(empty).toEqual([]);
  });
});
