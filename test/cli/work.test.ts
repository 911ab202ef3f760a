import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, read, snapshot, SPEC_MD, WHY, write } from '../helpers.js';

describe('isolation', () => {
  it('agent B cannot change, complete, note or delete agent A\'s claimed task', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'iso', [{ title: 'Mine' }, { title: 'Other' }]);
    expect((await ok(dir, ['next', '--as', 'agent-a'])).task.task_id).toBe('iso/T1');
    const before = read(dir, 'agentd/changes/iso/tasks.md');
    const snap = snapshot(dir);
    const attempts = [
      ['task', 'update', 'iso/T1', '--title', 'Stolen'],
      ['task', 'done', 'iso/T1'],
      ['task', 'rm', 'iso/T1'],
      ['task', 'note', 'iso/T1', 'mine now'],
      ['task', 'progress', 'iso/T1', '--percent', '50', '--message', 'm'],
      ['task', 'block', 'iso/T1', '--reason', 'r'],
      ['task', 'unblock', 'iso/T1'],
    ];
    for (const args of attempts) {
      const r = await cli(dir, [...args, '--as', 'agent-b', '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error.code, args.join(' ')).toBe('TASK_HELD');
      expect(r.json.error.message).toContain('held by agent-a');
      // A note waits for the holder to finish, and says how to see when; the rest send the agent to work of its own.
      if (args[1] === 'note') expect(r.json.error.next_step).toBe('Add your note once agent-a has finished it (`agentboard task show iso/T1` says when), or, if it cannot wait, ask a person with `agentboard ask --as agent-b` giving `--question` and `--default-action`. If the holder is gone, a person can release the task with `agentboard release iso/T1`.');
      else expect(r.json.error.next_step).toContain('agentboard next');
    }
    expect(read(dir, 'agentd/changes/iso/tasks.md')).toBe(before);
    expect(snapshot(dir)).toEqual(snap);
    // a person may step in, and says so in the log
    await ok(dir, ['release', 'iso/T1']);
    expect((await ok(dir, ['next', '--as', 'agent-b'])).task.task_id).toBe('iso/T1');
  });
});

describe('a task its agent reported blocked', () => {
  it('is named with every task the agent is given or holds meanwhile, with the way back to it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'held', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'held/T1', '--as', 'codex', '--reason', 'No key for the API.']);
    const also = ' You also hold held/T1, blocked: once its blocker is resolved, finish this task, then clear it with `agentboard task unblock held/T1 --as codex` before you ask for more work.';
    const given = await ok(dir, ['next', '--as', 'codex']);
    expect(given.task.task_id).toBe('held/T2');
    expect(given.message.endsWith(also)).toBe(true);
    expect((await ok(dir, ['next', '--as', 'codex'])).message.endsWith(also)).toBe(true);
    // Between two tasks, the way back is open.
    await ok(dir, ['task', 'done', 'held/T2', '--as', 'codex']);
    expect((await ok(dir, ['task', 'unblock', 'held/T1', '--as', 'codex'])).task.status).toBe('in_progress');
    expect((await ok(dir, ['next', '--as', 'codex'])).message).not.toContain('You also hold');
  });
});

describe('a task a person releases', () => {
  it('is ready only when its change hands out work: not while the change\'s proposal is rejected', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'held-back', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['reject', 'held-back', 'proposal', '--feedback', 'Not now: the why is not clear enough.']);
    const released = await ok(dir, ['release', 'held-back/T1']);
    expect([released.task.status, released.task.ready]).toEqual(['todo', false]);
    expect((await ok(dir, ['task', 'list', '--change', 'held-back'])).tasks[0].ready).toBe(false);
  });
});

describe('writing documents and planning', () => {
  it('is work: a registered planner or reviewer moves from started to working on the way, both moves recorded, and may then complete', async () => {
    const dir = await newBoard();
    for (const agent of ['pl', 'rv']) await ok(dir, ['agent', 'register', '--as', agent, '--name', agent, '--role', 'planning']);
    await ok(dir, ['propose', 'planned', '--as', 'pl', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', 'n']);
    const planner = await ok(dir, ['session', 'show', '--as', 'pl']);
    expect([planner.status, planner.history.map((h: { from: string | null; to: string }) => [h.from, h.to])]).toEqual(['working', [[null, 'started'], ['started', 'working']]]);
    expect((await ok(dir, ['session', 'status', 'completed', '--as', 'pl', '--message', 'Planned.'])).status).toBe('completed');
    await changeWithTasks(dir, 'reviewed', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'reviewed/T1', '--as', 'codex']);
    await ok(dir, ['review', 'reviewed', '--as', 'rv', '--verdict', 'APPROVED', '--summary', 'Fine.', '--notes', 'n']);
    expect((await ok(dir, ['session', 'show', '--as', 'rv'])).status).toBe('working');
  });
});

describe('task progress', () => {
  it('takes a percent, a message, both or neither (seed 004): a message alone keeps the last percent, and each report is stamped', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'prog', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    const progress = async (...args: string[]) => {
      await ok(dir, ['task', 'progress', 'prog/T1', '--as', 'codex', ...args]);
      const task = (await ok(dir, ['task', 'show', 'prog/T1'])).task;
      return [task.progress, task.progress_message];
    };
    expect(await progress('--percent', '40')).toEqual([40, null]);
    expect(await progress('--message', 'Parser done; the writer is next.')).toEqual([40, 'Parser done; the writer is next.']);
    expect(await progress()).toEqual([40, null]);
    expect(read(dir, 'agentd/changes/prog/tasks.md')).toContain('progress: 40');
    const log = read(dir, 'agentd/.runtime/activity.jsonl').trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.action === 'task.progress').map((e) => e.summary);
    expect(log).toEqual(['prog/T1 at 40%', 'prog/T1 at 40%: Parser done; the writer is next.', 'prog/T1 at 40%']);
  });
});

