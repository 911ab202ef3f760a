/**
 * The claim rules, in one place for every path that changes a task's state: `next`, completing,
 * progress, blockers, submitting for review and status changes. An agent works on a task it holds;
 * a task nobody holds is first claimed under the rules `next` applies (its task list is open, its
 * dependencies are done); a task another agent holds, or one waiting for a person's review, is not
 * the agent's to change. Planning is the one exception: the agent that wrote a task list changes or
 * deletes its tasks nobody works on yet without taking them. Pure: the operations run these inside
 * the board lock.
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

/** The verb of adding a note, for assertMayTouch. */
export const NOTE = 'add a note to';

/** Refuses to let an agent touch a task another agent holds, or one a person is reviewing; people may. */
export function assertMayTouch(task: Task, ref: string, actor: string, verb: string): void {
  if (isHuman(actor)) return;
  if (isHeld(task) && task.assignee !== actor) {
    // A note is for those after the holder (a reviewer's, say): it waits until the task is done, as finding other work does not help it.
    const instead =
      verb === NOTE
        ? `Add your note once ${task.assignee} has finished it (${refTo('task.show', { task_id: ref })} says when), or, if it cannot wait, ask a person with ${refTo('input.ask')}.`
        : `Find a task of your own with ${refTo(['task.next', 'task.list'], { status: 'pending' })}.`;
    fail('TASK_HELD', `Task ${ref} is held by ${task.assignee} (since ${task.claimed_at ?? 'earlier'}); you cannot ${verb} it.`, `${instead} If the holder is gone, a person can release the task with ${refTo('task.release', { task_id: ref })}.`);
  }
  if (task.status === 'in_review') {
    fail('TASK_IN_REVIEW', `Task ${ref} was submitted and is awaiting review by a person; it cannot change until they decide.`, `Wait for the person's decision; ${refTo(['task.next', 'task.show'], { task_id: ref })} tells you when it is made.`);
  }
}

/** Whether the agent is planning the task: one of the list it wrote (`listAuthor`) that nobody works on yet. */
export function isPlanning(task: Task, actor: string, listAuthor: string): boolean {
  return task.status === 'todo' && actor === listAuthor;
}

/** Refuses any change to a done task by an agent, saying who completed it and what to do instead. */
export function refuseDone(task: Task, ref: string, actor: string, verb: string): never {
  const mine = task.assignee === actor;
  const by = mine ? 'you completed it' : task.assignee ? `${task.assignee} completed it` : 'it was completed';
  fail(
    'TASK_NOT_READY',
    `Task ${ref} is done: ${by}${task.completed_at ? ` at ${task.completed_at}` : ''}. A done task stays as it is, so you cannot ${verb} it.`,
    `${mine ? 'Nothing is left to do on it: leave it out, and take' : 'Find'} your next work with ${refTo(['task.next', 'task.list'], { status: 'pending' })}. If it must be worked again, ask a person to reopen it (${refTo('input.ask')}).`,
  );
}

/**
 * Before an agent deletes a task: only while planning (a task of the list it wrote that nobody works
 * on yet). A task another agent holds, one in review, a done task, the agent's own task in progress
 * and a task of another's list are refused with the rule and what to do instead. People may.
 */
export function assertMayDelete(task: Task, ref: string, actor: string, listAuthor: string): void {
  if (isHuman(actor) || isPlanning(task, actor, listAuthor)) return;
  assertMayTouch(task, ref, actor, 'delete');
  if (task.status === 'done') refuseDone(task, ref, actor, 'delete');
  if (isHeld(task)) {
    fail('TASK_IN_PROGRESS', `You are working on ${ref} (${task.status}); a task being worked on is not deleted.`, `Finish it with ${refTo('task.done', { task_id: ref })}, saying in a note why nothing more was needed; or ask a person to delete it (${refTo('input.ask')}).`);
  }
  fail(
    'TASK_NOT_YOURS',
    `Task ${ref} is in the task list ${listAuthor} wrote; an agent deletes only tasks of a list it wrote, before anyone works on them.`,
    `Leave it in the plan; if it should go, ask ${listAuthor} or a person to delete it (${refTo('input.ask')}).`,
  );
}

/**
 * Before an agent changes a task's state: the agent holds it already, or claims it now under the
 * claim rules (recorded as a claim). Returns true when this call claimed it. People act on any task.
 */
export function holdOrClaim(task: Task, ref: string, actor: string, now: string, rules: { byId: Map<string, Task>; listProblem: string | null; ownInProgress: () => string | null; awaitingReview: () => string | null }, verb: string): boolean {
  assertMayTouch(task, ref, actor, verb);
  if (isHuman(actor) || (isHeld(task) && task.assignee === actor)) return false;
  if (task.status === 'done') refuseDone(task, ref, actor, verb);
  if (task.status !== 'todo') {
    fail('TASK_NOT_READY', `Task ${ref} is ${task.status} and not held by you; you cannot ${verb} it.`, `Find a task of your own with ${refTo(['task.next', 'task.list'], { status: 'pending' })}.`);
  }
  const problem = claimProblem(task, rules.byId, rules.listProblem);
  if (problem) fail('TASK_NOT_READY', `Task ${ref} cannot be taken now: ${problem}.`, `Find a task that is ready with ${refTo(['task.next', 'task.list'], { ready: true })}.`);
  // Nothing new while the agent's submitted work waits for a person, as `next` hands out nothing then.
  const submitted = rules.awaitingReview();
  if (submitted !== null) {
    fail('TASK_NOT_READY', `Your submitted work (${submitted}) is awaiting review; nothing new is yours to take until a person decides, so ${ref} is not yours to take now.`, `Ask for work again later with ${refTo('task.next')}.`);
  }
  // One task at a time, as `next` hands them out: the agent finishes (or reports blocked) the one it works on first.
  const own = rules.ownInProgress();
  if (own !== null) {
    fail('TASK_NOT_READY', `You are working on ${own}; an agent takes one task at a time, so ${ref} is not yours to take now.`, `Finish ${own} first with ${refTo('task.done', { task_id: own })} (or report it blocked with ${refTo('task.block', { task_id: own })}), then take the next with ${refTo('task.next')}.`);
  }
  moveTask(task, ref, 'in_progress', actor, 'agent', now);
  return true;
}
