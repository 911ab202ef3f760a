import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LIST_BUDGETS, PROFILES, toolInput, toolOperations, toolOutput } from '../../src/mcp/server.js';
import { changeWithTasks, newBoard, snapshot } from '../helpers.js';
import { connect } from './helpers.js';
import { jsonSchema } from '../../src/mcp/schema.js';

describe('tool schemas', () => {
  const tools = toolOperations('all');

  it('describe every input field, at every depth', async () => {
    const missing: string[] = [];
    const walk = (schema: any, path: string) => {
      for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
        if (!prop.description) missing.push(`${path}.${name}`);
        const items = prop.items ?? prop.anyOf?.find((x: any) => x.type === 'object');
        if (items?.properties) walk(items, `${path}.${name}[]`);
        if (prop.properties) walk(prop, `${path}.${name}`);
      }
    };
    for (const op of tools) walk(jsonSchema(toolInput(op), 'input'), op.tool!.name);
    expect(missing).toEqual([]);
  });

  it('are objects at the root, and name every field of the output', async () => {
    for (const op of tools) {
      expect(jsonSchema(toolInput(op), 'input').type, op.tool!.name).toBe('object');
      const output = jsonSchema(toolOutput(op), 'output') as { type: string; properties: Record<string, unknown> };
      expect(output.type, op.tool!.name).toBe('object');
      expect(Object.keys(output.properties).sort(), op.tool!.name).toEqual(Object.keys(toolOutput(op).shape).sort());
    }
  });

  it('require agent_id on every tool that writes and on get_next_task, and review_key on reviewer tools', async () => {
    for (const op of tools) {
      const input = jsonSchema(toolInput(op), 'input') as { required?: string[] };
      if (op.access !== 'read') expect(input.required, op.tool!.name).toContain('agent_id');
      if (op.access === 'reviewer') expect(input.required, op.tool!.name).toContain('review_key');
    }
  });

  it('give the notes fields the notes policy with good and bad examples', async () => {
    const submit = jsonSchema(toolInput(tools.find((op) => op.tool!.name === 'agentboard_submit_proposal')!), 'input') as any;
    expect(submit.properties.notes.description).toContain('Good:');
    expect(submit.properties.notes.description).toContain('Bad: "Document submitted"');
  });

  it('name other operations only through references, so that each profile spells them its way', async () => {
    for (const op of tools) {
      expect(op.tool!.description, op.tool!.name).not.toMatch(/agentboard_/);
      expect(JSON.stringify(jsonSchema(toolInput(op), 'input')), `${op.tool!.name}: a field description names a tool`).not.toMatch(/agentboard_/);
    }
  });

  it('give one agent that plans and works what it needs in the agent profile', async () => {
    const agent = toolOperations('agent').map((op) => op.name);
    for (const name of ['proposal.submit', 'spec.create', 'tasks.create', 'document.get', 'task.next', 'task.progress', 'task.done', 'session.submit', 'input.ask']) expect(agent).toContain(name);
    expect(agent.length).toBeLessThanOrEqual(20);
  });

  it('fit the worker profile in 12 tools, with names of at most 47 characters', async () => {
    expect(toolOperations('worker').length).toBeLessThanOrEqual(12);
    for (const op of tools) expect(op.tool!.name).toMatch(/^agentboard_[a-z]+_[a-z_]+$/);
    for (const op of tools) expect(op.tool!.name.length).toBeLessThanOrEqual(47);
  });
});

/** The most bytes tools/list may take, per profile: an agent pays for them in every session. */
const BUDGETS: Record<string, number> = { worker: 12_000, agent: 20_000, planner: 40_000, reviewer: 40_000, all: 40_000 };

describe('the budgets of tools/list', () => {
  it('are the ones the server fits its listing to', () => {
    expect(LIST_BUDGETS).toEqual(BUDGETS);
  });
});

