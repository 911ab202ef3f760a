/** Checks an operation's input against its schema and turns every problem into one clear line, the expected shape included. */
import { toJSONSchema, type z } from 'zod';
import { fail } from '../errors.js';
import { charCount, printable, problemList, textProblem } from '../domain/text.js';
import { continueFrom } from './pages.js';

function where(path: PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${printable(String(part))}` : printable(String(part));
  return out || 'input';
}

/** A JSON Schema node, as z.toJSONSchema gives it. */
interface JsonNode {
  type?: string | string[];
  properties?: Record<string, JsonNode>;
  required?: string[];
  items?: JsonNode;
  anyOf?: JsonNode[];
}

/** The node itself, or the object or array form of a node that takes several. */
function formOf(node: JsonNode | undefined): JsonNode | undefined {
  return node?.anyOf?.find((n) => n.type === 'object' || n.type === 'array') ?? node;
}

/** The expected part of the input at `path`, from the schema as JSON Schema (only when a problem needs it). */
function expectedAt(schema: z.ZodType, path: PropertyKey[]): JsonNode | undefined {
  let node: JsonNode | undefined;
  try {
    node = toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonNode;
  } catch {
    return undefined;
  }
  for (const part of path) node = typeof part === 'number' ? formOf(node)?.items : formOf(node)?.properties?.[String(part)];
  return formOf(node);
}

/** An object's fields as an agent would write it: {title, description?, …}, the required ones first. */
function shapeOf(node: JsonNode | undefined): string {
  const names = Object.keys(node?.properties ?? {});
  const required = new Set(node?.required ?? []);
  const listed = [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n)).map((n) => `${n}?`)];
  return `{${listed.slice(0, 6).join(', ')}${listed.length > 6 ? ', …' : ''}}`;
}

/** What a value of a JSON Schema node is, in words: "an object like {…}", "a list of strings". */
function kindOf(node: JsonNode | undefined, expected: string): string {
  if (expected === 'object') return `an object like ${shapeOf(node)}`;
  if (expected === 'array') {
    const item = formOf(node?.items);
    if (item?.type === 'object') return `a list of objects like ${shapeOf(item)}`;
    return typeof item?.type === 'string' ? `a list of ${item.type}s` : 'a list';
  }
  if (expected === 'int') return 'a whole number';
  if (expected === 'boolean') return 'true or false';
  return `a ${expected}`;
}

/** Letters and digits alone, in lower case: taskId, task-id and TASK_ID are all taskid. */
const bare = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The field a name not taken was meant for: the same but for case and separators, or one typing slip off (names of four letters or more). */
function nearField(name: string, fields: string[]): string | undefined {
  const given = bare(name);
  return fields.find((f) => bare(f) === given) ?? (given.length >= 4 ? fields.find((f) => oneEditApart(bare(f), given)) : undefined);
}

/** Whether two words differ by one letter left out, added or changed, or two next to each other swapped. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Names of a list, the first ten of them when there are more. */
function listed(names: string[]): string {
  return names.length > 10 ? `${names.slice(0, 10).join(', ')} (and ${names.length - 10} more)` : names.join(', ');
}

/** A value a call gave, as a message names it: short text in quotes, or its kind. */
function givenAs(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value !== 'string') return String(value);
  return `"${printable(value, 40)}"`;
}

/**
 * The issues of a call, a number's bounds said once: a field over two maximums (a whole number's
 * largest, and the field's own) is told the tighter.
 */
function tightest(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const bound = (i: z.core.$ZodIssue) => (i.code === 'too_big' ? Number(i.maximum) : i.code === 'too_small' ? -Number(i.minimum) : null);
  return issues.filter((issue) => {
    const b = bound(issue);
    return b === null || !issues.some((other) => other !== issue && other.code === issue.code && where(other.path) === where(issue.path) && (bound(other)! < b || (bound(other) === b && issues.indexOf(other) < issues.indexOf(issue))));
  });
}

function describe(issue: z.core.$ZodIssue, schema: z.ZodType): string {
  const at = where(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const fields = Object.keys(expectedAt(schema, issue.path)?.properties ?? {});
      // A name that differs from a field's only in its case, its separators or one typing slip names the field.
      const named = issue.keys.map((k) => {
        const near = nearField(k, fields);
        return `"${printable(k)}"${near ? ` (the field is ${near})` : ''}`;
      });
      const unknown = `unknown field${issue.keys.length > 1 ? 's' : ''} ${listed(named)}`;
      if (at === 'input') return unknown;
      // Inside the input (a task of a list, say), the fields it takes are named: the tool's description names only the top level.
      return `${at}: ${unknown}${fields.length > 0 ? `; it takes ${listed(fields)}` : ''}`;
    }
    case 'invalid_type': {
      const nested = issue.expected === 'object' || issue.expected === 'array';
      const kind = kindOf(nested ? expectedAt(schema, issue.path) : undefined, issue.expected);
      if (issue.input === undefined) return nested ? `${at} is required: ${kind}` : `${at} is required`;
      return `${at} must be ${kind}, not ${givenAs(issue.input)}`;
    }
    case 'invalid_value':
      if (issue.input === undefined) return `${at} is required: one of ${issue.values.map((v) => String(v)).join(', ')}`;
      return `${at} must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${at} cannot be empty`;
      if (issue.origin === 'string') return `${at} needs at least ${String(issue.minimum)} characters${typeof issue.input === 'string' ? ` (got ${charCount(issue.input)})` : ''}`;
      if (issue.origin === 'array') return `${at} needs at least ${String(issue.minimum)} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return `${at} must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${at} has ${typeof issue.input === 'string' ? charCount(issue.input) : 'too many'} characters; at most ${String(issue.maximum)} are allowed`;
      if (issue.origin === 'array') return `${at} has more than ${String(issue.maximum)} items`;
      return `${at} must be at most ${String(issue.maximum)}`;
    case 'invalid_union':
      return `${at} is not in any accepted form`;
    default:
      // A rule's own words: a predicate ("cannot be empty", "holds a tab…", "must be a web address…") reads on from the field, as the built-in ones above do.
      return PREDICATE.test(issue.message) ? `${at} ${issue.message}` : `${at}: ${issue.message}`;
  }
}