describe('next', () => {
  it("names the task's change by its proposal's title, as show does, when the proposal has one", async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'titled', '--as', 'planner', '--title', 'MCP task tools — five tools with user isolation ✓', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', 'n']);
    await ok(dir, ['spec', 'titled', '--as', 'planner', '--from', write(dir, 'titled-spec.md', SPEC_MD), '--notes', 'n']);
    await ok(dir, ['tasks', 'titled', '--as', 'planner', '--input', write(dir, 'titled-tasks.json', JSON.stringify({ tasks: [{ title: 'One' }], notes: 'n' }))]);
    const given = await ok(dir, ['next', '--as', 'codex']);
    expect(given.context.change_title).toBe('MCP task tools — five tools with user isolation ✓');
    expect((await ok(dir, ['next', '--as', 'codex'])).context.change_title).toBe((await ok(dir, ['show', 'titled'])).title);
  });

  it('resumes, reports work awaiting review, and carries rejection feedback to the next agent', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'flow', [{ title: 'Build', priority: 'high' }, { title: 'Test', depends: ['T1'] }]);
    const first = await ok(dir, ['next', '--as', 'codex']);
    expect(first).toMatchObject({ status: 'assigned', task: { task_id: 'flow/T1', status: 'in_progress', assignee: 'codex' } });
    expect(first.context.requirements.map((r: any) => r.id)).toEqual(['R1', 'R2']);
    // The change is named as `show` names it, not by its spec's heading.
    expect(first.context.change_title).toBe((await ok(dir, ['show', 'flow'])).title);
    expect(await ok(dir, ['next', '--as', 'codex'])).toMatchObject({ status: 'resumed', task: { task_id: 'flow/T1' } });

    const submitted = await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Built it', '--task', 'flow/T1', '--pr-url', 'https://example.com/pr/1']);
    expect(submitted).toMatchObject({ status: 'awaiting_review', tasks_in_review: ['flow/T1'] });
    const waiting = await ok(dir, ['next', '--as', 'codex']);
    expect(waiting.status).toBe('awaiting_review');
    expect(waiting.awaiting_review).toEqual([{ kind: 'task', id: 'flow/T1', since: expect.any(String) }]);
    expect(waiting.task).toBeNull();

    const agentApprove = await cli(dir, ['approve', 'flow/T1', '--as', 'codex', '--json']);
    expect(agentApprove.json.error.code).toBe('HUMAN_ONLY');
    await ok(dir, ['reject', 'flow/T1', '--feedback', 'Add error handling.']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');

    const second = await ok(dir, ['next', '--as', 'gemini']);
    expect(second.task.task_id).toBe('flow/T1');
    expect(second.context.feedback).toEqual([{ author: 'human:tester', at: expect.any(String), text: 'Add error handling.' }]);
    await ok(dir, ['session', 'submit', '--as', 'gemini', '--summary', 'With error handling', '--task', 'flow/T1']);
    await ok(dir, ['approve', 'flow/T1']);
    expect((await ok(dir, ['task', 'show', 'flow/T1'])).task).toMatchObject({ status: 'done', assignee: 'gemini' });
    expect((await ok(dir, ['session', 'show', '--as', 'gemini'])).status).toBe('completed');
    // a completed agent that asks for work starts its next session
    const third = await ok(dir, ['next', '--as', 'gemini']);
    expect(third.task.task_id).toBe('flow/T2');
    expect(await ok(dir, ['session', 'show', '--as', 'gemini'])).toMatchObject({ status: 'working', session: 2 });
  });

  it('finds the agent\'s own task in any list, however a person spelled the agent in it, before any urgent task elsewhere', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'first', [{ title: 'Urgent', priority: 'urgent' }]);
    await changeWithTasks(dir, 'second', [{ title: 'Low', priority: 'low' }, { title: 'Also low', priority: 'low' }]);
    expect((await ok(dir, ['next', '--as', 'codex-2', '--change', 'second'])).task.task_id).toBe('second/T1');
    expect(await ok(dir, ['next', '--as', 'codex-2'])).toMatchObject({ status: 'resumed', task: { task_id: 'second/T1' } });
    // A person writes the assignee with an escape: the list no longer names the agent as it is.
    const tasks = 'agentd/changes/second/tasks.md';
    write(dir, tasks, read(dir, tasks).replace('assignee: codex-2', 'assignee: "codex\\u002d2"'));
    expect(read(dir, tasks)).not.toContain('codex-2');
    expect(await ok(dir, ['next', '--as', 'codex-2'])).toMatchObject({ status: 'resumed', task: { task_id: 'second/T1' } });
    // The same list as a clone brings it (no ledger: nothing tells it was edited).
    write(dir, tasks, read(dir, tasks).replace('assignee: codex-2', 'assignee: "codex\\u002d2"'));
    rmSync(join(dir, 'agentd/.runtime/ledger'), { recursive: true, force: true });
    expect(await ok(dir, ['next', '--as', 'codex-2'])).toMatchObject({ status: 'resumed', task: { task_id: 'second/T1' } });
    expect((await ok(dir, ['next', '--as', 'gemini'])).task.task_id).toBe('first/T1');
  });

  it('prefers the agent\'s skills among tasks of the same priority', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'skills', [{ title: 'Docs', skills: ['docs'] }, { title: 'Schema', skills: ['sql'] }]);
    await ok(dir, ['agent', 'register', '--as', 'dba', '--name', 'DBA', '--role', 'Database', '--skills', 'sql']);
    // Registering again without skills keeps those registered before.
    expect((await ok(dir, ['agent', 'register', '--as', 'dba', '--name', 'DBA', '--role', 'Database administrator'])).agent).toMatchObject({ role: 'Database administrator', skills: ['sql'] });
    // Registering again as it is writes nothing: the call is idempotent.
    const before = snapshot(dir);
    expect((await ok(dir, ['agent', 'register', '--as', 'dba', '--name', 'DBA', '--role', 'Database administrator', '--skills', 'sql'])).agent).toMatchObject({ role: 'Database administrator', skills: ['sql'] });
    expect(snapshot(dir)).toEqual(before);
    expect((await ok(dir, ['next', '--as', 'dba'])).task.title).toBe('Schema');
  });

  it('hands a rejected document back to the pool with its feedback', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'docs-pool', [{ title: 'One' }]);
    await ok(dir, ['reject', 'docs-pool', 'spec', '--feedback', 'Add a scenario for errors.']);
    const r = await ok(dir, ['next', '--as', 'fixer']);
    expect(r.status).toBe('revise_document');
    expect(r.document).toMatchObject({ change_id: 'docs-pool', document: 'spec', feedback: [{ text: 'Add a scenario for errors.' }] });
    const other = await cli(dir, ['spec', 'docs-pool', '--as', 'someone-else', '--from', write(dir, 's.md', read(dir, 'agentd/changes/docs-pool/spec.md')), '--notes', 'n', '--json']);
    expect(other.json.error.code).toBe('DOCUMENT_HELD');
    const again = await ok(dir, ['spec', 'docs-pool', '--as', 'fixer', '--from', write(dir, 's.md', read(dir, 'agentd/changes/docs-pool/spec.md')), '--notes', 'Addressed rejection feedback: added an error scenario.']);
    expect(again).toMatchObject({ status: 'submitted', revision: 2, author: 'fixer' });
  });
});

