/**
 * The one error type of agentboard. Every refusal carries a stable code, a message that says what
 * happened, and the next step that says what to do about it. Adapters render it; nothing else is
 * ever shown to a user or an agent for a failure (no stack, no path outside the board).
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'INPUT_TOO_LARGE',
  'USAGE',
  'BOARD_NOT_FOUND',
  'BOARD_EXISTS',
  'AGENTD_BOARD',
  'IMPORT_REFUSED',
  'BOARD_BUSY',
  'CONFIG_INVALID',
  'PARSE_ERROR',
  'CHANGE_NOT_FOUND',
  'CHANGE_EXISTS',
  'CHANGE_ARCHIVED',
  'DOCUMENT_NOT_FOUND',
  'DOCUMENT_SUBMITTED',
  'DOCUMENT_APPROVED',
  'DOCUMENT_NOT_SUBMITTED',
  'DOCUMENT_HELD',
  'PHASE_NOT_READY',
  'VALIDATION_FAILED',
  'TASK_NOT_FOUND',
  'TASK_EXISTS',
  'TASK_HELD',
  'TASK_IN_REVIEW',
  'TASK_NOT_READY',
  'TASK_IN_PROGRESS',
  'TASK_NOT_YOURS',
  'INVALID_TRANSITION',
  'HUMAN_ONLY',
  'AGENT_ENVIRONMENT',
  'PERSON_REQUIRED',
  'PERSON_KEY_INVALID',
  'PERSON_MISMATCH',
  'ACTOR_REQUIRED',
  'REVIEW_KEY_INVALID',
  'REVIEWER_EXISTS',
  'AGENT_NOT_FOUND',
  'INPUT_NOT_FOUND',
  'INPUT_ALREADY_OPEN',
  'INPUT_RESOLVED',
  'ARCHIVE_REFUSED',
  'MCP_CONFIG_INVALID',
  'DISK_FULL',
  'PERMISSION_DENIED',
  'READ_ONLY',
  'NOT_A_FILE',
  'NOT_A_FOLDER',
  'UNSAFE_PATH',
  'IO_ERROR',
  'BOARD_CHANGED',
  'SELF_REVIEW',
  'AGENT_MISMATCH',
  'REVIEWER_NOT_FOUND',
  'RUN_NOT_CONFIGURED',
  'RUN_REFUSED',
  'ROLE_REFUSED',
  'RUN_NOT_FOUND',
  'NOT_A_GIT_REPOSITORY',
  'REMOTE_NOT_FOUND',
  'REMOTE_NO_BOARD',
  'REMOTE_UNREACHABLE',
  'REMOTE_REFUSED',
  'REMOTE_BUSY',
  'REMOTE_ENABLED',
  'REMOTE_NOT_ENABLED',
  'REMOTE_NOT_CONFIGURED',
  'QUEUED_WRITE_REFUSED',
  'QUEUE_NOT_EMPTY',
  'QUEUED_WRITE_NOT_FOUND',
  'GIT_FAILED',
  'HAND_EDITED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  next_step: string;
  details?: unknown;
}

export class AgentboardError extends Error {
  readonly code: ErrorCode;
  readonly nextStep: string;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, nextStep: string, details?: unknown) {
    super(message);
    this.name = 'AgentboardError';
    this.code = code;
    this.nextStep = nextStep;
    this.details = details;
  }

  toJSON(): ErrorPayload {
    const payload: ErrorPayload = { code: this.code, message: this.message, next_step: this.nextStep };
    if (this.details !== undefined) payload.details = this.details;
    return payload;
  }
}

export function fail(code: ErrorCode, message: string, nextStep: string, details?: unknown): never {
  throw new AgentboardError(code, message, nextStep, details);
}

/** Turns anything thrown into the payload a user may see: internals never leak. */
export function toPayload(err: unknown): ErrorPayload {
  if (err instanceof AgentboardError) return err.toJSON();
  return {
    code: 'INTERNAL',
    message: 'agentboard hit an unexpected internal error.',
    next_step: 'Run the same command again with --debug to see the cause, and report it if it repeats.',
  };
}

/** Errors whose next step is to mend a file of the board: a person's work, never an agent's. */
const MENDED_BY_PEOPLE: ReadonlySet<ErrorCode> = new Set(['PARSE_ERROR', 'NOT_A_FILE', 'NOT_A_FOLDER', 'CONFIG_INVALID']);

/**
 * The payload as an agent is shown it: a board file that needs mending (a person's save half done,
 * say) is retried or handed to a person with `ask` (the call that asks one), never edited, restored
 * from git or deleted by the agent, which could throw away a person's unsaved work.
 */
export function forAgent(payload: ErrorPayload, ask: string): ErrorPayload {
  if (!MENDED_BY_PEOPLE.has(payload.code)) return payload;
  const then = EVERY_CALL_READS.test(payload.message)
    ? 'every call fails with it, asking a person through agentboard too: tell the person you work with, quoting this error, and make no more agentboard calls until it is mended.'
    : `ask a person to mend it with ${ask}, quoting this error, and go on with other work meanwhile.`;
  return { ...payload, next_step: `Do not edit, restore or delete board files yourself. If a person is saving the file now, the same call works in a moment; if it fails again, ${then}` };
}

/**
 * The board's settings (config.yaml, or a file misnamed for it) and its runtime store, named first in
 * the message of their errors: every call reads them, a question to a person included.
 */
const EVERY_CALL_READS = /^\S*?\/(?:\.runtime\/|config\.ya?ml\b)/i;
