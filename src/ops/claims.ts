/** Taking a task for work on any path that changes its state: the claim rules, the log and the session, as `next` does; and the session of other work. */
import { isHuman, taskRef } from '../domain/ids.js';
import { clearSentBack, pendingSubmission, startWorking } from '../domain/sessions.js';
import { holdOrClaim } from '../domain/task-rules.js';
import type { Task } from '../domain/model.js';
import type { Transaction } from '../store/transaction.js';
import { workProblem, type FoundTask } from './view.js';

/** A task of the agent's with this status anywhere on the board, other than `ref`, as "<change_id>/<task_id>"; null when none. */
function ownTask(tx: Transaction, actor: string, status: Task['status'], ref?: string): string | null {
  return ownTasks(tx, actor, status).find((own) => own !== ref) ?? null;
}

/** The tasks the agent holds in this state, anywhere on the board, as <change>/<task>. */
export function ownTasks(tx: Transaction, actor: string, status: Task['status']): string[] {
  const out: string[] = [];
  for (const changeId of tx.changeIds()) {
    if (!tx.mayHold(changeId, actor)) continue;
    for (const t of tx.taskList(changeId)?.tasks ?? []) if (t.assignee === actor && t.status === status) out.push(taskRef(changeId, t.id));
  }
  return out;
}

/** A task other than `ref` the agent holds in progress, anywhere on the board; null when none. */
export function ownTaskElsewhere(tx: Transaction, actor: string, ref: string): string | null {
  return ownTask(tx, actor, 'in_progress', ref);
}

/** The agent's submitted work that waits for a person (a task of its in review, or a submission naming none); null when none. */
function awaitingReview(tx: Transaction, actor: string): string | null {
  return ownTask(tx, actor, 'in_review') ?? pendingSubmission(tx.runtime.sessions[actor])?.id ?? null;
}

/**
 * Makes sure the actor may change the task's state: it holds it, or it claims it now under the
 * claim rules (logged as a claim, its session working). Refusals name the rule and the call to make.
 */
export function takeForWork(tx: Transaction, found: FoundTask, task: Task, ref: string, actor: string, verb: string): void {
  if (holdOrClaim(task, ref, actor, tx.now, { byId: found.byId, listProblem: workProblem(tx, found.changeId, found.doc), ownInProgress: () => ownTaskElsewhere(tx, actor, ref), awaitingReview: () => awaitingReview(tx, actor) }, verb)) {
    tx.log(actor, 'task.claim', ref, `claimed ${ref}: ${task.title}`, found.changeId);
    // Taken again, a task that was sent back is no longer news to its agent.
    if (clearSentBack(tx.runtime, actor, ref)) tx.saveRuntime();
  }
  // Working on a task is working: a session still started (or completed), awaiting input or blocked moves on the way.
  if (!isHuman(actor) && startWorking(tx.runtime, actor, tx.now, `${verb} ${ref}`)) tx.saveRuntime();
}

/**
 * Writing a document or planning tasks is work too: an agent's session still started (or completed)
 * moves to working on the way, as a claim moves it (seed 002's machine: the move is recorded).
 */
export function workedOn(tx: Transaction, actor: string, doing: string): void {
  if (!isHuman(actor) && startWorking(tx.runtime, actor, tx.now, doing)) tx.saveRuntime();
}
