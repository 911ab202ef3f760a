import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolOperations } from '../../src/mcp/server.js';
import { changeWithTasks, newBoard, ok, read, snapshot, SPEC_MD, WHY, write } from '../helpers.js';
import { connect } from './helpers.js';

const SPEC = {
  overview: 'The gamma change adds a small feature that the tests create through the MCP tools.',
  requirements: [{ id: 'R1', title: 'Works', text: 'The feature MUST work.' }],
  scenarios: [{ name: 'It works', when: 'the feature is used', then: 'it works' }],
};
const NOTES = 'No additional notes: straightforward, nothing unexpected.';

interface Case {
  ok: object;
  /** What a successful result must hold (checked against structuredContent). */
  expect?: (data: any, text: string) => void;
  bad: object;
  wrongAgent: object | 'no agent';
  wrongAgentCode?: string;
  notFound: object | 'no id';
}

/** The ids in a result an agent passes to its next call: task_id, change_id, input_id… of the result and of what it holds. */
function idsIn(value: unknown, depth = 0): string[] {
  if (value === null || typeof value !== 'object' || depth > 2) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    if (/^(task_id|change_id|input_id|agent_id|task_ids|tasks_in_review|next_cursor)$/.test(k)) return ([] as unknown[]).concat(v).filter((x): x is string => typeof x === 'string');
    return idsIn(v, depth + 1);
  });
}

let dir: string;
let key: string;

