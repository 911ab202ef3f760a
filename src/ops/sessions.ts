/**
 * Agent workflow sessions and input requests (seed 002): report status, block, submit for review,
 * ask a person a question with a default action and a deadline, and the person's answer.
 */
import * as z from 'zod';
import { nowIso } from '../clock.js';
import { fail } from '../errors.js';
import { parseTaskRef } from '../domain/ids.js';
import { SESSION_STATUSES } from '../domain/lifecycle.js';
import { LIMITS } from '../domain/limits.js';
import type { InputRecord, RuntimeData, SessionRecord } from '../domain/records.js';
import { moveForWork, moveSession, openInputOf, resolveInput } from '../domain/sessions.js';
import { moveTask } from '../domain/task-moves.js';
import type { Task } from '../domain/model.js';
import { defineOp, requireHuman } from './registry.js';
import { Actor, AgentId, distinct, line, sized, TaskRef, text } from './schemas.js';
import { Limit, page, Page, pageInput, pageOf } from './pages.js';
import { ownTasks, takeForWork } from './claims.js';
import { findTask, type FoundTask } from './view.js';
import { refTo } from '../domain/refs.js';
import { printable } from '../domain/text.js';

const InputOut = z.object({
  input_id: z.string(),
  agent_id: z.string(),
  question: z.string(),
  options: z.array(z.string()),
  default_action: z.string(),
  timeout_minutes: z.number().int(),
  created_at: z.string(),
  expires_at: z.string(),
  status: z.enum(['open', 'resolved']),
  resolution: z.object({ type: z.enum(['human', 'timeout']), value: z.string(), by: z.string(), at: z.string() }).nullable(),
});

function inputOut(i: InputRecord): z.input<typeof InputOut> {
  return {
    input_id: i.id,
    agent_id: i.agent_id,
    question: i.question,
    options: i.options,
    default_action: i.default_action,
    timeout_minutes: i.timeout_minutes,
    created_at: i.created_at,
    expires_at: i.expires_at,
    status: i.status,
    resolution: i.resolution ?? null,
  };
}

const Move = z.object({ from: z.string().nullable(), to: z.string(), at: z.string(), message: z.string().optional() });

/** An agent's session as a write answers it: its state and the ids to go on with, not its history. */
const SessionOut = z.object({
  agent_id: z.string(),
  session: z.number().int().describe('Which of the agent\'s sessions this is (a new one opens after completed); 0: none yet.'),
  status: z.enum(SESSION_STATUSES),
  message: z.string().nullable(),
  phase: z.string().nullable(),
  progress: z.string().nullable(),
  reason: z.string().nullable(),
  blockers: z.array(z.string()),
  review: z.object({ summary: z.string(), pr_url: z.string().nullable(), notes: z.string().nullable(), tasks: z.array(z.string()), submitted_at: z.string() }).nullable(),
  awaiting_input: InputOut.nullable().describe('The open question, when the agent is waiting for a person.'),
  history_total: z.number().int().describe('Moves of this session; read them with the session history.'),
});

/** How many of the latest moves the workflow state shows. */
const RECENT_MOVES = 10;

const WorkflowOut = SessionOut.extend({
  resolutions: z.array(InputOut).describe('Earlier questions and how they were resolved (by a person, or by timeout to the default action), newest first; one page.'),
  history: z.array(Move).describe(`The latest ${RECENT_MOVES} moves, oldest first.`),
  ...Page,
});

/** The agent's session; when it has none yet, session 0, started, with no move (a read invents none: its first call that does work opens session 1). */
function sessionFor(data: RuntimeData, agentId: string, now: string): SessionRecord {
  return data.sessions[agentId] ?? { agent_id: agentId, number: 0, status: 'started', updated_at: now, history: [] };
}

export function sessionOut(data: RuntimeData, agentId: string, now: string): z.input<typeof SessionOut> {
  const session = sessionFor(data, agentId, now);
  const open = openInputOf(data, agentId);
  return {
    agent_id: agentId,
    session: session.number,
    status: session.status,
    message: session.message ?? null,
    phase: session.phase ?? null,
    progress: session.progress ?? null,
    reason: session.reason ?? null,
    blockers: session.blockers ?? [],
    review: session.review ? { ...session.review, pr_url: session.review.pr_url ?? null, notes: session.review.notes ?? null } : null,
    awaiting_input: open ? inputOut(open) : null,
    history_total: session.history.length,
  };
}

