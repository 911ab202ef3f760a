/**
 * Where a person must decide: a document config.yaml wants approved, tasks an agent submitted for
 * review. On a terminal the run asks in place (and still notices a decision made from another
 * terminal); with --wait it watches the board until someone decides; otherwise it stops with
 * `waiting_on_person` and the commands to run.
 */
import { emit, interrupted, stop, type RunContext, type Stop } from './context.js';
import type { PersonAnswer } from './events.js';
import { resolutionText } from './prompts.js';
import type { InputRecord } from '../domain/records.js';

export interface Gate {
  /** What is decided: "the spec of add-search", "task add-search/T2". */
  subject: string;
  reason: string;
  details: string[];
  /** The commands a person runs to decide. */
  commands: string[];
  /**
   * Makes the person's decision through the board's operations. Absent where the decision is no
   * approval (an answer to an agent's question): the run does not ask in place, it watches the board.
   */
  decide?(decision: 'approve' | 'reject', feedback?: string): Promise<unknown>;
  /** The board state the decision changes; the gate is passed once it differs. */
  state(): Promise<string>;
  /** The decision made elsewhere (another terminal, the console), as the board records it, or what to say of it; null when it cannot tell. */
  decided(): Promise<Decided | string | null>;
}

export interface Decided {
  person: string;
  decision: 'approve' | 'reject';
  feedback?: string;
}

/** A decision as a document or a task records it: its status, and the feedback of a rejection (the last one). */
export function decisionOf(status: string, approvedBy: string | null, feedback: { author: string; text: string }[]): Decided | null {
  const last = feedback.at(-1);
  if (status === 'approved' || status === 'done') return { person: approvedBy ?? 'a person', decision: 'approve' };
  if ((status === 'rejected' || status === 'todo') && last) return { person: last.author, decision: 'reject', feedback: last.text };
  return null;
}

/** The questions asked about one piece of work a run gives agents: a task, or a phase of a change (a planner's document, the review). */
export interface Questions {
  /** The work, for a person: "add-search/T1", "the spec of add-search". */
  on: string;
  /** The one a person has not answered yet (its deadline not passed), or null. */
  open(): InputRecord | null;
  /** Those answered, or past their deadline (the default applies), oldest first. */
  resolved(): InputRecord[];
}

/** An open question about a piece of work: the run waits for its answer (or its deadline) before the work's next turn, whoever does it. */
export function questionGate(questions: Questions, question: InputRecord): Gate {
  const id = question.id;
  return {
    subject: `the question ${id} of ${question.agent_id}`,
    reason: `${question.agent_id} asked it while working on ${questions.on}: "${question.question}" Without an answer by ${question.expires_at}, it does what it said it would: ${question.default_action}`,
    details: [question.question],
    commands: [`agentboard answer ${id} ${question.options.length > 0 ? `"<${question.options.join(' | ')}, or your own answer>"` : '"<your answer>"'}`],
    state: async () => (questions.open()?.id === id ? 'open' : 'resolved'),
    decided: async () => {
      const resolved = questions.resolved().find((i) => i.id === id);
      return resolved ? `${id}: ${resolutionText(resolved)}.` : null;
    },
  };
}

const POLL_MS = 1000;

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves once the gate's state differs from `before` (a person decided), or when `signal` aborts. */
async function decidedElsewhere(gate: Gate, before: string, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted) {
    await sleep(POLL_MS, signal);
    if (signal.aborted) return false;
    if ((await gate.state()) !== before) return true;
  }
  return false;
}

/** Waits for the person; null when the run goes on, or how it stops. */
export async function waitForPerson(ctx: RunContext, phase: string, gate: Gate): Promise<Stop | null> {
  emit(ctx, { type: 'waiting_on_person', phase, reason: gate.reason, subject: gate.subject, commands: gate.commands });
  const before = await gate.state();
  // A reason that ends a sentence of its own (a question's default action) gets no second period.
  const waiting = stop('waiting_on_person', `${gate.subject[0]!.toUpperCase()}${gate.subject.slice(1)} waits for a person: ${gate.reason.replace(/\.$/, '')}.`, [
    ...gate.commands,
    `agentboard run ${ctx.changeId}   # then go on (or run with --wait to have it go on by itself)`,
  ]);
  const ask = gate.decide ? ctx.view.ask : undefined;
  if (!ask && !ctx.options.wait) return waiting;

  const watching = new AbortController();
  const stopWatching = () => watching.abort();
  ctx.signal.addEventListener('abort', stopWatching, { once: true });
  try {
    const elsewhere = decidedElsewhere(gate, before, watching.signal).then((changed) => ({ kind: 'elsewhere' as const, changed }));
    const asked = ask ? ask({ subject: gate.subject, details: gate.details }, watching.signal).then((answer) => ({ kind: 'answer' as const, answer })) : new Promise<never>(() => {});
    const first = await Promise.race([elsewhere, asked]);
    watching.abort();
    // Stopped while the person had not decided: they still can, and the run goes on after.
    if (ctx.signal.aborted) return interrupted(ctx, gate.commands);
    if (first.kind === 'elsewhere') {
      const made = await gate.decided();
      if (typeof made === 'string') emit(ctx, { type: 'notice', phase, message: made });
      else if (made) emit(ctx, { type: 'person.decided', phase, person: made.person, subject: gate.subject, decision: made.decision, ...(made.feedback !== undefined ? { feedback: made.feedback } : {}) });
      else emit(ctx, { type: 'notice', phase, message: `A person decided on ${gate.subject}.` });
      return null;
    }
    if (first.answer.decision === 'later') return waiting;
    await decideNow(ctx, phase, gate, first.answer);
    return null;
  } finally {
    ctx.signal.removeEventListener('abort', stopWatching);
  }
}

async function decideNow(ctx: RunContext, phase: string, gate: Gate, answer: Exclude<PersonAnswer, { decision: 'later' }>): Promise<void> {
  await gate.decide!(answer.decision, answer.decision === 'reject' ? answer.feedback : undefined);
  emit(ctx, {
    type: 'person.decided',
    phase,
    person: ctx.person,
    subject: gate.subject,
    decision: answer.decision,
    ...(answer.decision === 'reject' ? { feedback: answer.feedback } : {}),
  });
}

