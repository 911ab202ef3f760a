/**
 * Task lists written as markdown checklists, as agentd, OpenSpec, spec-kit and people write them:
 *
 *     ## 1. Data Layer
 *     - [ ] 1.1 Add tag normalization
 *       - File: `src/store/tags.rs` (CREATE)
 *       - Depends: none
 *     - [X] T012 [P] [US1] Implement the service in src/x.py (depends on T011)
 *     - [ ] Add the middleware
 *
 * Every item becomes a task: its number is its id (items without one get T1, T2…, numbers no item
 * gives), [x] means done, the "## " heading above it is its group, and the sub-lines that name
 * files, dependencies, a priority or requirements fill those fields; every other sub-line stays in
 * the description as written. A checkbox nested under another is a task of its own, the part of
 * the outer one (`parent`). Whatever is not a task (text under the title, around the groups, after
 * the tasks) is kept, in order, as the text that goes with the list.
 */
import { PRIORITIES, type FileAction, type Priority, type TaskFile } from '../domain/model.js';
import { fencedLines, headingLevel, headingText, TextLines } from '../store/markdown.js';
import type { ReportLine, SourceFinding } from './report.js';
import { printable } from '../domain/text.js';
import { cutTitle } from './wrapped.js';
import { LIMITS } from '../domain/limits.js';

export interface ChecklistTask {
  id: string;
  /** True when the item had no number and the id was made up. */
  generated: boolean;
  title: string;
  description: string;
  done: boolean;
  files: TaskFile[];
  depends: string[];
  requirements: string[];
  priority?: Priority;
  /** The "## " heading above it. */
  group?: string;
  /** The "### " heading above it (under that "## " heading, if any). */
  subgroup?: string;
  /** spec-kit's [P]: may run beside the tasks around it. */
  parallel: boolean;
  /** spec-kit's [US1] (or [HU1]): the user story the task belongs to, kept in its description (withStory). */
  story?: string;
  /** agentd's "Spec:" references (`specs/x.md#r1-title`), kept for the importer to link requirements. */
  specRefs: string[];
  /** 1-based line of the item. */
  line: number;
  /** The item it is nested under, when it is a checkbox under another one. */
  parent?: string;
  /** Its checkbox's mark when that is neither blank, x nor NOT_TO_DO ("~"): the task is to do, and its description says so. */
  mark?: string;
}

export interface Checklist {
  /** The "# " title, without a leading "Tasks:"; empty when the list has none, it says only "Tasks", or more than a title (listTitle). */
  title: string;
  tasks: ChecklistTask[];
  /** Every line that is not part of a task, in order, as written. */
  intro: string;
  /** Lines read into task fields, and where they went. */
  mapped: ReportLine[];
  /** `kept`: a sub-line whose field could not be read, kept in the task's description as written. */
  findings: (SourceFinding & { kept?: true })[];
  /** The items marked not to be done ([-]), kept in the intro as written: their ids (when they give one) and lines. */
  left: { id?: string | undefined; line: number; nested?: true }[];
}

// A checkbox with any one-character mark, as OpenSpec reads them: only x or X is done ([~], [-], []
// are not). A letter or digit other than x is not a checkbox (spec-kit's legend line "- [P] tasks…").
// [-] is a task cancelled or put off (NOT_TO_DO); any other mark ([~] partly done, [/] begun) is not
// one agentboard can tell done, so the task is to do, the mark named in its description.
const ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+\[[ \t]?([xX]|[^\]\sA-Za-z0-9]?)[ \t]?\][ \t]+(.*)$/;
const NOT_TO_DO = '-';
/** A task's id: "1.1", "3.6a", "T001", "FR-2", "T105a" (a task put in between T105 and T106 later). */
const ID = String.raw`\d+[a-z]?(?:\.\d+[a-z]?)*|[A-Z]{1,6}-?\d+[a-z]?(?:\.\d+[a-z]?)*`;
/** An id of capitals and dashes ("T-NEW-A"): an id only in bold, where it cannot be a word of the title ("CI-CD setup"). */
const WORD_ID = String.raw`[A-Z]{1,6}(?:-[A-Z0-9]{1,8})+`;
/** spec-kit's [P] and the label of a task's user story: [US1], or [HU1] in Spanish and Portuguese lists. */
const LABEL = String.raw`\[(?:P|US\d+|HU\d+)\]`;
/**
 * "1.1 Title", "T001: Title", and the id in bold: "**T001** Title", "**1.1:** Title", with the labels
 * or words after it inside the bold too: "**T033 [P]** Title", "**T015 (partial) [P]** Title". Groups: the id in bold and what follows it there; the id
 * not in bold, which is not one letter, one digit and a letter ("K8s" is a word of the title, T105a an id); the title.
 */
