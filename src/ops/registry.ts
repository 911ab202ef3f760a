/**
 * THE operation registry. Every operation is defined once here-in: name, summary, access level,
 * zod input and output, and one implementation. The CLI and the MCP server are generated from
 * these definitions; neither holds behaviour of its own.
 */
import type * as z from 'zod';
import { fail } from '../errors.js';
import { isHuman } from '../domain/ids.js';
import { startedAgent } from '../domain/agent-markers.js';
import { resolve } from 'node:path';
import { Board, runBoardOf, type Notice } from '../store/board.js';
import type { Stage } from '../domain/model.js';

export type Access = 'read' | 'agent' | 'reviewer' | 'human';

export interface Context {
  /** --root as given (made absolute), when given. */
  readonly root: string | undefined;
  /** The folder the command runs in, where the board is looked for when --root is not given. */
  readonly cwd: string;
  /** The environment the command runs in (init looks for agentboard on its PATH). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The board, found on first use (so that `init` can run where there is none yet). */
  board(): Board;
  /** The documents the caller can write (an MCP profile's tools), when not all: `next` hands out rejected ones of these kinds only. */
  readonly writesDocuments?: readonly Stage[];
  /** The operations the caller can call (an MCP profile's tools), when not all: a next step that would name another is worded for these. */
  readonly callable?: ReadonlySet<string>;
  /** What the commands run so far had to say besides their results (merged edits, recovered writes); taken once. */
  takeNotices(): Notice[];
  /** Called as each operation starts: the board checks afresh what it checks once per operation. */
  begin(): void;
  /** --sync: on a shared board, reads fetch the board from the remote first (writes always do). */
  readonly sync?: boolean;
  /** Without --sync: how the reader has a read fetch first, said after a read of a shared board. */
  readonly syncHint?: string;
  /** Whether a result is small enough for the caller (an MCP tool result); pages are cut to fit. Unset: any size. */
  readonly fits?: (result: unknown) => boolean;
  /** The task `agentboard run` gave the agent this process works for: it writes to no other task, and `next` hands out only this one. */
  readonly assignment?: string;
  /** The phase of a change `agentboard run` started the agent this process works for in, when no task (its planner, its reviewer): a question it asks is that phase's. */
  readonly runPhase?: RunPhase;
}

/** A run's planner or reviewer at work: the agent, the change, and the phase (proposal, spec, tasks, review). */
export interface RunPhase {
  agentId: string;
  changeId: string;
  phase: string;
}

/** The agent of `agentboard run` a process works for, and the task the run gave it: by --as, --run and --task, else by the environment the run gave its agent. */
export interface RunAgent {
  agentId?: string;
  task?: string;
  /** By --change and --phase (or the environment): the change and phase the run started an agent without a task for. */
  change?: string;
  phase?: string;
}

function runAgentOf(env: Readonly<Record<string, string | undefined>>, given: RunAgent | undefined): RunAgent {
  if (given?.agentId) return given;
  const started = startedAgent(env);
  return env.AGENTBOARD_RUN_ID && started ? { agentId: started, task: env.AGENTBOARD_TASK_ID || undefined, change: env.AGENTBOARD_CHANGE_ID || undefined, phase: env.AGENTBOARD_PHASE || undefined } : {};
}

export function createContext(root: string | undefined, cwd = process.cwd(), env: Readonly<Record<string, string | undefined>> = process.env, options: { sync?: boolean; syncHint?: string; runAgent?: RunAgent } = {}): Context {
  let board: Board | null = null;
  const absolute = root === undefined ? (runBoardOf(cwd, env) ?? undefined) : resolve(cwd, root);
  const runAgent = runAgentOf(env, options.runAgent);
  const open = () => {
    const opened = Board.open(absolute, cwd);
    opened.agentOfRun = runAgent.agentId ?? null;
    opened.foundByFolder = absolute === undefined;
    return opened;
  };
  return {
    root: absolute,
    cwd,
    env,
    sync: options.sync === true,
    syncHint: options.syncHint ?? '--sync fetches first',
    ...(runAgent.task ? { assignment: runAgent.task } : {}),
    ...(runAgent.agentId && !runAgent.task && runAgent.change && runAgent.phase ? { runPhase: { agentId: runAgent.agentId, changeId: runAgent.change, phase: runAgent.phase } } : {}),
    board: () => (board ??= open()),
    takeNotices: () => (board ? board.notices.splice(0) : []),
    begin: () => board?.begin(),
  };
}

