/** Stopping: Ctrl-C with three workers busy, and --merge meeting a conflict. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, ok } from '../helpers.js';
import { fakeBoard, git, hangs, run, runIds, startRun, until } from '../engine/helpers.js';

/** Every running process whose environment names the run: its agents and what they started (their MCP servers too, where the CLI passes the environment on). */
function processesOf(runId: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        return stat.split(') ')[1]![0] !== 'Z' && readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').includes(`AGENTBOARD_RUN_ID=${runId}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('stopping a run', () => {
  it('SIGINT with three workers busy: every process of the run is gone, every claim released, the run recorded as interrupted', async () => {
    const board = await fakeBoard({ scenario: { implementation: { '*': ['hang'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }, { title: 'Four' }]);
    const live = startRun(board.dir, ['add-search', '--workers', '3']);
    await until('three workers to hang', () => hangs(board).length === 3);
    const [runId] = runIds(board.dir);
    // Agents, the processes they started and the MCP servers they run.
    expect(processesOf(runId!).length).toBeGreaterThanOrEqual(6);
    live.child.kill('SIGINT');
    expect(await live.done).toBe(130);
    await until('the run\'s processes to be gone', () => processesOf(runId!).length === 0, 10_000);
    const tasks = (await ok(board.dir, ['task', 'list', '--change', 'add-search'])).tasks;
    expect(tasks.map((t: any) => [t.status, t.assignee])).toEqual([
      ['todo', null],
      ['todo', null],
      ['todo', null],
      ['todo', null],
    ]);
    expect(live.events.filter((e) => e.type === 'task.released')).toHaveLength(3);
    expect(live.events.at(-1)).toMatchObject({ outcome: 'interrupted', next_steps: ['agentboard run add-search   # go on where it stopped'] });
  });

  it('--merge stops at the first conflict, names the files, and leaves the current branch as it was', async () => {
    const board = await fakeBoard({ scenario: { file: { T1: 'shared.txt', T2: 'shared.txt' }, content: { T1: 'one', T2: 'two' } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }, { title: 'Two' }, { title: 'Three', depends: ['T1', 'T2'] }]);
    const head = git(board.dir, ['rev-parse', 'HEAD']).trim();
    const r = run(board.dir, ['add-search', '--workers', '2', '--merge', '--until', 'review']);
    expect(r.code).toBe(1);
    const conflict = r.events.find((e) => e.type === 'merge.conflict');
    expect(conflict).toMatchObject({ task_id: 'add-search/T2', branch: 'agentboard/add-search/T2', files: ['shared.txt'] });
    expect(r.events.at(-1)).toMatchObject({ outcome: 'failed', message: expect.stringContaining('Merging agentboard/add-search/T2 (add-search/T2) into the current branch conflicts in shared.txt') });
    // T1 was merged; the conflicting merge was undone.
    expect(git(board.dir, ['log', '--first-parent', '--format=%s', `${head}..HEAD`]).trim()).toBe('Merge agentboard/add-search/T1: One');
    expect(readFileSync(`${board.dir}/shared.txt`, 'utf8')).toBe('one\n');
    expect(git(board.dir, ['status', '--porcelain', '--untracked-files=no']).trim()).toBe('');
  });
});
