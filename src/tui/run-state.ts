/**
 * The live view's state, made from the run's events by one pure function: phases as steps, one
 * row per agent, the question put to the person, the last lines of the log. The components only
 * draw it, so the console can feed them the same way. The agents are drawn by the console's agents
 * pane, from what the board says of them (runCards).
 */
import type { AgentCard, RunSeat } from '../console/cards.js';
import type { PersonQuestion, RunEvent } from '../engine/events.js';
import { RUN_PHASES } from '../engine/events.js';
import { eventLine } from '../engine/views/lines.js';
import { tokens } from '../engine/views/format.js';
import type { Usage } from '../store/runs.js';

/** `current` is where a change stands when nothing is running it (the console); `running` spins. */
export type StepStatus = 'pending' | 'running' | 'current' | 'waiting' | 'done' | 'failed';

export interface PhaseStep {
  name: string;
  status: StepStatus;
  /** A few words on how it went: "revision 2", "round 1: NEEDS_FIX", "3/5 tasks". */
  note: string;
}

export interface AgentRow {
  agent_id: string;
  role: string;
  task_id: string | null;
  title: string;
  /** The last progress message, refusal or outcome, and when. */
  message: string;
  message_at: string | null;
  /** Its current invocation (the last one, between invocations) and the phase it was for. */
  invocation: number;
  phase: string;
  /** When its current invocation started (ms since epoch), null while it is idle. */
  since: number | null;
  tokens: number;
}

export interface RunViewState {
  run_id: string;
  change_id: string;
  phases: PhaseStep[];
  agents: AgentRow[];
  waiting: { subject: string; reason: string; commands: string[] } | null;
  question: PersonQuestion | null;
  finished: { outcome: string; message: string; next_steps: string[] } | null;
  usage: Usage | null;
  log: string[];
  /** The board's agents, as the console's agents pane shows them (read by the view, not made from events). */
  board: AgentCard[];
}

const LOG_LINES = 6;

export function initialState(): RunViewState {
  return { run_id: '', change_id: '', phases: RUN_PHASES.map((name) => ({ name, status: 'pending', note: '' })), agents: [], waiting: null, question: null, finished: null, usage: null, log: [], board: [] };
}

/** Marks `phase` with `status`, and every phase before it done. */
function at(phases: PhaseStep[], phase: string | undefined, status: StepStatus, note?: string): PhaseStep[] {
  const i = RUN_PHASES.indexOf(phase as never);
  if (i < 0) return phases;
  return phases.map((p, k) => (k < i ? { ...p, status: 'done' } : k === i ? { ...p, status, note: note ?? p.note } : p));
}

function idle(agent_id: string, role: string): AgentRow {
  return { agent_id, role, task_id: null, title: '', message: '', message_at: null, invocation: 0, phase: '', since: null, tokens: 0 };
}

/** The agent's row changed by an event of `at`; a new message is dated then. */
function row(agents: AgentRow[], id: string | undefined, at: string, change: Partial<AgentRow>): AgentRow[] {
  if (!id) return agents;
  const changed = change.message === undefined ? change : { ...change, message_at: at };
  const found = agents.some((a) => a.agent_id === id);
  return found ? agents.map((a) => (a.agent_id === id ? { ...a, ...changed } : a)) : [...agents, { ...idle(id, change.role ?? ''), ...changed }];
}