export const updateStatus = defineOp({
  name: 'session.status',
  summary: 'Report your workflow status: working or completed, with a message',
  access: 'agent',
  input: z.strictObject({
    agent_id: AgentId,
    status: z.enum(['working', 'completed']).describe('working (also after a block), or completed when done.'),
    message: text(1, 2000).describe('What you are doing or did, in a sentence.'),
    phase: line(100).optional().describe('A phase label, like "testing".'),
    progress: line(100).optional().describe('Progress, like "3/5 tasks".'),
  }),
  output: SessionOut,
  cli: { command: 'session status', args: ['status'] },
  tool: {
    name: 'agentboard_update_status',
    title: 'Update your status',
    description:
      'Tell people what you are doing (working) or that you are done (completed); after a block, report working again.',
    profiles: ['worker', 'planner', 'reviewer', 'agent'],
  },
  run(ctx, input) {
    return ctx.board().mutate((tx) => {
      const session = moveSession(tx.runtime, input.agent_id, input.status, tx.now, input.message);
      const stranded = input.status === 'completed' ? ownTasks(tx, input.agent_id, 'in_progress') : [];
      if (stranded.length > 0) {
        fail(
          'TASK_IN_PROGRESS',
          `You hold ${stranded.join(', ')} in progress; completing now would leave ${stranded.length === 1 ? 'it' : 'them'} in progress with nobody working on ${stranded.length === 1 ? 'it' : 'them'}.`,
          `Finish first with ${refTo('task.done', { task_id: stranded[0] })}, or submit the work with ${refTo('session.submit', { tasks: stranded })}; if you cannot go on, say why with ${refTo('task.block', { task_id: stranded[0] })}.`,
        );
      }
      session.message = input.message;
      if (input.phase !== undefined) session.phase = input.phase;
      if (input.progress !== undefined) session.progress = input.progress;
      tx.saveRuntime();
      tx.log(input.agent_id, 'session.status', input.agent_id, `${input.status}: ${input.message.slice(0, 120)}`);
      return sessionOut(tx.runtime, input.agent_id, tx.now);
    });
  },
});

export const markBlocked = defineOp({
  name: 'session.block',
  summary: 'Mark yourself blocked with a reason and blockers',
  access: 'agent',
  input: z.strictObject({
    agent_id: AgentId,
    reason: text(1, 2000).describe('Why you cannot go on, clearly enough for a person to act on it.'),
    blockers: distinct(z.array(line(300)).max(20)).default([]).describe('The specific things in the way.'),
  }),
  output: SessionOut,
  cli: { command: 'session block', flags: { blockers: 'blocker' } },
  tool: {
    name: 'agentboard_mark_blocked',
    title: 'Mark yourself blocked',
    description:
      `Say you cannot go on and why, so a person can step in. For a blocker of one task: ${refTo('task.block')}. ` +
      `To carry on, report working with ${refTo('session.status', { status: 'working' })}.`,
    profiles: ['planner', 'reviewer'],
  },
  run(ctx, input) {
    return ctx.board().mutate((tx) => {
      const session = moveSession(tx.runtime, input.agent_id, 'blocked', tx.now, input.reason);
      session.reason = input.reason;
      session.blockers = input.blockers;
      tx.saveRuntime();
      tx.log(input.agent_id, 'session.block', input.agent_id, `blocked: ${input.reason.slice(0, 120)}`);
      return sessionOut(tx.runtime, input.agent_id, tx.now);
    });
  },
});

