/**
 * What the console's screen (the ink bundle, dist/tui.mjs) is given to work with: the board as it
 * stands, a way to hear of changes, and the person's acts. The screen holds no board logic; every
 * act is an operation of the registry, run by the command side (src/console/live.ts).
 */
import type { Finding } from '../domain/findings.js';
import type { TaskOutput } from '../ops/view.js';
import type { ConsoleSnapshot } from './cards.js';

export type ConsoleAction =
  | { type: 'approve_document'; change_id: string; document: string }
  | { type: 'reject_document'; change_id: string; document: string; feedback: string }
  | { type: 'approve_task'; task_id: string }
  | { type: 'reject_task'; task_id: string; feedback: string }
  | { type: 'answer'; input_id: string; answer: string }
  | { type: 'release_task'; task_id: string };

/** What an act came to: the line to show the person, or the board's refusal with its next step. */
export type ActionResult = { ok: true; message: string } | { ok: false; code: string; message: string; next_step: string };

export type Read<T> = { ok: true; data: T } | { ok: false; code: string; message: string; next_step: string };

export interface TaskDetail {
  task: TaskOutput;
  dependencies: { task_id: string; title: string; status: string }[];
}

export interface ConsoleSource {
  /** The person at the keyboard, who every act is made as. */
  readonly person: string;
  get(): ConsoleSnapshot;
  subscribe(listener: () => void): () => void;
  act(action: ConsoleAction): Promise<ActionResult>;
  task(taskId: string): Promise<Read<TaskDetail>>;
  /** The first lines of a document's text (its frontmatter left out), as a decision on it shows them. */
  preview(changeId: string, document: string): Promise<Read<string[]>>;
  /** `agentboard validate <change_id>`'s findings, with file and line. */
  findings(changeId: string): Promise<Read<Finding[]>>;
  /** Hands the terminal to $PAGER or $EDITOR on a board file (relative to the repository root) and takes it back. */
  open(file: string, tool: 'pager' | 'editor'): Promise<ActionResult>;
  /** A text with references to operations (domain/refs.ts), spelled as the commands the person would type. */
  spell(text: string): string;
}
