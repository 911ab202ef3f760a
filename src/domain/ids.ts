/** Identifier rules. Pure: each check returns a problem description, or null when the value is fine. */
import { LIMITS } from './limits.js';
import { charCount, lineProblem, printable, textProblem } from './text.js';

export { printable };

export const CHANGE_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A short prefix and a number: R1, A1, FR-001, REQ-12, AUTH-R2, MS-R1. */
export const REQUIREMENT_ID_PATTERN = new RegExp(`^(?=.{2,${LIMITS.requirementIdMax}}$)(?=[A-Z])(?:[A-Z][A-Z0-9]*-)*[A-Z]*\\d+$`);
export const HUMAN_PREFIX = 'human:';

/** The board-wide task id "<change_id>/<task_id>": the two patterns above, joined by the slash. */
export const TASK_REF_PATTERN = new RegExp(`^${CHANGE_ID_PATTERN.source.slice(1, -1)}/${TASK_ID_PATTERN.source.slice(1, -1)}$`);

/** A pattern as JSON Schema states it (ECMA-262, as written here: a slash needs no escape). */
export function jsonPattern(pattern: RegExp): string {
  return pattern.source.replaceAll('\\/', '/');
}

export const CHANGE_ID_EXAMPLE = 'add-review-tool';

export function changeIdProblem(id: string): string | null {
  if (id.length === 0) return 'a change id cannot be empty';
  if (id.includes('/') || id.includes('\\') || id.includes('..')) {
    return `"${printable(id)}" is a path, not a change id`;
  }
  const n = charCount(id);
  if (n < LIMITS.changeIdMin || n > LIMITS.changeIdMax) return `a change id has ${LIMITS.changeIdMin} to ${LIMITS.changeIdMax} characters, "${printable(id)}" has ${n}`;
  if (!CHANGE_ID_PATTERN.test(id)) {
    return `"${printable(id)}" is not lowercase kebab-case (letters a-z, digits and single dashes, like "${CHANGE_ID_EXAMPLE}")`;
  }
  return null;
}

/** Whether an agent id would read as a person's (people act as "human:<name>"): "human", and "human" followed by ".", "_" or "-". */
export function readsAsPerson(id: string): boolean {
  return /^human(?:[._-]|$)/.test(id);
}

export function agentIdProblem(id: string): string | null {
  if (id.length === 0 || charCount(id) > LIMITS.agentIdMax) return `an agent id has 1 to ${LIMITS.agentIdMax} characters`;
  if (!AGENT_ID_PATTERN.test(id)) {
    return `"${printable(id)}" is not a valid agent id: use lowercase letters, digits, ".", "_" and "-", starting with a letter or digit (like "claude" or "codex-2")`;
  }
  if (readsAsPerson(id)) {
    return `"${id}" reads as a person, so it is no agent id: "human" and the ids that start with "human-", "human." or "human_" are reserved, as people act as "human:<name>"; give the agent an id of its own (like "claude" or "codex-2"), or act as a person with "human:" and a name (like "human:alice")`;
  }
  return null;
}

export function humanActorProblem(actor: string): string | null {
  const name = actor.slice(HUMAN_PREFIX.length);
  if (!actor.startsWith(HUMAN_PREFIX) || name.trim().length === 0) return 'a person acts as "human:<name>"';
  if (charCount(name) > LIMITS.personNameMax) return `a person's name has at most ${LIMITS.personNameMax} characters`;
  const problem = textProblem(name);
  if (problem) return `a person's name ${problem}`;
  // The name is written into documents' author lines and the activity log, each on one line.
  if (/[\r\n]/.test(name)) return "a person's name is a single line";
  if (name.includes('\t')) return "a person's name holds a tab; write spaces";
  const line = lineProblem(name);
  return line ? `a person's name ${line}` : null;
}

/** An actor is an agent id or a person ("human:<name>"). */
export function actorProblem(actor: string): string | null {
  return actor.startsWith(HUMAN_PREFIX) ? humanActorProblem(actor) : agentIdProblem(actor);
}

export function isHuman(actor: string): boolean {
  return actor.startsWith(HUMAN_PREFIX);
}

export function taskIdProblem(id: string): string | null {
  if (id.length === 0 || charCount(id) > LIMITS.taskIdMax) return `a task id has 1 to ${LIMITS.taskIdMax} characters`;
  if (!TASK_ID_PATTERN.test(id)) return `"${printable(id)}" is not a valid task id (letters, digits, ".", "_" and "-", like "T1" or "1.2")`;
  return null;
}

/** Task ids in their natural order: T2 before T10, 1.2 before 1.10. */
export function compareTaskIds(a: string, b: string): number {
  const [, pa, na] = /^(.*?)(\d*)$/.exec(a)!;
  const [, pb, nb] = /^(.*?)(\d*)$/.exec(b)!;
  if (pa !== pb) return pa! < pb! ? -1 : 1;
  return Number(na || -1) - Number(nb || -1) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The id a new task of a list gets: T<n> one past the highest number among `taken`, and past the list's `count` of tasks. */
export function nextTaskId(taken: Iterable<string>, count: number): string {
  let n = count;
  for (const id of taken) n = Math.max(n, Number(/^T(\d{1,9})$/.exec(id)?.[1] ?? 0));
  return `T${n + 1}`;
}

export interface TaskRef {
  changeId: string;
  taskId: string;
}

/** Parses "<change_id>/<task_id>"; returns a problem string when it is not one. */
export function parseTaskRef(ref: string): TaskRef | string {
  const slash = ref.indexOf('/');
  if (slash < 0) return `"${printable(ref)}" is not a task id of the form <change_id>/<task_id> (like "${CHANGE_ID_EXAMPLE}/T1")`;
  const changeId = ref.slice(0, slash);
  const taskId = ref.slice(slash + 1);
  const problem = changeIdProblem(changeId) ?? taskIdProblem(taskId);
  return problem ?? { changeId, taskId };
}

export function taskRef(changeId: string, taskId: string): string {
  return `${changeId}/${taskId}`;
}

