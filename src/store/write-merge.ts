/**
 * An agentboard write of a whole document over a person's edit it has not merged yet.
 *
 * Reading a file a person edited merges their edit onto agentboard's last write (store/merge.ts),
 * but a write that sends a document whole (a resubmission, a reviewer's correction) was made from
 * that last write, not from the person's file, and a plan edit of a task (`task update`) sets
 * fields the person may have changed too. Such a write is a three-way merge of the base (the
 * ledger's last write), the person's file and the writer's new version:
 *
 * - what only the person changed keeps the person's text; what only the writer changed takes the
 *   writer's;
 * - what both changed differently keeps the person's text and is recorded as a conflict holding
 *   both, as store/merge.ts does when a person's plan text meets agentboard's newer one.
 *
 * A task list is merged task by task and, within a task, field by field (its state and logs are the
 * writer's: a write takes them from the file it read). A task the writer leaves out is removed unless
 * the person changed it. Other documents are merged line by line (store/diff3.ts).
 */
import { TASK_PLAN_FIELDS, type Task } from '../domain/model.js';
import { diffLines, merge3 } from './diff3.js';
import { taskItem } from './ledger.js';
import { fencedLines, headingLevel, headingText } from './markdown.js';
import { fingerprint, sameValue, type MergeConflict } from './merge.js';

/** What the writer's tasks were made from: the base (a list sent whole), or the person's file as read (an edit of some tasks). */
export type WrittenFrom = 'base' | 'person';

/** The part of a document's body that holds line `at`: the heading starting or above it, or "#body" before the first heading. */
function partAt(lines: readonly string[], fenced: readonly boolean[], at: number, length: number): string {
  for (let i = at; i < at + length && i < lines.length; i++) if (!fenced[i] && headingLevel(lines[i]!) > 0) return headingText(lines[i]!);
  for (let i = Math.min(at, lines.length - 1); i >= 0; i--) if (!fenced[i] && headingLevel(lines[i]!) > 0) return headingText(lines[i]!);
  return '#body';
}

/**
 * A document's body merged: the person's and the writer's changes to the base, line by line.
 * Conflicts name the part of the body they are in (its heading), or `item` when given.
 */
export function mergeBody(file: string, base: string, person: string, writer: string, item?: string): { body: string; conflicts: MergeConflict[] } {
  if (writer === base || writer === person) return { body: person, conflicts: [] };
  if (person === base) return { body: writer, conflicts: [] };
  const merged = merge3(base.split('\n'), person.split('\n'), writer.split('\n'));
  const fenced = item === undefined && merged.conflicts.length > 0 ? fencedLines(merged.lines) : [];
  const conflicts = merged.conflicts.map(
    (c): MergeConflict => ({ file, item: item ?? partAt(merged.lines, fenced, c.at, c.length), part: 'plan', kept: 'person', agentboard: c.theirs.join('\n'), person: c.mine.join('\n') }),
  );
  return { body: merged.lines.join('\n'), conflicts };
}

/** The parts of a body a person's edit changed (their headings), as mergeBody names them. */
export function editedParts(base: string, person: string): string[] {
  const lines = person.split('\n');
  const fenced = fencedLines(lines);
  let shift = 0;
  const parts = diffLines(base.split('\n'), lines).map((h) => {
    const at = h.from + shift;
    shift += h.lines.length - (h.to - h.from);
    return partAt(lines, fenced, at, h.lines.length);
  });
  return [...new Set(parts)];
}

type Field = (typeof TASK_PLAN_FIELDS)[number] | 'extra' | 'comments';
const PLAN: readonly Field[] = [...TASK_PLAN_FIELDS, 'extra', 'comments'];

/**
 * One task as the writer would write it (`writer`), merged with the person's (`person`) over the
 * base (`base`, undefined for a task the base lacks). Its plan fields follow the rule above; its
 * state and logs are the writer's.
 */
export function mergeTask(file: string, base: Task | undefined, person: Task, writer: Task, from: WrittenFrom): { task: Task; conflict: MergeConflict | null } {
  const task = { ...writer } as Record<string, unknown>;
  const mine: Record<string, unknown> = {};
  const theirs: Record<string, unknown> = {};
  const b = base as Record<string, unknown> | undefined;
  const p = person as unknown as Record<string, unknown>;
  const w = writer as unknown as Record<string, unknown>;
  const set = (field: string, value: unknown) => {
    if (value === undefined) delete task[field];
    else task[field] = value;
  };
  for (const field of PLAN) {
    // A task the base lacks is the person's own: a writer that worked from it changed only what it set;
    // a writer that did not (a list sent whole) gave another task that id.
    const personChanged = b ? !sameValue(p[field], b[field]) : from === 'base';
    const writerChanged = !sameValue(w[field], from === 'base' ? b?.[field] : p[field]);
    if (!writerChanged) set(field, p[field]);
    else if (personChanged && !sameValue(w[field], p[field])) {
      set(field, p[field]);
      mine[field] = p[field] ?? null;
      theirs[field] = w[field] ?? null;
    }
  }
  const conflict = Object.keys(mine).length > 0 ? { file, item: person.id, part: 'plan' as const, kept: 'person' as const, agentboard: theirs, person: mine } : null;
  return { task: task as unknown as Task, conflict };
}

/** Whether two versions of a task are the same in every part. */
export function sameTask(a: Task, b: Task): boolean {
  return fingerprint(taskItem(a)) === fingerprint(taskItem(b));
}

/** Whether the person's file changed a task from the base, in any part (a task the base lacks is the person's). */
export function changedByPerson(base: Task | undefined, person: Task): boolean {
  return !base || !sameTask(base, person);
}

function samePlan(a: Task, b: Task): boolean {
  return fingerprint(taskItem(a).plan) === fingerprint(taskItem(b).plan);
}

/**
 * A whole task list the writer sends (`writer`, made from the base) merged with the person's file
 * (`person`, in its order): the writer's order, with the tasks only the person's file keeps placed
 * after the task before them there.
 */
export function mergeTaskList(file: string, base: ReadonlyMap<string, Task>, person: readonly Task[], writer: readonly Task[]): { tasks: Task[]; conflicts: MergeConflict[] } {
  const conflicts: MergeConflict[] = [];
  const mine = new Map(person.map((t) => [t.id, t]));
  const written = new Set(writer.map((t) => t.id));
  const tasks: Task[] = [];
  for (const w of writer) {
    const p = mine.get(w.id);
    const b = base.get(w.id);
    if (!p) {
      // A task the person's file no longer has (removed on purpose, its id retired) stays removed unless the writer changed it.
      if (!b || !samePlan(b, w)) tasks.push(w);
      continue;
    }
    const merged = mergeTask(file, b, p, w, 'base');
    if (merged.conflict) conflicts.push(merged.conflict);
    tasks.push(merged.task);
  }
  // The person's tasks the writer left out: those the person added or changed stay.
  const kept = person.filter((p) => !written.has(p.id) && changedByPerson(base.get(p.id), p));
  for (const p of kept) {
    const b = base.get(p.id);
    if (b) conflicts.push({ file, item: p.id, part: 'plan', kept: 'person', agentboard: null, person: taskItem(p).plan });
    const before = person.slice(0, person.indexOf(p)).reverse().find((t) => tasks.some((x) => x.id === t.id));
    tasks.splice(before ? tasks.findIndex((x) => x.id === before.id) + 1 : 0, 0, p);
  }
  return { tasks, conflicts };
}
