/**
 * Review: the reviewer writes a review round; a NEEDS_FIX or MAJOR_ISSUES verdict turns its High
 * and Medium issues into fix tasks (made by the person the run acts for, linked to the round), the
 * workers take them, and the reviewer reviews again, up to run: max_review_rounds. APPROVED leaves
 * the decision to the person. The reviewer gets a review key made for the run, revoked at its end.
 */
import { reviewKeyName } from '../ops/reviewer-keys.js';
import type { Data } from './board-ops.js';
import { missingBranches } from './branches.js';
import { budgetReached, budgetStop, emit, interrupted, stop, type RunContext, type Stop } from './context.js';
import { invoke } from './invoke.js';
import { answerFirst, phaseQuestions, refusals, ruleFindings, saidLeftOpen } from './planning.js';
import { answersText, documentsText, feedbackList, findingsText, renderPrompt } from './prompts.js';
import { LIMITS } from '../domain/limits.js';
import { firstChars } from '../domain/text.js';

// The work shown to the reviewer: the diffs cut to keep the prompt a size a model reads whole.
const DIFF_PER_TASK = 8000;
const DIFF_TOTAL = 60_000;

/** The fix tasks of a round, made once: an issue whose task exists (same round, same title) is skipped. */
export async function addFixTasks(ctx: RunContext, round: Data): Promise<string[]> {
  const tasks = await ctx.ops.fullTasks(ctx.changeId);
  const made = new Set(tasks.filter((t) => t.review_round === round.round).map((t) => t.title));
  const created: string[] = [];
  for (const issue of round.issues as Data[]) {
    if (issue.severity !== 'High' && issue.severity !== 'Medium') continue;
    const title = firstChars(`Fix: ${issue.title}`, LIMITS.titleMax).trim();
    if (made.has(title)) continue;
    const description = firstChars(`${issue.severity} issue of review round ${round.round} (by ${round.reviewer}):\n\n${issue.description}`, LIMITS.taskDescriptionMax);
    const added = await ctx.ops.addFixTask(ctx.changeId, { title, description, priority: issue.severity === 'High' ? 'high' : 'medium', review_round: round.round });
    created.push(added.task.task_id);
    made.add(title);
  }
  if (created.length > 0) emit(ctx, { type: 'review.fix_tasks', phase: 'review', round: round.round, verdict: round.verdict, task_ids: created });
  return created;
}

/** Why a task's branch shows no diff: the reviewer is told, never left to take the task for one with no work to show. */
async function noDiff(ctx: RunContext, branch: string): Promise<string> {
  if (!ctx.git) return '(Its work is not shown: this run works without worktrees, so it reads no branch.)';
  if (!(await ctx.git.branchExists(branch))) return '(Its work is not shown: its branch is not in this repository.)';
  return '(Its branch holds no change of its own.)';
}

async function workText(ctx: RunContext, tasks: Data[]): Promise<string> {
  const parts: string[] = [];
  let budget = DIFF_TOTAL;
  for (const t of tasks) {
    const head = `### ${t.task_id}: ${t.title} (${t.status}${t.assignee ? `, by ${t.assignee}` : ''}${t.branch ? `, branch ${t.branch}` : ''})`;
    const notes = (t.notes as Data[]).map((n) => `- ${n.author}: ${n.text}`).join('\n');
    const diff = ctx.git && t.branch ? await ctx.git.diff(ctx.changeId, t.id, Math.max(500, Math.min(DIFF_PER_TASK, budget))) : '';
    budget -= diff.length;
    parts.push([head, notes ? `Notes:\n${notes}` : '', diff ? `\`\`\`diff\n${diff}\n\`\`\`` : t.branch ? await noDiff(ctx, t.branch) : ''].filter(Boolean).join('\n\n'));
  }
  return parts.join('\n\n') || '(no tasks)';
}

function roundsText(rounds: Data[]): string {
  return rounds
    .map((r) => [`Round ${r.round} by ${r.reviewer}: ${r.verdict}. ${r.summary}`, ...(r.issues as Data[]).map((i) => `- ${i.severity}: ${i.title}. ${i.description}`)].join('\n'))
    .join('\n\n');
}

/** The name of the review key a run makes for its reviewer (revoked when the run ends, or by the run that cleans up after it). */
async function reviewKey(ctx: RunContext): Promise<string> {
  if (!ctx.reviewKey) {
    const name = reviewKeyName(ctx.agents.reviewer.id, ctx.runId);
    ctx.reviewKey = { name, key: await ctx.ops.mintReviewKey(name) };
  }
  return ctx.reviewKey.key;
}

