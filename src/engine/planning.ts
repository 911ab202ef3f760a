/**
 * Planning: the planner writes the proposal, the spec, then the tasks, one invocation per attempt.
 * After each attempt the board is the judge: the document must be submitted and pass the rules
 * `agentboard validate` applies. If not, the planner runs again with what went wrong (the board's
 * refusals of its calls, the validator's findings, the end of its output), up to --max-attempts.
 */
import { lstatSync } from 'node:fs';
import { budgetReached, budgetStop, emit, fromCwd, interrupted, stop, type RunContext, type Stop } from './context.js';
import type { Data } from './board-ops.js';
import type { Finding } from './events.js';
import { decisionOf, questionGate, waitForPerson, type Gate, type Questions } from './gates.js';
import { restoreCommand } from './git.js';
import { invoke } from './invoke.js';
import { answersText, documentsText, feedbackList, findingsText, renderPrompt } from './prompts.js';
import type { CallRecord } from '../store/runs.js';
import { forPerson } from '../render/person-refs.js';
import { previewLines } from '../render/preview.js';
import { docWord } from '../ops/doc-write.js';

export type PlanningPhase = 'proposal' | 'spec' | 'tasks';

export const EARLIER: Record<PlanningPhase, PlanningPhase[]> = { proposal: [], spec: ['proposal'], tasks: ['proposal', 'spec'] };

/** The board's refusals of an agent's calls during one invocation. */
export function refusals(calls: CallRecord[]): Finding[] {
  return calls.filter((c) => !c.ok).map((c) => ({ source: 'call' as const, tool: c.tool, code: c.code, message: c.message ?? '', next_step: c.next_step }));
}

/** The validator's errors for one document of the change. */
export async function ruleFindings(ctx: RunContext, file: string | undefined): Promise<Finding[]> {
  const report = await ctx.ops.validate(ctx.changeId);
  // Spelled as a person reads them: a finding's fix may name a command (a file that cannot be read: try it again).
  const findings: Data[] = forPerson(report?.changes.flatMap((c: Data) => c.findings) ?? []);
  return findings
    .filter((f) => f.level === 'error' && (file === undefined || f.file === file))
    .map((f) => ({ source: 'validate' as const, message: f.message, file: f.file, line: f.line, rule: f.rule, fix: f.fix }));
}

/** Whether a planning attempt produced its document: submitted (or approved), newer than before, valid. */
async function check(ctx: RunContext, type: PlanningPhase, doc: Data | null, revisionBefore: number): Promise<{ ok: boolean; reason: string; findings: Finding[] }> {
  const word = docWord(type);
  // What the validator says of the file goes with every refusal: an agent that wrote it by hand, or submitted it unchanged, learns why.
  const file: string = doc?.file ?? ctx.ops.board.rel(ctx.ops.board.docPath(ctx.changeId, type));
  if (!doc || doc.status === 'template' || doc.status === 'superseded') return { ok: false, reason: `The ${word} was not submitted.`, findings: await ruleFindings(ctx, file) };
  if (doc.status === 'rejected' || doc.revision <= revisionBefore) return { ok: false, reason: `The ${word} was not resubmitted: it is still ${doc.status} at revision ${doc.revision}.`, findings: await ruleFindings(ctx, file) };
  const findings = await ruleFindings(ctx, doc.file);
  if (findings.length > 0) return { ok: false, reason: `The ${word} was submitted but is not valid.`, findings };
  return { ok: true, reason: '', findings: [] };
}

/**
 * The stop for a phase's document whose file is there but cannot be read (its frontmatter broken
 * by a hand edit, bytes that are not UTF-8, a symbolic link or a folder in its place): the board
 * writes over no such file, so no attempt of the planner can submit the document, and a person
 * recovers it. Null when the document reads, or has no file.
 */
