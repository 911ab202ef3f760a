/**
 * Running an operation the same way for every adapter: check the input, run, shape the output.
 * What an adapter adds is only how input arrives and how the result is shown.
 */
import type { Context, Operation } from './registry.js';
import { parseInput } from './input.js';

export async function execute(op: Operation, ctx: Context, raw: unknown): Promise<Record<string, unknown>> {
  return runParsed(op, ctx, parseInput(op.input, raw, { rules: op.inputRules }));
}

/** Runs an operation on input already checked against its schema, and shapes the result by its output schema. */
export async function runParsed(op: Operation, ctx: Context, input: unknown): Promise<Record<string, unknown>> {
  ctx.begin();
  return op.output.parse(await op.run(ctx, input as never)) as Record<string, unknown>;
}
