import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARACTER_LIMIT } from '../../src/mcp/result.js';
import { changeWithTasks, cli, newBoard, ok, read, snapshot, write } from '../helpers.js';
import { connect, type ToolResult } from './helpers.js';

const LONG = 'A task with a long enough title to take some room on the page, number';
const DESCRIPTION = 'Do the work this task names, and show that it is done with a test that fails before and passes after. '.repeat(8);

/** Every result of a call fits: the text and the structuredContent, each at most 25,000 characters. */
function expectFits(r: ToolResult, what: string): void {
  expect(r.isError, `${what}: ${r.text.slice(0, 300)}`).toBe(false);
  expect(r.text.length, `${what}: text`).toBeLessThanOrEqual(CHARACTER_LIMIT);
  expect(JSON.stringify(r.data).length, `${what}: structuredContent`).toBeLessThanOrEqual(CHARACTER_LIMIT);
}

describe('a change of 600 tasks, read through MCP in pages', () => {
  let dir: string;
  let mcp: Awaited<ReturnType<typeof connect>>;
  let before: Record<string, string>;
  beforeAll(async () => {
    dir = await newBoard();
    await changeWithTasks(dir, 'big', Array.from({ length: 600 }, (_, i) => ({ title: `${LONG} ${i + 1}`, description: DESCRIPTION, skills: ['ts'] })));
    mcp = await connect(dir, 'all');
    before = snapshot(dir);
  }, 120_000);
  afterAll(async () => {
    expect(snapshot(dir), 'reads change nothing').toEqual(before);
    await mcp.close();
  });

  /** Follows next_cursor from the first page to the last; every page must fit. */
  async function walk(tool: string, args: object, items: (data: any) => unknown[]): Promise<{ pages: ToolResult[]; all: unknown[] }> {
    const pages: ToolResult[] = [];
    let r = await mcp.call(tool, args);
    for (;;) {
      expectFits(r, `${tool} page ${pages.length + 1}`);
      pages.push(r);
      if (!r.data.has_more) break;
      expect(r.data.next_cursor, 'a cut list says where to go on').toEqual(expect.any(String));
      r = await mcp.call(tool, { cursor: r.data.next_cursor });
    }
    return { pages, all: pages.flatMap((p) => items(p.data)) };
  }

  it('list_tasks: a page too big for the limit is cut, says so, and the cursor alone goes on to the end', async () => {
    const first = await mcp.call('agentboard_list_tasks', { change_id: 'big', limit: 500 });
    expectFits(first, 'list_tasks');
    expect(first.data.total).toBe(600);
    expect(first.data.tasks.length).toBeLessThan(500);
    expect(first.data.notice).toMatch(/^Cut to \d+ of 500 tasks/);
    expect(first.data.next_offset).toBe(first.data.tasks.length);
    expect(first.text, 'the summary says how to go on').toContain(`agentboard_list_tasks {"cursor":"${first.data.next_cursor}"}`);
    const { pages, all } = await walk('agentboard_list_tasks', { change_id: 'big', limit: 500 }, (d) => d.tasks.map((t: any) => t.task_id));
    expect(pages.length).toBeGreaterThan(1);
    expect(all).toEqual(Array.from({ length: 600 }, (_, i) => `big/T${i + 1}`));
  });

  it('limit and offset still work, and give the same pages as the cursor', async () => {
    const byOffset = await mcp.call('agentboard_list_tasks', { change_id: 'big', limit: 20, offset: 40 });
    expect(byOffset.data.tasks.map((t: any) => t.id)).toEqual(Array.from({ length: 20 }, (_, i) => `T${i + 41}`));
    const page2 = await mcp.call('agentboard_list_tasks', { change_id: 'big', limit: 20, offset: 20 });
    const page3 = await mcp.call('agentboard_list_tasks', { cursor: page2.data.next_cursor });
    expect(page3.data).toEqual(byOffset.data);
    // An offset past the end says so, rather than answer with nothing.
    const past = await mcp.call('agentboard_get_document', { change_id: 'big', document: 'tasks', offset: 999_999 });
    expect(past.data.markdown).toBe('');
    expect(past.text).toMatch(/Offset 999999 is past the end: there are \d+ in all \(lines\)\. Ask again with a smaller offset\./);
    expect((await mcp.call('agentboard_list_tasks', { change_id: 'big', offset: 600 })).text).toContain('Offset 600 is past the end: there are 600 in all (tasks).');
  });

  it('get_document of the task list: markdown by default, in pages of whole lines that put the file back together', async () => {
    const { pages, all } = await walk('agentboard_get_document', { change_id: 'big', document: 'tasks' }, (d) => [d.markdown]);
    expect(pages.length).toBeGreaterThan(5);
    for (const p of pages) {
      expect(p.data.format).toBe('markdown');
      expect(p.data.content, 'fields or markdown, not both').toBeNull();
      expect(p.data.markdown.endsWith('\n'), 'a page ends at the end of a line').toBe(true);
    }
    expect(all.join('')).toBe(read(dir, 'agentd/changes/big/tasks.md'));
  });

  it('get_document of the task list as fields: the tasks in pages, the rest of the document with each', async () => {
    const { pages, all } = await walk('agentboard_get_document', { change_id: 'big', document: 'tasks', format: 'fields' }, (d) => d.content.tasks.map((t: any) => t.task_id));
    expect(pages.length).toBeGreaterThan(5);
    for (const p of pages) {
      expect(p.data.markdown).toBeNull();
      expect(p.data.content.title).toBeTruthy();
      expect(p.data.total).toBe(600);
    }
    expect(all).toEqual(Array.from({ length: 600 }, (_, i) => `big/T${i + 1}`));
  });

  it('get_change lists a page of task ids, not all 600', async () => {
    const r = await mcp.call('agentboard_get_change', { change_id: 'big' });
    expectFits(r, 'get_change');
    expect(r.data.tasks).toEqual({ total: 600, done: 0 });
    expect(r.data.task_ids).toHaveLength(50);
    expect(r.data.has_more).toBe(true);
    const next = await mcp.call('agentboard_get_change', { cursor: r.data.next_cursor });
    expect(next.data.task_ids[0]).toBe('big/T51');
  });

  it('every result of every read stays within the limit, as markdown and as JSON', async () => {
    const calls: [string, object][] = [
      ['agentboard_list_tasks', { limit: 500 }],
      ['agentboard_get_project_status', {}],
      ['agentboard_validate_change', {}],
      ['agentboard_list_documents', { limit: 500 }],
      ['agentboard_get_activity_log', { limit: 500 }],
      ['agentboard_get_document', { change_id: 'big', document: 'tasks', limit: 10_000 }],
      ['agentboard_get_document', { change_id: 'big', document: 'tasks', format: 'fields', limit: 10_000 }],
    ];
    for (const [tool, args] of calls) {
      for (const response_format of ['markdown', 'json']) {
        const r = await mcp.call(tool, { ...args, response_format });
        expectFits(r, `${tool} ${response_format}`);
        if (response_format === 'json') expect(JSON.parse(r.text.split('\nNote: ')[0]!), `${tool}: the JSON text is whole JSON`).toEqual(r.data);
      }
    }
  });

  it('a cursor that is not one, or that does not match the other fields, is refused with what to do', async () => {
    const bad = await mcp.call('agentboard_list_tasks', { cursor: 'not-a-cursor' });
    expect(bad.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('is not a cursor agentboard returned') });
    const tasks = await mcp.call('agentboard_list_tasks', { change_id: 'big', limit: 10 });
    const other = await mcp.call('agentboard_list_documents', { cursor: tasks.data.next_cursor });
    expect(other.error!.message).toContain('continues a list of tasks, not of documents');
    const clash = await mcp.call('agentboard_list_tasks', { cursor: tasks.data.next_cursor, status: 'done' });
    expect(clash.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('status') });
    expect(clash.error!.next_step).toContain('cursor alone');
    const both = await mcp.call('agentboard_list_tasks', { cursor: tasks.data.next_cursor, offset: 3 });
    expect(both.error!.message).toContain('offset cannot be given with a cursor');
    const same = await mcp.call('agentboard_list_tasks', { cursor: tasks.data.next_cursor, change_id: 'big', limit: 5, agent_id: 'reader' });
    expect(same.data.tasks.map((t: any) => t.id)).toEqual(['T11', 'T12', 'T13', 'T14', 'T15']);
  });

  it('the CLI pages the same way: --cursor, and the next command named in the text', async () => {
    const first = await cli(dir, ['task', 'list', '--change', 'big', '--limit', '3']);
    expect(first.code).toBe(0);
    const next = /next page: `(agentboard task list --cursor [\w-]+)`/.exec(first.stdout);
    expect(next, first.stdout).not.toBeNull();
    const second = await ok(dir, [...next![1]!.split(' ').slice(1), '--json']);
    expect(second.tasks.map((t: any) => t.id)).toEqual(['T4', 'T5', 'T6']);
    // A change's and a document's next page are named whole, their ids filled in: run as written, they go on.
    for (const [args, lines] of [[['show', 'big', '--limit', '2'], 'task_ids'], [['show', 'big', 'tasks', '--limit', '3'], 'markdown']] as const) {
      const page = await cli(dir, [...args]);
      const named = /next page: `agentboard ([^`]+)`/.exec(page.stdout);
      expect(named?.[1], page.stdout).toMatch(/^show big (tasks --format markdown )?--cursor [\w-]+$/);
      const then = await ok(dir, [...named![1]!.split(' '), '--json']);
      expect(then[lines], args.join(' ')).toBeTruthy();
    }
  });
});

describe('write tools answer with the item changed and the ids to go on with', () => {
  it('session results stay the same size however long the session; its history is read in pages', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'loop', [{ title: 'The one task' }]);
    const mcp = await connect(dir, 'worker');
    const next = await mcp.call('agentboard_get_next_task', { agent_id: 'w' });
    expect(next.text, 'the summary names the task').toContain('loop/T1');
    const first = await mcp.call('agentboard_update_status', { agent_id: 'w', status: 'working', message: 'On it' });
    for (let i = 1; i <= 12; i++) {
      const asked = await mcp.call('agentboard_request_input', { agent_id: 'w', question: `Question ${i}?`, default_action: 'Go on' });
      expect(asked.text, 'the summary carries the input id').toContain(`input-${i}`);
      await ok(dir, ['answer', `input-${i}`, 'Yes']);
    }
    const later = await mcp.call('agentboard_update_status', { agent_id: 'w', status: 'working', message: 'On it' });
    expect(later.data).not.toHaveProperty('history');
    expect(later.data.history_total).toBe(first.data.history_total + 24);
    expect(JSON.stringify(later.data).length - JSON.stringify(first.data).length, 'only the count grows').toBeLessThanOrEqual(2);
    const submitted = await mcp.call('agentboard_submit_for_review', { agent_id: 'w', summary: 'Done.', tasks: ['loop/T1'] });
    expect(submitted.data).toMatchObject({ status: 'awaiting_review', tasks_in_review: ['loop/T1'] });
    expect(submitted.data).not.toHaveProperty('history');
    expect(submitted.text).toContain('loop/T1');
    const state = await mcp.call('agentboard_get_workflow_state', { agent_id: 'w', limit: 5 });
    expect(state.data.history).toHaveLength(10);
    expect(state.data.history.at(-1)).toMatchObject({ to: 'awaiting_review' });
    expect(state.data.resolutions.map((i: any) => i.input_id)).toEqual(['input-12', 'input-11', 'input-10', 'input-9', 'input-8']);
    expect(state.data).toMatchObject({ total: 12, has_more: true, next_offset: 5 });
    await mcp.close();

    const planner = await connect(dir, 'planner');
    const page = await planner.call('agentboard_get_session_history', { agent_id: 'w', limit: 4 });
    expect(page.data.moves.map((m: any) => m.to)).toEqual(['awaiting_review', 'working', 'awaiting_input', 'working']);
    expect(page.data.moves[2]).toMatchObject({ from: 'working', to: 'awaiting_input', message: 'Question 12?' });
    const moves = [...page.data.moves];
    for (let r = page; r.data.has_more; ) {
      r = await planner.call('agentboard_get_session_history', { cursor: r.data.next_cursor });
      moves.push(...r.data.moves);
    }
    expect(moves).toHaveLength(page.data.total);
    expect(moves.at(-1)).toMatchObject({ from: null, to: 'started' });
    await planner.close();

    const viaCli = await ok(dir, ['session', 'history', '--as', 'w', '--limit', '2', '--json']);
    expect(viaCli.moves.map((m: any) => m.to)).toEqual(['awaiting_review', 'working']);
  });

  it('validating a board too big for one result keeps every finding, and counts every change checked', async () => {
    const dir = await newBoard();
    await ok(dir, ['new', 'change-000', '--as', 'planner', '--title', 'A change among many']);
    const proposal = read(dir, 'agentd/changes/change-000/proposal.md');
    for (let i = 1; i < 450; i++) {
      const id = `change-${String(i).padStart(3, '0')}`;
      mkdirSync(join(dir, 'agentd/changes', id));
      write(dir, `agentd/changes/${id}/proposal.md`, proposal.replaceAll('change-000', id));
    }
    write(dir, 'agentd/changes/change-449/proposal.md', proposal.replaceAll('change-000', 'change-449').replace('status: template', 'status: Templat'));
    const mcp = await connect(dir, 'planner');
    const r = await mcp.call('agentboard_validate_change', { all: true, response_format: 'json' });
    expectFits(r, 'validate_change');
    expect(r.data).toMatchObject({ valid: false, errors: 1, checked: 450 });
    expect(r.data.changes[0]).toMatchObject({ change_id: 'change-449', valid: false, findings: [expect.objectContaining({ rule: 'frontmatter.status' })] });
    const text = (await mcp.call('agentboard_validate_change', { all: true })).text;
    expect(text).toContain('agentd/changes/change-449/proposal.md:');
    expect(text).toContain('invalid: 1 error');
    // Every change checked is on one page, followed by the cursor alone: none is cut with no way on.
    const seen: string[] = [];
    let page = r;
    for (let n = 1; ; n++) {
      expectFits(page, `validate_change page ${n}`);
      expect(String(page.data.notice ?? ''), `page ${n}`).not.toContain('Shortened');
      seen.push(...page.data.changes.map((c: any) => c.change_id));
      if (!page.data.has_more) break;
      page = await mcp.call('agentboard_validate_change', { all: true, response_format: 'json', cursor: page.data.next_cursor });
    }
    expect(seen.length).toBe(450);
    expect(new Set(seen).size).toBe(450);
    await mcp.close();
  });

  it('a status whose lists are cut names the tools that page through them', async () => {
    const dir = await newBoard();
    for (let i = 0; i < 60; i++) await ok(dir, ['ask', '--as', `asker-${i}`, '--question', `Question ${i}: ${'which of the two ways should the index take, given the constraints, '.repeat(6)}?`, '--default-action', 'Take the first way.']);
    const mcp = await connect(dir, 'all');
    const r = await mcp.call('agentboard_get_project_status', { response_format: 'json' });
    expectFits(r, 'get_project_status');
    expect(r.data.notice).toMatch(/^Shortened to fit 25,000 characters: .*open_inputs, the first \d+ of 60/);
    expect(r.data.notice).toContain('Page through them with agentboard_list_inputs');
    // Each question is named with its own id in the text, not a placeholder.
    const text = (await mcp.call('agentboard_get_project_status', {})).text;
    expect(text).toContain('question input-1 from asker-0');
    expect(text).toContain('`agentboard answer input-1` followed by the answer');
    expect(text).not.toMatch(/<[a-z_]+>/);
    await mcp.close();
  });

  it('a task too big for one result (hundreds of long notes) is shortened, and the notice says what was cut', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'notes', [{ title: 'Talkative' }]);
    await ok(dir, ['next', '--as', 'w']);
    const mcp = await connect(dir, 'worker');
    for (let i = 0; i < 12; i++) {
      const r = await mcp.call('agentboard_add_note', { agent_id: 'w', task_id: 'notes/T1', text: `Note ${i + 1}: ${'a decision and its reason, '.repeat(140)}` });
      expect(r.isError, r.text).toBe(false);
      expect(r.text.length).toBeLessThan(500);
    }
    const r = await mcp.call('agentboard_get_task', { task_id: 'notes/T1', response_format: 'json' });
    expectFits(r, 'get_task');
    // The newest notes are the ones kept: those most likely to matter to the task's holder.
    expect(r.data.notice).toMatch(/^Shortened to fit 25,000 characters: task\.notes, the last \d+ of 12\./);
    expect(r.data.task.notes.at(-1).text).toMatch(/^Note 12: /);
    expect(r.data.task.notes.map((n: any) => n.text)).not.toContainEqual(expect.stringMatching(/^Note 1: /));
    // A worker has no tool that reads documents: it is pointed to the command; a profile with get_document to the tool.
    expect(r.data.notice).toContain('Read all of it in the tasks of notes, a page at a time: `agentboard show notes tasks --format markdown` (on the command line).');
    const planner = await connect(dir, 'planner');
    const cut = await planner.call('agentboard_get_task', { task_id: 'notes/T1' });
    expectFits(cut, 'get_task as a planner');
    expect(cut.text).toContain('Read all of it in the tasks of notes, a page at a time: agentboard_get_document {"change_id":"notes","document":"tasks","format":"markdown"}.');
    const pages = await walkDocument(planner, { change_id: 'notes', document: 'tasks', format: 'markdown' });
    expect(pages.join(''), 'the pages hold every note').toContain(`Note 12: ${'a decision and its reason, '.repeat(140).trim()}`);
    await mcp.close();
    await planner.close();
  });

  it('a cut result names where the cut part really is: requirements in the spec, warnings in validate_change, whose findings are read in pages', async () => {
    const dir = await newBoard();
    const mcp = await connect(dir, 'all');
    const why = 'Agents and people need one place to see who works on what, so no work is done twice.';
    expect((await mcp.call('agentboard_submit_proposal', { agent_id: 'p', change_id: 'reqs', why, what_changes: 'Add a board.', impact: 'Agents stop colliding.', notes: 'None.' })).isError).toBe(false);
    const requirements = Array.from({ length: 200 }, (_, k) => ({ id: `R${k + 1}`, title: `Requirement ${k + 1}`, text: `The board should keep rule ${k + 1}: ${'the rule says a lot about the board, '.repeat(20)}` }));
    const spec = await mcp.call('agentboard_create_spec', { agent_id: 'p', change_id: 'reqs', overview: 'The board keeps the tasks of a change and hands each one to one agent at a time.', requirements, scenarios: [{ name: 'One claim', when: 'two agents ask', then: 'one gets the task', requirement: 'R1' }], notes: 'None.' });
    expectFits(spec, 'create_spec');
    expect(spec.data.notice).toMatch(/warnings, the first \d+ of 200\./);
    expect(spec.data.notice).toContain('Read every finding of reqs, a page at a time: agentboard_validate_change {"change_id":"reqs"}.');
    expect(spec.data.notice).not.toContain('the spec of reqs');
    // validate_change gives every finding, a page at a time, the cursor alone going on to the end.
    const rules: string[] = [];
    let r = await mcp.call('agentboard_validate_change', { change_id: 'reqs', response_format: 'json' });
    for (;;) {
      expectFits(r, 'validate_change');
      expect(r.data.total).toBe(200);
      rules.push(...r.data.changes[0].findings.map((f: any) => f.message));
      if (!r.data.has_more) break;
      r = await mcp.call('agentboard_validate_change', { cursor: r.data.next_cursor, response_format: 'json' });
    }
    expect(rules).toHaveLength(200);
    expect(rules[199]).toContain('R200');
    const paged = await mcp.call('agentboard_validate_change', { change_id: 'reqs', limit: 2, offset: 198, response_format: 'json' });
    expect(paged.data.changes[0].findings.map((f: any) => f.message)).toEqual(rules.slice(198));
    expect((await ok(dir, ['validate', 'reqs', '--json'])).changes[0].findings).toHaveLength(200);
    // A task's requirements live in the spec: the notice of next names the spec, in each profile's spelling.
    await ok(dir, ['tasks', 'reqs', '--as', 'p', '--input', write(dir, 'reqs-tasks.json', JSON.stringify({ tasks: [{ title: 'Do it all' }], notes: 'None.' }))]);
    const next = await mcp.call('agentboard_get_next_task', { agent_id: 'w1', response_format: 'json' });
    expectFits(next, 'get_next_task');
    expect(next.data.notice).toMatch(/context\.requirements, the first \d+ of 200\. Read all of it in the spec of reqs, a page at a time: agentboard_get_document \{"change_id":"reqs","document":"spec","format":"markdown"\}\.$/);
    const worker = await connect(dir, 'worker');
    const again = await worker.call('agentboard_get_next_task', { agent_id: 'w1', response_format: 'json' });
    expect(again.data.notice).toContain('Read all of it in the spec of reqs, a page at a time: `agentboard show reqs spec --format markdown` (on the command line).');
    await worker.close();
    await mcp.close();
  });

  it('a line longer than a page holds is paged in parts: every page fits, and joined they are the file', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'wide', [{ title: 'One' }]);
    const file = 'agentd/changes/wide/spec.md';
    // A person pastes a table row of 60,000 characters (emoji among them, each two UTF-16 units) into the overview.
    const row = `| ${Array.from({ length: 3_000 }, (_, i) => `cell ${i} 🙂`).join(' | ')} |`;
    write(dir, file, read(dir, file).replace('## Requirements', `${row}\n\n## Requirements`));
    const mcp = await connect(dir, 'planner');
    const pages = await walkDocument(mcp, { change_id: 'wide', document: 'spec', format: 'markdown' });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.join('')).toBe(read(dir, file));
    expect(pages.join(''), 'no surrogate pair is split').not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    // Read as fields, the overview is cut, and the notice says where to read all of it.
    const fields = await mcp.call('agentboard_get_document', { change_id: 'wide', document: 'spec', format: 'fields', response_format: 'json' });
    expectFits(fields, 'get_document fields');
    expect(fields.data.notice).toMatch(/Shortened to fit 25,000 characters: content\.overview, the first \d+ of \d+ characters\./);
    expect(fields.data.notice).toContain('Read all of it in the spec of wide, a page at a time: agentboard_get_document {"change_id":"wide","document":"spec","format":"markdown"}.');
    await mcp.close();
  });
});