const NUMBERED = new RegExp(String.raw`^(?:Task[ \t]+)?(?:\*\*(${ID}|${WORD_ID})((?:(?:[ \t]*(?=\[)|[ \t]+)[^*\s][^*]*?)?)[:.]?\*\*[:.]?|(${ID})(?<![A-Za-z]\d[a-z])[:.]?)[ \t]+(.+)$`);
const LABELS = new RegExp(LABEL, 'g');
const MARKERS = new RegExp(String.raw`^((?:${LABEL}[ \t]*)+)`);
/** The opening of "(depends on T004)", in the languages spec-kit writes task lists in too (Spanish, Portuguese, French, German, Italian). */
const DEPENDS_PROSE = /\((?:depends on|depende de|depende do|depende da|dépend de|hängt ab von|dipende da)[ \t]+/gi;
/** An HTML comment: what it says is no part of the text as read ("<!-- was T009 -->"). */
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** A task id a dependency names, or a range of them ("T001-T009", "1.2–1.4", "T3 – T5"), up to a space or a mark after it. */
const DEPENDENCY = new RegExp(String.raw`^(?:tasks?[ \t]+)?((?:${ID}|${WORD_ID})(?:[ \t]*[-\u2013\u2014][ \t]*(?:${ID}))?)(?![\w-]|\.\w)`, 'i');
const FIELD = /^[-*+][ \t]+(?:\*\*)?(Files?|Depends(?: on)?|Dependencies|Priority|Requirements?|Spec)(?:\*\*)?:(?:\*\*)?[ \t]*(.*)$/i;
const ACTIONS: Record<string, FileAction> = {
  create: 'create', modify: 'modify', delete: 'delete', rename: 'rename', update: 'modify', add: 'create', remove: 'delete',
  // Agents that tick a task off often put its action in the past tense too: "(MODIFIED)".
  created: 'create', modified: 'modify', deleted: 'delete', renamed: 'rename', updated: 'modify', added: 'create', removed: 'delete',
};
/** "Tasks" before the title of a task list ("# Tasks: X"), or the word in the language the list is written in ("# 任务：X"). */
const TASKS_WORD = /^(?:(?:implementation[ \t]+)?tasks?\b|(?:tâches|tareas|tarefas|aufgaben|задачи|任务|任務|タスク|작업)(?=[\s:：]|$))/iu;
/** What parts that word from the title: a colon, a dash between spaces, or nothing more ("# Tasks"). */
const TITLE_SEPARATOR = /^\s*(?:[:：]|[-–—](?=\s)|$)\s*/u;

/**
 * The title of a task list from its "# " heading: the heading, or what follows "Tasks:" in it ("" for
 * "# Tasks" alone); null when the heading says more after "Tasks" than a title ("# Implementation
 * Tasks (Phase 2: Builds on add-auth)"), which then stays in the list's text as written.
 */
function listTitle(heading: string): string | null {
  const word = TASKS_WORD.exec(heading);
  if (!word) return heading;
  const rest = heading.slice(word[0].length);
  const separator = TITLE_SEPARATOR.exec(rest);
  return separator ? rest.slice(separator[0].length) : null;
}
/** A task title of at most LIMITS.titleMax characters: a longer item keeps its whole text in the description. */
function fitTitle(text: string): { title: string; overflow: boolean } {
  const title = cutTitle(text, LIMITS.titleMax);
  return { title, overflow: title !== text };
}

/** "src/b.ts, src/c.ts (CREATE)" → two files; an action applies to the paths before it that have none. */
export function parseFiles(value: string): { files: TaskFile[]; problem: string | null } {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const c of value) {
    if (c === '`') quoted = !quoted;
    if (c === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  const out: { path: string; action?: FileAction }[] = [];
  for (const part of parts) {
    const m = /^\s*`?([^`]*?)`?\s*(?:\(([A-Za-z]+)\))?\s*$/.exec(part);
    if (!m || !m[1]!.trim()) continue;
    let action: FileAction | undefined;
    if (m[2]) {
      action = ACTIONS[m[2].toLowerCase()];
      if (!action) return { files: [], problem: `"${printable(m[2]!)}" is not a file action (CREATE, MODIFY, DELETE or RENAME)` };
    }
    out.push(action ? { path: m[1]!.trim(), action } : { path: m[1]!.trim() });
  }
  let next: FileAction = 'modify';
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]!.action) next = out[i]!.action!;
    else out[i]!.action = next;
  }
  return { files: out as TaskFile[], problem: null };
}

export function splitIds(value: string): string[] {
  if (/^\s*(?:none|-|n\/a|—)?\s*$/i.test(value)) return [];
  return value
    .replace(/\s*[-–—]\s*/g, '-')
    // "T1, T2", "T1 and T2", "T1 + T2", "T1 & T2".
    .split(/[,;+&\s]+|\band\b/)
    .map((d) => d.replace(/[`"'[\]]/g, '').trim())
    .filter(Boolean)
    .flatMap(idRange);
}

/**
 * What each "(depends on …)" phrase of a task's text says, to its closing parenthesis: a remark in
 * parentheses inside it is part of it ("(depends on T010 (partly), T011)"), and a phrase inside an
 * HTML comment is none ("<!-- (depends on T009) -->").
 */
function dependsPhrases(text: string): string[] {
  const plain = text.replace(COMMENT, ' ');
  const out: string[] = [];
  for (const m of plain.matchAll(DEPENDS_PROSE)) {
    const start = m.index + m[0].length;
    let depth = 1;
    let end = start;
    for (; end < plain.length && depth > 0; end++) {
      if (plain[end] === '(') depth++;
      else if (plain[end] === ')') depth--;
    }
    if (depth === 0) out.push(plain.slice(start, end - 1));
  }
  return out;
}

/**
 * The tasks a dependency names, in "(depends on …)" or a "Depends:" line: the ids it opens with,
 * joined by commas, "+", "&" or "and", each range's ids ("T001-T009"). What follows them is no id
 * ("T010 for the schema", "T024 below", "all previous tasks"), nor what a remark in parentheses or
 * an HTML comment says ("T010 (was T009)"). `more`: whether it says more than its ids.
 */
export function dependencyIds(value: string): { ids: string[]; more: boolean } {
  const bare = value.replace(/[`"'*[\]]/g, '').trim();
  let plain = bare.replace(COMMENT, ' ');
  // Remarks in parentheses, the innermost first: "T010 (see (1))".
  while (/\([^()]*\)/.test(plain)) plain = plain.replace(/[ \t]*\([^()]*\)/g, '');
  plain = plain.trim();
  const ids: string[] = [];
  const more = plain !== bare;
  if (/^(?:none|n\/a|-|—)?\.?$/i.test(plain)) return { ids, more };
  let rest = plain;
  for (let m = DEPENDENCY.exec(rest); m; m = DEPENDENCY.exec(rest)) {
    ids.push(...idRange(m[1]!.replace(/[ \t]+/g, '').replace(/[–—]/g, '-')));
    rest = rest.slice(m[0].length).replace(/^[ \t]*(?:(?:[,;+&]|and\b)[ \t]*)*/i, '');
  }
  // A full stop after the last id ends the sentence: it says nothing more.
  return { ids, more: more || rest.trim().replace(/^\.$/, '') !== '' };
}

/** The ids a range names ("T001-T009", "1.2-1.4", "T3–T5"), each of them; any other id as it is. */
function idRange(id: string): string[] {
  const m = /^([A-Za-z]*(?:\d+\.)*)(\d+)-\1?(\d+)$/.exec(id);
  if (!m) return [id];
  const [, prefix, from, to] = m as unknown as [string, string, string, string];
  const [a, b] = [Number(from), Number(to)];
  if (!(a < b) || b - a > 200) return [id];
  const width = from.length > 1 && from.startsWith('0') ? from.length : 0;
  return Array.from({ length: b - a + 1 }, (_, i) => `${prefix}${String(a + i).padStart(width, '0')}`);
}

export function priorityOf(value: string): Priority | null {
  const v = value.trim().toLowerCase().replace(/[`*]/g, '');
  if ((PRIORITIES as readonly string[]).includes(v)) return v as Priority;
  if (v === 'critical') return 'urgent';
  return null;
}

/**
 * The line that keeps a task's user story (spec-kit's [US1]) at the top of its description: the
 * board's tasks have no field for it. `title` is the story's title, when its spec names it.
 */
function storyLine(story: string, title?: string): string {
  return title ? `User story ${story}: ${title}` : `User story ${story}`;
}

/** A task's description with its user story, if it has one, as its first line (`titles` by US label: HU1, as Spanish and Portuguese lists write it, is US1). */
export function withStory(t: Pick<ChecklistTask, 'story' | 'description'>, titles?: ReadonlyMap<string, string>): string {
  if (!t.story) return t.description;
  return [storyLine(t.story, titles?.get(t.story.replace(/^HU/, 'US'))), t.description].filter((d) => d.trim() !== '').join('\n\n');
}

/**
 * Reads a checklist; null when the text holds no checklist item at all. With `marks` (an import of
 * another tool's list), [-] and the other marks are read as ITEM's comment says; without (a list
 * written with --from), every checkbox but x is a task to do, as written.
 */
export function parseChecklist(body: string, firstLine = 1, { marks = false } = {}): Checklist | null {
  const lines = new TextLines(body);
  const inFence = fencedLines(lines);
  const out: Checklist = { title: '', tasks: [], intro: '', mapped: [], findings: [], left: [] };
  const at = (i: number) => firstLine + i;
  const used = new Set<string>();
  const own = ownIds(lines, inFence);
  /** Which lines a task took: its item line and the lines under it. */
  const taken = new Array<boolean>(lines.length).fill(false);
  let group: string | undefined;
  let subgroup: string | undefined;
  let titleLine = -1;
  let titleKept = false;
  /** The items the next lines may be nested under, outermost first. */
  const open: { depth: number; id: string }[] = [];

  for (let i = 0; i < lines.length; i++) {
    const line = lines.line(i);
    const level = inFence[i] ? 0 : headingLevel(line);
    const lead = line.replace(/\t/g, '  ').length - line.replace(/\t/g, '  ').trimStart().length;
    while (line.trim() !== '' && open.length > 0 && (level > 0 || open[open.length - 1]!.depth >= lead)) open.pop();
    if (level === 1 && titleLine < 0 && out.tasks.length === 0) {
      titleLine = i;
      const title = listTitle(headingText(line));
      titleKept = title === null;
      out.title = title ?? '';
      out.mapped.push({ line: at(i), text: line.trim(), to: titleKept ? 'the text of the task list, as written: it says more than a title' : 'the title of the task list' });
      continue;
    }
    if (level === 2) [group, subgroup] = [headingText(line), undefined];
    if (level === 3) subgroup = headingText(line);
    const item = inFence[i] ? null : ITEM.exec(line);
    if (!item) continue;
    const [, indent, mark, rest] = item;
    const depth = indent!.replace(/\t/g, '  ').length;
    if (marks && mark === NOT_TO_DO) {
      i = leaveOut(lines, inFence, i, depth, out, at);
      continue;
    }
    // Without marks, a checkbox is done or to do, and nothing else.
    const read = marks || mark === 'x' || mark === 'X' ? mark! : '';
    const task = newTask(rest!.trim(), read, at(i), line.trim(), out, used, own, open[open.length - 1]?.id);
    if (group !== undefined) task.group = group;
    if (subgroup !== undefined) task.subgroup = subgroup;
    open.push({ depth, id: task.id });
    taken[i] = true;
    const sub: string[] = [];
    const last = lastUnder(lines, inFence, i, depth, false);
    for (let j = i + 1; j <= last; j++) {
      taken[j] = true;
      const l = lines.line(j);
      const text = l.slice(Math.min(depth + 2, l.length - l.trimStart().length));
      const field = inFence[j] ? null : FIELD.exec(text);
      if (field && readField(task, field[1]!.toLowerCase(), field[2]!.trim(), at(j), l, out)) continue;
      sub.push(text);
    }
    while (sub.length > 0 && sub[sub.length - 1]!.trim() === '') sub.pop();
    while (sub.length > 0 && sub[0]!.trim() === '') sub.shift();
    task.description = [task.description, sub.join('\n')].filter((d) => d.trim() !== '').join('\n\n');
    out.tasks.push(task);
    i = last;
  }
  if (out.tasks.length === 0) return null;
  warnGiven(out);
  warnMarked(out);

  out.intro = leftover(lines, inFence, taken, titleKept ? -1 : titleLine, out.tasks, firstLine, out.mapped);
  out.mapped.sort((a, b) => a.line - b.line);
  return out;
}

/**
 * The last line under the item on line `i`: the lines after it that are blank or indented deeper
 * than it, up to the next checkbox (a task of its own), or past the checkboxes nested under it too
 * when `withNested`.
 */
function lastUnder(lines: TextLines, inFence: boolean[], i: number, depth: number, withNested: boolean): number {
  let last = i;
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines.line(j);
    if (l.trim() === '') continue;
    const lead = l.length - l.trimStart().length;
    if (lead <= depth || (!withNested && !inFence[j] && ITEM.test(l))) break;
    last = j;
  }
  return last;
}