export function reduce(state: RunViewState, e: RunEvent): RunViewState {
  const line = eventLine(e);
  const s: RunViewState = line === null || e.type === 'run.finished' ? state : { ...state, log: [...state.log, ...line.split('\n').slice(0, 1)].slice(-LOG_LINES) };
  switch (e.type) {
    case 'run.started':
      return {
        ...s,
        run_id: e.run_id,
        change_id: e.change_id,
        phases: at(s.phases, e.phase === 'done' ? 'review' : e.phase, 'running'),
        agents: [idle(e.agents.planner!, 'planner'), ...e.agents.workers.map((w) => idle(w, 'worker')), idle(e.agents.reviewer!, 'reviewer')],
      };
    case 'invocation.started':
      return { ...s, phases: at(s.phases, e.phase, 'running'), agents: row(s.agents, e.agent_id, e.at, { role: e.role, since: Date.parse(e.at), invocation: e.invocation, phase: e.phase ?? '', message: `attempt ${e.attempt}`, ...(e.task_id ? { task_id: e.task_id } : { task_id: null, title: '' }) }) };
    case 'invocation.finished': {
      const current = s.agents.find((a) => a.agent_id === e.agent_id);
      return { ...s, agents: row(s.agents, e.agent_id, e.at, { since: null, tokens: (current?.tokens ?? 0) + tokens(e.usage), message: e.failure ?? 'turn ended' }) };
    }
    case 'phase.validated':
      return { ...s, phases: at(s.phases, e.phase, e.document === 'review' ? 'running' : 'done', e.document === 'review' ? `round ${e.round}: ${e.verdict}` : `revision ${e.revision}${(e.attempt ?? 1) > 1 ? `, attempt ${e.attempt}` : ''}`) };
    case 'phase.refused':
      return { ...s, phases: at(s.phases, e.phase, 'running', `attempt ${e.attempt} refused`) };
    case 'task.claimed':
      return { ...s, phases: at(s.phases, 'implementation', 'running'), agents: row(s.agents, e.agent_id, e.at, { task_id: e.task_id, title: e.title, message: e.resumed ? 'resumed' : 'claimed' }) };
    case 'task.done':
      return { ...s, agents: row(s.agents, e.agent_id, e.at, { task_id: null, title: '', message: e.status === 'done' ? 'done' : 'in review' }) };
    case 'task.attempt_failed':
      return { ...s, agents: row(s.agents, e.agent_id, e.at, { message: e.reason }) };
    case 'tool.called':
      if (!e.ok) return { ...s, agents: row(s.agents, e.agent_id, e.at, { message: `${e.tool} refused: ${e.code}` }) };
      return e.message ? { ...s, agents: row(s.agents, e.agent_id, e.at, { message: e.message }) } : s;
    case 'review.fix_tasks':
      return { ...s, phases: at(s.phases, 'review', 'done', `round ${e.round}: ${e.verdict}, ${e.task_ids.length} fix task${e.task_ids.length === 1 ? '' : 's'}`).map((p) => (p.name === 'implementation' ? { ...p, status: 'pending', note: 'fix round' } : p)) };
    case 'waiting_on_person':
      return { ...s, phases: at(s.phases, e.phase, 'waiting'), waiting: { subject: e.subject, reason: e.reason, commands: e.commands } };
    case 'person.decided':
      return { ...s, phases: at(s.phases, e.phase, 'running'), waiting: null, question: null };
    case 'settings.changed':
    case 'document.edited':
      return { ...s, agents: row(s.agents, e.agent_id, e.at, { message: `changed ${e.file}` }) };
    case 'worktree.off_branch':
      return { ...s, agents: row(s.agents, e.agent_id, e.at, { message: `left ${e.branch}` }) };
    case 'notice':
      return e.message.startsWith('A person decided') ? { ...s, waiting: null, question: null } : s;
    case 'run.finished': {
      const failed = e.outcome !== 'finished' && e.outcome !== 'waiting_on_person';
      const current = RUN_PHASES.includes(e.phase as never) ? e.phase : 'review';
      const phases = e.outcome === 'finished' && e.phase === 'done' ? s.phases.map((p) => ({ ...p, status: 'done' as const })) : at(s.phases, current, failed ? 'failed' : e.outcome === 'waiting_on_person' ? 'waiting' : 'done');
      return { ...s, phases, finished: { outcome: e.outcome, message: e.message, next_steps: e.next_steps }, usage: e.usage, question: null, agents: s.agents.map((a) => ({ ...a, since: null })) };
    }
    default:
      return s;
  }
}

/**
 * The run's agents as the console's agents pane shows them: what the board says of each (its
 * workflow state, the task it holds, its last word), with what the run's events say where the
 * board says nothing yet (an agent that never reported, a last word the board does not keep: a
 * refusal, the end of a turn); its seat in the run as the run's own events have it.
 */
export function runCards(state: RunViewState): AgentCard[] {
  const onBoard = new Map(state.board.map((c) => [c.agent_id, c]));
  return state.agents.map((a) => {
    const card = onBoard.get(a.agent_id);
    const seat: RunSeat | null =
      state.finished || !state.run_id
        ? null
        : { run_id: state.run_id, role: a.role, invocation: a.since === null ? 0 : a.invocation, phase: a.phase, task_id: a.task_id, started_at: new Date(a.since ?? 0).toISOString() };
    const task = a.task_id ? { task_id: a.task_id, title: a.title, status: 'in_progress' as const, progress: null } : null;
    return {
      agent_id: a.agent_id,
      name: card?.name ?? null,
      role: card?.role ?? a.role,
      status: card?.status ?? null,
      message: card?.message ?? (a.message || null),
      message_at: card?.message ? card.message_at : a.message_at,
      task: card ? card.task : task,
      in_review: card?.in_review ?? 0,
      // The run knows its own invocations first: the board hears of them from its records.
      run: seat ?? card?.run ?? null,
    };
  });
}
