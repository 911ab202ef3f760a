/**
 * Reading a task list quickly: the fields that choosing work and counting it need (id, title,
 * status, priority, assignee, dependencies, skills, the claim and progress times, who noted what
 * when), from a tasks.md body in the exact shape agentboard writes. Anything else (a code fence in
 * a description, YAML beyond what agentboard emits, a value that would not parse) makes the scan
 * give up and return null, and the caller reads the file with the full parser (format-tasks.ts),
 * which stays the judge: the scan must agree with it on everything it accepts (see
 * test/unit/task-scan.test.ts).
 *
 * The work is done by regular expressions, which V8 compiles to machine code at once: a command
 * runs this only a few times per process, too few for JavaScript loops to be optimised, and on a
 * board of 10,000 tasks this is what lets `next` and `status` start from nothing on every call.
 */
import { PRIORITIES, TASK_STATUSES, TASK_STATUS_ALIASES, type Priority, type Task, type TaskStatus } from '../domain/model.js';
import type { HeadMeta } from './quick-meta.js';
import { hasUnsafeText } from '../domain/text.js';
import { unparsable, type DocFile } from './documents.js';
import { headingText } from './markdown.js';
import { parseFlowList } from './yaml-lite.js';

export interface TaskSummary {
  id: string;
  title: string;
  status: TaskStatus;
  priority: Priority;
  assignee?: string;
  depends: string[];
  skills: string[];
  claimed_at?: string;
  progress?: number;
  progress_at?: string;
  submitted_at?: string;
  submission?: string;
  /** When each author last wrote a note on the task. */
  noted: Record<string, string>;
}

/** The state fields (domain/model.ts TASK_STATE_FIELDS) a summary holds. */
export const SUMMARY_STATE = ['status', 'assignee', 'claimed_at', 'progress', 'progress_at', 'submitted_at', 'submission'] as const;

/** Headings of level 2 and fences: the body may have none but those of its task blocks (one heading and two fences each). */
const LEVEL2_OR_FENCE = /^ {0,3}(?:##(?:[ \t]|$)|`{3,}|~{3,})/gm;

// The values agentboard writes: a plain word, a timestamp, a JSON-quoted string; lists in flow
// style of words and quoted strings. (A word YAML reads as null or a boolean is refused where the
// scan returns it; elsewhere it changes nothing the scan returns.)
const WORD = String.raw`[A-Za-z_][\w./+-]*`;
const SPECIAL = /^(?:null|true|false|yes|no|on|off|y|n)$/i;
const QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"`;
const STAMP = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z`;
const V = `(?:${WORD}|${STAMP}|${QUOTED})`;
const ITEM = `(?:${WORD}|${QUOTED})`;
const FLOW = `\\[(?:${ITEM}(?:, ${ITEM})*)?\\]`;
const field = (key: string, value: string, capture = true) => `(?:${key}: (${capture ? value : `?:${value}`})\\n)?`;
const list = (key: string, entry: string, capture = false) => `(?:${key}:\\n(${capture ? '' : '?:'}(?:${entry})+))?`;
const NOTE = `  - author: ${V}\\n    at: ${V}\\n    text: ${V}\\n`;
/**
 * A meta block exactly as agentboard writes it (format-tasks.ts taskMeta: every key in its order),
 * capturing the fields the scan returns. One native match per task; anything else (a hand edit that
 * reordered keys, an unknown key, a comment) does not match and the full parser reads the list.
 */
const META_FIELDS =
  `status: (${V})\\n` +
    field('priority', V) +
    field('depends', FLOW) +
    field('skills', FLOW) +
    field('requirements', FLOW, false) +
    field('review_round', '[1-9]\\d{0,8}', false) +
    field('group', V, false) +
    list('files', `  - path: ${V}\\n    action: (?:create|modify|delete|rename)\\n`) +
    field('assignee', V) +
    field('claimed_at', V) +
    field('progress', '0|[1-9]\\d?|100') +
    field('progress_message', V, false) +
    field('progress_at', V) +
    field('submitted_at', V) +
    field('submission', V) +
    field('pr_url', V, false) +
    field('completed_at', V, false) +
    field('branch', V, false) +
    list('blockers', `  - reason: ${V}\\n    severity: (?:low|medium|high)\\n    by: ${V}\\n    at: ${V}\\n(?:    resolved_by: ${V}\\n    resolved_at: ${V}\\n)?`) +
    list('feedback', NOTE) +
  list('notes', NOTE, true);
/**
 * A task: its "## <id>: <title>" heading, blank lines, and its ```yaml block in agentboard's shape
 * (above). A level-2 heading or a fence that is not such a block's matches nothing here, and the
 * count below then sends the list to the full parser.
 */
const TASK = new RegExp(String.raw`^##[ \t]+([A-Za-z0-9][A-Za-z0-9._-]*):[ \t]+([^\n]*)\n(?:[ \t]*\n)*` + '```ya?ml[ \\t]*\\n' + META_FIELDS + '```[ \\t]*$', 'gm');
const NOTED = /^  - author: ([^\n]+)\n    at: ([^\n]+)$/gm;

const STATUSES = new Set<string>(TASK_STATUSES);
const PRIORITY_SET = new Set<string>(PRIORITIES);

function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.test(text)) n++;
  return n;
}