/** How a rule's message starts when it says what the field is or must be. */
const PREDICATE = /^(cannot|must|holds|needs|names|is|continues)\b/;

/** The next step of an input the schema refuses (the command line says it in its own words). */
export const FIX_FIELDS = 'Correct the fields named above and send the call again; nothing was changed.';

/** The next step of a call lost from the board's queue (ops/combine.ts; the command line says it in its own words). */
export const CALL_LOST = 'See where things stand (get_task or get_workflow_state), then call again if it is still needed.';

/** The most characters with a problem one answer names: a call with more is rare and hears of the rest once these are fixed. */
const PROBLEMS_SHOWN = 200;

type Rules = (raw: Record<string, unknown>) => string[];

export interface ParseOptions {
  /** The document rules the schema cannot express, run on the raw input too when it fails, so that one answer names every problem. */
  rules?: Rules | undefined;
  /** Fields the adapter adds to the operation's own: with a cursor, they may differ from the cursor's query. */
  extra?: readonly string[];
}

/**
 * The input of a call, checked against its schema. With a cursor (pages.ts), the cursor's query at
 * the cursor's offset.
 */
export function parseInput<T extends z.ZodType>(schema: T, raw: unknown, options: ParseOptions = {}): z.output<T> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  // A cursor given as null is left out, as any field (see `repaired`).
  if (!shape?.cursor || raw === null || typeof raw !== 'object' || (raw as Record<string, unknown>).cursor == null) return parseFields(schema, raw, options.rules);
  const object = schema as unknown as z.ZodObject;
  const parse = (fields: Record<string, unknown>, only?: string[]) =>
    parseFields(only ? object.pick(Object.fromEntries(only.filter((k) => k in shape).map((k) => [k, true])) as Record<string, true>) : object, fields, only ? undefined : options.rules) as Record<string, unknown>;
  // A field given as null beside the cursor says nothing against the cursor's query.
  return continueFrom(withoutNulls(raw as Record<string, unknown>), parse, options.extra ?? []) as z.output<T>;
}

/** The fields given, without those given as null: no field takes null, and null is a field left out (see `repaired`). */
export function withoutNulls(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
}

/** How deep an input may nest objects and arrays: far more than any field takes, far less than a reader's stack. */
const DEPTH_MAX = 32;

/** Refuses an input nested deeper than any field takes (walked without recursion, so any depth is safe to look at). */
export function refuseDeepInput(raw: unknown, nextStep = FIX_FIELDS): void {
  const stack: { value: unknown; depth: number }[] = [{ value: raw, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= DEPTH_MAX) fail('INVALID_INPUT', `Invalid input: objects and arrays are nested more than ${DEPTH_MAX} deep; no field takes that.`, nextStep);
    for (const v of Object.values(value)) stack.push({ value: v, depth: depth + 1 });
  }
}