/**
 * An item marked not to be done, and the items nested under it, are not tasks: their lines stay in
 * the list's text as written. Returns the last of its lines.
 */
function leaveOut(lines: TextLines, inFence: boolean[], i: number, depth: number, out: Checklist, at: (i: number) => number): number {
  const last = lastUnder(lines, inFence, i, depth, true);
  for (let j = i; j <= last; j++) {
    const item = inFence[j] ? null : ITEM.exec(lines.line(j));
    if (!item) continue;
    out.left.push({ id: ownId(item[3]!.trim())?.id, line: at(j), ...(j === i ? {} : { nested: true as const }) });
    const why = j === i ? `marked [${NOT_TO_DO}], not to be done` : `part of an item marked [${NOT_TO_DO}]`;
    out.mapped.push({ line: at(j), text: lines.line(j).trim(), to: `the text of the task list, not a task (${why})` });
  }
  return last;
}

/** The group a task is shown in on the board: its "## " heading, and its "### " heading under it. */
export function groupOf(t: Pick<ChecklistTask, 'group' | 'subgroup'>): string | undefined {
  if (t.subgroup === undefined) return t.group;
  const whole = t.group === undefined ? t.subgroup : `${t.group} / ${t.subgroup}`;
  return [...whole].length <= LIMITS.titleMax ? whole : `${[...whole].slice(0, LIMITS.titleMax - 1).join('')}…`;
}

