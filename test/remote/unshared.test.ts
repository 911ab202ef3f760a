/**
 * A clone that shares the board, on a branch from before the board was shared (its
 * agentd/config.yaml names no remote): its writes would go to its own copy beside the shared board,
 * so they are refused until it switches back or turns sharing off; its reads still answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, ok, snapshot } from '../helpers.js';
import { activityOf, git, remoteFile, sharedBoard } from './helpers.js';

/** Two clones sharing a board with change chg; b's agent holds chg/T1; a is on `old`, a branch from before sharing. */
async function onOldBranch(): Promise<{ a: string; b: string; main: string; remote: string }> {
  const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'chg', [{ title: 'First' }, { title: 'Second' }]));
  const [a, b] = shared.clones as [string, string];
  const main = git(a, ['symbolic-ref', '--short', 'HEAD']);
  git(a, ['branch', 'old', 'HEAD~1']);
  expect((await ok(b, ['next', '--as', 'other'])).task.task_id).toBe('chg/T1');
  git(a, ['switch', '-q', 'old']);
  expect(readFileSync(join(a, 'agentd/config.yaml'), 'utf8')).not.toMatch(/^remote:/m);
  expect(existsSync(join(a, 'agentd/.runtime/remote/synced.json'))).toBe(true);
  return { a, b, main, remote: shared.remote };
}

describe('a clone that shares the board, on a branch whose config.yaml names no remote', () => {
  it('refuses writes, naming the branch that shares the board, and changes nothing', async () => {
    const { a, main, remote } = await onOldBranch();
    const head = git(remote, ['rev-parse', 'refs/agentboard/board']);
    const before = snapshot(join(a, 'agentd'));
    for (const args of [
      ['next', '--as', 'lonely'],
      ['task', 'note', 'chg/T2', 'A note', '--as', 'lonely'],
    ]) {
      const r = await cli(a, [...args, '--json']);
      expect(r.code).not.toBe(0);
      expect(r.json.error.code).toBe('REMOTE_NOT_CONFIGURED');
      expect(r.json.error.message).toContain('the git remote "origin"');
      expect(r.json.error.message).toContain('(old)');
      expect(r.json.error.next_step).toContain(`\`agentboard remote switch ${main}\``);
      expect(r.json.error.next_step).toContain('agentboard remote disable');
    }
    expect(snapshot(join(a, 'agentd'))).toEqual(before);
    expect(git(remote, ['rev-parse', 'refs/agentboard/board'])).toBe(head);
    expect(remoteFile({ remote, clones: [] }, 'changes/chg/tasks.md')).toMatch(/## T1: First[\s\S]*assignee: other/);
  });

  it('goes back with remote switch, as the refusal says, and writes again', async () => {
    const { a, main } = await onOldBranch();
    const r = await cli(a, ['remote', 'switch', main, '--json'], { interactive: true });
    expect(r.code, r.stdout).toBe(0);
    expect(git(a, ['symbolic-ref', '--short', 'HEAD'])).toBe(main);
    expect((await ok(a, ['next', '--as', 'back-again'])).task.task_id).toBe('chg/T2');
  });

  it('still reads, and says why writes are refused', async () => {
    const { a } = await onOldBranch();
    const r = await cli(a, ['list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.data.changes.map((c: { change_id: string }) => c.change_id)).toContain('chg');
    expect(r.json.notices.join('\n')).toMatch(/names no remote.*writes are refused until you switch back to a branch that shares the board or run `agentboard remote disable`/);
  });

  it('remote disable forgets the sharing, and the board is then this clone’s own', async () => {
    const { a, remote } = await onOldBranch();
    const head = git(remote, ['rev-parse', 'refs/agentboard/board']);
    const off = await cli(a, ['remote', 'disable', '--json']);
    expect(off.json).toMatchObject({ ok: true, data: { changed: true, remote: 'origin', synced: false } });
    expect(off.json.notices).toBeUndefined();
    expect(existsSync(join(a, 'agentd/.runtime/remote/synced.json'))).toBe(false);
    expect(activityOf(a).at(-1)).toMatchObject({ action: 'remote.disable', summary: 'stopped sharing the board through the remote origin in this clone' });
    expect((await ok(a, ['remote', 'disable'])).changed).toBe(false);
    // a last synced before b's claim: in its own board, chg/T1 is free.
    expect((await ok(a, ['next', '--as', 'lonely'])).task.task_id).toBe('chg/T1');
    expect(git(remote, ['rev-parse', 'refs/agentboard/board'])).toBe(head);
    const r = await cli(a, ['list', '--json']);
    expect(r.json.notices).toBeUndefined();
  });
});
