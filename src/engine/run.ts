/**
 * `agentboard run`: drives a change through proposal → spec → tasks → work → review. The phase is
 * read from the board before every step, never kept by the run, so a run started again after any
 * stop continues where the files are.
 */
import { faultPoint } from '../clock.js';
import { forPerson } from '../render/person-refs.js';
import { RemoteFiles } from '../store/remote/state.js';
import { AgentboardError, fail } from '../errors.js';
import { shellWord } from '../shell.js';
import type { RunOutcome } from '../store/runs.js';
import { BoardOps, type Data } from './board-ops.js';
import { emit, interrupted, stop, type RunContext, type Stop } from './context.js';
import { RUN_PHASES, type RunView } from './events.js';
import { Git } from './git.js';
import { readGoverning } from './guard.js';
import { mergeFinished } from './merge.js';
import { nothingToPlan, pendingDecision, pendingGate, planPhase } from './planning.js';
import { newRunId, RunRecorder } from './record.js';
import { besideLiveRuns, cleanUpDeadRuns, distinctWorkers, lastGoal, refuseIfRunning, runsOf } from './resume.js';
import { reviewPhase, reviewRound } from './review.js';
import { maskDeep, runSecrets } from './secrets.js';
import { refuseMissingPrograms, resolveAgents, type RunOptions } from './settings.js';
import { sayCommitRefused, sayOffBranches, workPhase } from './work.js';

export const EXIT_CODES: Record<RunOutcome, number> = { finished: 0, waiting_on_person: 0, failed: 1, budget_exceeded: 1, interrupted: 130 };

export interface RunParams {
  options: RunOptions;
  root: string | undefined;
  person: string;
  /** bin/agentboard.js, which the agents' MCP servers run. */
  bin: string;
  /** Made once the run is sure to start, so that a refusal shows no live view first. */
  view: () => Promise<RunView>;
  signal: AbortSignal;
}

const ORDER = [...RUN_PHASES, 'done'];

/** The next step for the change as the board has it; null to go on, or how the run ends. */
async function step(ctx: RunContext): Promise<Stop | null> {
  const change = await ctx.ops.change(ctx.changeId);
  const phase: string = change?.phase ?? 'proposal';
  ctx.recorder.reached(phase);
  if (phase === 'review' || phase === 'done') {
    const conflict = await mergeFinished(ctx);
    if (conflict) return conflict;
  }
  // --until review is the default end: the APPROVED review, which a person decides on.
  const until = ctx.options.until === 'review' ? undefined : ctx.options.until;
  if (until && ORDER.indexOf(phase) > ORDER.indexOf(until)) return stop('finished', `Change ${ctx.changeId} is past ${until} (it is at ${phase}), where this run was asked to stop.`, await stepsFrom(ctx, phase));
  if (phase !== 'proposal' && phase !== 'spec' && phase !== 'tasks') {
    // Past planning, a revised document a person rejected before still waits for their decision.
    const decision = await pendingDecision(ctx, ['proposal', 'spec', 'tasks']);
    if (decision !== undefined) return decision;
  }
  switch (phase) {
    case 'proposal':
    case 'spec':
    case 'tasks':
      return planPhase(ctx, phase);
    case 'implementation':
      return workPhase(ctx);
    case 'review':
      return reviewPhase(ctx);
    case 'done': {
      const review = await ctx.ops.document(ctx.changeId, 'review');
      // A person rejected the approving review: the reviewer reviews again, with their feedback.
      if (review?.status === 'rejected') return reviewRound(ctx);
      return stop('finished', `Change ${ctx.changeId} is reviewed: the latest review round says APPROVED. Approving the review and archiving the change are a person's acts.`, doneSteps(ctx, review));
    }
    default:
      return stop('failed', `Change ${ctx.changeId} is ${phase}; there is nothing to run.`);
  }
}

/** A person's acts once the change is reviewed: approve the review (unless done), archive. */
function doneSteps(ctx: RunContext, review: Data | null): string[] {
  return review?.status === 'approved' ? [`agentboard archive ${ctx.changeId}`] : [`agentboard approve ${ctx.changeId} review`, `agentboard archive ${ctx.changeId}`];
}

/** What comes next for a change a run leaves at `phase` unworked (past --until): what it waits on a person for, or a run to go on. */
async function stepsFrom(ctx: RunContext, phase: string): Promise<string[]> {
  const pending = await pendingGate(ctx, ['proposal', 'spec', 'tasks']);
  if (pending) return [...pending.gate.commands, `agentboard run ${ctx.changeId}   # then go on`];
  if (phase === 'done') return doneSteps(ctx, await ctx.ops.document(ctx.changeId, 'review'));
  return [`agentboard run ${ctx.changeId}   # go on`];
}