describe('task tools (seed 003)', () => {
  it('add, list, update, done (idempotent), delete, with their limits', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'crud', [{ title: 'First' }]);
    const added = await ok(dir, ['task', 'add', 'crud', '--as', 'codex', '--title', 'Second', '--description', 'Do it.', '--priority', 'urgent', '--skills', 'x']);
    expect(added.task).toMatchObject({ task_id: 'crud/T2', status: 'todo', priority: 'urgent' });
    expect((await ok(dir, ['task', 'list', '--status', 'pending'])).total).toBe(2);
    const none = await cli(dir, ['task', 'update', 'crud/T2', '--as', 'codex', '--json']);
    expect(none.json.error.message).toContain('at least one field');
    await ok(dir, ['task', 'update', 'crud/T2', '--as', 'codex', '--title', 'Second, renamed']);
    const done = await ok(dir, ['task', 'done', 'crud/T2', '--as', 'codex']);
    expect(done).toMatchObject({ changed: true, task: { status: 'done', assignee: 'codex' } });
    const before = read(dir, 'agentd/changes/crud/tasks.md');
    expect(await ok(dir, ['task', 'done', 'crud/T2', '--as', 'codex'])).toMatchObject({ changed: false, task: { status: 'done' } });
    expect(read(dir, 'agentd/changes/crud/tasks.md')).toBe(before);
    // A note comes once, however often the same call is made again (a client retrying it); another note is added.
    for (let i = 0; i < 3; i++) await ok(dir, ['task', 'done', 'crud/T2', '--as', 'codex', '--note', 'Renamed it as asked.']);
    await ok(dir, ['task', 'done', 'crud/T2', '--as', 'codex', '--note', 'One more thing.']);
    expect((await ok(dir, ['task', 'show', 'crud/T2'])).task.notes.map((n: any) => n.text)).toEqual(['Renamed it as asked.', 'One more thing.']);
    expect((await ok(dir, ['log', '--actor', 'codex'])).entries.filter((e: any) => e.action === 'task.note')).toHaveLength(2);
    const noted = read(dir, 'agentd/changes/crud/tasks.md');
    expect(await ok(dir, ['task', 'done', 'crud/T2', '--as', 'codex', '--note', 'One more thing.'])).toMatchObject({ changed: false });
    expect(read(dir, 'agentd/changes/crud/tasks.md')).toBe(noted);
    expect((await ok(dir, ['task', 'list', '--status', 'completed'])).tasks.map((t: any) => t.task_id)).toEqual(['crud/T2']);
    // A done task is the record of the work: its agent does not delete it; a person may.
    const kept = await cli(dir, ['task', 'rm', 'crud/T2', '--as', 'codex', '--json']);
    expect(kept.json.error).toMatchObject({ code: 'TASK_NOT_READY', message: expect.stringMatching(/^Task crud\/T2 is done: you completed it at \S+\. A done task stays as it is, so you cannot delete it\.$/) });
    expect(read(dir, 'agentd/changes/crud/tasks.md')).toBe(noted);
    await ok(dir, ['task', 'rm', 'crud/T2']);
    const gone = await cli(dir, ['task', 'show', 'crud/T2', '--json']);
    expect(gone.json.error).toMatchObject({ code: 'TASK_NOT_FOUND', message: 'Task crud/T2 does not exist.' });
  });

  it('refuses a move the table does not allow, listing the allowed ones', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'moves', [{ title: 'Only' }]);
    await ok(dir, ['next', '--as', 'codex']);
    const r = await cli(dir, ['task', 'update', 'moves/T1', '--as', 'codex', '--status', 'todo', '--json']);
    expect(r.json.error.code).toBe('INVALID_TRANSITION');
    expect(r.json.error.next_step).toBe(
      'A person moves it to todo with `agentboard release moves/T1`; you can move it to done with `agentboard task done moves/T1 --as codex`, or blocked with `agentboard task block moves/T1 --as codex` giving `--reason`, or in_review with `agentboard session submit --task moves/T1 --as codex` giving `--summary`.',
    );
    // A blocked task is completed after its blocker is cleared: the step names both commands.
    await ok(dir, ['task', 'block', 'moves/T1', '--as', 'codex', '--reason', 'No data']);
    const before = read(dir, 'agentd/changes/moves/tasks.md');
    const done = await cli(dir, ['task', 'done', 'moves/T1', '--as', 'codex', '--json']);
    expect(done.code).toBe(1);
    expect(done.json.error).toMatchObject({
      code: 'INVALID_TRANSITION',
      next_step: 'Move it to in_progress with `agentboard task unblock moves/T1 --as codex` first, then to done with `agentboard task done moves/T1 --as codex`.',
    });
    expect(read(dir, 'agentd/changes/moves/tasks.md')).toBe(before);
  });

  it('block, unblock, progress and notes are recorded with their author', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'report', [{ title: 'Only' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'report/T1', '--as', 'codex', '--reason', 'The API key is missing', '--severity', 'high']);
    expect((await ok(dir, ['status'])).totals.blocked).toBe(1);
    await ok(dir, ['task', 'unblock', 'report/T1', '--as', 'codex', '--note', 'A person added the key']);
    await ok(dir, ['task', 'progress', 'report/T1', '--as', 'codex', '--percent', '70', '--message', 'Almost']);
    const t = (await ok(dir, ['task', 'show', 'report/T1'])).task;
    expect(t.blockers).toEqual([{ reason: 'The API key is missing', severity: 'high', by: 'codex', at: expect.any(String), resolved_by: 'codex', resolved_at: expect.any(String) }]);
    expect(t).toMatchObject({ status: 'in_progress', progress: 70, progress_message: 'Almost' });
    expect(t.notes[0]).toMatchObject({ author: 'codex', text: 'A person added the key' });
  });
});

