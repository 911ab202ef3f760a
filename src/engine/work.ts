/**
 * Work: every ready task is claimed for a worker agent id with the same selection and claim as an
 * agent's `next` (so two workers never get the same task, and attribution stays with the agent),
 * worked in its own worktree, and checked on the board when the agent's turn ends: done or in
 * review, or the attempt counts. A task that fails every attempt is released with the reason
 * noted, and the run hands out no new task after it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Data } from './board-ops.js';
import { budgetReached, budgetStop, emit, fromCwd, interrupted, stop, type RunContext, type Stop } from './context.js';
import { decisionOf, questionGate, sleep, waitForPerson, type Gate, type Questions } from './gates.js';
import { lastActivity } from '../domain/claims.js';
import { taskBranch, type TurnStart, type Workspace } from './git.js';
import { invoke } from './invoke.js';
import { refusals, ruleFindings } from './planning.js';
import { answersText, feedbackList, findingsText, renderPrompt } from './prompts.js';
import type { AgentInstance } from './settings.js';
import { printable } from '../domain/text.js';
import { shellWord } from '../shell.js';
import { AgentboardError } from '../errors.js';

/** done (or in review); left: someone else took the task meanwhile; given up after the last attempt (next: what to do); stopped by Ctrl-C or the budget; waiting on a person's answer to a question about the task; blocked: its worker reported a blocker, which a person clears. */
type TaskEnd = { kind: 'done' } | { kind: 'left' } | { kind: 'given_up'; reason: string; next?: string } | { kind: 'stopped' } | { kind: 'waiting'; stop: Stop } | { kind: 'blocked' };

/** The branches a task's worktree starts from: its dependencies' work; for a fix task, all the work reviewed. */
async function baseBranches(ctx: RunContext, task: Data): Promise<string[]> {
  const tasks = await ctx.ops.fullTasks(ctx.changeId);
  const bases = tasks.filter((t) => t.id !== task.id && t.branch && (task.review_round ? t.status === 'done' : task.depends.includes(t.id)));
  const out: string[] = [];
  for (const t of bases) {
    // Finished on the board, a dependency may still be in its worker's turn: its branch holds its work once the turn is over.
    await turnsUnderWay.get(ctx)?.get(t.task_id);
    if (await ctx.git!.branchExists(t.branch)) out.push(t.branch);
  }
  return out;
}

/** Per run, the tasks whose worker's turn is under way: each until what the turn left is committed on the task's branch. */
const turnsUnderWay = new WeakMap<RunContext, Map<string, Promise<void>>>();

/** Marks the turn on a task under way; the function returned marks it over. */
function underWay(ctx: RunContext, ref: string): () => void {
  const turns = turnsUnderWay.get(ctx) ?? new Map<string, Promise<void>>();
  turnsUnderWay.set(ctx, turns);
  let over!: () => void;
  turns.set(ref, new Promise<void>((resolve) => (over = resolve)));
  return () => {
    turns.delete(ref);
    over();
  };
}

/** The task's workspace; null when the run stopped while it waited for its dependencies' turns to end (one left its work off its branch, say): no worktree is made without that work. */
async function workspaceFor(ctx: RunContext, task: Data): Promise<Workspace | null> {
  if (!ctx.git) return { dir: ctx.root, worktree: null, branch: null, merged: [], conflicts: [] };
  const bases = await baseBranches(ctx, task);
  if (ctx.halt) return null;
  const ws = await ctx.git.prepare(ctx.changeId, task.id, bases);
  if (task.branch !== ws.branch) await ctx.ops.recordBranch(task.task_id, ws.branch!);
  return ws;
}

function taskText(task: Data): string {
  const files = (task.files as Data[]).map((f) => `- ${f.path} (${f.action})`).join('\n');
  return [`**${task.title}**`, task.description, files ? `Files:\n${files}` : ''].filter(Boolean).join('\n\n');
}

