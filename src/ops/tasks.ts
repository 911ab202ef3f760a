/**
 * Tasks: add, list, show, update, done, rm, progress, block, unblock, note, and the people's
 * release / approve / reject. Every change to a task is made inside the board lock on a fresh
 * read of its tasks.md, under the claim rules of domain/task-rules.ts, and only that task's block
 * of the file is written again.
 */
import * as z from 'zod';
import { fail } from '../errors.js';
import { printable } from '../domain/text.js';
import { isReady } from '../domain/next-task.js';
import { isHuman, nextTaskId, parseTaskRef, taskRef, type TaskRef as TaskAddress } from '../domain/ids.js';
import { actorRole } from '../domain/lifecycle.js';
import { LIMITS } from '../domain/limits.js';
import { isHeld, type Task } from '../domain/model.js';
import { assertMayDelete, assertMayTouch, isPlanning, NOTE, refuseDone } from '../domain/task-rules.js';
import { ownTaskElsewhere, ownTasks, takeForWork, workedOn } from './claims.js';
import { moveTask } from '../domain/task-moves.js';
import { clearSentBack, moveSession, SENT_BACK, sentBackMessage, startWorking } from '../domain/sessions.js';
import type { Board } from '../store/board.js';
import { unparsable, type DocFile } from '../store/documents.js';
import type { Transaction } from '../store/transaction.js';
import { writtenAt } from '../store/remote/intent.js';
import { checkBeforeWrite, noTaskList } from './doc-write.js';
import { defineOp, requireHuman, type Context } from './registry.js';
import { Actor, ArchivedLeftOut, BlockerSeverity, ChangeId, chars, LocalTaskId, TaskOut, TaskRef, TaskStatusInput, TaskSummaryOut, text } from './schemas.js';
import { TaskPlanFields } from './task-plan.js';
import { page, Page, pageInput } from './pages.js';
import { archivedLeftOut, changeToRead, findTask, listProblem, loadChange, openForWork, readDocOf, requireChange, taskOut, taskSummary, tasksOf, workProblem, type FoundTask } from './view.js';
import { refTo } from '../domain/refs.js';

function address(ref: string): TaskAddress {
  return parseTaskRef(ref) as TaskAddress;
}

/**
 * Plan edits by agents stop once the list is in a person's hands: approved, or submitted on a board
 * that requires a person's approval of tasks (they approve the plan they were shown). Work on the
 * tasks goes on.
 */
function assertPlanOpen(tx: Transaction, doc: DocFile<'tasks'>, actor: string): void {
  if (actorRole(actor) === 'human') return;
  // Submitted and not yet open for work: the board requires a person's approval of it.
  if (doc.meta.status === 'submitted' && listProblem(tx, doc) !== null) {
    fail('DOCUMENT_SUBMITTED', `The task list of ${doc.meta.change_id} waits for a person's approval; its plan (tasks, titles, dependencies) does not change meanwhile.`, `Wait for the person's decision; if they reject the list, revise it with ${refTo('tasks.create', { change_id: doc.meta.change_id })}.`);
  }
  if (doc.meta.status === 'approved') {
    fail('DOCUMENT_APPROVED', `The task list of ${doc.meta.change_id} has been approved; its plan (tasks, titles, dependencies) no longer changes.`, `Ask a person to change the plan; its tasks are worked on through ${refTo('task.next', { change_id: doc.meta.change_id })}.`);
  }
}

/**
 * Stages a change to a task list. A plan edit (`planEdit` names its operation) also bumps the
 * list's `updated` and is refused unless the whole list, as it would be written, passes the rules.
 */
export function saveTasks(tx: Transaction, changeId: string, doc: DocFile<'tasks'>, changes: { replace?: Task[]; add?: Task[]; remove?: string[] }, planEdit: string | null): void {
  const { text } = tx.putTasks(changeId, planEdit ? { ...changes, meta: { ...doc.meta, updated: tx.now } } : changes);
  // The call to make again names the task it changed, when it changed one.
  const one = changes.replace?.length === 1 ? changes.replace[0]!.id : changes.remove?.length === 1 ? changes.remove[0]! : null;
  if (planEdit) checkBeforeWrite('tasks', text, doc.file, changeId, tx.readDoc(changeId, 'spec'), planEdit, { change_id: changeId, ...(one !== null ? { task_id: `${changeId}/${one}` } : {}) });
}

/** One task mutation: lock, re-read, check, change, write only that block, log. */
interface TaskEdit<T> {
  result: T;
  /** [actor, action, summary] for the activity log. */
  log?: [string, string, string];
  /** The operation, when the edit changes the plan (not only the task's state). */
  plan?: string | null;
  unchanged?: boolean;
  /** Runs after the task is staged, inside the same critical section. */
  after?: (tx: Transaction) => void;
}

