/**
 * `agentboard mcp`: every operation an agent may call, served as an MCP tool over stdio.
 * Tools are generated from the operation registry; human-only operations are not tools at all.
 * stdout carries JSON-RPC only; nothing is written to disk until a tool is called.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { AgentboardError, fail, forAgent, toPayload, type ErrorPayload } from '../errors.js';
import { agentIdProblem } from '../domain/ids.js';
import { refuseOtherAgent, startedAgent } from '../domain/agent-markers.js';
import { appendJsonLine, callRecord, invocationPaths, runDir, type CallRecord } from '../store/runs.js';
import { OPERATIONS } from '../ops/index.js';
import { parseInput } from '../ops/input.js';
import { createContext, inputRulesOf, type Context, type Operation, type Profile } from '../ops/registry.js';
import { endTenures, runCombined } from '../ops/combine.js';
import { refTo, resolveRefs, resolveRefsDeep, type Ref } from '../domain/refs.js';
import { fitGuidance, toolSpeller } from './refs.js';
import { instructionsFor } from './instructions.js';
import { AgentId } from '../ops/schemas.js';
import { errorText, fitsFor, toolResult, type ResponseFormat } from './result.js';
import { FORMS, fullInputSchema, jsonSchema, leanAnnotations, leanInputSchema, sayOnce, type Form, type JsonSchema } from './schema.js';
import { VERSION } from '../version.js';
import { LIMITS } from '../domain/limits.js';
import { LineTransport } from './stdio.js';
import { documentsWritten } from '../ops/doc-write.js';
import { printable } from '../domain/text.js';
import { stopWaiting } from '../store/lock.js';
import { useSyncPool } from '../store/sync-pool.js';
import { Board, findRoot, runBoardOf } from '../store/board.js';

export { PROFILES, type Profile } from '../ops/registry.js';


export function toolOperations(profile: Profile): Operation[] {
  return OPERATIONS.filter((op) => op.tool && (profile === 'all' || op.tool.profiles.includes(profile)));
}

const ResponseFormat = z.enum(['markdown', 'json']).optional().describe('The text block: a markdown summary (the default) or the JSON.');

function takesResponseFormat(op: Operation): boolean {
  return op.access === 'read' || op.name === 'task.next';
}

/**
 * A server started with `--as <agent_id>` (as `agentboard run` starts one per agent) acts for that
 * agent only: agent_id may be left out and means the bound agent, and a call that acts under
 * another agent id is refused. Reads may still look up other agents.
 */
export interface Binding {
  agentId: string;
  /** Where each call's outcome is appended, for the run that started this server. */
  record?: (entry: CallRecord) => void;
}

/** The tool's input: the operation's, with agent ids only (no "human:") and, for reads, response_format. */
export function toolInput(op: Operation, binding?: Binding): z.ZodObject {
  const extra: Record<string, z.ZodType> = {};
  const agentId = op.input.shape.agent_id as z.ZodType | undefined;
  if (agentId) {
    const required = !(agentId as unknown as { _zod: { optin?: string } })._zod.optin;
    if (binding) extra.agent_id = AgentId.optional().describe(`Your agent id; this server acts for "${binding.agentId}", the default when left out.`);
    else extra.agent_id = required ? AgentId : AgentId.optional();
  } else {
    // Agents are told to pass their id on every call: a read that does not need it takes it and lets it be.
    extra.agent_id = AgentId.optional();
  }
  if (takesResponseFormat(op)) extra.response_format = ResponseFormat;
  // Where imported text came from is set by `agentboard import` and --from, not by an agent.
  const own = 'imported_from' in op.input.shape ? op.input.omit({ imported_from: true }) : op.input;
  return own.safeExtend(extra) as unknown as z.ZodObject;
}

/** The tool's output: the operation's, and a notice when the result had to be shortened to fit. */
export function toolOutput(op: Operation): z.ZodObject {
  return 'notice' in op.output.shape ? op.output : op.output.extend({ notice: z.string().optional().describe('Says what was shortened to fit.') });
}

function text(value: string): CallToolResult['content'][number] {
  return { type: 'text', text: value };
}

type Spell = (r: Ref) => string;