/**
 * What is not a task, in order, as written: the text that goes with the list. A group heading
 * ("## ", or "### " under it) with nothing but tasks under it is kept only as the group of those
 * tasks (and reported so).
 */
export function leftover(lines: TextLines, inFence: boolean[], taken: boolean[], titleLine: number, tasks: { id: string; group?: string; subgroup?: string; line: number }[], firstLine: number, mapped: ReportLine[]): string {
  const at = (i: number) => firstLine + i;
  const level = (i: number) => (inFence[i] ? 0 : headingLevel(lines.line(i)));
  /** A heading's section: its lines up to the next heading of its level or above. */
  const sectionEnd = (i: number, top: number) => {
    let end = i + 1;
    while (end < lines.length && !(level(end) > 0 && level(end) <= top)) end++;
    return end;
  };
  const hasText = (i: number, end: number, gone: boolean[]) => {
    for (let j = i + 1; j < end; j++) if (!taken[j] && !gone[j] && lines.line(j).trim() !== '') return true;
    return false;
  };
  // Sub-group headings first: one with only tasks under it is gone from the text, so that the heading above it may go too.
  const gone = new Array<boolean>(lines.length).fill(false);
  for (let i = 0; i < lines.length; i++) {
    if (taken[i] || level(i) !== 3) continue;
    const name = headingText(lines.line(i));
    const end = sectionEnd(i, 3);
    const members = tasks.filter((t) => t.subgroup === name && t.line > at(i) && t.line < at(end)).map((t) => t.id);
    if (members.length === 0) continue;
    mapped.push({ line: at(i), text: lines.line(i).trim(), to: `the group of tasks ${members.join(', ')}, under the heading above it` });
    if (!hasText(i, end, gone)) gone[i] = true;
  }
  const intro: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (taken[i] || gone[i] || i === titleLine) continue;
    const line = lines.line(i);
    if (level(i) === 2) {
      const name = headingText(line);
      const end = sectionEnd(i, 2);
      const members = tasks.filter((t) => t.group === name && t.line > at(i) && t.line < at(end)).map((t) => t.id);
      if (members.length > 0) mapped.push({ line: at(i), text: line.trim(), to: `the group of tasks ${members.join(', ')}` });
      if (!hasText(i, end, gone) && members.length > 0) continue;
    }
    intro.push(line);
  }
  return intro.join('\n').replace(/\n[ \t]*(?:\n[ \t]*)+\n/g, '\n\n').trim();
}

