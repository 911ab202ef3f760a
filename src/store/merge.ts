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
 * An item missing from the person's file is kept: it was added after their buffer was loaded, or
 * the file is a half-finished save, or the person removed it by hand; removing is done with the
 * command for it, so a hand removal is reported rather than followed. Only an item the file itself
 * says it removed (a task list's retired ids: another clone's removal pulled with git, say) goes.
 *
 * A person's decisions are never taken from a save (store/decisions.ts): a document's status, a
 * review's latest verdict, a task added to a task list a person approved or the dependencies of one
 * of its tasks, a task made done.
 * Agentboard's value is kept and the person's recorded as a conflict, unless the value came with
 * git (the version the commit checked out holds it: another clone's decision, pulled).
 */
import { isHeld, type TaskStatus } from '../domain/model.js';
import { sha1 } from './hash.js';

export type Entry = Record<string, unknown>;

export interface Item {
  plan: Record<string, unknown>;
  state: Record<string, unknown>;
  logs: Record<string, Entry[]>;
}

/**
 * Per version of the file that changed the item: [version, plan fingerprint, state fingerprint,
 * who changed it]. "" marks removal. The last element has bit PLAN_BY_PERSON set when the plan
 * changed because a person edited the file, STATE_BY_PERSON likewise; a stale buffer is stale only
 * against agentboard's own changes, never against the person's earlier saves.
 */
export type History = [number, string, string, number?][];
export const PLAN_BY_PERSON = 1;
export const STATE_BY_PERSON = 2;

export interface MergeConflict {
  file: string;
  item: string;
  /** `added`: an item the person's file added where no item may be added (a task list a person approved); it was left out. */
  part: 'plan' | 'state' | 'removed' | 'added';
  kept: 'agentboard' | 'person';
  /** The values on the side that was not kept in the file, and on the side that was. */
  agentboard: unknown;
  person: unknown;
}

export interface MergedItem {
  key: string;
  item: Item;
  /** Equal to the person's item: its text can stay as it is. */
  same: boolean;
  /** Which parts the person's edit decided (recorded as theirs in the item's history). */
  byPerson: number;
}

export interface MergeResult {
  /** Items in the order the file will have them. */
  items: MergedItem[];
  conflicts: MergeConflict[];
  /** The earliest ledger version the person's buffer can have been loaded from, when it can be told. */
  origin: number | null;
  /** The conflicts of decisions the person's save made and the merge did not take (a status, a verdict, a task added to an approved list). */
  refused: MergeConflict[];
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

/** Whether two values are equal as data (key order aside; an absent value is null). */
export function sameValue(a: unknown, b: unknown): boolean {
  return stable(a ?? null) === stable(b ?? null);
}

/** Whether two lists of a task's dependencies name the same tasks (the order they are named in decides nothing). */
export function sameDepends(a: unknown, b: unknown): boolean {
  const set = (depends: unknown) => JSON.stringify([...((depends as string[] | null | undefined) ?? [])].sort());
  return set(a) === set(b);
}

export function fingerprint(value: unknown): string {
  return sha1(stable(value)).slice(0, 12);
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

const BIT = { 1: PLAN_BY_PERSON, 2: STATE_BY_PERSON } as const;

/** Whether agentboard itself changed `part` of the item after `version` (null: the history does not reach back that far). */
function agentChangedSince(history: History, part: 1 | 2, version: number): boolean | null {
  if (history.length === 0 || history[0]![0] > version) return null;
  for (let i = 1; i < history.length; i++) {
    const e = history[i]!;
    if (e[0] > version && e[part] !== history[i - 1]![part] && ((e[3] ?? 0) & BIT[part]) === 0) return true;
  }
  return false;
}

/**
 * How the person's value of a part relates to agentboard's: the same, a new value, or an earlier
 * value that agentboard has since replaced (a stale buffer). A value the person themselves wrote
 * earlier and saves again is theirs, not stale.
 */
function judge(history: History, part: 1 | 2, fp: string, current: string): 'same' | 'new' | 'stale' {
  if (fp === current) return 'same';
  let last = -1;
  history.forEach((e, i) => {
    if (e[part] === fp) last = i;
  });
  if (last < 0) return 'new';
  return agentChangedSince(history, part, history[last]![0]) ? 'stale' : 'new';
}

/**
 * Each entry of a log by its author and time, and by how many entries of that author and time come
 * before it: several calls of one agent carried out in one commit share both (one board time per
 * commit), and only their order tells them apart. A log only grows at its end, so the order holds.
 */
function logKeys(entries: Entry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const key = `${String(entry.author ?? entry.by ?? '')}|${String(entry.at ?? '')}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return `${key}|${n}`;
  });
}

/** Both sides' entries, the person's wording of a shared one, and a resolution recorded on either side. */
function unionLog(base: Entry[], person: Entry[]): Entry[] {
  const personKeys = logKeys(person);
  const mine = new Map(person.map((e, i) => [personKeys[i]!, e]));
  const baseKeys = logKeys(base);
  const out = base.map((b, i) => {
    const p = mine.get(baseKeys[i]!);
    if (!p) return b;
    mine.delete(baseKeys[i]!);
    const merged = { ...b, ...p };
    if (b.resolved_at !== undefined && p.resolved_at === undefined) {
      merged.resolved_at = b.resolved_at;
      merged.resolved_by = b.resolved_by;
    }
    return merged;
  });
  person.forEach((p, i) => {
    if (mine.has(personKeys[i]!)) out.push(p);
  });
  return out;
}

/** Whether the person's logs have an entry of their own: one agentboard's lack, or their wording of one. */
function logsEdited(base: Item['logs'], person: Item['logs']): boolean {
  return Object.entries(person).some(([name, entries]) => {
    const log = base[name] ?? [];
    const keys = logKeys(log);
    const known = new Map(log.map((e, i) => [keys[i]!, JSON.stringify(e)]));
    const mine = logKeys(entries);
    return entries.some((e, i) => known.get(mine[i]!) !== JSON.stringify(e));
  });
}

export function mergeLogs(base: Item['logs'], person: Item['logs']): Item['logs'] {
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
  /** Items the person's file says it removed on purpose: not kept when it lacks them. */
  dropped?: ReadonlySet<string>;
  /** The decisions item `key` (a document's frontmatter) holds, in its state (the document's status) and in its plan (a review's latest verdict): a save changes neither. */
  decisions?: { key: string; state?: (state: Item['state']) => unknown; plan?: (plan: Item['plan']) => unknown };
  /** No item may be added (a task list a person approved: its plan no longer changes). */
  closed?: boolean;
  /** The items are tasks: one a save makes done keeps agentboard's state (a new one starts to do), as its dependents would start on it. */
  tasks?: boolean;
  /** The items of the file as the commit checked out holds it (null: none), asked only when a save would change a decision: a value equal to git's came with git. */
  committed?: () => Map<string, Item> | null;
}

/**
 * The earliest version the person's buffer can have been loaded from: every item they left alone
 * had its values then. When several versions fit, the earliest is assumed, so that an agent's work
 * that may have happened after the buffer was loaded is never undone by it.
 */
function findOrigin(input: MergeInput): number | null {
  let range: Interval[] = [[0, input.version + 1]];
  let constrained = false;
  for (const [key, p] of input.person) {
    const history = input.history[key];
    if (!history || history.length === 0) continue;
    const [pp, ps] = fingerprints(p);
    // An item whose text agentboard never wrote (the person's rewrite, or a task of their own given an id agentboard
    // gave too) tells nothing by its state: a new task is "todo" whenever it was loaded.
    const known = history.some((e) => e[1] === pp);
    for (const [part, fp] of [
      [1, pp],
      [2, ps],
    ] as const) {
      if ((part === 2 && !known) || !history.some((e) => e[part] === fp)) continue;
      range = intersect(range, intervals(history, part, fp, input.version));
      constrained = true;
    }
  }
  if (!constrained || range.length === 0) return null;
  return Math.min(...range.map(([from]) => from));
}

/**
 * Whether a merge took from a person's edit what only agentboard's operations may change, under
 * their rules: the state of an item agentboard wrote (a task's status, holder, progress; a
 * document's status), a new task that does not start as a plain `todo`, or a task taken out. Text,
 * notes and new plain tasks are not: a person's edit of them is merged whoever is at work.
 */
export function tookState(base: Map<string, Item>, items: MergedItem[]): boolean {
  const keys = new Set(items.map((i) => i.key));
  if ([...base.keys()].some((key) => !keys.has(key))) return true;
  return items.some((i) => (i.byPerson & STATE_BY_PERSON) !== 0 && (base.has(i.key) || !plainNew(i.item.state)));
}

/**
 * Whether a person's state would take a task from the agent holding it (back to "todo", or to
 * another holder): that is `agentboard release`, which logs it and tells the holder, never a save.
 * Blocking it for its holder stays a person's decision; finishing it is a decision made with a
 * command (store/decisions.ts).
 */
function takesClaim(base: Record<string, unknown>, person: Record<string, unknown>): boolean {
  // A state's absent fields are null (ledger.ts taskItem).
  const held = isHeld({ assignee: (base.assignee as string | null) ?? undefined, status: base.status as TaskStatus });
  return held && (person.status === 'todo' || person.assignee !== base.assignee);
}

/** The state of a task as `add_task` makes it: to do, with nothing else set. */
function plainNew(state: Record<string, unknown>): boolean {
  return Object.entries(state).every(([field, value]) => (field === 'status' ? value === 'todo' || value == null : value == null));
}

/** The state `add_task` gives a task, with the fields of `state`: what agentboard recorded of a task new to it. */
export function newTaskState(state: Item['state']): Item['state'] {
  return Object.fromEntries(Object.keys(state).map((field) => [field, field === 'status' ? 'todo' : null]));
}

export function mergeItems(input: MergeInput): MergeResult {
  const origin = findOrigin(input);
  const conflicts: MergeConflict[] = [];
  const refused: MergeConflict[] = [];
  let committed: Map<string, Item> | null | undefined;
  const inGit = (key: string) => (committed === undefined ? (committed = input.committed?.() ?? null) : committed)?.get(key);
  /** Whether the person's item changes the decision of `part` from agentboard's, other than as git brought it. */
  const decides = (key: string, part: 'state' | 'plan', b: Item, p: Item): boolean => {
    const decision = key === input.decisions?.key ? input.decisions[part] : undefined;
    if (!decision || decision(p[part]) === decision(b[part])) return false;
    const git = inGit(key);
    return git === undefined || decision(git[part]) !== decision(p[part]);
  };
  /** Whether the person's task is made done where agentboard's is not (`base`: null for a task new to it), other than as git brought it. */
  const finishes = (key: string, base: Item['state'] | null, person: Item['state']): boolean =>
    input.tasks === true && person.status === 'done' && base?.status !== 'done' && inGit(key)?.state.status !== 'done';
  /** Whether the person's task changes the dependencies agentboard recorded in a list a person approved (they are part of the plan approved), other than as git brought them. */
  const rewires = (key: string, base: Item['plan'], person: Item['plan']): boolean => {
    if (input.closed !== true || sameDepends(base.depends, person.depends)) return false;
    const git = inGit(key);
    return git === undefined || !sameDepends(git.plan.depends, person.depends);
  };
  const refuse = (conflict: MergeConflict) => {
    conflicts.push(conflict);
    refused.push(conflict);
  };
  const merged = new Map<string, Omit<MergedItem, 'key'>>();
  // States the person's file has as agentboard had them before its latest changes (a stale buffer's, or a person undoing a claim by hand).
  const reverted: MergeConflict[] = [];
  // Whether the save holds an edit of the person's own: new text, a new state or log entry, a task they added.
  let edited = false;

  for (const [key, p] of input.person) {
    const b = input.base.get(key);
    const history = input.history[key] ?? [];
    const [pp, ps] = fingerprints(p);
    if (!b) {
      // New to agentboard, unless agentboard removed it after the person's buffer was loaded.
      const last = history[history.length - 1];
      const removedSince = last !== undefined && last[1] === '' && history.some((e) => e[1] === pp && e[2] === ps);
      if (removedSince) continue;
      edited = true;
      if (input.closed && inGit(key) === undefined) refuse({ file: input.file, item: key, part: 'added', kept: 'agentboard', agentboard: null, person: p });
      else if (finishes(key, null, p.state)) {
        const state = newTaskState(p.state);
        refuse({ file: input.file, item: key, part: 'state', kept: 'agentboard', agentboard: state, person: p.state });
        merged.set(key, { item: { ...p, state }, same: false, byPerson: PLAN_BY_PERSON });
      } else merged.set(key, { item: p, same: true, byPerson: PLAN_BY_PERSON | STATE_BY_PERSON });
      continue;
    }
    const [bp, bs] = fingerprints(b);
    let plan = b.plan;
    let byPerson = 0;
    const planIs = judge(history, 1, pp, bp);
    if (planIs === 'new' && decides(key, 'plan', b, p)) {
      refuse({ file: input.file, item: key, part: 'plan', kept: 'agentboard', agentboard: b.plan, person: p.plan });
      edited = true;
    } else if (planIs === 'new') {
      plan = p.plan;
      if (rewires(key, b.plan, p.plan)) {
        refuse({ file: input.file, item: key, part: 'plan', kept: 'agentboard', agentboard: { depends: b.plan.depends }, person: { depends: p.plan.depends } });
        plan = { ...p.plan, depends: b.plan.depends };
        edited = true;
      }
      if (!sameValue(plan, b.plan)) {
        byPerson |= PLAN_BY_PERSON;
        // Agentboard rewrote it since the buffer was loaded, or wrote it first after that (another task given the same id: a task
        // added on another clone, or by an agent while the person added theirs): both texts are recorded.
        if (origin !== null && history.length > 0 && agentChangedSince(history, 1, origin) !== false) conflicts.push({ file: input.file, item: key, part: 'plan', kept: 'person', agentboard: b.plan, person: p.plan });
      }
    }
    let state = b.state;
    const stateIs = judge(history, 2, ps, bs);
    if (stateIs === 'new' && (decides(key, 'state', b, p) || finishes(key, b.state, p.state))) {
      refuse({ file: input.file, item: key, part: 'state', kept: 'agentboard', agentboard: b.state, person: p.state });
      edited = true;
    } else if (stateIs === 'new') {
      if (origin !== null && agentChangedSince(history, 2, origin) === false && !takesClaim(b.state, p.state)) {
        state = p.state;
        byPerson |= STATE_BY_PERSON;
      } else conflicts.push({ file: input.file, item: key, part: 'state', kept: 'agentboard', agentboard: b.state, person: p.state });
    } else if (stateIs === 'stale') reverted.push({ file: input.file, item: key, part: 'state', kept: 'agentboard', agentboard: b.state, person: p.state });
    const item: Item = { plan, state, logs: mergeLogs(b.logs, p.logs) };
    merged.set(key, { item, same: fingerprint(item) === fingerprint(p), byPerson });
    edited ||= byPerson !== 0 || logsEdited(b.logs, p.logs);
  }

  // A save whose only differences are earlier states is no stale buffer saved for an edit of its
  // own: most likely a person set a task back by hand (removed its claim, say). Agentboard's state is
  // kept, as for any stale value, and said: a person changes a task's holder or status with a command.
  if (!edited) conflicts.push(...reverted);

  // Items agentboard has that the person's file lacks are kept.
  const kept = new Map<string, Item>();
  for (const [key, b] of input.base) {
    if (input.person.has(key) || input.dropped?.has(key)) continue;
    kept.set(key, b);
    const history = input.history[key] ?? [];
    const addedAfterOrigin = origin !== null && history.length > 0 && history[0]![0] > origin;
    if (!addedAfterOrigin) conflicts.push({ file: input.file, item: key, part: 'removed', kept: 'agentboard', agentboard: b.plan, person: null });
  }

  // A kept task whose heading the person's save moved a level down ("### T3: …"), or underlined
  // ("T3: …" over a line of - or =, markdown's other heading), reads as the end of the task before
  // it: that text is the kept task's, put back below, so it leaves the other's description.
  for (const key of kept.keys()) {
    const id = key.replace(/[.]/g, '\\.');
    const heading = new RegExp(`^(?:#{1,6}[ \\t]+${id}:[ \\t]|${id}:[ \\t][^\\n]*\\n {0,3}(?:-+|=+)[ \\t]*$)`, 'm');
    for (const [other, m] of merged) {
      // The text that holds it: a task's description, or the list's intro (the preamble of its frontmatter's item).
      const field = 'description' in m.item.plan ? 'description' : 'preamble';
      const description = m.item.plan[field];
      const base = input.base.get(other);
      if (!(m.byPerson & PLAN_BY_PERSON) || typeof description !== 'string' || !base) continue;
      const at = description.search(heading);
      if (at < 0 || heading.test(String(base.plan[field] ?? ''))) continue;
      const plan = { ...m.item.plan, [field]: description.slice(0, at).trimEnd() };
      const back = fingerprint(plan) === fingerprint(base.plan);
      merged.set(other, { ...m, item: { ...m.item, plan: back ? base.plan : plan }, same: false, byPerson: back ? m.byPerson & ~PLAN_BY_PERSON : m.byPerson });
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
    for (const key of placeAfter.get(anchor) ?? []) items.push({ key, item: kept.get(key)!, same: false, byPerson: 0 });
  };
  pushKept(null);
  for (const [key, m] of merged) {
    items.push({ key, ...m });
    pushKept(key);
  }
  return { items, conflicts, origin, refused };
}
