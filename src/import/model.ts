/**
 * What an import brings over, before it lands on the board: each change of the source with the
 * documents it maps to, the files kept with it, and a report per source file. The parsers of each
 * tool make one of these from the source files alone; the import operation lands it.
 */
import type { Design, Proposal, ReviewRound, Spec, Task } from '../domain/model.js';
import type { FileReport, SourceFinding } from './report.js';

export const IMPORT_TOOLS = ['agentd', 'openspec', 'spec-kit'] as const;
export type ImportTool = (typeof IMPORT_TOOLS)[number];

export interface ImportedDoc<T> {
  content: T;
  /** The source file (or folder, for a spec made of several files) it came from. */
  from: string;
  /** Remarks the source records about the document (a challenge that approved it), kept as its notes. */
  notes?: { author: string; text: string }[];
  /** A rejection the source records (a challenge asking for a revision): the document lands rejected, with it as feedback. */
  rejected?: { author: string; text: string };
}

export interface ImportedTasks {
  title: string;
  intro?: string;
  tasks: Task[];
}

export interface ImportedChange {
  id: string;
  /** The change's folder in the source, relative to the source's root. */
  source: string;
  /** For a finished change: the day it was archived (YYYY-MM-DD); it lands in agentd/archive/. */
  archived?: string;
  proposal?: ImportedDoc<Proposal>;
  spec?: ImportedDoc<Spec>;
  tasks?: ImportedDoc<ImportedTasks>;
  /** Review rounds, newest first; reviewer and time are set when they land. */
  review?: ImportedDoc<ReviewRound[]>;
  design?: ImportedDoc<Design>;
  /** Files kept with the change as they are: `path` under the change's folder, `from` in the source. */
  attachments: { path: string; from: string }[];
  /** What is said of the change as a whole (its id), not of one of its files. */
  findings?: SourceFinding[];
  /** Why the change cannot land at all (its folder's name makes no change id): nothing of it was read. */
  refused?: { message: string; fix: string };
}

export interface ImportPlan {
  tool: ImportTool;
  changes: ImportedChange[];
  /** One report per source file read, in path order. */
  files: FileReport[];
}
