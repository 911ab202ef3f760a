/**
 * The live view's state, made from the run's events by one pure function: phases as steps, one
 * row per agent, the question put to the person, the last lines of the log. The components only
 * draw it, so the console can feed them the same way.
 */
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
  /** The last progress message, refusal or outcome. */
  message: string;
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
}

const LOG_LINES = 6;

export function initialState(): RunViewState {
  return { run_id: '', change_id: '', phases: RUN_PHASES.map((name) => ({ name, status: 'pending', note: '' })), agents: [], waiting: null, question: null, finished: null, usage: null, log: [] };
}

/** Marks `phase` with `status`, and every phase before it done. */
function at(phases: PhaseStep[], phase: string | undefined, status: StepStatus, note?: string): PhaseStep[] {
  const i = RUN_PHASES.indexOf(phase as never);
  if (i < 0) return phases;
  return phases.map((p, k) => (k < i ? { ...p, status: 'done' } : k === i ? { ...p, status, note: note ?? p.note } : p));
}

function row(agents: AgentRow[], id: string | undefined, change: Partial<AgentRow>): AgentRow[] {
  if (!id) return agents;
  const found = agents.some((a) => a.agent_id === id);
  const base: AgentRow = { agent_id: id, role: change.role ?? '', task_id: null, title: '', message: '', since: null, tokens: 0 };
  return found ? agents.map((a) => (a.agent_id === id ? { ...a, ...change } : a)) : [...agents, { ...base, ...change }];
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
        agents: [
          { agent_id: e.agents.planner!, role: 'planner' },
          ...e.agents.workers.map((w) => ({ agent_id: w, role: 'worker' })),
          { agent_id: e.agents.reviewer!, role: 'reviewer' },
        ].map((a) => ({ ...a, task_id: null, title: '', message: 'idle', since: null, tokens: 0 })),
      };
    case 'invocation.started':
      return { ...s, phases: at(s.phases, e.phase, 'running'), agents: row(s.agents, e.agent_id, { role: e.role, since: Date.parse(e.at), message: `attempt ${e.attempt}`, ...(e.task_id ? { task_id: e.task_id } : { task_id: null, title: e.phase ?? '' }) }) };
    case 'invocation.finished': {
      const current = s.agents.find((a) => a.agent_id === e.agent_id);
      return { ...s, agents: row(s.agents, e.agent_id, { since: null, tokens: (current?.tokens ?? 0) + tokens(e.usage), message: e.failure ?? 'turn ended' }) };
    }
    case 'phase.validated':
      return { ...s, phases: at(s.phases, e.phase, e.document === 'review' ? 'running' : 'done', e.document === 'review' ? `round ${e.round}: ${e.verdict}` : `revision ${e.revision}${(e.attempt ?? 1) > 1 ? `, attempt ${e.attempt}` : ''}`) };
    case 'phase.refused':
      return { ...s, phases: at(s.phases, e.phase, 'running', `attempt ${e.attempt} refused`) };
    case 'task.claimed':
      return { ...s, phases: at(s.phases, 'implementation', 'running'), agents: row(s.agents, e.agent_id, { task_id: e.task_id, title: e.title, message: e.resumed ? 'resumed' : 'claimed' }) };
    case 'task.done':
      return { ...s, agents: row(s.agents, e.agent_id, { message: e.status === 'done' ? 'done' : 'in review' }) };
    case 'task.attempt_failed':
      return { ...s, agents: row(s.agents, e.agent_id, { message: e.reason }) };
    case 'tool.called':
      if (!e.ok) return { ...s, agents: row(s.agents, e.agent_id, { message: `${e.tool} refused: ${e.code}` }) };
      return e.message ? { ...s, agents: row(s.agents, e.agent_id, { message: e.message }) } : s;
    case 'review.fix_tasks':
      return { ...s, phases: at(s.phases, 'review', 'done', `round ${e.round}: ${e.verdict}, ${e.task_ids.length} fix task${e.task_ids.length === 1 ? '' : 's'}`).map((p) => (p.name === 'implementation' ? { ...p, status: 'pending', note: 'fix round' } : p)) };
    case 'waiting_on_person':
      return { ...s, phases: at(s.phases, e.phase, 'waiting'), waiting: { subject: e.subject, reason: e.reason, commands: e.commands } };
    case 'person.decided':
      return { ...s, phases: at(s.phases, e.phase, 'running'), waiting: null, question: null };
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
