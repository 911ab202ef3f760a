/**
 * A document submitted again (DOCUMENT_SUBMITTED) is answered with what happens next on this board:
 * a person's decision only where config.yaml requires their approval of that document; else the
 * change has moved on, and the next step is the change's next one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, newBoard, ok, snapshot, tempDir, WHY } from '../helpers.js';
import { stdioServer } from './helpers.js';

const NOTES = 'No additional notes: straightforward, nothing unexpected.';
const PROPOSAL = { why: WHY, what_changes: 'A feature.', impact: 'Small.', notes: NOTES };
const SPEC = {
  overview: 'The change the tests submit twice, to hear what the board says happens next.',
  requirements: [{ id: 'R1', title: 'Works', text: 'The feature MUST work.' }],
  scenarios: [{ name: 'It works', when: 'the feature is used', then: 'it works' }],
  notes: NOTES,
};

/** A real `agentboard mcp` (profile agent unless given) on the board, initialized, its calls made as `agent`. */
async function server(dir: string, profile = 'agent', agent = 'planner-2') {
  const s = stdioServer(process.execPath, [BIN, 'mcp', '--profile', profile, '--root', dir], { env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') } });
  await s.initialize();
  /** A tool call's answer on the wire: its error (parsed from its text), or its structuredContent. */
  const call = async (name: string, args: object): Promise<{ error?: { code: string; message: string; next_step: string }; data?: any }> => {
    const r = await s.request('tools/call', { name, arguments: { agent_id: agent, ...args } });
    expect(r.error, JSON.stringify(r)).toBeUndefined();
    return r.result.isError ? { error: JSON.parse(r.result.content[0].text).error } : { data: r.result.structuredContent };
  };
  return { call, close: s.close };
}

function requireApproval(dir: string, ...phases: string[]): void {
  writeFileSync(join(dir, 'agentd/config.yaml'), `require_approval: [${phases.join(', ')}]\n`);
}

describe('a proposal submitted again', () => {
  it('on a board that requires no approval: the change has moved on, and the next step writes its spec, which the board takes', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'moved', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
    const mcp = await server(dir);
    const before = snapshot(dir);
    const { error } = await mcp.call('agentboard_submit_proposal', { change_id: 'moved', ...PROPOSAL });
    expect(snapshot(dir)).toEqual(before);
    expect(error).toEqual({
      code: 'DOCUMENT_SUBMITTED',
      message: "This proposal has already been submitted. This board requires no person's approval of it, so nothing waits on it: moved has moved on to its spec phase (waiting on the spec to be written).",
      next_step: 'Write its spec with agentboard_create_spec {"agent_id":"planner-2","change_id":"moved"} giving overview, requirements, scenarios and notes, or find other work with agentboard_get_next_task {"agent_id":"planner-2"}. Should a person reject the proposal, it comes back to be revised.',
    });
    expect(`${error!.message} ${error!.next_step}`).not.toMatch(/awaiting review|person decides|approves or rejects/);
    const spec = await mcp.call('agentboard_create_spec', { change_id: 'moved', ...SPEC });
    expect(spec.error).toBeUndefined();
    expect(spec.data).toMatchObject({ document: 'spec', status: 'submitted', phase: 'tasks' });
    expect(await mcp.close()).toBe(0);
  });

  it("on a board that requires a person's approval of proposals: a person decides on it now", async () => {
    const dir = await newBoard();
    requireApproval(dir, 'proposal');
    await ok(dir, ['propose', 'held', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
    const mcp = await server(dir);
    const { error } = await mcp.call('agentboard_submit_proposal', { change_id: 'held', ...PROPOSAL });
    expect(error).toEqual({
      code: 'DOCUMENT_SUBMITTED',
      message: "This proposal has already been submitted and is awaiting review: this board requires a person's approval of it.",
      next_step: 'A person approves or rejects it now; meanwhile find other work with agentboard_get_next_task {"agent_id":"planner-2"}.',
    });
    expect(await mcp.close()).toBe(0);
  });

  it('on a board that requires approval of specs only: the change waits on the spec, and the step sends nobody to write it again', async () => {
    const dir = await newBoard();
    requireApproval(dir, 'spec');
    await ok(dir, ['propose', 'specs', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
    const mcp = await server(dir);
    expect((await mcp.call('agentboard_create_spec', { change_id: 'specs', ...SPEC })).data).toMatchObject({ phase: 'spec' });
    const proposal = await mcp.call('agentboard_submit_proposal', { change_id: 'specs', ...PROPOSAL });
    expect(proposal.error).toEqual({
      code: 'DOCUMENT_SUBMITTED',
      message: "This proposal has already been submitted. This board requires no person's approval of it, so nothing waits on it: specs has moved on to its spec phase (waiting on a person to approve the spec).",
      next_step: 'See where it stands with agentboard_list_changes, or find other work with agentboard_get_next_task {"agent_id":"planner-2"}. Should a person reject the proposal, it comes back to be revised.',
    });
    const spec = await mcp.call('agentboard_create_spec', { change_id: 'specs', ...SPEC });
    expect(spec.error).toMatchObject({ code: 'DOCUMENT_SUBMITTED', message: "This spec has already been submitted and is awaiting review: this board requires a person's approval of it." });
    expect(await mcp.close()).toBe(0);
  });
});

describe('a task list submitted again on a board that requires no approval', () => {
  it('sends the agent to work on the tasks', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'working', [{ title: 'One' }, { title: 'Two' }]);
    const mcp = await server(dir);
    const { error } = await mcp.call('agentboard_create_tasks', { change_id: 'working', tasks: [{ title: 'One' }], notes: NOTES });
    expect(error).toEqual({
      code: 'DOCUMENT_SUBMITTED',
      message: "This task list has already been submitted. This board requires no person's approval of it, so nothing waits on it: working has moved on to its implementation phase (waiting on 2 of 2 tasks to be done).",
      next_step: 'Work on its tasks with agentboard_get_next_task {"agent_id":"planner-2","change_id":"working"}. Should a person reject the task list, it comes back to be revised.',
    });
    expect(await mcp.close()).toBe(0);
  });

  it("sends the list's writer to change it task by task, with the tools of a planner", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'planned', [{ title: 'One' }, { title: 'Two' }]);
    const mcp = await server(dir, 'planner', 'planner');
    const { error } = await mcp.call('agentboard_create_tasks', { change_id: 'planned', tasks: [{ title: 'One' }], notes: NOTES });
    expect(error!.next_step).toBe(
      'To change the plan, add a task with agentboard_add_task {"agent_id":"planner","change_id":"planned"} giving title, change one with agentboard_update_task {"agent_id":"planner","task_id":"planned/T1"} or delete one with agentboard_delete_task {"agent_id":"planner","task_id":"planned/T1"} (tasks nobody works on yet). Should a person reject the task list, it comes back to be revised.',
    );
    expect(await mcp.close()).toBe(0);
  });
});