describe('sessions and input requests (seed 002)', () => {
  it('ask, answer, and the agent reads the answer', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ask', [{ title: 'Only' }]);
    // a session that only started asks by way of working: seed 002's started → working → awaiting_input, each move recorded
    await ok(dir, ['agent', 'register', '--as', 'codex', '--name', 'C', '--role', 'dev']);
    const asked = await ok(dir, ['ask', '--as', 'codex', '--question', 'REST or GraphQL?', '--option', 'REST', '--option', 'GraphQL', '--default-action', 'REST']);
    expect(asked.input_id).toBe('input-1');
    const second = await cli(dir, ['ask', '--as', 'codex', '--question', 'Another?', '--default-action', 'x', '--json']);
    expect(second.json.error.code).toBe('INPUT_ALREADY_OPEN');
    expect((await ok(dir, ['inputs'])).inputs.map((i: any) => i.input_id)).toEqual(['input-1']);
    expect((await ok(dir, ['status'])).open_inputs).toHaveLength(1);
    const byAgent = await cli(dir, ['answer', 'input-1', 'REST', '--as', 'codex', '--json']);
    expect(byAgent.json.error.code).toBe('HUMAN_ONLY');
    await ok(dir, ['answer', 'input-1', 'GraphQL, the client already speaks it']);
    const state = await ok(dir, ['session', 'show', '--as', 'codex']);
    expect(state.status).toBe('working');
    expect(state.history.map((h: any) => h.to)).toEqual(['started', 'working', 'awaiting_input', 'working']);
    expect(state.awaiting_input).toBeNull();
    // its last word is the answer now, not the question it asked
    expect(state.message).toBe('answered: GraphQL, the client already speaks it');
    expect(state.resolutions[0]).toMatchObject({ input_id: 'input-1', resolution: { type: 'human', by: 'human:tester', value: 'GraphQL, the client already speaks it' } });
    expect((await cli(dir, ['answer', 'input-1', 'again', '--json'])).json.error.code).toBe('INPUT_RESOLVED');
  });

  it("the person's answer says where the agent stands: working again, or, having moved on, where it reads the answer", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'asked', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'gemini']);
    await ok(dir, ['ask', '--as', 'gemini', '--question', 'REST or RPC?', '--default-action', 'REST']);
    await ok(dir, ['session', 'submit', '--as', 'gemini', '--summary', 'Done.', '--task', 'asked/T1']);
    const answered = await cli(dir, ['answer', 'input-1', 'Use REST']);
    expect(answered.stdout).toBe('Answered input-1; gemini is awaiting review, and reads the answer with `agentboard session show --as gemini`.\n');
  });

  it('an agent that goes on working while its question is open, or while blocked, is working again; the question stays open for the person', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'onward', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['ask', '--as', 'codex', '--question', 'Tabs or spaces?', '--default-action', 'spaces']);
    await ok(dir, ['task', 'progress', 'onward/T1', '--as', 'codex', '--percent', '30', '--message', 'Indented with spaces for now']);
    let state = await ok(dir, ['session', 'show', '--as', 'codex']);
    expect(state.status).toBe('working');
    expect(state.history.map((h: any) => [h.to, h.message ?? null])).toEqual([
      ['started', null],
      ['working', null],
      ['awaiting_input', 'Tabs or spaces?'],
      ['working', 'went on working while awaiting input (report progress on onward/T1)'],
    ]);
    expect(state.awaiting_input).toMatchObject({ input_id: 'input-1', question: 'Tabs or spaces?' });
    expect((await ok(dir, ['inputs'])).inputs.map((i: any) => i.input_id)).toEqual(['input-1']);
    // the answer still reaches the agent, and its session stays working
    expect((await ok(dir, ['answer', 'input-1', 'tabs'])).agent_status).toBe('working');
    state = await ok(dir, ['session', 'show', '--as', 'codex']);
    expect(state.status).toBe('working');
    expect(state.awaiting_input).toBeNull();
    expect(state.resolutions[0]).toMatchObject({ input_id: 'input-1', resolution: { value: 'tabs' } });
    // blocked, it finishes its task anyway
    await ok(dir, ['session', 'block', '--as', 'codex', '--reason', 'The linter config is missing']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('blocked');
    await ok(dir, ['task', 'done', 'onward/T1', '--as', 'codex']);
    state = await ok(dir, ['session', 'show', '--as', 'codex']);
    expect(state.status).toBe('working');
    expect(state.history.at(-1)).toMatchObject({ from: 'blocked', to: 'working', message: 'went on working while blocked (complete onward/T1)' });
    // and asks for its next task
    await ok(dir, ['session', 'block', '--as', 'codex', '--reason', 'Waiting on the linter again']);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('onward/T2');
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).history.at(-1)).toMatchObject({ from: 'blocked', to: 'working', message: 'went on working while blocked (claim onward/T2)' });
  });

  it('resolve to the default action after the timeout, on read and by expire', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'late', [{ title: 'Only' }]);
    await ok(dir, ['next', '--as', 'codex']);
    const asked = await ok(dir, ['ask', '--as', 'codex', '--question', 'Ship it?', '--default-action', 'Ship on Monday', '--timeout-minutes', '120']);
    const tooLong = await cli(dir, ['ask', '--as', 'codex', '--question', 'q', '--default-action', 'd', '--timeout-minutes', '121', '--json']);
    expect(tooLong.json.error.code).toBe('INVALID_INPUT');
    const later = { AGENTBOARD_TEST_NOW: new Date(Date.parse(asked.expires_at) + 10_000).toISOString() };
    const read1 = (await cli(dir, ['session', 'show', '--as', 'codex', '--json'], { env: later })).json.data;
    expect(read1.status).toBe('working');
    expect(read1.resolutions[0].resolution).toEqual({ type: 'timeout', value: 'Ship on Monday', by: 'agentboard', at: asked.expires_at });
    const expired = (await cli(dir, ['expire', '--json'], { env: later })).json.data.expired;
    expect(expired.map((i: any) => i.input_id)).toEqual([asked.input_id]);
    expect((await cli(dir, ['expire', '--json'], { env: later })).json.data.expired).toEqual([]);
    const log = await ok(dir, ['log', '--actor', 'agentboard']);
    expect(log.entries[0].action).toBe('input.expire');
  });

  it('refuses transitions seed 002 does not allow', async () => {
    const dir = await newBoard();
    await ok(dir, ['session', 'status', 'working', '--as', 'codex', '--message', 'starting']);
    await ok(dir, ['session', 'block', '--as', 'codex', '--reason', 'No database', '--blocker', 'DATABASE_URL unset']);
    const r = await cli(dir, ['session', 'status', 'completed', '--as', 'codex', '--message', 'done', '--json']);
    expect(r.json.error.code).toBe('INVALID_TRANSITION');
    expect(r.json.error.next_step).toContain('From blocked you can go to working (`agentboard session status working --as codex` giving `--message`)');
    const state = await ok(dir, ['session', 'show', '--as', 'codex']);
    expect(state).toMatchObject({ status: 'blocked', reason: 'No database', blockers: ['DATABASE_URL unset'] });
    const human = await cli(dir, ['session', 'status', 'working', '--message', 'm', '--json']);
    expect(human.json.error.message).toContain('names a person');
    // Submitting goes by way of working: what blocked the agent goes with the blocked state.
    const submitted = await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Done anyway', '--pr-url', 'https://example.com/pr/1']);
    expect(submitted).toMatchObject({ status: 'awaiting_review', reason: null, blockers: [] });
    expect(await ok(dir, ['session', 'show', '--as', 'codex'])).toMatchObject({ status: 'awaiting_review', reason: null, blockers: [] });
  });
});

