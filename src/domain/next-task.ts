/** Which task an agent gets next. Pure: the operation runs it inside the board lock and claims the result. */
import { isHeld, PRIORITY_RANK, type TaskState } from './model.js';
import { dependenciesDone } from './task-rules.js';

export interface WorkPool<T extends TaskState = TaskState> {
  changeId: string;
  /** The change's tasks in file order. */
  tasks: T[];
  /** False while the change's task list waits for a person's approval, or its proposal or spec holds it back: its tasks are not handed out. */
  open: boolean;
  /** Closed because of the change's proposal or spec (rejected, unreadable, awaiting approval), not its task list. */
  waitsOnDocuments?: boolean;
}

export interface NothingReasons {
  waiting_on_dependencies: number;
  held_by_others: number;
  in_review: number;
  blocked: number;
  awaiting_approval: number;
  waiting_on_documents: number;
}

export type Selection<T extends TaskState = TaskState> = { kind: 'claim'; changeId: string; task: T } | { kind: 'none'; reasons: NothingReasons };

export function isReady(task: TaskState, byId: Map<string, Pick<TaskState, 'status'>>): boolean {
  return task.status === 'todo' && !isHeld(task) && dependenciesDone(task, byId);
}

/** The agent's own task in progress, which it gets back before anything else. */
export function ownTaskInProgress<T extends TaskState>(agentId: string, pools: WorkPool<T>[]): { pool: WorkPool<T>; task: T } | null {
  for (const pool of pools) {
    const task = pool.tasks.find((t) => t.assignee === agentId && t.status === 'in_progress');
    if (task) return { pool, task };
  }
  return null;
}

const TOP_RANK = Math.max(...Object.values(PRIORITY_RANK));

/**
 * The best ready task: highest priority first, then the most of the agent's skills, then board
 * order. Pools are taken in order, and no further once a task nothing can beat is found (urgent,
 * with every skill the agent has): they may be read as they are reached.
 */
export function selectTask<T extends TaskState>(skills: string[], pools: Iterable<WorkPool<T>>): Selection<T> {
  const wanted = new Set(skills.map((s) => s.toLowerCase()));
  const reasons: NothingReasons = { waiting_on_dependencies: 0, held_by_others: 0, in_review: 0, blocked: 0, awaiting_approval: 0, waiting_on_documents: 0 };
  let best: { pool: WorkPool<T>; task: T; rank: number; skill: number } | null = null;
  for (const pool of pools) {
    // Looked up only for tasks that have dependencies (this loop sees every task of the board).
    let tasksById: Map<string, T> | null = null;
    const byId = () => (tasksById ??= new Map(pool.tasks.map((t) => [t.id, t])));
    for (const task of pool.tasks) {
      if (task.status === 'done') continue;
      if (task.status === 'in_review') reasons.in_review++;
      else if (task.status === 'blocked') reasons.blocked++;
      // A task in progress is someone's, even when a hand edit left it without an assignee.
      else if (task.status !== 'todo' || isHeld(task)) reasons.held_by_others++;
      else if (!pool.open) reasons[pool.waitsOnDocuments ? 'waiting_on_documents' : 'awaiting_approval']++;
      else if (task.depends.length > 0 && !dependenciesDone(task, byId())) reasons.waiting_on_dependencies++;
      else {
        const rank = PRIORITY_RANK[task.priority];
        if (best && rank < best.rank) continue;
        const skill = wanted.size === 0 ? 0 : task.skills.filter((s) => wanted.has(s.toLowerCase())).length;
        // Strictly better only: ties keep the earlier change and the earlier task.
        if (!best || rank > best.rank || (rank === best.rank && skill > best.skill)) best = { pool, task, rank, skill };
        if (best.rank === TOP_RANK && best.skill === wanted.size) return { kind: 'claim', changeId: pool.changeId, task };
      }
    }
  }
  if (best) return { kind: 'claim', changeId: best.pool.changeId, task: best.task };
  return { kind: 'none', reasons };
}
