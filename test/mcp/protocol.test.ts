import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, newBoard, ok, snapshot, tempDir, WHY } from '../helpers.js';
import { stdioServer } from './helpers.js';

const NOTES = 'No additional notes: straightforward, nothing unexpected.';

/** The tools that can drop what is on the board: a task, a list, a document's text. */
const DESTRUCTIVE = ['agentboard_correct_document', 'agentboard_create_spec', 'agentboard_create_tasks', 'agentboard_delete_task', 'agentboard_register_agent', 'agentboard_submit_proposal', 'agentboard_update_task'];

describe('agentboard mcp on the wire', () => {
  let dir: string;
  let server: ReturnType<typeof stdioServer>;
  let init: any;
  beforeAll(async () => {
    dir = await newBoard();
    await changeWithTasks(dir, 'wire', [{ title: 'One' }]);
    await ok(dir, ['propose', 'specless', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
    await ok(dir, ['spec', 'specless', '--as', 'planner', '--input', '-'], {
      stdin: JSON.stringify({ overview: 'A change whose task list the tests write, badly and then well, over stdio.', requirements: [{ id: 'R1', title: 'Works', text: 'It MUST work.' }], scenarios: [{ name: 'Works', when: 'used', then: 'works' }], notes: NOTES }),
    });
    server = stdioServer(process.execPath, [BIN, 'mcp', '--root', dir], { env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') } });
    init = await server.initialize();
  });
  afterAll(async () => expect(await server.close()).toBe(0));

  it('says its tool list never changes', () => {
    expect(init.result.capabilities.tools).toEqual({ listChanged: false });
  });

  it('marks as destructive exactly the tools that can drop data', async () => {
    const { tools } = (await server.request('tools/list')).result;
    const destructive = tools.filter((t: any) => t.annotations.destructiveHint).map((t: any) => t.name).sort();
    expect(destructive).toEqual(DESTRUCTIVE);
    for (const t of tools) if (t.annotations.readOnlyHint) expect(t.annotations.destructiveHint, t.name).toBe(false);
  });

  it.each([
    ['a string', 'not an object', 'params.arguments of agentboard_get_task must be a JSON object'],
    ['an array', [{ task_id: 'wire/T1' }], 'got an array'],
    ['a number', 42, 'got a number'],
    ['null', null, 'got null'],
  ])('answers arguments that are %s with invalid params, in words', async (_kind, args, words) => {
    const before = snapshot(dir);
    const r = await server.request('tools/call', { name: 'agentboard_get_task', arguments: args });
    expect(r.error.code).toBe(-32602);
    expect(r.error.message).toContain(words);
    expect(r.error.message).not.toMatch(/"code":|invalid_type|ZodError|MCP error/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('answers a call without a tool name, or without params, with invalid params', async () => {
    const noName = await server.request('tools/call', { arguments: {} });
    expect(noName.error).toEqual({ code: -32602, message: 'params.name must be the name of a tool, a string like "agentboard_get_task"; got nothing.' });
    const noParams = await server.request('tools/call');
    expect(noParams.error.code).toBe(-32602);
    expect(noParams.error.message).toContain('tools/call needs params');
  });

  it('names the expected shape of a nested field of the wrong type', async () => {
    const r = await server.request('tools/call', { name: 'agentboard_create_tasks', arguments: { agent_id: 'planner', change_id: 'specless', tasks: ['Write it', { title: 'Test it', files: 'src/a.ts' }], notes: NOTES } });
    const error = JSON.parse(r.result.content[0].text).error;
    expect(r.result.isError).toBe(true);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('tasks[0] must be an object like {title, ');
    expect(error.message).toContain('tasks[1].files must be a list of objects like {path, action}');
  });

  it('names every problem of a call in one answer: the schema\'s and the document rules\'', async () => {
    const before = snapshot(dir);
    const tasks = [{ title: 'x'.repeat(201), depends: ['T9'] }, { title: 'Loops', depends: ['T2'] }, { title: 'Fine', priority: 'soon', files: [{ path: '../outside.ts', action: 'modify' }] }];
    const r = await server.request('tools/call', { name: 'agentboard_create_tasks', arguments: { agent_id: 'planner', change_id: 'specless', tasks, notes: NOTES } });
    const { message } = JSON.parse(r.result.content[0].text).error;
    expect(message).toContain('tasks[0].title has 201 characters');
    expect(message).toContain('tasks[2].priority must be one of');
    expect(message).toContain('task T1 depends on T9, which is not a task of this change');
    expect(message).toContain('task T2 depends on itself');
    expect(message).toContain('task T3: "../outside.ts" is not a path inside the repository');
    expect(snapshot(dir)).toEqual(before);

    const spec = { overview: 'Too short.', requirements: [{ id: 'R1', title: 'Vague', text: 'It works.' }, { id: 'R1', title: 'Twice', text: 'It MUST be there.' }], scenarios: [{ name: 'Works', when: 'used', then: 'works' }] };
    const s = await server.request('tools/call', { name: 'agentboard_create_spec', arguments: { agent_id: 'planner', change_id: 'wire', ...spec, notes: NOTES } });
    const specError = JSON.parse(s.result.content[0].text).error.message;
    expect(specError).toContain('overview needs at least 50 characters');
    expect(specError).toContain('requirement R1 has no MUST or SHALL');
    expect(specError).toContain('requirement id "R1" is used twice');
  });

  const LONG = 'x'.repeat(60_000);
  const STEPS = [{ name: 'Works', when: 'used', then: 'works' }];
  it.each([
    ['a task status to list', 'agentboard_list_tasks', { status: LONG }],
    ['a task status to move to', 'agentboard_update_task', { agent_id: 'planner', task_id: 'wire/T1', status: LONG }],
    ['a requirement id', 'agentboard_create_spec', { agent_id: 'planner', change_id: 'wire', overview: 'The overview of a spec whose requirement has a very long id.', requirements: [{ id: LONG, title: 'Long', text: 'It works.' }], scenarios: STEPS, notes: NOTES }],
    ['a field name', 'agentboard_get_task', { task_id: 'wire/T1', [LONG]: 1 }],
  ])('quotes %s of 60,000 characters in its first 80 and "…", in an error far under 25,000 characters', async (_what, name, args) => {
    const before = snapshot(dir);
    const r = await server.request('tools/call', { name, arguments: args });
    const text: string = r.result.content[0].text;
    expect(r.result.isError).toBe(true);
    expect(text.length).toBeLessThan(2_000);
    const { code, message } = JSON.parse(text).error;
    expect(code).toBe('INVALID_INPUT');
    expect(message).toContain(`${'x'.repeat(80)}…`);
    expect(message).not.toContain('x'.repeat(81));
    if (name === 'agentboard_create_spec') expect(message).toContain(`requirement ${'x'.repeat(80)}… has no MUST or SHALL`);
    expect(snapshot(dir)).toEqual(before);
  });

  it('never answers an error longer than 25,000 characters: the message is cut before it is JSON', async () => {
    // A circle through 1,000 tasks of 32-character ids: the rule names every task on it.
    const id = (i: number) => `T${String(i).padStart(31, '0')}`;
    const tasks = Array.from({ length: 1000 }, (_, i) => ({ id: id(i), title: `Task ${i}`, depends: [id((i + 1) % 1000)] }));
    const before = snapshot(dir);
    const r = await server.request('tools/call', { name: 'agentboard_create_tasks', arguments: { agent_id: 'planner', change_id: 'specless', tasks, notes: NOTES } });
    const text: string = r.result.content[0].text;
    expect(text.length).toBeLessThanOrEqual(25_000);
    const error = JSON.parse(text).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(new RegExp(`^The task list is not valid, so nothing was written: tasks\\[0\\]: tasks depend on each other in a circle: ${id(0)} → ${id(1)} → .*…$`));
    expect(error.next_step).toBe('Fix this and call agentboard_create_tasks {"agent_id":"planner","change_id":"specless"} giving tasks and notes again.');
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses arguments nested thousands deep as invalid input, not an internal error', async () => {
    const deep = `${'['.repeat(10_000)}"x"${']'.repeat(10_000)}`;
    const before = snapshot(dir);
    const r = await server.requestRaw('tools/call', `{"name":"agentboard_create_tasks","arguments":{"agent_id":"planner","change_id":"specless","tasks":[{"title":"One","depends":${deep}}],"notes":${JSON.stringify(NOTES)}}}`);
    const error = JSON.parse(r.result.content[0].text).error;
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: 'Invalid input: objects and arrays are nested more than 32 deep; no field takes that.' });
    expect(snapshot(dir)).toEqual(before);
  });

  it('takes the values clients send as text, or as null for a field left out, as the schema means them', async () => {
    // Some clients pass every argument on as a string; models told that every field is required send null for the ones they leave out.
    const list = await server.request('tools/call', { name: 'agentboard_list_changes', arguments: { limit: ' 1 ', offset: '0', archived: 'false', phase: null } });
    expect(list.result.isError, list.result.content[0].text).toBeUndefined();
    expect(list.result.structuredContent).toMatchObject({ total: 2, has_more: true, next_offset: 1 });
    expect(list.result.structuredContent.changes).toHaveLength(1);

    await ok(dir, ['propose', 'texty', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
    await ok(dir, ['spec', 'texty', '--as', 'planner', '--input', '-'], {
      stdin: JSON.stringify({ overview: 'A change whose task list comes as text, the way some clients send a list.', requirements: [{ id: 'R1', title: 'Works', text: 'It MUST work.' }], scenarios: [{ name: 'Works', when: 'used', then: 'works' }], notes: NOTES }),
    });
    const tasks = JSON.stringify([{ title: '1984', description: null }, { title: 'Second', depends: '["T1"]', description: '[1, 2]' }]);
    const created = await server.request('tools/call', { name: 'agentboard_create_tasks', arguments: { agent_id: 'planner', change_id: 'texty', tasks, notes: NOTES } });
    expect(created.result.isError, created.result.content[0].text).toBeUndefined();
    const second = await server.request('tools/call', { name: 'agentboard_get_task', arguments: { task_id: 'texty/T2' } });
    // Text a field takes stays text: only the values the schema refused are read again.
    expect(second.result.structuredContent.task).toMatchObject({ title: 'Second', depends: ['T1'], description: '[1, 2]' });
    expect((await server.request('tools/call', { name: 'agentboard_get_task', arguments: { task_id: 'texty/T1' } })).result.structuredContent.task.title).toBe('1984');

    // A cursor, an offset or a filter given as null is left out too: the first page, then the next one from its cursor.
    const first = await server.request('tools/call', { name: 'agentboard_list_changes', arguments: { limit: 1, cursor: null, offset: null } });
    expect(first.result.structuredContent).toMatchObject({ total: 3, has_more: true });
    const next = await server.request('tools/call', { name: 'agentboard_list_changes', arguments: { cursor: first.result.structuredContent.next_cursor, offset: null, phase: null } });
    expect(next.result.isError, next.result.content[0].text).toBeUndefined();
    expect(next.result.structuredContent.changes[0].change_id).not.toBe(first.result.structuredContent.changes[0].change_id);

    // What no reading makes right is refused as before, naming what the field takes; nothing is written.
    const before = snapshot(dir);
    const refused = [
      [{ limit: 'ten' }, 'limit must be a number, not "ten"'],
      [{ limit: '1.5' }, 'limit must be a whole number'],
      [{ archived: 'yes' }, 'archived must be true or false, not "yes"'],
    ] as const;
    for (const [args, words] of refused) {
      const r = await server.request('tools/call', { name: 'agentboard_list_changes', arguments: args });
      expect(JSON.parse(r.result.content[0].text).error.message).toContain(words);
    }
    const required = await server.request('tools/call', { name: 'agentboard_get_change', arguments: { change_id: null } });
    expect(JSON.parse(required.result.content[0].text).error.message).toBe('Invalid input: change_id is required.');
    // An update whose title and description are both null changes nothing: refused, as one with neither (seed 003).
    const nothing = await server.request('tools/call', { name: 'agentboard_update_task', arguments: { agent_id: 'planner', task_id: 'texty/T1', title: null, description: null } });
    expect(JSON.parse(nothing.result.content[0].text).error.message).toContain('give at least one field to change');
    const deep = await server.request('tools/call', { name: 'agentboard_create_tasks', arguments: { agent_id: 'planner', change_id: 'specless', tasks: `${'['.repeat(10_000)}${']'.repeat(10_000)}`, notes: NOTES } });
    expect(JSON.parse(deep.result.content[0].text).error.message).toBe('Invalid input: objects and arrays are nested more than 32 deep; no field takes that.');
    expect(snapshot(dir)).toEqual(before);
  });

  it('names every rule a valid input breaks in one answer', async () => {
    const tasks = Array.from({ length: 5 }, (_, i) => ({ title: `Task ${i + 1}`, depends: [`T${i + 10}`] }));
    const r = await server.request('tools/call', { name: 'agentboard_create_tasks', arguments: { agent_id: 'planner', change_id: 'specless', tasks, notes: NOTES } });
    const { message } = JSON.parse(r.result.content[0].text).error;
    for (let i = 1; i <= 5; i++) expect(message).toContain(`task T${i} depends on T${i + 9}`);
  });
});
