/** Moving a task between states: the table decides what is allowed, this decides what each move records. */
import { fail } from '../errors.js';
import { movesFrom, roleAllows, roleFor, TASK_MOVES, type Role } from './lifecycle.js';
import { isHeld, TASK_CLAIM_FIELDS, type BlockerSeverity, type Task, type TaskStatus } from './model.js';
import { refTo } from './refs.js';

export interface MoveDetails {
  reason?: string;
  severity?: BlockerSeverity;
  summary?: string;
  pr_url?: string;
}

function clearClaim(task: Task): void {
  for (const key of TASK_CLAIM_FIELDS) delete task[key];
}

function resolveBlockers(task: Task, actor: string, now: string): void {
  for (const b of task.blockers) {
    if (!b.resolved_at) {
      b.resolved_by = actor;
      b.resolved_at = now;
    }
  }
}

/** Whether `role` may make the move from `from` to `to`. */
function mayMove(role: Role, from: TaskStatus, to: TaskStatus): boolean {
  const needed = roleFor(TASK_MOVES, from, to);
  return needed !== null && roleAllows(role, needed);
}

/** The call that makes a move of the task `ref`, for next steps. */
function callFor(from: TaskStatus, to: TaskStatus, ref: string): string {
  switch (to) {
    case 'in_progress':
      return from === 'blocked' ? refTo('task.unblock', { task_id: ref }) : refTo('task.update', { task_id: ref, status: to });
    case 'blocked':
      return refTo('task.block', { task_id: ref });
    case 'in_review':
      return refTo('session.submit', { tasks: [ref] });
    case 'done':
      return refTo(from === 'in_review' ? 'task.approve' : 'task.done', { task_id: ref });
    case 'todo':
      return refTo(from === 'in_review' ? 'task.reject' : 'task.release', { task_id: ref });
  }
}

/** The next step of a move refused: the calls that lead to `to`, else those the role can make from `from`. */
function stepsFrom(from: TaskStatus, to: TaskStatus, ref: string, role: Role): string {
  const allowed = movesFrom(TASK_MOVES, from, role);
  if (allowed.length === 0) return `Nothing can change a ${from} task${role === 'human' ? '' : ' except a person'}; find other work with ${refTo(['task.next', 'change.list'])}.`;
  const via = allowed.find((s) => s !== to && mayMove(role, s, to));
  if (via) return `Move it to ${via} with ${callFor(from, via, ref)} first, then to ${to} with ${callFor(via, to, ref)}.`;
  const person = roleFor(TASK_MOVES, from, to) === 'human' ? `A person moves it to ${to} with ${callFor(from, to, ref)}; you can move it ` : 'From here you can move it ';
  return `${person}to ${allowed.map((s) => `${s} with ${callFor(from, s, ref)}`).join(', or ')}.`;
}

export function moveTask(task: Task, ref: string, to: TaskStatus, actor: string, role: Role, now: string, details: MoveDetails = {}): void {
  const from = task.status;
  const needed = roleFor(TASK_MOVES, from, to);
  if (needed === null || !roleAllows(role, needed)) {
    fail(
      'INVALID_TRANSITION',
      `Task ${ref} is ${from}; ${needed === null ? `a task cannot go from ${from} to ${to}` : `only a person can move it to ${to}`}.`,
      stepsFrom(from, to, ref, role),
    );
  }
  switch (to) {
    case 'in_progress':
      if (from === 'todo') {
        task.assignee = actor;
        task.claimed_at = now;
      } else {
        resolveBlockers(task, actor, now);
      }
      break;
    case 'blocked':
      task.blockers.push({ reason: details.reason ?? 'no reason given', severity: details.severity ?? 'medium', by: actor, at: now });
      break;
    case 'in_review':
      task.submitted_at = now;
      if (details.summary !== undefined) task.submission = details.summary;
      if (details.pr_url !== undefined) task.pr_url = details.pr_url;
      break;
    case 'done':
      // Work a person approves from review stays its holder's; otherwise whoever marks a task done is
      // recorded as doing it. A person finishing a task an agent holds ends the agent's claim, and a
      // note of theirs keeps who worked on it.
      if (from !== 'in_review' || !isHeld(task)) {
        if (isHeld(task) && task.assignee !== actor) {
          task.notes.push({ author: actor, at: now, text: `Marked done while ${task.assignee} held it (claimed ${task.claimed_at ?? 'earlier'}).` });
          delete task.claimed_at;
        }
        task.assignee = actor;
      }
      task.completed_at = now;
      task.progress = 100;
      task.progress_at = now;
      resolveBlockers(task, actor, now);
      break;
    case 'todo':
      clearClaim(task);
      resolveBlockers(task, actor, now);
      break;
  }
  task.status = to;
}
