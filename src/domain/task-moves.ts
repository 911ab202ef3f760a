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

export function moveTask(task: Task, ref: string, to: TaskStatus, actor: string, role: Role, now: string, details: MoveDetails = {}): void {
  const from = task.status;
  const needed = roleFor(TASK_MOVES, from, to);
  if (needed === null || !roleAllows(role, needed)) {
    const allowed = movesFrom(TASK_MOVES, from, role);
    fail(
      'INVALID_TRANSITION',
      `Task ${ref} is ${from}; ${needed === null ? `a task cannot go from ${from} to ${to}` : `only a person can move it to ${to}`}.`,
      allowed.length > 0 ? `From ${from} you can move it to: ${allowed.join(', ')}.` : `Nothing can change a ${from} task${role === 'human' ? '' : ' except a person'}; find other work with ${refTo(['task.next', 'change.list'])}.`,
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
      if (!isHeld(task)) task.assignee = actor;
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