describe('reviewer agents', () => {
  it('correct a submitted document with a valid key; approve stays with people', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rev', [{ title: 'One' }]);
    const key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
    expect(key).toMatch(/^abrk_/);
    const state = read(dir, 'agentd/.runtime/state.json');
    expect(state).not.toContain(key);
    expect((await cli(dir, ['reviewer', 'add', 'doc-reviewer', '--json'])).json.error.code).toBe('REVIEWER_EXISTS');

    await ok(dir, ['review-request', 'rev', 'spec']);
    expect((await ok(dir, ['docs', '--awaiting', 'review'])).documents.map((d: any) => `${d.change_id}/${d.document}`)).toEqual(['rev/spec']);

    const spec = read(dir, 'agentd/changes/rev/spec.md').replace('hands each one to exactly one agent at a time.', 'hands each one to exactly one agent at a time, and records who has it.');
    const file = write(dir, 'corrected.md', spec);
    const standard = await cli(dir, ['spec', 'rev', '--as', 'codex', '--from', file, '--notes', 'n', '--json']);
    expect(standard.json.error.code).toBe('DOCUMENT_SUBMITTED');
    const wrongKey = await cli(dir, ['correct', 'rev', 'spec', '--as', 'reviewer-1', '--review-key', 'abrk_wrong', '--from', file, '--notes', 'n', '--json']);
    expect(wrongKey.json.error.code).toBe('REVIEW_KEY_INVALID');
    const corrected = await ok(dir, ['correct', 'rev', 'spec', '--as', 'reviewer-1', '--review-key', key, '--from', file, '--notes', 'Made the overview say that claims are recorded.']);
    expect(corrected).toMatchObject({ status: 'submitted', corrected_by: 'reviewer-1 (reviewer doc-reviewer)', author: 'planner', revision: 2 });
    expect(read(dir, 'agentd/changes/rev/spec.md')).toContain('and records who has it.');
    const doc = await ok(dir, ['show', 'rev', 'spec']);
    expect(doc).toMatchObject({ status: 'submitted', corrected_by: 'reviewer-1 (reviewer doc-reviewer)' });
    expect((await cli(dir, ['approve', 'rev', 'spec', '--as', 'reviewer-1', '--json'])).json.error.code).toBe('HUMAN_ONLY');
    expect((await ok(dir, ['approve', 'rev', 'spec'])).status).toBe('approved');
  });
});

