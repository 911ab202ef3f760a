/**
 * The three state machines of a board, each one table. Operations ask these tables; a refused
 * transition names the ones that are allowed.
 */
import type { DocStatus, TaskStatus } from './model.js';

/** Who may make a move: an agent, a reviewer agent presenting a valid key, or a person. */
export type Role = 'agent' | 'reviewer' | 'human';
const ROLE_RANK: Record<Role, number> = { agent: 0, reviewer: 1, human: 2 };

/** The role an actor plays by its id alone: a person, or an agent (a reviewer proves itself with a key). */
export function actorRole(actor: string): Role {
  return actor.startsWith('human:') ? 'human' : 'agent';
}

export function roleAllows(actual: Role, needed: Role): boolean {
  return ROLE_RANK[actual] >= ROLE_RANK[needed];
}

interface Move<S> {
  from: S;
  to: S;
  by: Role;
}

/** Seed 000's document lifecycle. `superseded` is set by agentboard itself when a newer version replaces one. */
export const DOCUMENT_MOVES: Move<DocStatus>[] = [
  { from: 'template', to: 'submitted', by: 'agent' },
  { from: 'rejected', to: 'submitted', by: 'agent' },
  { from: 'superseded', to: 'submitted', by: 'agent' },
  { from: 'submitted', to: 'submitted', by: 'reviewer' },
  { from: 'submitted', to: 'approved', by: 'human' },
  { from: 'submitted', to: 'rejected', by: 'human' },
];

export const TASK_MOVES: Move<TaskStatus>[] = [
  { from: 'todo', to: 'in_progress', by: 'agent' },
  { from: 'todo', to: 'done', by: 'agent' },
  { from: 'in_progress', to: 'done', by: 'agent' },
  { from: 'in_progress', to: 'blocked', by: 'agent' },
  { from: 'in_progress', to: 'in_review', by: 'agent' },
  { from: 'in_progress', to: 'todo', by: 'human' },
  { from: 'blocked', to: 'in_progress', by: 'agent' },
  { from: 'blocked', to: 'todo', by: 'human' },
  { from: 'in_review', to: 'done', by: 'human' },
  { from: 'in_review', to: 'todo', by: 'human' },
  { from: 'done', to: 'todo', by: 'human' },
];

export const SESSION_STATUSES = ['started', 'working', 'awaiting_input', 'blocked', 'awaiting_review', 'completed'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Seed 002's workflow state machine, exactly: `completed` is terminal for a session. */
export const SESSION_MOVES: Record<SessionStatus, SessionStatus[]> = {
  started: ['working'],
  working: ['awaiting_input', 'blocked', 'awaiting_review', 'completed'],
  awaiting_input: ['working'],
  blocked: ['working'],
  awaiting_review: ['working', 'completed'],
  completed: [],
};

export function movesFrom<S>(table: Move<S>[], from: S, role: Role): S[] {
  return table.filter((m) => m.from === from && roleAllows(role, m.by)).map((m) => m.to);
}

/** The role a move needs, or null when the table has no such move at all. */
export function roleFor<S>(table: Move<S>[], from: S, to: S): Role | null {
  return table.find((m) => m.from === from && m.to === to)?.by ?? null;
}

export function canMoveSession(from: SessionStatus, to: SessionStatus): boolean {
  return SESSION_MOVES[from].includes(to);
}