function mutateTask<T>(board: Board, ref: string, fn: (tx: Transaction, found: FoundTask, task: Task) => TaskEdit<T>): Promise<T> {
  const { changeId, taskId } = address(ref);
  return board.mutate((tx) => {
    const found = findTask(tx, changeId, taskId);
    const task: Task = structuredClone(found.task);
    const out = fn(tx, found, task);
    if (!out.unchanged) saveTasks(tx, changeId, found.doc, { replace: [task] }, out.plan ?? null);
    out.after?.(tx);
    if (out.log) tx.log(out.log[0], out.log[1], ref, out.log[2], changeId, writtenAt(tx.now));
    return out.result;
  });
}

/** The agent whose claim of the task a person's move ended (to done, or back to the pool), for the log; null when none. */
function claimEnded(before: Task, after: Task, actor: string): string | null {
  return isHeld(before) && before.assignee !== actor && !(isHeld(after) && after.assignee === before.assignee) ? before.assignee! : null;
}

/** What a change to a task answers: the task in short (read it whole with task.show) and whether anything changed. */
const TaskResult = z.object({ task: TaskSummaryOut, changed: z.boolean().describe('False when the call changed nothing (the task already was so).') });
type TaskResultIn = z.input<typeof TaskResult>;

/** Ready only where the change hands out work now (not while its proposal is rejected, say), as lists say. */
function result(tx: Transaction, found: FoundTask, task: Task, changed = true): TaskResultIn {
  const byId = new Map(found.byId);
  byId.set(task.id, task);
  // The change is asked only of a task that is ready by itself: most writes answer with one in progress or done.
  const open = !isReady(task, byId) || workProblem(tx, found.changeId, found.doc) === null;
  return { task: taskSummary(found.changeId, task, byId, open), changed };
}

// ---- reading --------------------------------------------------------------------------------------

export const listTasks = defineOp({
  name: 'task.list',
  summary: 'List tasks, filtered by change, status or assignee',
  access: 'read',
  input: z.strictObject({
    change_id: ChangeId.optional().describe('Only tasks of this change.'),
    status: TaskStatusInput.optional(),
    assignee: Actor.optional().describe('Only tasks held or finished by this agent.'),
    ready: z.boolean().optional().describe('Only tasks ready to start (todo, unheld, dependencies done).'),
    ...pageInput('tasks'),
  }),
  output: z.object({ tasks: z.array(TaskSummaryOut), archived: z.boolean().describe('The listed change is archived: read-only.'), ...ArchivedLeftOut, ...Page }),
  cli: { command: 'task list', flags: { change_id: 'change' } },
  tool: {
    name: 'agentboard_list_tasks',
    title: 'List tasks',
    description: `List tasks: status, priority, assignee, whether ready. To get work, call ${refTo('task.next')} instead.`,
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const changes = input.change_id ? [changeToRead(board, input.change_id)] : board.changeIds().map((changeId) => ({ changeId, archived: null }));
    const out: z.input<typeof TaskSummaryOut>[] = [];
    for (const change of changes) {
      const id = change.changeId;
      const doc = readDocOf(board, change, 'tasks');
      if (doc) board.tellUnreadableList(id, doc);
      const tasks = tasksOf(doc);
      const byId = new Map(tasks.map((t) => [t.id, t]));
      const open = openForWork(board, id, change.archived === null ? doc : null);
      for (const t of tasks) {
        if (input.status && t.status !== input.status) continue;
        if (input.assignee && t.assignee !== input.assignee) continue;
        const s = taskSummary(id, t, byId, open);
        if (input.ready !== undefined && s.ready !== input.ready) continue;
        out.push(s);
      }
    }
    const leftOut = archivedLeftOut(board, input.change_id, (id) => refTo('task.list', { change_id: id }));
    return page(ctx, 'tasks', out, input, { archived: input.change_id !== undefined && changes[0]!.archived !== null, ...leftOut }, (t) => t.task_id);
  },
});

