/** Every operation of agentboard, in the order the CLI help and the MCP tool list show them. */
import { AGENT_OPS } from './agents.js';
import { CHANGE_OPS } from './changes.js';
import { CONFLICT_OPS } from './conflicts.js';
import { DOCUMENT_OPS } from './documents.js';
import { NEXT_OPS } from './next.js';
import { PEOPLE_OPS } from './people.js';
import { PIPELINE_OPS } from './pipeline.js';
import { REMOTE_OPS } from './remote.js';
import type { Operation } from './registry.js';
import { SESSION_OPS } from './sessions.js';
import { STATUS_OPS } from './status.js';
import { TASK_OPS } from './tasks.js';

export const OPERATIONS: Operation[] = [
  ...CHANGE_OPS,
  ...PIPELINE_OPS,
  ...DOCUMENT_OPS,
  ...NEXT_OPS,
  ...TASK_OPS,
  ...AGENT_OPS,
  ...SESSION_OPS,
  ...STATUS_OPS,
  ...CONFLICT_OPS,
  ...PEOPLE_OPS,
  ...REMOTE_OPS,
] as unknown as Operation[];

export function findOperation(name: string): Operation | undefined {
  return OPERATIONS.find((op) => op.name === name);
}