export interface CliSpec {
  /** The command path, like "task add". */
  command: string;
  /** Input fields taken as positional arguments, in order; a trailing "?" marks one as optional. */
  args?: string[];
  /** Flag names for input fields whose flag is not --<field-name> (like { options: 'option' }). */
  flags?: Record<string, string>;
  /** A document type whose markdown --from FILE.md fills the input. */
  from?: 'proposal' | 'spec' | 'tasks' | 'review';
  /** An input field that --from FILE.md fills with the file's text as it is. */
  fromText?: string;
  /** Exit code for a successful result (validate exits 1 when the board is invalid). */
  exitCode?: (data: unknown) => number;
}

/** The sets of tools `agentboard mcp --profile` serves; `all` is every tool. */
export const PROFILES = ['worker', 'planner', 'reviewer', 'agent', 'all'] as const;
export type Profile = (typeof PROFILES)[number];
export type ToolProfile = Exclude<Profile, 'all'>;

export interface ToolSpec {
  /** agentboard_<verb>_<noun>, at most 47 characters. */
  name: string;
  title: string;
  /**
   * Written for the agent doing the work: what to call it for, what comes back, what to do next.
   * Other operations are named with refTo(); a sentence naming one the reader's profile lacks is left out.
   */
  description: string;
  /** The MCP profiles that serve it besides `all`. */
  profiles: ToolProfile[];
  idempotent?: boolean;
  /** The call can drop what is on the board (a task, a document's text), not only add to it. */
  destructive?: boolean;
}

export interface Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  summary: string;
  access: Access;
  input: I;
  output: O;
  cli: CliSpec;
  /** Present for every operation an agent may call; human-only operations have none. */
  tool?: ToolSpec;
  /**
   * The document rules the input schema cannot express (a requirement without MUST, a dependency
   * on a task that is not there), as messages, run on an input that failed its schema so that one
   * answer names every problem. Given the call's context, a rule may read the board (a task's
   * dependencies are checked against its change's list).
   */
  inputRules?: (raw: Record<string, unknown>, ctx?: Context) => string[];
  /**
   * On a shared board whose remote cannot be reached, the write is checked against the local copy
   * and queued, to be pushed in order on the next sync (notes and progress); other writes fail.
   */
  queueable?: boolean;
  /**
   * The operation is run as it is, never through ops/shared-run.ts: it manages the shared board
   * itself (agentboard remote …), or it may run where there is no board yet (init, import), whose
   * writes still go through the shared board when there is one (Board.mutate).
   */
  ownSync?: boolean;
  run(ctx: Context, input: z.output<I>): z.input<O> | Promise<z.input<O>>;
}

export function defineOp<I extends z.ZodObject, O extends z.ZodObject>(op: Operation<I, O>): Operation<I, O> {
  if (op.access === 'human' && op.tool) throw new Error(`${op.name}: human-only operations are not tools`);
  if (op.access !== 'human' && !op.tool) throw new Error(`${op.name}: operations an agent may call need a tool`);
  return op;
}

/** The operation's input rules for a call made in `ctx`: those that read the board read it there. */
export function inputRulesOf(op: Operation, ctx: Context): ((raw: Record<string, unknown>) => string[]) | undefined {
  const rules = op.inputRules;
  return rules && ((raw) => rules(raw, ctx));
}

/** Refuses a human-only operation for anyone but a person. */
export function requireHuman(actor: string, what: string): void {
  if (!isHuman(actor)) {
    fail('HUMAN_ONLY', `${what} is reserved to people; ${actor} is an agent.`, 'Ask a person to do it from the agentboard CLI (without --as, or with --as human: and their name, like human:alice).');
  }
}
