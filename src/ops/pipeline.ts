/** The change pipeline: create a change, then submit its proposal, spec, tasks and review, in that order. */
import * as z from 'zod';
import { fail } from '../errors.js';
import { isHuman, REQUIREMENT_ID_PATTERN } from '../domain/ids.js';
import { actorRole, DOCUMENT_MOVES, roleAllows, roleFor, TASK_MOVES } from '../domain/lifecycle.js';
import { LIMITS } from '../domain/limits.js';
import { DELTAS, DOC_WORDS, isHeld, type Delta, PROPOSAL_PARTS, SPEC_PARTS, TASK_LOG_FIELDS, TASK_STATE_FIELDS, type DocMeta, type ExtraSection, type Stage as DocKind, type Proposal, type ReviewRound, type Spec, type Task } from '../domain/model.js';
import type { DocInput, Transaction } from '../store/transaction.js';
import { assertCanSubmit, assertGate, writeDocument, type WriteOptions, type WriteResult } from './doc-write.js';
import { workedOn } from './claims.js';
import { defineOp, type Context } from './registry.js';
import { Actor, ChangeId, chars, DocType, FindingOut, line, LocalTaskId, Notes, NoteOut, Phase, Severity, StageType, text, Verdict } from './schemas.js';
import { TaskPlanFields } from './task-plan.js';
import { loadChange, phaseOf, requireChange, tasksOf, type LoadedChange } from './view.js';
import { verifyReviewKey, refuseKeyOfRunOver } from './reviewer-keys.js';
import { markdownToInput, withFrontmatterNotTaken } from './from-markdown.js';
import { parseInput } from './input.js';
import { refTo } from '../domain/refs.js';
import { FindingSink, type Finding } from '../domain/findings.js';
import { specRules, tasksRules } from '../domain/rules.js';


const DocWriteOut = z.object({
  change_id: z.string(),
  document: DocType,
  file: z.string().describe('Where the document was written, relative to the repository root.'),
  status: z.string(),
  revision: z.number().int(),
  author: z.string(),
  phase: Phase.describe('The phase the change is in now.'),
  warnings: z.array(FindingOut),
  feedback: z.array(NoteOut).describe('Feedback from earlier rejections of this document, oldest first.'),
});

type StageInput = { agent_id: string; change_id: string; notes: string; imported_from?: { tool: string; path: string; commit?: string | undefined } | undefined };

/**
 * The one way a pipeline document is submitted: in the board lock, on a fresh read, the phase gate,
 * the lifecycle check, the body built, validated as it would stand on disk, written, and logged.
 */
function submitStage<T extends DocKind>(
  ctx: Context,
  type: T,
  input: StageInput,
  content: (tx: Transaction, change: LoadedChange) => DocInput[T],
  options: { summary: (r: WriteResult) => string; action?: string; correction?: (tx: Transaction, change: LoadedChange) => string; corrected?: Pick<WriteOptions, 'retry' | 'input'> } = { summary: (r) => `submitted the ${r.document} of ${r.change_id} (revision ${r.revision})` },
): Promise<{ result: z.input<typeof DocWriteOut>; after: LoadedChange }> {
  return ctx.board().mutate((tx) => {
    if (type !== 'proposal') requireChange(tx, input.change_id);
    const change = loadChange(tx, input.change_id);
    const correction = options.correction?.(tx, change);
    if (!correction) {
      assertGate(tx, change, type);
      assertCanSubmit(change[type], type, input.agent_id, actorRole(input.agent_id), { approvalRequired: (tx.board.config.require_approval as readonly string[]).includes(type), change, phase: () => phaseOf(tx, change), callable: ctx.callable });
    }
    if (!tx.hasChange(input.change_id)) tx.createChange(input.change_id);
    const importedFrom = input.imported_from && { tool: input.imported_from.tool, path: input.imported_from.path, ...(input.imported_from.commit ? { commit: input.imported_from.commit } : {}) };
    const result = writeDocument(tx, change, type, input.agent_id, content(tx, change), correction ? { notes: input.notes, correction, ...options.corrected } : { notes: input.notes, importedFrom });
    tx.log(input.agent_id, options.action ?? 'document.submit', `${result.change_id}/${result.document}`, options.summary(result), result.change_id);
    workedOn(tx, input.agent_id, `${correction ? 'correct' : 'submit'} ${result.change_id}/${result.document}`);
    const after = loadChange(tx, input.change_id);
    return { result: { ...result, phase: phaseOf(tx, after).phase }, after };
  });
}

