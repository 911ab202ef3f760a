/**
 * The tools as tools/list shows them, lean: an agent pays tokens for every byte of the list, so
 * each thing is said once.
 *
 * - Input schemas keep what an agent needs to write a valid call: fields, types, enums, required
 *   fields, and every limit the server holds a value to: lengths (in characters as JSON Schema
 *   counts them, code points), list sizes, number ranges. The forms (FORMS) are declared too, for
 *   clients that check a call before sending it: the pattern of each id (domain/ids.ts) and
 *   minLength 1 of a text that is required; as far as the profile's budget allows, the most
 *   important first (server.ts). Left out: $schema, additionalProperties (the server refuses
 *   unknown fields and says which), the ±2^53 bounds of integers, minLength 0, minLength 1 of a
 *   field that may be left out (an empty text is refused in words), defaults of false, 0 or empty,
 *   and the description of a list's items when the list has one. A field described in an earlier
 *   tool of the list is not described again (sayOnce).
 * - Output schemas name every field of a result with its type (a text field is {}: its name says
 *   what it holds) and its values when they are fixed; what a list or a nested object holds is
 *   shown in the result itself. Values shown earlier in the list are not shown again (sayOnce).
 * - Annotations leave out the false readOnlyHint and idempotentHint that leaving them out means, and
 *   idempotentHint on a read-only tool (MCP gives it no meaning there); the title is left out: the
 *   name says it.
 */
import * as z from 'zod';
import { AGENT_ID_PATTERN, CHANGE_ID_PATTERN, jsonPattern, TASK_ID_PATTERN, TASK_REF_PATTERN } from '../domain/ids.js';

type Node = Record<string, unknown>;
export type JsonSchema = { type: 'object'; [key: string]: unknown };

/**
 * What an input schema may declare beyond types and limits, most important first: the patterns of
 * task ids (the board-wide "<change_id>/<task_id>" and a task id within its change) and of change
 * ids, minLength 1 of the texts a call requires, the pattern of agent ids, and other patterns (of
 * requirement ids, branch names).
 */
export const FORMS = ['task_ids', 'change_ids', 'required_text', 'agent_ids', 'other_patterns'] as const;
export type Form = (typeof FORMS)[number];

const ID_FORMS: Record<string, Form> = {
  [jsonPattern(TASK_REF_PATTERN)]: 'task_ids',
  [jsonPattern(TASK_ID_PATTERN)]: 'task_ids',
  [jsonPattern(CHANGE_ID_PATTERN)]: 'change_ids',
  [jsonPattern(AGENT_ID_PATTERN)]: 'agent_ids',
};

function isNode(v: unknown): v is Node {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `anyOf: [X, {type: "null"}]` as X with "null" in its type list. */
function nullable(node: Node): Node {
  const anyOf = node.anyOf as unknown[] | undefined;
  if (!anyOf || anyOf.length !== 2) return node;
  const [a, b] = anyOf as Node[];
  const [value, nul] = b?.type === 'null' ? [a, b] : a?.type === 'null' ? [b, a] : [null, null];
  if (!value || !nul || Object.keys(nul).length !== 1 || typeof value.type !== 'string' || value.enum) return node;
  const { anyOf: _, ...rest } = node;
  return { ...rest, ...value, type: [value.type, 'null'] };
}

/** `required`: the node is a field the call must give. */
function leanInput(node: unknown, forms: ReadonlySet<Form>, required = false): unknown {
  if (Array.isArray(node)) return node.map((n) => leanInput(n, forms));
  if (!isNode(node)) return node;
  const n = nullable(node);
  const out: Node = {};
  const requiredFields = new Set(Array.isArray(n.required) ? (n.required as string[]) : []);
  for (const [k, v] of Object.entries(n)) {
    if (k === '$schema' || k === 'additionalProperties') continue;
    if (k === 'pattern' && !forms.has(ID_FORMS[v as string] ?? 'other_patterns')) continue;
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue;
    if (k === 'minLength' && typeof v === 'number' && v <= 1 && !(v === 1 && required && forms.has('required_text'))) continue;
    if (k === 'type' && n.enum) continue;
    if (k === 'default' && (v === false || v === 0 || (Array.isArray(v) && v.length === 0))) continue;
    let value = k === 'properties' && isNode(v) ? Object.fromEntries(Object.entries(v).map(([name, p]) => [name, leanInput(p, forms, requiredFields.has(name))])) : leanInput(v, forms);
    if (k === 'items' && isNode(value) && typeof n.description === 'string') {
      const { description: _, ...items } = value;
      value = items;
    }
    out[k] = value;
  }
  return out;
}

/** One field of a result: its fixed values, or its type (none for text). */
function outputField(node: Node): Node {
  const n = nullable(node);
  if (Array.isArray(n.enum)) return { enum: n.enum };
  const types = ([] as unknown[]).concat(n.type ?? []);
  const type = types.filter((t) => t !== 'null');
  if (type.length !== 1 || type[0] === 'string') return {};
  return { type: types.length > 1 ? types : type[0] };
}

/** A tool's input as JSON Schema, in full: leanInputSchema makes it lean. */
export function fullInputSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as JsonSchema;
}

