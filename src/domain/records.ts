/** What the runtime store holds: agents, sessions, input requests and reviewer key hashes. */
import type { SessionStatus } from './lifecycle.js';

export interface AgentRecord {
  id: string;
  name: string;
  role: string;
  skills: string[];
  registered_at: string;
  updated_at: string;
}

export interface Transition {
  from: SessionStatus | null;
  to: SessionStatus;
  at: string;
  message?: string;
}

export interface SessionRecord {
  agent_id: string;
  /** Counts the agent's sessions: a new one opens when a completed agent starts working again. */
  number: number;
  status: SessionStatus;
  message?: string;
  phase?: string;
  progress?: string;
  reason?: string;
  blockers?: string[];
  review?: { summary: string; pr_url?: string; notes?: string; tasks: string[]; submitted_at: string };
  input_id?: string;
  updated_at: string;
  history: Transition[];
  /** How many of the session's oldest moves are no longer kept in `history` (the activity log has every one). */
  history_dropped?: number;
}

export interface InputResolution {
  type: 'human' | 'timeout';
  value: string;
  by: string;
  at: string;
}

export interface InputRecord {
  id: string;
  agent_id: string;
  question: string;
  options: string[];
  default_action: string;
  timeout_minutes: number;
  created_at: string;
  expires_at: string;
  status: 'open' | 'resolved';
  resolution?: InputResolution;
  /** The task the agent held in progress when it asked (<change>/<task>): its answer goes to whoever works that task next. */
  task_id?: string;
  /**
   * Asked holding no task by an agent `agentboard run` started for a phase of a change (its planner
   * writing a document, its reviewer): the change and the phase (proposal, spec, tasks, review).
   * The answer goes to that phase's next prompt, whoever the run's planner or reviewer is then.
   */
  change_id?: string;
  phase?: string;
}

export interface ReviewerRecord {
  name: string;
  key_hash: string;
  created_at: string;
  created_by: string;
}

export interface RuntimeData {
  version: 1;
  agents: Record<string, AgentRecord>;
  sessions: Record<string, SessionRecord>;
  inputs: Record<string, InputRecord>;
  reviewers: Record<string, ReviewerRecord>;
  next_input: number;
}

export function emptyRuntime(): RuntimeData {
  return { version: 1, agents: {}, sessions: {}, inputs: {}, reviewers: {}, next_input: 1 };
}