/** The markdown of a document, page after page through next_cursor; every page must fit. */
async function walkDocument(mcp: Awaited<ReturnType<typeof connect>>, args: object): Promise<string[]> {
  const pages: string[] = [];
  let r = await mcp.call('agentboard_get_document', { ...args, response_format: 'json' });
  for (;;) {
    expectFits(r, `get_document page ${pages.length + 1}`);
    expect(r.data.notice ?? '', 'a page may hold fewer lines, but nothing of a line is cut').not.toMatch(/Shortened/);
    pages.push(r.data.markdown);
    if (!r.data.has_more) return pages;
    r = await mcp.call('agentboard_get_document', { cursor: r.data.next_cursor, response_format: 'json' });
  }
}

describe('pages of a list that changes between them', () => {
  it('continue after the last item shown: a task claimed meanwhile loses none, log entries written meanwhile repeat none', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'busy', Array.from({ length: 8 }, (_, i) => ({ title: `Task ${i + 1}` })));
    const reader = await connect(dir, 'all');
    const other = await connect(dir, 'all');
    const first = await reader.call('agentboard_list_tasks', { change_id: 'busy', status: 'todo', limit: 3 });
    expect(first.data.tasks.map((t: any) => t.task_id)).toEqual(['busy/T1', 'busy/T2', 'busy/T3']);
    // Another agent claims a task of the first page: the todo list is one shorter before where the page ended.
    expect((await other.call('agentboard_get_next_task', { agent_id: 'claimer' })).data.task.task_id).toBe('busy/T1');
    const second = await reader.call('agentboard_list_tasks', { cursor: first.data.next_cursor });
    expect(second.data.tasks.map((t: any) => t.task_id)).toEqual(['busy/T4', 'busy/T5', 'busy/T6']);

    const log = await reader.call('agentboard_get_activity_log', { limit: 2 });
    const shown = log.data.entries.map((e: any) => JSON.stringify(e));
    const before = (await reader.call('agentboard_get_activity_log', { limit: 50 })).data.entries.map((e: any) => JSON.stringify(e));
    // Two writes meanwhile put two entries before the first page (the log is newest first).
    await other.call('agentboard_add_note', { agent_id: 'claimer', task_id: 'busy/T1', text: 'One.' });
    await other.call('agentboard_add_note', { agent_id: 'claimer', task_id: 'busy/T1', text: 'Two.' });
    const next = (await reader.call('agentboard_get_activity_log', { cursor: log.data.next_cursor })).data.entries.map((e: any) => JSON.stringify(e));
    expect(next).toEqual(before.slice(2, 2 + next.length));
    expect(next.filter((e: string) => shown.includes(e))).toEqual([]);

    // The last item shown taken out of the list, and the one after it too: the page starts at the next one still there.
    const page = await reader.call('agentboard_list_tasks', { change_id: 'busy', status: 'todo', limit: 2 });
    expect(page.data.tasks.map((t: any) => t.task_id)).toEqual(['busy/T2', 'busy/T3']);
    await other.call('agentboard_report_progress', { agent_id: 'p3', task_id: 'busy/T3', percent: 10, message: 'Started.' });
    await other.call('agentboard_report_progress', { agent_id: 'p4', task_id: 'busy/T4', percent: 10, message: 'Started.' });
    expect((await reader.call('agentboard_list_tasks', { cursor: page.data.next_cursor })).data.tasks.map((t: any) => t.task_id)).toEqual(['busy/T5', 'busy/T6']);
    await reader.close();
    await other.close();
  });

  it("a document's list and list_tasks take only their own cursors, and say so", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'busy', Array.from({ length: 4 }, (_, i) => ({ title: `Task ${i + 1}` })));
    const mcp = await connect(dir, 'all');
    const fields = await mcp.call('agentboard_get_document', { change_id: 'busy', document: 'tasks', format: 'fields', limit: 2 });
    const tasks = await mcp.call('agentboard_list_tasks', { change_id: 'busy', limit: 2 });
    expect((await mcp.call('agentboard_list_tasks', { cursor: fields.data.next_cursor })).error!.message).toContain('continues a list of tasks of the document, not of tasks');
    expect((await mcp.call('agentboard_get_document', { cursor: tasks.data.next_cursor })).error!.message).toContain('continues a list of tasks, not of lines or items or tasks of the document');
    await mcp.close();
  });
});
