/** Reading a board for the operations: changes with their documents, tasks, and their output shapes. */
import { fail } from '../errors.js';
import { changeIdProblem, printable, taskRef } from '../domain/ids.js';
import { hasErrors, type Finding } from '../domain/findings.js';
import { isReady } from '../domain/next-task.js';
import { derivePhase, docComplete, waitingFor, type ChangeState, type DocState, type PhaseInfo } from '../domain/phase.js';
import { DOC_TYPES, type DocMeta, type DocType, type Task } from '../domain/model.js';
import type { ArchivedChange, HeadMeta } from '../store/board.js';
import type { Reader } from '../store/transaction.js';
import type { DocFile } from '../store/documents.js';
import type { TaskBlock } from '../store/format-tasks.js';
import type { TaskList } from '../store/task-scan.js';
import type * as z from 'zod';
import type { TaskOut, TaskSummaryOut } from './schemas.js';
import { refTo } from '../domain/refs.js';
import { noTaskList } from './doc-write.js';

export interface LoadedChange {
  changeId: string;
  proposal: DocFile<'proposal'> | null;
  spec: DocFile<'spec'> | null;
  tasks: DocFile<'tasks'> | null;
  review: DocFile<'review'> | null;
  design: DocFile<'design'> | null;
}

/**
 * A proposal or a spec as a summing up of the board reads it: in full, or (as agentboard wrote it,
 * Board.docGist) its frontmatter and title alone, without errors.
 */
export interface SummedDoc {
  meta: HeadMeta;
  findings: readonly Finding[];
  content: { title: string } | null;
}

/** A change as status and list read it: its proposal and spec perhaps summed up (SummedDoc). */
export type SummedChange = Omit<LoadedChange, 'proposal' | 'spec'> & { proposal: SummedDoc | null; spec: SummedDoc | null };

export function requireChange(reader: Reader, changeId: string): void {
  if (reader.hasChange(changeId)) return;
  const archived = reader.board.archived().find((a) => a.change_id === changeId);
  if (archived) {
    fail('CHANGE_ARCHIVED', `Change ${changeId} is archived (agentd/archive/${archived.folder}); archived changes do not change.`, `Plan further work as a new change with ${refTo(['change.create', 'proposal.submit'])}.`);
  }
  fail('CHANGE_NOT_FOUND', `There is no change "${printable(changeId)}" on this board.`, notFoundNext(changeId));
}

function notFoundNext(changeId: string): string {
  const create = refTo(['change.create', 'proposal.submit'], changeIdProblem(changeId) ? {} : { change_id: changeId });
  return `List the changes with ${refTo(['change.list', 'board.status'])}, or create this one with ${create}.`;
}

/**
 * What a board-wide read says of the archived changes it leaves out: how many, and how to read them
 * (`readOne`: the read of one of them, by its id; the latest archived is named). Nothing is left
 * out of a read of one change (`changeId`).
 */
export function archivedLeftOut(reader: Reader, changeId: string | undefined, readOne: (changeId: string) => string): { archived_left_out: number; archived_note: string | null } {
  const archived = changeId === undefined ? reader.board.archived() : [];
  const latest = archived.at(-1);
  if (!latest) return { archived_left_out: 0, archived_note: null };
  const n = archived.length;
  const them = n === 1 ? 'it' : 'them';
  return {
    archived_left_out: n,
    archived_note: `${n === 1 ? '1 archived change is' : `${n} archived changes are`} left out: list ${them} with ${refTo('change.list', { archived: true })}; read ${n === 1 ? 'it' : 'one'} with ${readOne(latest.change_id)}.`,
  };
}

/** A change to read: open, or archived (read from agentd/archive/, read-only). */
export interface ChangeToRead {
  changeId: string;
  archived: ArchivedChange | null;
}

/** Finds a change to read, open or archived (the latest archive of that id); CHANGE_NOT_FOUND otherwise. */
export function changeToRead(reader: Reader, changeId: string): ChangeToRead {
  if (reader.hasChange(changeId)) return { changeId, archived: null };
  const archived = reader.board.archived().filter((a) => a.change_id === changeId).at(-1);
  if (archived) return { changeId, archived };
  return fail('CHANGE_NOT_FOUND', `There is no change "${printable(changeId)}" on this board.`, notFoundNext(changeId));
}

export function readDocOf<T extends DocType>(reader: Reader, change: ChangeToRead, type: T): DocFile<T> | null {
  return change.archived ? reader.board.readArchivedDoc(change.archived.folder, type) : reader.readDoc(change.changeId, type);
}

/** Every document of a change to read. */
export function loadChangeToRead(reader: Reader, change: ChangeToRead, types: readonly DocType[] = DOC_TYPES): LoadedChange {
  const out: LoadedChange = { changeId: change.changeId, proposal: null, spec: null, tasks: null, review: null, design: null };
  for (const type of types) (out as unknown as Record<DocType, DocFile | null>)[type] = readDocOf(reader, change, type);
  return out;
}