function parseFields<T extends z.ZodType>(schema: T, raw: unknown, moreRules?: Rules): z.output<T> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    fail('INVALID_INPUT', 'The input must be a JSON object.', 'Send the fields as one JSON object, like {"change_id": "add-review-tool"}.');
  }
  refuseDeepInput(raw);
  let result = schema.safeParse(raw, { reportInput: true });
  for (let round = 0; !result.success && round < REPAIR_ROUNDS; round++) {
    const fixed = repaired(raw as Record<string, unknown>, result.error.issues);
    if (fixed === null) break;
    refuseDeepInput(fixed);
    raw = fixed;
    result = schema.safeParse(raw, { reportInput: true });
  }
  // Every problem of the call in one answer: characters no field takes, the schema's, the rules'.
  const unsafe = new Map<string, string>();
  unsafeText(raw, [], unsafe);
  if (result.success && unsafe.size === 0) return result.data;
  const issues = result.success ? [] : tightest(result.error.issues.filter((issue) => !(issue.code === 'custom' && unsafe.has(where(issue.path)))));
  const problems = [...unsafe.values(), ...issues.map((issue) => describe(issue, schema)), ...rulesOn(raw as Record<string, unknown>, moreRules)];
  return fail('INVALID_INPUT', `Invalid input: ${problemList(problems)}.`, FIX_FIELDS);
}

/** How many times a call's values are repaired, one level of nesting each (a list sent as text, then its items' numbers). */
const REPAIR_ROUNDS = 3;

/**
 * A call whose values the schema refused for their JSON type only, with the values that some MCP
 * clients send for what the schema asks for, as meant: a number, true or false, a list or an
 * object sent as text (clients that pass every argument on as a string), and null for a field left
 * out (models told that every field is required send null for the ones they leave out; a field
 * that is required is then reported missing). Only values the schema refused are touched, so text a
 * field takes is never read as anything else. Null when there is nothing to repair.
 */
function repaired(raw: Record<string, unknown>, issues: z.core.$ZodIssue[]): Record<string, unknown> | null {
  const copy = structuredClone(raw);
  let changed = false;
  for (const issue of issues) {
    if (issue.path.length === 0 || !(issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union')) continue;
    // null where a field takes a value of another type, one of some words or one of some forms is the field left out
    const value = issue.input === null ? undefined : issue.code === 'invalid_type' ? meant(issue.input, issue.expected) : NOT_MEANT;
    if (value === NOT_MEANT) continue;
    let parent: Record<PropertyKey, unknown> = copy;
    for (const part of issue.path.slice(0, -1)) parent = parent[part] as Record<PropertyKey, unknown>;
    const key = issue.path.at(-1)!;
    if (value !== undefined) parent[key] = value;
    else if (Array.isArray(parent)) continue; // a null item of a list is not a field left out
    else delete parent[key];
    changed = true;
  }
  return changed ? copy : null;
}

const NOT_MEANT = Symbol('not meant');
const NUMBER = /^-?\d+(\.\d+)?$/;
const WHOLE = /^-?\d+$/;

/** What a value of the wrong JSON type stands for, given what the schema expected there: text read as a number, true or false, a list or an object. */
function meant(value: unknown, expected: string): unknown {
  if (typeof value !== 'string') return NOT_MEANT;
  const text = value.trim();
  if ((expected === 'number' && NUMBER.test(text)) || (expected === 'int' && WHOLE.test(text))) return Number(text);
  if (expected === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (expected !== 'array' && expected !== 'object') return NOT_MEANT;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return NOT_MEANT;
  }
  const fits = expected === 'array' ? Array.isArray(parsed) : parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  return fits ? parsed : NOT_MEANT;
}

function rulesOn(raw: Record<string, unknown>, rules: Rules | undefined): string[] {
  try {
    return rules?.(raw) ?? [];
  } catch {
    return []; // input too far from its shape for the rules to read: the schema's findings say enough
  }
}

/**
 * Every string of every input, whatever its schema says, is held to the text rules
 * (domain/text.ts): no control characters but tab and line ends, no bidi overrides.
 */
function unsafeText(value: unknown, path: PropertyKey[], found: Map<string, string>): void {
  if (found.size >= PROBLEMS_SHOWN) return;
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem) found.set(where(path), `${where(path)} ${problem}`);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const inKey = Array.isArray(value) ? null : textProblem(k);
      if (inKey) found.set(`${where(path)} key`, `a field name ${inKey}`);
      else unsafeText(v, [...path, Array.isArray(value) ? Number(k) : k], found);
    }
  }
}
