/** Agent workflow sessions (seed 002) and their input requests, as pure changes to runtime data. */
import { fail } from '../errors.js';
import { canMoveSession, SESSION_MOVES, type SessionStatus } from './lifecycle.js';
import type { InputRecord, RuntimeData, SessionRecord } from './records.js';
import { refTo } from './refs.js';
import { printable } from './text.js';

const HISTORY_MAX = 50;
const RESOLVED_INPUTS_MAX = 500;

function record(session: SessionRecord, to: SessionStatus, now: string, message?: string): void {
  const entry: SessionRecord['history'][number] = { from: session.status, to, at: now };
  if (message !== undefined) entry.message = message;
  session.history.push(entry);
  if (session.history.length > HISTORY_MAX) session.history_dropped = (session.history_dropped ?? 0) + session.history.splice(0, session.history.length - HISTORY_MAX).length;
  // What blocked the agent goes with the blocked state, however it is left (reported working, or a work action on the way).
  if (session.status === 'blocked' && to !== 'blocked') {
    delete session.reason;
    delete session.blockers;
  }
  session.status = to;
  session.updated_at = now;
}

function newSession(agentId: string, number: number, now: string): SessionRecord {
  return { agent_id: agentId, number, status: 'started', updated_at: now, history: [{ from: null, to: 'started', at: now }] };
}

/** The agent's session, opened as `started` when it has none. */
export function sessionOf(data: RuntimeData, agentId: string, now: string): SessionRecord {
  let session = data.sessions[agentId];
  if (!session) {
    session = newSession(agentId, 1, now);
    data.sessions[agentId] = session;
  }
  return session;
}

/**
 * Moves an agent's session to `to`, refusing what seed 002's table does not allow. A completed
 * session is over: reporting working opens the agent's next session.
 */
export function moveSession(data: RuntimeData, agentId: string, to: SessionStatus, now: string, message?: string): SessionRecord {
  const none = data.sessions[agentId] === undefined;
  let session = sessionOf(data, agentId, now);
  if (session.status === 'completed' && to === 'working') {
    session = newSession(agentId, session.number + 1, now);
    data.sessions[agentId] = session;
  }
  if (session.status === to && to === 'working') {
    session.updated_at = now;
    if (message !== undefined) session.message = message;
    return session;
  }
  if (!canMoveSession(session.status, to)) {
    const allowed = SESSION_MOVES[session.status];
    fail(
      'INVALID_TRANSITION',
      none ? `You have no session yet: it opens as started, which cannot change to ${to}.` : `Your workflow status is ${session.status}; it cannot change to ${to}.`,
      allowed.length > 0
        ? `From ${session.status} you can go to ${allowed.map((a) => `${a} (${MOVE_CALLS[a]})`).join(' or ')}.${session.status === 'awaiting_input' ? ` Meanwhile read the answer with ${refTo('session.show', { agent_id: agentId })}.` : ''}`
        : `Your session is completed; report working with ${MOVE_CALLS.working} to start a new one.`,
    );
  }
  record(session, to, now, message);
  if (message !== undefined) session.message = message;
  return session;
}

/** The call that moves a session to each status. */
const MOVE_CALLS: Record<SessionStatus, string> = {
  started: refTo('agent.register'),
  working: refTo('session.status', { status: 'working' }),
  completed: refTo('session.status', { status: 'completed' }),
  blocked: refTo(['session.block', 'task.block']),
  awaiting_input: refTo('input.ask'),
  awaiting_review: refTo('session.submit'),
};

/**
 * Called when an agent does work (takes a task, reports progress, asks, submits): it is working
 * now, its session opened or moved from started on the way (each move recorded). An agent that
 * works on while its question is open or while it said it was blocked (`doing` says what it did) is
 * working again too, by seed 002's one way out of each; its question stays open for the person.
 */
export function startWorking(data: RuntimeData, agentId: string, now: string, doing?: string): boolean {
  const session = data.sessions[agentId];
  if (session && (session.status === 'awaiting_input' || session.status === 'blocked') && doing !== undefined) {
    moveSession(data, agentId, 'working', now, `went on working while ${session.status === 'blocked' ? 'blocked' : 'awaiting input'} (${doing})`);
    return true;
  }
  if (session && session.status !== 'started' && session.status !== 'completed') return false;
  moveSession(data, agentId, 'working', now);
  return true;
}