export function loadChange(reader: Reader, changeId: string, types: readonly DocType[] = DOC_TYPES): LoadedChange {
  const out: LoadedChange = { changeId, proposal: null, spec: null, tasks: null, review: null, design: null };
  for (const type of types) (out as unknown as Record<DocType, DocFile | null>)[type] = reader.readDoc(changeId, type);
  return out;
}

/**
 * A change read to sum it up: its task list read quickly (a summary of each task, store/task-scan.ts),
 * the other documents in full; the task list in full too only when the quick read could not take
 * it (for its findings). `list` is null when the change has no task list that could be read.
 */
export function loadSummed(reader: Reader, changeId: string): { change: SummedChange; list: TaskList | null } {
  const list = reader.taskList(changeId);
  const change: SummedChange = loadChange(reader, changeId, list && !list.broken ? ['review'] : ['tasks', 'review']);
  // A proposal and a spec as agentboard wrote them are summed up from their frontmatter and the ledger, not parsed.
  for (const type of ['proposal', 'spec'] as const) {
    const gist = reader.docGist(changeId, type);
    change[type] = gist ? { meta: gist.meta, findings: [], content: { title: gist.title ?? '' } } : reader.readDoc(changeId, type);
  }
  return { change, list };
}

export function tasksOf(doc: DocFile<'tasks'> | null): Task[] {
  return doc?.content?.blocks.flatMap((b) => (b.task ? [b.task] : [])) ?? [];
}

/** The state of a change, its tasks from its task list or (when given) from a quick read of it. */
/** What the phase of a change needs of one of its documents. */
function docState(doc: Pick<DocFile, 'meta' | 'content'> | SummedDoc | null): DocState | null {
  return doc ? { status: doc.meta.status, ...(doc.content === null ? { unreadable: true } : {}) } : null;
}

export function changeState(change: SummedChange, list?: TaskList | null): ChangeState {
  const latest = change.review?.content?.[0];
  return {
    proposal: docState(change.proposal),
    spec: docState(change.spec),
    tasks: list ? { status: list.meta.status, tasks: list.tasks, broken: list.broken } : change.tasks ? { ...docState(change.tasks)!, tasks: tasksOf(change.tasks), broken: hasErrors(change.tasks.findings) } : null,
    review: change.review ? { ...docState(change.review)!, verdict: latest?.verdict ?? null } : null,
  };
}

export function phaseOf(reader: Reader, change: SummedChange, list?: TaskList | null): PhaseInfo {
  return derivePhase(changeState(change, list), reader.board.config.require_approval);
}

export function changeTitle(change: SummedChange): string {
  return change.proposal?.content?.title || change.proposal?.meta.title || change.changeId;
}

export type TaskOutput = z.input<typeof TaskOut>;

/** `open`: whether the task's change hands out work now (workProblem); a task of a change that does not is never ready. */
export function taskOut(changeId: string, task: Task, byId: Map<string, Task>, open = true): TaskOutput {
  return {
    task_id: taskRef(changeId, task.id),
    change_id: changeId,
    id: task.id,
    title: task.title,
    description: task.description,
    status: task.status,
    priority: task.priority,
    depends: task.depends,
    skills: task.skills,
    requirements: task.requirements,
    files: task.files,
    assignee: task.assignee ?? null,
    claimed_at: task.claimed_at ?? null,
    progress: task.progress ?? null,
    progress_message: task.progress_message ?? null,
    progress_at: task.progress_at ?? null,
    submitted_at: task.submitted_at ?? null,
    submission: task.submission ?? null,
    pr_url: task.pr_url ?? null,
    completed_at: task.completed_at ?? null,
    branch: task.branch ?? null,
    review_round: task.review_round ?? null,
    blockers: task.blockers,
    feedback: task.feedback,
    notes: task.notes,
    ready: open && isReady(task, byId),
  };
}

export function taskSummary(changeId: string, task: Task, byId: Map<string, Task>, open = true): z.input<typeof TaskSummaryOut> {
  return {
    task_id: taskRef(changeId, task.id),
    change_id: changeId,
    id: task.id,
    title: task.title,
    status: task.status,
    priority: task.priority,
    assignee: task.assignee ?? null,
    progress: task.progress ?? null,
    depends: task.depends,
    ready: open && isReady(task, byId),
  };
}

/**
 * Why the tasks of a list are not handed out (null when they are): the list must be submitted, and
 * approved by a person when this board requires it.
 */
