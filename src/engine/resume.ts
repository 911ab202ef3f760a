/**
 * Before a run starts: another run of the same change that is still going refuses this one; a run
 * that died (kill -9, a crash) left agents that may still be running, claims nobody will finish and
 * a review key still valid. Its agents are stopped, its claims released with the reason noted, its
 * review key revoked, and its record closed.
 */
import { hostname } from 'node:os';
import { nowIso } from '../clock.js';
import { fail } from '../errors.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { invocationPaths, listRuns, readInvocations, runDir, runState, writeJson, type RunRecord } from '../store/runs.js';
import type { BoardOps } from './board-ops.js';
import { stopProcessesOfRun } from './processes.js';
import type { Git } from './git.js';
import { reviewKeyName } from '../ops/reviewer-keys.js';
import { unlinkQuietly } from '../store/fs.js';
import type { RunAgents } from './settings.js';
import { LIMITS } from '../domain/limits.js';

/** A commit of what a dead run's agent left in its task's worktree. */
export interface Kept {
  task_id: string;
  agent_id: string;
  commit: string;
}

/** What a dead run's agent left in its task's worktree that git refused to commit: what git said, and the commands that commit it by hand. */
export interface Refused {
  task_id: string;
  agent_id: string;
  refused: string;
  command: string;
}

/** The review key of a dead run, revoked. */
export interface Revoked {
  run_id: string;
  name: string;
}

export interface Released {
  task_id: string;
  agent_id: string;
  reason: string;
}

export function runsOf(runtimeDir: string, changeId: string): RunRecord[] {
  return listRuns(runtimeDir).filter((r) => r.change_id === changeId);
}

export function refuseIfRunning(runs: RunRecord[]): void {
  const live = runs.find((r) => runState(r) === 'running');
  if (live) {
    fail('RUN_REFUSED', `Run ${live.run_id} is already running change ${live.change_id} (process ${live.pid} on ${live.host === hostname() ? 'this machine' : live.host}).`, 'Wait for it to end, or stop it with Ctrl-C (or kill its process); `agentboard status` shows running runs.');
  }
}

/** The goal of the latest run of the change that had one: a resumed run plans with it. */
export function lastGoal(runs: RunRecord[]): string | null {
  return runs.find((r) => r.goal)?.goal ?? null;
}

/**
 * Cleans up after the dead runs of the change. `ownWorkers` are this run's worker ids: a claim made
 * by one of them just before a kill -9 may not be in the dead run's record yet, and nobody else
 * uses those ids.
 */