// ---- bodies -------------------------------------------------------------------------------------

/** Sections a document keeps besides its own fields, each after the part it follows. */
function sectionsField<A extends readonly [string, ...string[]]>(after: A) {
  return z
    .array(
      z.strictObject({
        heading: line(LIMITS.titleMax, 0).describe('Its heading, without "##".'),
        text: text(0, LIMITS.sectionMax).describe('Its text (markdown).'),
        after: z.enum(after).describe('The part it follows.'),
      }),
    )
    .max(LIMITS.listMax)
    .optional()
    .describe('Other sections (non-goals, context), kept in place.');
}

function keptSections(sections: { heading: string; text: string; after: string }[] | undefined): { sections?: ExtraSection[] } {
  return sections && sections.length > 0 ? { sections: sections.map((s) => ({ heading: s.heading, text: s.text, after: s.after })) } : {};
}

/** Where a document's text came from, when it was brought over from another tool. */
const ImportedFrom = z
  .strictObject({
    tool: line(40).describe('The tool the text was written with, like "agentd" or "openspec".'),
    path: line(1000).describe('The file it came from, relative to its repository.'),
    commit: z.string().regex(/^[0-9a-f]{7,64}$/, 'must be a git commit id').optional().describe('The commit of that repository, when it was read from git.'),
  })
  .optional()
  .describe('Only for text brought over from another tool (agentboard import sets it; --from keeps it from the frontmatter of a document it reads): its requirements without MUST or SHALL are then reported rather than refused.');

const ProposalFields = {
  title: line(LIMITS.titleMax).optional().describe('Title; the change id when left out.'),
  why: text(LIMITS.whyMin, LIMITS.whyMax).describe('Why the change is needed: the problem and who has it.'),
  what_changes: text(1, LIMITS.sectionMax).describe('What it adds, alters or removes (markdown).'),
  impact: text(1, LIMITS.sectionMax).describe('Who and what is affected, and the risks (markdown).'),
  sections: sectionsField(PROPOSAL_PARTS),
  imported_from: ImportedFrom,
};

function proposalContent(changeId: string, input: { title?: string | undefined; why: string; what_changes: string; impact: string; sections?: { heading: string; text: string; after: string }[] | undefined }): Proposal {
  return { title: input.title ?? changeId, why: input.why, what_changes: input.what_changes, impact: input.impact, ...keptSections(input.sections) };
}

// A step may hold several paragraphs or a code block: spec.md writes its further lines indented under it.
const step = (what: string) =>
  text(1, 2000)
    .transform((v) => v.replace(/^[ \t]+$/gm, ''))
    .describe(what);

/** A requirement id: its pattern holds its length, declared here for the schema. */
const RequirementId = z.string().meta({ minLength: 2, maxLength: LIMITS.requirementIdMax });

