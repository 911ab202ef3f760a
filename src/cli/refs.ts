/**
 * How a person reads a reference in agentboard's messages (domain/refs.ts): the command to type,
 * with the real ids filled in, and `--as <agent>` when an agent at a shell is the one to run it.
 */
import { isHuman } from '../domain/ids.js';
import type { Ref, RefArg } from '../domain/refs.js';
import { takes, type OpInfo } from '../ops/catalog.js';
import { flagOf } from './field-names.js';
import { shellWord } from '../shell.js';

/** What the command line of an operation is made from. */
export type Spelled = Pick<OpInfo, 'name' | 'cli' | 'access' | 'fields'>;

/**
 * The command line of an operation with the arguments known, in backticks. A required argument
 * that is not known is no placeholder but named in words after it ("`agentboard new` followed by
 * the change id"), and so is a required option ("giving `--summary`"), so that the reader never
 * copies a placeholder as a value, nor a command that is refused for what it lacks. The agent it names
 * with --as is the reference's agent_id, else the actor of the command being answered; an actor
 * given as '' is an agent whose id is not known (an MCP call without agent_id): said in words.
 */
/** "a", "a and b", "a, b and c". */
export function and(items: string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

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
  // An agent names itself with --as where it acts, and where it reads its own state (session show).
  const ownId = takes(op, 'agent_id') && !positional.includes('agent_id') && op.access !== 'human';
  const needsId = ownId && (op.access !== 'read' || op.fields.some((f) => f.name === 'agent_id' && f.required));
  const as = typeof args.agent_id === 'string' ? args.agent_id : actor;
  if (needsId && as === '') words.push('`--as` and your agent id');
  else if (needsId && as !== undefined && !isHuman(as)) parts.push('--as', as);
  const needed = op.fields.filter((f) => f.required && f.name !== 'agent_id' && !positional.includes(f.name) && args[f.name] === undefined);
  const lacking = needed.filter((f) => f.kind !== 'object').map((f) => `\`--${flagOf(op, f.name)}\``);
  // A list of objects has no flag: it comes in --input.
  const lists = needed.filter((f) => f.kind === 'object').map((f) => f.name.replace(/_/g, ' '));
  const inFile = lists.length > 0 ? `, with the ${and(lists)} in \`--input\` FILE.json` : '';
  return `\`${parts.join(' ')}\`${words.length > 0 ? ` followed by ${words.join(' and ')}` : ''}${lacking.length > 0 ? ` giving ${and(lacking)}` : ''}${inFile}`;
}

/** The call a command is answering, once its input is known, and its command line as given. */
export interface SameCall {
  call: () => { op: string; input: Record<string, unknown> } | undefined;
  command: string;
}

/**
 * The speller of the command line: the first operation of a reference, as a command in backticks.
 * A reference to the call being answered, with values it was given (the call to make again; a
 * reference without any names the command, not this call), is the command line as it was typed:
 * its files and options are needed again too. So is SAME_CALL, the call being answered whatever it was.
 */
export function cliSpeller(operations: readonly Spelled[], actor?: string, same?: SameCall): (r: Ref) => string {
  return (r) => {
    // The call being answered (SAME_CALL): the command as typed; outside a command (a run's events, the console), what was done.
    if (r.ops.length === 0) return same ? `\`${same.command}\`` : 'it';
    const op = operations.find((o) => o.name === r.ops[0]);
    if (!op) return r.ops[0]!;
    const call = same?.call();
    const args = Object.entries(r.args);
    if (call?.op === op.name && args.length > 0 && args.every(([k, v]) => JSON.stringify(spelledValue(call.input[k])) === JSON.stringify(v))) return `\`${same!.command}\``;
    // An agent that named itself in --input rather than with --as acts as itself in the next command too.
    const named = call?.input.agent_id;
    return commandLine(op, r.args, actor ?? (typeof named === 'string' ? named : undefined));
  };
}

/** An input value as a reference carries it (numbers as strings). */
function spelledValue(v: unknown): unknown {
  return typeof v === 'number' ? String(v) : v;
}

/** Options whose values are secrets: never printed back, even to whoever gave them. */
const SECRET_OPTIONS = ['--review-key'];

/**
 * A command line as it was given, to be run again: secrets as placeholders (`<review-key>`), and
 * without the options that only choose how the answer is shown (--json, --debug).
 */
export function sameCommand(argv: readonly string[]): string {
  const words: string[] = ['agentboard'];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json' || a === '--debug') continue;
    const secret = SECRET_OPTIONS.find((o) => a === o || a.startsWith(`${o}=`));
    if (secret === undefined) words.push(shellWord(a));
    else {
      words.push(secret, `<${secret.slice(2)}>`);
      if (a === secret) i++;
    }
  }
  return words.join(' ');
}
