/**
 * What the person has selected, and what can be done to it: decide on it, answer it, release it,
 * open its file, look into it. The keys and the footer's hints both ask here, so they never disagree.
 */
import type { AgentCard, ChangeCard, ConsoleSnapshot, TaskCard, WaitingItem } from '../../console/cards.js';
import type { ConsoleAction } from '../../console/source.js';
import { clamp } from './format.js';
import type { Question } from './QuestionPrompt.js';
import type { Pane, Views } from './views.js';

export type Target = { kind: 'task'; card: TaskCard } | { kind: 'waiting'; item: WaitingItem } | { kind: 'agent'; agent: AgentCard } | { kind: 'change'; change: ChangeCard };

export interface Decision {
  subject: string;
  details: string[];
  approve: ConsoleAction;
  reject: (feedback: string) => ConsoleAction;
  /** Why the board no longer waits for this decision (decided elsewhere, submitted again), or null while it does. */
  gone: (snapshot: ConsoleSnapshot) => string | null;
  /** The document decided on, whose first lines the decision shows under its details. */
  preview?: { change_id: string; document: string };
}

function taskDecision(taskId: string, title: string, assignee: string | null, submission: string | null, submittedAt: string | null): Decision {
  return {
    subject: `task ${taskId}`,
    details: [`${title}${assignee ? ` · by ${assignee}` : ''}`, ...(submission ? [submission] : [])],
    approve: { type: 'approve_task', task_id: taskId },
    reject: (feedback) => ({ type: 'reject_task', task_id: taskId, feedback }),
    gone: (snapshot) => {
      const card = snapshot.tasks.find((t) => t.task_id === taskId);
      if (card?.status !== 'in_review') return `${taskId} was decided elsewhere.`;
      return card.submitted_at === submittedAt ? null : `${taskId} was submitted again: look at it again.`;
    },
  };
}

/** A task or a change shown in full. */
export type DetailOverlay = { kind: 'task'; task_id: string } | { kind: 'change'; change_id: string };

/** Where the person's cursors stand: the pane, the cursor of each list, and a detail shown, if any. */
export interface Cursors {
  pane: Pane;
  /** The board's focused column, and the cursor of each column. */
  col: number;
  rows: number[];
  agent: number;
  waiting: number;
  change: number;
  overlay: DetailOverlay | { kind: 'help' } | null;
}

/** What the cursors select: the card, agent, item or change under them, or what the detail shows. */
export function selectedTarget(snapshot: ConsoleSnapshot, v: Views, u: Cursors): Target | null {
  if (u.overlay?.kind === 'task') {
    const id = u.overlay.task_id;
    const card = snapshot.tasks.find((t) => t.task_id === id);
    return card ? { kind: 'task', card } : null;
  }
  if (u.overlay?.kind === 'change') {
    const id = u.overlay.change_id;
    const change = snapshot.changes.find((c) => c.change_id === id);
    return change ? { kind: 'change', change } : null;
  }
  switch (u.pane) {
    case 'board': {
      const column = v.columns[u.col]!;
      const card = column[clamp(u.rows[u.col]!, column.length)];
      return card ? { kind: 'task', card } : null;
    }
    case 'agents': {
      const agent = v.agents[clamp(u.agent, v.agents.length)];
      return agent ? { kind: 'agent', agent } : null;
    }
    case 'waiting': {
      const item = v.waiting[clamp(u.waiting, v.waiting.length)];
      return item ? { kind: 'waiting', item } : null;
    }
    case 'changes': {
      const change = v.changes[clamp(u.change, v.changes.length)];
      return change ? { kind: 'change', change } : null;
    }
  }
}

/**
 * Which item a target is, and which version of it (a document's revision, a task's submission): the
 * person approves only what they chose, as it was when they chose it.
 */
export interface Seen {
  item: string;
  version: string;
}

export function seenOf(t: Target | null): Seen | null {
  if (!t) return null;
  switch (t.kind) {
    case 'task':
      return { item: `task ${t.card.task_id}`, version: `${t.card.status} ${t.card.submitted_at}` };
    case 'waiting':
      return { item: t.item.key, version: t.item.kind === 'document' ? String(t.item.revision) : t.item.kind === 'review' ? String(t.item.submitted_at) : '' };
    case 'agent':
      return { item: `agent ${t.agent.agent_id}`, version: '' };
    case 'change':
      return { item: `change ${t.change.change_id}`, version: '' };
  }
}