async function drive(ctx: RunContext): Promise<Stop> {
  for (;;) {
    if (ctx.signal.aborted) return interrupted(ctx);
    if (ctx.halt) return ctx.halt;
    const halt = await step(ctx);
    if (halt) return halt;
  }
}

/** Releases what the run still holds (after Ctrl-C, a failure or a budget stop), so no claim outlives its run. */
async function releaseClaims(ctx: RunContext, outcome: RunOutcome): Promise<void> {
  const workers = new Set(ctx.agents.workers.map((w) => w.id));
  // A task list an agent edited by hand is left as it is for the person (releasing would merge the edit); the next run releases these claims.
  if (ctx.handEdited.has('tasks')) return;
  for (const ref of [...ctx.recorder.run.claims]) {
    const task = await ctx.ops.task(ref);
    if (task && (task.status === 'in_progress' || task.status === 'blocked') && workers.has(task.assignee)) {
      const reason = `run ${ctx.runId} ended ${outcome.replace(/_/g, ' ')} before the task was finished`;
      await ctx.ops.release(ref, reason);
      emit(ctx, { type: 'task.released', agent_id: task.assignee, role: 'worker', phase: 'implementation', task_id: ref, reason });
    }
    ctx.recorder.unclaim(ref);
  }
}

/**
 * The run's agents still working when it ends are done: no process of theirs is left. Their
 * sessions are completed (the board and the console stop showing them at work); a session waiting
 * on a person (a question, a review, a blocker) stays as it is, and so does every session of a run
 * stopped for a document edited by hand (the next run ends them).
 */
async function endSessions(ctx: RunContext, outcome: RunOutcome): Promise<void> {
  // A document an agent edited by hand is left as it is for the person: completing a session reads its agent's tasks, which would merge the edit.
  if (ctx.handEdited.size > 0) return;
  for (const agent of [ctx.agents.planner, ctx.agents.reviewer, ...ctx.agents.workers]) {
    const session = await ctx.ops.run('session.show', { agent_id: agent.id });
    if (session.status !== 'working') continue;
    try {
      await ctx.ops.run('session.status', { agent_id: agent.id, status: 'completed', message: `Run ${ctx.runId} ended (${outcome.replace(/_/g, ' ')}).` });
    } catch (err) {
      // An agent still holding a task in progress stays working: the next run takes its claim back.
      if (!(err instanceof AgentboardError && err.code === 'TASK_IN_PROGRESS')) throw err;
    }
  }
}

/** Syncs a shared board before the run reads it; offline, the run goes on from this clone's copy (its writes queue as any other). */
async function syncFirst(ops: BoardOps): Promise<void> {
  try {
    await ops.run('remote.sync', { agent_id: ops.person });
  } catch (err) {
    if (!(err instanceof AgentboardError && err.code === 'REMOTE_UNREACHABLE')) throw err;
  }
}

function failure(err: unknown): Stop {
  if (err instanceof AgentboardError) return stop('failed', err.message, [err.nextStep]);
  return stop('failed', `agentboard hit an unexpected error: ${(err as Error).message}`, ['Run the same command again; report it if it repeats (`agentboard runs` lists the runs, `agentboard runs show` followed by a run id shows its records).']);
}

