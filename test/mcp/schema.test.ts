import { describe, expect, it } from 'vitest';
import { toolInput, toolOperations, toolOutput } from '../../src/mcp/server.js';
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

  it('fit the worker profile in 12 tools, with names of at most 47 characters', async () => {
    expect(toolOperations('worker').length).toBeLessThanOrEqual(12);
    for (const op of tools) expect(op.tool!.name).toMatch(/^agentboard_[a-z]+_[a-z_]+$/);
    for (const op of tools) expect(op.tool!.name.length).toBeLessThanOrEqual(47);
  });
});