/** A work action's move (`doing`: asking, submitting): from started, completed, awaiting input or blocked, by way of working. */
export function moveForWork(data: RuntimeData, agentId: string, to: SessionStatus, now: string, doing: string, message?: string): SessionRecord {
  startWorking(data, agentId, now, doing);
  return moveSession(data, agentId, to, now, message);
}

/** How far past its deadline a question must be before it expires: clocks of different machines differ a little. */
export const EXPIRY_TOLERANCE_MS = 5_000;

/**
 * Resolves every open input request past its deadline to its default action, and returns the ids
 * resolved. A question that says it was asked after `now` came from a clock that runs ahead: it
 * is never expired early on its word. `seen` (a shared board) says when this clone first knew of
 * each question, by its own clock: one asked on a machine whose clock is behind looks long past its
 * deadline here, so it expires only once its time has passed here too since then.
 */
export function expireInputs(data: RuntimeData, now: string, seen?: Record<string, number>): string[] {
  const expired: string[] = [];
  const t = Date.parse(now);
  for (const input of Object.values(data.inputs)) {
    if (input.status !== 'open') continue;
    if (Date.parse(input.expires_at) + EXPIRY_TOLERANCE_MS > t || Date.parse(input.created_at) > t + EXPIRY_TOLERANCE_MS) continue;
    if (seen && !(t - (seen[input.id] ?? t) >= input.timeout_minutes * 60_000)) continue;
    resolveInput(data, input, { type: 'timeout', value: input.default_action, by: 'agentboard', at: input.expires_at });
    expired.push(input.id);
  }
  return expired;
}

export function resolveInput(data: RuntimeData, input: InputRecord, resolution: NonNullable<InputRecord['resolution']>): void {
  input.status = 'resolved';
  input.resolution = resolution;
  const session = data.sessions[input.agent_id];
  if (session && session.input_id === input.id) {
    delete session.input_id;
    const said = resolution.type === 'timeout' ? `no answer in time: ${resolution.value}` : `answered: ${resolution.value}`;
    if (session.status === 'awaiting_input') record(session, 'working', resolution.at, said);
    // Its last word is no longer the question, now answered.
    if (session.message === input.question) session.message = said;
  }
  pruneResolvedInputs(data);
}

function pruneResolvedInputs(data: RuntimeData): void {
  const resolved = Object.values(data.inputs).filter((i) => i.status === 'resolved');
  if (resolved.length <= RESOLVED_INPUTS_MAX) return;
  resolved.sort((a, b) => (a.resolution!.at < b.resolution!.at ? -1 : 1));
  for (const input of resolved.slice(0, resolved.length - RESOLVED_INPUTS_MAX)) delete data.inputs[input.id];
}

export function openInputOf(data: RuntimeData, agentId: string): InputRecord | undefined {
  return Object.values(data.inputs).find((i) => i.agent_id === agentId && i.status === 'open');
}

/** What an agent's session says when a person sent a task it submitted back to the pool (`task.reject`), with why. */
export function sentBackMessage(ref: string, feedback: string): string {
  return `${ref} was sent back to the pool: ${printable(feedback, 200)}`;
}

/** What it says when a person moved its submitted work out of review otherwise (released or deleted it). */
export const SENT_BACK = 'submitted work was sent back';

/**
 * Ends the word of an agent's session that its work was sent back, once the agent took the task
 * again (`ref`) or finished other work (no `ref`): it no longer tells the agent what to do. Whether
 * the session changed.
 */
export function clearSentBack(data: RuntimeData, agentId: string, ref?: string): boolean {
  const session = data.sessions[agentId];
  const message = session?.message;
  if (message === undefined) return false;
  const said = message === SENT_BACK || (ref === undefined ? / was sent back to the pool: /.test(message) : message.startsWith(sentBackMessage(ref, '')));
  if (said) delete session!.message;
  return said;
}

/** Work an agent submitted without naming tasks that still awaits review: its pull request, or the start of its summary; null when none. */
export function pendingSubmission(session: SessionRecord | undefined): { id: string; since: string } | null {
  if (session?.status !== 'awaiting_review' || !session.review) return null;
  return { id: session.review.pr_url ?? session.review.summary.slice(0, 80), since: session.review.submitted_at };
}