export function listProblem(reader: Reader, doc: { meta: Pick<DocMeta, 'status'> }): string | null {
  const status = doc.meta.status;
  if (status === 'approved') return null;
  if (status === 'submitted') return reader.board.config.require_approval.includes('tasks') ? "its task list waits for a person's approval (this board requires it)" : null;
  return `its task list is ${status}, not submitted`;
}

/**
 * Why the work of a change waits on its proposal or spec (null when neither holds it back): one was
 * rejected and is being revised, cannot be read, is gone, or awaits an approval this board requires.
 * The phase of the change says the same (domain/phase.ts).
 */
export function earlierProblem(reader: Reader, changeId: string): string | null {
  for (const type of ['proposal', 'spec'] as const) {
    const approval = reader.board.config.require_approval.includes(type);
    const meta = reader.docMeta(changeId, type);
    // Read in full only when the quick read found nothing: to tell a file that cannot be read from one that is not there.
    const state = meta ? { status: meta.status } : docState(reader.readDoc(changeId, type));
    if (!docComplete(state, approval)) return `its change waits for ${waitingFor(type, state, approval)}`;
  }
  return null;
}

/**
 * Whether the tasks of this list (of an open change; null for none) may be taken now: `ready` means
 * it only then. A list with errors hands out none (a claim of one is refused with the error's line).
 */
export function openForWork(reader: Reader, changeId: string, doc: { meta: Pick<DocMeta, 'status'>; broken?: boolean; findings?: Finding[] } | null): boolean {
  return doc !== null && !(doc.broken ?? (doc.findings !== undefined && hasErrors(doc.findings))) && workProblem(reader, changeId, doc) === null;
}

/**
 * Why no task of this list may be taken now (null when they may): the list's own state first, then
 * the earlier documents of its change, the folder it is in (not the change_id its frontmatter names:
 * a change folder copied by hand keeps the original's).
 */
export function workProblem(reader: Reader, changeId: string, doc: { meta: Pick<DocMeta, 'status'> }): string | null {
  return listProblem(reader, doc) ?? earlierProblem(reader, changeId);
}

export interface FoundTask {
  changeId: string;
  doc: DocFile<'tasks'>;
  block: TaskBlock;
  task: Task;
  byId: Map<string, Task>;
}

/** Finds a task by its board-wide id; refuses a broken task list with its file and line. */
export function findTask(reader: Reader, changeId: string, taskId: string, options: { archived?: boolean } = {}): FoundTask {
  let doc: DocFile<'tasks'> | null;
  if (options.archived) doc = readDocOf(reader, changeToRead(reader, changeId), 'tasks');
  else {
    requireChange(reader, changeId);
    doc = reader.readDoc(changeId, 'tasks');
  }
  const ref = taskRef(changeId, taskId);
  if (doc?.error) throw doc.error;
  if (!doc) {
    // A task list agentboard wrote and no command removed is gone by hand, or for a moment while git writes it anew: not one still to write.
    const gone = reader.board.goneTaskList(changeId);
    if (gone) fail('TASK_NOT_FOUND', `Task ${ref} cannot be read: ${gone.message}`, `If git or an editor is writing the file now, the same call works in a moment; else ask a person to restore it (\`git checkout -- ${gone.file}\` when it is committed), quoting this error. Do not write the task list anew: that would replace it for good.`);
    const none = options.archived && !reader.hasChange(changeId) ? { why: '', next: `Read the change with ${refTo('change.show', { change_id: changeId })}.` } : noTaskList(reader, loadChange(reader, changeId, ['proposal', 'spec']));
    fail('TASK_NOT_FOUND', `Task ${ref} does not exist: change ${changeId} has no task list yet${none.why}.`, none.next);
  }
  const block = doc.content?.blocks.find((b) => b.id === taskId);
  if (!block) {
    const broken = doc.findings.find((f) => f.level === 'error');
    if (broken) {
      fail('PARSE_ERROR', `${broken.file}${broken.line ? `:${broken.line}` : ''}: ${broken.message}.`, `Fix ${broken.file} (${broken.fix}); run ${refTo('change.validate', { change_id: changeId })} to see every problem.`);
    }
    fail('TASK_NOT_FOUND', `Task ${ref} does not exist.`, `List the tasks of ${changeId} with ${refTo('task.list', { change_id: changeId })}.`);
  }
  if (!block.task) {
    const f = doc.findings.find((x) => x.level === 'error' && x.line !== undefined && x.line >= block.line + doc.bodyLine - 1);
    const where = f ? `${f.file}:${f.line}: ${f.message}` : `${doc.file}: task ${taskId} cannot be read`;
    fail('PARSE_ERROR', `${where}.`, `Fix the task in ${doc.file}; run ${refTo('change.validate', { change_id: changeId })} to see every problem.`);
  }
  const tasks = tasksOf(doc);
  return { changeId, doc, block, task: block.task, byId: new Map(tasks.map((t) => [t.id, t])) };
}