const SpecFields = {
  title: line(LIMITS.titleMax).optional().describe('Spec title; the change title when left out.'),
  overview: text(LIMITS.overviewMin, LIMITS.sectionMax).describe('What the spec covers and why.'),
  requirements: z
    .array(
      z.strictObject({
        id: RequirementId.regex(REQUIREMENT_ID_PATTERN, 'must be a short prefix and a number, like R1, A1, FR-001 or AUTH-R2').describe('Id, like "R1" or "FR-001".'),
        title: line(LIMITS.titleMax).describe('Short title.'),
        text: text(1, 5000).describe('What the system MUST or SHALL do.'),
        delta: z.enum(DELTAS).optional().describe('Its change to an existing requirement.'),
        group: line(100).optional().describe('Its capability, when the spec covers several.'),
      }),
    )
    .min(1)
    .max(LIMITS.requirementsMax)
    .describe('The requirements.'),
  scenarios: z
    .array(
      z.strictObject({
        name: line(LIMITS.titleMax).describe('Scenario name.'),
        given: step('Optional starting state.').optional(),
        when: step('The action.'),
        then: step('The observable outcome.'),
        requirement: RequirementId.regex(REQUIREMENT_ID_PATTERN, 'must be a requirement id like R1').optional().describe('Its requirement id.'),
      }),
    )
    .max(LIMITS.requirementsMax)
    .describe('At least one, unless all requirements are REMOVED/RENAMED.'),
  data_model: text(1, LIMITS.sectionMax).optional().describe('Data model (markdown).'),
  interfaces: text(1, LIMITS.sectionMax).optional().describe('Interfaces (markdown).'),
  sections: sectionsField(SPEC_PARTS),
  imported_from: ImportedFrom,
};

type SpecInput = z.output<z.ZodObject<typeof SpecFields>>;

function specContent(change: LoadedChange, input: SpecInput): Spec {
  const spec: Spec = {
    title: input.title ?? change.proposal?.content?.title ?? change.changeId,
    overview: input.overview,
    requirements: input.requirements.map((r) => ({ id: r.id, title: r.title, text: r.text, ...(r.delta ? { delta: r.delta } : {}), ...(r.group ? { group: r.group } : {}) })),
    scenarios: input.scenarios.map((s) => ({
      name: s.name,
      ...(s.given ? { given: s.given } : {}),
      when: s.when,
      then: s.then,
      ...(s.requirement ? { requirement: s.requirement } : {}),
    })),
    ...keptSections(input.sections),
  };
  if (input.data_model) spec.data_model = input.data_model;
  if (input.interfaces) spec.interfaces = input.interfaces;
  return spec;
}

const TaskItem = z.strictObject({
  id: LocalTaskId.optional().describe('Task id, like "T1". Left out: a listed task of the same title keeps its id, a new task gets the next free one.'),
  ...TaskPlanFields,
  group: line(LIMITS.titleMax).optional().describe('Its group in the plan, like "1. Data Layer".'),
  status: z.enum(['todo', 'done']).optional().describe('"done" only for work already finished.'),
});

const TasksFields = {
  title: line(LIMITS.titleMax).optional().describe('List title; the change title when left out.'),
  intro: text(0, LIMITS.sectionMax).optional().describe("Text under the list's title."),
  tasks: z.array(TaskItem).min(1).max(LIMITS.tasksMax).describe('The tasks, in order.'),
  imported_from: ImportedFrom,
};

type TaskItemInput = z.output<typeof TaskItem>;

/**
 * The id of each task of a new list: its own; else, on a list written again, the id of the task of
 * the list before with the same title (not taken by another); else T1, T2… in order, skipping the
 * ids given, those of deleted tasks (`retired`) and those of the list before: an id never passes to
 * another task, with its state.
 */
function taskIds(items: { id?: string | undefined; title?: string }[], retired: ReadonlySet<string> = new Set(), previous: readonly { id: string; title: string }[] = []): string[] {
  const given = new Set(items.flatMap((i) => (i.id ? [i.id] : [])));
  const byTitle = new Map<string, string[]>();
  for (const t of previous) if (!given.has(t.id)) byTitle.set(t.title, [...(byTitle.get(t.title) ?? []), t.id]);
  const used = new Set([...retired, ...given, ...previous.map((t) => t.id)]);
  let n = 0;
  return items.map((item) => {
    if (item.id) return item.id;
    const same = item.title === undefined ? undefined : byTitle.get(item.title)?.shift();
    if (same) return same;
    do n++;
    while (used.has(`T${n}`));
    used.add(`T${n}`);
    return `T${n}`;
  });
}