describe('agents (seed 004) and the log', () => {
  it('show current task, completed count, last seen and workflow status', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'team', [{ title: 'A' }, { title: 'B' }, { title: 'C' }]);
    await ok(dir, ['agent', 'register', '--as', 'backend-1', '--name', 'Backend', '--role', 'Backend Developer', '--skills', 'python,sql']);
    await ok(dir, ['next', '--as', 'backend-1']);
    await ok(dir, ['task', 'done', 'team/T1', '--as', 'backend-1']);
    await ok(dir, ['next', '--as', 'backend-1']);
    await ok(dir, ['next', '--as', 'drifter']);
    // an agent that only asked a question holds no task, and is an agent of the board all the same
    await ok(dir, ['ask', '--as', 'asker', '--question', 'Which database?', '--default-action', 'sqlite']);
    const me = await ok(dir, ['agent', 'show', 'backend-1']);
    expect(me).toMatchObject({ agent_id: 'backend-1', registered: true, role: 'Backend Developer', skills: ['python', 'sql'], completed_tasks: 1, current_task: { task_id: 'team/T2' }, workflow_status: 'working' });
    expect(me.last_seen).toEqual(expect.any(String));
    const all = await ok(dir, ['agent', 'list']);
    expect(all.agents.map((a: any) => [a.agent_id, a.registered, a.workflow_status])).toEqual([['asker', false, 'awaiting_input'], ['backend-1', true, 'working'], ['drifter', false, 'working'], ['planner', false, 'working']]);
    expect((await cli(dir, ['agent', 'show', 'nobody', '--json'])).json.error.code).toBe('AGENT_NOT_FOUND');
    const log = await ok(dir, ['log', '--actor', 'backend-1']);
    expect(log.entries.map((e: any) => e.action)).toEqual(['task.claim', 'task.done', 'task.claim', 'agent.register']);
    expect((await ok(dir, ['log', '--since', '1h'])).total).toBeGreaterThan(4);
    expect((await cli(dir, ['log', '--since', 'yesterday-ish', '--json'])).json.error.code).toBe('INVALID_INPUT');
  });

  it('shows stale claims in status', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'stale', [{ title: 'Old' }]);
    await ok(dir, ['next', '--as', 'sleepy']);
    const later = { AGENTBOARD_TEST_NOW: new Date(Date.now() + 3 * 3600_000).toISOString() };
    const status = (await cli(dir, ['status', '--json'], { env: later })).json.data;
    expect(status.stale_claims).toEqual([expect.objectContaining({ task_id: 'stale/T1', assignee: 'sleepy' })]);
    expect(status.stale_claims[0].idle_minutes).toBeGreaterThanOrEqual(179);
  });
});

