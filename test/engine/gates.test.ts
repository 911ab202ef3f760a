/** Where a person must decide: the run stops without a terminal, --wait goes on when they do, and a rejection's feedback reaches the planner. */
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, ok } from '../helpers.js';
import { agentInvocations, fakeBoard, prompt, run, runIds, runRecord, startRun, until } from './helpers.js';

const GOAL = ['--goal', 'Let people search the board'];

describe('approval gates', () => {
  it('stop with waiting_on_person and the commands to run when there is no terminal', async () => {
    const board = await fakeBoard({ config: 'require_approval: [proposal]' });
    const r = run(board.dir, ['add-search', ...GOAL]);
    expect(r.code).toBe(0);
    const waiting = r.events.find((e) => e.type === 'waiting_on_person');
    expect(waiting).toMatchObject({ phase: 'proposal', subject: 'the proposal of add-search', commands: ['agentboard approve add-search proposal', 'agentboard reject add-search proposal --feedback "<what must change>"'] });
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'waiting_on_person', exit_code: 0 });
    expect(r.events.at(-1).next_steps).toContain('agentboard approve add-search proposal');
    expect((await ok(board.dir, ['show', 'add-search', 'proposal'])).status).toBe('submitted');
    // Nothing after the gate ran: one invocation, the planner's.
    expect(agentInvocations(board).map((i) => i.env.AGENTBOARD_PHASE)).toEqual(['proposal']);
  });

  it('give a rejection\'s feedback to the planner\'s next attempt', async () => {
    const board = await fakeBoard({ config: 'require_approval: [proposal]' });
    expect(run(board.dir, ['add-search', ...GOAL]).code).toBe(0);
    await ok(board.dir, ['reject', 'add-search', 'proposal', '--feedback', 'Say who searches, and for what.']);
    const again = run(board.dir, ['add-search']);
    expect(again.events.at(-1)).toMatchObject({ outcome: 'waiting_on_person' });
    const second = runIds(board.dir)[1]!;
    const text = prompt(board.dir, second, 1);
    expect(text).toContain('## Feedback from a person, to address');
    expect(text).toContain('human:tester');
    expect(text).toContain('Say who searches, and for what.');
    // The goal of the first run carries over to the second.
    expect(text).toContain('Let people search the board');
    expect(await ok(board.dir, ['show', 'add-search', 'proposal'])).toMatchObject({ status: 'submitted', revision: 2 });
  });

  it('wait for a person\'s decision on a document they rejected once, even where config.yaml asks for none', async () => {
    const board = await fakeBoard();
    expect(run(board.dir, ['add-search', ...GOAL, '--until', 'spec']).events.at(-1)).toMatchObject({ outcome: 'finished' });
    await ok(board.dir, ['reject', 'add-search', 'spec', '--feedback', 'Name the search engine.']);
    const again = run(board.dir, ['add-search']);
    const second = runIds(board.dir)[1]!;
    expect(prompt(board.dir, second, 1)).toContain('Name the search engine.');
    expect(again.events.filter((e) => e.type === 'invocation.started').map((e) => e.phase)).toEqual(['spec']);
    expect(again.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({ phase: 'spec', reason: 'a person rejected an earlier revision of the spec, and decides on this one' });
    expect(again.events.at(-1)).toMatchObject({ outcome: 'waiting_on_person' });
    expect(await ok(board.dir, ['show', 'add-search', 'spec'])).toMatchObject({ status: 'submitted', revision: 2 });
  });

  it('wait for a person to decide on a task a worker submitted for review', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['review_request'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.events.find((e) => e.type === 'task.done')).toMatchObject({ task_id: 'add-search/T1', status: 'in_review' });
    expect(r.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({ subject: 'task add-search/T1', reason: 'fake-w1 submitted it for review', commands: ['agentboard approve add-search/T1', 'agentboard reject add-search/T1 --feedback "<what must change>"'] });
    expect(r.events.at(-1)).toMatchObject({ outcome: 'waiting_on_person' });
    await ok(board.dir, ['approve', 'add-search/T1']);
    const again = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(again.events.at(-1)).toMatchObject({ outcome: 'finished', message: 'Change add-search is past implementation (it is at review), where this run was asked to stop.' });
    expect(again.events.filter((e) => e.type === 'invocation.started')).toEqual([]);
  });

  it('with --wait, go on when a person approves from another process', async () => {
    const board = await fakeBoard({ config: 'require_approval: [proposal]' });
    const live = startRun(board.dir, ['add-search', ...GOAL, '--wait', '--until', 'spec']);
    await until('the run to wait for a person', () => live.events.some((e) => e.type === 'waiting_on_person'));
    const approved = await cli(board.dir, ['approve', 'add-search', 'proposal', '--json']);
    expect(approved.json.data).toMatchObject({ status: 'approved', decided_by: 'human:tester' });
    expect(await live.done).toBe(0);
    const types = live.events.map((e) => e.type);
    expect(types.indexOf('person.decided')).toBeGreaterThan(types.indexOf('waiting_on_person'));
    // The decision made elsewhere is recorded as the board has it: who, and what.
    expect(live.events.find((e) => e.type === 'person.decided')).toMatchObject({ person: 'human:tester', subject: 'the proposal of add-search', decision: 'approve' });
    expect(live.events.filter((e) => e.type === 'phase.validated').map((e) => e.document)).toEqual(['proposal', 'spec']);
    expect(live.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
  });

  it('stop for a worker\'s question without counting it as an attempt, and give the answer to the worker\'s next turn on the task', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['ask', 'work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation', '--max-attempts', '1']);
    expect(r.code).toBe(0);
    const command = 'agentboard answer input-1 "<Ignore case | Match case, or your own answer>"';
    expect(r.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({ phase: 'implementation', subject: 'the question input-1 of fake-w1', commands: [command] });
    expect(r.events.filter((e) => e.type === 'task.attempt_failed' || e.type === 'task.released' && e.reason.includes('did not finish'))).toEqual([]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'waiting_on_person', exit_code: 0 });
    expect(r.events.at(-1).next_steps).toEqual([command, 'agentboard run add-search   # then go on (or run with --wait to have it go on by itself)']);

    await ok(board.dir, ['answer', 'input-1', 'Match case']);
    const again = run(board.dir, ['add-search', '--until', 'implementation', '--max-attempts', '1']);
    expect(again.events.find((e) => e.type === 'task.done')).toMatchObject({ task_id: 'add-search/T1', status: 'done' });
    const text = prompt(board.dir, runIds(board.dir)[1]!, 1);
    expect(text).toContain("## Questions asked about this task, and a person's answers (follow them)");
    expect(text).toContain('- fake-w1 asked (input-1): Should the search ignore case?\n  human:tester answered: Match case');
    expect(agentInvocations(board).map((i) => i.action)).toEqual(['ask', 'work']);
  });

  it('with --wait, wait for the answer to a worker\'s question, then go on with it', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['ask', 'work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const live = startRun(board.dir, ['add-search', '--until', 'implementation', '--wait', '--max-attempts', '1']);
    await until('the run to wait for the answer', () => live.events.some((e) => e.type === 'waiting_on_person'));
    await ok(board.dir, ['answer', 'input-1', 'Ignore case']);
    expect(await live.done).toBe(0);
    expect(live.events.find((e) => e.type === 'notice' && e.message.startsWith('input-1'))).toMatchObject({ message: 'input-1: human:tester answered: Ignore case.' });
    expect(live.events.find((e) => e.type === 'task.done')).toMatchObject({ task_id: 'add-search/T1', attempt: 1 });
    expect(prompt(board.dir, runIds(board.dir)[0]!, 2)).toContain('human:tester answered: Ignore case');
  });

  it('offer the person\'s decision when interrupted while waiting for it, and what a reviewed change waits for past --until', async () => {
    const board = await fakeBoard({ config: 'require_approval: [proposal]' });
    const live = startRun(board.dir, ['add-search', ...GOAL, '--wait']);
    await until('the run to wait for a person', () => live.events.some((e) => e.type === 'waiting_on_person'));
    live.child.kill('SIGINT');
    expect(await live.done).toBe(130);
    expect(live.events.at(-1)).toMatchObject({ outcome: 'interrupted' });
    expect(live.events.at(-1).next_steps).toEqual(['agentboard approve add-search proposal', 'agentboard reject add-search proposal --feedback "<what must change>"', 'agentboard run add-search   # go on where it stopped']);

    const done = await fakeBoard({ scenario: { review: ['approved'] } });
    await changeWithTasks(done.dir, 'add-search', [{ title: 'Index the titles' }]);
    expect(run(done.dir, ['add-search']).events.at(-1)).toMatchObject({ outcome: 'finished', next_steps: ['agentboard approve add-search review', 'agentboard archive add-search'] });
    const past = run(done.dir, ['add-search', '--until', 'spec']);
    expect(past.events.at(-1)).toMatchObject({ outcome: 'finished', message: 'Change add-search is past spec (it is at done), where this run was asked to stop.', next_steps: ['agentboard approve add-search review', 'agentboard archive add-search'] });
  });
  it('wait on a person for a worker\'s blocker, with its reason, use no attempt on it, and give the next turn how it was cleared', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['block', 'work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const reason = 'The API key for the search service is missing; a person must add it.';
    const unblock = 'agentboard task unblock add-search/T1 --note "<how the blocker was resolved>"';
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(0);
    expect(r.events.filter((e) => e.type === 'task.attempt_failed' || e.type === 'task.released')).toEqual([]);
    expect(r.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({ subject: 'task add-search/T1', reason: `fake-w1 reported it blocked: "${reason}" (high)` });
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'waiting_on_person', exit_code: 0 });
    expect(r.events.at(-1).message).toContain(reason);
    expect(r.events.at(-1).next_steps).toEqual([unblock, 'agentboard release add-search/T1   # or put it back to todo for any worker', 'agentboard run add-search   # then go on (or run with --wait to have it go on by itself)']);
    expect((await ok(board.dir, ['task', 'show', 'add-search/T1'])).task).toMatchObject({ status: 'blocked', assignee: 'fake-w1', blockers: [expect.objectContaining({ reason })] });

    const live = startRun(board.dir, ['add-search', '--until', 'implementation', '--wait']);
    await until('the run to wait for the blocker', () => live.events.some((e) => e.type === 'waiting_on_person'));
    await ok(board.dir, ['task', 'unblock', 'add-search/T1', '--note', 'Added the key to .env.']);
    expect(await live.done).toBe(0);
    expect(live.events.find((e) => e.type === 'task.done')).toMatchObject({ task_id: 'add-search/T1', attempt: 1 });
    const text = prompt(board.dir, runIds(board.dir)[1]!, 1);
    expect(text).toContain(`## Blockers reported on this task, and how they were cleared\n\n- fake-w1 reported (high): ${reason}\n  human:tester cleared it: Added the key to .env.`);
    expect(agentInvocations(board).map((i) => i.action)).toEqual(['block', 'work']);
  });

  it('keep a task its worker reported blocked waiting for a person while that worker goes on with another task', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['block', 'work'], '*': ['work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Query the index' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '1']);
    expect(r.code).toBe(0);
    expect(r.events.filter((e) => e.type === 'task.released')).toEqual([]);
    expect(r.events.filter((e) => e.type === 'task.done').map((e) => e.task_id)).toEqual(['add-search/T2']);
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'waiting_on_person' });
    expect(r.events.at(-1).next_steps[0]).toBe('agentboard task unblock add-search/T1 --note "<how the blocker was resolved>"');
    expect((await ok(board.dir, ['task', 'show', 'add-search/T1'])).task).toMatchObject({ status: 'blocked', assignee: 'fake-w1' });
  });

  it('take back a task a worker of an earlier run still holds once a person cleared its blocker, though this run has fewer workers', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T2: ['block', 'work'], '*': ['work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Query the index' }]);
    const first = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '2']);
    expect(first.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'waiting_on_person' });
    expect((await ok(board.dir, ['task', 'show', 'add-search/T2'])).task).toMatchObject({ status: 'blocked', assignee: 'fake-w2' });
    await ok(board.dir, ['task', 'unblock', 'add-search/T2', '--note', 'Added the key to .env.']);
    // One worker now: fake-w2 is not of this run, and no run of the change is going.
    const again = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '1']);
    expect(again.events.find((e) => e.type === 'task.released' && e.task_id === 'add-search/T2')?.reason).toMatch(/^run \S+ ended and left it claimed; released by run /);
    // This run's worker takes it up (the scripted agent then reports its own blocker: its first turn on the task).
    expect(again.events.filter((e) => e.type === 'task.claimed').map((e) => [e.task_id, e.agent_id])).toEqual([['add-search/T2', 'fake-w1']]);
    expect(again.events.some((e) => e.type === 'invocation.started' && e.task_id === 'add-search/T2' && e.agent_id === 'fake-w1')).toBe(true);
  });

  it('hand a task back to its own worker once a person cleared its blocker during a --wait run, though another worker found nothing to do', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T2: ['block', 'work'], '*': ['work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Query the index' }, { title: 'Show the results', depends: ['T1', 'T2'] }]);
    const live = startRun(board.dir, ['add-search', '--until', 'implementation', '--workers', '2', '--wait']);
    await until('the run to wait for the blocker', () => live.events.some((e) => e.type === 'waiting_on_person'));
    await ok(board.dir, ['task', 'unblock', 'add-search/T2', '--note', 'Added the key to .env.']);
    expect(await live.done).toBe(0);
    expect(live.events.filter((e) => e.type === 'task.done').map((e) => [e.task_id, e.agent_id])).toEqual([['add-search/T1', 'fake-w1'], ['add-search/T2', 'fake-w2'], ['add-search/T3', expect.any(String)]]);
    expect(live.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
  });

  it('say how to take back a task an agent outside the run holds while the run waits for it, and go on when that agent finishes it', async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Query the index' }]);
    expect((await ok(board.dir, ['next', '--change', 'add-search', '--as', 'outsider'])).task.task_id).toBe('add-search/T1');
    const live = startRun(board.dir, ['add-search', '--until', 'implementation', '--workers', '1']);
    await until('the run to wait for the outside claim', () => live.events.some((e) => e.type === 'notice' && e.message.startsWith('Waiting for tasks')));
    expect(live.events.find((e) => e.type === 'notice' && e.message.startsWith('Waiting for tasks')).message).toBe('Waiting for tasks other agents hold: add-search/T1 (outsider). The run goes on when they finish them, and stops once a claim is left idle for 120 minutes (stale_claim_minutes). If one is gone, take its task back: agentboard release add-search/T1');
    await ok(board.dir, ['task', 'done', 'add-search/T1', '--as', 'outsider']);
    expect(await live.done).toBe(0);
    expect(live.events.filter((e) => e.type === 'task.done').map((e) => e.task_id)).toEqual(['add-search/T2']);
    expect(live.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
  });

  it('tie a question to the task it was asked on: a task finished after it holds nothing up, and the next task is not waited on', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['ask_then_work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Query the index', depends: ['T1'] }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(0);
    expect(r.events.filter((e) => e.type === 'waiting_on_person' || e.type === 'task.released')).toEqual([]);
    expect(r.events.filter((e) => e.type === 'task.done').map((e) => e.task_id)).toEqual(['add-search/T1', 'add-search/T2']);
    expect(r.events.find((e) => e.type === 'notice' && e.message.includes('input-1')).message).toContain('fake-w1 asked input-1 while working on add-search/T1, then finished the task');
    expect(r.events.at(-1)).toMatchObject({ outcome: 'finished' });
  });

  it('wait for a question about a task whoever asked it: the answer reaches the next worker of the task under another name', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    await ok(board.dir, ['next', '--as', 'fake-w1.alpha']);
    await ok(board.dir, ['ask', '--as', 'fake-w1.alpha', '--question', 'Should the search ignore case?', '--default-action', 'Ignore case.', '--timeout-minutes', '60']);
    await ok(board.dir, ['release', 'add-search/T1']);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({ subject: 'the question input-1 of fake-w1.alpha', reason: expect.stringContaining('while working on add-search/T1') });
    expect(r.events.at(-1)).toMatchObject({ outcome: 'waiting_on_person' });
    expect(agentInvocations(board)).toEqual([]);
    await ok(board.dir, ['answer', 'input-1', 'Match case']);
    const again = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(again.events.find((e) => e.type === 'task.done')).toMatchObject({ task_id: 'add-search/T1', agent_id: 'fake-w1' });
    expect(prompt(board.dir, runIds(board.dir)[1]!, 1)).toContain('- fake-w1.alpha asked (input-1): Should the search ignore case?\n  human:tester answered: Match case');
  });
});