export const submitForReview = defineOp({
  name: 'session.submit',
  summary: 'Submit your work for a person\'s review (optionally naming tasks and a PR)',
  access: 'agent',
  input: z.strictObject({
    agent_id: AgentId,
    summary: text(1, 4000).describe('What you changed and why.'),
    pr_url: sized(z.url({ protocol: /^https?$/, error: 'must be a web address (http or https), like https://github.com/owner/repo/pull/12' }), 0, 2000).optional().describe('The pull request, if any.'),
    notes: text(1, LIMITS.noteMax).optional().describe('What the reviewer should look at first; decisions and trade-offs.'),
    tasks: distinct(z.array(TaskRef).max(100)).default([]).describe('The tasks you hold that this work completes.'),
  }),
  output: SessionOut.extend({ tasks_in_review: z.array(z.string()) }),
  cli: { command: 'session submit', flags: { tasks: 'task' } },
  tool: {
    name: 'agentboard_submit_for_review',
    title: 'Submit work for review',
    description:
      'Submit work a person must check, with the tasks it completes: in review until approved (done) or sent back with feedback; ' +
      `meanwhile ${refTo('task.next')} says so.`,
    profiles: ['worker', 'agent'],
  },
  run(ctx, input) {
    const board = ctx.board();
    return board.mutate((tx) => {
      const found: { found: FoundTask; task: Task; ref: string }[] = [];
      for (const ref of input.tasks) {
        const r = parseTaskRef(ref) as { changeId: string; taskId: string };
        const f = findTask(tx, r.changeId, r.taskId);
        const task = structuredClone(f.task);
        takeForWork(tx, f, task, ref, input.agent_id, 'submit');
        if (task.status !== 'in_progress') {
          fail('INVALID_TRANSITION', `Task ${ref} is ${task.status}; you can only submit a task you hold in progress.`, task.status === 'blocked' ? `Clear its blocker with ${refTo('task.unblock', { task_id: ref })} first.` : `Submit only tasks you hold in progress; ${refTo(['task.list', 'task.next'], { assignee: input.agent_id, status: 'in_progress' })} shows yours.`);
        }
        moveTask(task, ref, 'in_review', input.agent_id, 'agent', tx.now, { summary: input.summary, ...(input.pr_url ? { pr_url: input.pr_url } : {}) });
        found.push({ found: f, task, ref });
      }
      const stranded = ownTasks(tx, input.agent_id, 'in_progress').filter((ref) => !input.tasks.includes(ref));
      if (stranded.length > 0) {
        const all = [...input.tasks, ...stranded];
        fail(
          'TASK_IN_PROGRESS',
          `You hold ${stranded.join(', ')} in progress; submitting without ${stranded.length === 1 ? 'it' : 'them'} would leave ${stranded.length === 1 ? 'it' : 'them'} in progress while you wait for review.`,
          // The call to make: this one with the tasks it left out (its summary too, when it is short enough to repeat).
          `Submit ${stranded.length === 1 ? 'it' : 'them'} with the work: ${refTo('session.submit', { tasks: all, summary: input.summary.length <= 300 ? input.summary : undefined, pr_url: input.pr_url })}; or finish first with ${refTo('task.done', { task_id: stranded[0] })}.`,
        );
      }
      if (input.tasks.length === 0 && !input.pr_url) {
        fail(
          'INVALID_INPUT',
          'Nothing to review: the submission names no task and no pull request, so a person would have nothing to check while you wait.',
          `Name what a person should check in ${refTo('session.submit')}: the tasks this work completes, or its pull request. With nothing to submit, go on with ${refTo('task.next')}.`,
        );
      }
      const waiting = tx.runtime.sessions[input.agent_id];
      if (waiting?.status === 'awaiting_review' && waiting.review) {
        const { tasks, pr_url, submitted_at } = waiting.review;
        fail(
          'INVALID_TRANSITION',
          `Your work is already submitted and awaiting review by a person (${tasks.length > 0 ? tasks.join(', ') : (pr_url ?? 'since ' + submitted_at)}); nothing was submitted again.`,
          `Wait for their decision: ${refTo('task.next')} tells you when it is made. To submit other work meanwhile, report ${refTo('session.status', { status: 'working' })} first.`,
        );
      }
      const session = moveForWork(tx.runtime, input.agent_id, 'awaiting_review', tx.now, 'submit work for review', input.summary);
      session.review = { summary: input.summary, tasks: input.tasks, submitted_at: tx.now };
      if (input.pr_url) session.review.pr_url = input.pr_url;
      if (input.notes) session.review.notes = input.notes;
      const byChange = new Map<string, { found: FoundTask; tasks: Task[] }>();
      for (const f of found) {
        const entry = byChange.get(f.found.changeId) ?? { found: f.found, tasks: [] };
        entry.tasks.push(f.task);
        byChange.set(f.found.changeId, entry);
      }
      for (const { found: f, tasks } of byChange.values()) tx.putTasks(f.changeId, { replace: tasks });
      tx.saveRuntime();
      tx.log(input.agent_id, 'session.submit', input.agent_id, `submitted work for review${input.tasks.length ? ` (${input.tasks.join(', ')})` : ''}: ${input.summary.slice(0, 120)}`);
      return { ...sessionOut(tx.runtime, input.agent_id, tx.now), tasks_in_review: found.map((f) => f.ref) };
    });
  },
});

