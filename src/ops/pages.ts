/**
 * Pages of a list: limit and offset, and a cursor that carries the whole query, so that the next
 * page is asked for with the cursor alone. A result that would not fit the caller's size limit (an
 * MCP tool result) is cut to fewer items, and says so.
 *
 * A list whose items have an identity (tasks, agents, changes, log entries…) goes on, from a
 * cursor, after the last item the page before showed, wherever the list has it now: an item
 * added or taken out meanwhile (another agent claimed a task, wrote to the log) shifts no item
 * into a page twice nor past it unseen. The cursor holds a short hash of that item and of the two
 * after it; when none of them is in the list any more, the page starts at the cursor's offset.
 */
import * as z from 'zod';
import { fail } from '../errors.js';
import { LIMITS } from '../domain/limits.js';
import type { Context } from './registry.js';
import { printable } from '../domain/text.js';
import { chars } from './schemas.js';
import { sha1 } from '../store/hash.js';

const PageSize = z.number().int().min(1).max(LIMITS.pageMax);
export const Limit = PageSize.default(LIMITS.pageDefault).describe('Page size.');
/** The page size of a list read whole unless asked for a page (or cut to fit an MCP result). */
export const LimitOrAll = PageSize.optional().describe('Page size; all when left out.');
export const Offset = z.number().int().min(0).default(0).describe('Items to skip.');

interface CursorBody {
  /** The list it continues. */
  l: string;
  /** The query of the list, without offset and cursor. */
  q: Record<string, unknown>;
  /** Where the next page starts. */
  o: number;
  /** Anchors (lists whose items have an identity): the hashes of the last item shown and of the two after it. */
  a?: string[];
}

function encodeCursor(list: string, query: Record<string, unknown>, offset: number, anchors: string[] | undefined): string {
  const q: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) if (k !== 'offset' && k !== 'cursor' && v !== undefined) q[k] = v;
  const body: CursorBody = anchors ? { l: list, q, o: offset, a: anchors } : { l: list, q, o: offset };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

function decodeCursor(cursor: string): CursorBody | null {
  try {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody;
    const anchors = body.a === undefined || (Array.isArray(body.a) && body.a.length <= 3 && body.a.every((x) => typeof x === 'string'));
    const ok = typeof body.l === 'string' && body.q !== null && typeof body.q === 'object' && !Array.isArray(body.q) && Number.isInteger(body.o) && body.o >= 0 && anchors;
    return ok ? body : null;
  } catch {
    return null;
  }
}

/** The anchors a continued list's query carries (continueFrom), read by pageOf. */
const ANCHORS = Symbol('anchors');

/** An item's identity as a cursor holds it: short, whatever the key. */
function anchorOf(key: string): string {
  return sha1(key).slice(0, 16);
}

/** The anchors of a continued list's query; none for a first page, or a cursor without them. */
function anchorsOf(query: PageQuery): string[] | undefined {
  return (query as { [ANCHORS]?: string[] })[ANCHORS];
}

/** The cursor of a list: a next_cursor that list returned (a document's list is one of several). */
function Cursor(lists: readonly string[]) {
  return chars(0, LIMITS.cursorMax)
    .check((ctx) => {
      const body = decodeCursor(ctx.value);
      const problem = body === null ? 'is not a cursor agentboard returned' : !lists.includes(body.l) ? `continues a list of ${printable(body.l)}, not of ${lists.join(' or ')}` : null;
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
    })
    .describe('next_cursor of the last page.');
}

/** The paging fields of a list's input: { limit, offset, cursor }. */
export function pageInput(list: string | readonly string[], limit: z.ZodType<number | undefined> = Limit) {
  return { limit, offset: Offset, cursor: Cursor(typeof list === 'string' ? [list] : list).optional() };
}

/** The next steps of a cursor refused with what it is given beside (the command line says them in its own words). */
export const CURSOR_ALONE = 'Call again with the cursor alone (and limit, for another page size).';
export const CURSOR_OR_NEW_LIST = 'Call again with the cursor alone to continue that list, or without the cursor to start another one.';

/** Fields given with a cursor that may differ from its query (besides the adapter's own, `extra`). */
const FREE_WITH_CURSOR = new Set(['cursor', 'limit']);

/**
 * The input of a call that gives a cursor: the cursor's query, at the cursor's offset, with the
 * limit given. A field given beside the cursor must say what the cursor says (offset not at all).
 * `parse` checks fields against the input schema: all of them, or those named.
 */
