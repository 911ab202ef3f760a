/**
 * `agentboard run` on the git setups people have: each ends with the tasks' work on their branches,
 * or stops with what git said and the commands that go on, losing nothing.
 */
import { describe, expect, it } from 'vitest';
import { changeWithTasks } from '../helpers.js';
import { fakeBoard, git, run } from './helpers.js';

const BRANCH = 'agentboard/add-search/T1';

/** A board whose change add-search has one task, T1, that the fake worker does (it writes work/T1.txt and finishes). */
async function oneTask(options: Parameters<typeof fakeBoard>[0] = {}) {
  const board = await fakeBoard({ scenario: { implementation: { '*': ['work'] } }, ...options });
  await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
  return board;
}

describe('agentboard run on the git setups people have', () => {
  it('commits the work where git has an email but may not guess a name (user.useConfigOnly), with the configured email', async () => {
    const board = await oneTask();
    git(board.dir, ['config', 'user.useConfigOnly', 'true']);
    git(board.dir, ['config', 'user.email', 'me@example.com']);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, JSON.stringify(r.events.at(-1))).toBe(0);
    expect(git(board.dir, ['show', `${BRANCH}:work/T1.txt`])).toBe('T1 done by fake-w1\n');
    expect(git(board.dir, ['log', '-1', '--format=%an <%ae> / %cn <%ce>', BRANCH]).trim()).toBe('fake-w1 <fake-w1@agents.agentboard.invalid> / tester <me@example.com>');
  });
});