export const showTask = defineOp({
  name: 'task.show',
  summary: 'Show one task with the state of its dependencies',
  access: 'read',
  input: z.strictObject({ task_id: TaskRef }),
  output: z.object({
    task: TaskOut,
    dependencies: z.array(z.object({ task_id: z.string(), title: z.string(), status: z.string() })),
    held_by: z.string().nullable(),
    archived: z.boolean().describe('The change is archived: read-only.'),
  }),
  cli: { command: 'task show', args: ['task_id'] },
  tool: {
    name: 'agentboard_get_task',
    title: 'Get a task',
    description: 'Read one task: status, holder, progress, notes, blockers, feedback, and its dependencies\' status.',
    profiles: ['worker', 'planner', 'reviewer', 'agent'],
    idempotent: true,
  },
  run(ctx, input) {
    const { changeId, taskId } = address(input.task_id);
    const board = ctx.board();
    const found = findTask(board, changeId, taskId, { archived: true });
    const archived = !board.hasChange(changeId);
    if (archived) board.notices.push({ kind: 'archived', message: `${changeId} is archived: ${input.task_id} is read-only.` });
    return {
      archived,
      task: taskOut(changeId, found.task, found.byId, openForWork(board, changeId, archived ? null : found.doc)),
      dependencies: found.task.depends.map((d) => {
        const dep = found.byId.get(d);
        return { task_id: taskRef(changeId, d), title: dep?.title ?? '(missing)', status: dep?.status ?? 'missing' };
      }),
      held_by: isHeld(found.task) ? found.task.assignee! : null,
    };
  },
});

// ---- the plan -------------------------------------------------------------------------------------

/**
 * What the dependencies of a task to add break against its change's list as it stands (a task it
 * does not have, one named twice, the task itself), said with the input's other problems so that
 * one answer names them all. Read outside the board lock: the write checks the list again.
 */
function addTaskRules(raw: Record<string, unknown>, ctx?: Context): string[] {
  const depends = Array.isArray(raw.depends) ? raw.depends.filter((d): d is string => typeof d === 'string') : [];
  if (!ctx || depends.length === 0 || !ChangeId.safeParse(raw.change_id).success) return [];
  const changeId = raw.change_id as string;
  const board = ctx.board();
  const doc = board.hasChange(changeId) ? board.readDoc(changeId, 'tasks') : null;
  if (!doc || unparsable(doc)) return [];
  const ids = new Set(tasksOf(doc).map((t) => t.id));
  const twice = [...new Set(depends.filter((d, i) => depends.indexOf(d) !== i))];
  const self = typeof raw.id === 'string' && depends.includes(raw.id) ? raw.id : null;
  const missing = [...new Set(depends.filter((d) => !ids.has(d) && d !== self))];
  return [
    ...twice.map((d) => `depends names ${printable(d)} more than once`),
    ...(self !== null ? [`depends names ${printable(self)}, the task itself`] : []),
    ...(missing.length > 0 ? [`depends names ${missing.map((d) => printable(d)).join(', ')}, which ${missing.length === 1 ? 'is not a task' : 'are not tasks'} of ${changeId}`] : []),
  ];
}

export const addTask = defineOp({
  name: 'task.add',
  summary: 'Add a task to a change\'s task list',
  access: 'agent',
  input: z.strictObject({
    agent_id: Actor,
    change_id: ChangeId,
    id: LocalTaskId.optional().describe('Task id within the change; the next free T<n> when left out.'),
    ...TaskPlanFields,
    review_round: z.number().int().min(1).optional().describe('For a task fixing an issue of a review: the round number in REVIEW.md.'),
  }),
  output: TaskResult,
  cli: { command: 'task add', args: ['change_id'], flags: { files: 'file' } },
  inputRules: addTaskRules,
  tool: {
    name: 'agentboard_add_task',
    title: 'Add a task',
    description: 'Add a task to the task list of a change; it starts as todo.',
    profiles: ['planner'],
  },
  run(ctx, input) {
    const board = ctx.board();
    return board.mutate((tx) => {
      requireChange(tx, input.change_id);
      const doc = tx.readDoc(input.change_id, 'tasks');
      if (!doc) {
        const none = noTaskList(tx, loadChange(tx, input.change_id, ['proposal', 'spec']));
        fail('PHASE_NOT_READY', `Change ${input.change_id} has no task list yet${none.why}.`, none.next);
      }
      tx.refuseUnparsable(doc);
      assertPlanOpen(tx, doc, input.agent_id);
      // Every id the list ever had stays taken, a deleted task's too: the log and the notes that name a task keep meaning it.
      const existing = new Set(doc.content!.blocks.map((b) => b.id));
      const taken = new Set([...existing, ...tx.retiredTaskIds(input.change_id)]);
      let id = input.id;
      if (id && taken.has(id)) fail('TASK_EXISTS', `Task ${input.change_id}/${id} ${existing.has(id) ? 'already exists' : 'was deleted; its id is not given again'}.`, 'Pick another id, or leave the id out to get the next free one.');
      // One past the highest T<n> the list ever had.
      id ??= nextTaskId(taken, doc.content!.blocks.length);
      const task: Task = {
        id,
        title: input.title,
        description: input.description ?? '',
        status: 'todo',
        priority: input.priority ?? 'medium',
        depends: input.depends ?? [],
        skills: input.skills ?? [],
        requirements: input.requirements ?? [],
        files: input.files ?? [],
        blockers: [],
        feedback: [],
        notes: [],
      };
      if (input.review_round !== undefined) task.review_round = input.review_round;
      saveTasks(tx, input.change_id, doc, { add: [task] }, 'task.add');
      const ref = taskRef(input.change_id, id);
      tx.log(input.agent_id, 'task.add', ref, `added task ${ref}: ${task.title}`, input.change_id);
      workedOn(tx, input.agent_id, `add ${ref}`);
      const byId = new Map(tasksOf(doc).map((t) => [t.id, t]));
      byId.set(id, task);
      return { task: taskSummary(input.change_id, task, byId), changed: true };
    });
  },
});