export const getWorkflowState = defineOp({
  name: 'session.show',
  summary: 'Show an agent\'s workflow state, open question and answers',
  access: 'read',
  input: z.strictObject({ agent_id: AgentId.describe('The agent whose workflow state to read (usually yourself).'), ...pageInput('resolutions', Limit.default(10)) }),
  output: WorkflowOut,
  cli: { command: 'session show' },
  tool: {
    name: 'agentboard_get_workflow_state',
    title: 'Get your workflow state',
    description:
      'Your workflow status, open question and earlier answers (or their default action if nobody answered in time).',
    profiles: ['worker', 'planner', 'reviewer', 'agent'],
    idempotent: true,
  },
  run(ctx, input) {
    const data = ctx.board().readRuntime();
    const now = nowIso();
    const state = { ...sessionOut(data, input.agent_id, now), history: sessionFor(data, input.agent_id, now).history.slice(-RECENT_MOVES) };
    // None yet is not a session that started: said so, with the call that starts one.
    if (!data.sessions[input.agent_id]) {
      state.message = `${input.agent_id} has no session yet: it starts one by registering with ${refTo('agent.register', { agent_id: input.agent_id })}, or with its first call that does work.`;
    }
    const resolved = Object.values(data.inputs)
      .filter((i) => i.agent_id === input.agent_id && i.status === 'resolved')
      .sort((a, b) => (a.resolution!.at < b.resolution!.at ? 1 : -1))
      .map(inputOut);
    return pageOf(ctx, 'resolutions', resolved, input, (resolutions, info) => ({ ...state, resolutions, ...info }));
  },
});

export const sessionHistory = defineOp({
  name: 'session.history',
  summary: "An agent's workflow moves in its current session, newest first",
  access: 'read',
  input: z.strictObject({ agent_id: AgentId.describe('The agent whose moves to read (usually yourself).'), ...pageInput('moves') }),
  output: z.object({ agent_id: z.string(), session: z.number().int(), status: z.enum(SESSION_STATUSES), moves: z.array(Move), ...Page }),
  cli: { command: 'session history' },
  tool: {
    name: 'agentboard_get_session_history',
    title: 'Read a session history',
    description: "Read an agent's workflow moves (started, working, awaiting_input…) in its current session, newest first, with when and why.",
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const session = sessionFor(ctx.board().readRuntime(), input.agent_id, nowIso());
    const moves = [...session.history].reverse();
    const result = { agent_id: input.agent_id, session: session.number, status: session.status, ...page(ctx, 'moves', moves, input) };
    // The oldest moves of a long session are not kept here: said at the end of the list, with where to read them.
    const dropped = session.history_dropped ?? 0;
    if (dropped === 0 || result.has_more) return result;
    const said = `The ${dropped} oldest ${dropped === 1 ? 'move' : 'moves'} of this session ${dropped === 1 ? 'is' : 'are'} no longer kept here (the newest ${session.history.length} are); the activity log has every move: ${refTo('log.list', { actor: input.agent_id })}.`;
    return { ...result, notice: result.notice ? `${result.notice} ${said}` : said };
  },
});

export const requestInput = defineOp({
  name: 'input.ask',
  summary: 'Ask a person a question; past the deadline the default action applies',
  access: 'agent',
  input: z.strictObject({
    agent_id: AgentId,
    question: text(1, 2000).describe('The question, with the context a person needs to answer.'),
    default_action: text(1, 2000).describe('What you will do if nobody answers in time.'),
    options: distinct(z.array(line(200)).max(10)).default([]).describe('Suggested answers.'),
    timeout_minutes: z.number().int().min(1).max(LIMITS.inputTimeoutMax).optional().describe(`Minutes to wait; ${LIMITS.inputTimeoutDefault} when left out.`),
  }),
  output: z.object({ input_id: z.string(), expires_at: z.string(), request: InputOut }),
  cli: { command: 'ask', flags: { options: 'option' } },
  tool: {
    name: 'agentboard_request_input',
    title: 'Ask a person',
    description:
      `Ask a person when unsure, saying what you will do if nobody answers in time; one question at a time. Read the answer with ${refTo('session.show')}.`,
    profiles: ['worker', 'planner', 'reviewer', 'agent'],
  },
  run(ctx, input) {
    const board = ctx.board();
    return board.mutate((tx) => {
      const open = openInputOf(tx.runtime, input.agent_id);
      if (open) {
        fail('INPUT_ALREADY_OPEN', `You already asked a question that is not answered yet (${open.id}: "${printable(open.question)}").`, `Wait for its answer with ${refTo('session.show', { agent_id: input.agent_id })}; it resolves to your default action at ` + open.expires_at + '.');
      }
      const minutes = input.timeout_minutes ?? board.config.input_timeout_minutes;
      const session = moveForWork(tx.runtime, input.agent_id, 'awaiting_input', tx.now, 'ask a question', input.question);
      const id = `input-${tx.runtime.next_input++}`;
      const record: InputRecord = {
        id,
        agent_id: input.agent_id,
        question: input.question,
        options: input.options,
        default_action: input.default_action,
        timeout_minutes: minutes,
        created_at: tx.now,
        expires_at: new Date(Date.parse(tx.now) + minutes * 60_000).toISOString(),
        status: 'open',
      };
      // Keyed by what the asker works on, so that `agentboard run` waits for the answer and puts it in the
      // next prompt of that work: the task it holds, or else the phase of the change the run started it for.
      const [held] = ownTasks(tx, input.agent_id, 'in_progress');
      const phase = ctx.runPhase?.agentId === input.agent_id ? ctx.runPhase : undefined;
      if (held) record.task_id = held;
      else if (phase) Object.assign(record, { change_id: phase.changeId, phase: phase.phase });
      tx.runtime.inputs[id] = record;
      session.input_id = id;
      tx.saveRuntime();
      tx.log(input.agent_id, 'input.ask', id, `asked: ${input.question.slice(0, 120)}`);
      return { input_id: id, expires_at: record.expires_at, request: inputOut(record) };
    });
  },
});