/** The lean input schema, declaring the forms given. */
export function leanInputSchema(full: JsonSchema, forms: readonly Form[] = FORMS): JsonSchema {
  return leanInput(full, new Set(forms)) as JsonSchema;
}

/** The lean JSON Schema of a tool's input (with every form) or output. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  if (io === 'input') return leanInputSchema(fullInputSchema(schema));
  const full = z.toJSONSchema(schema, { target: 'draft-7', io }) as Node;
  const properties = Object.fromEntries(Object.entries((full.properties ?? {}) as Record<string, Node>).map(([name, p]) => [name, outputField(p)]));
  return { type: 'object', properties };
}

/**
 * Each thing said once per tool list. A field (by name) whose description an earlier tool already
 * gave is listed without it: the agent reads the list whole, and agent_id, task_id, the notes policy
 * and the paging fields are explained where they first appear. The values of an output field are
 * not listed again when the list has shown them already (a phase, a kind of document): inputs keep
 * theirs, as calls are checked against them.
 */
export function sayOnce<T extends { inputSchema: JsonSchema; outputSchema?: JsonSchema | undefined }>(tools: T[]): T[] {
  const described = new Set<string>();
  const enums = new Set<string>();
  const visit = (node: unknown, field: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => visit(n, field));
    if (!isNode(node)) return node;
    if (Array.isArray(node.enum)) enums.add(JSON.stringify([...node.enum].sort()));
    const out: Node = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'description' && typeof v === 'string') {
        const key = `${field}\u0000${v}`;
        if (described.has(key)) continue;
        described.add(key);
        out[k] = v;
      } else if (k === 'properties' && isNode(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, visit(p, name)]));
      else out[k] = visit(v, field);
    }
    return out;
  };
  const shown = (field: unknown): unknown => {
    if (!isNode(field) || !Array.isArray(field.enum)) return field;
    const key = JSON.stringify([...field.enum].sort());
    if (enums.has(key)) return {};
    enums.add(key);
    return field;
  };
  return tools.map((t) => {
    const inputSchema = visit(t.inputSchema, '') as JsonSchema;
    if (!t.outputSchema) return { ...t, inputSchema };
    const properties = Object.fromEntries(Object.entries((t.outputSchema.properties ?? {}) as Node).map(([name, p]) => [name, shown(p)]));
    return { ...t, inputSchema, outputSchema: { ...t.outputSchema, properties } };
  });
}

/** What an annotation means when it is left out (MCP's ToolAnnotations); destructiveHint is always said, as clients read it. */
const ANNOTATION_DEFAULTS: Record<string, boolean> = { readOnlyHint: false, idempotentHint: false };

/**
 * A tool's annotations without those that say what leaving them out says, nor idempotentHint on a
 * read-only tool: MCP gives it a meaning only for a tool that writes.
 */
export function leanAnnotations<T extends Record<string, unknown>>(annotations: T): Partial<T> {
  return Object.fromEntries(Object.entries(annotations).filter(([k, v]) => ANNOTATION_DEFAULTS[k] !== v && !(k === 'idempotentHint' && annotations.readOnlyHint === true))) as Partial<T>;
}