async function unreadable(ctx: RunContext, type: PlanningPhase, doc: Data | null): Promise<Stop | null> {
  const path = ctx.ops.board.docPath(ctx.changeId, type);
  const st = doc === null ? lstatSync(path, { throwIfNoEntry: false }) : undefined;
  if (!st) return null;
  const word = docWord(type);
  const file = ctx.ops.board.rel(path);
  const [first] = await ruleFindings(ctx, file);
  const where = first?.line ? `${file}:${first.line}` : file;
  // The file named once: most findings name it themselves (at their line), a frontmatter error does not.
  const problem = first?.message.startsWith(file) ? first.message : `${where}: ${first?.message ?? 'the file does not parse'}`;
  // The next steps' paths from where the person ran the command.
  const here = fromCwd(path);
  const restore = await restoreCommand(ctx.root, file, here);
  const anew = `to have the planner write the ${word} anew: git holds no other version of it to restore.`;
  return stop('failed', `The ${word} of ${ctx.changeId} cannot be read: ${problem.replace(/\.$/, '')}. The board writes over no file it cannot read, so the planner cannot submit the ${word} until a person fixes or replaces the file.`, [
    restore ? `${restore}   # restore the committed ${word}` : st.isFile() ? `Fix ${where.replace(file, here)}, or delete ${here} ${anew}` : `Remove ${here} (rm ${st.isDirectory() ? '-r ' : ''}${here}) ${anew}`,
    `agentboard run ${ctx.changeId}   # then go on`,
  ]);
}

export function documentGate(ctx: RunContext, type: PlanningPhase | 'review', doc: Data, reason: string): Gate {
  const word = docWord(type);
  return {
    subject: `the ${word} of ${ctx.changeId}`,
    reason,
    details: [`${doc.file} · revision ${doc.revision} · by ${doc.author}`, ...previewLines(doc)],
    commands: [`agentboard approve ${ctx.changeId} ${type}`, `agentboard reject ${ctx.changeId} ${type} --feedback "<what must change>"`],
    decide: (decision, feedback) => ctx.ops.decideDocument(ctx.changeId, type, decision, feedback),
    state: async () => {
      const now = await ctx.ops.document(ctx.changeId, type);
      return `${now?.status}:${now?.revision}`;
    },
    decided: async () => {
      const now = await ctx.ops.document(ctx.changeId, type);
      return now ? decisionOf(String(now.status), now.decided_by ?? null, now.feedback ?? []) : null;
    },
  };
}

/**
 * A document a person must decide on before the run goes past it: one config.yaml wants approved,
 * or one a person rejected and the planner revised (they decide on the revision too).
 */
export async function pendingGate(ctx: RunContext, types: readonly PlanningPhase[]): Promise<{ type: PlanningPhase; gate: Gate } | null> {
  const required = ctx.ops.board.config.require_approval as readonly string[];
  for (const type of types) {
    const doc = await ctx.ops.document(ctx.changeId, type);
    if (!doc || doc.status !== 'submitted' || (doc.findings as Data[]).some((f) => f.level === 'error')) continue;
    if (required.includes(type)) return { type, gate: documentGate(ctx, type, doc, `agentd/config.yaml requires a person's approval of the ${docWord(type)} before the next phase`) };
    if (doc.feedback.length > 0) return { type, gate: documentGate(ctx, type, doc, `a person rejected an earlier revision of the ${docWord(type)}, and decides on this one`) };
  }
  return null;
}

/** Waits for the person's decision on the first pending document (pendingGate); undefined when none is pending. */
export async function pendingDecision(ctx: RunContext, types: readonly PlanningPhase[]): Promise<Stop | null | undefined> {
  const pending = await pendingGate(ctx, types);
  return pending ? waitForPerson(ctx, pending.type, pending.gate) : undefined;
}

/**
 * The questions a run's planner (or reviewer) asked in a phase of the change. They hold no task,
 * so the board keys them by the change and phase the run started the asker for (the MCP server's
 * --change and --phase, recorded on the question): not by the agent id, which another run may
 * give another planner, and which asks in other changes and phases too. The answer goes to that
 * phase's next prompt, whoever plans (or reviews) then.
 */
export function phaseQuestions(ctx: RunContext, phase: PlanningPhase | 'review'): Questions {
  return { on: `the ${docWord(phase)} of ${ctx.changeId}`, open: () => ctx.ops.openQuestionIn(ctx.changeId, phase), resolved: () => ctx.ops.answersIn(ctx.changeId, phase) };
}

/** Before a phase's turn: an open question of the phase is answered first (or the run stops for it); null to go on. */
export async function answerFirst(ctx: RunContext, phase: PlanningPhase | 'review', questions: Questions): Promise<Stop | null> {
  const question = questions.open();
  return question ? waitForPerson(ctx, phase, questionGate(questions, question)) : null;
}

