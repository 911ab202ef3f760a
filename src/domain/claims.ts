/** How long a claimed task has gone without a sign of life from its holder. */
import type { Task } from './model.js';

/** When the holder last showed life on the task: the claim, a progress report, or a note of its own (ISO time). */
export function lastActivity(task: Pick<Task, 'assignee' | 'claimed_at' | 'progress_at' | 'notes'>): string {
  const own = task.notes.filter((n) => n.author === task.assignee).map((n) => n.at);
  return [task.claimed_at ?? '', task.progress_at ?? '', ...own].sort().pop()!;
}
