/**
 * `agentboard run` on a shared board: the runs of two clones are different agents (their ids carry
 * the clone's tag), so neither takes the other's task for one of its own to resume, and no task is
 * worked twice.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, ok, tempDir } from '../helpers.js';
import { agentInvocations, FAKE_AGENT, prompt, runIds, shellSteps, startRun } from '../engine/helpers.js';
import { git, sharedBoard } from './helpers.js';

/** Two clones of a shared board whose agents are the fake agent; `setup` runs in the first before it is shared. */
async function sharedRunBoard(setup: (first: string) => Promise<void> = async () => undefined) {
  const base = tempDir('agentboard-shared-run-');
  const state = join(base, 'state');
  const scenarioFile = join(base, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify({ review: ['approved'] }));
  const shared = await sharedBoard(2, async (first) => {
    const env = { FAKE_AGENT_SCENARIO: scenarioFile, FAKE_AGENT_STATE: state };
    const config = readFileSync(join(first, 'agentd/config.yaml'), 'utf8');
    writeFileSync(
      join(first, 'agentd/config.yaml'),
      `${config}\nagents:\n  fake: { command: ["${process.execPath}", "${FAKE_AGENT}", "{prompt_file}"], env: ${JSON.stringify(env)} }\nrun:\n  planner: fake\n  reviewer: fake\n  workers: [fake]\n`,
    );
    await setup(first);
  });
  return { clones: shared.clones as [string, string], state, scenarioFile };
}

describe('agentboard run in a clone of a shared board', () => {
  it('starts from the board as the remote has it: a change another clone planned is worked, not planned again', async () => {
    const { clones, state, scenarioFile } = await sharedRunBoard();
    const [a, b] = clones;
    await ok(b, ['status', '--sync']);
    // a plans the change after b last synced; b runs it without a goal.
    await changeWithTasks(a, 'planned-elsewhere', [{ title: 'One' }]);
    const r = startRun(b, ['planned-elsewhere', '--until', 'implementation']);
    expect(await r.done, r.stderr()).toBe(0);
    const phases = agentInvocations({ dir: b, state, scenarioFile }).map((i) => i.env.AGENTBOARD_PHASE);
    expect(phases).toEqual(['implementation']);
  });
});

describe('agentboard run in two clones of a shared board, on the same change at once', () => {
  it('works each task once: each clone runs agents of its own', async () => {
    const tasks = Array.from({ length: 6 }, (_, i) => ({ title: `Task ${i + 1}` }));
    const { clones, state, scenarioFile } = await sharedRunBoard((first) => changeWithTasks(first, 'shared-run', tasks));
    const [a, b] = clones;
    await ok(b, ['status', '--sync']);
    const runs = [startRun(a, ['shared-run', '--until', 'implementation', '--workers', '2']), startRun(b, ['shared-run', '--until', 'implementation', '--workers', '2'])];
    const codes = await Promise.all(runs.map((r) => r.done));
    expect(codes, runs.map((r) => `${r.stderr()}\n${JSON.stringify(r.events.at(-1))}`).join('\n')).toEqual([0, 0]);

    const work = agentInvocations({ dir: a, state, scenarioFile }).filter((i) => i.env.AGENTBOARD_PHASE === 'implementation');
    const byTask = new Map<string, string[]>();
    for (const i of work) byTask.set(i.env.AGENTBOARD_TASK_ID, [...(byTask.get(i.env.AGENTBOARD_TASK_ID) ?? []), i.env.AGENTBOARD_AGENT_ID]);
    expect([...byTask.keys()].sort()).toEqual(tasks.map((_, i) => `shared-run/T${i + 1}`));
    for (const [task, agents] of byTask) expect(agents, task).toHaveLength(1);
    // Each clone's workers are named with its tag: fake-w1.<4 hex>, different in the two clones.
    const tags = new Set(work.map((i) => /^fake-w\d\.([0-9a-f]{4})$/.exec(i.env.AGENTBOARD_AGENT_ID)?.[1]));
    expect(tags.has(undefined)).toBe(false);
    const runAgents = runs.map((r) => r.events.find((e) => e.type === 'run.started')?.agents?.workers ?? []);
    expect(runAgents[0]).not.toEqual(runAgents[1]);
    const board = await ok(a, ['task', 'list', '--change', 'shared-run', '--sync']);
    expect(board.tasks.map((t: { status: string }) => t.status)).toEqual(tasks.map(() => 'done'));
  });
});

