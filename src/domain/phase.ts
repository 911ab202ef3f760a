/**
 * A change's phase is derived from its documents, never stored: proposal → spec → tasks →
 * implementation → review → done (→ archived, by where the folder is).
 */
import { DOC_WORDS, type DocStatus, type DocType, type Phase, type Task, type Verdict } from './model.js';

export interface DocState {
  status: DocStatus;
  /** The file is there but cannot be read as the document (a half-finished save, broken frontmatter). */
  unreadable?: boolean;
}

export interface ChangeState {
  proposal: DocState | null;
  spec: DocState | null;
  /** `broken`: the list has errors, so some of its tasks may not be read (none is handed out). */
  tasks: (DocState & { tasks: Pick<Task, 'status'>[]; broken?: boolean }) | null;
  review: (DocState & { verdict: Verdict | null }) | null;
}

export interface PhaseInfo {
  phase: Phase;
  /** What the change waits for, in a few words; null when done. */
  waiting_on: string | null;
}

/** A pipeline document counts once it is submitted (or approved, when approval is required). */
export function docComplete(doc: DocState | null, approvalRequired: boolean): boolean {
  if (!doc) return false;
  return approvalRequired ? doc.status === 'approved' : doc.status === 'submitted' || doc.status === 'approved';
}

export function waitingFor(type: DocType, doc: DocState | null, approvalRequired: boolean): string {
  const name = DOC_WORDS[type];
  if (doc?.unreadable) return `its ${name} file to be fixed: it cannot be read`;
  if (!doc || doc.status === 'template' || doc.status === 'superseded') return `the ${name} to be written`;
  if (doc.status === 'rejected') return `the ${name} to be revised after rejection`;
  if (doc.status === 'submitted' && approvalRequired) return `a person to approve the ${name}`;
  return `the ${name}`;
}

export function derivePhase(state: ChangeState, requireApproval: readonly string[]): PhaseInfo {
  for (const type of ['proposal', 'spec', 'tasks'] as const) {
    const approval = requireApproval.includes(type);
    if (!docComplete(state[type], approval)) return { phase: type, waiting_on: waitingFor(type, state[type], approval) };
  }
  const tasks = state.tasks!.tasks;
  // A list with errors may hide tasks still to do: its work waits for the file to be fixed, not for a review.
  if (state.tasks!.broken) return { phase: 'implementation', waiting_on: 'its task list file to be fixed: it has errors' };
  // No command leaves a list without tasks (the last one cannot be removed): a hand edit did, and there is no work to review.
  if (tasks.length === 0) return { phase: 'implementation', waiting_on: 'its task list file to be fixed: it has no tasks' };
  const open = tasks.filter((t) => t.status !== 'done').length;
  if (open > 0) return { phase: 'implementation', waiting_on: `${open} of ${tasks.length} task${tasks.length === 1 ? '' : 's'} to be done` };
  if (!state.review || state.review.verdict === null) return { phase: 'review', waiting_on: 'a review of the work' };
  if (state.review.verdict !== 'APPROVED') return { phase: 'review', waiting_on: `fixes for a ${state.review.verdict} review, then a new review round` };
  return { phase: 'done', waiting_on: 'a person to archive the change' };
}