export const updateTask = defineOp({
  name: 'task.update',
  summary: 'Change a task\'s plan fields or status (at least one field)',
  access: 'agent',
  input: z
    .strictObject({
      agent_id: Actor,
      task_id: TaskRef,
      title: TaskPlanFields.title.optional(),
      description: TaskPlanFields.description,
      priority: TaskPlanFields.priority,
      depends: TaskPlanFields.depends,
      skills: TaskPlanFields.skills,
      files: TaskPlanFields.files,
      requirements: TaskPlanFields.requirements,
      status: TaskStatusInput.optional().describe('Move the task to this status.'),
      branch: chars(0, 200)
        .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'must be a git branch name like agentboard/add-search/T1')
        .optional()
        .describe('The git branch with the work on this task (agentboard run records its own).'),
    })
    .refine((v) => ['title', 'description', 'priority', 'depends', 'skills', 'files', 'requirements', 'status', 'branch'].some((k) => (v as Record<string, unknown>)[k] !== undefined), {
      message: 'give at least one field to change (title, description, priority, depends, skills, files, requirements, status or branch)',
    }),
  output: TaskResult,
  cli: { command: 'task update', args: ['task_id'], flags: { files: 'file' } },
  tool: {
    name: 'agentboard_update_task',
    title: 'Update a task',
    description:
      `Change the given fields of a task you hold, or of the list you wrote while nobody works on it (another ready task is claimed for you first); your values replace the task's. To finish a task: ${refTo('task.done')}; to report progress: ${refTo('task.progress')}.`,
    profiles: ['planner'],
    destructive: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    return mutateTask(board, input.task_id, (tx, found, task) => {
      const planKeys = ['title', 'description', 'priority', 'depends', 'skills', 'files', 'requirements'] as const;
      const plan = planKeys.some((k) => input[k] !== undefined);
      if (plan) assertPlanOpen(tx, found.doc, input.agent_id);
      const move = input.status !== task.status ? input.status : undefined;
      // A move that needs what only its own call takes: a submission's summary, a blocker's reason.
      if (move === 'in_review' && !isHuman(input.agent_id)) {
        fail('INVALID_TRANSITION', `Task ${input.task_id} goes to review when it is submitted, with the summary (and pull request) the person reviews.`, `Submit it with ${refTo('session.submit', { tasks: [input.task_id] })}.`);
      }
      if (move === 'blocked' && !isHuman(input.agent_id)) {
        fail('INVALID_TRANSITION', `Task ${input.task_id} is blocked with the reason it is blocked.`, `Report it with ${refTo('task.block', { task_id: input.task_id })}.`);
      }
      // Asking a task nobody works on to be "todo" changes nothing: nothing to claim it for.
      if (!plan && input.branch === undefined && move === undefined && task.status === 'todo') return { result: result(tx, found, task, false), plan: null, unchanged: true };
      // Updating a task is working on it, under the claim rules of every other path (claimed first when
      // nobody holds it); planning a task of the list the agent wrote, or a task nobody works on by
      // the planner `agentboard run` started for the change (Context.runPhase), without moving it, is not.
      const planning = isPlanning(task, input.agent_id, found.doc.meta.author) || (task.status === 'todo' && ctx.runPhase?.agentId === input.agent_id && ctx.runPhase.changeId === found.changeId);
      if (move !== undefined || !planning) takeForWork(tx, found, task, input.task_id, input.agent_id, 'update');
      else workedOn(tx, input.agent_id, `plan ${input.task_id}`);
      for (const key of planKeys) {
        if (input[key] !== undefined) (task as unknown as Record<string, unknown>)[key] = input[key];
      }
      if (input.branch !== undefined) task.branch = input.branch;
      // Taking a blocked task back up this way is unblocking it, under the same rules.
      const resumes = move === 'in_progress' && task.status === 'blocked' && !isHuman(input.agent_id);
      if (resumes) assertFreeToResume(tx, input.agent_id, input.task_id);
      if (move !== undefined && move !== task.status) moveTask(task, input.task_id, move, input.agent_id, actorRole(input.agent_id), tx.now);
      if (resumes) resumeSession(tx, input.agent_id, input.task_id);
      const changed = JSON.stringify(task) !== JSON.stringify(found.task);
      const ended = claimEnded(found.task, task, input.agent_id);
      return {
        result: result(tx, found, task, changed),
        plan: plan ? 'task.update' : null,
        unchanged: !changed,
        after: (t) => settleReviewed(t, found.task, task),
        log: changed ? [input.agent_id, 'task.update', `updated ${input.task_id}${input.status ? ` (status ${task.status}${ended ? `; ${ended} held it` : ''})` : ''}`] : undefined,
      };
    });
  },
});