describe('tools/list, as a client gets it', () => {
  it.each(PROFILES.map((p) => [p]))('fits the budget of the %s profile, with an outputSchema on every tool', async (profile) => {
    const dir = await newBoard();
    const mcp = await connect(dir, profile);
    const list = await mcp.client.listTools();
    await mcp.close();
    expect(BUDGETS[profile], `a budget for the ${profile} profile`).toBeDefined();
    // Counted as it comes over the wire: the JSON-RPC response, with its envelope and newline.
    expect(Buffer.byteLength(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: list })}\n`), profile).toBeLessThanOrEqual(BUDGETS[profile]!);
    expect(list.tools.length).toBe(toolOperations(profile).length);
    for (const tool of list.tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it.each(PROFILES.map((p) => [p]))('describes every input field once in the %s profile', async (profile) => {
    const dir = await newBoard();
    const mcp = await connect(dir, profile);
    const { tools } = await mcp.client.listTools();
    await mcp.close();
    const seen = new Map<string, string[]>();
    const walk = (schema: any) => {
      for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
        const descriptions = seen.get(name) ?? [];
        if (prop.description) descriptions.push(prop.description);
        seen.set(name, descriptions);
        const items = prop.items ?? prop;
        if (items?.properties) walk(items);
      }
    };
    for (const tool of tools) walk(tool.inputSchema);
    for (const [name, descriptions] of seen) {
      expect(descriptions.length, `${profile}: ${name} is described`).toBeGreaterThan(0);
      expect(new Set(descriptions).size, `${profile}: no description of ${name} twice`).toBe(descriptions.length);
    }
    const notes = JSON.stringify(tools).match(/Bad: \\"Document submitted\\"/g) ?? [];
    expect(notes.length, 'the notes policy at most once').toBeLessThanOrEqual(1);
  });
});

/** Every limit a JSON Schema declares, by where it is ("properties.tasks.items.properties.title.maxLength"). */
function limitsOf(node: unknown, path = '', out: Record<string, number> = {}): Record<string, number> {
  if (node === null || typeof node !== 'object') return out;
  for (const [k, v] of Object.entries(node)) {
    const at = path ? `${path}.${k}` : k;
    if (/^(min|max)(Length|Items|imum)$/.test(k) && typeof v === 'number') out[at] = v;
    else limitsOf(v, at, out);
  }
  return out;
}

describe('tool input limits', () => {
  it('are declared in tools/list, every one the input schema holds a value to (minLength 1 where a text is required, input-forms.test.ts)', () => {
    const beyondOne = (limits: Record<string, number>) => Object.fromEntries(Object.entries(limits).filter(([at, v]) => !(at.endsWith('.minLength') && v <= 1) && Math.abs(v) !== Number.MAX_SAFE_INTEGER));
    for (const op of toolOperations('all')) {
      const input = toolInput(op);
      expect(beyondOne(limitsOf(jsonSchema(input, 'input'))), op.tool!.name).toEqual(beyondOne(limitsOf(z.toJSONSchema(input, { target: 'draft-7', io: 'input' }))));
    }
  });

  it('include those of long texts, lists and cursors', async () => {
    const dir = await newBoard();
    const mcp = await connect(dir, 'all');
    const { tools } = await mcp.client.listTools();
    await mcp.close();
    const field = (tool: string, name: string): any => (tools.find((t) => t.name === tool)!.inputSchema.properties as any)[name];
    expect(field('agentboard_add_task', 'description').maxLength).toBe(2000);
    expect(field('agentboard_update_task', 'description').maxLength).toBe(2000);
    expect(field('agentboard_submit_proposal', 'why')).toMatchObject({ minLength: 50, maxLength: 2000 });
    expect(field('agentboard_add_note', 'text').maxLength).toBe(4000);
    for (const [tool, name] of [['agentboard_report_progress', 'message'], ['agentboard_request_input', 'question'], ['agentboard_update_status', 'message']]) expect(field(tool!, name!).maxLength, `${tool}.${name}`).toBe(2000);
    expect(field('agentboard_create_tasks', 'tasks')).toMatchObject({ minItems: 1, maxItems: 1000, items: { properties: { description: { maxLength: 2000 } } } });
    expect(field('agentboard_list_tasks', 'status').enum).toEqual(['todo', 'in_progress', 'blocked', 'in_review', 'done', 'pending', 'completed']);
    const paged = tools.filter((t) => 'cursor' in (t.inputSchema.properties ?? {}));
    expect(paged.length).toBeGreaterThan(10);
    for (const t of paged) expect(field(t.name, 'cursor').maxLength, t.name).toBe(4000);
  });

  it('are counted as JSON Schema counts them (an emoji is one character): what the schema allows is taken, and one more is refused', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'emoji', [{ title: 'One' }]);
    const mcp = await connect(dir, 'worker');
    const planner = await connect(dir, 'planner');
    const { maxLength } = (await planner.client.listTools()).tools.find((t) => t.name === 'agentboard_add_task')!.inputSchema.properties!.title as { maxLength: number };
    for (const n of [150, maxLength]) {
      const r = await planner.call('agentboard_add_task', { agent_id: 'planner', change_id: 'emoji', title: '😀'.repeat(n) });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.task.title).toBe('😀'.repeat(n));
    }
    const before = snapshot(dir);
    const over = await planner.call('agentboard_add_task', { agent_id: 'planner', change_id: 'emoji', title: '😀'.repeat(maxLength + 1) });
    expect(over.error?.message).toBe(`Invalid input: title has ${maxLength + 1} characters; at most ${maxLength} are allowed.`);
    const note = await mcp.call('agentboard_report_progress', { agent_id: 'w', task_id: 'emoji/T1', percent: 5, message: '😀'.repeat(2001) });
    expect(note.error?.message).toBe('Invalid input: message has 2001 characters; at most 2000 are allowed.');
    expect(snapshot(dir)).toEqual(before);
    await mcp.close();
    await planner.close();
  });
});
