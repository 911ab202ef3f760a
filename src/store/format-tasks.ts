/**
 * tasks.md body: `# Tasks: <title>`, then one block per task:
 *
 *     ## T1: Title
 *
 *     ```yaml
 *     status: todo
 *     …
 *     ```
 *
 *     Description in markdown.
 *
 * Blocks are kept as raw text; an edit re-renders only the block it changes (in a block a person
 * wrote in a shape of their own, only the fields it changes: updatedTaskBlock), so a diff shows
 * exactly what changed and a person's formatting elsewhere is left alone.
 */
import { FindingSink, hasErrors } from '../domain/findings.js';
import {
  BLOCKER_SEVERITIES,
  FILE_ACTIONS,
  PRIORITIES,
  TASK_STATUSES,
  TASK_STATUS_ALIASES,
  type Blocker,
  type Priority,
  type Task,
  type TaskFile,
  type TaskStatus,
} from '../domain/model.js';
import { readNotes } from './doc-meta.js';
import { readBlock, writeBlock } from './blocks.js';
import { headingsOffLevel, outline, TextLines, type Heading } from './markdown.js';
import { renderTemplate } from './template.js';
import { TEMPLATES } from './templates.js';
import { emitYamlCommented, lineOfKey, parseYaml, yamlComments, YamlError, yamlInteger, type FlatMap, type Value, type YamlMap } from './yaml-lite.js';
import { describeChar, lineProblem, printable } from '../domain/text.js';
import { nextTaskId } from '../domain/ids.js';
import { rewriteYamlFields } from './yaml-fields.js';

export interface TaskBlock {
  id: string;
  /** The parsed task, or null when its block is broken (see the findings). */
  task: Task | null;
  raw: string;
  /** 1-based line of the block's heading within the body. */
  line: number;
  /** The text between the block and what stands before it, when not one blank line (as written by hand). */
  gap?: string;
}

export interface TasksBody {
  title: string;
  preamble: string;
  blocks: TaskBlock[];
  /** The text after the last block, when not one newline (blank lines a person left at the end). */
  tail?: string;
}

/** What agentboard writes between two blocks, and after the last one. */
export const GAP = '\n\n';
export const TAIL = '\n';

