/**
 * A tool's result as an agent gets it: structuredContent (the operation's output) and a text block
 * (a markdown summary with every id the next call needs, or the JSON when asked), neither longer
 * than CHARACTER_LIMIT. Lists are cut by the operations themselves (ops/pages.ts, through `fits`);
 * anything still too long is shortened here, item by item, and the notice says what was left out.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolveRefs, type Ref } from '../domain/refs.js';
import { renderResult } from '../render/text.js';

/** The most characters of a tool result: its structuredContent, and its text. */
export const CHARACTER_LIMIT = 25_000;

/** Room kept for what is added after a result is measured: spelled references, notes. */
const MARGIN = 1_500;

export type ResponseFormat = 'json' | 'markdown';
type Data = Record<string, unknown>;

function textOf(opName: string, data: Data, format: ResponseFormat, spell: (r: Ref) => string): string {
  return format === 'json' ? JSON.stringify(data) : resolveRefs(renderResult(opName, data), spell);
}

/** Whether a result of this operation fits, in both of its forms. */
export function fitsFor(opName: string, format: ResponseFormat): (result: unknown) => boolean {
  const budget = CHARACTER_LIMIT - MARGIN;
  return (result) => JSON.stringify(result).length <= budget && (format === 'json' || renderResult(opName, result as Data).length <= budget);
}

/** The biggest array with more than one item, or the longest long string, in a value: what to shorten next. */
function biggest(value: unknown, path: string, best: { path: string; size: number; at: unknown[] | null; key: string | number; holder: unknown } | null, holder: unknown = null, key: string | number = ''): typeof best {
  if (typeof value === 'string' && value.length > 200 && (!best || value.length > best.size)) return { path, size: value.length, at: null, key, holder };
  if (Array.isArray(value)) {
    const size = JSON.stringify(value).length;
    if (value.length > 1 && (!best || size > best.size)) best = { path, size, at: value, key, holder };
    value.forEach((v, i) => (best = biggest(v, `${path}[${i}]`, best, value, i)));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) best = biggest(v, path ? `${path}.${k}` : k, best, value, k);
  }
  return best;
}

/** Shortens the biggest part of `data` (in place) by half; what was cut, or null when nothing is left to cut. */
function shortenOnce(data: Data): string | null {
  const found = biggest(data, '', null);
  if (!found) return null;
  const holder = found.holder as Record<string | number, unknown>;
  if (found.at) {
    const keep = Math.ceil(found.at.length / 2);
    const kept = found.at.slice(0, keep);
    holder[found.key] = kept;
    return `${found.path}: the first ${keep} of ${found.at.length}`;
  }
  const text = holder[found.key] as string;
  const keep = Math.floor(text.length / 2);
  holder[found.key] = `${text.slice(0, keep)}… [${text.length - keep} characters cut]`;
  return `${found.path}: the first ${keep} of ${text.length} characters`;
}

/** The result shortened until both forms fit; the notice (added to the result) says what was cut. */
function shorten(opName: string, data: Data, format: ResponseFormat, spell: (r: Ref) => string): Data {
  const fits = (d: Data) => JSON.stringify(d).length <= CHARACTER_LIMIT - MARGIN && textOf(opName, d, format, spell).length <= CHARACTER_LIMIT - MARGIN;
  if (fits(data)) return data;
  const out = structuredClone(data);
  const cuts = new Map<string, string>();
  while (!fits(out)) {
    const cut = shortenOnce(out);
    if (!cut) break;
    cuts.set(cut.split(':')[0]!, cut);
  }
  const said = `Shortened to fit ${CHARACTER_LIMIT.toLocaleString('en-US')} characters: ${[...cuts.values()].join('; ')}.`;
  out.notice = typeof data.notice === 'string' ? `${data.notice} ${said}` : said;
  return out;
}

/** The tool result of an operation's output. */
export function toolResult(opName: string, data: Data, format: ResponseFormat, spell: (r: Ref) => string, notes: string[]): CallToolResult {
  const fitted = shorten(opName, data, format, spell);
  const text = textOf(opName, fitted, format, spell);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  for (const note of notes) content.push({ type: 'text', text: `Note: ${note}`.slice(0, 1_000) });
  return { content, structuredContent: fitted };
}