export const removeTask = defineOp({
  name: 'task.rm',
  summary: 'Delete a task',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, task_id: TaskRef }),
  output: z.object({ task_id: z.string(), deleted: z.boolean() }),
  cli: { command: 'task rm', args: ['task_id'] },
  tool: {
    name: 'agentboard_delete_task',
    title: 'Delete a task',
    description: 'Delete a task of the task list you wrote that nobody works on yet; its id is never given again. Refused while other tasks depend on it.',
    profiles: ['planner'],
    destructive: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const { changeId, taskId } = address(input.task_id);
    return board.mutate((tx) => {
      const found = findTask(tx, changeId, taskId);
      assertPlanOpen(tx, found.doc, input.agent_id);
      assertMayDelete(found.task, input.task_id, input.agent_id, found.doc.meta.author);
      const dependents = [...found.byId.values()].filter((t) => t.depends.includes(taskId)).map((t) => t.id);
      if (dependents.length > 0) {
        fail('VALIDATION_FAILED', `Task ${input.task_id} cannot be deleted: ${dependents.join(', ')} depend${dependents.length === 1 ? 's' : ''} on it.`, `Remove ${taskId} from their dependencies first with ${refTo('task.update', { task_id: `${changeId}/${dependents[0]}` })}.`);
      }
      saveTasks(tx, found.changeId, found.doc, { remove: [taskId] }, 'task.rm');
      // Work deleted while in review is not approved: its agent's session goes back to work.
      if (found.task.status === 'in_review') settleSession(tx, found.task.assignee, false);
      tx.log(input.agent_id, 'task.rm', input.task_id, `deleted task ${input.task_id}: ${found.task.title}`, changeId);
      workedOn(tx, input.agent_id, `delete ${input.task_id}`);
      return { task_id: input.task_id, deleted: true };
    });
  },
});

// ---- work on a task ----------------------------------------------------------------------------------

/**
 * What an agent that finished a task hears of a task it still holds blocked (as `next` tells it):
 * the task, and the way back to it once its blocker is resolved; nothing when it holds none.
 */
function stillBlocked(tx: Transaction, agentId: string, done: string): { next_step?: string } {
  if (isHuman(agentId)) return {};
  const blocked = ownTasks(tx, agentId, 'blocked').filter((ref) => ref !== done);
  if (blocked.length === 0) return {};
  return { next_step: `You still hold ${blocked.join(', ')}, blocked: once its blocker is resolved, clear it with ${refTo('task.unblock', { task_id: blocked[0] })} and carry on with it; until then, get other work with ${refTo('task.next')}.` };
}

