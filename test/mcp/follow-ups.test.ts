/**
 * What an agent hears after a call, through a real `agentboard mcp` on stdio: the step that follows
 * names tools of its own profile with real ids (never a command line, never a tool it lacks), and
 * one answer says everything the call needs to hear.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, newBoard, ok, snapshot, SPEC_MD, tempDir, WHY, write } from '../helpers.js';
import { stdioServer } from './helpers.js';

const NOTES = 'No additional notes: straightforward, nothing unexpected.';

/** A real `agentboard mcp --profile <profile>` on the board, its calls made as `agent`; `tools` are the names its tools/list gives. */
async function server(dir: string, profile: string, agent: string) {
  const s = stdioServer(process.execPath, [BIN, 'mcp', '--profile', profile, '--root', dir], { env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') } });
  await s.initialize();
  const tools: string[] = (await s.request('tools/list')).result.tools.map((t: { name: string }) => t.name);
  /** A tool call's answer on the wire: its error (parsed from its text), or its structuredContent and text. */
  const call = async (name: string, args: object): Promise<{ error?: { code: string; message: string; next_step: string }; data?: any; text?: string }> => {
    const r = await s.request('tools/call', { name, arguments: { agent_id: agent, ...args } });
    expect(r.error, JSON.stringify(r)).toBeUndefined();
    if (r.result.isError) return { error: JSON.parse(r.result.content[0].text).error };
    return { data: r.result.structuredContent, text: r.result.content.map((c: { text: string }) => c.text).join('\n') };
  };
  return { call, tools, close: s.close };
}

/** The tools a text names. */
const named = (text: string) => [...text.matchAll(/agentboard_[a-z_]+/g)].map((m) => m[0]);

describe('a task list submitted again by a planner that did not write it', () => {
  it('on the planner profile: names the tools of a planner with the change, never a command line', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'theirs', [{ title: 'One' }, { title: 'Two' }], 'writer');
    const mcp = await server(dir, 'planner', 'other');
    const before = snapshot(dir);
    const { error } = await mcp.call('agentboard_create_tasks', { change_id: 'theirs', tasks: [{ title: 'One' }], notes: NOTES });
    expect(snapshot(dir)).toEqual(before);
    expect(error!.code).toBe('DOCUMENT_SUBMITTED');
    expect(error!.next_step).not.toContain('command line');
    expect(named(error!.next_step).filter((t) => !mcp.tools.includes(t))).toEqual([]);
    expect(error!.next_step).toBe(
      'writer wrote the task list of theirs, and its tasks go to workers now: see them with agentboard_list_tasks {"change_id":"theirs"}, add one the plan lacks with agentboard_add_task {"agent_id":"other","change_id":"theirs"} giving title, or find other work with agentboard_list_changes. Should a person reject the task list, it comes back to be revised.',
    );
    // The step, followed, is taken.
    const added = await mcp.call('agentboard_add_task', { change_id: 'theirs', title: 'Three' });
    expect(added.data).toMatchObject({ task: { task_id: 'theirs/T3', status: 'todo' } });
    expect(await mcp.close()).toBe(0);
  });

  it("on the agent profile: the list's writer, without a planner's task tools, is sent to work on the tasks, not to a command line", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'mine', [{ title: 'One' }, { title: 'Two' }], 'writer');
    const mcp = await server(dir, 'agent', 'writer');
    const { error } = await mcp.call('agentboard_create_tasks', { change_id: 'mine', tasks: [{ title: 'One' }], notes: NOTES });
    expect(error!.code).toBe('DOCUMENT_SUBMITTED');
    expect(error!.next_step).not.toContain('command line');
    expect(named(error!.next_step).filter((t) => !mcp.tools.includes(t))).toEqual([]);
    expect(error!.next_step).toBe('Work on its tasks with agentboard_get_next_task {"agent_id":"writer","change_id":"mine"}. Should a person reject the task list, it comes back to be revised.');
    expect(await mcp.close()).toBe(0);
  });
});