/** The new task list; tasks that keep their id keep their state (claim, progress) and logs (notes, blockers, feedback). */
function tasksContent(tx: Transaction, change: LoadedChange, actor: string, title: string | undefined, items: TaskItemInput[], intro?: string, madeDone: string[] = []): DocInput['tasks'] {
  const previous = new Map(tasksOf(change.tasks).map((t) => [t.id, t]));
  const ids = taskIds(items, tx.retiredTaskIds(change.changeId), [...previous.values()]);
  const tasks: Task[] = items.map((item, i) => {
    const id = ids[i]!;
    const before = previous.get(id);
    const task: Task = {
      id,
      title: item.title,
      description: item.description ?? '',
      status: before?.status ?? 'todo',
      priority: item.priority ?? 'medium',
      depends: item.depends ?? [],
      skills: item.skills ?? [],
      requirements: item.requirements ?? [],
      ...(item.group ? { group: item.group } : {}),
      // A person's own fields and comments of a task that keeps its id stay.
      ...(before?.extra ? { extra: before.extra } : {}),
      ...(before?.comments ? { comments: before.comments } : {}),
      files: item.files ?? [],
      blockers: [],
      feedback: [],
      notes: [],
    };
    if (before) {
      for (const key of [...TASK_STATE_FIELDS, ...TASK_LOG_FIELDS, 'review_round'] as const) {
        if (before[key] !== undefined) (task as unknown as Record<string, unknown>)[key] = before[key];
      }
    } else if (item.status === 'done') {
      // Work already finished when it is planned: recorded as done by whoever wrote the list, in the log too.
      task.status = 'done';
      task.assignee = actor;
      task.completed_at = tx.now;
      tx.log(actor, 'task.done', `${change.changeId}/${task.id}`, `wrote ${change.changeId}/${task.id} done in its new task list (work already finished): ${task.title}`, change.changeId);
      madeDone.push(task.id);
    }
    return task;
  });
  const kept = new Set(tasks.map((t) => t.id));
  for (const old of previous.values()) {
    if (!kept.has(old.id) && isHeld(old)) {
      fail('TASK_HELD', `Task ${change.changeId}/${old.id} is held by ${old.assignee}; the new task list would drop it.`, `Keep task ${old.id} in the list, or have a person release it first with ${refTo('task.release')}.`);
    }
    // Work done stays on the board: an agent's list drops no done task (a person may, with task rm).
    if (!kept.has(old.id) && old.status === 'done' && !isHuman(actor)) {
      const by = old.assignee ? ` by ${old.assignee}` : '';
      fail('TASK_NOT_READY', `Task ${change.changeId}/${old.id} is done${by}; the new task list would drop it, and a done task stays on the board.`, `Keep task ${old.id} in the list as it is (with its id); if it must go, ask a person to remove it (${refTo('input.ask')}).`);
    }
  }
  return { title: title ?? change.proposal?.content?.title ?? change.changeId, tasks, ...(intro ? { intro } : {}) };
}

/**
 * The tasks an agent's new list made done as written (work already finished): said as a warning
 * of the write, since they go to no agent and no review; a person's list says nothing of them.
 */
function madeDoneWarning(ids: string[], actor: string, file: string): Finding[] {
  if (isHuman(actor) || ids.length === 0) return [];
  const one = ids.length === 1;
  return [{ level: 'warning', file, rule: 'tasks.status.done', message: `task${one ? '' : 's'} ${ids.join(', ')} ${one ? 'is' : 'are'} done as written, by you: no agent claims ${one ? 'it' : 'them'} and no review checks ${one ? 'it' : 'them'}`, fix: 'leave "status" out for work still to do; give "done" only to work already finished' }];
}

/**
 * The statuses of a list written again that its tasks did not take, as warnings of the write: a
 * task that keeps its id keeps its state (its claim, its progress, done or not), which only the
 * task's own calls move. `movesTasks`: whether the writer moves tasks itself; a run's planner and
 * a reviewer claim and move none (cli/main.ts refuseOutsideRole), so they are told who does.
 */
