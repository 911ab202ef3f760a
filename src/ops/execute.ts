/**
 * Running an operation the same way for every adapter: check the input, run, shape the output.
 * What an adapter adds is only how input arrives and how the result is shown.
 */
import { inputRulesOf, type Context, type Operation } from './registry.js';
import { parseInput } from './input.js';
import { fail } from '../errors.js';
import { printable } from '../domain/text.js';
import { refTo } from '../domain/refs.js';

/** A write of a run's worker to a task other than the one the run gave it is refused, naming its own. */
export function refuseOutsideAssignment(op: Operation, ctx: Context, input: Record<string, unknown>): void {
  const assignment = ctx.assignment;
  if (!assignment || op.access === 'read') return;
  const named = [input.task_id, ...(Array.isArray(input.tasks) ? input.tasks : [])].filter((t): t is string => typeof t === 'string');
  const other = named.find((t) => t !== assignment);
  if (other === undefined) return;
  fail(
    'TASK_NOT_YOURS',
    `agentboard run gave you ${assignment}; ${printable(other)} is not yours to change in this run, so nothing was changed.`,
    `Work on ${assignment} only: report with ${refTo('task.progress', { task_id: assignment })} and finish with ${refTo('task.done', { task_id: assignment })}.`,
  );
}

export async function execute(op: Operation, ctx: Context, raw: unknown): Promise<Record<string, unknown>> {
  return runParsed(op, ctx, parseInput(op.input, raw, { rules: inputRulesOf(op, ctx) }));
}

/**
 * Runs an operation on input already checked against its schema, and shapes the result by its
 * output schema. On a shared board (config.yaml names a remote) the operation runs through
 * ops/shared-run.ts, loaded only then.
 */
export async function runParsed(op: Operation, ctx: Context, input: unknown): Promise<Record<string, unknown>> {
  refuseOutsideAssignment(op, ctx, input as Record<string, unknown>);
  ctx.begin();
  const shared = !op.ownSync && ctx.board().config.remote !== undefined;
  const result = shared ? await (await import('./shared-run.js')).runShared(op, ctx, input as Record<string, unknown>) : await op.run(ctx, input as never);
  return op.output.parse(result) as Record<string, unknown>;
}