describe('questions of the planner and the reviewer', () => {
  const answer = 'agentboard answer input-1 "<Cover tags | Leave tags out, or your own answer>"';
  const goOn = 'agentboard run add-search   # then go on (or run with --wait to have it go on by itself)';

  it('stop for a planner\'s question without spending an attempt, and give the answer to the phase\'s next prompt', async () => {
    const board = await fakeBoard({ scenario: { proposal: ['ask', 'valid'] } });
    const r = run(board.dir, ['add-search', ...GOAL, '--until', 'proposal', '--max-attempts', '1']);
    expect(r.code).toBe(0);
    expect(r.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({
      phase: 'proposal',
      subject: 'the question input-1 of fake-planner',
      reason: expect.stringContaining('fake-planner asked it while working on the proposal of add-search: "Should the proposal cover searching by tag?"'),
      commands: [answer],
    });
    expect(r.events.filter((e) => e.type === 'phase.refused')).toEqual([]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'waiting_on_person', exit_code: 0, invocations: 1, next_steps: [answer, goOn] });
    expect(r.events.at(-1).message).toMatch(/it does what it said it would: Leave tags out\.$/);
    const first = runIds(board.dir)[0]!;
    expect(runRecord(board.dir, first)).toMatchObject({ outcome: 'waiting_on_person', invocations: 1 });
    expect(prompt(board.dir, first, 1)).not.toContain('## Questions asked about the proposal');

    await ok(board.dir, ['answer', 'input-1', 'Cover tags']);
    const again = run(board.dir, ['add-search', '--until', 'proposal', '--max-attempts', '1']);
    expect(again.events.find((e) => e.type === 'phase.validated')).toMatchObject({ document: 'proposal', attempt: 1 });
    expect(again.events.at(-1)).toMatchObject({ outcome: 'finished' });
    const text = prompt(board.dir, runIds(board.dir)[1]!, 1);
    expect(text).toContain("## Questions asked about the proposal, and a person's answers (follow them)\n\n- fake-planner asked (input-1): Should the proposal cover searching by tag?\n  human:tester answered: Cover tags");
    expect(agentInvocations(board).map((i) => [i.env.AGENTBOARD_PHASE, i.action])).toEqual([['proposal', 'ask'], ['proposal', 'valid']]);
  });

  it('with --wait, wait for the answer to a planner\'s question, give it to the next turn, and keep it to its phase', async () => {
    const board = await fakeBoard({ scenario: { spec: ['ask', 'valid'] } });
    const live = startRun(board.dir, ['add-search', ...GOAL, '--until', 'spec', '--wait', '--max-attempts', '1']);
    await until('the run to wait for the answer', () => live.events.some((e) => e.type === 'waiting_on_person'));
    expect(live.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({ phase: 'spec', subject: 'the question input-1 of fake-planner', commands: [answer] });
    await ok(board.dir, ['answer', 'input-1', 'Leave tags out']);
    expect(await live.done).toBe(0);
    expect(live.events.find((e) => e.type === 'notice' && e.message.startsWith('input-1'))).toMatchObject({ message: 'input-1: human:tester answered: Leave tags out.' });
    expect(live.events.filter((e) => e.type === 'phase.refused')).toEqual([]);
    expect(live.events.filter((e) => e.type === 'phase.validated').map((e) => [e.document, e.attempt])).toEqual([['proposal', 1], ['spec', 1]]);
    const id = runIds(board.dir)[0]!;
    // Invocations: the proposal, the spec's question, the spec.
    expect(prompt(board.dir, id, 3)).toContain('- fake-planner asked (input-1): Should the spec cover searching by tag?\n  human:tester answered: Leave tags out');
    expect(prompt(board.dir, id, 1)).not.toContain('input-1');
  });

  it('stop for a reviewer\'s question without spending an attempt, and give the answer to its next review prompt', async () => {
    const board = await fakeBoard({ scenario: { review: ['ask', 'approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--max-attempts', '1']);
    expect(r.code).toBe(0);
    expect(r.events.find((e) => e.type === 'waiting_on_person')).toMatchObject({
      phase: 'review',
      subject: 'the question input-1 of fake-reviewer',
      reason: expect.stringContaining('fake-reviewer asked it while working on the review of add-search: "Should the review cover searching by tag?"'),
      commands: [answer],
    });
    expect(r.events.filter((e) => e.type === 'phase.refused')).toEqual([]);
    expect(r.events.at(-1)).toMatchObject({ outcome: 'waiting_on_person', next_steps: [answer, goOn] });

    await ok(board.dir, ['answer', 'input-1', 'Cover tags']);
    const again = run(board.dir, ['add-search', '--max-attempts', '1']);
    expect(again.events.find((e) => e.type === 'phase.validated')).toMatchObject({ document: 'review', verdict: 'APPROVED', attempt: 1 });
    expect(again.events.at(-1)).toMatchObject({ outcome: 'finished' });
    expect(prompt(board.dir, runIds(board.dir)[1]!, 1)).toContain("## Questions asked about the review, and a person's answers (follow them)\n\n- fake-reviewer asked (input-1): Should the review cover searching by tag?\n  human:tester answered: Cover tags");
  });
});