/** One review round by the reviewer, with attempts; null when a valid round was written (and its fix tasks made). */
export async function reviewRound(ctx: RunContext): Promise<Stop | null> {
  // A done task's work this repository lacks would be left out of the review without a word.
  const missing = await missingBranches(ctx);
  if (missing) return missing;
  const reviewer = ctx.agents.reviewer;
  const before = await ctx.ops.document(ctx.changeId, 'review', 'fields');
  const rounds: Data[] = before?.content?.rounds ?? [];
  const roundBefore = rounds[0]?.round ?? 0;
  const docs = await Promise.all((['proposal', 'spec', 'tasks'] as const).map((t) => ctx.ops.document(ctx.changeId, t)));
  const work = await workText(ctx, await ctx.ops.fullTasks(ctx.changeId));
  // The reviewer's questions are the change's review's, not one round's: an answer holds for the rounds after too.
  const questions = phaseQuestions(ctx, 'review');
  let previous = '';
  let lastReason = '';
  for (let attempt = 1; attempt <= ctx.options.maxAttempts; attempt++) {
    if (ctx.signal.aborted) return interrupted(ctx);
    const waiting = await answerFirst(ctx, 'review', questions);
    if (waiting) return waiting;
    if (budgetReached(ctx)) return budgetStop(ctx);
    const key = await reviewKey(ctx);
    const prompt = renderPrompt(ctx.ops.board.dir, 'review', {
      agent_id: reviewer.id,
      change_id: ctx.changeId,
      round: roundBefore + 1,
      goal: ctx.goal ?? '(No goal was given to this run: the documents below say what the change is for.)',
      documents: documentsText(docs),
      work,
      earlier: roundsText(rounds),
      review_key: key,
      feedback: before?.status === 'rejected' ? feedbackList(before.feedback) : '',
      answers: answersText(questions.resolved()),
      findings: previous,
    });
    const inv = await invoke(ctx, { agent: reviewer, phase: 'review', taskId: null, attempt, prompt, workdir: ctx.root, secrets: [key] });
    if (inv.interrupted) return interrupted(ctx);
    if (ctx.halt) return ctx.halt;
    const after = await ctx.ops.document(ctx.changeId, 'review', 'fields');
    const latest: Data | undefined = after?.content?.rounds?.[0];
    const base = { agent_id: reviewer.id, role: reviewer.role, phase: 'review', attempt };
    const findings = after ? await ruleFindings(ctx, after.file) : [];
    if (latest && latest.round > roundBefore && after!.status === 'submitted' && findings.length === 0) {
      emit(ctx, { type: 'phase.validated', ...base, document: 'review', round: latest.round, verdict: latest.verdict });
      saidLeftOpen(ctx, base, questions);
      if (latest.verdict !== 'APPROVED') await addFixTasks(ctx, latest);
      return null;
    }
    // A turn that ends on a question waits for its answer: it is no failed attempt.
    if (questions.open()) {
      attempt--;
      previous = '';
      continue;
    }
    lastReason = latest && latest.round > roundBefore ? 'The review was written but is not valid.' : `No new review round was written (the latest is ${roundBefore === 0 ? 'none' : `round ${roundBefore}`}).`;
    if (inv.failure) lastReason += ` The agent ${inv.failure}.`;
    const all = [...refusals(inv.calls), ...findings];
    emit(ctx, { type: 'phase.refused', ...base, document: 'review', reason: lastReason, findings: all });
    if (inv.fatal) return stop('failed', lastReason, [inv.fatal]);
    previous = findingsText(lastReason, all, inv.output);
  }
  return stop('failed', `The reviewer ${reviewer.id} did not write a valid review round in ${ctx.options.maxAttempts} attempts. Last: ${lastReason}`, [
    `agentboard runs show ${ctx.runId}   # every attempt, with its transcript`,
    `agentboard run ${ctx.changeId}   # try again`,
  ]);
}

/** The review phase as the board has it: fix tasks still to make, another round, or the end of the rounds. */
export async function reviewPhase(ctx: RunContext): Promise<Stop | null> {
  const review = await ctx.ops.document(ctx.changeId, 'review', 'fields');
  const latest: Data | undefined = review?.content?.rounds?.[0];
  if (latest && latest.verdict !== 'APPROVED' && review!.status !== 'rejected') {
    if ((await addFixTasks(ctx, latest)).length > 0) return null;
    const max = ctx.ops.board.config.run?.max_review_rounds ?? 3;
    if (latest.round >= max) {
      return stop('failed', `Review round ${latest.round} says ${latest.verdict}, and the run reviews at most ${max} rounds (run: max_review_rounds in agentd/config.yaml).`, [
        `agentboard show ${ctx.changeId} review`,
        `agentboard reject ${ctx.changeId} review --feedback "What must change, and why"   # or raise max_review_rounds, then: agentboard run ${ctx.changeId}`,
      ]);
    }
  }
  return reviewRound(ctx);
}