describe('complete_task while the agent still holds a blocked task', () => {
  it('reminds it of the blocked task by its id, and how to take it up again', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'two', [{ title: 'One', priority: 'high' }, { title: 'Two' }]);
    const mcp = await server(dir, 'worker', 'w1');
    expect((await mcp.call('agentboard_get_next_task', {})).data.task.task_id).toBe('two/T1');
    await mcp.call('agentboard_report_blocker', { task_id: 'two/T1', reason: 'Waiting on the schema from a person.' });
    const next = await mcp.call('agentboard_get_next_task', {});
    expect(next.data.task.task_id).toBe('two/T2');
    expect(next.data.message).toContain('two/T1, blocked');
    const done = await mcp.call('agentboard_complete_task', { task_id: 'two/T2' });
    expect(done.data.task).toMatchObject({ task_id: 'two/T2', status: 'done' });
    expect(done.data.next_step).toBe(
      'You still hold two/T1, blocked: once its blocker is resolved, clear it with agentboard_clear_blocker {"agent_id":"w1","task_id":"two/T1"} and carry on with it; until then, get other work with agentboard_get_next_task {"agent_id":"w1"}.',
    );
    expect(done.text).toContain(done.data.next_step);
    // Without a blocked task, nothing more is said.
    await mcp.call('agentboard_clear_blocker', { task_id: 'two/T1' });
    const last = await mcp.call('agentboard_complete_task', { task_id: 'two/T1' });
    expect(last.data.task.status).toBe('done');
    expect(last.data.next_step).toBeUndefined();
    expect(await mcp.close()).toBe(0);
  });
});

describe('add_task with a bad field and a missing dependency', () => {
  it('says both in one answer, and writes nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'deps', [{ title: 'One' }]);
    const mcp = await server(dir, 'planner', 'planner');
    const before = snapshot(dir);
    const { error } = await mcp.call('agentboard_add_task', { change_id: 'deps', title: 'x'.repeat(201), depends: ['T1', 'T9'] });
    expect(snapshot(dir)).toEqual(before);
    expect(error!.code).toBe('INVALID_INPUT');
    expect(error!.message).toBe('Invalid input: title has 201 characters; at most 200 are allowed; depends names T9, which is not a task of deps.');
    // Fixed as told, the call is taken.
    const fixed = await mcp.call('agentboard_add_task', { change_id: 'deps', title: 'Two', depends: ['T1'] });
    expect(fixed.data).toMatchObject({ task: { task_id: 'deps/T2', depends: ['T1'] } });
    expect(await mcp.close()).toBe(0);
  });
});