export function continueFrom(raw: Record<string, unknown>, parse: (fields: Record<string, unknown>, only?: string[]) => Record<string, unknown>, extra: readonly string[]): Record<string, unknown> {
  const cursor = parse({ cursor: raw.cursor }, ['cursor']).cursor as string;
  const body = decodeCursor(cursor)!;
  // Each problem starts with the field it names, which the command line spells as its flag.
  if (raw.offset !== undefined) fail('INVALID_INPUT', 'Invalid input: offset cannot be given with a cursor, which says where its list goes on.', CURSOR_ALONE);
  const free = Object.fromEntries(Object.entries(raw).filter(([k]) => FREE_WITH_CURSOR.has(k) || extra.includes(k)));
  const merged = parse({ ...body.q, ...free, offset: body.o });
  for (const k of Object.keys(raw)) {
    if (k in free || JSON.stringify(parse({ [k]: raw[k] }, [k])[k]) === JSON.stringify(merged[k])) continue;
    fail(
      'INVALID_INPUT',
      `Invalid input: ${k} ${JSON.stringify(raw[k])} is not the list the cursor continues, which ${merged[k] === undefined ? 'gives none' : `gives ${JSON.stringify(merged[k])}`}.`,
      CURSOR_OR_NEW_LIST,
    );
  }
  if (body.a) Object.defineProperty(merged, ANCHORS, { value: body.a, enumerable: true });
  return merged;
}

export const Page = {
  total: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page.'),
  notice: z.string().optional().describe('Says why a page was cut short.'),
};

export interface PageInfo {
  total: number;
  has_more: boolean;
  next_offset: number | null;
  next_cursor: string | null;
  notice?: string;
}

/** Where a page starts and how long it may be; the rest of the query goes into the cursor. */
export interface PageQuery {
  offset: number;
  limit?: number | undefined;
}

/**
 * Where a page starts: after the cursor's anchor item (or at the first of the items after it that
 * is still there), else at the offset.
 */
function startOf<T>(items: readonly T[], query: PageQuery, keyOf: ((item: T) => string) | undefined): number {
  const anchors = anchorsOf(query);
  if (!anchors || !keyOf) return query.offset;
  // The first place of each anchor, looked for until the last item shown (the first anchor) is found.
  const at: (number | undefined)[] = anchors.map(() => undefined);
  for (let i = 0; i < items.length && at[0] === undefined; i++) {
    const n = anchors.indexOf(anchorOf(keyOf(items[i]!)));
    if (n >= 0 && at[n] === undefined) at[n] = i;
  }
  const n = at.findIndex((i) => i !== undefined);
  return n < 0 ? query.offset : n === 0 ? at[0]! + 1 : at[n]!;
}

/**
 * One page of `items` built into a result by `build`. With a context that limits result sizes,
 * the page holds as many items as fit (at least one), and its notice says it was cut. `keyOf`: the
 * identity of an item, for lists whose items have one (see above).
 */
export function pageOf<T, R>(ctx: Pick<Context, 'fits'>, list: string, items: readonly T[], query: PageQuery, build: (slice: T[], page: PageInfo) => R, keyOf?: (item: T) => string): R {
  const offset = startOf(items, query, keyOf);
  const end = query.limit === undefined ? items.length : Math.min(items.length, offset + query.limit);
  const at = (stop: number, cut: boolean): R => {
    const hasMore = stop < items.length;
    const anchors = keyOf && hasMore && stop > 0 ? items.slice(stop - 1, stop + 2).map((item) => anchorOf(keyOf(item))) : undefined;
    const info: PageInfo = { total: items.length, has_more: hasMore, next_offset: hasMore ? stop : null, next_cursor: hasMore ? encodeCursor(list, query as unknown as Record<string, unknown>, stop, anchors) : null };
    if (cut) info.notice = `Cut to ${stop - offset} of ${end - offset} ${list} to keep the result small; continue with next_cursor.`;
    else if (offset > 0 && offset >= items.length && !anchorsOf(query)) info.notice = `Offset ${offset} is past the end: there ${items.length === 1 ? 'is 1' : `are ${items.length}`} in all (${list}). Ask again with a smaller offset.`;
    return build(items.slice(offset, stop), info);
  };
  const whole = at(end, false);
  if (!ctx.fits || end - offset <= 1 || ctx.fits(whole)) return whole;
  let lo = offset + 1;
  let hi = end - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.fits(at(mid, true))) lo = mid;
    else hi = mid - 1;
  }
  return at(lo, true);
}

/**
 * One page of a list, under the name the list has in the output: page(ctx, 'tasks', all, input);
 * `besides`: the other fields of the result, which the page must leave room for.
 */
export function page<K extends string, T, E extends object = object>(ctx: Pick<Context, 'fits'>, key: K, items: readonly T[], query: PageQuery, besides?: E, keyOf?: (item: T) => string): { [P in K]: T[] } & PageInfo & E {
  return pageOf(ctx, key, items, query, (slice, info) => ({ [key]: slice, ...info, ...besides }) as { [P in K]: T[] } & PageInfo & E, keyOf);
}