export const listInputs = defineOp({
  name: 'input.list',
  summary: 'List input requests (open ones by default)',
  access: 'read',
  input: z.strictObject({
    // Not agent_id: an agent that names itself on every call (as it is told to) still sees every question.
    asked_by: AgentId.optional().describe('Only the questions this agent asked.'),
    status: z.enum(['open', 'resolved', 'all']).default('open').describe('open (default): unanswered; resolved: answered or timed out; all: both.'),
    ...pageInput('inputs'),
  }),
  output: z.object({ inputs: z.array(InputOut), ...Page }),
  cli: { command: 'inputs', flags: { asked_by: 'as' } },
  tool: {
    name: 'agentboard_list_inputs',
    title: 'List questions to people',
    description: 'List the questions agents asked people: open ones by default, or resolved ones with their answers.',
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const data = ctx.board().readRuntime();
    const inputs = Object.values(data.inputs)
      .filter((i) => (input.status === 'all' || i.status === input.status) && (!input.asked_by || i.agent_id === input.asked_by))
      .sort((a, b) => (a.created_at < b.created_at ? -1 : 1))
      .map(inputOut);
    return page(ctx, 'inputs', inputs, input, {}, (i) => i.input_id);
  },
});

export const answerInput = defineOp({
  name: 'input.answer',
  summary: 'Answer an agent\'s question (people only); the agent goes back to work',
  access: 'human',
  input: z.strictObject({ agent_id: Actor, input_id: z.string().check((c) => {
      if (!/^input-\d+$/.test(c.value)) c.issues.push({ code: 'custom', message: `"${printable(c.value)}" is not an input id like "input-3"`, input: c.value });
    }).describe('The input id, like "input-3".'), answer: text(1, 4000).describe('The answer.') }),
  output: z.object({ request: InputOut, agent_status: z.string().nullable().describe("The asking agent's workflow status once answered (working again, unless it had moved on); null when it has no session.") }),
  cli: { command: 'answer', args: ['input_id', 'answer'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Answering an input request');
    return ctx.board().mutate((tx) => {
      const record = tx.runtime.inputs[input.input_id];
      if (!record) fail('INPUT_NOT_FOUND', `There is no input request ${input.input_id}.`, `List the open ones with ${refTo('input.list')}.`);
      if (record.status === 'resolved') {
        const r = record.resolution!;
        fail('INPUT_RESOLVED', `Input request ${input.input_id} is already resolved (${r.type === 'timeout' ? `timed out at ${r.at}; the default action applied: ${r.value}` : `answered by ${r.by}: ${r.value}`}).`, `List the open ones with ${refTo('input.list')}.`);
      }
      resolveInput(tx.runtime, record, { type: 'human', value: input.answer, by: input.agent_id, at: tx.now });
      tx.saveRuntime();
      tx.log(input.agent_id, 'input.answer', input.input_id, `answered ${record.agent_id}: ${input.answer.slice(0, 120)}`);
      return { request: inputOut(record), agent_status: tx.runtime.sessions[record.agent_id]?.status ?? null };
    });
  },
});

export const expireInputs = defineOp({
  name: 'input.expire',
  summary: 'Resolve every input request past its deadline to its default action',
  access: 'human',
  input: z.strictObject({ agent_id: Actor }),
  output: z.object({ expired: z.array(InputOut) }),
  cli: { command: 'expire' },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Expiring input requests');
    // Opening the runtime inside the lock resolves (and logs) whatever is past its deadline.
    return ctx.board().mutate((tx) => ({ expired: tx.expiredInputs.map((id) => inputOut(tx.runtime.inputs[id]!)) }));
  },
});

export const SESSION_OPS = [updateStatus, markBlocked, submitForReview, getWorkflowState, sessionHistory, requestInput, listInputs, answerInput, expireInputs];