describe('a task a person rejected', () => {
  async function rejected() {
    const dir = await newBoard();
    await changeWithTasks(dir, 'back', [{ title: 'Urgent one', priority: 'urgent' }, { title: 'Rejected one', priority: 'low' }]);
    const author = await server(dir, 'worker', 'author');
    const other = await server(dir, 'worker', 'other');
    // other takes the urgent task; author takes the other one, submits it, and a person sends it back.
    expect((await other.call('agentboard_get_next_task', {})).data.task.task_id).toBe('back/T1');
    expect((await author.call('agentboard_get_next_task', {})).data.task.task_id).toBe('back/T2');
    await author.call('agentboard_submit_for_review', { summary: 'Done.', tasks: ['back/T2'] });
    await ok(dir, ['reject', 'back/T2', '--feedback', 'Handle the empty list.']);
    // A ready task better than the rejected one, for whoever asks.
    await ok(dir, ['task', 'add', 'back', '--as', 'writer', '--title', 'High one', '--priority', 'high']);
    return { dir, author, other };
  }

  it('goes to its author first when it asks, with the feedback; its "sent back" message is then cleared', async () => {
    const { dir, author, other } = await rejected();
    expect((await author.call('agentboard_get_workflow_state', {})).data.message).toBe('back/T2 was sent back to the pool: Handle the empty list.');
    const again = await author.call('agentboard_get_next_task', {});
    expect(again.data).toMatchObject({ status: 'assigned', task: { task_id: 'back/T2', assignee: 'author' } });
    expect(again.data.context.feedback).toEqual([{ author: 'human:tester', at: expect.any(String), text: 'Handle the empty list.' }]);
    expect(again.data.message).toContain('back/T2');
    const state = await author.call('agentboard_get_workflow_state', {});
    expect(state.data.status).toBe('working');
    expect(state.data.message).toBeNull();
    expect(JSON.parse(readFileSync(join(dir, 'agentd/.runtime/state.json'), 'utf8')).sessions.author.message ?? '').not.toContain('sent back');
    await author.close();
    await other.close();
  });

  it('goes to another agent when its author does not come back', async () => {
    const { author, other } = await rejected();
    await other.call('agentboard_complete_task', { task_id: 'back/T1' });
    expect((await other.call('agentboard_get_next_task', {})).data.task.task_id).toBe('back/T3');
    await other.call('agentboard_complete_task', { task_id: 'back/T3' });
    const taken = await other.call('agentboard_get_next_task', {});
    expect(taken.data).toMatchObject({ status: 'assigned', task: { task_id: 'back/T2', assignee: 'other' } });
    // Its author, asking now, is not given it: another holds it.
    expect((await author.call('agentboard_get_next_task', {})).data.status).toBe('nothing_available');
    await author.close();
    await other.close();
  });

  it("clears its author's \"sent back\" message once the author completes other work", async () => {
    const { dir, author, other } = await rejected();
    // The author finishes the task the other agent let go of (a person released it) instead.
    await ok(dir, ['release', 'back/T1']);
    await author.call('agentboard_complete_task', { task_id: 'back/T1' });
    const state = await author.call('agentboard_get_workflow_state', {});
    expect(state.data.message ?? '').not.toContain('sent back');
    await author.close();
    await other.close();
  });
});

describe('get_workflow_state for an agent with no session', () => {
  it('says it has no session yet, and the tool of its profile that starts one', async () => {
    const dir = await newBoard();
    for (const profile of ['worker', 'planner', 'reviewer', 'agent']) {
      const agent = `new-${profile}`;
      const mcp = await server(dir, profile, agent);
      const { data, text } = await mcp.call('agentboard_get_workflow_state', {});
      expect(data.session).toBe(0);
      expect(data.message).toBe(`${agent} has no session yet: it starts one by registering with agentboard_register_agent {"agent_id":"${agent}"} giving name and role, or with its first call that does work.`);
      expect(text).toBe(`${data.message}\n`);
      expect(named(`${data.message} ${text}`).filter((t) => !mcp.tools.includes(t))).toEqual([]);
      // Read only: the read opened no session. Followed, the step starts one.
      const state = join(dir, 'agentd/.runtime/state.json');
      expect(existsSync(state) ? JSON.parse(readFileSync(state, 'utf8')).sessions[agent] : undefined).toBeUndefined();
      await mcp.call('agentboard_register_agent', { name: 'Newcomer', role: 'Developer' });
      expect((await mcp.call('agentboard_get_workflow_state', {})).data).toMatchObject({ session: 1, status: 'started', message: null });
      expect(await mcp.close()).toBe(0);
    }
  });
});