function statusesNotTaken(items: TaskItemInput[], written: DocInput['tasks'], changeId: string, file: string, movesTasks: boolean): Finding[] {
  return items.flatMap((item, i): Finding[] => {
    const task = written.tasks[i]!;
    if (item.status === undefined || item.status === task.status) return [];
    const ref = `${changeId}/${task.id}`;
    const move = item.status === 'done' ? refTo('task.done', { task_id: ref }) : refTo('task.update', { task_id: ref, status: item.status });
    const person = `\`agentboard task update ${ref} --status ${item.status} --as human:<name>\``;
    const fix = movesTasks
      ? `move the task itself with ${move}`
      : roleFor(TASK_MOVES, task.status, item.status) === 'agent'
        ? `the task's own calls move it: a worker's as it takes the task and works on it, or a person's, ${person}`
        : `only a person moves it, with ${person}`;
    return [{ level: 'warning', file, rule: 'tasks.status.kept', message: `tasks[${i}]: status ${item.status} was not taken: task ${task.id} keeps its state (${task.status}) when its list is written again`, fix }];
  });
}

const ReviewFields = {
  verdict: Verdict,
  summary: text(1, LIMITS.sectionMax).describe('What was reviewed, and the judgement.'),
  issues: z
    .array(
      z.strictObject({
        title: line(LIMITS.titleMax).describe('Short title.'),
        severity: Severity,
        description: text(1, 5000).describe('What is wrong, where, how to fix it.'),
      }),
    )
    .max(LIMITS.issuesMax)
    .default([])
    .describe('Issues found.'),
  sections: sectionsField(['issues'] as const),
  imported_from: ImportedFrom,
};

type ReviewInput = z.output<z.ZodObject<typeof ReviewFields>>;

/**
 * A change is reviewed by someone who did not make it: not the agent that wrote its spec or task
 * list, nor one that completed one of its tasks. One-agent setups opt out in config.yaml.
 */
function assertNotSelfReview(tx: Transaction, change: LoadedChange, reviewer: string): void {
  if (isHuman(reviewer) || tx.board.config.review.allow_self_review) return;
  const made: string[] = [];
  if (change.spec?.meta.author === reviewer) made.push('wrote its spec');
  if (change.tasks?.meta.author === reviewer) made.push('wrote its task list');
  const done = tasksOf(change.tasks).filter((t) => t.status === 'done' && t.assignee === reviewer);
  if (done.length > 0) made.push(`completed ${done.map((t) => t.id).join(', ')}`);
  if (made.length > 0) {
    fail(
      'SELF_REVIEW',
      `${reviewer} cannot review ${change.changeId}: it ${made.join(' and ')}.`,
      'Have an agent that did not work on the change review it; for a one-agent setup, a person can set `review: {allow_self_review: true}` in agentd/config.yaml.',
    );
  }
}

function reviewContent(change: LoadedChange, reviewer: string, at: string, input: ReviewInput, replaceLatest: boolean): ReviewRound[] {
  const earlier = change.review?.content ?? [];
  const latest = earlier[0];
  const round: ReviewRound = {
    round: replaceLatest && latest ? latest.round : (latest?.round ?? 0) + 1,
    verdict: input.verdict,
    reviewer: replaceLatest && latest ? latest.reviewer : reviewer,
    at: replaceLatest && latest ? latest.at : at,
    summary: input.summary,
    issues: input.issues,
    ...keptSections(input.sections),
  };
  return [round, ...(replaceLatest ? earlier.slice(1) : earlier)];
}

// ---- the rules a schema cannot express, on input that failed it ---------------------------------

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const objects = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)) : []);

/** The errors of the given rules that `check` finds, as messages. */
function ruleErrors(rules: readonly string[], check: (sink: FindingSink) => void): string[] {
  const sink = new FindingSink('');
  check(sink);
  return sink.findings.filter((f) => f.level === 'error' && rules.includes(f.rule)).map((f) => f.message);
}

function specInputRules(raw: Record<string, unknown>): string[] {
  const requirements = objects(raw.requirements).map((r) => ({ id: str(r.id), title: str(r.title), text: str(r.text), ...(DELTAS.includes(r.delta as Delta) ? { delta: r.delta as Delta } : {}) }));
  return ruleErrors(['spec.requirement.normative', 'spec.requirement.duplicate'], (sink) => specRules({ title: '', overview: str(raw.overview), requirements, scenarios: [] }, sink));
}

