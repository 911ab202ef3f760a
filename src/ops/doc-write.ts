/**
 * Writing a pipeline document: the gate (proposal → spec → tasks → review, strictly in order),
 * the lifecycle check, then render → read back → validate → write. Nothing is written unless the
 * document as it would be on disk passes the same rules `agentboard validate` applies.
 */
import { AgentboardError, fail } from '../errors.js';
import type { Finding } from '../domain/findings.js';
import { movesFrom, roleAllows, roleFor, DOCUMENT_MOVES, type Role } from '../domain/lifecycle.js';
import { docComplete, type PhaseInfo } from '../domain/phase.js';
import { DOC_FILES, DOC_WORDS, STAGES, type DocMeta, type DocType, type ImportSource, type Stage } from '../domain/model.js';
import { checkDoc, parseDocText, requirementIdsOf, type DocFile } from '../store/documents.js';
import type { DocInput, Reader, Transaction } from '../store/transaction.js';
import { userLines } from '../store/markdown.js';
import type { LoadedChange } from './view.js';
import { refTo, SUBMIT_OP } from '../domain/refs.js';
import { problemList, PROBLEMS_CHARS } from '../domain/text.js';

export { SUBMIT_OP };

/** The kinds of document whose writing operation is among `served`: `next` hands out rejected ones of these only. */
export function documentsWritten(served: readonly { name: string }[]): Stage[] {
  return STAGES.filter((type) => served.some((op) => op.name === SUBMIT_OP[type]));
}
const UPSTREAM: Record<Stage, ('proposal' | 'spec' | 'tasks')[]> = { proposal: [], spec: ['proposal'], tasks: ['proposal', 'spec'], review: ['proposal', 'spec', 'tasks'] };

export function docWord(type: DocType): string {
  return DOC_WORDS[type];
}

function firstError(findings: Finding[]): Finding | undefined {
  return findings.find((f) => f.level === 'error');
}

/**
 * Why a document cannot be written yet (its earlier phase is not complete), with the step that
 * moves the change on; null when it can be.
 */
export function gateProblem(reader: Reader, change: LoadedChange, type: Stage): { reason: string; next: string } | null {
  const requireApproval = reader.board.config.require_approval as readonly string[];
  const changeId = change.changeId;
  for (const up of UPSTREAM[type]) {
    const doc = change[up];
    const file = `agentd/changes/${changeId}/${DOC_FILES[up]}`;
    // A reviewer is not sent to write the plan: the review waits for the planner's documents.
    const planners = type === 'review' ? `A review comes after the planner's proposal, spec and task list; see where ${changeId} stands with ${refTo('change.show', { change_id: changeId })}, and review another change meanwhile (${refTo('change.list')}).` : null;
    if (!doc || doc.meta.status === 'template' || doc.meta.status === 'superseded') {
      return { reason: `its ${DOC_WORDS[up]} has not been submitted`, next: planners ?? `Submit the ${DOC_WORDS[up]} first with ${refTo(SUBMIT_OP[up], { change_id: changeId })}.` };
    }
    if (doc.meta.status === 'rejected') {
      return { reason: `its ${DOC_WORDS[up]} was rejected`, next: planners ?? `Revise the ${DOC_WORDS[up]} (see its feedback with ${refTo('document.get', { change_id: changeId, document: up })}) and resubmit it with ${refTo(SUBMIT_OP[up], { change_id: changeId })}.` };
    }
    // Submitted or approved: an agent cannot submit it again, so the file itself is to be fixed.
    const broken = firstError(checkDoc(doc, changeId));
    if (broken) {
      return { reason: `${file} is not valid (${broken.line ? `line ${broken.line}: ` : ''}${broken.message})`, next: `Fix ${file} (${broken.fix}); run ${refTo('change.validate', { change_id: changeId })} to see every problem.` };
    }
    if (!docComplete({ status: doc.meta.status }, requireApproval.includes(up))) {
      return { reason: `this board requires a person to approve the ${DOC_WORDS[up]} first`, next: `Ask a person to run ${refTo('document.approve', { change_id: changeId, document: up })}; meanwhile find other work with ${refTo(['task.next', 'change.list'])}.` };
    }
  }
  return null;
}