describe('a call with many problems', () => {
  it('hears of every one in one answer, those of the document rules (a circle of dependencies) with the rest', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'many', '--as', 'planner', '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'No additional notes.']);
    await ok(dir, ['spec', 'many', '--as', 'planner', '--from', write(dir, 'many-spec.md', SPEC_MD), '--notes', 'No additional notes.']);
    const mcp = await server(dir, 'planner', 'planner');
    const before = snapshot(dir);
    // Thirty tasks that depend on tasks the list lacks, then two that depend on each other.
    const tasks = [
      ...Array.from({ length: 30 }, (_, i) => ({ id: `T${i + 1}`, title: `Task ${i + 1}`, depends: [`X${i}`] })),
      { id: 'T40', title: 'Forty', depends: ['T41'] },
      { id: 'T41', title: 'Forty-one', depends: ['T40'] },
    ];
    const { error } = await mcp.call('agentboard_create_tasks', { change_id: 'many', tasks, notes: NOTES });
    expect(snapshot(dir)).toEqual(before);
    expect(error!.code).toBe('VALIDATION_FAILED');
    for (let i = 0; i < 30; i++) expect(error!.message).toContain(`task T${i + 1} depends on X${i}`);
    expect(error!.message).toContain('T40 → T41 → T40 [tasks.depends.cycle]');
    expect(error!.message).not.toContain('more');
    // Schema problems too: every one of forty tasks without a title.
    const untitled = await mcp.call('agentboard_create_tasks', { change_id: 'many', tasks: Array.from({ length: 40 }, (_, i) => ({ id: `T${i + 1}` })), notes: NOTES });
    expect(untitled.error!.code).toBe('INVALID_INPUT');
    expect(untitled.error!.message).toContain('tasks[39].title');
    expect(untitled.error!.message).not.toContain('more');
    expect(await mcp.close()).toBe(0);
  });
});

describe('a step that names a call the agent makes next', () => {
  it('names the fields that call still needs, so that the call made as given, with them, is taken', async () => {
    const dir = await newBoard();
    const mcp = await server(dir, 'planner', 'b3');
    await mcp.call('agentboard_register_agent', { name: 'B3', role: 'Developer' });
    const { error } = await mcp.call('agentboard_mark_blocked', { reason: 'Stuck.' });
    expect(error!.code, JSON.stringify(error)).toBe('INVALID_TRANSITION');
    expect(error!.next_step).toBe('From started you can go to working (agentboard_update_status {"agent_id":"b3","status":"working"} giving message).');
    const step = /(agentboard_[a-z_]+) (\{[^}]*\}) giving ([a-z_]+)/.exec(error!.next_step)!;
    const followed = await mcp.call(step[1]!, { ...JSON.parse(step[2]!), [step[3]!]: 'Starting.' });
    expect(followed.error).toBeUndefined();
    expect(followed.data).toMatchObject({ status: 'working' });
    expect(await mcp.close()).toBe(0);
  });
});

describe('the history of a long session', () => {
  it('says at its end how many of the oldest moves are no longer kept, and where every move is read', async () => {
    const dir = await newBoard();
    const mcp = await server(dir, 'planner', 'long');
    await mcp.call('agentboard_register_agent', { name: 'Long', role: 'Planner' });
    await mcp.call('agentboard_update_status', { status: 'working', message: 'Starting.' });
    for (let i = 0; i < 30; i++) {
      await mcp.call('agentboard_mark_blocked', { reason: `Blocked ${i}.` });
      await mcp.call('agentboard_update_status', { status: 'working', message: `Going on ${i}.` });
    }
    // 62 moves: started, working, then thirty times blocked and working again.
    const { data } = await mcp.call('agentboard_get_session_history', { limit: 100 });
    expect(data.moves).toHaveLength(50);
    expect(data.has_more).toBe(false);
    expect(data.notice).toBe('The 12 oldest moves of this session are no longer kept here (the newest 50 are); the activity log has every move: agentboard_get_activity_log {"actor":"long"}.');
    const log = await mcp.call('agentboard_get_activity_log', { actor: 'long', limit: 100 });
    expect(log.data.entries.length).toBeGreaterThanOrEqual(62);
    // A page that is not the last says nothing of it.
    expect((await mcp.call('agentboard_get_session_history', { limit: 10 })).data.notice).toBeUndefined();
    expect(await mcp.close()).toBe(0);
  });
});