function tasksInputRules(raw: Record<string, unknown>): string[] {
  const items = objects(raw.tasks).map((t) => ({
    ...(typeof t.id === 'string' ? { id: t.id } : {}),
    title: str(t.title),
    depends: strings(t.depends),
    files: objects(t.files).flatMap((f) => (typeof f.path === 'string' ? [{ path: f.path, action: 'modify' as const }] : [])),
  }));
  const ids = taskIds(items);
  const tasks = items.map((item, i): { task: Task; line: number } => ({
    task: { id: ids[i]!, title: item.title, description: '', status: 'todo', priority: 'medium', depends: item.depends, skills: [], requirements: [], files: item.files, blockers: [], feedback: [], notes: [] },
    line: 0,
  }));
  return ruleErrors(['tasks.depends.duplicate', 'tasks.depends.self', 'tasks.depends.unknown', 'tasks.depends.cycle', 'tasks.files.path'], (sink) => tasksRules(tasks, null, sink));
}

// ---- operations ---------------------------------------------------------------------------------

export const createChange = defineOp({
  name: 'change.create',
  summary: 'Create a change: its folder and a blank proposal to fill in',
  access: 'agent',
  input: z.strictObject({
    agent_id: Actor,
    change_id: ChangeId,
    title: line(LIMITS.titleMax).optional().describe('A short title for the change.'),
  }),
  output: z.object({ change_id: z.string(), phase: Phase, file: z.string(), created: z.boolean() }),
  cli: { command: 'new', args: ['change_id'] },
  tool: {
    name: 'agentboard_create_change',
    title: 'Create a change',
    description:
      `Start a new change (planned as proposal → spec → tasks → review) with a blank proposal. Next, write it with ${refTo('proposal.submit')}.`,
    profiles: ['planner'],
  },
  run(ctx, input) {
    const board = ctx.board();
    return board.mutate((tx) => {
      if (tx.hasChange(input.change_id)) {
        // Its proposal is pointed to only where this caller may submit it (still blank, rejected or superseded); else the change is read.
        const status = tx.readDoc(input.change_id, 'proposal')?.meta.status;
        const needed = status === undefined ? 'agent' : roleFor(DOCUMENT_MOVES, status, 'submitted');
        const next = needed !== null && roleAllows(actorRole(input.agent_id), needed) ? `Submit its proposal with ${refTo('proposal.submit', { change_id: input.change_id })}` : `Read it with ${refTo(['change.show', 'change.list'], { change_id: input.change_id })}`;
        fail('CHANGE_EXISTS', `Change ${input.change_id} already exists.`, `${next}, or pick another change id.`);
      }
      const meta: DocMeta = {
        id: `${input.change_id}/proposal`,
        change_id: input.change_id,
        type: 'proposal',
        status: 'template',
        created: tx.now,
        updated: tx.now,
        author: input.agent_id,
        revision: 0,
        notes: [],
        feedback: [],
      };
      tx.createChange(input.change_id, { meta, title: input.title ?? input.change_id });
      const path = board.docPath(input.change_id, 'proposal');
      tx.log(input.agent_id, 'change.create', input.change_id, `created change ${input.change_id}`, input.change_id);
      workedOn(tx, input.agent_id, `create ${input.change_id}`);
      return { change_id: input.change_id, phase: 'proposal' as const, file: board.rel(path), created: true };
    });
  },
});

export const submitProposal = defineOp({
  name: 'proposal.submit',
  summary: 'Submit the proposal of a change (creates the change when it does not exist)',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, change_id: ChangeId, ...ProposalFields, notes: Notes }),
  output: DocWriteOut,
  cli: { command: 'propose', args: ['change_id'], from: 'proposal' },
  tool: {
    name: 'agentboard_submit_proposal',
    title: 'Submit a proposal',
    description:
      "Write and submit a change's proposal (creating the change if new); resubmitting a rejected one replaces it. " +
      `Next: the spec, with ${refTo('spec.create')}.`,
    profiles: ['planner', 'agent'],
    destructive: true,
  },
  async run(ctx, input) {
    // Without a title, the one the change was created with stays.
    return (await submitStage(ctx, 'proposal', input, (_tx, change) => proposalContent(input.change_id, { ...input, title: input.title ?? change.proposal?.content?.title }))).result;
  },
});