export const completeTask = defineOp({
  name: 'task.done',
  summary: 'Mark a task done (calling it again on a done task changes nothing)',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, task_id: TaskRef, note: text(1, LIMITS.noteMax).optional().describe('What was done: decisions, surprises.') }),
  output: TaskResult.extend({ next_step: z.string().optional().describe('What to do next, when there is more than asking for work: a task you still hold blocked.') }),
  cli: { command: 'task done', args: ['task_id'] },
  tool: {
    name: 'agentboard_complete_task',
    title: 'Complete a task',
    description:
      `Mark your task done (safe to repeat); work a person must check goes to ${refTo('session.submit')}. Then call ${refTo('task.next')}.`,
    profiles: ['worker', 'agent'],
    idempotent: true,
  },
  run(ctx, input) {
    return mutateTask(ctx.board(), input.task_id, (tx, found, task) => {
      if (task.status === 'done') {
        // Safe to repeat for whoever completed it (a person too); another agent did not finish it.
        if (!isHuman(input.agent_id) && task.assignee !== input.agent_id) refuseDone(task, input.task_id, input.agent_id, 'complete');
        // A call made again (a client retrying one it saw no answer to) keeps its note once.
        if (!input.note || task.notes.some((n) => n.author === input.agent_id && n.text === input.note)) return { result: { ...result(tx, found, task, false), ...stillBlocked(tx, input.agent_id, input.task_id) }, unchanged: true };
        task.notes.push({ author: input.agent_id, at: tx.now, text: input.note });
        return { result: { ...result(tx, found, task), ...stillBlocked(tx, input.agent_id, input.task_id) }, log: [input.agent_id, 'task.note', `note on ${input.task_id}: ${input.note.slice(0, 120)}`] };
      }
      takeForWork(tx, found, task, input.task_id, input.agent_id, 'complete');
      // A blocked task is unblocked before it is done: not while the agent works on another one.
      if (task.status === 'blocked' && !isHuman(input.agent_id)) assertFreeToResume(tx, input.agent_id, input.task_id);
      moveTask(task, input.task_id, 'done', input.agent_id, actorRole(input.agent_id), tx.now);
      if (input.note) task.notes.push({ author: input.agent_id, at: tx.now, text: input.note });
      // Work finished: the word that earlier work was sent back has been acted on, or work went on without it.
      if (clearSentBack(tx.runtime, input.agent_id)) tx.saveRuntime();
      const ended = claimEnded(found.task, task, input.agent_id);
      return {
        result: { ...result(tx, found, task), ...stillBlocked(tx, input.agent_id, input.task_id) },
        after: (t) => settleReviewed(t, found.task, task),
        log: [input.agent_id, 'task.done', `completed ${input.task_id}${ended ? ` (${ended} held it)` : ''}`],
      };
    });
  },
});

export const reportProgress = defineOp({
  name: 'task.progress',
  summary: 'Report progress on your task (0-100 with a message)',
  access: 'agent',
  input: z.strictObject({
    agent_id: Actor,
    task_id: TaskRef,
    percent: z.number().int().min(0).max(100).optional().describe('Percent done; else the last reported.'),
    message: text(1, 2000).optional().describe('What you did since the last report and what is next.'),
  }),
  output: TaskResult,
  cli: { command: 'task progress', args: ['task_id'] },
  queueable: true,
  tool: {
    name: 'agentboard_report_progress',
    title: 'Report progress',
    description: 'Report how far your task is and what you did; a task without progress for long shows as stale.',
    profiles: ['worker', 'agent'],
  },
  run(ctx, input) {
    return mutateTask(ctx.board(), input.task_id, (tx, found, task) => {
      takeForWork(tx, found, task, input.task_id, input.agent_id, 'report progress on');
      if (task.status === 'blocked' && !isHuman(input.agent_id)) assertFreeToResume(tx, input.agent_id, input.task_id);
      if (task.status !== 'in_progress') {
        fail('INVALID_TRANSITION', `Task ${input.task_id} is ${task.status}; progress is reported on a task in progress.`, task.status === 'blocked' ? `Clear the blocker with ${refTo('task.unblock', { task_id: input.task_id })} first.` : `Call ${refTo('task.next')} for work.`);
      }
      // Seed 004: both are optional. A report without a percent keeps the last one (a message alone does not take the task back to 0); one without a message has none.
      const percent = input.percent ?? task.progress ?? 0;
      task.progress = percent;
      if (input.message !== undefined) task.progress_message = input.message;
      else delete task.progress_message;
      task.progress_at = writtenAt(tx.now);
      return { result: result(tx, found, task), log: [input.agent_id, 'task.progress', `${input.task_id} at ${percent}%${input.message ? `: ${input.message.slice(0, 120)}` : ''}`] };
    });
  },
});

export const reportBlocker = defineOp({
  name: 'task.block',
  summary: 'Report that your task is blocked, with a reason and severity',
  access: 'agent',
  input: z.strictObject({
    agent_id: Actor,
    task_id: TaskRef,
    reason: text(1, 2000).describe('What blocks the task and what would unblock it.'),
    severity: BlockerSeverity.default('medium'),
  }),
  output: TaskResult,
  cli: { command: 'task block', args: ['task_id'] },
  tool: {
    name: 'agentboard_report_blocker',
    title: 'Report a blocker',
    description: `Mark your task blocked and say why. Once resolved, call ${refTo('task.unblock')} and carry on.`,
    profiles: ['worker', 'agent'],
  },
  run(ctx, input) {
    return mutateTask(ctx.board(), input.task_id, (tx, found, task) => {
      takeForWork(tx, found, task, input.task_id, input.agent_id, 'block');
      if (task.status === 'blocked') task.blockers.push({ reason: input.reason, severity: input.severity, by: input.agent_id, at: tx.now });
      else moveTask(task, input.task_id, 'blocked', input.agent_id, actorRole(input.agent_id), tx.now, { reason: input.reason, severity: input.severity });
      return { result: result(tx, found, task), log: [input.agent_id, 'task.block', `${input.task_id} blocked (${input.severity}): ${input.reason.slice(0, 120)}`] };
    });
  },
});

