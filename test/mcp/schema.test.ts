import { describe, expect, it } from 'vitest';
import { PROFILES, toolInput, toolOperations, toolOutput } from '../../src/mcp/server.js';
import { newBoard } from '../helpers.js';
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

describe('tools/list, as a client gets it', () => {
  it.each(PROFILES.map((p) => [p]))('fits the budget of the %s profile, with an outputSchema on every tool', async (profile) => {
    const dir = await newBoard();
    const mcp = await connect(dir, profile);
    const list = await mcp.client.listTools();
    await mcp.close();
    expect(BUDGETS[profile], `a budget for the ${profile} profile`).toBeDefined();
    expect(Buffer.byteLength(JSON.stringify(list)), profile).toBeLessThanOrEqual(BUDGETS[profile]!);
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