describe('agentboard run --merge in a clone of a shared board, on work another clone\'s run did', () => {
  it('merges and reviews nothing while the branches of that work are not here, naming the tasks and the clone; once pushed there, it fetches them, merges them and shows the reviewer their diffs', async () => {
    const { clones, state, scenarioFile } = await sharedRunBoard((first) => changeWithTasks(first, 'shared-work', [{ title: 'One' }, { title: 'Two' }]));
    const [a, b] = clones;
    const worked = startRun(a, ['shared-work', '--until', 'implementation']);
    expect(await worked.done, worked.stderr()).toBe(0);
    const [worker] = worked.events.find((e) => e.type === 'run.started').agents.workers;
    const head = git(b, ['rev-parse', 'HEAD']);

    const r = startRun(b, ['shared-work', '--merge']);
    expect(await r.done, r.stderr()).toBe(1);
    const tag = /\.([0-9a-f]{4})$/.exec(r.events.find((e) => e.type === 'run.started').agents.reviewer)![1];
    expect(worker).not.toMatch(new RegExp(`\\.${tag}$`));
    const branches = ['agentboard/shared-work/T1', 'agentboard/shared-work/T2'];
    expect(r.events.at(-1)).toMatchObject({
      outcome: 'failed',
      message: `shared-work/T1 (${branches[0]}, done by ${worker}), shared-work/T2 (${branches[1]}, done by ${worker}) were done in another clone (a worker's id ends with the tag of its clone; this clone's is ${tag}), and their branches are not in this repository: a run pushes no task branch; origin does not have them either. The run merges and reviews a task's work from its branch, so it merges nothing and starts no reviewer without them.`,
      next_steps: [
        `git push origin 'refs/heads/agentboard/shared-work/*:refs/heads/agentboard/shared-work/*'   # in each clone where ${worker} ran: it puts the change's task branches on origin`,
        `git fetch origin ${branches.map((x) => `${x}:${x}`).join(' ')}   # then here (the run fetches them itself from origin)`,
        'agentboard run shared-work --merge   # then go on',
      ],
    });
    expect(agentInvocations({ dir: b, state, scenarioFile }).filter((i) => i.env.AGENTBOARD_PHASE === 'review')).toEqual([]);
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(head);

    // As advised, in the clone that did the work; then b's run fetches it, merges it and has it reviewed.
    expect(shellSteps(a, [r.events.at(-1).next_steps[0]])).toEqual([0]);
    const again = startRun(b, ['shared-work', '--merge']);
    expect(await again.done, again.stderr()).toBe(0);
    expect(again.events).toContainEqual(expect.objectContaining({ type: 'notice', message: `Fetched from origin the branches of work another clone's run did: ${branches.join(', ')}.` }));
    expect(again.events.filter((e) => e.type === 'merge.done').map((e) => e.branch)).toEqual(branches);
    expect(readFileSync(join(b, 'work/T1.txt'), 'utf8')).toBe(`T1 done by ${worker}\n`);
    expect(readFileSync(join(b, 'work/T2.txt'), 'utf8')).toBe(`T2 done by ${worker}\n`);
    const review = prompt(b, runIds(b).at(-1)!, 1);
    for (const n of ['T1', 'T2']) expect(review).toContain(`+${n} done by ${worker}`);
  });
});