export function toolError(payload: ErrorPayload, spell: Spell, notes: string[] = []): CallToolResult {
  const error = { code: payload.code, message: resolveRefs(payload.message, spell), next_step: resolveRefs(payload.next_step, spell) };
  return { content: [text(errorText(error)), ...notes.map((n) => text(`Note: ${n}`.slice(0, 1_000)))], isError: true };
}

/** The arguments of a call to a bound server, with the bound agent id filled in, or the refusal of another one. */
function bindArgs(op: Operation, binding: Binding, args: unknown): unknown {
  if (!('agent_id' in op.input.shape) || args === null || typeof args !== 'object' || Array.isArray(args)) return args;
  const given = (args as Record<string, unknown>).agent_id;
  // null is agent_id left out, as for any field (ops/input.ts)
  if (given === undefined || given === null) return { ...args, agent_id: binding.agentId };
  if (given !== binding.agentId && op.access !== 'read') {
    fail('AGENT_MISMATCH', `This MCP server acts for agent "${binding.agentId}"; a call as "${printable(String(given))}" is refused.`, `Call again with agent_id "${binding.agentId}", or leave agent_id out.`);
  }
  return args;
}

function recordCall(binding: Binding | undefined, tool: string, args: unknown, error: ErrorPayload | null, spell: Spell): void {
  if (!binding?.record) return;
  const entry = callRecord(tool, args, error && { code: error.code, message: resolveRefs(error.message, spell), next_step: resolveRefs(error.next_step, spell) });
  try {
    binding.record(entry);
  } catch (err) {
    process.stderr.write(`agentboard mcp: could not record a call for the run: ${(err as Error).message}\n`);
  }
}

async function callTool(ctx: Context, op: Operation, input: z.ZodObject, args: unknown, spell: Spell, binding?: Binding, signal?: AbortSignal): Promise<CallToolResult> {
  try {
    if (binding) args = bindArgs(op, binding, args);
    const ownAgentId = 'agent_id' in op.input.shape;
    const parsed = parseInput(input, args, { rules: inputRulesOf(op, ctx), extra: ownAgentId ? ['response_format'] : ['response_format', 'agent_id'] }) as Record<string, unknown>;
    const { response_format: format = 'markdown', ...rest } = parsed as { response_format?: ResponseFormat };
    if (!ownAgentId) delete (rest as Record<string, unknown>).agent_id;
    const data = resolveRefsDeep(await runCombined(op, { ...ctx, fits: fitsFor(op.name, format) }, rest, format, { signal }), spell);
    recordCall(binding, op.tool!.name, args, null, spell);
    return toolResult(op.name, data, format, spell, ctx.takeNotices().map((n) => resolveRefs(n.message, spell)));
  } catch (err) {
    const payload = toPayload(err);
    if (!(err instanceof AgentboardError)) {
      process.stderr.write(`agentboard mcp: ${op.tool!.name} failed: ${(err as Error).stack ?? String(err)}\n`);
      payload.next_step = "Call the tool again; if it fails again, the cause is in the MCP server's log (its standard error).";
    }
    // An agent cannot pass --root or make a board: a person does either.
    if (payload.code === 'BOARD_NOT_FOUND') payload.next_step = 'A person runs `agentboard init` in the repository, or starts this MCP server with --root and the repository (in the MCP settings of the client); tell them.';
    const shown = forAgent(payload, refTo('input.ask'));
    recordCall(binding, op.tool!.name, args, shown, spell);
    // What the call did before it was refused (a sync that merged, say) is told with the refusal, not with the next call.
    return toolError(shown, spell, ctx.takeNotices().map((n) => resolveRefs(n.message, spell)));
  }
}

/** The main worktree's board, when the board at `root` is a linked worktree's copy apart from it (Board.mainBoardApart); null else, or when it cannot be read. */
function mainBoardApartFrom(root: string): string | null {
  try {
    return Board.open(root).mainBoardApart();
  } catch {
    return null;
  }
}

/** What the server says on stderr when it starts where no board is. */
const NO_BOARD_HERE = (dir: string) => `no board (an agentd/ folder) is at ${dir} or above it: every call is refused with BOARD_NOT_FOUND until a person runs \`agentboard init\` there, or starts this server with --root and the repository`;

/** Calls under way, so that the server answers every one of them before it exits. */
const inFlight = new Set<Promise<unknown>>();