/** In the order they run: later cases rely on what earlier ones did. */
function cases(): Record<string, Case> {
  return {
    agentboard_list_changes: { ok: {}, expect: (d) => expect(d.changes.map((c: any) => c.change_id)).toContain('alpha'), bad: { limit: 0 }, wrongAgent: 'no agent', notFound: 'no id' },
    agentboard_get_change: { ok: { change_id: 'alpha' }, expect: (d) => expect(d.task_ids).toContain('alpha/T1'), bad: { change_id: '../x' }, wrongAgent: 'no agent', notFound: { change_id: 'no-such-change' } },
    agentboard_validate_change: { ok: { change_id: 'alpha' }, expect: (d) => expect(d.valid).toBe(true), bad: { strict: 'yes' }, wrongAgent: 'no agent', notFound: { change_id: 'no-such-change' } },
    agentboard_get_document: { ok: { change_id: 'alpha', document: 'spec', format: 'fields' }, expect: (d) => (expect(d.content.requirements[0].id).toBe('R1'), expect(d.markdown).toBeNull()), bad: { change_id: 'alpha', document: 'readme' }, wrongAgent: 'no agent', notFound: { change_id: 'beta', document: 'tasks' } },
    agentboard_list_documents: { ok: { change_id: 'alpha' }, expect: (d) => expect(d.total).toBe(3), bad: { awaiting: 'soon' }, wrongAgent: 'no agent', notFound: { change_id: 'no-such-change' } },
    agentboard_get_task: { ok: { task_id: 'alpha/T1' }, expect: (d, t) => (expect(d.held_by).toBe('owner'), expect(t).toContain('alpha/T1')), bad: { task_id: 'T1' }, wrongAgent: 'no agent', notFound: { task_id: 'alpha/T99' } },
    agentboard_list_tasks: { ok: { change_id: 'alpha', status: 'pending' }, expect: (d) => expect(d.tasks.every((t: any) => t.status === 'todo')).toBe(true), bad: { status: 'doing' }, wrongAgent: 'no agent', notFound: { change_id: 'no-such-change' } },
    agentboard_get_project_status: { ok: {}, expect: (d) => expect(d.totals.total).toBeGreaterThan(0), bad: { verbose: true }, wrongAgent: 'no agent', notFound: 'no id' },
    agentboard_list_agents: { ok: {}, expect: (d) => expect(d.agents.map((a: any) => a.agent_id)).toContain('owner'), bad: { limit: -1 }, wrongAgent: 'no agent', notFound: 'no id' },
    agentboard_get_agent_status: { ok: { agent_id: 'owner' }, expect: (d) => expect(d.current_task.task_id).toBe('alpha/T1'), bad: { agent_id: 'Owner!' }, wrongAgent: { agent_id: 'human:alice' }, wrongAgentCode: 'INVALID_INPUT', notFound: { agent_id: 'ghost' } },
    agentboard_get_activity_log: { ok: { change_id: 'alpha' }, expect: (d) => expect(d.total).toBeGreaterThan(0), bad: { since: 'the dawn of time' }, wrongAgent: 'no agent', notFound: 'no id' }, // a filter: a change with no entries has an empty log
    agentboard_list_inputs: { ok: { status: 'all' }, expect: (d) => expect(d.total).toBe(0), bad: { status: 'maybe' }, wrongAgent: 'no agent', notFound: 'no id' },
    agentboard_list_conflicts: { ok: {}, expect: (d) => expect(d).toMatchObject({ conflicts: [], hand_edited: [], total: 0, has_more: false }), bad: { file: 42 }, wrongAgent: 'no agent', notFound: 'no id' },
    agentboard_register_agent: { ok: { agent_id: 'worker-1', name: 'Worker', role: 'Developer', skills: ['ts'] }, expect: (d) => expect(d.agent.registered).toBe(true), bad: { agent_id: 'worker-1', name: 'W', role: 'D', skills: 'ts' }, wrongAgent: { agent_id: 'human:alice', name: 'A', role: 'R' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_get_session_history: { ok: { agent_id: 'owner' }, expect: (d, t) => (expect(d.moves.map((m: any) => m.to)).toEqual(['working', 'started']), expect(t).toContain('started → working')), bad: { agent_id: 'owner', limit: 0 }, wrongAgent: { agent_id: 'human:alice' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_get_workflow_state: { ok: { agent_id: 'owner' }, expect: (d) => expect(d.status).toBe('working'), bad: {}, wrongAgent: { agent_id: 'human:alice' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_create_change: { ok: { agent_id: 'planner', change_id: 'gamma', title: 'Gamma' }, expect: (d) => expect(d.change_id).toBe('gamma'), bad: { agent_id: 'planner', change_id: '..' }, wrongAgent: { agent_id: 'human:alice', change_id: 'delta' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_submit_proposal: { ok: { agent_id: 'planner', change_id: 'gamma', why: WHY, what_changes: 'A feature.', impact: 'Small.', notes: NOTES }, expect: (d) => expect(d.phase).toBe('spec'), bad: { agent_id: 'planner', change_id: 'gamma', why: 'Too short.', what_changes: 'x', impact: 'y', notes: NOTES }, wrongAgent: { agent_id: 'human:alice', change_id: 'gamma', why: WHY, what_changes: 'x', impact: 'y', notes: NOTES }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_create_spec: { ok: { agent_id: 'planner', change_id: 'gamma', ...SPEC, notes: NOTES }, expect: (d) => expect(d.phase).toBe('tasks'), bad: { agent_id: 'planner', change_id: 'gamma', ...SPEC, overview: 'Short.', notes: NOTES }, wrongAgent: { agent_id: 'human:alice', change_id: 'gamma', ...SPEC, notes: NOTES }, wrongAgentCode: 'INVALID_INPUT', notFound: { agent_id: 'planner', change_id: 'no-such-change', ...SPEC, notes: NOTES } },
    agentboard_create_tasks: { ok: { agent_id: 'planner', change_id: 'gamma', tasks: [{ title: 'Do it' }], notes: NOTES }, expect: (d) => expect(d.task_ids).toEqual(['gamma/T1']), bad: { agent_id: 'planner', change_id: 'gamma', tasks: [], notes: NOTES }, wrongAgent: { agent_id: 'human:alice', change_id: 'gamma', tasks: [{ title: 'x' }], notes: NOTES }, wrongAgentCode: 'INVALID_INPUT', notFound: { agent_id: 'planner', change_id: 'no-such-change', tasks: [{ title: 'x' }], notes: NOTES } },
    agentboard_create_review: { ok: { agent_id: 'critic', change_id: 'alpha', verdict: 'NEEDS_FIX', summary: 'Close.', issues: [{ title: 'Gap', severity: 'Medium', description: 'Missing a case.' }], notes: NOTES }, expect: (d) => expect(d).toMatchObject({ round: 1, verdict: 'NEEDS_FIX' }), bad: { agent_id: 'critic', change_id: 'alpha', verdict: 'LGTM', summary: 's', notes: NOTES }, wrongAgent: { agent_id: 'human:alice', change_id: 'alpha', verdict: 'APPROVED', summary: 's', notes: NOTES }, wrongAgentCode: 'INVALID_INPUT', notFound: { agent_id: 'critic', change_id: 'no-such-change', verdict: 'APPROVED', summary: 's', notes: NOTES } },
    agentboard_correct_document: {
      ok: {}, // filled in below: needs the review key
      expect: (d) => expect(d.corrected_by).toBe('rev-1 (reviewer doc-reviewer)'),
      bad: { agent_id: 'rev-1', change_id: 'alpha', document: 'spec', markdown: '# x', notes: NOTES },
      wrongAgent: { agent_id: 'rev-1', review_key: 'abrk_not-the-key', change_id: 'alpha', document: 'spec', markdown: '# x', notes: NOTES },
      wrongAgentCode: 'REVIEW_KEY_INVALID',
      notFound: {}, // filled in below
    },
    agentboard_get_next_task: { ok: { agent_id: 'worker-1' }, expect: (d) => expect(d).toMatchObject({ status: 'assigned', task: { task_id: 'alpha/T3', assignee: 'worker-1' } }), bad: {}, wrongAgent: { agent_id: 'human:alice' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_add_task: { ok: { agent_id: 'planner', change_id: 'alpha', title: 'Added by a tool' }, expect: (d) => expect(d.task.task_id).toBe('alpha/T6'), bad: { agent_id: 'planner', change_id: 'alpha', title: 'x'.repeat(201) }, wrongAgent: { agent_id: 'human:alice', change_id: 'alpha', title: 'x' }, wrongAgentCode: 'INVALID_INPUT', notFound: { agent_id: 'planner', change_id: 'no-such-change', title: 'x' } },
    agentboard_update_task: { ok: { agent_id: 'planner', task_id: 'alpha/T6', priority: 'high' }, expect: (d) => expect(d.task.priority).toBe('high'), bad: { agent_id: 'planner', task_id: 'alpha/T6' }, wrongAgent: { agent_id: 'intruder', task_id: 'alpha/T1', title: 'Mine now' }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'planner', task_id: 'alpha/T99', priority: 'low' } },
    agentboard_delete_task: { ok: { agent_id: 'planner', task_id: 'alpha/T5' }, expect: (d) => expect(d.deleted).toBe(true), bad: { agent_id: 'planner', task_id: 'alpha' }, wrongAgent: { agent_id: 'intruder', task_id: 'alpha/T1' }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'planner', task_id: 'alpha/T99' } },
    agentboard_report_progress: { ok: { agent_id: 'owner', task_id: 'alpha/T1', percent: 40, message: 'Half way' }, expect: (d) => expect(d.task.progress).toBe(40), bad: { agent_id: 'owner', task_id: 'alpha/T1', percent: 101, message: 'm' }, wrongAgent: { agent_id: 'intruder', task_id: 'alpha/T1', percent: 1, message: 'm' }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'owner', task_id: 'alpha/T99', percent: 1, message: 'm' } },
    agentboard_add_note: { ok: { agent_id: 'owner', task_id: 'alpha/T1', text: 'Chose A over B because C.' }, expect: (d) => expect(d.changed).toBe(true), bad: { agent_id: 'owner', task_id: 'alpha/T1', text: '' }, wrongAgent: { agent_id: 'intruder', task_id: 'alpha/T1', text: 'x' }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'owner', task_id: 'alpha/T99', text: 'x' } },
    agentboard_report_blocker: { ok: { agent_id: 'owner', task_id: 'alpha/T1', reason: 'No key', severity: 'high' }, expect: (d) => expect(d.task.status).toBe('blocked'), bad: { agent_id: 'owner', task_id: 'alpha/T1', reason: 'r', severity: 'critical' }, wrongAgent: { agent_id: 'intruder', task_id: 'alpha/T1', reason: 'r' }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'owner', task_id: 'alpha/T99', reason: 'r' } },
    agentboard_clear_blocker: { ok: { agent_id: 'owner', task_id: 'alpha/T1' }, expect: (d) => expect(d.task.status).toBe('in_progress'), bad: { agent_id: 'owner' }, wrongAgent: { agent_id: 'intruder', task_id: 'alpha/T1' }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'owner', task_id: 'alpha/T99' } },
    agentboard_complete_task: { ok: { agent_id: 'worker-2', task_id: 'alpha/T4' }, expect: (d) => expect(d.task).toMatchObject({ status: 'done', assignee: 'worker-2' }), bad: { agent_id: 'worker-2', task_id: 4 }, wrongAgent: { agent_id: 'intruder', task_id: 'alpha/T1' }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'worker-2', task_id: 'alpha/T99' } },
    agentboard_update_status: { ok: { agent_id: 'sess', status: 'working', message: 'Starting' }, expect: (d) => expect(d.status).toBe('working'), bad: { agent_id: 'sess', status: 'sleeping', message: 'm' }, wrongAgent: { agent_id: 'human:alice', status: 'working', message: 'm' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_request_input: { ok: { agent_id: 'sess', question: 'A or B?', default_action: 'A', options: ['A', 'B'] }, expect: (d) => expect(d.input_id).toBe('input-1'), bad: { agent_id: 'sess', question: 'q', default_action: 'd', timeout_minutes: 121 }, wrongAgent: { agent_id: 'human:alice', question: 'q', default_action: 'd' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_mark_blocked: { ok: { agent_id: 'blocked-one', reason: 'No database', blockers: ['DATABASE_URL unset'] }, expect: (d) => expect(d.status).toBe('blocked'), bad: { agent_id: 'blocked-one', reason: '' }, wrongAgent: { agent_id: 'human:alice', reason: 'r' }, wrongAgentCode: 'INVALID_INPUT', notFound: 'no id' },
    agentboard_submit_for_review: { ok: { agent_id: 'owner', summary: 'Done, please check', tasks: ['alpha/T1'] }, expect: (d) => expect(d.tasks_in_review).toEqual(['alpha/T1']), bad: { agent_id: 'owner', summary: 's', pr_url: 'not a url' }, wrongAgent: { agent_id: 'intruder', summary: 's', tasks: ['alpha/T3'] }, wrongAgentCode: 'TASK_HELD', notFound: { agent_id: 'owner', summary: 's', tasks: ['alpha/T99'] } },
  };
}

describe('every MCP tool, in memory', () => {
  let mcp: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ title: 'Held' }, { title: 'Waits', depends: ['T1'] }, { title: 'Free' }, { title: 'Also free' }, { title: 'To delete' }]);
    await ok(dir, ['propose', 'beta', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
    await ok(dir, ['agent', 'register', '--as', 'owner', '--name', 'Owner', '--role', 'dev']);
    await ok(dir, ['next', '--as', 'owner']);
    await ok(dir, ['session', 'status', 'working', '--as', 'blocked-one', '--message', 'm']);
    key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
    mcp = await connect(dir);
  });
  afterAll(async () => mcp?.close());

  it('has a case for every tool (so a new tool cannot go untested)', async () => {
    expect(Object.keys(cases()).sort()).toEqual(toolOperations('all').map((op) => op.tool!.name).sort());
  });

  it('answers each tool: success, bad input, wrong agent, not found', async () => {
    const table = cases();
    const spec = (await mcp.call('agentboard_get_document', { change_id: 'alpha', document: 'spec' })).data.markdown as string;
    table.agentboard_correct_document!.ok = { agent_id: 'rev-1', review_key: key, change_id: 'alpha', document: 'spec', markdown: spec.replace('one agent at a time.', 'one agent at a time, and no other.'), notes: 'Tightened the overview.' };
    table.agentboard_correct_document!.notFound = { agent_id: 'rev-1', review_key: key, change_id: 'no-such-change', document: 'spec', markdown: spec, notes: NOTES };
    for (const [tool, c] of Object.entries(table)) {
      const checkError = (r: Awaited<ReturnType<typeof mcp.call>>, what: string) => {
        expect(r.isError, `${tool} ${what}: ${r.text}`).toBe(true);
        expect(r.data, `${tool} ${what}: no structuredContent on errors`).toBeUndefined();
        expect(r.error!.next_step.length, `${tool} ${what}`).toBeGreaterThan(10);
        expect(r.text).not.toContain(dir);
        expect(r.text).not.toMatch(/\n\s+at /);
        expect(r.text, `${tool} ${what}: every reference to a next step is spelled out`).not.toContain('{op:');
      };
      const bad = await mcp.call(tool, c.bad);
      checkError(bad, 'bad input');
      expect(bad.error!.code, `${tool} bad input`).toBe('INVALID_INPUT');
      if (c.wrongAgent !== 'no agent') {
        const wrong = await mcp.call(tool, c.wrongAgent);
        checkError(wrong, 'wrong agent');
        expect(wrong.error!.code, `${tool} wrong agent`).toBe(c.wrongAgentCode);
      }
      if (c.notFound !== 'no id') {
        const nf = await mcp.call(tool, c.notFound);
        checkError(nf, 'not found');
        expect(nf.error!.code, `${tool} not found: ${nf.text}`).toMatch(/NOT_FOUND$/);
      }
      const before = snapshot(dir);
      const good = await mcp.call(tool, c.ok);
      expect(good.isError, `${tool} success: ${good.text}`).toBe(false);
      expect(JSON.stringify(good.data) + good.text, tool).not.toContain('{op:');
      c.expect?.(good.data, good.text);
      for (const id of idsIn(good.data)) expect(good.text, `${tool}: the summary carries ${id}`).toContain(id);
      if (toolOperations('all').find((op) => op.tool!.name === tool)!.access === 'read') expect(snapshot(dir), `${tool} is read-only`).toEqual(before);
    }
  });

  it('refuses unknown fields with a tool error, and an unknown tool as JSON-RPC invalid params', async () => {
    const r = await mcp.call('agentboard_get_task', { task_id: 'alpha/T1', colour: 'red' });
    expect(r.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('unknown field "colour"') });
    // A name no profile serves is a protocol error: JSON-RPC invalid params, naming it.
    await expect(mcp.client.callTool({ name: 'agentboard_approve_document', arguments: { change_id: 'alpha' } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: agentboard_approve_document.') });
  });

  it('answers with a markdown summary holding the ids the agent needs next, and with the JSON when asked', async () => {
    const r = await mcp.call('agentboard_list_tasks', { change_id: 'alpha' });
    expect(r.text).toContain('alpha/T2');
    expect(r.text).toMatch(/TASK\s+STATUS/);
    expect(() => JSON.parse(r.text), 'not the JSON again').toThrow();
    expect(r.data.tasks.length).toBeGreaterThan(0);
    const json = await mcp.call('agentboard_list_tasks', { change_id: 'alpha', response_format: 'json' });
    expect(JSON.parse(json.text)).toEqual(json.data);
    expect(json.data).toEqual(r.data);
  });

  it('gives a spec read as fields every field in its text too: a reader of the text alone can write it again', async () => {
    const r = await mcp.call('agentboard_get_document', { change_id: 'alpha', document: 'spec', format: 'fields' });
    const content = r.data.content;
    for (const req of content.requirements) expect(r.text).toContain(`  ${req.id}: ${req.title}`);
    for (const line of content.requirements[0].text.split('\n')) expect(r.text).toContain(`    ${line}`);
    for (const scenario of content.scenarios) {
      expect(r.text).toContain(`  ${scenario.name}`);
      expect(r.text).toContain(`    WHEN ${[scenario.when].flat().join('; ')}`);
      expect(r.text).toContain(`    THEN ${[scenario.then].flat().join('; ')}`);
    }
  });

  it('names the next call as a tool, and human steps as commands for a person', async () => {
    const r = await mcp.call('agentboard_submit_proposal', { agent_id: 'planner', change_id: 'alpha', why: WHY, what_changes: 'x', impact: 'y', notes: NOTES });
    expect(r.error).toMatchObject({
      code: 'DOCUMENT_SUBMITTED',
      message: expect.stringMatching(/^This proposal has already been submitted\. This board requires no person's approval of it, so nothing waits on it: alpha has moved on to its implementation phase \(waiting on \d+ of \d+ tasks to be done\)\.$/),
      next_step: 'Work on its tasks with agentboard_get_next_task {"agent_id":"planner","change_id":"alpha"}. Should a person reject the proposal, it comes back to be revised.',
    });
  });
});

describe('a review round over MCP', () => {
  it("is no planner's tool: refused for the role, naming whose it is, and nothing changes", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rounds', [{ title: 'Build' }]);
    const round = { agent_id: 'plan-1', change_id: 'rounds', verdict: 'APPROVED', summary: 'Mine looks fine.', notes: NOTES };
    const planner = await connect(dir, 'planner');
    expect((await planner.client.listTools()).tools.map((t) => t.name)).not.toContain('agentboard_create_review');
    const before = snapshot(dir);
    const r = await planner.call('agentboard_create_review', round);
    expect(r.error).toMatchObject({ code: 'ROLE_REFUSED', message: 'agentboard_create_review is not a tool of the planner profile (it is for a reviewer or a person): nothing was changed.' });
    expect(r.error!.next_step).toContain('agentboard_request_input');
    expect(snapshot(dir)).toEqual(before);
    await planner.close();
    const reviewer = await connect(dir, 'reviewer');
    expect((await reviewer.call('agentboard_create_review', { ...round, agent_id: 'rev-1' })).data).toMatchObject({ round: 1, verdict: 'APPROVED' });
    await reviewer.close();
  });
});

describe('a document read over MCP after a person rejected it', () => {
  it('is the file in its own text block, the feedback in another: a reviewer corrects the markdown as read', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'sent-back', [{ title: 'One' }]);
    await ok(dir, ['reject', 'sent-back', 'spec', '--feedback', 'Add an error scenario.']);
    await ok(dir, ['spec', 'sent-back', '--as', 'planner', '--from', write(dir, 'again.md', SPEC_MD), '--notes', NOTES]);
    const key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
    const mcp = await connect(dir, 'reviewer');
    const r = (await mcp.client.callTool({ name: 'agentboard_get_document', arguments: { change_id: 'sent-back', document: 'spec' } })) as { content: { text: string }[]; structuredContent: any };
    const file = read(dir, 'agentd/changes/sent-back/spec.md');
    expect(r.structuredContent.markdown).toBe(file);
    expect(r.content.map((c) => c.text)).toEqual([file, expect.stringMatching(/^Feedback from people:\n {2}- human:\S+ \(.+\): Add an error scenario\.\n$/)]);
    const corrected = await mcp.call('agentboard_correct_document', { agent_id: 'rev-1', review_key: key, change_id: 'sent-back', document: 'spec', markdown: r.content[0]!.text.replace('one agent at a time.', 'one agent at a time, and no other.'), notes: 'Tightened the overview.' });
    expect(corrected.isError, corrected.text).toBe(false);
    expect(read(dir, 'agentd/changes/sent-back/spec.md')).toContain('one agent at a time, and no other.');
    await mcp.close();
  });
});

describe('a rejected document an agent took up, asked for work through another profile', () => {
  it('stays its work: a worker profile hands it no task, and names the command that resubmits it with the agent\'s id', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'sent-back', [{ title: 'One' }]);
    await ok(dir, ['reject', 'sent-back', 'spec', '--feedback', 'Add an error scenario.']);
    const planner = await connect(dir, 'agent');
    expect((await planner.call('agentboard_get_next_task', { agent_id: 'rv1' })).data.status).toBe('revise_document');
    await planner.close();
    const tasks = read(dir, 'agentd/changes/sent-back/tasks.md');
    const worker = await connect(dir, 'worker');
    const r = await worker.call('agentboard_get_next_task', { agent_id: 'rv1' });
    expect(r.data).toMatchObject({ status: 'revise_document', task: null, document: { change_id: 'sent-back', document: 'spec' } });
    expect(r.data.message).toContain('You are revising the rejected spec of sent-back');
    expect(r.data.message).toContain('`agentboard spec sent-back --as rv1`');
    expect(read(dir, 'agentd/changes/sent-back/tasks.md'), 'no task claimed beside it').toBe(tasks);
    await worker.close();
  });
});

describe('the record of done work, over MCP', () => {
  it('keeps a completed task and its id: no agent deletes it, and no new task takes a deleted one\'s id', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ title: 'Index' }, { title: 'Query' }, { title: 'Rank', priority: 'urgent' }, { title: 'Extra' }]);
    await ok(dir, ['next', '--as', 'alice-bot']);
    await ok(dir, ['task', 'done', 'add-search/T3', '--as', 'alice-bot']);
    const mcp = await connect(dir);
    const before = snapshot(dir);
    const del = await mcp.call('agentboard_delete_task', { agent_id: 'mallory', task_id: 'add-search/T3' });
    expect(del.error).toMatchObject({ code: 'TASK_NOT_READY', message: expect.stringMatching(/^Task add-search\/T3 is done: alice-bot completed it at \S+\. A done task stays as it is, so you cannot delete it\.$/) });
    const progress = await mcp.call('agentboard_report_progress', { agent_id: 'alice-bot', task_id: 'add-search/T3', percent: 100, message: 'Finished.' });
    expect(progress.error!.message).toMatch(/^Task add-search\/T3 is done: you completed it at /);
    expect(progress.error!.next_step).toContain('agentboard_get_next_task');
    expect(snapshot(dir)).toEqual(before);
    expect((await mcp.call('agentboard_get_agent_status', { agent_id: 'alice-bot' })).data.completed_tasks).toBe(1);

    expect((await mcp.call('agentboard_delete_task', { agent_id: 'planner', task_id: 'add-search/T4' })).data).toEqual({ task_id: 'add-search/T4', deleted: true });
    expect((await mcp.call('agentboard_add_task', { agent_id: 'mallory', change_id: 'add-search', title: 'Unrelated' })).data.task.task_id).toBe('add-search/T5');
    const reused = await mcp.call('agentboard_add_task', { agent_id: 'mallory', change_id: 'add-search', id: 'T4', title: 'Unrelated too' });
    expect(reused.error).toMatchObject({ code: 'TASK_EXISTS', message: 'Task add-search/T4 was deleted; its id is not given again.' });
    const log = (await mcp.call('agentboard_get_activity_log', { change_id: 'add-search' })).data.entries as { action: string; target: string; summary: string }[];
    expect(log.filter((e) => e.target === 'add-search/T3').map((e) => e.action).sort()).toEqual(['task.claim', 'task.done']);
    await mcp.close();
  });

  it('refuses a submission for review naming a task twice, or nothing to review, and the agent still gets work', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ title: 'Index' }, { title: 'Query' }]);
    await ok(dir, ['next', '--as', 'alice-bot']);
    const mcp = await connect(dir);
    const before = snapshot(dir);
    const twice = await mcp.call('agentboard_submit_for_review', { agent_id: 'alice-bot', summary: 'Done.', tasks: ['add-search/T1', 'add-search/T1'] });
    expect(twice.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('tasks names "add-search/T1" more than once; name each once') });
    const empty = await mcp.call('agentboard_submit_for_review', { agent_id: 'sub', summary: 's', tasks: [] });
    expect(empty.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/^Nothing to review/) });
    expect(empty.error!.next_step).toContain('agentboard_submit_for_review');
    expect(snapshot(dir)).toEqual(before);
    expect((await mcp.call('agentboard_get_next_task', { agent_id: 'sub' })).data).toMatchObject({ status: 'assigned', task: { task_id: 'add-search/T2' } });
    await mcp.close();
  });

  it('lists every question to a planner that names itself, as it is told to on every call, and one agent\'s with asked_by, on a bound server too', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'asks', [{ title: 'Only' }]);
    const worker = await connect(dir, 'worker');
    await worker.call('agentboard_request_input', { agent_id: 'codex', question: 'REST or GraphQL?', default_action: 'REST.', timeout_minutes: 60 });
    await worker.close();
    const planner = await connect(dir, 'planner', { agentId: 'planner-1' });
    const ids = async (args: object) => (await planner.call('agentboard_list_inputs', args)).data.inputs.map((i: { agent_id: string }) => i.agent_id);
    expect(await ids({ agent_id: 'planner-1' })).toEqual(['codex']);
    expect(await ids({})).toEqual(['codex']);
    expect(await ids({ asked_by: 'codex' })).toEqual(['codex']);
    expect(await ids({ asked_by: 'planner-1' })).toEqual([]);
    await planner.close();
    // The command line filters with --as, as before.
    expect((await ok(dir, ['inputs', '--as', 'codex'])).inputs).toHaveLength(1);
    expect((await ok(dir, ['inputs', '--as', 'someone-else'])).inputs).toHaveLength(0);
  });

  it('reads the session of an agent that has none as none yet (session 0, no move), without making one', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'quiet', [{ title: 'Only' }]);
    const mcp = await connect(dir);
    const before = snapshot(dir);
    const state = await mcp.call('agentboard_get_workflow_state', { agent_id: 'ghost' });
    expect(state.data).toMatchObject({ agent_id: 'ghost', session: 0, status: 'started', history: [], history_total: 0 });
    expect(state.text).toContain('ghost has no session yet: it starts one by registering with agentboard_register_agent {"agent_id":"ghost"}');
    const history = await mcp.call('agentboard_get_session_history', { agent_id: 'ghost' });
    expect(history.data).toMatchObject({ agent_id: 'ghost', session: 0, moves: [], total: 0 });
    expect(history.text).toContain('ghost: no session yet');
    // Nor is it told a status it does not have when it reports one it cannot reach yet.
    const early = await mcp.call('agentboard_update_status', { agent_id: 'ghost', status: 'completed', message: 'Done.' });
    expect(early.error).toMatchObject({ code: 'INVALID_TRANSITION', message: 'You have no session yet: it opens as started, which cannot change to completed.' });
    expect(snapshot(dir)).toEqual(before);
    // Its first work call opens session 1, started then working: both moves recorded.
    await mcp.call('agentboard_get_next_task', { agent_id: 'ghost' });
    const opened = await mcp.call('agentboard_get_session_history', { agent_id: 'ghost' });
    expect(opened.data.session).toBe(1);
    expect(opened.data.moves.map((m: { to: string }) => m.to)).toEqual(['working', 'started']);
    await mcp.close();
  });

  it('says nothing is available in the change asked for, not on the board, and sends a worker holding another task to finish it before its blocked one', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'finished', [{ title: 'Only' }]);
    await changeWithTasks(dir, 'open-work', [{ title: 'First' }, { title: 'Second' }]);
    await ok(dir, ['next', '--change', 'finished', '--as', 'w0']);
    await ok(dir, ['task', 'done', 'finished/T1', '--as', 'w0']);
    const mcp = await connect(dir, 'worker');
    const none = await mcp.call('agentboard_get_next_task', { agent_id: 'w1', change_id: 'finished' });
    expect(none.data.status).toBe('nothing_available');
    expect(none.data.message).toBe("No task is available in finished: every task of it is done, or it has no task list yet. The board's other changes may have work: ask again for any change.");
    // A worker blocks its task, takes another, then tries to finish the blocked one.
    expect((await mcp.call('agentboard_get_next_task', { agent_id: 'w1', change_id: 'open-work' })).data.task.task_id).toBe('open-work/T1');
    await mcp.call('agentboard_report_blocker', { agent_id: 'w1', task_id: 'open-work/T1', reason: 'The API is down.' });
    expect((await mcp.call('agentboard_get_next_task', { agent_id: 'w1' })).data.task.task_id).toBe('open-work/T2');
    const before = snapshot(dir);
    for (const [tool, args] of [['agentboard_complete_task', {}], ['agentboard_report_progress', { percent: 50, message: 'Half.' }]] as const) {
      const refused = await mcp.call(tool, { agent_id: 'w1', task_id: 'open-work/T1', ...args });
      expect(refused.error).toMatchObject({ code: 'TASK_IN_PROGRESS', message: 'You are working on open-work/T2; an agent works on one task at a time, so open-work/T1 stays blocked for now.' });
      expect(refused.error!.next_step).toContain('agentboard_complete_task {"agent_id":"w1","task_id":"open-work/T2"}');
    }
    expect(snapshot(dir)).toEqual(before);
    await mcp.close();
  });
});