/** A captured scalar: plain as it is, quoted decoded as JSON (undefined: not read as a string). */
function decode(raw: string | undefined): string | undefined {
  if (raw === undefined) return raw;
  if (raw.charCodeAt(0) !== 34) return raw.length <= 5 && SPECIAL.test(raw) ? undefined : raw;
  try {
    const s: unknown = JSON.parse(raw);
    return typeof s === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

/** A captured flow list. Without quotes its items are words (the pattern above says so), read as they are. */
/** What a list without items, or a task without notes, shares with every other (frozen: nobody writes into a summary). */
const NONE: string[] = Object.freeze([]) as unknown as string[];
const NOBODY: Record<string, string> = Object.freeze({}) as Record<string, string>;

function items(raw: string | undefined): string[] | null {
  if (raw === undefined || raw === '[]') return NONE;
  if (!raw.includes('"')) return raw.slice(1, -1).split(', ');
  return parseFlowList(raw)?.map(String) ?? null;
}

/**
 * The task summed up from the captures of TASK; null when a value is not one agentboard writes.
 * (Captures are read by index: this runs for every task of the board before the code is optimised,
 * where destructuring an array costs a walk of its iterator.)
 */
function summary(m: RegExpExecArray): TaskSummary | null {
  // A title ending in "#" may be a closing sequence the heading rules take off: let them.
  const trimmed = m[2]!.trimEnd();
  const title = trimmed.endsWith('#') ? headingText(`## ${trimmed}`) : trimmed;
  const status = decode(m[3]);
  const s = status === undefined ? undefined : STATUSES.has(status) ? status : TASK_STATUS_ALIASES[status];
  const p = m[4] === undefined ? 'medium' : decode(m[4]);
  const dep = items(m[5]);
  const sk = items(m[6]);
  if (s === undefined || p === undefined || !PRIORITY_SET.has(p) || dep === null || sk === null) return null;
  const task: TaskSummary = { id: m[1]!, title, status: s as TaskStatus, priority: p as Priority, depends: dep, skills: sk, noted: NOBODY };
  if (m[7] !== undefined && (task.assignee = decode(m[7])) === undefined) return null;
  if (m[8] !== undefined && (task.claimed_at = decode(m[8])) === undefined) return null;
  if (m[10] !== undefined && (task.progress_at = decode(m[10])) === undefined) return null;
  if (m[11] !== undefined && (task.submitted_at = decode(m[11])) === undefined) return null;
  if (m[12] !== undefined && (task.submission = decode(m[12])) === undefined) return null;
  if (m[9] !== undefined) task.progress = Number(m[9]);
  const notes = m[13];
  if (notes !== undefined) {
    task.noted = {};
    NOTED.lastIndex = 0;
    for (let n = NOTED.exec(notes); n !== null; n = NOTED.exec(notes)) {
      const author = decode(n[1]);
      const at = decode(n[2]);
      if (author === undefined || at === undefined) return null;
      if (!(at <= (task.noted[author] ?? ''))) task.noted[author] = at;
    }
  }
  return task;
}

/** A task list read quickly: its frontmatter and a summary of each task. */
export interface TaskList {
  meta: HeadMeta;
  tasks: TaskSummary[];
  /** The file differs from what agentboard last wrote: a person edited it (or, in a list agentboard never wrote here, took out tasks the commit checked out holds). */
  edited: boolean;
  /** The full read found errors: agentboard hands out no task from it and will not write it until it is fixed. */
  broken: boolean;
}

/** A task list read in full, summed up the way the quick scan sums one up. */
export function listOf(doc: DocFile<'tasks'>, edited: boolean): TaskList | null {
  if (doc.content === null) return null;
  return { meta: doc.meta, tasks: doc.content.blocks.flatMap((b) => (b.task ? [summarize(b.task)] : [])), edited, broken: unparsable(doc) };
}

/** The summary of each task read in full, by the task: a task of a document is never changed in place (a write puts a new one), so its summary stands. */
const summaries = new WeakMap<Task, TaskSummary>();

/** The summary of a task read in full. */
export function summarize(t: Task): TaskSummary {
  let s = summaries.get(t);
  if (!s) summaries.set(t, (s = summaryOf(t)));
  return s;
}

function summaryOf(t: Task): TaskSummary {
  const noted: Record<string, string> = {};
  for (const n of t.notes) if (!(n.at <= (noted[n.author] ?? ''))) noted[n.author] = n.at;
  const s: TaskSummary = { id: t.id, title: t.title, status: t.status, priority: t.priority, depends: t.depends, skills: t.skills, noted };
  if (t.assignee !== undefined) s.assignee = t.assignee;
  if (t.claimed_at !== undefined) s.claimed_at = t.claimed_at;
  if (t.progress !== undefined) s.progress = t.progress;
  if (t.progress_at !== undefined) s.progress_at = t.progress_at;
  if (t.submitted_at !== undefined) s.submitted_at = t.submitted_at;
  if (t.submission !== undefined) s.submission = t.submission;
  return s;
}

/** The tasks of a task list body, or null when it is not in the shape agentboard writes. */
export function scanTaskList(body: string): TaskSummary[] | null {
  if (hasUnsafeText(body)) return null; // the full parser reports where
  const tasks: TaskSummary[] = [];
  const ids = new Set<string>();
  TASK.lastIndex = 0;
  for (let m = TASK.exec(body); m !== null; m = TASK.exec(body)) {
    if (ids.has(m[1]!)) return null;
    ids.add(m[1]!);
    const task = summary(m);
    if (task === null) return null;
    tasks.push(task);
  }
  // Every level-2 heading and every fence of the body is one of those blocks': a description holds none.
  return count(LEVEL2_OR_FENCE, body) === 3 * tasks.length ? tasks : null;
}
