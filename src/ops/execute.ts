/**
 * Running an operation the same way for every adapter: check the input, run, shape the output.
 * What an adapter adds is only how input arrives and how the result is shown.
 */
import type { Context, Operation } from './registry.js';
import { parseInput } from './input.js';
import { OPERATIONS } from './index.js';

export async function execute(op: Operation, ctx: Context, raw: unknown): Promise<Record<string, unknown>> {
  return runParsed(op, ctx, parseInput(op.input, raw));
}

/**
 * Runs an operation on input already checked against its schema, and shapes the result by its
 * output schema. On a shared board (config.yaml names a remote) the operation runs through
 * ops/shared-run.ts, loaded only then.
 */
export async function runParsed(op: Operation, ctx: Context, input: unknown): Promise<Record<string, unknown>> {
  ctx.begin();
  const shared = op.name !== 'board.init' && !op.ownSync && ctx.board().config.remote !== undefined;
  const result = shared ? await (await import('./shared-run.js')).runShared(op, ctx, input as Record<string, unknown>) : await op.run(ctx, input as never);
  return op.output.parse(result) as Record<string, unknown>;
}

/**
 * Messages name the next call as {op:<name>}; each adapter spells it its own way (a CLI
 * command for people, a tool name for agents).
 */
export function resolveOpRefs(text: string, spell: (op: Operation) => string): string {
  if (!text.includes('{op:')) return text;
  return text.replace(/\{op:([a-z_.]+)\}/g, (whole, name: string) => {
    const op = OPERATIONS.find((o) => o.name === name);
    return op ? spell(op) : whole;
  });
}

/** resolveOpRefs over every string of a result. */
export function resolveOpRefsDeep<T>(value: T, spell: (op: Operation) => string): T {
  if (typeof value === 'string') return resolveOpRefs(value, spell) as T;
  if (Array.isArray(value)) return value.map((v) => resolveOpRefsDeep(v, spell)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveOpRefsDeep(v, spell);
    return out as T;
  }
  return value;
}
