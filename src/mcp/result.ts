/**
 * A tool's result as an agent gets it: structuredContent (the operation's output) and a text block
 * (a markdown summary with every id the next call needs, or the JSON when asked), neither longer
 * than CHARACTER_LIMIT. Lists are cut by the operations themselves (ops/pages.ts, through `fits`);
 * anything still too long is shortened here, item by item, and the notice says what was left out.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolveRefs, type Ref } from '../domain/refs.js';
import { renderAside, renderResult } from '../render/text.js';
import { charCount, printable } from '../domain/text.js';

/** The most characters of a tool result: its structuredContent, and its text. */
export const CHARACTER_LIMIT = 25_000;

/** Room kept for what is added after a result is measured: spelled references, notes. */
const MARGIN = 1_500;

export type ResponseFormat = 'json' | 'markdown';
type Data = Record<string, unknown>;

/** The text blocks of a result: the result itself, then what is said beside it (render/text.ts renderAside), if anything. */
function textsOf(opName: string, data: Data, format: ResponseFormat, spell: (r: Ref) => string): string[] {
  return format === 'json' ? [JSON.stringify(data)] : rendered(opName, data).map((text) => resolveRefs(text, spell));
}

function rendered(opName: string, data: Data): string[] {
  const aside = renderAside(opName, data);
  return [renderResult(opName, data), ...(aside ? [aside] : [])];
}

const lengthOf = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);

/** Whether a result of this operation fits, in both of its forms. */
export function fitsFor(opName: string, format: ResponseFormat): (result: unknown) => boolean {
  const budget = CHARACTER_LIMIT - MARGIN;
  return (result) => JSON.stringify(result).length <= budget && (format === 'json' || lengthOf(rendered(opName, result as Data)) <= budget);
}

/** The operation that pages through a list other results give only the start of (the status's changes, say). */
const READ_IN_FULL: Record<string, string> = { changes: 'change.list', agents: 'agent.list', open_inputs: 'input.list', tasks: 'task.list', documents: 'document.list', entries: 'log.list' };

/** A part of a result that can be shortened: a list of more than one item, or a long text. */
interface Part {
  path: string;
  size: number;
  holder: Record<string | number, unknown>;
  key: string | number;
}

/** The biggest part of a value that can be shortened, if any. */
function biggest(value: unknown, path = '', holder: Part['holder'] | null = null, key: string | number = ''): Part | null {
  let best: Part | null = null;
  const consider = (part: Part | null) => {
    if (part && (!best || part.size > best.size)) best = part;
  };
  if (holder && typeof value === 'string' && value.length > 200) consider({ path, size: value.length, holder, key });
  if (holder && Array.isArray(value) && value.length > 1) consider({ path, size: JSON.stringify(value).length, holder, key });
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const at = Array.isArray(value) ? Number(k) : k;
      consider(biggest(v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k, value as Part['holder'], at));
    }
  }
  return best;
}

interface Cut {
  path: string;
  kept: number;
  of: number;
  unit: string;
  /** Which end was kept: the first items, or the last of a log (newest last). */
  end: 'first' | 'last';
}

/** Logs that grow at their end (notes, feedback, blockers): cut, their newest entries are the ones kept. */
const NEWEST_LAST = /(?:^|\.)(?:notes|feedback|blockers)$/;

/** Shortens the biggest part of `data` (in place) by half; what was cut, or null when nothing is left to cut. */
function shortenOnce(data: Data): Cut | null {
  const part = biggest(data);
  if (!part) return null;
  const value = part.holder[part.key] as unknown[] | string;
  if (Array.isArray(value)) {
    const kept = Math.ceil(value.length / 2);
    const end = NEWEST_LAST.test(part.path) ? 'last' : 'first';
    part.holder[part.key] = end === 'last' ? value.slice(value.length - kept) : value.slice(0, kept);
    return { path: part.path, kept, of: value.length, unit: '', end };
  }
  const kept = Math.floor(value.length / 2);
  part.holder[part.key] = `${value.slice(0, kept)}… [${value.length - kept} characters cut]`;
  return { path: part.path, kept, of: value.length, unit: ' characters', end: 'first' };
}

/**
 * Where a part cut from a result about a document or a task (`path`) can be read whole: findings
 * and warnings in the change's validation, a page at a time; requirements in the spec; anything
 * else in the document's markdown (for a task, its change's task list), paged by lines.
 */