/** A question still open once the phase's document was accepted anyway: said, since nothing waits for it now. */
export function saidLeftOpen(ctx: RunContext, base: Record<string, unknown>, questions: Questions): void {
  const q = questions.open();
  if (q) emit(ctx, { type: 'notice', ...base, message: `${q.agent_id} asked ${q.id} while working on ${questions.on}, then submitted it: "${q.question}" The run goes on without the answer; a later turn on ${questions.on} gets it (answer it with \`agentboard answer ${q.id} "<your answer>"\`).` });
}

/** A change without a proposal, and a run without a goal: nothing to plan from (said, and the command that gives one). */
export function nothingToPlan(changeId: string): { message: string; command: string } {
  return { message: `Change ${changeId} has no proposal yet, and the run has no goal to give the planner.`, command: `agentboard run ${changeId} --goal "<what the change should achieve>"` };
}

export async function planPhase(ctx: RunContext, type: PlanningPhase): Promise<Stop | null> {
  const planner = ctx.agents.planner;
  const decision = await pendingDecision(ctx, [...EARLIER[type], type]);
  if (decision !== undefined) return decision;
  let doc = await ctx.ops.document(ctx.changeId, type);
  if (type === 'proposal' && !ctx.goal && (!doc || doc.status === 'template')) {
    const nothing = nothingToPlan(ctx.changeId);
    return stop('failed', nothing.message, [nothing.command]);
  }
  const broken = await unreadable(ctx, type, doc);
  if (broken) return broken;
  const earlier = await Promise.all(EARLIER[type].map((t) => ctx.ops.document(ctx.changeId, t)));
  const questions = phaseQuestions(ctx, type);
  let previous = '';
  let lastReason = '';
  for (let attempt = 1; attempt <= ctx.options.maxAttempts; attempt++) {
    if (ctx.signal.aborted) return interrupted(ctx);
    // A question of the phase still open (asked in the last turn, or before this run) is answered first.
    const waiting = await answerFirst(ctx, type, questions);
    if (waiting) return waiting;
    if (budgetReached(ctx)) return budgetStop(ctx);
    const revisionBefore = doc?.revision ?? 0;
    const prompt = renderPrompt(ctx.ops.board.dir, type, {
      agent_id: planner.id,
      change_id: ctx.changeId,
      goal: ctx.goal ?? '(No goal was given to this run: the documents below say what the change is for.)',
      documents: documentsText(earlier),
      feedback: doc?.status === 'rejected' ? feedbackList(doc.feedback) : '',
      answers: answersText(questions.resolved()),
      findings: previous,
    });
    const inv = await invoke(ctx, { agent: planner, phase: type, taskId: null, attempt, prompt, workdir: ctx.root });
    if (inv.interrupted) return interrupted(ctx);
    if (ctx.halt) return ctx.halt;
    doc = await ctx.ops.document(ctx.changeId, type);
    const result = await check(ctx, type, doc, revisionBefore);
    const base = { agent_id: planner.id, role: planner.role, phase: type, attempt };
    if (result.ok) {
      emit(ctx, { type: 'phase.validated', ...base, document: type, revision: doc!.revision });
      saidLeftOpen(ctx, base, questions);
      return null;
    }
    // A turn that ends on a question waits for its answer: it is no failed attempt.
    if (questions.open()) {
      attempt--;
      previous = '';
      continue;
    }
    const findings = [...refusals(inv.calls), ...result.findings];
    lastReason = inv.failure ? `${result.reason} The agent ${inv.failure}.` : result.reason;
    emit(ctx, { type: 'phase.refused', ...base, document: type, reason: lastReason, findings });
    if (inv.fatal) return stop('failed', lastReason, [inv.fatal]);
    // An attempt that left the file unreadable: the next one could not write over it either.
    const left = await unreadable(ctx, type, doc);
    if (left) return left;
    previous = findingsText(lastReason, findings, inv.output);
  }
  return stop('failed', `The planner ${planner.id} did not write a valid ${docWord(type)} in ${ctx.options.maxAttempts} attempt${ctx.options.maxAttempts === 1 ? '' : 's'}. Last: ${lastReason}`, [
    `agentboard runs show ${ctx.runId}   # every attempt, with its transcript`,
    `agentboard run ${ctx.changeId}   # try again`,
  ]);
}