describe("a person's move of a submitted task", () => {
  it('settles the submitting agent\'s session as approve and reject do', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rev', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Built it', '--task', 'rev/T1']);
    await ok(dir, ['task', 'done', 'rev/T1']);
    expect((await ok(dir, ['task', 'show', 'rev/T1'])).task).toMatchObject({ status: 'done', assignee: 'codex' });
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('completed');
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('rev/T2');

    await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Built two', '--task', 'rev/T2']);
    await ok(dir, ['task', 'update', 'rev/T2', '--status', 'todo']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('rev/T2');
  });

  it('rejected by a person, tells its agent which task came back and why, in its workflow state', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'back', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Built it', '--task', 'back/T1']);
    await ok(dir, ['reject', 'back/T1', '--feedback', 'The error table misses TASK_NOT_FOUND: add it.']);
    expect(await ok(dir, ['session', 'show', '--as', 'codex'])).toMatchObject({ status: 'working', message: 'back/T1 was sent back to the pool: The error table misses TASK_NOT_FOUND: add it.' });
  });

  it('released or deleted while in review, sends the agent back to work: next hands it work again', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'gone', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Built one', '--task', 'gone/T1']);
    expect((await ok(dir, ['release', 'gone/T1'])).released_from).toBe('codex');
    expect(await ok(dir, ['session', 'show', '--as', 'codex'])).toMatchObject({ status: 'working', message: 'submitted work was sent back' });
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('gone/T1');

    await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Built one again', '--task', 'gone/T1']);
    expect((await ok(dir, ['task', 'rm', 'gone/T1'])).deleted).toBe(true);
    expect(await ok(dir, ['session', 'show', '--as', 'codex'])).toMatchObject({ status: 'working', message: 'submitted work was sent back' });
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('gone/T2');
  });
});

describe('work submitted without naming tasks', () => {
  it('keeps next from handing out more until the agent reports the review over', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'pull', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'pull/T1', '--as', 'codex']);
    await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'All of it', '--pr-url', 'https://example.com/pull/9']);
    const waiting = await ok(dir, ['next', '--as', 'codex']);
    expect(waiting.status).toBe('awaiting_review');
    expect(waiting.awaiting_review).toEqual([{ kind: 'submission', id: 'https://example.com/pull/9', since: expect.any(String) }]);
    expect(waiting.message).toContain('agentboard session status');
    await ok(dir, ['session', 'status', 'working', '--as', 'codex', '--message', 'Review done; next task']);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('pull/T2');
  });
});

