/**
 * The git worktrees `agentboard run` made for a change's tasks (on branches
 * agentboard/<change_id>/<task_id>), let go once the change is archived: each worktree git can
 * remove as it is (nothing uncommitted in it) goes; its branch, which holds the task's commits,
 * stays. A worktree with work left in it is kept and named, for a person to look at.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface LetGo {
  removed: string[];
  kept: { path: string; reason: string }[];
}

function git(cwd: string, args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { ok: r.status === 0, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** Removes the worktrees of a change's tasks that hold nothing uncommitted; `root` is any folder of the repository. */
export function letGoOfWorktrees(root: string, changeId: string): LetGo {
  const out: LetGo = { removed: [], kept: [] };
  const list = git(root, ['worktree', 'list', '--porcelain']);
  if (!list.ok) return out; // no git, or not a repository: no worktrees either
  const prefix = `branch refs/heads/agentboard/${changeId}/`;
  const folders = new Set<string>();
  for (const entry of list.stdout.split('\n\n')) {
    const lines = entry.split('\n');
    const path = lines.find((l) => l.startsWith('worktree '))?.slice('worktree '.length);
    if (!path || !lines.some((l) => l.startsWith(prefix))) continue;
    const removed = git(root, ['worktree', 'remove', path]);
    if (removed.ok) {
      out.removed.push(path);
      folders.add(dirname(path));
    } else {
      out.kept.push({ path, reason: removed.stderr.trim().split('\n').pop()?.replace(/^fatal: /, '') || 'git could not remove it' });
    }
  }
  // The change's folder of worktrees goes with its last worktree.
  for (const folder of folders) {
    try {
      if (readdirSync(folder).length === 0) rmdirSync(folder);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return out;
}
