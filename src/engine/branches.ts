/**
 * A done task's work is on its branch, which the run merges (--merge) and shows the reviewer. A done
 * task whose branch this repository lacks would be left out of both without a word, so the run
 * checks before either and stops for a person instead. A task done without a branch (by hand) has
 * no work here to miss.
 */
import type { Data } from './board-ops.js';
import { emit, stop, type RunContext, type Stop } from './context.js';
import { Git as RemoteGit } from '../store/remote/git.js';
import { shellWord } from '../shell.js';

/** What came of fetching the missing branches from the board's remote: those fetched, and what git said when it could not ask or fetch. */
interface Fetched {
  fetched: string[];
  failed: string | null;
}

/**
 * Of `branches`, those the remote has, fetched here under their own names (none of them is here, so
 * nothing is replaced). Each is named: a pattern would also fetch into the change's branches checked
 * out in this clone's worktrees, which git refuses, fetching nothing.
 */
function fetchFrom(root: string, remote: string, branches: string[]): Fetched {
  const git = new RemoteGit(root);
  const said = (stderr: string) => stderr.trim().split('\n').pop() || 'git exited with an error';
  const listed = git.run(['ls-remote', '--heads', remote, ...branches.map((b) => `refs/heads/${b}`)], { network: true });
  if (listed.code !== 0) return { fetched: [], failed: said(listed.stderr) };
  const there = listed.stdout
    .toString('utf8')
    .split('\n')
    .map((line) => line.split('\t')[1]?.slice('refs/heads/'.length))
    .filter((b): b is string => b !== undefined && branches.includes(b));
  if (there.length === 0) return { fetched: [], failed: null };
  const fetched = git.run(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote, ...there.map((b) => `refs/heads/${b}:refs/heads/${b}`)], { network: true });
  return fetched.code === 0 ? { fetched: there, failed: null } : { fetched: [], failed: said(fetched.stderr) };
}

function listed(tasks: Data[]): string {
  return tasks.map((t) => `${t.task_id} (${t.branch}${t.assignee ? `, done by ${t.assignee}` : ''})`).join(', ');
}

/**
 * Done tasks another clone's run did (their start is not recorded here): their branches are in that
 * clone, as a run pushes no task branch and the board records only their names. On a shared
 * board the run fetches those the remote has; the stop names the others and where they were done.
 */
async function elsewhere(ctx: RunContext, tasks: Data[]): Promise<{ left: Data[]; said: string; steps: string[] } | null> {
  const remote = ctx.ops.board.config.remote;
  const tried = remote === undefined ? null : fetchFrom(ctx.root, remote, tasks.map((t) => t.branch));
  if (tried && tried.fetched.length > 0) {
    emit(ctx, { type: 'notice', message: `Fetched from ${remote} the branch${tried.fetched.length === 1 ? '' : 'es'} of work another clone's run did: ${tried.fetched.join(', ')}.` });
  }
  const left = tasks.filter((t) => !tried?.fetched.includes(t.branch));
  if (left.length === 0) return null;
  const one = left.length === 1;
  const where = ctx.clone ? ` (a worker's id ends with the tag of its clone; this clone's is ${ctx.clone})` : '';
  const fromRemote = !tried ? '' : tried.failed ? `; fetching ${one ? 'it' : 'them'} from ${remote} failed: ${tried.failed}` : `; ${remote} does not have ${one ? 'it' : 'them'} either`;
  const to = remote ?? 'origin';
  const pattern = `refs/heads/agentboard/${ctx.changeId}/*`;
  return {
    left,
    said: `${listed(left)} ${one ? 'was' : 'were'} done in another clone${where}, and ${one ? 'its branch is' : 'their branches are'} not in this repository: a run pushes no task branch${fromRemote}`,
    steps: [
      `git push ${to} '${pattern}:${pattern}'   # in each clone where ${[...new Set(left.map((t) => t.assignee).filter(Boolean))].join(', ') || 'they were done'} ran: it puts the change's task branches on ${to}`,
      `git fetch ${to} ${left.map((t) => shellWord(`${t.branch}:${t.branch}`)).join(' ')}   # then here${remote === undefined ? '' : ` (the run fetches them itself from ${remote})`}`,
    ],
  };
}

/**
 * Null when every done task's branch is here (fetched from a shared board's remote if need be);
 * otherwise how the run stops, before it merges or starts the reviewer: a branch a run of this
 * repository made and lost (deleted, renamed) is given back from its commit, one done in another
 * clone is pushed from there and fetched here.
 */
export async function missingBranches(ctx: RunContext): Promise<Stop | null> {
  const git = ctx.git;
  if (!git) return null;
  const branched = (await ctx.ops.fullTasks(ctx.changeId)).filter((t) => t.status === 'done' && t.branch);
  const gone: Data[] = [];
  const others: Data[] = [];
  for (const t of branched) {
    if (!(await git.branchExists(t.branch))) ((await git.startedHere(ctx.changeId, t.id)) ? gone : others).push(t);
  }
  const away = others.length === 0 ? null : await elsewhere(ctx, others);
  // A branch another clone made (fetched just now, or by a person) gets its start here before a merge.
  for (const t of branched) {
    if ((await git.branchExists(t.branch)) && !(await git.startedHere(ctx.changeId, t.id))) await git.keepStart(ctx.changeId, t.id);
  }
  if (gone.length === 0 && !away) return null;
  const said = [...(gone.length > 0 ? [`The branch of ${listed(gone)} is gone`] : []), ...(away ? [away.said] : [])];
  const one = gone.length + (away?.left.length ?? 0) === 1;
  return stop('failed', `${said.join('; ')}. The run merges and reviews a task's work from its branch, so it merges nothing and starts no reviewer without ${one ? 'it' : 'them'}.`, [
    ...gone.map((t) => `git branch ${t.branch} <commit>   # the commit with the work of ${t.task_id} (\`git reflog\` shows where it was)`),
    ...(away?.steps ?? []),
    `agentboard run ${ctx.changeId}${ctx.options.merge ? ' --merge' : ''}   # then go on`,
  ]);
}
