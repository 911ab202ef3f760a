/**
 * References to operations in agentboard's own messages ("call X next"). Each adapter spells them
 * for its reader: the command a person types, with the real ids; for an agent, the first of the
 * alternatives its MCP profile serves, with the arguments to pass. A reference is marked with two
 * Unicode noncharacters that no input and no board file may hold (domain/text.ts), so text that
 * people or agents wrote is never taken for one, and never rewritten.
 */
import type { Stage } from './model.js';

/** The operation that writes (or submits) each pipeline document. */
export const SUBMIT_OP: Record<Stage, string> = { proposal: 'proposal.submit', spec: 'spec.create', tasks: 'tasks.create', review: 'review.create' };

const OPEN = '\uFDD0';
const CLOSE = '\uFDD1';
const MARKED = /\uFDD0([^\uFDD1]*)\uFDD1/g;

export interface Ref {
  /** Operation names, the preferred first: an adapter names the first its reader can call. None: the call being answered (SAME_CALL). */
  ops: string[];
  /** Argument values the call needs (task_id, change_id, document, input_id…), when known. */
  args: Record<string, RefArg>;
}

/** An argument's value in a reference: numbers are carried as strings, switches as booleans. */
export type RefArg = string | boolean | string[];

/** A reference to the operation (or the first available of several) for a message. */
export function refTo(ops: string | string[], args: Record<string, string | number | boolean | string[] | undefined> = {}): string {
  const given: Record<string, RefArg> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined) given[k] = Array.isArray(v) || typeof v === 'boolean' ? v : String(v);
  return `${OPEN}${JSON.stringify({ ops: typeof ops === 'string' ? [ops] : ops, args: given })}${CLOSE}`;
}

/**
 * The call being answered, to be made again: the command line as it was typed, or the tool that
 * was called. A refusal that does not know which operation met it (a file the disk refused, a
 * remote that could not be reached, markdown that cannot be read) says "try … again" with it, and
 * each caller reads its own: a person or script the command, an agent the tool, never the other.
 */
export const SAME_CALL = refTo([]);

export function hasRefs(text: string): boolean {
  return text.includes(OPEN);
}

/** Every reference in a text. */
export function refsIn(text: string): Ref[] {
  return [...text.matchAll(MARKED)].map((m) => JSON.parse(m[1]!) as Ref);
}

/** The text with every reference spelled by `spell`. */
export function resolveRefs(text: string, spell: (r: Ref) => string): string {
  return hasRefs(text) ? text.replace(MARKED, (_, body: string) => spell(JSON.parse(body) as Ref)) : text;
}

/**
 * resolveRefs over every string of a value: a copy where a string had references, the same array
 * or object where none of its strings had any (a status of a large board has thousands of values
 * and few references).
 */
export function resolveRefsDeep<T>(value: T, spell: (r: Ref) => string): T {
  if (typeof value === 'string') return resolveRefs(value, spell) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy = () => (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const resolved = resolveRefsDeep(v, spell);
    if (resolved !== v) (out ??= copy())[k] = resolved;
  }
  return (out ?? value) as T;
}