const TASK_HEADING = /^([A-Za-z0-9][A-Za-z0-9._-]*):\s+(.*)$/;
/** A task's yaml block opens with a fence of three backticks or more (or tildes), as markdown has them, and yaml. */
const META_OPEN = /^(`{3,}|~{3,})[ \t]*ya?ml[ \t]*$/;
/** The fence a task's yaml block opens with on `line`; null when it opens none. */
function metaFence(line: string): string | null {
  return META_OPEN.exec(line)?.[1] ?? null;
}
/** Whether `line` closes the block `fence` opened: the same character, as many or more, and nothing else. */
function closesMeta(line: string, fence: string): boolean {
  const trimmed = line.trimEnd();
  return trimmed.length >= fence.length && trimmed === fence[0]!.repeat(trimmed.length);
}
const OWN_FENCE = '```';
const TASK_META_KEYS = new Set([
  'status',
  'priority',
  'depends',
  'skills',
  'requirements',
  'review_round',
  'group',
  'files',
  'assignee',
  'claimed_at',
  'progress',
  'progress_message',
  'progress_at',
  'submitted_at',
  'submission',
  'pr_url',
  'completed_at',
  'branch',
  'blockers',
  'feedback',
  'notes',
]);

export function taskMeta(task: Task): Record<string, Value | undefined> {
  const list = <T>(items: T[]) => (items.length > 0 ? items : undefined);
  return {
    status: task.status,
    priority: task.priority,
    depends: list(task.depends),
    skills: list(task.skills),
    requirements: list(task.requirements),
    review_round: task.review_round,
    group: task.group,
    files: list(task.files.map((f) => ({ path: f.path, action: f.action }))),
    assignee: task.assignee,
    claimed_at: task.claimed_at,
    progress: task.progress,
    progress_message: task.progress_message,
    progress_at: task.progress_at,
    submitted_at: task.submitted_at,
    submission: task.submission,
    pr_url: task.pr_url,
    completed_at: task.completed_at,
    branch: task.branch,
    blockers: list(task.blockers.map((b) => ({ ...b }) as FlatMap)),
    feedback: list(task.feedback.map((n) => ({ author: n.author, at: n.at, text: n.text }))),
    notes: list(task.notes.map((n) => ({ author: n.author, at: n.at, text: n.text }))),
    ...(task.extra as Record<string, Value> | undefined),
  };
}

export function renderTaskBlock(task: Task): string {
  const raw = renderTemplate(TEMPLATES.task, {
    id: task.id,
    title: task.title,
    meta: emitYamlCommented(taskMeta(task), task.comments),
    description: task.description ? writeBlock(task.description, 2) : '',
  }).replace(/\n+$/, '');
  writtenFor.set(task, raw);
  return raw;
}

/**
 * What renderTaskBlock last wrote for each task: a block holding that text is agentboard's own
 * writing (updatedTaskBlock), known without writing the task again (a task written again and
 * again in one batch of calls, say).
 */
const writtenFor = new WeakMap<Task, string>();

/** What a task reads as in the file, for telling whether two writings of it say the same. */
function readingOf(task: Task): string {
  return JSON.stringify({ id: task.id, title: task.title, description: task.description, meta: taskMeta(task), comments: task.comments ?? null });
}

/**
 * A task's block written by a person (`block`), with `task`'s values in place of the old ones: only
 * the lines of the fields that changed are written anew (a new field after the last of the block's
 * fields that agentboard writes before it), the heading and the description only when they
 * changed. The person's order of fields, quoting, list style, comments and spacing stay. A block as
 * agentboard writes it, or one whose edit would not read back as `task`, is written whole
 * (renderTaskBlock).
 */
export function updatedTaskBlock(block: Pick<TaskBlock, 'raw' | 'task'>, task: Task): string {
  const whole = renderTaskBlock(task);
  const before = block.task;
  if (!before || before.id !== task.id || writtenFor.get(before) === block.raw || block.raw === renderTaskBlock(before)) return whole;
  const lines = block.raw.split('\n');
  const rendered = whole.split('\n');
  const open = lines.findIndex((l, i) => i > 0 && l.trim() !== '');
  const fence = open > 0 ? metaFence(lines[open]!) : null;
  const close = fence === null ? -1 : lines.findIndex((l, i) => i > open && closesMeta(l, fence));
  const wholeClose = rendered.findIndex((l, i) => i > 0 && closesMeta(l, OWN_FENCE));
  const yaml = fence !== null && close > open ? rewriteYamlFields(lines.slice(open + 1, close), taskMeta(before), taskMeta(task), before.comments?.inline) : null;
  if (!yaml) return whole;

  const heading = before.title === task.title ? lines[0]! : rendered[0]!;
  const description = before.description === task.description ? lines.slice(close + 1) : rendered.slice(wholeClose + 1);
  const raw = [heading, ...lines.slice(1, open + 1), ...yaml, lines[close]!, ...description].join('\n');
  const sink = new FindingSink('tasks.md');
  const read = parseTasksBody(raw, sink).blocks;
  const same = read.length === 1 && read[0]!.task !== null && !hasErrors(sink.findings) && readingOf(read[0]!.task) === readingOf(task);
  return same ? raw : whole;
}

/** The start of a task list: its title, and the text that goes with the list as a whole (kept as written). */
export function renderTasksPreamble(title: string, intro = ''): string {
  return `\n${renderTemplate(TEMPLATES.tasks, { title, intro: intro.trim() ? writeBlock(intro, 2) : '' })}`.replace(/\n+$/, '');
}

export function serializeTasksBody(body: TasksBody): string {
  return `${body.preamble}${body.blocks.map((b) => (b.gap ?? GAP) + b.raw).join('')}${body.tail ?? TAIL}`;
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The body text for these blocks, and the blocks with the lines they stand on in it (as parseTasksBody gives them). */
export function assembleTasksBody(title: string, preamble: string, blocks: Omit<TaskBlock, 'line'>[], tail?: string): { body: string; content: TasksBody } {
  let line = newlines(preamble) + 1;
  const placed = blocks.map((b) => {
    line += b.gap === undefined ? 2 : newlines(b.gap);
    const block = { ...b, line };
    line += newlines(b.raw);
    return block;
  });
  const content: TasksBody = { title, preamble, blocks: placed, ...(tail === undefined ? {} : { tail }) };
  return { body: serializeTasksBody(content), content };
}

/** The last preamble tasksTitle read, and its title: every write of a task list asks it of the same preamble again. */
let titled: { preamble: string; title: string } | undefined;

/** The title a task list's preamble gives it ("# Tasks: <title>"). */
export function tasksTitle(preamble: string): string {
  if (titled?.preamble !== preamble) {
    const h1 = outline(new TextLines(preamble)).find((h) => h.level === 1);
    titled = { preamble, title: h1 ? h1.text.replace(/^tasks\s*:\s*/i, '') : '' };
  }
  return titled.title;
}

/** The text of a task list's preamble besides its title. */
export function tasksIntro(preamble: string): string {
  const lines = new TextLines(preamble);
  const h1 = outline(lines).find((h) => h.level === 1);
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) if (i !== h1?.index) kept.push(lines.line(i));
  return readBlock(kept.join('\n').replace(/^\s*\n/, '').trimEnd(), 2);
}

/**
 * Reads a task list's body. `retired` are the ids of the tasks deleted from it (its frontmatter's
 * "retired:"): a task that has one (a merge of two clones can bring one back) is an error, like an
 * id used twice, since the log, notes and reviews naming the id mean the deleted task.
 */
export function parseTasksBody(body: string, sink: FindingSink, retired: readonly string[] = []): TasksBody {
  const lines = new TextLines(body);
  const all = outline(lines);
  const heads = all.filter((h) => h.level <= 2);
  const taskHeads = heads.filter((h) => h.level === 2);
  const h1 = heads.find((h) => h.level === 1);
  const firstTask = taskHeads.length > 0 ? taskHeads[0]!.index : lines.length;
  /** The end of [from, to) without its trailing blank lines. */
  const trimmedEnd = (from: number, to: number) => {
    while (to > from && lines.isBlank(to - 1)) to--;
    return to;
  };
  const result: TasksBody = {
    title: h1 && h1.index < firstTask ? h1.text.replace(/^tasks\s*:\s*/i, '') : '',
    preamble: lines.slice(0, trimmedEnd(0, firstTask)),
    blocks: [],
  };
  const seen = new Map<string, number>();
  let after = result.preamble.length;
  taskHeads.forEach((head, k) => {
    const end = trimmedEnd(head.index, k + 1 < taskHeads.length ? taskHeads[k + 1]!.index : lines.length);
    const m = TASK_HEADING.exec(head.text);
    const id = m ? m[1]! : '';
    const block: TaskBlock = { id, task: null, raw: lines.slice(head.index, end), line: head.index + 1 };
    const gap = body.slice(after, lines.starts[head.index]);
    if (gap !== GAP) block.gap = gap;
    after = lines.starts[head.index]! + block.raw.length;
    result.blocks.push(block);
    if (!m) {
      // An id with a character ids cannot hold (an accent, an invisible space) says which: the heading may read right.
      const named = /^([^\s:]+):\s/.exec(head.text)?.[1];
      const odd = named && [...named].find((c) => !/[A-Za-z0-9._-]/.test(c));
      const why = odd ? `: its id "${printable(named)}" holds ${describeChar(odd)}, and a task id holds only the letters a to z and A to Z, digits, ".", "_" and "-"` : '';
      sink.error('tasks.heading', `"## ${printable(head.text)}" is not a task heading${why}`, 'write task headings as "## <id>: <title>", like "## T1: Add the parser"', head.index + 1);
      return;
    }
    if (seen.has(id)) {
      sink.error('tasks.id.duplicate', `task id "${printable(id)}" is used twice (first on line ${sink.fileLine(seen.get(id)!)})`, 'give every task in the change its own id', head.index + 1);
    } else {
      seen.set(id, head.index + 1);
    }
    block.task = parseTaskBlock(id, m[2]!.trim(), lines, head.index, end, sink);
    // A title a command would refuse (an invisible character in it), typed by hand: said, with its line.
    const titleProblem = lineProblem(m[2]!.trim());
    if (titleProblem) sink.warn('tasks.title.text', `the title of task ${printable(id)} ${titleProblem.replace(/; send the text without it$/, '')}`, 'take the character out of the title (an editor that shows invisible characters helps)', head.index + 1);
  });
  for (const lost of lostTaskHeadings(lines, all)) {
    const within = taskHeads.findLast((h) => h.index < lost.index);
    const where = within ? `part of the description of task ${printable(TASK_HEADING.exec(within.text)?.[1] ?? within.text)}` : "part of the list's intro";
    const heading = `"## ${printable(lost.text)}"`;
    if (lost.underlined) {
      sink.warn('tasks.heading.level', `"${printable(lost.text)}", underlined, reads as a task, but agentboard reads only task headings that start with ##: as it is, it is ${where}`, `write it ${heading} and take out the line under it`, lost.index + 1);
    } else {
      sink.warn('tasks.heading.level', `"${'#'.repeat(lost.level)} ${printable(lost.text)}" reads as a task, but a task heading has two #: as it is, it is ${where}`, `write it ${heading}`, lost.index + 1);
    }
  }
  const gone = new Set(retired);
  for (const { id, line } of result.blocks) {
    if (!gone.has(id)) continue;
    const shown = printable(id);
    sink.error(
      'tasks.id.retired',
      `task ${shown} has the id of a task deleted from this list (its frontmatter's "retired:" names ${shown}): the activity log, notes and reviews that name ${shown} mean the deleted task`,
      `give this task a new id, like ${nextTaskId([...seen.keys(), ...gone], result.blocks.length)} (the id of a deleted task is never given again), and update the depends that name it`,
      line,
    );
  }
  const tail = body.slice(after);
  if (tail !== TAIL) result.tail = tail;
  return result;
}

/**
 * Headings that read as a task's ("T2: Title" with a ```yaml block holding its status under it)
 * but are not at level 2: "### T2: Title", or a heading underlined with --- or ===. Markdown and
 * a person take them for tasks; read as text, each would land in the description of the task above.
 */
function lostTaskHeadings(lines: TextLines, headings: readonly Heading[]): (Heading & { underlined: boolean })[] {
  const opensTask = (from: number) => {
    let open = from;
    while (open < lines.length && lines.isBlank(open)) open++;
    const fence = open < lines.length ? metaFence(lines.line(open)) : null;
    if (fence === null) return false;
    for (let i = open + 1; i < lines.length && !closesMeta(lines.line(i), fence); i++) if (/^status:[ \t]*\S/.test(lines.line(i))) return true;
    return false;
  };
  // The yaml block starts under the heading's line, or under the line that underlines it.
  return headingsOffLevel(lines, headings).filter((h) => TASK_HEADING.test(h.text) && opensTask(h.index + (h.underlined ? 2 : 1)));
}

/** Reads the task whose heading is on line `head`; its block runs to line `end` (exclusive). */
function parseTaskBlock(id: string, title: string, lines: TextLines, head: number, end: number, sink: FindingSink): Task | null {
  let open = head + 1;
  while (open < end && lines.isBlank(open)) open++;
  const fence = open < end ? metaFence(lines.line(open)) : null;
  if (fence === null) {
    sink.error('tasks.meta.missing', `task ${printable(id)} has no \`\`\`yaml block under its heading`, 'put a ```yaml block with at least "status:" right under the heading', Math.min(open, end - 1) + 1);
    return null;
  }
  let close = open + 1;
  while (close < end && !closesMeta(lines.line(close), fence)) close++;
  if (close >= end) {
    sink.error('tasks.meta.unclosed', `the ${fence}yaml block of task ${printable(id)} is not closed`, `end the block with a line holding only ${fence}`, open + 1);
    return null;
  }
  const yamlText = lines.slice(open + 1, close);
  const metaSink = sink.at(open + 1);
  let meta: YamlMap;
  try {
    meta = parseYaml(yamlText);
  } catch (err) {
    if (!(err instanceof YamlError)) throw err;
    metaSink.error('tasks.meta.yaml', `task ${printable(id)}: ${err.message}`, 'fix the YAML of this task', err.line);
    return null;
  }
  let first = close + 1;
  while (first < end && lines.isBlank(first)) first++;
  const task = taskFromMeta(id, title, readBlock(lines.slice(first, end), 2), meta, (key) => lineOfKey(yamlText, key), metaSink);
  const comments = yamlComments(yamlText);
  if (comments) task.comments = comments;
  return task;
}

type LineOf = (key: string) => number | undefined;

function asString(v: Value | undefined): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'object' ? undefined : String(v);
}