async function runTask(ctx: RunContext, worker: AgentInstance, claimed: Data, context: Data, resumed: boolean): Promise<TaskEnd> {
  const ref: string = claimed.task_id;
  const base = { agent_id: worker.id, role: worker.role, phase: 'implementation' };
  ctx.recorder.claim(ref);
  let ws: Workspace;
  try {
    const made = await workspaceFor(ctx, claimed);
    if (made === null) {
      // The run stopped meanwhile (a dependency's turn ended so): the task goes back, no agent starts on it.
      await giveUp(ctx, worker.id, ref, `the run stopped before ${worker.id} started on it: ${ctx.halt!.message}`);
      return { kind: 'stopped' };
    }
    ws = made;
  } catch (err) {
    const reason = (err as Error).message;
    const released = await giveUp(ctx, worker.id, ref, reason);
    return { kind: 'given_up', reason: `Task ${ref} was ${released}: ${reason}`, ...(err instanceof AgentboardError ? { next: err.nextStep } : {}) };
  }
  emit(ctx, { type: 'task.claimed', ...base, task_id: ref, title: claimed.title, branch: ws.branch, workdir: ws.dir, resumed });
  if (ws.hookFailed) emit(ctx, { type: 'notice', ...base, message: `git made the worktree of ${ref}, and a hook of the repository failed after it: ${ws.hookFailed}. The task is worked there all the same.` });
  if (ws.conflicts.length > 0) emit(ctx, { type: 'notice', ...base, message: `${ref} starts without ${ws.conflicts.join(', ')}: merging it into the new worktree conflicted.` });

  const dependencies = (context.dependencies as Data[]).map((d) => `- ${d.task_id} (${d.status}): ${d.title}`);
  if (ws.merged.length > 0) dependencies.push(`Their branches are merged into your worktree: ${ws.merged.join(', ')}.`);
  let previous = '';
  let lastReason = '';
  let attempt = 0;
  while (attempt < ctx.options.maxAttempts) {
    // A question about the task still open (asked in the last turn, or before this run by whoever held the task then) is answered first.
    const question = ctx.ops.openQuestionOn(ref);
    if (question) {
      const halt = await waitForPerson(ctx, 'implementation', questionGate(taskQuestions(ctx, ref), question));
      if (halt) return { kind: 'waiting', stop: halt };
    }
    attempt++;
    if (ctx.signal.aborted || budgetReached(ctx)) return { kind: 'stopped' };
    const prompt = renderPrompt(ctx.ops.board.dir, 'implementation', {
      agent_id: worker.id,
      change_id: ctx.changeId,
      task_id: ref,
      task_title: claimed.title,
      task_description: taskText(claimed),
      requirements: (context.requirements as Data[]).map((r) => `- ${r.id}: ${r.title}. ${r.text}`).join('\n'),
      dependencies: dependencies.join('\n'),
      task_feedback: feedbackList(context.feedback),
      answers: answersText(ctx.ops.answersFor(ref)),
      blockers: blockersText(claimed),
      workdir: ws.dir,
      branch: ws.branch ?? '',
      findings: previous,
    });
    const over = underWay(ctx, ref);
    let inv: Awaited<ReturnType<typeof invoke>>;
    try {
      const before = ws.worktree ? await ctx.git!.changedOutsideWorktrees() : null;
      const turn = ws.worktree ? await ctx.git!.turnStart(ws.worktree) : null;
      inv = await invoke(ctx, { agent: worker, phase: 'implementation', taskId: ref, attempt, prompt, workdir: ws.dir });
      if (before) await sayWritesOutside(ctx, before, worker.id, ref);
      const moved = turn ? (await sayOffBranch(ctx, ref, worker.id)) || (await sayLeftBranches(ctx, ref, worker.id, turn)) : false;
      if (ctx.git && !moved) {
        const kept = await ctx.git.commitLeftovers(ws.worktree, worker.id, `${ref}: ${claimed.title}\n\nLeft uncommitted by ${worker.id} when its turn ended (attempt ${attempt} of agentboard run ${ctx.runId}).`);
        if (kept && 'refused' in kept) sayCommitRefused(ctx, ref, worker.id, kept);
      }
    } finally {
      over();
    }
    if (inv.interrupted || ctx.halt) return { kind: 'stopped' };
    const now = await ctx.ops.task(ref);
    if (now && (now.status === 'done' || now.status === 'in_review')) {
      ctx.recorder.unclaim(ref);
      emit(ctx, { type: 'task.done', ...base, attempt, task_id: ref, status: now.status });
      const unheard = ctx.ops.openQuestionOn(ref);
      if (unheard) emit(ctx, { type: 'notice', ...base, message: `${unheard.agent_id} asked ${unheard.id} while working on ${ref}, then finished the task: "${unheard.question}" It holds nothing up, and its answer reaches no prompt (answer it with \`agentboard answer ${unheard.id} "<your answer>"\` if you like).` });
      return { kind: 'done' };
    }
    if (!now || now.assignee !== worker.id) {
      ctx.recorder.unclaim(ref);
      emit(ctx, { type: 'notice', ...base, message: `${ref} is no longer held by ${worker.id}${now?.assignee ? ` (it is ${now.assignee}'s)` : ''}; it left this worker.` });
      return { kind: 'left' };
    }
    // A task its worker reported blocked waits for a person to clear the blocker or release the task: no failed attempt, no retry.
    if (now.status === 'blocked') {
      ctx.recorder.unclaim(ref);
      return { kind: 'blocked' };
    }
    // A turn that ends on a question waits for its answer: it is no failed attempt.
    if (ctx.ops.openQuestionOn(ref)) {
      attempt--;
      previous = '';
      continue;
    }
    lastReason = inv.failure ? `The agent ${inv.failure}; the task is ${now.status}.` : `The agent ended its turn without finishing the task; it is ${now.status}.`;
    emit(ctx, { type: 'task.attempt_failed', ...base, attempt, task_id: ref, reason: lastReason });
    if (inv.fatal) {
      const released = await giveUp(ctx, worker.id, ref, `${worker.id} could not be started. Last: ${lastReason}`, attempt);
      return { kind: 'given_up', reason: `Task ${ref} was ${released}: ${lastReason}`, next: inv.fatal };
    }
    previous = findingsText(lastReason, refusals(inv.calls), inv.output);
  }
  const reason = `${worker.id} did not finish it in ${attempt} attempt${attempt === 1 ? '' : 's'}. Last: ${lastReason}`;
  const released = await giveUp(ctx, worker.id, ref, reason, attempt);
  return { kind: 'given_up', reason: `Task ${ref} was ${released}: ${reason}` };
}

/** Releases a task the run's worker gave up, with the reason noted. */
async function giveUp(ctx: RunContext, workerId: string, ref: string, reason: string, attempt?: number): Promise<'released' | 'left claimed'> {
  try {
    await ctx.ops.release(ref, `agentboard run ${ctx.runId}: ${reason}`);
  } catch (err) {
    // Refused by the board (its task list edited by hand meanwhile, and no longer parsing): the claim
    // stays, for the next run to take back; the other workers' turns end as they would, and what
    // stops the run is said then (the turn that edited the list is named when it ends).
    if (!(err instanceof AgentboardError)) throw err;
    emit(ctx, { type: 'notice', agent_id: workerId, role: 'worker', phase: 'implementation', message: `${ref} could not be released (${err.message}); its claim stays, and the next run takes it back.` });
    return 'left claimed';
  }
  ctx.recorder.unclaim(ref);
  emit(ctx, { type: 'task.released', agent_id: workerId, role: 'worker', phase: 'implementation', ...(attempt !== undefined ? { attempt } : {}), task_id: ref, reason });
  return 'released';
}

/** The blockers reported on the task and cleared, with how (the note of whoever cleared it), for the prompt of whoever works it next. */
function blockersText(task: Data): string {
  return (task.blockers as Data[])
    .filter((b) => b.resolved_at)
    .map((b) => {
      const how = (task.notes as Data[]).find((n) => n.author === b.resolved_by && n.at === b.resolved_at);
      return `- ${b.by} reported (${b.severity}): ${b.reason}\n  ${b.resolved_by} cleared it${how ? `: ${how.text}` : '.'}`;
    })
    .join('\n');
}

/** The questions asked while the task was held, whoever held it. */
function taskQuestions(ctx: RunContext, ref: string): Questions {
  return { on: ref, open: () => ctx.ops.openQuestionOn(ref), resolved: () => ctx.ops.answersFor(ref) };
}

/** Files of the repository's own working tree already said to have changed during this run. */
const saidOutside = new WeakMap<RunContext, Set<string>>();

/**
 * Says which files of the repository's own working tree changed while a worker worked in its
 * worktree (a path outside it, written by the agent or by something it ran): they are on no task's
 * branch, and agentboard neither commits nor undoes them. Each file is said once per run.
 */
async function sayWritesOutside(ctx: RunContext, before: Set<string>, agentId: string, ref: string): Promise<void> {
  const said = saidOutside.get(ctx) ?? new Set<string>();
  saidOutside.set(ctx, said);
  const changed = [...(await ctx.git!.changedOutsideWorktrees())].filter((f) => !before.has(f) && !said.has(f));
  if (changed.length === 0) return;
  for (const f of changed) said.add(f);
  const shown = changed.slice(0, 5).map(shellWord).join(', ') + (changed.length > 5 ? ` and ${changed.length - 5} more` : '');
  emit(ctx, { type: 'notice', agent_id: agentId, role: 'worker', phase: 'implementation', message: `While ${agentId} worked on ${ref} in its worktree, files of the repository's own working tree changed: ${shown}. They are on no task's branch, and agentboard neither commits nor undoes them: look at them with \`git status\`.` });
}

/**
 * A worktree left on another branch than the task's (a `git checkout -b`, a detached HEAD, the
 * task's branch renamed): the run merges and reviews the task's branch only, which lacks what was
 * committed there. Nothing of it is moved, committed or undone: it is said (an event; at the end of
 * its worker's turn, a note on the task too) and the run starts no other agent and stops for a
 * person, who takes the work onto the task's branch. `agentId`: the worker whose turn just ended,
 * null when a run looks before it goes on. True when so.
 */
export async function sayOffBranch(ctx: RunContext, ref: string, agentId: string | null): Promise<boolean> {
  const local = ref.slice(ctx.changeId.length + 1);
  const off = await ctx.git!.offBranch(ctx.changeId, local);
  if (!off) return false;
  const worktree = shellWord(ctx.git!.worktreeOf(ctx.changeId, local));
  const branch = taskBranch(ctx.changeId, local);
  const where = off.on === null ? `a detached HEAD (${off.head.slice(0, 12)})` : `branch ${printable(off.on)}`;
  const n = off.commits.length;
  const commits = `${n} commit${n === 1 ? '' : 's'}`;
  const lead = agentId ? `${agentId} left its worktree of ${ref} on ${where}` : `The worktree of ${ref} is on ${where}`;
  const state = off.gone ? `, and the task's branch ${branch} is gone${n === 0 ? '' : `; the worktree holds ${commits} made since the task started`}` : `, not on the task's branch ${branch}${n === 0 ? '' : `, with ${commits} that ${branch} lacks`}`;
  const take = off.gone
    ? [`git -C ${worktree} switch -c ${branch}   # the task's branch again, with what the worktree holds`]
    : n === 0
      ? [`git -C ${worktree} switch ${branch}   # back onto the task's branch`]
      : [`git -C ${worktree} log --oneline ${branch}..${off.head}   # the work not on the task's branch`, `git -C ${worktree} switch ${branch} && git -C ${worktree} merge ${off.head}   # take it onto the task's branch`];
  await stopForWorkElsewhere(ctx, ref, agentId, `${lead}${state}.`, off.on, off.commits, take);
  return true;
}

/**
 * A worker that committed on a branch of its own during its turn and went back to the task's
 * branch: those commits are left out of the task's branch as surely as when it stays there, and are
 * said the same way. True when so.
 */
async function sayLeftBranches(ctx: RunContext, ref: string, agentId: string, turn: TurnStart): Promise<boolean> {
  const local = ref.slice(ctx.changeId.length + 1);
  const worktree = ctx.git!.worktreeOf(ctx.changeId, local);
  const branch = taskBranch(ctx.changeId, local);
  const [left] = await ctx.git!.leftBranches(worktree, branch, turn);
  if (!left) return false;
  const n = left.commits.length;
  const on = printable(left.on);
  // The branch's name is the agent's: quoted, it is only ever a name to the shell.
  const take = [`git -C ${shellWord(worktree)} log --oneline ${shellWord(`${branch}..${left.on}`)}   # the work not on the task's branch`, `git -C ${shellWord(worktree)} merge ${shellWord(left.on)}   # take it onto the task's branch`];
  await stopForWorkElsewhere(ctx, ref, agentId, `${agentId} committed on branch ${on} in its worktree of ${ref} and went back to the task's branch ${branch}, which lacks ${n === 1 ? 'that commit' : `those ${n} commits`}.`, left.on, left.commits, take);
  return true;
}

/** Says work of a task left off its branch (an event; at the end of a worker's turn, a note on the task) and stops the run for a person with the commands `take` that take it onto the branch. */
async function stopForWorkElsewhere(ctx: RunContext, ref: string, agentId: string | null, what: string, head: string | null, commits: string[], take: string[]): Promise<void> {
  const branch = taskBranch(ctx.changeId, ref.slice(ctx.changeId.length + 1));
  const message = `${what} The run merges and reviews ${branch} only, so that work would be left out: agentboard moves, commits and deletes nothing there, starts no other agent and stops for a person, who takes the work onto ${branch}.`;
  emit(ctx, { type: 'worktree.off_branch', ...(agentId ? { agent_id: agentId, role: 'worker' } : {}), phase: 'implementation', task_id: ref, branch, head, commits, message });
  ctx.halt ??= stop('failed', message, [...take, `agentboard run ${ctx.changeId}   # then go on`]);
  if (!agentId || ctx.handEdited.has('tasks')) return;
  try {
    await ctx.ops.run('task.note', { agent_id: ctx.person, task_id: ref, text: message });
  } catch (err) {
    ctx.halt = stop(ctx.halt.outcome, `${ctx.halt.message} The note saying so on ${ref} could not be written: ${(err as Error).message}`, ctx.halt.next_steps);
  }
}

/** Per run, the commits git refused so far and the stop that names them: the turns of other workers may end with a refused commit too. */
const refusedCommits = new WeakMap<RunContext, { halt: Stop; refused: { said: string; command: string }[] }>();

/**
 * What a worker left that git refused to commit on its task's branch stays in its worktree: the run
 * reviews and merges the branch only, so it starts no other agent and stops for a person, with what
 * git said and the commands that commit it by hand, for every commit refused in the run (unless it
 * stopped for something else first). A run started again commits it once git can.
 */
export function sayCommitRefused(ctx: RunContext, ref: string, agentId: string, kept: { refused: string; command: string }): void {
  const branch = taskBranch(ctx.changeId, ref.slice(ctx.changeId.length + 1));
  const said = `What ${agentId} left uncommitted in its worktree of ${ref} could not be committed on ${branch}: git said "${kept.refused}".`;
  const still = (what: string, branches: string) => `${what} still there, uncommitted; the run reviews and merges ${branches} only, so it starts no other agent and stops for a person.`;
  emit(ctx, { type: 'notice', agent_id: agentId, role: 'worker', phase: 'implementation', message: `${said} ${still('It is', branch)}` });
  const before = refusedCommits.get(ctx);
  if (ctx.halt && ctx.halt !== before?.halt) return;
  const refused = [...(before?.refused ?? []), { said, command: kept.command }];
  const message = [...refused.map((r) => r.said), refused.length === 1 ? still('It is', branch) : still('They are', "the tasks' branches")].join(' ');
  ctx.halt = stop('failed', message, [...refused.map((r) => `${r.command}   # commit it yourself once what git said is fixed`), `agentboard run ${ctx.changeId}   # then go on (it commits what is left there itself, once git can)`]);
  refusedCommits.set(ctx, { halt: ctx.halt, refused });
}

/**
 * Before a run goes on, every worktree of the change's tasks is looked at again: one left off its
 * task's branch (the run before stopped on it, or it was moved since) stops this run as it stopped
 * that one, before anything is committed there or reviewed.
 */
export async function sayOffBranches(ctx: RunContext): Promise<void> {
  for (const t of await ctx.ops.fullTasks(ctx.changeId)) {
    if (existsSync(join(ctx.git!.worktreeOf(ctx.changeId, t.id), '.git'))) await sayOffBranch(ctx, t.task_id, null);
  }
}

function taskGate(ctx: RunContext, task: Data): Gate {
  return {
    subject: `task ${task.task_id}`,
    reason: `${task.assignee} submitted it for review`,
    details: [task.title, ...(task.submission ? [task.submission] : []), ...(task.branch ? [`branch ${task.branch}`] : [])],
    commands: [`agentboard approve ${task.task_id}`, `agentboard reject ${task.task_id} --feedback "<what must change>"`],
    decide: (decision, feedback) => ctx.ops.decideTask(task.task_id, decision, feedback),
    state: async () => String((await ctx.ops.task(task.task_id))?.status),
    decided: async () => {
      const now = await ctx.ops.task(task.task_id);
      return now ? decisionOf(String(now.status), null, now.feedback ?? []) : null;
    },
  };
}

/** A task its worker reported blocked: the run waits for a person to clear the blocker, or to release the task. */
function blockerGate(ctx: RunContext, task: Data): Gate {
  const ref: string = task.task_id;
  const open = (task.blockers as Data[]).filter((b) => !b.resolved_at);
  return {
    subject: `task ${ref}`,
    reason: `${task.assignee} reported it blocked: ${open.map((b) => `"${b.reason}" (${b.severity})`).join('; ')}`,
    details: [task.title, ...open.map((b) => `${b.by}: ${b.reason}`)],
    commands: [`agentboard task unblock ${ref} --note "<how the blocker was resolved>"`, `agentboard release ${ref}   # or put it back to todo for any worker`],
    state: async () => {
      const now = await ctx.ops.task(ref);
      return `${now?.status}:${now?.assignee}`;
    },
    decided: async () => {
      const now = await ctx.ops.task(ref);
      return now?.status === 'blocked' ? null : `${ref} is no longer blocked (it is ${now?.status ?? 'gone'}).`;
    },
  };
}

const OTHERS_POLL_MS = 2000;

/** Whether the holder of a task in progress has worked on it lately (not idle past stale_claim_minutes). */
function workedLately(t: Data, staleMs: number, now: number): boolean {
  const own = ((t.notes ?? []) as { author?: string; at?: string }[]).filter((n) => n.author === t.assignee && n.at).map((n) => n.at!);
  return now - Date.parse(lastActivity(t.claimed_at ?? undefined, t.progress_at ?? undefined, own)) < staleMs;
}

/** The workers holding a task of the change in progress (a next call would give it back). */
async function holding(ctx: RunContext): Promise<Set<string>> {
  return new Set((await ctx.ops.fullTasks(ctx.changeId)).filter((t) => t.status === 'in_progress' && t.assignee).map((t) => t.assignee as string));
}

/** Why no task of the change can go on, in a few words. */
function stuck(tasks: Data[], ours: Set<string>): string {
  const open = tasks.filter((t) => t.status !== 'done');
  const elsewhere = open.filter((t) => t.assignee && !ours.has(t.assignee) && t.status !== 'todo');
  if (elsewhere.length > 0) return `${elsewhere.map((t) => `${t.task_id} is held by ${t.assignee}`).join(', ')}`;
  return `${open.length} open task${open.length === 1 ? '' : 's'} (${open.map((t) => `${t.task_id} ${t.status}`).join(', ')}) cannot start; check their dependencies`;
}

/** One stop for all that waits for a person (or, interrupted, for all it still waits for). */
function together(stops: Stop[], outcome: Stop['outcome'] = 'waiting_on_person'): Stop {
  return stop(outcome, [...new Set(stops.map((s) => s.message))].join(' '), [...new Set(stops.flatMap((s) => s.next_steps))]);
}

/**
 * The stop for a task list with errors: none of its tasks is handed out, and the tasks it cannot
 * read may be work still to do, so the run neither waits nor moves on to the review. Null when it reads.
 */
async function brokenList(ctx: RunContext): Promise<Stop | null> {
  const file = ctx.ops.board.rel(ctx.ops.board.docPath(ctx.changeId, 'tasks'));
  const [first] = await ruleFindings(ctx, file);
  if (!first) return null;
  const where = first.line ? `${file}:${first.line}` : file;
  const here = fromCwd(ctx.ops.board.docPath(ctx.changeId, 'tasks'));
  return stop('failed', `The task list of ${ctx.changeId} has errors (${where}: ${first.message}): none of its tasks is handed out until a person fixes the file.`, [`agentboard validate ${ctx.changeId}   # every problem, with its line; fix ${here} by hand`, `agentboard run ${ctx.changeId}   # then go on`]);
}

export async function workPhase(ctx: RunContext): Promise<Stop | null> {
  const running = new Map<string, Promise<{ worker: string; end: TaskEnd }>>();
  // Workers whose submitted work waits for a person: `next` gives them nothing new meanwhile.
  const waiting = new Set<string>();
  let failure: { reason: string; next?: string } | null = null;
  // The stops of workers whose question waits for a person's answer (without --wait): they get no new task meanwhile.
  const questions: Stop[] = [];
  const asking = new Set<string>();
  let waitingOn = '';
  for (;;) {
    const claiming = !ctx.signal.aborted && !ctx.halt && failure === null && !budgetReached(ctx);
    if (claiming) {
      // Every free worker asks: one that finds nothing new may still leave another its own task (one a person unblocked).
      let nothingNew = false;
      let holders: Set<string> | null = null;
      for (const worker of ctx.agents.workers) {
        if (running.has(worker.id) || waiting.has(worker.id) || asking.has(worker.id)) continue;
        if (nothingNew && !(holders ??= await holding(ctx)).has(worker.id)) continue;
        const next = await ctx.ops.next(worker.id, ctx.changeId);
        if (next.status === 'assigned' || next.status === 'resumed') {
          running.set(worker.id, runTask(ctx, worker, next.task, next.context, next.status === 'resumed').then((end) => ({ worker: worker.id, end })));
        } else if (next.status === 'awaiting_review') waiting.add(worker.id);
        else nothingNew = true;
      }
    }
    if (running.size === 0) {
      if (ctx.signal.aborted) return together([...questions.filter((q) => q.outcome === 'interrupted'), interrupted(ctx)], 'interrupted');
      if (ctx.halt) return ctx.halt;
      if (failure) return stop('failed', failure.reason, [...(failure.next ? [failure.next] : []), `agentboard runs show ${ctx.runId}   # every attempt, with its transcript`, `agentboard run ${ctx.changeId}   # try again`]);
      if (budgetReached(ctx)) return budgetStop(ctx);
      const broken = await brokenList(ctx);
      if (broken) return broken;
      const tasks = await ctx.ops.fullTasks(ctx.changeId);
      if (tasks.every((t) => t.status === 'done')) return null;
      const inReview = tasks.filter((t) => t.status === 'in_review');
      if (inReview.length > 0) {
        for (const t of inReview) {
          const halt = await waitForPerson(ctx, 'implementation', taskGate(ctx, t));
          if (halt) return halt.outcome === 'waiting_on_person' ? together([...questions, halt]) : halt;
        }
        waiting.clear();
        continue;
      }
      // Blocked tasks wait for a person (with the questions): each is named with its reason and how to clear it.
      const blocked = tasks.filter((t) => t.status === 'blocked');
      const unblocking: Stop[] = [];
      for (const t of blocked) {
        const halt = await waitForPerson(ctx, 'implementation', blockerGate(ctx, t));
        if (halt && halt.outcome !== 'waiting_on_person') return halt;
        if (halt) unblocking.push(halt);
      }
      if (questions.length > 0 || unblocking.length > 0) return together([...questions, ...unblocking]);
      if (blocked.length > 0) continue;
      const ours = new Set(ctx.agents.workers.map((w) => w.id));
      // Tasks others still work on (another clone's run on a shared board, an agent outside the run): wait for them.
      const heldByOthers = tasks.filter((t) => t.status === 'in_progress' && t.assignee && !ours.has(t.assignee));
      const staleMs = ctx.ops.board.config.stale_claim_minutes * 60_000;
      const others = heldByOthers.filter((t) => workedLately(t, staleMs, Date.now()));
      if (others.length > 0 && !ctx.signal.aborted) {
        const said = others.map((t) => `${t.task_id} (${t.assignee})`).join(', ');
        const minutes = ctx.ops.board.config.stale_claim_minutes;
        const back = others.map((t) => `agentboard release ${t.task_id}`).join('; ');
        if (said !== waitingOn) emit(ctx, { type: 'notice', message: `Waiting for tasks other agents hold: ${said}. The run goes on when they finish them, and stops once a claim is left idle for ${minutes} minute${minutes === 1 ? '' : 's'} (stale_claim_minutes). If one is gone, take its task back: ${back}` });
        waitingOn = said;
        await sleep(OTHERS_POLL_MS, ctx.signal);
        continue;
      }
      return stop('failed', `No task of ${ctx.changeId} can go on: ${stuck(tasks, ours)}.`, [`agentboard show ${ctx.changeId}`, ...heldByOthers.map((t) => `agentboard release ${t.task_id}   # if ${t.assignee} is gone`)]);
    }
    const { worker, end } = await Promise.race(running.values());
    running.delete(worker);
    if (end.kind === 'given_up') failure ??= end;
    if (end.kind === 'waiting') {
      asking.add(worker);
      questions.push(end.stop);
    }
  }
}
