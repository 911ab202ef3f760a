/**
 * Merging a person's edit of a board file with what agentboard last wrote to it.
 *
 * Every file agentboard writes has a ledger entry (store/ledger.ts): its parsed content as written
 * (B) and, per item (a task, or a document's frontmatter and body), the history of fingerprints
 * of its plan and its state over agentboard's writes. When the file on disk (P) differs from B, a
 * person edited it, possibly from a stale editor buffer. Each item is merged part by part:
 *
 * - plan (titles, descriptions, bodies…): a value B never had is the person's text and is kept;
 *   a value B had at an earlier write is a stale buffer and B's newer text stays;
 * - state (status, assignee, claim, progress, a document's status…): a stale value never undoes
 *   B; a new value is the person's decision and applies when agentboard did not change that state
 *   since the version the person started from (found from the items the person left alone),
 *   otherwise B's state is kept and the person's values are reported as a conflict;
 * - logs (notes, feedback, blockers) only grow: both sides are kept, the person's wording of an
 *   entry wins.
 *
 * An item the person removed goes away unless agents have state on it (then it is kept and
 * reported) or it was added after the person's buffer was loaded (then the buffer is stale).
 */
import { createHash } from 'node:crypto';

export type Entry = Record<string, unknown>;

export interface Item {
  plan: Record<string, unknown>;
  state: Record<string, unknown>;
  logs: Record<string, Entry[]>;
}

/** Per version of the file that changed the item: [version, plan fingerprint, state fingerprint]. "" marks removal. */
export type History = [number, string, string][];

export interface MergeConflict {
  file: string;
  item: string;
  part: 'plan' | 'state' | 'removed';
  kept: 'agentboard' | 'person';
  /** The values on the side that was not kept in the file, and on the side that was. */
  agentboard: unknown;
  person: unknown;
}

export interface MergeResult {
  /** Items in the order the file will have them; `same` when equal to the person's item (its text can stay as it is). */
  items: { key: string; item: Item; same: boolean }[];
  conflicts: MergeConflict[];
  /** The ledger version the person's buffer was loaded from, when it can be told. */
  origin: number | null;
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === undefined) return null;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

export function fingerprint(value: unknown): string {
  return createHash('sha1').update(stable(value)).digest('hex').slice(0, 12);
}

export function fingerprints(item: Item): [string, string] {
  return [fingerprint(item.plan), fingerprint(item.state)];
}

type Interval = [number, number];

/** The versions [from, to) over which the item's `part` had fingerprint `fp`. */
function intervals(history: History, part: 1 | 2, fp: string, current: number): Interval[] {
  const out: Interval[] = [];
  history.forEach((e, i) => {
    if (e[part] === fp) out.push([e[0], i + 1 < history.length ? history[i + 1]![0] : current + 1]);
  });
  return out;
}

function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [a0, a1] of a) for (const [b0, b1] of b) if (Math.max(a0, b0) < Math.min(a1, b1)) out.push([Math.max(a0, b0), Math.min(a1, b1)]);
  return out;
}

/** The history entry in force at `version`, or null when the item did not exist yet (or the history is too short to tell). */
function at(history: History, version: number): History[number] | null {
  let found: History[number] | null = null;
  for (const e of history) if (e[0] <= version) found = e;
  return found && found[1] !== '' ? found : null;
}

function logKey(entry: Entry): string {
  return `${String(entry.author ?? entry.by ?? '')}|${String(entry.at ?? '')}`;
}

/** Both sides' entries, the person's wording of a shared one, and a resolution recorded on either side. */
function unionLog(base: Entry[], person: Entry[]): Entry[] {
  const mine = new Map(person.map((e) => [logKey(e), e]));
  const out = base.map((b) => {
    const p = mine.get(logKey(b));
    if (!p) return b;
    mine.delete(logKey(b));
    const merged = { ...b, ...p };
    if (b.resolved_at !== undefined && p.resolved_at === undefined) {
      merged.resolved_at = b.resolved_at;
      merged.resolved_by = b.resolved_by;
    }
    return merged;
  });
  for (const p of person) if (mine.has(logKey(p))) out.push(p);
  return out;
}

function mergeLogs(base: Item['logs'], person: Item['logs']): Item['logs'] {
  const out: Item['logs'] = {};
  for (const name of new Set([...Object.keys(base), ...Object.keys(person)])) out[name] = unionLog(base[name] ?? [], person[name] ?? []);
  return out;
}