describe('work that would be stranded', () => {
  it('refuses a submit that leaves a held task in progress, naming the call that includes it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'sub', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    // An agent holds two tasks in progress when it took one while its first was blocked, and a person then cleared that blocker.
    await ok(dir, ['task', 'block', 'sub/T1', '--as', 'codex', '--reason', 'No key']);
    // reporting progress on a free task takes it, under the same claim rules as next
    await ok(dir, ['task', 'progress', 'sub/T2', '--as', 'codex', '--percent', '10', '--message', 'Started']);
    await ok(dir, ['task', 'unblock', 'sub/T1']);
    expect((await ok(dir, ['task', 'show', 'sub/T1'])).task).toMatchObject({ status: 'in_progress', assignee: 'codex' });
    const before = snapshot(dir);
    const r = await cli(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Half', '--task', 'sub/T1', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('TASK_IN_PROGRESS');
    expect(r.json.error.message).toContain('You hold sub/T2 in progress');
    // The exact call: this one with the task it left out, its summary repeated.
    expect(r.json.error.next_step).toContain('`agentboard session submit --task sub/T1 --task sub/T2 --summary Half --as codex`');
    expect(r.json.error.next_step).toContain('`agentboard task done sub/T2 --as codex`');
    expect(snapshot(dir)).toEqual(before);
    const both = await ok(dir, ['session', 'submit', '--as', 'codex', '--summary', 'All', '--task', 'sub/T1', '--task', 'sub/T2']);
    expect(both.tasks_in_review).toEqual(['sub/T1', 'sub/T2']);
  });

  it('refuses completed while the agent holds a task in progress, naming it and the calls that finish it, and writes nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'fin', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    const before = snapshot(dir);
    const r = await cli(dir, ['session', 'status', 'completed', '--as', 'codex', '--message', 'All done', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({
      code: 'TASK_IN_PROGRESS',
      message: 'You hold fin/T1 in progress; completing now would leave it in progress with nobody working on it.',
      next_step: 'Finish first with `agentboard task done fin/T1 --as codex`, or submit the work with `agentboard session submit --task fin/T1 --as codex` giving `--summary`; if you cannot go on, say why with `agentboard task block fin/T1 --as codex` giving `--reason`.',
    });
    expect(snapshot(dir)).toEqual(before);
    await ok(dir, ['task', 'done', 'fin/T1', '--as', 'codex']);
    expect((await ok(dir, ['session', 'status', 'completed', '--as', 'codex', '--message', 'All done'])).status).toBe('completed');
  });

  it('an agent that unblocks its task is working again, from a blocked or completed session alike', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'unb', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'unb/T1', '--reason', 'Needs a key', '--as', 'codex']);
    await ok(dir, ['session', 'block', '--reason', 'Needs a key', '--as', 'codex']);
    await ok(dir, ['task', 'unblock', 'unb/T1', '--as', 'codex']);
    expect(await ok(dir, ['session', 'show', '--as', 'codex'])).toMatchObject({ status: 'working', session: 1 });
    await ok(dir, ['task', 'block', 'unb/T1', '--reason', 'Needs a key', '--as', 'codex']);
    await ok(dir, ['session', 'status', 'completed', '--message', 'Stopping here', '--as', 'codex']);
    await ok(dir, ['task', 'unblock', 'unb/T1', '--as', 'codex']);
    expect(await ok(dir, ['session', 'show', '--as', 'codex'])).toMatchObject({ status: 'working', session: 2 });
    expect((await ok(dir, ['task', 'show', 'unb/T1'])).task).toMatchObject({ status: 'in_progress', assignee: 'codex' });
  });

  it('an agent whose completed session holds a task a person unblocked is working again once next resumes it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'back', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'back/T1', '--reason', 'Needs a key', '--as', 'codex']);
    await ok(dir, ['session', 'status', 'completed', '--message', 'Nothing more I can do', '--as', 'codex']);
    await ok(dir, ['task', 'unblock', 'back/T1']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('completed');
    expect(await ok(dir, ['next', '--as', 'codex'])).toMatchObject({ status: 'resumed', task: { task_id: 'back/T1' } });
    expect(await ok(dir, ['session', 'show', '--as', 'codex'])).toMatchObject({ status: 'working', session: 2 });
  });

  it('an agent that unblocks its task while its other work awaits review is working, and the approval does not complete it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rev', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'rev/T1', '--reason', 'Needs a key', '--as', 'codex']);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('rev/T2');
    await ok(dir, ['session', 'submit', '--task', 'rev/T2', '--summary', 'Did two', '--as', 'codex']);
    await ok(dir, ['task', 'unblock', 'rev/T1', '--as', 'codex']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
    await ok(dir, ['approve', 'rev/T2']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
    expect(await ok(dir, ['next', '--as', 'codex'])).toMatchObject({ status: 'resumed', task: { task_id: 'rev/T1' } });
  });

  it('taking a blocked task back up with task update is unblocking it: one task in progress at a time, and the session follows', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'upd', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'upd/T1', '--reason', 'Needs a key', '--as', 'codex']);
    await ok(dir, ['next', '--as', 'codex']);
    const before = snapshot(dir);
    const r = await cli(dir, ['task', 'update', 'upd/T1', '--status', 'in_progress', '--as', 'codex', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({
      code: 'TASK_IN_PROGRESS',
      message: 'You are working on upd/T2; an agent works on one task at a time, so upd/T1 stays blocked for now.',
      next_step: 'Finish upd/T2 first with `agentboard task done upd/T2 --as codex` (or report it blocked with `agentboard task block upd/T2 --as codex` giving `--reason`), then unblock upd/T1 with `agentboard task unblock upd/T1 --as codex`.',
    });
    expect(snapshot(dir)).toEqual(before);
    await ok(dir, ['session', 'submit', '--task', 'upd/T2', '--summary', 'Did two', '--as', 'codex']);
    await ok(dir, ['task', 'update', 'upd/T1', '--status', 'in_progress', '--as', 'codex']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
    await ok(dir, ['approve', 'upd/T2']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
  });

  it('approving the last submitted task of an agent whose blocked task a person cleared leaves it working, not completed', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'per', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'per/T1', '--reason', 'Needs a key', '--as', 'codex']);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['session', 'submit', '--task', 'per/T2', '--summary', 'Did two', '--as', 'codex']);
    await ok(dir, ['task', 'unblock', 'per/T1']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('awaiting_review');
    await ok(dir, ['approve', 'per/T2']);
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
    expect((await ok(dir, ['task', 'show', 'per/T1'])).task).toMatchObject({ status: 'in_progress', assignee: 'codex' });
  });

  it('refuses a submission naming a task twice, or naming nothing to review, and changes nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'sub', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    const before = snapshot(dir);
    const twice = await cli(dir, ['session', 'submit', '--as', 'codex', '--summary', 'Done', '--task', 'sub/T1', '--task', 'sub/T1', '--json']);
    expect(twice.code).toBe(2);
    expect(twice.json.error).toMatchObject({ code: 'INVALID_INPUT', message: 'Invalid input: --task names "sub/T1" more than once; name each once.' });
    const empty = await cli(dir, ['session', 'submit', '--as', 'idle', '--summary', 'Nothing much', '--json']);
    expect(empty.code).toBe(2);
    expect(empty.json.error).toMatchObject({ code: 'INVALID_INPUT', message: 'Nothing to review: the submission names no task and no pull request, so a person would have nothing to check while you wait.' });
    expect(empty.json.error.next_step).toBe('Name what a person should check in `agentboard session submit --as idle` giving `--summary`: the tasks this work completes, or its pull request. With nothing to submit, go on with `agentboard next --as idle`.');
    expect(snapshot(dir)).toEqual(before);
    // The agent was not put to wait for a review: it still gets work.
    expect(await ok(dir, ['next', '--as', 'idle'])).toMatchObject({ status: 'assigned', task: { task_id: 'sub/T2' } });
    // A pull request alone is something to review.
    expect((await ok(dir, ['session', 'submit', '--as', 'docs', '--summary', 'Docs', '--pr-url', 'https://example.com/pull/3'])).status).toBe('awaiting_review');
  });

  it('tells an agent whose own task is blocked how to clear it when nothing else is available', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'blk', [{ title: 'Only' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'block', 'blk/T1', '--as', 'codex', '--reason', 'No key']);
    const next = await ok(dir, ['next', '--as', 'codex']);
    expect(next.status).toBe('nothing_available');
    expect(next.message).toContain('your task blk/T1 is blocked');
    expect(next.message).toContain('`agentboard task unblock blk/T1 --as codex`');
  });
});
