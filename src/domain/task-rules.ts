/**
 * The claim rules, in one place for every path that changes a task's state: `next`, completing,
 * progress, blockers, submitting for review and status changes. An agent works on a task it holds;
 * a task nobody holds is first claimed under the rules `next` applies (its task list is open, its
 * dependencies are done); a task another agent holds, or one waiting for a person's review, is not
 * the agent's to change. Pure: the operations run these inside the board lock.
 */
import { fail } from '../errors.js';
import { isHuman } from './ids.js';
import { isHeld, type Task } from './model.js';
import { moveTask } from './task-moves.js';
import { refTo } from './refs.js';

export function dependenciesDone(task: Pick<Task, 'depends'>, byId: Map<string, Pick<Task, 'status'>>): boolean {
  return task.depends.every((d) => byId.get(d)?.status === 'done');
}

/** Why nobody may claim this task now (null when it can be claimed): its list is not open, or its dependencies. */
export function claimProblem(task: Task, byId: Map<string, Task>, listProblem: string | null): string | null {
  if (listProblem) return listProblem;
  const waiting = task.depends.filter((d) => byId.get(d)?.status !== 'done');
  if (waiting.length > 0) return `it waits for ${waiting.join(', ')} (a task starts once its dependencies are done)`;
  return null;
}

/** Refuses to let an agent touch a task another agent holds, or one a person is reviewing; people may. */
export function assertMayTouch(task: Task, ref: string, actor: string, verb: string): void {
  if (isHuman(actor)) return;
  if (isHeld(task) && task.assignee !== actor) {
    fail(
      'TASK_HELD',
      `Task ${ref} is held by ${task.assignee} (since ${task.claimed_at ?? 'earlier'}); you cannot ${verb} it.`,
      `Find a task of your own with ${refTo(['task.next', 'task.list'], { status: 'pending' })}. If the holder is gone, a person can release the task with ${refTo('task.release', { task_id: ref })}.`,
    );
  }
  if (task.status === 'in_review') {
    fail('TASK_IN_REVIEW', `Task ${ref} was submitted and is awaiting review by a person; it cannot change until they decide.`, `Wait for the person's decision; ${refTo(['task.next', 'task.show'], { task_id: ref })} tells you when it is made.`);
  }
}

/**
 * Before an agent changes a task's state: the agent holds it already, or claims it now under the
 * claim rules (recorded as a claim). Returns true when this call claimed it. People act on any task.
 */
export function holdOrClaim(task: Task, ref: string, actor: string, now: string, rules: { byId: Map<string, Task>; listProblem: string | null; ownInProgress: () => string | null }, verb: string): boolean {
  assertMayTouch(task, ref, actor, verb);
  if (isHuman(actor) || (isHeld(task) && task.assignee === actor)) return false;
  if (task.status !== 'todo') {
    fail('TASK_NOT_READY', `Task ${ref} is ${task.status} and not held by you; you cannot ${verb} it.`, `Find a task of your own with ${refTo(['task.next', 'task.list'], { status: 'pending' })}.`);
  }
  const problem = claimProblem(task, rules.byId, rules.listProblem);
  if (problem) fail('TASK_NOT_READY', `Task ${ref} cannot be taken now: ${problem}.`, `Find a task that is ready with ${refTo(['task.next', 'task.list'], { ready: true })}.`);
  // One task at a time, as `next` hands them out: the agent finishes (or reports blocked) the one it works on first.
  const own = rules.ownInProgress();
  if (own !== null) {
    fail('TASK_NOT_READY', `You are working on ${own}; an agent takes one task at a time, so ${ref} is not yours to take now.`, `Finish ${own} first with ${refTo('task.done', { task_id: own })} (or report it blocked with ${refTo('task.block', { task_id: own })}), then take the next with ${refTo('task.next')}.`);
  }
  moveTask(task, ref, 'in_progress', actor, 'agent', now);
  return true;
}