export interface MergeInput {
  file: string;
  /** The ledger's version of the file: the number of agentboard writes it has seen. */
  version: number;
  base: Map<string, Item>;
  history: Record<string, History>;
  person: Map<string, Item>;
  /** True when agents recorded something on the item, so that removing it by hand would lose work. */
  hasWork: (item: Item) => boolean;
}

/** Which version the person's buffer came from: the latest one every item the person left alone agrees with. */
function findOrigin(input: MergeInput): number | null {
  let range: Interval[] = [[0, input.version + 1]];
  let constrained = false;
  for (const [key, p] of input.person) {
    const history = input.history[key];
    if (!history || history.length === 0) continue;
    const [pp, ps] = fingerprints(p);
    for (const [part, fp] of [
      [1, pp],
      [2, ps],
    ] as const) {
      if (!history.some((e) => e[part] === fp)) continue;
      range = intersect(range, intervals(history, part, fp, input.version));
      constrained = true;
    }
  }
  if (!constrained || range.length === 0) return null;
  return Math.max(...range.map(([, to]) => to - 1));
}

export function mergeItems(input: MergeInput): MergeResult {
  const origin = findOrigin(input);
  const conflicts: MergeConflict[] = [];
  const merged = new Map<string, { item: Item; same: boolean }>();

  for (const [key, p] of input.person) {
    const b = input.base.get(key);
    const history = input.history[key] ?? [];
    const [pp, ps] = fingerprints(p);
    if (!b) {
      // New to agentboard, unless agentboard removed it after the person's buffer was loaded.
      const last = history[history.length - 1];
      const removedSince = last !== undefined && last[1] === '' && history.some((e) => e[1] === pp && e[2] === ps);
      if (!removedSince) merged.set(key, { item: p, same: true });
      continue;
    }
    const [bp, bs] = fingerprints(b);
    let plan = b.plan;
    if (pp !== bp && !history.some((e) => e[1] === pp)) {
      plan = p.plan;
      const then = origin === null ? null : at(history, origin);
      if (then && then[1] !== bp) conflicts.push({ file: input.file, item: key, part: 'plan', kept: 'person', agentboard: b.plan, person: p.plan });
    }
    let state = b.state;
    if (ps !== bs && !history.some((e) => e[2] === ps)) {
      const then = origin === null ? null : at(history, origin);
      if (then && then[2] === bs) state = p.state;
      else conflicts.push({ file: input.file, item: key, part: 'state', kept: 'agentboard', agentboard: b.state, person: p.state });
    }
    const item: Item = { plan, state, logs: mergeLogs(b.logs, p.logs) };
    merged.set(key, { item, same: fingerprint(item) === fingerprint(p) });
  }

  // Items agentboard has that the person's file lacks.
  const kept = new Map<string, Item>();
  for (const [key, b] of input.base) {
    if (input.person.has(key)) continue;
    const history = input.history[key] ?? [];
    const addedAfterOrigin = origin !== null && history.length > 0 && history[0]![0] > origin;
    if (addedAfterOrigin) kept.set(key, b);
    else if (input.hasWork(b)) {
      kept.set(key, b);
      conflicts.push({ file: input.file, item: key, part: 'removed', kept: 'agentboard', agentboard: b.state, person: null });
    }
  }

  // The person's order, with kept items placed after the item that precedes them in agentboard's order.
  const items: MergeResult['items'] = [];
  const baseOrder = [...input.base.keys()];
  const placeAfter = new Map<string | null, string[]>();
  for (const key of kept.keys()) {
    let i = baseOrder.indexOf(key) - 1;
    while (i >= 0 && !merged.has(baseOrder[i]!)) i--;
    const anchor = i >= 0 ? baseOrder[i]! : null;
    placeAfter.set(anchor, [...(placeAfter.get(anchor) ?? []), key]);
  }
  const pushKept = (anchor: string | null) => {
    for (const key of placeAfter.get(anchor) ?? []) items.push({ key, item: kept.get(key)!, same: false });
  };
  pushKept(null);
  for (const [key, m] of merged) {
    items.push({ key, ...m });
    pushKept(key);
  }
  return { items, conflicts, origin };
}
