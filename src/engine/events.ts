/**
 * What a run reports as it goes: one event type list shared by `run --json` (one JSON object per
 * line), the plain lines printed when stdout is not a terminal, the live view, and the run's own
 * events.jsonl. The README documents this schema; outside tools rely on it.
 */
import type { Usage } from '../store/runs.js';

export type Role = 'planner' | 'worker' | 'reviewer';
/** The phases a run drives; `implementation` covers every task, fix tasks included. */
export type RunPhase = 'proposal' | 'spec' | 'tasks' | 'implementation' | 'review';
export const RUN_PHASES: readonly RunPhase[] = ['proposal', 'spec', 'tasks', 'implementation', 'review'];

export interface Finding {
  /** "call": a refusal the board gave one of the agent's tool calls; "validate": a rule the document breaks. */
  source: 'call' | 'validate' | 'check';
  message: string;
  tool?: string;
  code?: string;
  next_step?: string;
  file?: string;
  line?: number;
  rule?: string;
  fix?: string;
}

interface Base {
  agent_id?: string;
  role?: Role;
  phase?: string;
  attempt?: number;
}

export type EventBody =
  | (Base & {
      type: 'run.started';
      change_id: string;
      person: string;
      agents: { planner: string | null; reviewer: string | null; workers: string[] };
      options: Record<string, unknown>;
    })
  | (Base & { type: 'invocation.started'; invocation: number; task_id: string | null; argv: string[]; cwd: string })
  | (Base & {
      type: 'invocation.finished';
      invocation: number;
      task_id: string | null;
      exit_code: number | null;
      signal: string | null;
      timed_out: boolean;
      duration_ms: number;
      usage: Usage;
      transcript: string;
      failure: string | null;
    })
  | (Base & { type: 'phase.validated'; document: string; revision?: number; round?: number; verdict?: string })
  | (Base & { type: 'phase.refused'; document: string; reason: string; findings: Finding[] })
  | (Base & { type: 'task.claimed'; task_id: string; title: string; branch: string | null; workdir: string; resumed: boolean })
  | (Base & { type: 'task.done'; task_id: string; status: 'done' | 'in_review' })
  | (Base & { type: 'task.attempt_failed'; task_id: string; reason: string })
  | (Base & { type: 'task.released'; task_id: string; reason: string })
  | (Base & { type: 'tool.called'; invocation: number; tool: string; ok: boolean; task_id?: string; message?: string; code?: string })
  | (Base & { type: 'review.fix_tasks'; round: number; verdict: string; task_ids: string[] })
  | (Base & { type: 'merge.done'; task_id: string; branch: string })
  | (Base & { type: 'merge.conflict'; task_id: string; branch: string; files: string[]; message: string })
  | (Base & { type: 'waiting_on_person'; reason: string; subject: string; commands: string[] })
  | (Base & { type: 'person.decided'; person: string; subject: string; decision: 'approve' | 'reject'; feedback?: string })
  | (Base & { type: 'notice'; message: string })
  | (Base & { type: 'settings.changed'; file: string; task_id: string | null; message: string })
  | (Base & { type: 'document.edited'; file: string; task_id: string | null; message: string })
  | (Base & { type: 'worktree.off_branch'; task_id: string; branch: string; head: string | null; commits: string[]; message: string })
  | (Base & {
      type: 'run.finished';
      outcome: string;
      message: string;
      next_steps: string[];
      invocations: number;
      usage: Usage;
      exit_code: number;
    });

export type RunEvent = EventBody & { at: string; run_id: string };
export type EventType = RunEvent['type'];

/** A question the run puts to the person in place (on a terminal). */
export interface PersonQuestion {
  /** What is decided, like "the spec of add-search" or "task add-search/T2". */
  subject: string;
  /** A few lines that help decide: the document's title and summary, or the task's submission. */
  details: string[];
}

export type PersonAnswer = { decision: 'approve' } | { decision: 'reject'; feedback: string } | { decision: 'later' };

/** Where a run's events go: plain lines, JSON lines or the live view. */
export interface RunView {
  show(event: RunEvent): void;
  /** Present when the view can ask the person in place (a terminal, not --json). */
  ask?: (question: PersonQuestion, signal: AbortSignal) => Promise<PersonAnswer>;
  /** Lets go of the terminal; the run's last words are printed after it. */
  close(): Promise<void>;
}