/** One task in progress at a time: an agent's blocked task comes back to work once the other is done or blocked. */
function assertFreeToResume(tx: Transaction, agentId: string, ref: string): void {
  const own = ownTaskElsewhere(tx, agentId, ref);
  if (own !== null) {
    fail('TASK_IN_PROGRESS', `You are working on ${own}; an agent works on one task at a time, so ${ref} stays blocked for now.`, `Finish ${own} first with ${refTo('task.done', { task_id: own })} (or report it blocked with ${refTo('task.block', { task_id: own })}), then unblock ${ref} with ${refTo('task.unblock', { task_id: ref })}.`);
  }
}

/**
 * An agent back at work on its task is working, whatever its session said: blocked, awaiting input,
 * completed, or awaiting review (its submitted work still waits for the person, and approving it
 * must not complete a session with this task in progress).
 */
function resumeSession(tx: Transaction, agentId: string, ref: string): void {
  if (tx.runtime.sessions[agentId]?.status === 'awaiting_review') moveSession(tx.runtime, agentId, 'working', tx.now, `went on working while awaiting review (unblock ${ref})`);
  else if (!startWorking(tx.runtime, agentId, tx.now, `unblock ${ref}`)) return;
  tx.saveRuntime();
}

export const clearBlocker = defineOp({
  name: 'task.unblock',
  summary: 'Clear the blockers of a task and carry on working',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, task_id: TaskRef, note: text(1, LIMITS.noteMax).optional().describe('How the blocker was resolved.') }),
  output: TaskResult,
  cli: { command: 'task unblock', args: ['task_id'] },
  tool: {
    name: 'agentboard_clear_blocker',
    title: 'Clear a blocker',
    description: "Mark your task's blockers resolved; it is in progress again.",
    profiles: ['worker', 'agent'],
  },
  run(ctx, input) {
    return mutateTask(ctx.board(), input.task_id, (tx, found, task) => {
      assertMayTouch(found.task, input.task_id, input.agent_id, 'unblock');
      if (task.status !== 'blocked') return { result: result(tx, found, task, false), unchanged: true };
      if (!isHuman(input.agent_id)) assertFreeToResume(tx, input.agent_id, input.task_id);
      moveTask(task, input.task_id, 'in_progress', input.agent_id, actorRole(input.agent_id), tx.now);
      if (input.note) task.notes.push({ author: input.agent_id, at: tx.now, text: input.note });
      if (!isHuman(input.agent_id)) resumeSession(tx, input.agent_id, input.task_id);
      return { result: result(tx, found, task), log: [input.agent_id, 'task.unblock', `${input.task_id} unblocked`] };
    });
  },
});

export const addNote = defineOp({
  name: 'task.note',
  summary: 'Add a note to a task',
  access: 'agent',
  input: z.strictObject({
    agent_id: Actor,
    task_id: TaskRef,
    text: text(1, LIMITS.noteMax).describe('A decision and its reason, a constraint found, or feedback addressed.'),
  }),
  output: TaskResult,
  cli: { command: 'task note', args: ['task_id', 'text'] },
  queueable: true,
  tool: {
    name: 'agentboard_add_note',
    title: 'Add a note',
    description:
      'Leave a note on a task for those after you. Good: "Chose a file lock over SQLite: no server needed". Bad: "Working on it".',
    profiles: ['worker', 'reviewer', 'agent'],
  },
  run(ctx, input) {
    return mutateTask(ctx.board(), input.task_id, (tx, found, task) => {
      assertMayTouch(found.task, input.task_id, input.agent_id, NOTE);
      task.notes.push({ author: input.agent_id, at: writtenAt(tx.now), text: input.text });
      return { result: result(tx, found, task), log: [input.agent_id, 'task.note', `note on ${input.task_id}: ${input.text.slice(0, 120)}`] };
    });
  },
});

// ---- people's decisions -------------------------------------------------------------------------------

const HumanTaskInput = { agent_id: Actor, task_id: TaskRef };