export const createSpec = defineOp({
  name: 'spec.create',
  summary: 'Submit the spec of a change (after its proposal)',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, change_id: ChangeId, ...SpecFields, notes: Notes }),
  output: DocWriteOut,
  cli: { command: 'spec', args: ['change_id'], from: 'spec' },
  inputRules: specInputRules,
  tool: {
    name: 'agentboard_create_spec',
    title: 'Write the spec',
    description:
      "Write and submit a change's spec once its proposal is submitted; resubmitting a rejected one replaces it. " +
      `Next: the tasks, with ${refTo('tasks.create')}.`,
    profiles: ['planner', 'agent'],
    destructive: true,
  },
  async run(ctx, input) {
    return (await submitStage(ctx, 'spec', input, (_tx, change) => specContent(change, input))).result;
  },
});

export const createTasks = defineOp({
  name: 'tasks.create',
  summary: 'Submit the task list of a change (after its spec)',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, change_id: ChangeId, ...TasksFields, notes: Notes }),
  output: DocWriteOut.extend({ task_ids: z.array(z.string()).describe('Board-wide ids of the tasks, "<change_id>/<task_id>".') }),
  cli: { command: 'tasks', args: ['change_id'], from: 'tasks' },
  inputRules: tasksInputRules,
  tool: {
    name: 'agentboard_create_tasks',
    title: 'Write the task list',
    description:
      "Write and submit a change's task list once its spec is submitted. Rewritten after a rejection, a task left out is dropped (refused if another agent holds it). " +
      `Agents get them with ${refTo('task.next')}.`,
    profiles: ['planner', 'agent'],
    destructive: true,
  },
  async run(ctx, input) {
    let written: DocInput['tasks'] | undefined;
    let done: string[] = [];
    const { result, after } = await submitStage(ctx, 'tasks', input, (tx, change) => (written = tasksContent(tx, change, input.agent_id, input.title, input.tasks, input.intro, (done = []))), {
      summary: (r) => `submitted ${input.tasks.length} tasks for ${r.change_id} (revision ${r.revision})`,
    });
    const warnings = [...statusesNotTaken(input.tasks, written!, input.change_id, result.file, ctx.runPhase?.agentId !== input.agent_id), ...madeDoneWarning(done, input.agent_id, result.file), ...result.warnings];
    return { ...result, warnings, task_ids: tasksOf(after.tasks).map((t) => `${input.change_id}/${t.id}`) };
  },
});

export const createReview = defineOp({
  name: 'review.create',
  summary: 'Write a review round of a change (REVIEW.md; earlier rounds are kept)',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, change_id: ChangeId, ...ReviewFields, notes: Notes }),
  output: DocWriteOut.extend({ round: z.number().int(), verdict: Verdict, next_step: z.string().nullable().describe('What comes of a verdict other than APPROVED: its issues fixed as tasks, then a new round.') }),
  cli: { command: 'review', args: ['change_id'], from: 'review' },
  tool: {
    name: 'agentboard_create_review',
    title: 'Write a review',
    description:
      'Record a review round of a change whose tasks exist: a verdict, a summary and issues by severity; earlier rounds are kept.',
    profiles: ['reviewer'],
  },
  async run(ctx, input) {
    const { result, after } = await submitStage(ctx, 'review', input, (tx, change) => {
      assertNotSelfReview(tx, change, input.agent_id);
      return reviewContent(change, input.agent_id, tx.now, input, false);
    }, {
      summary: (r) => `reviewed ${r.change_id}: ${input.verdict} (${input.issues.length} issues)`,
      action: 'review.create',
    });
    const round = after.review!.content![0]!.round;
    // Fixes are tasks of the change, each naming the round whose issue it fixes (`agentboard run` makes them itself).
    const next_step =
      input.verdict === 'APPROVED'
        ? null
        : `Its issues are fixed as tasks of ${input.change_id}: add one per issue with ${refTo('task.add', { change_id: input.change_id, review_round: round })}; once workers have done them, a new round is recorded the same way as this one.`;
    return { ...result, round, verdict: input.verdict, next_step };
  },
});

