/**
 * --merge: the finished tasks' branches are merged into the current branch in dependency order
 * (a task after the tasks it depends on, otherwise in the order of tasks.md). A branch already
 * merged is skipped, so merging again after a fix round merges only what is new. The first
 * conflict stops the merging, with the branch and files named; nothing of that branch is merged.
 */
import type { Data } from './board-ops.js';
import { join } from 'node:path';
import { missingBranches } from './branches.js';
import { emit, fromCwd, stop, type RunContext, type Stop } from './context.js';
import { governingFiles } from './guard.js';
import { shellWord } from '../shell.js';

/** The board's folders of documents, with what they hold, which no task's branch may change. */
const BOARD_FOLDERS: [string, string][] = [
  ['changes', "what the board's documents say (the tasks, their states and who did them)"],
  ['archive', "what the board's archived changes say"],
];

/** The board's folder of the run's own prompts (agentd/prompts/), which a person may keep a branch's change of, as of the governing files. */
const PROMPTS: [string, string] = ['prompts', "what the run tells each phase's agents (the board's own prompts)"];

export function dependencyOrder(tasks: Data[]): Data[] {
  const byId = new Map(tasks.map((t) => [t.id as string, t]));
  const placed = new Set<string>();
  const out: Data[] = [];
  const visiting = new Set<string>();
  const place = (t: Data) => {
    if (placed.has(t.id) || visiting.has(t.id)) return;
    visiting.add(t.id);
    for (const d of t.depends as string[]) {
      const dep = byId.get(d);
      if (dep) place(dep);
    }
    visiting.delete(t.id);
    placed.add(t.id);
    out.push(t);
  };
  for (const t of tasks) place(t);
  return out;
}

export async function mergeFinished(ctx: RunContext): Promise<Stop | null> {
  const git = ctx.git;
  if (!ctx.options.merge || !git) return null;
  // A done task's work this repository lacks would be left out of the merge without a word.
  const missing = await missingBranches(ctx);
  if (missing) return missing;
  let looked = false;
  for (const t of dependencyOrder(await ctx.ops.fullTasks(ctx.changeId))) {
    if (t.status !== 'done' || !t.branch) continue;
    if (!(await git.branchExists(t.branch)) || (await git.isMerged(t.branch))) continue;
    // The board's documents too: they change only through agentboard, in the repository's own board, never on a branch.
    const guarded = [...governingFiles(), PROMPTS, ...BOARD_FOLDERS];
    const touched = await git.branchChanges(t.branch, guarded.map(([name]) => name));
    if (touched.length > 0) {
      const touches = (names: [string, string][]) => names.filter(([name]) => touched.some((f) => f.endsWith(`agentd/${name}`) || f.includes(`agentd/${name}/`)));
      const decides = touches(guarded).map(([, what]) => what);
      // The board's documents are the run's, changed in the working tree: a merge that changes them cannot start, and no agent's version of them is kept.
      const documents = touches(BOARD_FOLDERS).length > 0;
      const base = (await git.run(['merge-base', 'HEAD', t.branch])).stdout.trim();
      const worktree = shellWord(git.worktreeOf(ctx.changeId, String(t.task_id).slice(ctx.changeId.length + 1)));
      return stop('failed', `${t.branch} (${t.task_id}) changes ${touched.join(' and ')}, which decide${touched.length === 1 ? 's' : ''} ${decides.join(', and ')}; no agent may change ${touched.length === 1 ? 'it' : 'them'}, so the run merges the branch only once a person has: nothing of it, and no branch after it, was merged.`, [
        `git diff HEAD...${t.branch} -- ${touched.map((f) => shellWord(fromCwd(join(git.top, f)))).join(' ')}   # what it changes`,
        ...(documents ? [] : [`git merge ${t.branch}   # if you keep its change`]),
        `git -C ${worktree} restore --source=${base} --staged --worktree -- ${touched.map(shellWord).join(' ')} && git -C ${worktree} commit -q -m "Leave the board's files as they are"   # ${documents ? 'take' : 'or take'} its change of ${touched.length === 1 ? 'it' : 'them'} out of the branch; the rest of its work stays`,
        `agentboard run ${ctx.changeId} --merge   # then merge the rest`,
      ]);
    }
    if (!looked) {
      looked = true;
      // A CI checkout often is: the merges are then made on no branch, which the next checkout leaves behind.
      if (!(await git.run(['symbolic-ref', '-q', 'HEAD'])).ok) {
        emit(ctx, { type: 'notice', message: 'HEAD is detached: the task branches are merged onto no branch, and a checkout of another commit leaves those merges behind. To keep them on a branch: git switch -c <branch>' });
      }
    }
    // A file the branch brings that the working tree has untracked, or ignored (a person's local
    // secrets, say), would be replaced by the merge without a word: it is moved aside by a person first.
    const incoming = (await git.run(['diff', '--name-only', '-z', '--no-renames', '--diff-filter=ACMRT', `HEAD...${t.branch}`])).stdout.split('\0').filter(Boolean);
    const inTheWay = incoming.length === 0 ? [] : (await git.run(['ls-files', '--others', '-z', '--', ...incoming.map((f) => `:(literal)${f}`)])).stdout.split('\0').filter(Boolean);
    if (inTheWay.length > 0) {
      const shown = inTheWay.map((f) => shellWord(fromCwd(join(git.top, f))));
      return stop('failed', `${t.branch} (${t.task_id}) brings ${inTheWay.join(', ')}, which ${inTheWay.length === 1 ? 'is' : 'are'} in the working tree but not in git (untracked or ignored): the merge would replace ${inTheWay.length === 1 ? 'it' : 'them'}, so nothing of the branch, and no branch after it, was merged.`, [
        `mv ${shown[0]} ${shown[0]}.mine   # move ${inTheWay.length === 1 ? 'it' : 'each'} aside (or delete ${inTheWay.length === 1 ? 'it' : 'them'} if the branch's version is to be kept)`,
        `git diff HEAD...${t.branch} -- ${shown.join(' ')}   # what the branch puts there`,
        `agentboard run ${ctx.changeId} --merge   # then merge`,
      ]);
    }
    const merged = await git.merge(t.branch, `Merge ${t.branch}: ${t.title}`);
    if (merged.ok) {
      emit(ctx, { type: 'merge.done', phase: 'review', task_id: t.task_id, branch: t.branch });
      continue;
    }
    emit(ctx, { type: 'merge.conflict', phase: 'review', task_id: t.task_id, branch: t.branch, files: merged.files, message: merged.message });
    const where = merged.files.length > 0 ? `conflicts in ${merged.files.map(shellWord).join(', ')}` : `failed: ${merged.message}`;
    return stop('failed', `Merging ${t.branch} (${t.task_id}) into the current branch ${where}; nothing of it was merged, and the branches after it were not merged either.`, [
      `git merge ${t.branch}   # resolve it by hand`,
      `agentboard run ${ctx.changeId} --merge   # then merge the rest`,
    ]);
  }
  return null;
}