/** An item's own id and the rest of its text (the labels in the bold with the id first: "[P] Title"); null when it gives none. */
function ownId(text: string): { id: string; text: string } | null {
  const m = NUMBERED.exec(text);
  if (!m) return null;
  if (!m[1]) return { id: m[3]!, text: m[4]!.trim() };
  // What the bold holds after the id: its labels open the text, as they do outside the bold; other words ("(partial)") go on before the title.
  const inBold = m[2]!;
  const labels = inBold.match(LABELS) ?? [];
  const words = inBold.replace(LABELS, ' ').replace(/\s+/g, ' ').trim();
  return { id: m[1], text: [...labels, words, m[4]!].filter(Boolean).join(' ').trim() };
}

/** An id as a number reads: T037 and T37 are one. */
function idKey(id: string): string {
  return id.replace(/\d+/g, (d) => String(Number(d)));
}

/** The ids the items of a list give themselves, as idKey reads them: an id given to an item without one must be none of them. */
function ownIds(lines: TextLines, inFence: boolean[]): Set<string> {
  const ids = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const item = inFence[i] ? null : ITEM.exec(lines.line(i));
    const own = item ? ownId(item[3]!.trim()) : null;
    if (own) ids.add(idKey(own.id));
  }
  return ids;
}

/**
 * In a list whose items give their ids, one that gives none gets T<n>, a number no item gives (so
 * that T37 is not told from T037 by its zero alone): a warning says which items and why.
 */
