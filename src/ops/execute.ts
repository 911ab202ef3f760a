/**
 * Running an operation the same way for every adapter: check the input, run, shape the output.
 * What an adapter adds is only how input arrives and how the result is shown.
 */
import type { Context, Operation } from './registry.js';
import { parseInput } from './input.js';
import { OPERATIONS } from './index.js';

export async function execute(op: Operation, ctx: Context, raw: unknown): Promise<Record<string, unknown>> {
  const input = parseInput(op.input, raw);
  const result = await op.run(ctx, input as never);
  return op.output.parse(result) as Record<string, unknown>;
}

/**
 * Error texts name the next call as {op:<name>}; each adapter spells it its own way (a CLI
 * command for people, a tool name for agents).
 */
export function resolveOpRefs(text: string, spell: (op: Operation) => string): string {
  return text.replace(/\{op:([a-z_.]+)\}/g, (whole, name: string) => {
    const op = OPERATIONS.find((o) => o.name === name);
    return op ? spell(op) : whole;
  });
}