/** A document awaiting a decision, or a task in review. */
export function decisionOf(t: Target | null): Decision | null {
  if (t?.kind === 'task' && t.card.status === 'in_review') return taskDecision(t.card.task_id, t.card.title, t.card.assignee, t.card.submission, t.card.submitted_at);
  if (t?.kind !== 'waiting') return null;
  const w = t.item;
  if (w.kind === 'review') return taskDecision(w.task_id, w.title, w.assignee, w.submission, w.submitted_at);
  if (w.kind !== 'document') return null;
  return {
    subject: `the ${w.document} of ${w.change_id}`,
    details: [`${w.file} · revision ${w.revision} · by ${w.author}`],
    approve: { type: 'approve_document', change_id: w.change_id, document: w.document },
    preview: { change_id: w.change_id, document: w.document },
    reject: (feedback) => ({ type: 'reject_document', change_id: w.change_id, document: w.document, feedback }),
    gone: (snapshot) => {
      const now = snapshot.waiting.find((o) => o.key === w.key);
      if (now?.kind !== 'document') return `The ${w.document} of ${w.change_id} was decided elsewhere.`;
      return now.revision === w.revision ? null : `The ${w.document} of ${w.change_id} was submitted again (revision ${now.revision}): look at it again.`;
    },
  };
}

export function questionOf(t: Target | null): Question | null {
  return t?.kind === 'waiting' && t.item.kind === 'question' ? t.item : null;
}

/** A claim the person can release: a task someone holds in progress or blocked. */
export function claimOf(t: Target | null): { task_id: string; assignee: string } | null {
  if (t?.kind === 'task') return (t.card.status === 'in_progress' || t.card.status === 'blocked') && t.card.assignee ? { task_id: t.card.task_id, assignee: t.card.assignee } : null;
  if (t?.kind === 'waiting' && (t.item.kind === 'stale' || t.item.kind === 'blocked') && t.item.assignee) return { task_id: t.item.task_id, assignee: t.item.assignee };
  return null;
}

/** Why a claim the person was asked to release is no longer there to release (done, released, held by another agent now), or null while it is. */
export function claimGone(snapshot: ConsoleSnapshot, claim: { task_id: string; assignee: string }): string | null {
  const card = snapshot.tasks.find((t) => t.task_id === claim.task_id);
  if (card && claimOf({ kind: 'task', card })?.assignee === claim.assignee) return null;
  return card?.assignee && card.assignee !== claim.assignee ? `${claim.task_id} is held by ${card.assignee} now, not ${claim.assignee}.` : `${claim.task_id} is no longer held by ${claim.assignee}.`;
}

/** The file behind the selection: a document, or the task list a task is in. */
export function fileOf(t: Target | null, snapshot: ConsoleSnapshot): string | null {
  if (!t) return null;
  if (t.kind === 'waiting') return t.item.kind === 'question' ? null : t.item.file;
  const changeId = t.kind === 'task' ? t.card.change_id : t.kind === 'agent' ? (t.agent.task?.task_id.split('/')[0] ?? null) : null;
  return snapshot.changes.find((c) => c.change_id === changeId)?.documents.find((d) => d.document === 'tasks')?.file ?? null;
}

/** The change to show in full for the selection, if any: a change, or one whose task list has errors (its detail lists them). */
export function changeOf(t: Target | null): string | null {
  if (t?.kind === 'change') return t.change.change_id;
  return t?.kind === 'waiting' && t.item.kind === 'broken' ? t.item.change_id : null;
}

/** The task to show in full for the selection, if any. */
export function taskOf(t: Target | null): string | null {
  if (!t) return null;
  if (t.kind === 'task') return t.card.task_id;
  if (t.kind === 'agent') return t.agent.task?.task_id ?? null;
  if (t.kind === 'waiting' && t.item.kind !== 'question' && t.item.kind !== 'document' && t.item.kind !== 'broken') return t.item.task_id;
  return null;
}

/** The footer's hints for the selection: key and what it does. */
export function hints(t: Target | null, snapshot: ConsoleSnapshot, inDetail: boolean): [string, string][] {
  const out: [string, string][] = [];
  if (questionOf(t)) out.push(['Enter', 'answer']);
  const decision = decisionOf(t);
  if (decision) out.push(['Enter', 'decide'], ['a', 'approve'], ['r', 'reject']);
  if (claimOf(t)) out.push(['x', 'release']);
  if (!inDetail && !decision && !questionOf(t) && (taskOf(t) || changeOf(t))) out.push(['Enter', 'open']);
  if (fileOf(t, snapshot)) out.push(['o', 'read'], ['e', 'edit']);
  if (inDetail) out.push(['j/k', 'scroll'], ['Esc', 'back']);
  else out.push(['/', 'filter']);
  out.push(['?', 'help'], ['q', inDetail ? 'back' : 'quit']);
  return out;
}

/** The hints that fit on a line of `width`: what does not fit is left out from the end, but for `?` (the help lists every key). */
export function fitHints(all: [string, string][], width: number): [string, string][] {
  const out = [...all];
  const length = () => out.reduce((n, [k, what], i) => n + (i > 0 ? 3 : 0) + k.length + 1 + what.length, 0);
  while (out.length > 1 && length() > width) out.splice(out.findLastIndex(([k]) => k !== '?'), 1);
  return out;
}
