/** zod building blocks shared by the operations: ids, text fields, pagination and the task shapes. */
import * as z from 'zod';
import { actorProblem, AGENT_ID_PATTERN, agentIdProblem, CHANGE_ID_PATTERN, changeIdProblem, jsonPattern, parseTaskRef, TASK_ID_PATTERN, TASK_REF_PATTERN, taskIdProblem } from '../domain/ids.js';
import { LIMITS } from '../domain/limits.js';
import {
  BLOCKER_SEVERITIES,
  DOC_STATUSES,
  DOC_TYPES,
  STAGES,
  FILE_ACTIONS,
  PHASES,
  PRIORITIES,
  SEVERITIES,
  TASK_STATUSES,
  TASK_STATUS_ALIASES,
  VERDICTS,
} from '../domain/model.js';
import { charCount, lineProblem, printable, textProblem } from '../domain/text.js';
import { normalizeText } from '../store/markdown.js';


/**
 * A string of `min` to `max` characters, counted as JSON Schema counts them (code points: an emoji
 * is one character), and its limits declared in the schema as minLength and maxLength.
 */
export function sized<T extends z.ZodType<string>>(schema: T, min: number, max: number): T {
  return schema
    .check((ctx) => {
      const n = charCount(ctx.value);
      if (n < min) ctx.issues.push({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, input: ctx.value });
      else if (n > max) ctx.issues.push({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: ctx.value });
    })
    .meta(min > 0 ? { minLength: min, maxLength: max } : { maxLength: max }) as T;
}

/** A string of `min` to `max` characters (code points). */
export function chars(min: number, max: number) {
  return sized(z.string(), min, max);
}

/** A string its own check judges: the problem it names (null when there is none) is said with the field. */
export function checked<T extends z.ZodType<string>>(schema: T, problem: (v: string) => string | null): T {
  return schema.check((ctx) => {
    const found = problem(ctx.value);
    if (found) ctx.issues.push({ code: 'custom', message: found, input: ctx.value });
  }) as T;
}

/** A list that names each item once: the same item twice is a slip to hear of, not a second entry to keep. */
export function distinct<T extends z.ZodArray<z.ZodType<string>>>(list: T): T {
  return list.check((ctx) => {
    const twice = ctx.value.find((item, i) => ctx.value.indexOf(item) !== i);
    if (twice !== undefined) ctx.issues.push({ code: 'custom', message: `names "${twice}" more than once; name each once`, input: ctx.value });
  }) as T;
}

// Each id declares its form (the pattern of domain/ids.ts) for clients that check a call before
// sending it; the check itself says in words what is wrong (its length, a path, a person's name).
export const ChangeId = checked(z.string(), changeIdProblem).meta({ pattern: jsonPattern(CHANGE_ID_PATTERN) }).describe('The change id, like "add-review-tool".');
export const AgentId = checked(z.string(), (v) =>
  v.startsWith('human:') ? 'names a person; this is done by an agent, so give an agent id, like "claude"' : agentIdProblem(v),
)
  .meta({ pattern: jsonPattern(AGENT_ID_PATTERN) })
  .describe('Your agent id, the same on every call, like "claude".');
export const Actor = checked(z.string(), actorProblem).describe('An agent id, or a person as "human:<name>".');
export const LocalTaskId = checked(z.string(), taskIdProblem).meta({ pattern: jsonPattern(TASK_ID_PATTERN) }).describe('A task id within its change, like "T1".');
export const TaskRef = checked(z.string(), (v) => {
  const r = parseTaskRef(v);
  return typeof r === 'string' ? r : null;
})
  .meta({ pattern: jsonPattern(TASK_REF_PATTERN) })
  .describe('The task id "<change_id>/<task_id>", as returned.');

/** Multi-line user text: line ends normalised, blank edges trimmed, no control characters. */
export function text(min: number, max: number) {
  return chars(min, max).transform((value, ctx) => {
    const problem = textProblem(value);
    const v = normalizeText(value);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value });
    else if (charCount(v.trim()) < min) {
      ctx.issues.push({ code: 'custom', message: min > 1 ? `needs at least ${min} characters (got ${charCount(v.trim())})` : 'cannot be empty', input: value });
    }
    return v;
  });
}

/**
 * One line of text: a title or a name. It is trimmed and cannot end in " #", nor be only "#"s (after
 * the "## T1: " of its heading, either would read back as a heading closer); it holds no line
 * separator or invisible character (domain/text.ts lineProblem).
 */
export function line(max: number, min = 1) {
  return chars(min, max).transform((value, ctx) => {
    const v = value.trim();
    const problem = textProblem(value) ?? lineProblem(value);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value });
    else if (/[\r\n]/.test(v)) ctx.issues.push({ code: 'custom', message: 'must be a single line', input: value });
    else if (v.includes('\t')) ctx.issues.push({ code: 'custom', message: 'holds a tab; a one-line field takes spaces', input: value });
    else if (charCount(v) < min) ctx.issues.push({ code: 'custom', message: 'cannot be empty', input: value });
    else if (/[ \t]#+$/.test(v)) ctx.issues.push({ code: 'custom', message: 'cannot end with " #"', input: value });
    else if (/^#+$/.test(v)) ctx.issues.push({ code: 'custom', message: 'cannot be only "#" characters', input: value });
    return v;
  });
}