/** Runs a change to its end, or to where it must stop; returns the exit code. */
export async function runChange(params: RunParams): Promise<number> {
  const { options } = params;
  const ops = new BoardOps(params.root, params.person);
  const board = ops.board;
  const clone = board.config.remote === undefined ? null : new RemoteFiles(board.runtimeDir, (p) => board.rel(p)).cloneId().slice(0, 4);
  const agents = resolveAgents(board.config, options, clone ?? undefined, (path) => board.settingAt(path));
  refuseMissingPrograms(agents, process.env, board.root);
  // On a shared board the run starts from the board as the remote has it: another clone may have planned or worked the change.
  if (board.config.remote !== undefined) await syncFirst(ops);
  const existing = await ops.change(options.changeId);
  if (existing?.phase === 'archived') {
    fail('CHANGE_ARCHIVED', `Change ${options.changeId} is archived (${existing.archived}): archived changes do not change, so a run has nothing to do on it.`, `Plan further work as a new change: agentboard run <new-change-id> --goal "<what it should do>".`);
  }
  const runs = runsOf(board.runtimeDir, options.changeId);
  refuseIfRunning(runs);
  const settled = await distinctWorkers(ops, agents, options.changeId);
  const goal = options.goal ?? lastGoal(runs);
  // Nothing to plan from: refused before a run is recorded or an agent started.
  const proposal = (existing?.document_files as Data[] | undefined)?.find((d) => d.document === 'proposal');
  if (!goal && (!proposal || proposal.status === 'template')) {
    const nothing = nothingToPlan(options.changeId);
    fail('RUN_REFUSED', nothing.message, `Give it one: ${nothing.command}.`);
  }
  let git: Git | null = null;
  let noGit: string | null = null;
  if (options.worktrees) {
    const opened = await Git.open(board.root, board.config.run?.worktrees, params.person);
    if (typeof opened === 'string') noGit = opened;
    else git = opened;
  }
  // Found before any agent works, not at the first merge after all their work.
  const dirty = options.merge && git ? await git.uncommitted() : [];
  if (dirty.length > 0) {
    fail('RUN_REFUSED', `--merge merges the tasks' branches into your current branch, and its working tree has changes not committed (${dirty.map(shellWord).join(', ')}).`, 'Commit or stash them (git stash), then run again; or run without --merge and merge the task branches yourself.');
  }
  const runId = newRunId();
  faultPoint('run:record');
  // Looked at again and recorded under the board lock, so that of two runs started at once, the
  // second sees the first however close together they started: a run of the same change is refused,
  // and a run of another change does not get its worker ids.
  const recorder = await board.locked(() => {
    refuseIfRunning(runsOf(board.runtimeDir, options.changeId));
    besideLiveRuns(board.runtimeDir, agents, options.changeId, settled);
    return new RunRecorder(board.runtimeDir, {
      run_id: runId,
      change_id: options.changeId,
      person: params.person,
      goal,
      phase: existing?.phase ?? 'proposal',
      agents: { planner: agents.planner.id, reviewer: agents.reviewer.id, workers: agents.workers.map((w) => w.id) },
      options: { ...options },
    });
  });
  faultPoint('run:recorded');
  const ctx: RunContext = {
    runId,
    root: board.root,
    changeId: options.changeId,
    person: params.person,
    agents,
    options,
    ops,
    recorder,
    view: await params.view(),
    signal: params.signal,
    bin: params.bin,
    git,
    clone,
    goal,
    reviewKey: null,
    governing: readGoverning(board.dir),
    handEdited: new Set(),
    halt: null,
  };
  emit(ctx, {
    type: 'run.started',
    phase: existing?.phase ?? 'proposal',
    change_id: options.changeId,
    person: params.person,
    agents: recorder.run.agents,
    options: { until: options.until ?? null, workers: agents.workers.length, max_attempts: options.maxAttempts, timeout_minutes: options.timeoutMinutes, max_cost: options.maxCost ?? null, wait: options.wait, merge: options.merge, worktrees: git ? git.worktreesDir : null },
  });
  if (noGit) emit(ctx, { type: 'notice', message: `Tasks share the working tree: ${noGit}.` });
  if (options.merge && !git) emit(ctx, { type: 'notice', message: '--merge does nothing without worktrees: there are no task branches to merge.' });

  let end: Stop;
  try {
    const { released, kept, refused, revoked } = await cleanUpDeadRuns(ops, board.runtimeDir, runs, options.changeId, recorder.run.agents.workers, runId, git);
    for (const k of kept) emit(ctx, { type: 'notice', message: `Committed what ${k.agent_id} left uncommitted in the worktree of ${k.task_id} when its run stopped (${k.commit.slice(0, 12)}).` });
    for (const r of refused) sayCommitRefused(ctx, r.task_id, r.agent_id, r);
    for (const r of revoked) emit(ctx, { type: 'notice', message: `Revoked the review key of run ${r.run_id} (reviewer ${r.name}): its process is gone.` });
    for (const r of released) {
      emit(ctx, { type: 'task.released', agent_id: r.agent_id, role: 'worker', phase: 'implementation', task_id: r.task_id, reason: r.reason });
    }
    if (git) await sayOffBranches(ctx);
    end = await drive(ctx);
  } catch (err) {
    // An agent's change of a governing file may be why the board failed (a config.yaml that no longer parses): it is what the person must hear.
    end = ctx.signal.aborted ? interrupted(ctx) : (ctx.halt ?? failure(err));
  }
  try {
    await releaseClaims(ctx, end.outcome);
    await endSessions(ctx, end.outcome);
    if (ctx.reviewKey) await ops.revokeReviewKey(ctx.reviewKey.name);
  } catch (err) {
    const f = failure(err);
    // The same error as the one that ended the run is said once.
    const again = f.message === end.message;
    end = stop(end.outcome === 'finished' ? 'failed' : end.outcome, `${end.message} Cleaning up failed ${again ? 'for the same reason.' : `too: ${f.message}`}`, [...new Set([...end.next_steps, ...f.next_steps])]);
  }
  // Its last words are the person's to read, in the run's record as in its events, and hold no
  // secret (a failure to start an agent can quote its command line).
  end = maskDeep(forPerson(end), runSecrets(ctx));
  recorder.finish(end.outcome, end.message);
  const exit = EXIT_CODES[end.outcome];
  emit(ctx, { type: 'run.finished', phase: recorder.run.phase, outcome: end.outcome, message: end.message, next_steps: end.next_steps, invocations: recorder.run.invocations, usage: recorder.run.usage, exit_code: exit });
  return exit;
}
