import { describe, expect, it } from 'vitest';
import { jsonSchema, toolInput, toolOperations, toolOutput } from '../../src/mcp/server.js';

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

  it('are strict on input and objects at the root of the output', async () => {
    for (const op of tools) {
      expect(jsonSchema(toolInput(op), 'input').additionalProperties, op.tool!.name).toBe(false);
      expect(jsonSchema(toolOutput(op), 'output').type, op.tool!.name).toBe('object');
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
