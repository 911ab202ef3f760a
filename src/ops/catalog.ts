/**
 * The operations as the command line knows them before it loads any: name, summary, access,
 * command and input fields, and the module each lives in. Loading an operation's module builds its
 * zod schemas, and building every schema of the registry takes longer than the rest of a quick
 * command, so the CLI reads this catalog (made from the registry when agentboard is built, see
 * scripts/build.mjs) and loads only the module of the operation that runs.
 */
import { fieldsOf, type Field } from '../cli/fields.js';
import type { Access, CliSpec, Operation, ToolProfile } from './registry.js';

/**
 * The modules of the registry (ops/index.ts lists their operations in order), each loaded when first
 * needed. The build refuses an operation of none of them (describeOperations).
 */
const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  changes: () => import('./changes.js'),
  pipeline: () => import('./pipeline.js'),
  documents: () => import('./documents.js'),
  next: () => import('./next.js'),
  tasks: () => import('./tasks.js'),
  agents: () => import('./agents.js'),
  sessions: () => import('./sessions.js'),
  status: () => import('./status.js'),
  conflicts: () => import('./conflicts.js'),
  people: () => import('./people.js'),
  remote: () => import('./remote.js'),
};

export interface OpInfo {
  name: string;
  summary: string;
  access: Access;
  /** The key of its module in MODULES. */
  module: string;
  cli: Omit<CliSpec, 'exitCode'>;
  /** Every field of its input (agent_id included). */
  fields: Field[];
  /** The MCP profiles that serve it as a tool besides `all`; none for a person's operation. */
  profiles?: ToolProfile[];
}

function isOperation(value: unknown): value is Operation {
  return value !== null && typeof value === 'object' && typeof (value as Operation).name === 'string' && typeof (value as Operation).run === 'function';
}

function operationsOf(exports: Record<string, unknown>): Operation[] {
  return Object.values(exports).flatMap((v) => (Array.isArray(v) && v.every(isOperation) ? v : []));
}

const SPELLED = new WeakMap<Operation, Omit<OpInfo, 'module'>>();

/** An operation as the command line spells it (see cli/refs.ts), from the operation itself; made once per operation (next steps spell one at every call). */
export function spelledOf(op: Operation): Omit<OpInfo, 'module'> {
  let spelled = SPELLED.get(op);
  if (spelled === undefined) {
    const { exitCode: _exitCode, ...cli } = op.cli;
    spelled = { name: op.name, summary: op.summary, access: op.access, cli, fields: fieldsOf(op.input.shape as Record<string, never>), ...(op.tool ? { profiles: op.tool.profiles } : {}) };
    SPELLED.set(op, spelled);
  }
  return spelled;
}

/** The catalog of every operation, read from the registry itself (the build embeds its result). */
export async function describeOperations(order: readonly Operation[]): Promise<OpInfo[]> {
  const moduleOf = new Map<string, string>();
  for (const [key, load] of Object.entries(MODULES)) for (const op of operationsOf(await load())) moduleOf.set(op.name, key);
  return order.map((op) => {
    const module = moduleOf.get(op.name);
    if (module === undefined) throw new Error(`${op.name} is in none of the catalog's modules`);
    return { ...spelledOf(op), module };
  });
}

/** The catalog as JSON text (parsing JSON is quicker than running a literal as large). */
declare const AGENTBOARD_CATALOG: string | undefined;

/** Every operation, in the registry's order: embedded by the build, or read from the registry when running from source. */
export async function catalog(): Promise<OpInfo[]> {
  if (typeof AGENTBOARD_CATALOG !== 'undefined') return JSON.parse(AGENTBOARD_CATALOG) as OpInfo[];
  const { OPERATIONS } = await import('./index.js');
  return describeOperations(OPERATIONS);
}

/** Whether the operation's input has this field. */
export function takes(info: Pick<OpInfo, 'fields'>, field: string): boolean {
  return info.fields.some((f) => f.name === field);
}

/** The operation itself, its module loaded. */
export async function loadOperation(info: OpInfo): Promise<Operation> {
  const op = operationsOf(await MODULES[info.module]!()).find((o) => o.name === info.name);
  if (!op) throw new Error(`${info.name} is not in the module ${info.module}`);
  return op;
}