export const releaseTask = defineOp({
  name: 'task.release',
  summary: 'Put a claimed task back in the pool (people only)',
  access: 'human',
  input: z.strictObject({ ...HumanTaskInput, reason: text(1, LIMITS.noteMax).optional().describe('Why it is released.') }),
  output: TaskResult.extend({ released_from: z.string().nullable() }),
  cli: { command: 'release', args: ['task_id'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Releasing a task');
    return mutateTask<TaskResultIn & { released_from: string | null }>(ctx.board(), input.task_id, (tx, found, task) => {
      const holder = isHeld(task) ? task.assignee! : null;
      if (!holder) return { result: { ...result(tx, found, task, false), released_from: null }, unchanged: true };
      moveTask(task, input.task_id, 'todo', input.agent_id, 'human', tx.now);
      if (input.reason) task.notes.push({ author: input.agent_id, at: tx.now, text: `Released from ${holder}: ${input.reason}` });
      // A task released from review goes back to the pool as a rejected one does: its agent's session follows.
      return { result: { ...result(tx, found, task), released_from: holder }, after: (t) => settleReviewed(t, found.task, task), log: [input.agent_id, 'task.release', `released ${input.task_id} from ${holder}`] };
    });
  },
});

/** After a person decides on an agent's submitted task, that agent's session follows. */
function settleSession(tx: Transaction, agentId: string | undefined, approved: boolean, sentBack = SENT_BACK): void {
  if (!agentId) return;
  const session = tx.runtime.sessions[agentId];
  if (!session || session.status !== 'awaiting_review') return;
  if (!approved) {
    moveSession(tx.runtime, agentId, 'working', tx.now, sentBack);
  } else {
    if (ownTasks(tx, agentId, 'in_review').length > 0) return;
    // An agent holding a task in progress (a person took its blocker away meanwhile) is not done: it works on.
    if (ownTasks(tx, agentId, 'in_progress').length > 0) moveSession(tx.runtime, agentId, 'working', tx.now, 'submitted work was approved');
    else moveSession(tx.runtime, agentId, 'completed', tx.now, 'submitted work was approved');
  }
  tx.saveRuntime();
}

/** A person moving a submitted task out of review (done, or back to the pool) decides on it as approve or reject do. */
function settleReviewed(tx: Transaction, before: Task, after: Task): void {
  if (before.status === 'in_review' && after.status !== 'in_review') settleSession(tx, before.assignee, after.status === 'done');
}

export const approveTask = defineOp({
  name: 'task.approve',
  summary: 'Approve a task submitted for review: it is done (people only)',
  access: 'human',
  input: z.strictObject({ ...HumanTaskInput, note: text(1, LIMITS.noteMax).optional().describe('An optional remark kept on the task.') }),
  output: TaskResult,
  cli: { command: 'approve', args: ['task_id'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Approving a task');
    const board = ctx.board();
    return mutateTask(board, input.task_id, (tx, found, task) => {
      if (task.status !== 'in_review') fail('INVALID_TRANSITION', `Task ${input.task_id} is ${task.status}; only a task submitted for review is approved.`, `See the tasks awaiting review with ${refTo('task.list', { status: 'in_review' })}.`);
      const holder = task.assignee;
      moveTask(task, input.task_id, 'done', input.agent_id, 'human', tx.now);
      if (input.note) task.notes.push({ author: input.agent_id, at: tx.now, text: input.note });
      return {
        result: result(tx, found, task),
        after: (t) => settleSession(t, holder, true),
        log: [input.agent_id, 'task.approve', `approved ${input.task_id} (work of ${holder})`],
      };
    });
  },
});

export const rejectTask = defineOp({
  name: 'task.reject',
  summary: 'Send a submitted task back to the pool with feedback (people only)',
  access: 'human',
  input: z.strictObject({ ...HumanTaskInput, feedback: text(1, LIMITS.noteMax).describe('What must change; whoever picks the task up next sees it.') }),
  output: TaskResult,
  cli: { command: 'reject', args: ['task_id'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Rejecting a task');
    const board = ctx.board();
    return mutateTask(board, input.task_id, (tx, found, task) => {
      if (task.status !== 'in_review') fail('INVALID_TRANSITION', `Task ${input.task_id} is ${task.status}; only a task submitted for review is rejected.`, `See the tasks awaiting review with ${refTo('task.list', { status: 'in_review' })}.`);
      const holder = task.assignee;
      moveTask(task, input.task_id, 'todo', input.agent_id, 'human', tx.now);
      task.feedback.push({ author: input.agent_id, at: tx.now, text: input.feedback });
      return {
        result: result(tx, found, task),
        // The agent reads which task came back, and why, in its workflow state: the task is in the pool again, its feedback on it.
        after: (t) => settleSession(t, holder, false, sentBackMessage(input.task_id, input.feedback)),
        log: [input.agent_id, 'task.reject', `sent ${input.task_id} back to the pool (work of ${holder}): ${input.feedback.slice(0, 120)}`],
      };
    });
  },
});

export const TASK_OPS = [listTasks, showTask, addTask, updateTask, removeTask, completeTask, reportProgress, reportBlocker, clearBlocker, addNote, releaseTask, approveTask, rejectTask];