/**
 * Why the params of a tools/call request are not a call at all (no tool name, arguments that are
 * not an object), in words; null when they are. Such a request gets a JSON-RPC invalid-params
 * error; a call whose fields are wrong gets a tool error the agent reads (INVALID_INPUT).
 */
function callParamsProblem(params: unknown): string | null {
  const kind = (v: unknown) => (v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return `tools/call needs params {"name": <tool name>, "arguments": {…}}; got ${kind(params)}.`;
  const { name, arguments: args } = params as Record<string, unknown>;
  if (typeof name !== 'string') return `params.name must be the name of a tool, a string like "agentboard_get_task"; got ${kind(name)}.`;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return `params.arguments of ${printable(name)} must be a JSON object of the tool's fields, like {"agent_id": "codex-1"}; got ${kind(args)}.`;
  }
  return null;
}

/** A JSON-RPC error the SDK sends as it is: its code, its message, nothing added. */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * The SDK's server, taking a task-augmented request (params.task) as any other: this server
 * declares no tasks capability, and MCP has such a server process the request normally, ignoring
 * the task, where the SDK refuses it.
 */
class TasklessServer extends Server {
  protected override assertTaskHandlerCapability(): void {}
}

export function createServer(ctx: Context, profile: Profile = 'all', binding?: Binding): Server {
  const served = toolOperations(profile);
  const server = new TasklessServer({ name: 'agentboard', version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: instructionsFor(profile, served, binding?.agentId) });
  const calls = new Map<string, (args: unknown, signal: AbortSignal) => Promise<CallToolResult>>();
  const listing: (Omit<Tool, 'inputSchema'> & { fullInput: JsonSchema })[] = [];
  const toolCtx: Context = { ...ctx, writesDocuments: documentsWritten(served), callable: new Set(served.map((op) => op.name)) };
  const spell = toolSpeller(served);
  for (const op of served) {
    const tool = op.tool!;
    const input = toolInput(op, binding);
    const call = (args: unknown, signal: AbortSignal) => {
      // Its answers name this tool as the call to make again (SAME_CALL), and a command the agent
      // runs itself with its id (--as).
      const given = (args as { agent_id?: unknown } | null)?.agent_id;
      const spellCall = toolSpeller(served, op, typeof given === 'string' ? given : binding?.agentId, binding?.agentId === undefined);
      const running = callTool(toolCtx, op, input, args, spellCall, binding, signal);
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
      return running;
    };
    const annotations = {
      readOnlyHint: op.access === 'read',
      destructiveHint: op.access !== 'read' && tool.destructive === true,
      idempotentHint: tool.idempotent ?? op.access === 'read',
      openWorldHint: false,
    };
    calls.set(tool.name, call);
    // The listing leaves out the title: the name says it already (schema.ts).
    listing.push({ name: tool.name, description: fitGuidance(tool.description, served), fullInput: fullInputSchema(input), outputSchema: jsonSchema(toolOutput(op), 'output'), annotations: leanAnnotations(annotations) });
  }
  const tools = fittedListing(listing, LIST_BUDGETS[profile]);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  // Every call is answered by the operation layer, so that a bad argument gets the same
  // { code, message, next_step } error as every other failure. The request is taken as it comes
  // (the SDK's own check would answer a malformed one with a schema dump): a request that is not a
  // call at all gets invalid params, in words. A call the client cancels (notifications/cancelled:
  // the SDK aborts its signal, and sends no answer) is taken back while it still waits for the
  // board lock, nothing of it carried out (ops/combine.ts).
  Protocol.prototype.setRequestHandler.call(server, AnyCallRequest, async (request: z.infer<typeof AnyCallRequest>, extra: { signal: AbortSignal }) => {
    const problem = callParamsProblem(request.params);
    if (problem) throw rpcError(ErrorCode.InvalidParams, problem);
    const params = request.params as { name: string; arguments?: Record<string, unknown> };
    const call = calls.get(params.name);
    if (!call) {
      // A tool of another profile is refused for the role, saying whose it is; a name no profile
      // serves is a protocol error (MCP: unknown tool, invalid params). The run that started this
      // server sees either call refused, as any other.
      const other = OPERATIONS.find((op) => op.tool?.name === params.name)?.tool;
      if (!other) {
        const unknown: ErrorPayload = { code: 'USAGE', message: `There is no tool ${printable(params.name)}.`, next_step: 'List the tools (tools/list) and call one of them.' };
        recordCall(binding, printable(params.name), params.arguments, unknown, spell);
        throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${printable(params.name)}. ${unknown.next_step}`);
      }
      const refused: ErrorPayload = {
        code: 'ROLE_REFUSED',
        message: `${other.name} is not a tool of the ${profile} profile (it is for ${[...other.profiles.map((p) => `${/^[aeiou]/.test(p) ? 'an' : 'a'} ${p}`), 'a person'].join(' or ')}): nothing was changed.`,
        next_step: `List the tools of this profile (tools/list) and call one of them; for anything else, ask a person with ${refTo('input.ask')}.`,
      };
      recordCall(binding, printable(params.name), params.arguments, refused, spell);
      return toolError(refused, spell);
    }
    return call(params.arguments ?? {}, extra.signal);
  });
  return server;
}

/** The most bytes tools/list may take, per profile: an agent pays for them in every session. */
export const LIST_BUDGETS: Record<Profile, number> = { worker: 12_000, agent: 20_000, planner: 40_000, reviewer: 40_000, all: 40_000 };

/**
 * The tools as tools/list gives them: every form (schema.ts FORMS) declared, or, when that listing
 * would take more than `budget` bytes, the most important forms that keep it within.
 */
function fittedListing(listing: (Omit<Tool, 'inputSchema'> & { fullInput: JsonSchema })[], budget: number): Tool[] {
  const withForms = (forms: readonly Form[]) => sayOnce(listing.map(({ fullInput, ...tool }) => ({ ...tool, inputSchema: leanInputSchema(fullInput, forms) })));
  for (let n = FORMS.length; n > 0; n--) {
    const tools = withForms(FORMS.slice(0, n));
    if (Buffer.byteLength(JSON.stringify({ tools })) <= budget) return tools;
  }
  return withForms([]);
}

/** A tools/call request whatever its params hold: they are checked in words (callParamsProblem). */
const AnyCallRequest = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });

export interface ServeOptions {
  /** --as: the agent this server acts for. */
  as?: string;
  /** --run and --invocation: the run (and its invocation) whose records get every call's outcome. */
  run?: string;
  invocation?: number;
  /** --task: the task the run gave its agent; the server writes to no other task, and `next` hands out only this one. */
  task?: string;
  /** --change and --phase: the change and phase the run started its planner or reviewer for; a question it asks is that phase's. */
  change?: string;
  phase?: string;
  /** --sync: on a shared board, every read fetches the board from the remote first. */
  sync?: boolean;
}

function bindingFor(ctx: Context, options: ServeOptions): Binding | undefined {
  if (options.as === undefined) return undefined;
  const problem = agentIdProblem(options.as);
  if (problem) fail('USAGE', `--as ${printable(options.as)}: ${problem}.`, 'Give `agentboard mcp --as` an agent id, like codex-w1.');
  if (options.run === undefined) return { agentId: options.as };
  const calls = invocationPaths(runDir(ctx.board().runtimeDir, options.run), options.invocation ?? 0).calls;
  return { agentId: options.as, record: (entry) => appendJsonLine(calls, entry) };
}

/** How long a server stopping on a signal waits, once every call is answered, for the client to read its answers. */
const UNREAD_WAIT_MS = 5_000;

/** Exits, UNREAD_WAIT_MS from now, if answers are still waiting for the client to read them then. */
function leaveUnreadAnswers(): void {
  if (process.stdout.writableLength === 0) return;
  // Not a reason to stay alive: the process exits as soon as the client has read them.
  setTimeout(() => {
    process.stderr.write(`agentboard mcp: the client has not read ${process.stdout.writableLength} bytes of answers: exiting without them\n`);
    process.exit(0);
  }, UNREAD_WAIT_MS).unref();
}

/** Serves MCP on stdin/stdout until stdin closes or the process is told to stop. */
export async function serveStdio(root: string | undefined, profile: Profile, options: ServeOptions = {}): Promise<number> {
  // The server of an agent `agentboard run` started serves that agent only.
  const started = startedAgent(process.env);
  if (started !== undefined && options.as !== undefined && options.as !== started) refuseOtherAgent(started, options.as);
  options = { ...options, as: options.as ?? started };
  // An agent cannot pass --sync: it is told whether this server fetches before each read.
  const syncHint = 'this MCP server was started without --sync, so its reads do not fetch first (started with --sync, each read would)';
  // A server of a run's agent merges no hand edit, and a worker's writes stay on its task.
  const runAgent = options.run !== undefined && options.as !== undefined ? { agentId: options.as, task: options.task, change: options.change, phase: options.phase } : undefined;
  const ctx = createContext(root, process.cwd(), process.env, { sync: options.sync, syncHint, runAgent });
  // A server commits call after call (its own and, on a busy board, other servers'): its fsyncs are made at once.
  useSyncPool();
  const server = createServer(ctx, profile, bindingFor(ctx, options));
  const transport = new LineTransport(LIMITS.messageBytesMax);
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  const stop = (why?: string) => {
    if (stopping) return;
    stopping = true;
    transport.stopReading();
    if (why) process.stderr.write(`agentboard mcp: ${why}: answering the calls already received, taking no more\n`);
    void (async () => {
      // Answer the calls already received (a write may be waiting for the board lock) before closing;
      // the SDK starts a handler a turn after its message comes, and sends its answer a turn after it settles.
      do {
        await new Promise((resolve) => setImmediate(resolve));
        await Promise.allSettled([...inFlight]);
      } while (inFlight.size > 0);
      await endTenures();
      await new Promise((resolve) => setImmediate(resolve));
      await server.close().finally(() => finish(0));
    })();
  };
  transport.onclose = () => finish(0);
  transport.onoutputclosed = () => stop();
  process.stdin.once('end', () => {
    transport.endInput();
    stop();
  });
  process.stdin.once('close', () => stop());
  // A signal to stop (Ctrl-C, a supervisor's SIGTERM, the terminal or the client's host hanging up
  // with SIGHUP) ends the server as the end of stdin does, exit 0: the calls already received are
  // answered, and no other is read. A call being carried out is not dropped midway, and neither is
  // one queued for the process holding the board lock that it has taken up (ops/combine.ts): only
  // its answer tells whether it was done. A call still waiting for a lock another process holds is
  // not waited for, unlike at the end of stdin (a client that closes stdin waits a while, as MCP has
  // it, before it sends SIGTERM): it is answered at once with BOARD_BUSY, nothing of it carried out,
  // so that the client may make it again elsewhere. Nothing is ever half-written whatever happens
  // (every write is a rename, a commit is rolled forward by the next holder), but a client told
  // nothing would not know whether to call again. Once every call is answered, a client that does
  // not read its answers is waited for a while only (UNREAD_WAIT_MS): else they would keep the
  // process alive for as long as the client lives. The same signal a second time ends the process at
  // once (the listener is gone).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopWaiting(`This MCP server is stopping (${signal})`);
      stop(`stopping on ${signal}`);
      void done.then(leaveUnreadAnswers);
    });
  }
  // stderr is for people: a terminal that hung up takes no more of it, and that stops nothing.
  process.stderr.on('error', () => undefined);
  await server.connect(transport);
  process.stderr.write(`agentboard mcp ${VERSION}: serving ${toolOperations(profile).length} tools (profile ${profile}${options.as ? `, as ${options.as}` : ''})\n`);
  // Started where no board is (yet): it serves all the same, and its calls work once one is made; the client's log says why they fail till then.
  const found = findRoot(root, process.cwd());
  if (found === null) process.stderr.write(`agentboard mcp: ${NO_BOARD_HERE(root ?? process.cwd())}\n`);
  // Started in a linked worktree without --root: its board is that branch's copy, not the one the main worktree's agents claim from.
  const main = root === undefined && found !== null && runBoardOf(process.cwd(), process.env) === null ? mainBoardApartFrom(found) : null;
  if (main !== null) process.stderr.write(`agentboard mcp: serving the copy of agentd/ in the git worktree ${found}, not the board of the main worktree, ${main}; its agents' claims and these do not see each other. Give the server --root ${main} to serve that board.\n`);
  return done;
}
