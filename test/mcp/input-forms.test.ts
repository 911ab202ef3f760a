/**
 * tools/list declares the form of ids (the patterns of domain/ids.ts) and that a required text
 * cannot be empty, so that a client that checks a call against the schema refuses what the server
 * refuses; within each profile's byte budget, the most important forms first. The server's own
 * refusal still names the field and the form expected.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { agentIdProblem, changeIdProblem, parseTaskRef, taskIdProblem } from '../../src/domain/ids.js';
import { LIST_BUDGETS } from '../../src/mcp/server.js';
import { BIN, changeWithTasks, newBoard, snapshot, tempDir } from '../helpers.js';
import { connect, stdioServer } from './helpers.js';

const AGENT_ID = '^[a-z0-9][a-z0-9._-]*$';
const CHANGE_ID = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const TASK_ID = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
const TASK_REF = '^[a-z0-9]+(?:-[a-z0-9]+)*/[A-Za-z0-9][A-Za-z0-9._-]*$';

type Schema = { type?: string | string[]; pattern?: string; minLength?: number; enum?: unknown[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema };

/** Every field of a tool's input, at every depth: its path, its schema, and whether the call must give it. */
function fieldsOf(schema: Schema, path = ''): { path: string; name: string; schema: Schema; required: boolean }[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const at = `${path}.${name}`;
    const nested = field.items?.properties ? fieldsOf(field.items, `${at}[]`) : field.properties ? fieldsOf(field, at) : [];
    const items = field.items && !field.items.properties ? [{ path: `${at}[]`, name: `${name}[]`, schema: field.items, required: false }] : [];
    return [{ path: at, name, schema: field, required: required.has(name) }, ...items, ...nested];
  });
}

/** The pattern each id field must declare, by where it is. */
function idPattern(tool: string, path: string): string | undefined {
  if (path === '.agent_id') return AGENT_ID;
  if (path === '.change_id') return CHANGE_ID;
  if (path === '.task_id' || (path === '.tasks[]' && tool === 'agentboard_submit_for_review')) return TASK_REF;
  if (/^(\.tasks\[\])?\.(id|depends\[\])$/.test(path)) return TASK_ID;
  return undefined;
}

/** The required texts that may be empty: a section's heading and text. */
const MAY_BE_EMPTY = /\.sections\[\]\.(heading|text)$/;

async function listing(profile: 'worker' | 'planner' | 'reviewer' | 'agent' | 'all') {
  const mcp = await connect(await newBoard(), profile);
  const { tools } = await mcp.client.listTools();
  await mcp.close();
  return tools as unknown as { name: string; inputSchema: Schema }[];
}

/** What a listing leaves undeclared: id fields without their pattern, required texts that may be empty; and how many id fields it has. */
function undeclared(tools: { name: string; inputSchema: Schema }[], kinds: { agentIds: boolean }): { missing: string[]; ids: number } {
  const missing: string[] = [];
  let ids = 0;
  for (const tool of tools) {
    for (const f of fieldsOf(tool.inputSchema)) {
      const pattern = idPattern(tool.name, f.path);
      if (pattern === AGENT_ID && !kinds.agentIds) continue;
      if (pattern) ids++;
      if (pattern && f.schema.pattern !== pattern) missing.push(`${tool.name}${f.path}: pattern ${f.schema.pattern ?? 'none'}`);
      if (f.required && f.schema.type === 'string' && !MAY_BE_EMPTY.test(f.path) && !f.schema.pattern && !((f.schema.minLength ?? 0) >= 1)) missing.push(`${tool.name}${f.path}: a required text without minLength`);
    }
  }
  return { missing, ids };
}

describe('tools/list declares the forms of inputs', () => {
  it.each(['worker', 'planner', 'reviewer'] as const)('in the %s profile: every id its pattern, every required text minLength 1', async (profile) => {
    const tools = await listing(profile);
    const { missing, ids } = undeclared(tools, { agentIds: true });
    expect(missing).toEqual([]);
    expect(ids).toBeGreaterThan(tools.length);
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(LIST_BUDGETS[profile]);
  });

  it('with every tool listed, within its budget: task ids, change ids and required texts first', async () => {
    const tools = await listing('all');
    const { missing, ids } = undeclared(tools, { agentIds: false });
    expect(missing).toEqual([]);
    expect(ids).toBeGreaterThan(20);
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(LIST_BUDGETS.all);
  });

  it('agree with the checks of the domain: a value the pattern refuses is refused, one it takes is taken (within the lengths said in words)', () => {
    const cases: [string, (v: string) => boolean, string[]][] = [
      [AGENT_ID, (v) => agentIdProblem(v) === null, ['claude', 'codex-2', 'gpt.5_mini', '9lives', '', 'Claude', 'codex 2', '-codex', 'human:ana', 'a/b']],
      [CHANGE_ID, (v) => changeIdProblem(v) === null, ['add-review-tool', 'abc', 'v2-api', '', 'Add-Review', 'add--review', '-add', 'add-', 'add_review', '../x', 'a/b']],
      [TASK_ID, (v) => taskIdProblem(v) === null, ['T1', '1.2', 'fix_3', 'T-4', '', '.T1', 'T 1', 'T/1', 'demo/T1']],
      [TASK_REF, (v) => typeof parseTaskRef(v) !== 'string', ['demo/T1', 'add-review-tool/1.2', 'abc/T-4', 'T3', '', 'demo/', '/T1', 'Demo/T1', 'demo/T1/x', 'demo/T 1', 'de--mo/T1']],
    ];
    for (const [pattern, valid, samples] of cases) {
      for (const sample of samples) expect(new RegExp(pattern, 'u').test(sample), `${pattern} on "${sample}"`).toBe(valid(sample));
    }
  });
});

describe('a call the listed schema refuses', () => {
  it('is refused by the server over stdio too, naming each field and the form it expects, and nothing is written', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'forms', [{ title: 'One' }]);
    const server = stdioServer(process.execPath, [BIN, 'mcp', '--profile', 'worker', '--root', dir], { env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') } });
    await server.initialize();
    const { tools } = (await server.request('tools/list')).result;
    const schema = tools.find((t: { name: string }) => t.name === 'agentboard_report_progress').inputSchema;
    const check = new AjvJsonSchemaValidator().getValidator(schema);

    expect(check({ agent_id: 'codex-1', task_id: 'forms/T1', percent: 10, message: 'Started.' }).valid).toBe(true);
    const before = snapshot(dir);
    for (const [args, problems] of [
      [{ agent_id: '', task_id: '', percent: 10, message: '' }, ['agent_id: an agent id has 1 to 64 characters', 'task_id: "" is not a task id of the form <change_id>/<task_id> (like "add-review-tool/T1")', 'message cannot be empty']],
      [{ agent_id: 'Codex', task_id: 'T3', percent: 10, message: 'Started.' }, ['agent_id: "Codex" is not a valid agent id: use lowercase letters, digits', 'task_id: "T3" is not a task id of the form <change_id>/<task_id>']],
    ] as [object, string[]][]) {
      const verdict = check(args);
      expect(verdict.valid, JSON.stringify(args)).toBe(false);
      const answer = await server.request('tools/call', { name: 'agentboard_report_progress', arguments: args });
      expect(answer.result.isError).toBe(true);
      const error = JSON.parse(answer.result.content[0].text).error;
      expect(error.code).toBe('INVALID_INPUT');
      for (const problem of problems) expect(error.message, JSON.stringify(args)).toContain(problem);
    }
    expect(snapshot(dir)).toEqual(before);
    expect(await server.close()).toBe(0);
  });
});