export const DocType = z.enum(DOC_TYPES).describe('Which document.');
export const StageType = z.enum(STAGES).describe('Which document.');
export const DocStatus = z.enum(DOC_STATUSES);
/** A document's status, "unreadable" when its file cannot be read (validate says why), null when the change has none. */
export const DocState = z.union([DocStatus, z.literal('unreadable')]).nullable();
export const stateOf = (doc: { meta: { status: z.infer<typeof DocStatus> }; content: unknown } | null | undefined) => (doc ? (doc.content === null ? ('unreadable' as const) : doc.meta.status) : null);
export const Phase = z.enum(PHASES);
export const Priority = z.enum(PRIORITIES).describe('Priority; medium when left out.');
export const TaskStatus = z.enum(TASK_STATUSES);

/** A task status as input: ours, or "pending" / "completed" from other task tools (the schema lists both). */
export const TaskStatusInput = z
  .string()
  .meta({ enum: [...TASK_STATUSES, ...Object.keys(TASK_STATUS_ALIASES)] })
  .transform((v, ctx) => {
    const s = TASK_STATUS_ALIASES[v] ?? v;
    if (!(TASK_STATUSES as readonly string[]).includes(s)) {
      ctx.issues.push({ code: 'custom', message: `"${printable(v)}" is not a task status; valid statuses are ${TASK_STATUSES.join(', ')} (pending and completed are read as todo and done)`, input: v });
    }
    return s as z.infer<typeof TaskStatus>;
  })
  .describe('A task status; pending and completed are read as todo and done.');

export const Verdict = z.enum(VERDICTS).describe('The verdict.');
export const Severity = z.enum(SEVERITIES).describe('How serious.');
export const BlockerSeverity = z.enum(BLOCKER_SEVERITIES).describe('How serious.');

export const Notes = text(1, LIMITS.noteMax).describe(
  'Context not in the document: decisions and why, feedback addressed, constraints found. ' +
    'Good: "Chose REST over GraphQL: the client uses fetch"; with nothing to add, "No additional notes: straightforward document, nothing unexpected". ' +
    'Bad: "Document submitted", "Updated content", the title again, the document pasted.',
);

export const NoteOut = z.object({ author: z.string(), at: z.string(), text: z.string() });

export const TaskOut = z.object({
  task_id: z.string().describe('Board-wide id "<change_id>/<task_id>".'),
  change_id: z.string(),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: TaskStatus,
  priority: Priority,
  depends: z.array(z.string()),
  skills: z.array(z.string()),
  requirements: z.array(z.string()),
  files: z.array(z.object({ path: z.string(), action: z.enum(FILE_ACTIONS) })),
  assignee: z.string().nullable(),
  claimed_at: z.string().nullable(),
  progress: z.number().int().nullable(),
  progress_message: z.string().nullable(),
  progress_at: z.string().nullable(),
  submitted_at: z.string().nullable(),
  submission: z.string().nullable(),
  pr_url: z.string().nullable(),
  completed_at: z.string().nullable(),
  branch: z.string().nullable().describe('The git branch agentboard run made for this task, when it made one.'),
  review_round: z.number().int().nullable().describe('For a fix task: the review round whose issue it fixes.'),
  blockers: z.array(
    z.object({
      reason: z.string(),
      severity: z.enum(BLOCKER_SEVERITIES),
      by: z.string(),
      at: z.string(),
      resolved_by: z.string().optional(),
      resolved_at: z.string().optional(),
    }),
  ),
  feedback: z.array(NoteOut),
  notes: z.array(NoteOut),
  ready: z.boolean().describe('True when the task is todo, nobody holds it and its dependencies are done.'),
});

export const TaskSummaryOut = z.object({
  task_id: z.string(),
  change_id: z.string(),
  id: z.string(),
  title: z.string(),
  status: TaskStatus,
  priority: Priority,
  assignee: z.string().nullable(),
  progress: z.number().int().nullable(),
  depends: z.array(z.string()),
  ready: z.boolean(),
});

export const FindingOut = z.object({
  level: z.enum(['error', 'warning']),
  file: z.string(),
  line: z.number().int().optional(),
  rule: z.string(),
  message: z.string(),
  fix: z.string(),
});

/** What a board-wide read says of the archived changes it leaves out (ops/view.ts archivedLeftOut). */
export const ArchivedLeftOut = {
  archived_left_out: z.number().int().describe('How many archived changes this board-wide read leaves out; 0 when it reads one change.'),
  archived_note: z.string().nullable().describe('How to read the archived changes left out; null when none are.'),
};