/** Refuses a document whose earlier phase is not complete, naming the missing step and the call that does it. */
export function assertGate(reader: Reader, change: LoadedChange, type: Stage): void {
  const problem = gateProblem(reader, change, type);
  if (problem) fail('PHASE_NOT_READY', `The ${DOC_WORDS[type]} of ${change.changeId} cannot be written yet: ${problem.reason}.`, problem.next);
}

/**
 * What to say of a change that has no task list yet: what else its task list waits for (`why`, to
 * follow "has no task list yet"; the gate tasks.create would refuse it at), and the step to take.
 */
export function noTaskList(reader: Reader, change: LoadedChange): { why: string; next: string } {
  const problem = gateProblem(reader, change, 'tasks');
  if (problem) return { why: `, and it cannot be written yet: ${problem.reason}`, next: problem.next };
  return { why: '', next: `Write the task list first with ${refTo('tasks.create', { change_id: change.changeId })}.` };
}

/** Where the change of a document being submitted stands: whether this board requires a person's approval of the document, and the change's phase (read only when needed). */
export interface SubmitContext {
  approvalRequired: boolean;
  change: LoadedChange;
  phase: () => PhaseInfo;
  /** The operations the caller can call, when not all (Context.callable). */
  callable?: ReadonlySet<string> | undefined;
}

/**
 * Why a document submitted before cannot be submitted again, and what happens next on this board:
 * a person's decision where the board requires their approval of it; else nothing waits on it, and
 * the change has moved on to its next phase.
 */
function alreadySubmitted(type: Stage, actor: string, board: SubmitContext): never {
  const word = DOC_WORDS[type];
  const changeId = board.change.changeId;
  const elsewhere = refTo(['task.next', 'change.list']);
  if (board.approvalRequired) {
    fail('DOCUMENT_SUBMITTED', `This ${word} has already been submitted and is awaiting review: this board requires a person's approval of it.`, `A person approves or rejects it now; meanwhile find other work with ${elsewhere}.`);
  }
  const { phase, waiting_on: waiting } = board.phase();
  const next = phase === 'spec' || phase === 'tasks' ? board.change[phase] : null;
  const writable = (phase === 'spec' || phase === 'tasks') && (!next || ['template', 'superseded', 'rejected'].includes(next.meta.status));
  // The caller's own calls only: an agent whose profile is not handed tasks (a planner's) is not sent to take them on the command line.
  const can = (op: string) => board.callable?.has(op) ?? true;
  const list = board.change.tasks;
  const planOpen = list?.meta.status === 'submitted' && can('task.add');
  const toWorkers = () =>
    `${list?.meta.author && list.meta.author !== actor ? `${list.meta.author} wrote the task list of ${changeId}, and its` : 'Its'} tasks go to workers now: see them with ${refTo(['task.list', 'change.show'], { change_id: changeId })}` +
    `${planOpen ? `, add one the plan lacks with ${refTo('task.add', { change_id: changeId })}` : ''}, or find other work with ${elsewhere}`;
  const step = writable
    ? `Write its ${DOC_WORDS[phase]} with ${refTo(SUBMIT_OP[phase], { change_id: changeId })}, or find other work with ${elsewhere}`
    : phase === 'implementation'
      ? can('task.next')
        ? `Work on its tasks with ${refTo('task.next', { change_id: changeId })}`
        : toWorkers()
      : `See where it stands with ${refTo(['change.show', 'change.list'], { change_id: changeId })}, or find other work with ${elsewhere}`;
  // A task list is changed task by task once submitted: its writer adds, changes and deletes the tasks nobody works on yet.
  // Named with a task of the list nobody works on yet (its first), so that each call can be made as written.
  const open = type === 'tasks' ? list?.content?.blocks.find((b) => b.task?.status === 'todo' && !b.task.assignee)?.task : undefined;
  const one = open ? { task_id: `${changeId}/${open.id}` } : {};
  const plan =
    type === 'tasks' && list?.meta.author === actor && planOpen
      ? `To change the plan, add a task with ${refTo('task.add', { change_id: changeId })}, change one with ${refTo('task.update', one)} or delete one with ${refTo('task.rm', one)} (tasks nobody works on yet)`
      : null;
  fail(
    'DOCUMENT_SUBMITTED',
    `This ${word} has already been submitted. This board requires no person's approval of it, so nothing waits on it: ${changeId} has moved on to its ${phase} phase${waiting ? ` (waiting on ${waiting})` : ''}.`,
    `${plan ?? step}. Should a person reject the ${word}, it comes back to be revised.`,
  );
}