const CORRECTION_SCHEMAS = {
  proposal: z.strictObject(ProposalFields),
  spec: z.strictObject(SpecFields),
  tasks: z.strictObject(TasksFields),
  review: z.strictObject(ReviewFields),
};

export const correctDocument = defineOp({
  name: 'document.correct',
  summary: 'Correct a submitted document as a reviewer agent (it stays submitted)',
  access: 'reviewer',
  input: z.strictObject({
    agent_id: Actor,
    review_key: chars(1, 200).describe('The reviewer key a person gave you.'),
    change_id: ChangeId,
    document: StageType,
    markdown: chars(1, LIMITS.inputBytesMax).describe('The whole corrected document as markdown (frontmatter optional).'),
    notes: Notes,
  }),
  output: DocWriteOut.extend({ corrected_by: z.string() }),
  cli: { command: 'correct', args: ['change_id', 'document'], fromText: 'markdown' },
  tool: {
    name: 'agentboard_correct_document',
    title: 'Correct a submitted document (reviewers)',
    description:
      "For reviewer agents: correct a submitted document awaiting a person's decision; your text replaces it, which stays submitted and names you as corrector. " +
      `Find documents sent for review with ${refTo('document.list', { awaiting: 'review' })}.`,
    profiles: ['reviewer'],
    destructive: true,
  },
  async run(ctx, input) {
    let correction = '';
    let statuses: (file: string) => Finding[] = () => [];
    const { result } = await submitStage(
      ctx,
      input.document,
      input,
      (tx, change): DocInput[DocKind] => {
        const fields = parseInput(CORRECTION_SCHEMAS[input.document], markdownToInput(input.document, input.markdown, 'markdown'));
        switch (input.document) {
          case 'proposal':
            return proposalContent(input.change_id, fields as z.output<typeof CORRECTION_SCHEMAS.proposal>);
          case 'spec':
            return specContent(change, fields as SpecInput);
          case 'tasks': {
            const t = fields as z.output<typeof CORRECTION_SCHEMAS.tasks>;
            const written = tasksContent(tx, change, input.agent_id, t.title, t.tasks, t.intro);
            statuses = (file) => statusesNotTaken(t.tasks, written, input.change_id, file, false);
            return written;
          }
          case 'review':
            return reviewContent(change, input.agent_id, tx.now, fields as ReviewInput, true);
        }
      },
      {
        action: 'document.correct',
        corrected: { retry: { op: 'document.correct', args: { change_id: input.change_id, document: input.document } }, input: { text: input.markdown, shownAs: 'markdown' } },
        summary: (r) => `corrected the ${r.document} of ${r.change_id} as ${correction}`,
        // A reviewer with a valid key corrects a submitted document in place of the usual checks.
        correction: (tx, change) => {
          const reviewer = verifyReviewKey(tx.runtime, input.review_key);
          refuseKeyOfRunOver(tx.board.runtimeDir, reviewer);
          const doc = change[input.document];
          if (!doc || doc.meta.status !== 'submitted') {
            fail('DOCUMENT_NOT_SUBMITTED', `The ${DOC_WORDS[input.document]} of ${input.change_id} is ${doc ? doc.meta.status : 'not written yet'}; only a submitted document is corrected.`, `Look for documents sent for review with ${refTo('document.list', { awaiting: 'review' })}.`);
          }
          correction = `${input.agent_id} (reviewer ${reviewer.name})`;
          return correction;
        },
      },
    );
    const withStatuses = { ...result, warnings: [...statuses(result.file), ...result.warnings] };
    return { ...withFrontmatterNotTaken(withStatuses, input.markdown, 'markdown'), corrected_by: correction };
  },
});

export const PIPELINE_OPS = [createChange, submitProposal, createSpec, createTasks, createReview, correctDocument];