function whereWhole(opName: string, data: Data, path: string): { what: string; ref: Ref } | null {
  const object = (value: unknown) => (value !== null && typeof value === 'object' ? (value as Data) : null);
  // A document's result names it, `next` may hold a document to revise; a task's result holds the task.
  const doc = typeof data.document === 'string' ? data : object(data.document);
  const task = object(data.task);
  const changeId = doc?.change_id ?? task?.change_id ?? data.change_id;
  if (typeof changeId !== 'string') return null;
  if (/(^|\.)(warnings|findings)\b/.test(path)) return { what: `every finding of ${changeId}`, ref: { ops: ['change.validate'], args: { change_id: changeId } } };
  const document = /(^|\.)requirements\b/.test(path) ? 'spec' : doc ? doc.document : task ? 'tasks' : null;
  if (typeof document !== 'string' || (opName === 'document.get' && data.format === 'markdown' && document === data.document)) return null;
  return { what: `all of it in the ${document} of ${changeId}`, ref: { ops: ['document.get'], args: { change_id: changeId, document, format: 'markdown' } } };
}

/**
 * The result shortened until both forms fit, with its text blocks; the notice (added to the result)
 * says what was cut. The texts of a result that fits as it is are the ones measured: rendered once.
 */
function shorten(opName: string, data: Data, format: ResponseFormat, spell: (r: Ref) => string): { data: Data; texts: string[] } {
  const budget = CHARACTER_LIMIT - MARGIN;
  const fitting = (d: Data): string[] | null => {
    const json = JSON.stringify(d);
    if (json.length > budget) return null;
    const texts = format === 'json' ? [json] : textsOf(opName, d, format, spell);
    return lengthOf(texts) <= budget ? texts : null;
  };
  const whole = fitting(data);
  if (whole) return { data, texts: whole };
  const out = structuredClone(data);
  const cuts = new Map<string, Cut>();
  for (let cut = shortenOnce(out); cut; cut = fitting(out) ? null : shortenOnce(out)) {
    cuts.set(cut.path, { ...cut, of: cuts.get(cut.path)?.of ?? cut.of });
  }
  const rest = [...new Set([...cuts.keys()].map((path) => READ_IN_FULL[path]).filter((op): op is string => op !== undefined && op !== opName))];
  const wholes = [...cuts.keys()].filter((path) => READ_IN_FULL[path] === undefined).map((path) => whereWhole(opName, data, path));
  const read = [...new Set(wholes.filter((w) => w !== null).map((w) => ` Read ${w.what}, a page at a time: ${spell(w.ref)}.`))];
  const said =
    `Shortened to fit ${CHARACTER_LIMIT.toLocaleString('en-US')} characters: ${[...cuts.values()].map((c) => `${c.path}, the ${c.end} ${c.kept} of ${c.of}${c.unit}`).join('; ')}.` +
    (rest.length > 0 ? ` Page through them with ${rest.map((op) => spell({ ops: [op], args: {} })).join(', ')}.` : '') +
    read.join('');
  out.notice = typeof data.notice === 'string' ? `${data.notice} ${said}` : said;
  return { data: out, texts: textsOf(opName, out, format, spell) };
}

/**
 * The text of a tool error, never longer than CHARACTER_LIMIT whatever its message quotes: the
 * longer of its message and next step is shortened before it is made JSON, never inside the JSON.
 */
export function errorText(error: { code: string; message: string; next_step: string }): string {
  let text = JSON.stringify({ error });
  while (text.length > CHARACTER_LIMIT) {
    const key = error.message.length >= error.next_step.length ? 'message' : 'next_step';
    error = { ...error, [key]: printable(error[key], Math.max(0, charCount(error[key]) - (text.length - CHARACTER_LIMIT) - 1)) };
    text = JSON.stringify({ error });
  }
  return text;
}

/** The tool result of an operation's output. */
export function toolResult(opName: string, data: Data, format: ResponseFormat, spell: (r: Ref) => string, notes: string[]): CallToolResult {
  const fitted = shorten(opName, data, format, spell);
  const content: CallToolResult['content'] = fitted.texts.map((text) => ({ type: 'text', text }));
  for (const note of notes) content.push({ type: 'text', text: `Note: ${note}`.slice(0, 1_000) });
  return { content, structuredContent: fitted.data };
}