function warnGiven(out: Checklist): void {
  const given = out.tasks.filter((t) => t.generated);
  if (given.length === 0 || given.length === out.tasks.length) return;
  const said = given.map((t) => `${t.id} (line ${t.line})`).join(', ');
  out.findings.push({
    level: 'warning',
    line: given[0]!.line,
    message: `${given.length === 1 ? 'an item' : `${given.length} items`} of the list give${given.length === 1 ? 's' : ''} no id agentboard reads, unlike the others: ${given.length === 1 ? 'it is' : 'they are'} ${said} on the board, ${given.length === 1 ? 'a number' : 'numbers'} no item of the list gives`,
    fix: 'nothing to do, or give each item an id of its own (T012, 1.2, T012a) in the source and import again',
  });
}

/**
 * The items marked not to be done ([-]) are not tasks: no agent is handed them. Those of other marks
 * ([~]) are to do. A warning for each says which items, so that a person can tell what they meant.
 */
function warnMarked(out: Checklist): void {
  const named = (items: { id?: string | undefined; line: number }[]) => items.map((t) => (t.id ? `${t.id} (line ${t.line})` : `the item on line ${t.line}`)).join(', ');
  if (out.left.length > 0) {
    out.findings.push({
      level: 'warning',
      line: out.left[0]!.line,
      message: `${named(out.left)} ${out.left.length === 1 ? 'is' : 'are'} marked [${NOT_TO_DO}]${out.left.some((t) => t.nested) ? ' (or nested under an item so marked)' : ''}, not to be done (cancelled or put off), so ${out.left.length === 1 ? 'it is not a task' : 'they are not tasks'} on the board and no agent is handed ${out.left.length === 1 ? 'it' : 'them'}: ${out.left.length === 1 ? 'its lines stay' : 'their lines stay'} in the text of the task list, as written`,
      fix: 'nothing to do; to do one of them after all, add it to the list on the board (`agentboard task add`)',
    });
  }
  for (const mark of new Set(out.tasks.flatMap((t) => (t.mark ? [t.mark] : [])))) {
    const marked = out.tasks.filter((t) => t.mark === mark);
    out.findings.push({
      level: 'warning',
      line: marked[0]!.line,
      message: `${named(marked)} ${marked.length === 1 ? 'is' : 'are'} marked [${mark}], which agentboard does not read as done: ${marked.length === 1 ? 'it is' : 'they are'} to do on the board, the mark named at the top of ${marked.length === 1 ? 'its description' : 'their descriptions'}`,
      fix: 'check what of each is done: `agentboard task done` for one finished, `agentboard task rm` for one not to be done',
    });
  }
}

