/**
 * The console on a shared board follows the remote: what another clone does reaches the screen
 * without anyone syncing by hand, and a remote out of reach is said on the screen while this
 * clone's copy stays shown.
 */
import { describe, expect, it } from 'vitest';
import { LiveBoard } from '../../src/console/live.js';
import { createContext } from '../../src/ops/registry.js';
import { changeWithTasks, ok } from '../helpers.js';
import { until } from '../console/helpers.js';
import { git, sharedBoard } from './helpers.js';

describe('the console on a shared board', () => {
  it('shows what another clone did, fetched from the remote', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }, { title: 'Rank' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['status', '--sync']);
    const live = new LiveBoard(createContext(b, b), 'human:tester', null);
    const t1 = () => live.get().tasks.find((t) => t.task_id === 'search/T1');
    expect(t1()).toMatchObject({ status: 'todo', assignee: null });
    live.start({ syncMs: 100 });
    try {
      await ok(a, ['next', '--as', 'claude']);
      await until('the claim made in the other clone to reach the console', () => t1()?.status === 'in_progress', 30_000);
      expect(t1()).toMatchObject({ status: 'in_progress', assignee: 'claude' });
      expect(live.get().trouble).toBeNull();
      // It reached this clone's files, not only the screen.
      expect((await ok(b, ['task', 'show', 'search/T1'])).task).toMatchObject({ status: 'in_progress', assignee: 'claude' });
    } finally {
      live.stop();
    }
  });

  it('says when the remote cannot be reached, and goes on showing this clone\'s copy', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }]));
    const a = shared.clones[0]!;
    git(a, ['remote', 'set-url', 'origin', 'https://someone:s3cret-token@127.0.0.1:9/board.git']);
    const live = new LiveBoard(createContext(a, a), 'human:tester', null);
    live.start({ syncMs: 100 });
    try {
      await until('the console to say it could not sync', () => live.get().trouble !== null, 30_000);
      expect(live.get().trouble).toMatch(/^Could not sync with "origin"; showing this clone's copy\./);
      expect(live.get().trouble).not.toContain('s3cret');
      expect(live.get().tasks.map((t) => t.task_id)).toEqual(['search/T1']);
    } finally {
      live.stop();
    }
  });
});
