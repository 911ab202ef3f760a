/**
 * A run killed with kill -9, in planning and in work: the next `run` stops the agents the dead
 * run left, releases its claims with the reason noted, and finishes with nothing duplicated.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, ok } from '../helpers.js';
import { agentInvocations, alive, fakeBoard, git, hangs, run, runIds, runRecord, setScenario, startRun, until } from '../engine/helpers.js';

describe('a run killed with kill -9', () => {
  it('during planning: the next run stops the orphaned planner and goes on from the documents on disk', async () => {
    const board = await fakeBoard({ scenario: { spec: ['hang'] } });
    const first = startRun(board.dir, ['add-search', '--goal', 'Let people search the board']);
    await until('the planner to hang on the spec', () => hangs(board).length === 1);
    first.child.kill('SIGKILL');
    expect(await first.done).toBe(137);
    const [orphan] = hangs(board);
    expect(alive(orphan!.agent)).toBe(true);
    expect((await ok(board.dir, ['status'])).runs).toEqual([expect.objectContaining({ state: 'died', phase: 'spec' })]);
    expect((await ok(board.dir, ['runs'])).runs).toEqual([expect.objectContaining({ outcome: 'died', phase: 'spec' })]);

    setScenario(board, { spec: ['valid'] });
    const second = run(board.dir, ['add-search', '--until', 'tasks']);
    expect(second.code).toBe(0);
    expect(alive(orphan!.agent)).toBe(false);
    expect(alive(orphan!.child!)).toBe(false);
    expect(alive(orphan!.escaped)).toBe(false);
    const [firstId, secondId] = runIds(board.dir);
    expect(runRecord(board.dir, firstId!)).toMatchObject({ outcome: 'interrupted', message: expect.stringContaining(`run ${secondId} stopped its agents`) });
    // The proposal was not written again; the goal came from the first run.
    expect(second.events.filter((e) => e.type === 'invocation.started').map((e) => e.phase)).toEqual(['spec', 'tasks']);
    expect(await ok(board.dir, ['show', 'add-search', 'proposal'])).toMatchObject({ revision: 1 });
    expect(await ok(board.dir, ['show', 'add-search', 'spec'])).toMatchObject({ revision: 1, status: 'submitted' });
    expect(agentInvocations(board).at(-2).prompt).toContain('Let people search the board');
    expect((await ok(board.dir, ['task', 'list', '--change', 'add-search'])).total).toBe(3);
  });

  it('during work: the next run releases the dead run\'s claim, stops its worker, and finishes each task once', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['hang', 'work'], '*': ['work'] } } });
    // T3 waits for T1, so when the run is killed nothing but T1 is under way.
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }, { title: 'Two' }, { title: 'Three', depends: ['T1'] }]);
    const first = startRun(board.dir, ['add-search', '--workers', '2', '--until', 'implementation']);
    await until('T1 to hang and T2 to be done', () => hangs(board).length === 1 && first.events.some((e) => e.type === 'task.done' && e.task_id === 'add-search/T2'));
    first.child.kill('SIGKILL');
    await first.done;
    const [orphan] = hangs(board);
    const [firstId] = runIds(board.dir);

    // status sees the dead run and calls its claim stale at once.
    const status = await ok(board.dir, ['status']);
    expect(status.runs).toEqual([expect.objectContaining({ run_id: firstId, state: 'died' })]);
    expect(status.stale_claims).toEqual(expect.arrayContaining([expect.objectContaining({ task_id: 'add-search/T1', run_id: firstId })]));

    const second = run(board.dir, ['add-search', '--workers', '2', '--until', 'implementation']);
    expect(second.code).toBe(0);
    const [, secondId] = runIds(board.dir);
    const released = second.events.filter((e) => e.type === 'task.released');
    expect(released.map((e) => e.task_id)).toContain('add-search/T1');
    expect(released.find((e) => e.task_id === 'add-search/T1').reason).toBe(`run ${firstId} stopped before finishing it (its process is gone); released by run ${secondId}`);
    expect(alive(orphan!.agent)).toBe(false);
    expect(alive(orphan!.child!)).toBe(false);
    expect(alive(orphan!.escaped)).toBe(false);

    // Each task's work was done once: T2 by the first run only, T1 and T3 by the second.
    const worked = agentInvocations(board).filter((i) => i.action === 'work').map((i) => i.env.AGENTBOARD_TASK_ID).sort();
    expect(worked).toEqual(['add-search/T1', 'add-search/T2', 'add-search/T3']);
    const tasks = (await ok(board.dir, ['show', 'add-search', 'tasks', '--format', 'fields'])).content.tasks;
    expect(tasks.map((t: any) => [t.id, t.status])).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
      ['T3', 'done'],
    ]);
    expect(tasks[0].notes.map((n: any) => n.text)).toContain(`Released from fake-w1: run ${firstId} stopped before finishing it (its process is gone); released by run ${secondId}`);
    // One commit of work per task; T3's branch starts from T1's.
    for (const t of ['T1', 'T2']) expect(git(board.dir, ['log', '--format=%an %s', `HEAD..agentboard/add-search/${t}`]).trim().split('\n')).toHaveLength(1);
    expect(git(board.dir, ['log', '--format=%s', `HEAD..agentboard/add-search/T3`]).trim().split('\n')).toEqual(['add-search/T3: Three', 'add-search/T1: One']);
    expect((await ok(board.dir, ['status'])).runs).toEqual([]);
  });

  it('during work, with its worker finishing after it: the next run commits what the worker left in its worktree and merges it', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['work_on_go'], '*': ['work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
    const first = startRun(board.dir, ['add-search', '--until', 'implementation', '--merge']);
    await until('the worker to start on T1', () => existsSync(join(board.state, 'waiting-fake-w1.json')));
    first.child.kill('SIGKILL');
    await first.done;
    // The run is gone; its worker finishes T1 through its own MCP server, and leaves its file uncommitted.
    writeFileSync(join(board.state, 'go'), '');
    await until('the orphaned worker to finish T1', async () => (await ok(board.dir, ['task', 'show', 'add-search/T1'])).task.status === 'done');
    const orphan = JSON.parse(readFileSync(join(board.state, 'waiting-fake-w1.json'), 'utf8')).agent;
    await until('the orphaned worker to exit', () => !alive(orphan));

    const second = run(board.dir, ['add-search', '--until', 'implementation', '--merge']);
    expect(second.code, second.stderr).toBe(0);
    const [firstId, secondId] = runIds(board.dir);
    expect(second.events.find((e) => e.type === 'notice' && /Committed what fake-w1 left uncommitted in the worktree of add-search\/T1/.test(e.message))).toBeDefined();
    expect(second.events.filter((e) => e.type === 'merge.done').map((e) => e.task_id)).toEqual(['add-search/T1']);
    expect(readFileSync(join(board.dir, 'work/T1.txt'), 'utf8')).toBe('T1 done by fake-w1\n');
    expect(git(board.dir, ['log', '--format=%an|%B', '-1', 'agentboard/add-search/T1']).trim()).toBe(`fake-w1|add-search/T1: One\n\nLeft uncommitted by fake-w1 when run ${firstId} stopped; committed by agentboard run ${secondId}.`);
    // Nothing was worked twice.
    expect(agentInvocations(board).filter((i) => i.env.AGENTBOARD_PHASE === 'implementation')).toHaveLength(1);
  });
});