/** The line a task's description opens with when its checkbox has a mark agentboard cannot read as done or not. */
function markLine(mark: string): string {
  return `The source marks this task [${mark}], which agentboard does not read as done: see what of it is done before working on it.`;
}

function newTask(text: string, mark: string, line: number, raw: string, out: Checklist, used: Set<string>, own: Set<string>, parent: string | undefined): ChecklistTask {
  const done = mark === 'x' || mark === 'X';
  const otherMark = !done && mark !== '' ? mark : undefined;
  let id: string;
  let generated = false;
  const numbered = ownId(text);
  if (numbered) {
    id = numbered.id;
    text = numbered.text;
  } else {
    let n = out.tasks.length + 1;
    while (used.has(`T${n}`) || own.has(idKey(`T${n}`))) n++;
    id = `T${n}`;
    generated = true;
  }
  if (used.has(id)) out.findings.push({ level: 'error', line, message: `task id "${printable(id)}" is used twice`, fix: 'give every item its own number' });
  used.add(id);
  let parallel = false;
  let story: string | undefined;
  const markers = MARKERS.exec(text);
  if (markers) {
    parallel = /\[P\]/.test(markers[1]!);
    story = /\[((?:US|HU)\d+)\]/.exec(markers[1]!)?.[1];
    text = text.slice(markers[0].length).trim();
  }
  const depends: string[] = [];
  for (const phrase of dependsPhrases(text)) depends.push(...dependencyIds(phrase).ids.filter((d) => !depends.includes(d)));
  const { title, overflow } = fitTitle(text);
  const description = [otherMark ? markLine(otherMark) : '', overflow ? text : ''].filter(Boolean).join('\n\n');
  const task: ChecklistTask = { id, generated, title, description, done, files: [], depends, requirements: [], parallel, specRefs: [], line };
  if (story) task.story = story;
  if (parent !== undefined) task.parent = parent;
  if (otherMark) task.mark = otherMark;
  const marks = [done ? 'done' : '', otherMark ? `marked [${otherMark}], to do` : '', parallel ? 'parallel' : '', story ? `user story ${story}, named in its description` : '', depends.length ? `depends on ${depends.join(', ')}` : '', generated ? `id ${id} given` : '', parent ? `part of ${parent}, which waits for it` : ''].filter(Boolean);
  out.mapped.push({ line, text: raw, to: `task ${id}${marks.length ? ` (${marks.join(', ')})` : ''}` });
  return task;
}

