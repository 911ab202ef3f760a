/**
 * How a person reads a reference in agentboard's messages (domain/refs.ts): the command to type,
 * with the real ids filled in, and `--as <agent>` when an agent at a shell is the one to run it.
 */
import { isHuman } from '../domain/ids.js';
import type { Ref, RefArg } from '../domain/refs.js';
import { takes, type OpInfo } from '../ops/catalog.js';
import { flagOf } from './field-names.js';

function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** What the command line of an operation is made from. */
export type Spelled = Pick<OpInfo, 'name' | 'cli' | 'access' | 'fields'>;

/**
 * The command line of an operation with the arguments known, in backticks. A required argument
 * that is not known is no placeholder but named in words after it ("`agentboard new` followed by
 * the change id"), so that the reader never copies a placeholder as a value.
 */
export function commandLine(op: Spelled, args: Record<string, RefArg> = {}, actor?: string): string {
  const parts = ['agentboard', op.cli.command];
  const positional = (op.cli.args ?? []).map((a) => a.replace(/\?$/, ''));
  const words: string[] = [];
  for (const a of op.cli.args ?? []) {
    const name = a.replace(/\?$/, '');
    const v = args[name];
    const shown = v === undefined ? undefined : shellWord(Array.isArray(v) ? v.join(',') : String(v));
    if (shown === undefined) {
      if (!a.endsWith('?')) words.push(`the ${name.replace(/_/g, ' ')}`);
    } else if (words.length > 0) words.push(`\`${shown}\``);
    else parts.push(shown);
  }
  for (const [k, v] of Object.entries(args)) {
    if (positional.includes(k) || k === 'agent_id' || !takes(op, k)) continue;
    const flag = `--${flagOf(op, k)}`;
    if (v === true) parts.push(flag);
    else if (Array.isArray(v)) for (const one of v) parts.push(flag, shellWord(one));
    else if (v !== false) parts.push(flag, shellWord(v));
  }
  const acts = takes(op, 'agent_id') && op.access !== 'read' && op.access !== 'human';
  if (acts && actor !== undefined && !isHuman(actor)) parts.push('--as', actor);
  return `\`${parts.join(' ')}\`${words.length > 0 ? ` followed by ${words.join(' and ')}` : ''}`;
}

/** The speller of the command line: the first operation of a reference, as a command in backticks. */
export function cliSpeller(operations: readonly Spelled[], actor?: string): (r: Ref) => string {
  return (r) => {
    const op = operations.find((o) => o.name === r.ops[0]);
    return op ? commandLine(op, r.args, actor) : r.ops[0]!;
  };
}