export async function cleanUpDeadRuns(ops: BoardOps, runtimeDir: string, runs: RunRecord[], changeId: string, ownWorkers: string[], runId: string, git: Git | null = null): Promise<{ released: Released[]; kept: Kept[]; refused: Refused[]; revoked: Revoked[] }> {
  const dead = runs.filter((r) => runState(r) === 'died');
  for (const run of dead) stopProcessesOfRun('SIGKILL', run.run_id);
  // Runs that ended leaving claims for a person to look at (a task list edited by hand during a turn): going on takes them back.
  const left = runs.filter((r) => r.change_id === changeId && runState(r) === 'ended' && r.claims.length > 0);
  const earlier = [...dead, ...left];
  // A worker of a run of the change that ended holds nothing with no run going: a task it still
  // holds in progress (a blocker a person cleared since, say) is taken back, whoever this run's workers are.
  const ended = runs.filter((r) => r.change_id === changeId && runState(r) === 'ended');
  const workers = new Set([...ownWorkers, ...[...dead, ...ended].flatMap((r) => r.agents.workers)]);
  const claimed = new Set(earlier.flatMap((r) => r.claims));
  const tasks = await ops.fullTasks(changeId);
  // What the dead run's agents left uncommitted in their worktrees (agents it started may have
  // finished their tasks after it died) is committed on the tasks' branches, as at the end of a turn.
  const kept: Kept[] = [];
  const refused: Refused[] = [];
  for (const t of git ? tasks : []) {
    if (!claimed.has(t.task_id) && !(t.assignee && workers.has(t.assignee))) continue;
    const local = String(t.task_id).slice(changeId.length + 1);
    const worktree = git!.worktreeOf(changeId, local);
    if (!existsSync(join(worktree, '.git'))) continue;
    // A worktree off its task's branch keeps what is in it for a person (work.ts sayOffBranch): committing there would take it further from the branch.
    if (await git!.offBranch(changeId, local)) continue;
    const from = earlier.find((r) => r.claims.includes(t.task_id))?.run_id ?? 'a run that died';
    const author = t.assignee ?? 'agentboard';
    const left = await git!.commitLeftovers(worktree, author, `${t.task_id}: ${t.title}\n\nLeft uncommitted by ${author} when run ${from} stopped; committed by agentboard run ${runId}.`);
    if (left && 'commit' in left) kept.push({ task_id: t.task_id, agent_id: author, commit: left.commit });
    else if (left) refused.push({ task_id: t.task_id, agent_id: author, ...left });
  }
  const released: Released[] = [];
  for (const t of tasks) {
    // A task its worker reported blocked waits for a person to clear the blocker or release it: no stray claim, unless a dead run held it.
    const held = t.assignee && (t.status === 'in_progress' || (t.status === 'blocked' && claimed.has(t.task_id)));
    if (!held || !(workers.has(t.assignee) || claimed.has(t.task_id))) continue;
    const from = [...earlier, ...ended].find((r) => r.claims.includes(t.task_id) || r.agents.workers.includes(t.assignee));
    const gone = from && dead.includes(from) ? 'stopped before finishing it (its process is gone)' : 'ended and left it claimed';
    const reason = from ? `run ${from.run_id} ${gone}; released by run ${runId}` : `held by ${t.assignee}, a worker of this run, with no run going; released by run ${runId}`;
    await ops.release(t.task_id, reason);
    released.push({ task_id: t.task_id, agent_id: t.assignee, reason });
  }
  const revoked: Revoked[] = [];
  for (const run of dead) {
    // The review key it made for its reviewer would otherwise stay valid for good.
    let revokedKey = false;
    if (run.agents.reviewer) {
      const name = reviewKeyName(run.agents.reviewer, run.run_id);
      revokedKey = (await ops.revokeReviewKey(name)) !== null;
      if (revokedKey) revoked.push({ run_id: run.run_id, name });
    }
    // Its invocations without an end were cut off with it; their prompt files with a secret go.
    const dir = runDir(runtimeDir, run.run_id);
    for (const inv of readInvocations(runtimeDir, run.run_id)) {
      unlinkQuietly(invocationPaths(dir, inv.n).agentPrompt);
      if (inv.ended_at === null) writeJson(invocationPaths(dir, inv.n).record, { ...inv, ended_at: nowIso(), signal: 'SIGKILL' });
    }
    writeJson(join(dir, 'run.json'), { ...run, outcome: 'interrupted', ended_at: nowIso(), claims: [], message: `The run's process died before it ended; run ${runId} stopped its agents and released its claims${revokedKey ? ', and revoked its review key' : ''}.` });
  }
  // The claims an ended run left are taken back: its record no longer names them.
  for (const run of left) writeJson(join(runDir(runtimeDir, run.run_id), 'run.json'), { ...run, claims: [] });
  return { released, kept, refused, revoked };
}

const OPEN_WORK = new Set(['in_progress', 'blocked', 'in_review']);

/**
 * The runs of different changes at once give their workers distinct ids: a worker whose id has work
 * open in another change (a task in progress, blocked or in review) or works for a live run of
 * another change is named for this change (`claude-w1.add-search`), so that one id never holds two
 * tasks and neither run's worker can take the other's. A resumed run keeps the name its tasks here
 * are held under. Returns the ids settled here (held by their tasks here, or named for this change
 * already), which `besideLiveRuns` leaves as they are.
 */
export async function distinctWorkers(ops: BoardOps, agents: RunAgents, changeId: string): Promise<Set<string>> {
  const open = async (id: string) => ((await ops.run('task.list', { assignee: id })).tasks as { task_id: string; status: string }[]).filter((t) => OPEN_WORK.has(t.status));
  const here = (tasks: { task_id: string }[]) => tasks.some((t) => t.task_id.startsWith(`${changeId}/`));
  const settled = new Set<string>();
  for (const worker of agents.workers) {
    const named = namedFor(worker.id, changeId);
    if (here(await open(named))) worker.id = named;
    else {
      const plain = await open(worker.id);
      if (here(plain)) settled.add(worker.id);
      else if (plain.length > 0) worker.id = named;
    }
    if (worker.id === named) settled.add(named);
  }
  return settled;
}

/**
 * The other half of `distinctWorkers`, called under the board lock where the run is recorded: a
 * worker id a live run of another change works under is named for this change. Under the lock, of
 * two runs started at the same instant the second sees the first's record, however close together
 * they started.
 */
export function besideLiveRuns(runtimeDir: string, agents: RunAgents, changeId: string, settled: Set<string>): void {
  const others = listRuns(runtimeDir).filter((r) => r.change_id !== changeId && runState(r) === 'running');
  for (const worker of agents.workers) {
    if (!settled.has(worker.id) && others.some((r) => r.agents.workers.includes(worker.id))) worker.id = namedFor(worker.id, changeId);
  }
}

function namedFor(id: string, changeId: string): string {
  return `${id}.${changeId}`.slice(0, LIMITS.agentIdMax).replace(/[._-]+$/, '');
}