/** Reads a sub-line that names a field; false when its value cannot be read as one (it then stays in the description). */
function readField(task: ChecklistTask, key: string, value: string, line: number, raw: string, out: Checklist): boolean {
  const to = (what: string) => out.mapped.push({ line, text: raw.trim(), to: `task ${task.id} ${what}` });
  if (key === 'file' || key === 'files') {
    const { files, problem } = parseFiles(value);
    if (problem) {
      out.findings.push({ level: 'error', line, message: `task ${task.id}: ${problem}`, fix: 'write the file as "File: `path` (CREATE|MODIFY|DELETE|RENAME)"', kept: true });
      return false;
    }
    if (files.length === 0) return false;
    task.files.push(...files);
    to(`files: ${files.map((f) => `${f.path} (${f.action})`).join(', ')}`);
    return true;
  }
  if (key.startsWith('depend')) {
    const { ids, more } = dependencyIds(value);
    task.depends.push(...ids.filter((d) => !task.depends.includes(d)));
    if (!more) {
      to(ids.length ? `depends on ${ids.join(', ')}` : 'depends on nothing');
      return true;
    }
    // A line that says more than its ids (a remark, a comment, words) stays in the description as written.
    if (ids.length > 0) to(`depends on ${ids.join(', ')} (the line kept in its description: it says more)`);
    else {
      const label = `${key.charAt(0).toUpperCase()}${key.slice(1)}`;
      out.findings.push({ level: 'warning', line, message: `task ${task.id}: its "${label}" line names no task by its id (T012, 1.2), so no dependency was read from it`, fix: 'add the dependencies it means on the board (`agentboard task update`), or name the tasks by their ids in the source and import again', kept: true });
    }
    return false;
  }
  if (key === 'priority') {
    const p = priorityOf(value);
    if (!p) {
      out.findings.push({ level: 'error', line, message: `task ${task.id}: "${printable(value)}" is not a priority`, fix: `use one of: ${PRIORITIES.join(', ')}`, kept: true });
      return false;
    }
    task.priority = p;
    to(`priority ${p}`);
    return true;
  }
  if (key === 'requirement' || key === 'requirements') {
    const ids = splitIds(value);
    task.requirements.push(...ids);
    to(`requirements ${ids.join(', ')}`);
    return true;
  }
  // "Spec:" stays in the description; the reference is remembered for linking requirements.
  const ref = /`([^`]+)`/.exec(value)?.[1] ?? value;
  if (ref) task.specRefs.push(ref);
  return false;
}

/**
 * The dependencies a plan's order implies: a task that names none waits for the tasks of the group
 * before its own; one that names its own keeps exactly those. A note like "(depends on 2.1)" on one
 * task so leaves the order of the groups to every other task.
 */
export function groupOrder(tasks: ChecklistTask[]): void {
  let previous: string[] = [];
  let currentGroup: string | undefined;
  let members: string[] = [];
  for (const t of tasks) {
    // A list with "## " headings is ordered by them; one with only "### " headings, by those.
    const group = t.group ?? t.subgroup;
    if (group !== currentGroup) {
      if (members.length > 0) previous = members;
      members = [];
      currentGroup = group;
    }
    if (group !== undefined && t.depends.length === 0) t.depends = previous.filter((d) => d !== t.id);
    members.push(t.id);
  }
}

/**
 * A checkbox nested under another is a part of it. The board's tasks have no parts, but they have
 * dependencies: the outer task waits for its parts (it is done when they are), each part waits for
 * what the outer one waited for instead of for the outer one, and its description starts with the
 * outer task's title, the context its own title leaves out.
 */
export function nestedOrder(tasks: ChecklistTask[]): void {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const parts: ChecklistTask[] = [];
  for (const t of tasks) {
    const outer = t.parent === undefined ? undefined : byId.get(t.parent);
    if (!outer) continue;
    t.depends = [...new Set([...t.depends, ...outer.depends])].filter((d) => d !== outer.id && d !== t.id);
    t.description = [`Part of ${outer.id}: ${outer.title}`, t.description].filter(Boolean).join('\n\n');
    parts.push(t);
  }
  for (const t of parts) {
    const outer = byId.get(t.parent!)!;
    if (!outer.depends.includes(t.id)) outer.depends.push(t.id);
  }
}