/** The lifecycle check for (re)submitting a document: seed 000's table, with its actionable errors. */
export function assertCanSubmit(doc: DocFile | null, type: Stage, actor: string, role: Role, board: SubmitContext): void {
  if (!doc) return;
  const file = doc.file;
  if (doc.content === null) {
    if (doc.error) throw doc.error; // a file that cannot be read at all: its error names the file, the line and the way out
    const f = firstError(doc.findings);
    fail('PARSE_ERROR', `${file}${f?.line ? `:${f.line}` : ''}: ${f?.message ?? 'the file cannot be read'}.`, `Fix ${file} by hand (${f?.fix ?? 'it does not parse'}), or restore it with git checkout -- ${file} if it is committed; one never committed can be deleted, and the ${DOC_WORDS[type]} written anew.`);
  }
  const from = doc.meta.status;
  // A review is written in rounds: a new round replaces the latest (kept below it) until a person approves the review.
  if (type === 'review' && from !== 'approved') return;
  if (from === 'approved') {
    fail('DOCUMENT_APPROVED', `This ${DOC_WORDS[type]} has already been approved.`, `Nothing to do; find other work with ${refTo(['task.next', 'change.list'])}.`);
  }
  if (from === 'submitted' && !roleAllows(role, 'reviewer')) alreadySubmitted(type, actor, board);
  const needed = roleFor(DOCUMENT_MOVES, from, 'submitted');
  if (needed === null || !roleAllows(role, needed)) {
    const allowed = movesFrom(DOCUMENT_MOVES, from, role);
    fail('INVALID_TRANSITION', `A ${from} ${DOC_WORDS[type]} cannot be submitted by ${actor}.`, allowed.length ? `From ${from} it can go to: ${allowed.join(', ')}.` : `Find other work with ${refTo(['task.next', 'change.list'])}.`);
  }
  if (from === 'rejected' && doc.meta.assignee && doc.meta.assignee !== actor && role === 'agent') {
    fail('DOCUMENT_HELD', `${doc.meta.assignee} is revising this ${DOC_WORDS[type]} (since ${doc.meta.claimed_at ?? 'earlier'}).`, `Find other work with ${refTo(['task.next', 'change.list'])}; a person can release it with ${refTo('document.release', { change_id: doc.meta.change_id, document: type })} if it is stuck.`);
  }
}

/** A document as its writer sent it (a reviewer's corrected markdown), and what it is called. */
export interface InputText {
  text: string;
  shownAs: string;
}

/**
 * A finding of the text about to be written, pointed at the input it was made from: the input's
 * line that holds the same text, or no line when none does (the file on disk was not written).
 */
function inInput(f: Finding, written: string, input: InputText): Finding {
  const { line, ...rest } = f;
  const wanted = line === undefined ? '' : (written.split('\n')[line - 1] ?? '').trim();
  const at = wanted === '' ? -1 : userLines(input.text).split('\n').findIndex((l) => l.trim() === wanted);
  return at < 0 ? { ...rest, file: input.shownAs } : { ...rest, file: input.shownAs, line: at + 1 };
}

/**
 * A finding of a document written from fields, whose text no file holds yet: without a line. With
 * `listed`, the list of tasks it was written from, a finding of a task names its place in that list.
 */
function inFields(f: Finding, doc: DocFile, listed: boolean): Finding {
  const { line, ...rest } = f;
  const blocks = doc.type === 'tasks' && listed ? ((doc as DocFile<'tasks'>).content?.blocks ?? []) : [];
  if (line === undefined || blocks.length === 0) return rest;
  const at = (l: number) => blocks.findLastIndex((b) => b.line + doc.bodyLine - 1 <= l);
  const message = rest.message.replace(/\(first on line (\d+)\)/, (_, n: string) => `(first as tasks[${at(Number(n))}])`);
  return at(line) < 0 ? { ...rest, message } : { ...rest, message: `tasks[${at(line)}]: ${message}` };
}

/**
 * Reads a document's new text back and applies the rules `agentboard validate` applies: refuses it
 * with its errors (naming `retryOp` as the call to make again), or returns its warnings. Errors are
 * pointed at `input`: a text sent as it is, or the list of tasks (`'tasks'`) or the fields it was
 * written from (none given).
 */
