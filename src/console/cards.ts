/**
 * What the console shows, as plain data: a card per task, per change and per agent, and each thing
 * that waits on the person. The console's screen draws these; src/console/snapshot.ts reads them.
 */
import type { SessionStatus } from '../domain/lifecycle.js';
import type { BlockerSeverity, DocStatus, DocType, Phase, Priority, Severity, TaskStatus, Verdict } from '../domain/model.js';

export interface Blocking {
  severity: BlockerSeverity;
  reason: string;
  by: string;
  at: string;
}

export interface TaskCard {
  /** <change_id>/<task_id> */
  task_id: string;
  change_id: string;
  id: string;
  title: string;
  status: TaskStatus;
  priority: Priority;
  assignee: string | null;
  progress: number | null;
  progress_message: string | null;
  progress_at: string | null;
  claimed_at: string | null;
  /** When the holder last showed life on it (held tasks only). */
  last_activity: string | null;
  submitted_at: string | null;
  submission: string | null;
  depends: string[];
  ready: boolean;
  /** Unresolved blockers, the most severe first. */
  blockers: Blocking[];
}

export interface DocumentRow {
  document: DocType;
  file: string;
  status: DocStatus;
  revision: number;
  author: string;
  updated: string;
  review_requested: boolean;
  /** The next phase waits for a person to approve it (config.yaml require_approval). */
  blocking: boolean;
}

export interface ReviewSummary {
  round: number;
  verdict: Verdict;
  reviewer: string;
  at: string;
  summary: string;
  issues: { severity: Severity; title: string }[];
}

export interface ChangeCard {
  change_id: string;
  title: string;
  phase: Phase;
  waiting_on: string | null;
  documents: DocumentRow[];
  tasks: Record<TaskStatus, number> & { total: number };
  review: ReviewSummary | null;
  /** Errors met reading its files, with file and line. */
  problems: { file: string; line?: number; message: string }[];
}

export interface RunSeat {
  run_id: string;
  role: string;
  invocation: number;
  phase: string;
  task_id: string | null;
  started_at: string;
}

export interface AgentCard {
  agent_id: string;
  name: string | null;
  role: string | null;
  /** The workflow status of its session (seed 002), null when it never reported one. */
  status: SessionStatus | null;
  /** Its last word: the progress message of its task, else its session's message. */
  message: string | null;
  /** When it said it. */
  message_at: string | null;
  /** The task it holds (in progress or blocked), if any. */
  task: { task_id: string; title: string; status: TaskStatus; progress: number | null } | null;
  in_review: number;
  /** Its seat in a running `agentboard run`, with the invocation it is in (null between invocations). */
  run: RunSeat | null;
}

export type WaitingItem =
  | { kind: 'question'; key: string; input_id: string; agent_id: string; question: string; options: string[]; default_action: string; expires_at: string; created_at: string }
  | ({ kind: 'document'; key: string; change_id: string } & DocumentRow)
  | { kind: 'review'; key: string; task_id: string; title: string; assignee: string; submitted_at: string | null; submission: string | null; file: string }
  | { kind: 'blocked'; key: string; task_id: string; title: string; assignee: string | null; blocker: Blocking | null; file: string }
  | { kind: 'stale'; key: string; task_id: string; title: string; assignee: string; idle_minutes: number; run_id: string | null; file: string }
  /** A task list with errors: none of its tasks is handed out until a person fixes the file (its first error, with line). */
  | { kind: 'broken'; key: string; change_id: string; file: string; line: number | null; message: string };

export interface ConsoleSnapshot {
  project: string;
  /** The change the console follows, or null for the whole board. */
  scope: string | null;
  /** Set when the change followed is gone (archived or removed). */
  scope_gone: boolean;
  /** How many changes are archived (read-only; the console shows the open ones). */
  archived: number;
  /** When this was read (the process's clock, ISO). */
  at: string;
  changes: ChangeCard[];
  tasks: TaskCard[];
  agents: AgentCard[];
  waiting: WaitingItem[];
  /** Folders and files that could not be read at all. */
  problems: { file: string; line?: number; message: string }[];
  /** The board's folder (agentd/), when it is gone: moved or deleted while the console runs. The rest is empty until it is back. */
  board_gone: string | null;
  /** Why the last read failed (a damaged runtime store, say): the rest is the last read that did not. */
  trouble: string | null;
}
