/** What each pane lists, made from a snapshot and the person's filter: pure, so the screen only draws. */
import type { AgentCard, ChangeCard, ConsoleSnapshot, TaskCard, WaitingItem } from '../../console/cards.js';
import { clamp } from './format.js';
import type { Cursors } from './targets.js';

export const COLUMNS = ['todo', 'in_progress', 'blocked', 'in_review', 'done'] as const;
export const COLUMN_TITLES: Record<(typeof COLUMNS)[number], string> = { todo: 'TODO', in_progress: 'IN PROGRESS', blocked: 'BLOCKED', in_review: 'IN REVIEW', done: 'DONE' };
/** The titles of a narrow column. */
export const COLUMN_SHORT_TITLES: Record<(typeof COLUMNS)[number], string> = { todo: 'TODO', in_progress: 'IN PROG', blocked: 'BLOCKED', in_review: 'REVIEW', done: 'DONE' };

export const PANES = ['board', 'agents', 'waiting', 'changes'] as const;
export type Pane = (typeof PANES)[number];

export interface Views {
  columns: TaskCard[][];
  agents: AgentCard[];
  waiting: WaitingItem[];
  changes: ChangeCard[];
  /** Task ids whose claim is stale (no sign of life for a while, or their run died). */
  stale: Set<string>;
  /** The filter the lists went through ('' for none). */
  filter: string;
}

function matches(filter: string, ...texts: (string | null | undefined)[]): boolean {
  return texts.some((t) => t?.toLowerCase().includes(filter));
}

function waitingText(w: WaitingItem): string[] {
  switch (w.kind) {
    case 'question':
      return [w.input_id, w.agent_id, w.question, ...w.options];
    case 'document':
      return [w.change_id, w.document, w.author];
    case 'broken':
      return [w.change_id, w.file, w.message];
    default:
      return [w.task_id, w.title, 'assignee' in w ? (w.assignee ?? '') : ''];
  }
}

/** The cards by column: the costly part on a big board, so it is made only when the cards or the filter change. */
export function makeColumns(cards: TaskCard[], rawFilter: string): TaskCard[][] {
  const filter = rawFilter.trim().toLowerCase();
  const tasks = filter ? cards.filter((t) => matches(filter, t.task_id, t.title, t.assignee)) : cards;
  const columns = COLUMNS.map(() => [] as TaskCard[]);
  for (const t of tasks) columns[COLUMNS.indexOf(t.status)]!.push(t);
  return columns;
}

export function makeViews(snapshot: ConsoleSnapshot, rawFilter: string, columns = makeColumns(snapshot.tasks, rawFilter)): Views {
  const filter = rawFilter.trim().toLowerCase();
  return {
    columns,
    agents: filter ? snapshot.agents.filter((a) => matches(filter, a.agent_id, a.name, a.task?.task_id, a.task?.title, a.message)) : snapshot.agents,
    waiting: filter ? snapshot.waiting.filter((w) => matches(filter, ...waitingText(w))) : snapshot.waiting,
    changes: filter ? snapshot.changes.filter((c) => matches(filter, c.change_id, c.title)) : snapshot.changes,
    stale: new Set(snapshot.waiting.flatMap((w) => (w.kind === 'stale' ? [w.task_id] : []))),
    filter: rawFilter.trim(),
  };
}

/** The person's decisions waiting: the number shown on the tab. */
export function waitingCount(snapshot: ConsoleSnapshot): number {
  return snapshot.waiting.length;
}

/**
 * The cursor of the pane shown moved with the item it was on, when the lists changed under it (a
 * task left its column, a question came in above): a key acts on what the person chose, not on what
 * slid into its place. A cursor whose item is gone stays where it was, on the one after it. The
 * panes not shown keep their cursors: the person finds them where they left them, the most urgent
 * first in a list not visited yet.
 */
export function follow(u: Pick<Cursors, 'pane' | 'rows' | 'agent' | 'waiting' | 'change'>, before: Views, after: Views): Partial<Cursors> {
  const at = <T>(was: T[], now: T[], cursor: number, id: (item: T) => string) => {
    const item = was[clamp(cursor, was.length)];
    const found = item === undefined ? -1 : now.findIndex((x) => id(x) === id(item));
    return found >= 0 ? found : cursor;
  };
  switch (u.pane) {
    case 'board':
      return { rows: u.rows.map((cursor, i) => at(before.columns[i]!, after.columns[i]!, cursor, (t) => t.task_id)) };
    case 'agents':
      return { agent: at(before.agents, after.agents, u.agent, (a) => a.agent_id) };
    case 'waiting':
      return { waiting: at(before.waiting, after.waiting, u.waiting, (w) => w.key) };
    case 'changes':
      return { change: at(before.changes, after.changes, u.change, (c) => c.change_id) };
  }
}