export function checkBeforeWrite(type: Stage, text: string, file: string, changeId: string, spec: DocFile<'spec'> | null, retryOp: string, retryArgs: Record<string, string> = { change_id: changeId }, input?: InputText | 'tasks'): Finding[] {
  const doc = parseDocText(type, text, file);
  const findings = checkDoc(doc, changeId, { requirementIds: type === 'tasks' ? requirementIdsOf(spec) : null });
  const errors = findings.filter((f) => f.level === 'error').map((f) => (typeof input === 'object' ? inInput(f, text, input) : inFields(f, doc, input === 'tasks')));
  if (errors.length > 0) {
    const shown = problemList(errors.map((f) => `${f.message} [${f.rule}]`));
    // Its warnings come in the same round: fixed with the errors, they cost no revision after the write.
    const warned = findings.filter((f) => f.level === 'warning').map((f) => (typeof input === 'object' ? inInput(f, text, input) : inFields(f, doc, input === 'tasks')));
    const also = warned.length > 0 ? ` Its warnings, which alone would not stop the write: ${problemList(warned.map((f) => `${f.message} [${f.rule}]`), Math.max(2_000, PROBLEMS_CHARS - shown.length))}.` : '';
    throw new AgentboardError(
      'VALIDATION_FAILED',
      `The ${DOC_WORDS[type]} is not valid, so nothing was written: ${shown}.${also}`,
      `Fix ${errors.length === 1 ? 'this' : 'these'} and call ${refTo(retryOp, retryArgs)} again.`,
      { findings: errors },
    );
  }
  return findings.filter((f) => f.level === 'warning');
}

export interface WriteResult {
  change_id: string;
  document: DocType;
  file: string;
  status: DocMeta['status'];
  revision: number;
  author: string;
  warnings: Finding[];
  feedback: DocMeta['feedback'];
}

export interface WriteOptions {
  notes?: string;
  correction?: string;
  title?: string;
  importedFrom?: ImportSource | undefined;
  /** The call to make again when the document is refused; else the one that submits it. */
  retry?: { op: string; args: Record<string, string> };
  /** The text the document was made from, which its findings then point at. */
  input?: InputText;
}

/**
 * Writes a document after checking it as it would stand on disk; meta keeps created, feedback and
 * the notes of every submission.
 */
export function writeDocument<T extends Stage>(
  tx: Transaction,
  change: LoadedChange,
  type: T,
  actor: string,
  content: DocInput[T],
  options: WriteOptions = {},
): WriteResult {
  const existing = change[type] as DocFile | null;
  const now = tx.now;
  const previous = existing?.meta;
  const meta: DocMeta = {
    id: `${change.changeId}/${type}`,
    change_id: change.changeId,
    type,
    status: 'submitted',
    created: previous?.created || now,
    updated: now,
    author: options.correction ? previous?.author || actor : actor,
    revision: (previous?.revision ?? 0) + 1,
    notes: [...(previous?.notes ?? [])],
    feedback: [...(previous?.feedback ?? [])],
  };
  if (options.title) meta.title = options.title;
  // Text brought over from another tool says so; a reviewer's correction of it still is.
  const importedFrom = options.importedFrom ?? (options.correction ? previous?.imported_from : undefined);
  if (importedFrom) meta.imported_from = importedFrom;
  if (options.correction) {
    meta.corrected_by = options.correction;
    meta.corrected_at = now;
    if (previous?.review_requested_by) {
      meta.review_requested_by = previous.review_requested_by;
      meta.review_requested_at = previous.review_requested_at;
    }
  }
  if (options.notes) meta.notes.push({ author: actor, at: now, text: options.notes });
  const file = tx.board.rel(tx.board.docPath(change.changeId, type));
  const { text } = tx.putDocument(change.changeId, type, meta, content);
  const retry = options.retry ?? { op: SUBMIT_OP[type], args: { change_id: change.changeId } };
  const warnings = checkBeforeWrite(type, text, file, change.changeId, change.spec, retry.op, retry.args, options.input ?? (type === 'tasks' ? 'tasks' : undefined));
  return {
    change_id: change.changeId,
    document: type,
    file,
    status: meta.status,
    revision: meta.revision,
    author: meta.author,
    warnings,
    feedback: meta.feedback,
  };
}