function asList(v: Value | undefined, key: string, id: string, sink: FindingSink, lineOf: LineOf): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (!Array.isArray(v) || v.some((x) => typeof x === 'object' && x !== null)) {
    sink.error('tasks.meta.list', `task ${printable(id)}: "${printable(key)}" must be a list like [a, b]`, `write "${printable(key)}: [a, b]"`, lineOf(key));
    return [];
  }
  return (v as (string | number | boolean | null)[]).map((x) => String(x));
}

/** Turns a task's YAML into a Task, reporting every field that is not what it should be. */
export function taskFromMeta(id: string, title: string, description: string, meta: YamlMap, lineOf: LineOf, sink: FindingSink): Task {
  const statusText = asString(meta.status) ?? '';
  let status: TaskStatus = 'todo';
  if ((TASK_STATUSES as readonly string[]).includes(statusText)) status = statusText as TaskStatus;
  else if (TASK_STATUS_ALIASES[statusText]) {
    status = TASK_STATUS_ALIASES[statusText]!;
    sink.warn('tasks.status.alias', `task ${printable(id)}: status "${printable(statusText)}" is read as "${status}"`, `write "status: ${status}"`, lineOf('status'));
  } else {
    const odd = [...statusText].find((c) => !/[\x21-\x7e]/.test(c));
    const holds = odd ? ` (it holds ${describeChar(odd)})` : '';
    sink.error('tasks.status', `task ${printable(id)}: ${statusText ? `unknown status "${printable(statusText)}"${holds}` : 'no status'}`, `use one of: ${TASK_STATUSES.join(', ')}`, lineOf('status') ?? 1);
  }
  const priorityText = asString(meta.priority) ?? 'medium';
  let priority: Priority = 'medium';
  if ((PRIORITIES as readonly string[]).includes(priorityText)) priority = priorityText as Priority;
  else sink.error('tasks.priority', `task ${printable(id)}: unknown priority "${printable(priorityText)}"`, `use one of: ${PRIORITIES.join(', ')}`, lineOf('priority'));

  const files: TaskFile[] = [];
  const rawFiles = meta.files;
  if (rawFiles !== undefined && rawFiles !== null) {
    if (!Array.isArray(rawFiles)) {
      sink.error('tasks.files', `task ${printable(id)}: "files" must be a list of path and action`, 'write each file as "- path: src/x.ts" with "action: create|modify|delete" under it', lineOf('files'));
    } else {
      for (const f of rawFiles) {
        const entry = typeof f === 'object' && f !== null ? (f as FlatMap) : null;
        const path = entry ? asString(entry.path) : undefined;
        const action = entry ? asString(entry.action) : undefined;
        if (!path || !action || !(FILE_ACTIONS as readonly string[]).includes(action)) {
          sink.error('tasks.files', `task ${printable(id)}: a file entry needs a path and an action (${FILE_ACTIONS.join(', ')})`, `write "- path: …" and "action: ${FILE_ACTIONS.join('|')}"`, lineOf('files'));
          continue;
        }
        files.push({ path, action: action as TaskFile['action'] });
      }
    }
  }

  const blockers: Blocker[] = [];
  const rawBlockers = meta.blockers;
  if (Array.isArray(rawBlockers)) {
    for (const b of rawBlockers) {
      const entry = typeof b === 'object' && b !== null ? (b as FlatMap) : {};
      const severity = asString(entry.severity) ?? 'medium';
      if (!(BLOCKER_SEVERITIES as readonly string[]).includes(severity)) {
        sink.error('tasks.blocker.severity', `task ${printable(id)}: unknown blocker severity "${printable(severity)}"`, `use one of: ${BLOCKER_SEVERITIES.join(', ')}`, lineOf('blockers'));
      }
      const blocker: Blocker = {
        reason: asString(entry.reason) ?? '',
        severity: severity as Blocker['severity'],
        by: asString(entry.by) ?? '',
        at: asString(entry.at) ?? '',
      };
      const resolvedBy = asString(entry.resolved_by);
      const resolvedAt = asString(entry.resolved_at);
      if (resolvedBy !== undefined) blocker.resolved_by = resolvedBy;
      if (resolvedAt !== undefined) blocker.resolved_at = resolvedAt;
      blockers.push(blocker);
    }
  } else if (rawBlockers !== undefined && rawBlockers !== null) {
    sink.error('tasks.blockers', `task ${printable(id)}: "blockers" must be a list`, 'write each blocker as a list entry with reason and severity', lineOf('blockers'));
  }

  const task: Task = {
    id,
    title,
    description,
    status,
    priority,
    depends: asList(meta.depends, 'depends', id, sink, lineOf),
    skills: asList(meta.skills, 'skills', id, sink, lineOf),
    requirements: asList(meta.requirements, 'requirements', id, sink, lineOf),
    files,
    blockers,
    feedback: readNotes(meta.feedback, 'feedback', sink, lineOf),
    notes: readNotes(meta.notes, 'notes', sink, lineOf),
  };
  for (const key of ['assignee', 'claimed_at', 'progress_message', 'progress_at', 'submitted_at', 'submission', 'pr_url', 'completed_at', 'branch', 'group'] as const) {
    const v = asString(meta[key]);
    if (v !== undefined) task[key] = v;
  }
  if (meta.review_round !== undefined && meta.review_round !== null) {
    const r = yamlInteger(meta.review_round);
    if (typeof r === 'number' && Number.isInteger(r) && r >= 1) task.review_round = r;
    else sink.error('tasks.review_round', `task ${printable(id)}: review_round must be a review round number (1 or more)`, 'write "review_round: 1", or remove it', lineOf('review_round'));
  }
  if (meta.progress !== undefined && meta.progress !== null) {
    const p = yamlInteger(meta.progress);
    if (typeof p === 'number' && Number.isInteger(p) && p >= 0 && p <= 100) task.progress = p;
    else sink.error('tasks.progress', `task ${printable(id)}: progress must be a whole number from 0 to 100`, 'write "progress: 40"', lineOf('progress'));
  }
  for (const key of Object.keys(meta)) {
    if (TASK_META_KEYS.has(key)) continue;
    sink.warn('tasks.meta.unknown', `task ${printable(id)}: unknown field "${printable(key)}" is kept as it is but not read`, `check its spelling if agentboard should read it`, lineOf(key));
    (task.extra ??= {})[key] = meta[key];
  }
  return task;
}
