/**
 * MCP over stdin/stdout, one JSON-RPC message per line. Unlike a transport that gives up on a bad
 * line, this one answers it and keeps serving: a line over the size limit is skipped as it streams
 * in (never buffered whole) and answered with an Invalid Request error naming the limit, under the
 * request's own top-level id; a line that is not UTF-8, not JSON, or not JSON-RPC gets a Parse
 * error or an Invalid Request error saying what is wrong, and a request whose params its method
 * does not take an Invalid params error. Members other than JSON-RPC's are let be. A response is
 * never answered, not even a malformed one, nor a notification whose params only are wrong. A batch
 * (an array) is answered with an array. Each refusal is also said on stderr; stdout carries only
 * protocol messages. Until the session is initialized (an initialize request answered with a
 * result), a request other than initialize and ping is answered with the error "Server not
 * initialized" (-32002) and goes no further; what comes while the initialize request is being
 * answered waits for that answer; once it is initialized, another initialize request is refused
 * (Invalid Request). When the client closes its end of stdout, the server stops quietly; while it
 * leaves too many answers unread (UNREAD_MAX), no request is read. An integer id beyond 2^53 is
 * answered with the digits the client wrote (EXACT); a tool call with such an integer in its
 * arguments is refused with an Invalid params error naming the field.
 */
import {
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  PingRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { randomBytes } from 'node:crypto';
import { printable } from '../domain/text.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
/** The error of a request sent before initialize (the code JSON-RPC servers give it, in the range kept for servers). */
const NOT_INITIALIZED = -32002;
/** The requests a server answers before it is initialized. */
const BEFORE_INITIALIZE = new Set(['initialize', 'ping']);

/**
 * The requests the SDK's server checks against its own schema (tools/call is checked by server.ts),
 * with params as a client would send them: the SDK answers params its schema refuses with an
 * internal error (-32603) holding the schema's report, where JSON-RPC has invalid params.
 */
const CHECKED_PARAMS = new Map([
  ['initialize', { schema: InitializeRequestSchema, like: `{"protocolVersion": "${LATEST_PROTOCOL_VERSION}", "capabilities": {}, "clientInfo": {"name": "my-client", "version": "1.0.0"}}` }],
  ['ping', { schema: PingRequestSchema, like: '{} or none' }],
  ['tools/list', { schema: ListToolsRequestSchema, like: '{} or none (every tool is listed in one answer)' }],
]);

/** Why the params of a request are not what its method takes, in words; null when they are (or this transport leaves them to the server). */
function paramsProblem(request: JSONRPCRequest): string | null {
  const checked = CHECKED_PARAMS.get(request.method);
  const result = checked?.schema.safeParse(request);
  if (!checked || !result || result.success) return null;
  const problems = result.error.issues.slice(0, 5).map((issue) => `${issue.path.map((p) => printable(String(p))).join('.')}: ${issue.message.replace(/^Invalid input: /, '')}`);
  return `Invalid params of ${request.method}: ${problems.join('; ')}. Send params like ${checked.like}.`;
}

type Id = string | number;

/**
 * An integer id beyond 2^53 (JSON-RPC sets no bound on a number id: a client with 64-bit integers
 * may use any) is kept as the client wrote it: JSON.parse rounds it, and the answer would carry an id
 * the client never sent (or two requests one id). So is an integer written another way than its
 * digits (`1e3`, `1.0`, `-0`), which JSON.parse reads as 1000, 1 and 0. Such an id goes through the
 * server as a string no client can send, EXACT and its text, and is written back as that text, a
 * number again. Such an integer
 * in the arguments of a tool call (a limit, a number in a task's fields) would act on another item
 * than the one the client named: the call is refused, naming the field (roundedArguments).
 */
const EXACT = `agentboard-exact-id-${randomBytes(8).toString('hex')}:`;
const EXACT_OUT = new RegExp(`"${EXACT}(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)"`, 'g');
/**
 * A number, or a whole string: strings are matched whole, so that digits inside one are never
 * taken for a number. A number starts a value (after a bracket, a comma, a colon or a space) and
 * ends one.
 */
const NUMBER = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"|(?<=^|[\s[,:])-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\d.eE])/g;

/** Whether a number's JSON text is read back as another: an integer JSON.parse rounds, or one written otherwise than as its digits. */
function notAsWritten(text: string): boolean {
  const value = Number(text);
  return /^-?\d+$/.test(text) ? !Number.isSafeInteger(value) || text !== String(value) : Number.isSafeInteger(value) && text !== String(value);
}

/** Whether a value read exactly is a number marked as not read as written, and JSON.parse rounds it. */
const beyondExact = (value: unknown): boolean => typeof value === 'string' && value.startsWith(EXACT) && !Number.isSafeInteger(Number(value.slice(EXACT.length)));


function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/** A message with a result or an error and no method: a response (well formed or not), which is never answered. */
function responseLike(json: unknown): boolean {
  return field(json, 'method') === undefined && (field(json, 'result') !== undefined || field(json, 'error') !== undefined);
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * Whether the line holds a run of 16 digits, as every integer JSON.parse rounds does. Looked for at
 * every 16th character (any such run covers one), which costs a long line far less than a regular
 * expression would.
 */
function longDigitRun(line: string): boolean {
  for (let i = 15; i < line.length; i += 16) {
    if (!isDigit(line.charCodeAt(i))) continue;
    let start = i;
    let end = i;
    while (start > 0 && isDigit(line.charCodeAt(start - 1))) start--;
    while (end + 1 < line.length && isDigit(line.charCodeAt(end + 1))) end++;
    if (end - start >= 15) return true;
    i = end;
  }
  return false;
}

/** Whether a message (or one of a batch) carries a number where an id goes: its id, a cancellation's requestId, a progressToken. */
function numberIds(json: unknown): boolean {
  return (Array.isArray(json) ? json : [json]).some((message) => {
    const params = field(message, 'params');
    return typeof field(message, 'id') === 'number' || typeof field(params, 'requestId') === 'number' || typeof field(field(params, '_meta'), 'progressToken') === 'number';
  });
}

/**
 * The message (or the messages of a batch) of a line read again, every number JSON.parse does not
 * read as written (notAsWritten) read as a string, EXACT and its text; null when the line holds
 * none. A line without a run of 16 digits, nor a number id beside a fraction, an exponent or a
 * minus zero, costs a quick look or two.
 */
function readExactly(line: string, json: unknown): unknown[] | null {
  if (!longDigitRun(line) && !(numberIds(json) && /\d[.eE]|-0(?![\d.eE])/.test(line))) return null;
  let found = false;
  const marked = line.replace(NUMBER, (text) => {
    if (text.startsWith('"') || !notAsWritten(text)) return text;
    found = true;
    return `"${EXACT}${text}"`;
  });
  if (!found) return null;
  const parsed: unknown = JSON.parse(marked);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * Puts back exactly the ids JSON.parse did not read as written in the message (or the messages of a
 * batch) it read, from the same read exactly: a message's id, the requestId of a cancellation and
 * the progressToken of a request (an integer the SDK takes only when exact: rounded, the request
 * would be refused as not JSON-RPC).
 */
function keepExactIds(json: unknown, exact: unknown[]): void {
  const messages = Array.isArray(json) ? json : [json];
  const marked = (value: unknown, exactly: unknown) => typeof value === 'number' && typeof exactly === 'string' && exactly.startsWith(EXACT);
  messages.forEach((message: Record<string, unknown>, i) => {
    const exactParams = field(exact[i], 'params');
    if (marked(field(message, 'id'), field(exact[i], 'id'))) message.id = field(exact[i], 'id');
    const params = field(message, 'params') as Record<string, unknown> | undefined;
    if (params && marked(params.requestId, field(exactParams, 'requestId'))) params.requestId = field(exactParams, 'requestId');
    const meta = field(params, '_meta') as Record<string, unknown> | undefined;
    if (meta && marked(meta.progressToken, field(field(exactParams, '_meta'), 'progressToken'))) meta.progressToken = field(field(exactParams, '_meta'), 'progressToken');
  });
}

/**
 * Why a tools/call request cannot be carried out as the client wrote it: the fields of its
 * arguments (read exactly) that hold an integer JSON.parse rounds, in words; null when none does.
 */
function roundedArguments(message: JSONRPCMessage, exact: unknown): string | null {
  if (!('method' in message && 'id' in message) || message.method !== 'tools/call') return null;
  const found: string[] = [];
  // Walked without recursion: arguments may be nested deeper than the stack goes.
  const stack: [unknown, string][] = [[field(field(exact, 'params'), 'arguments'), 'params.arguments']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, path] = next;
    if (beyondExact(value)) found.push(`${path} (${(value as string).slice(EXACT.length)})`);
    else if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, `${path}[${i}]`]));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) stack.push([v, `${path}.${printable(k)}`]);
  }
  if (found.length === 0) return null;
  return `Invalid params of tools/call: ${found.reverse().slice(0, 5).join(', ')} ${found.length > 1 ? 'are integers' : 'is an integer'} beyond ${Number.MAX_SAFE_INTEGER} in size, which agentboard cannot read exactly; nothing was done. Send numbers from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}.`;
}

/** An id read as JSON text on its own (the over-size line's), kept exactly when JSON.parse does not read it as written. */
function exactId(text: string): Id | null {
  const id: unknown = JSON.parse(text);
  if (typeof id === 'number' && notAsWritten(text.trim())) return `${EXACT}${text.trim()}`;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * The most bytes of answers left waiting for a client that does not read them. Past it no request is
 * read until the client has read them all: else every answer would wait in memory, without end, for
 * as long as the client writes requests. Far above what a client that reads lets wait, and room for
 * one that writes many requests before it reads their answers.
 */
const UNREAD_MAX = 16 * 1024 * 1024;

/** The one protocol version whose stdio carries JSON-RPC batches (2025-06-18 removed them). */
const BATCH_VERSION = '2025-03-26';

/**
 * The top-level "id" of a JSON object read as its bytes stream by, none of them kept: an "id" inside
 * params is not it, wherever the client put its own (the TypeScript SDK writes it last).
 */
class TopLevelId {
  id: Id | null = null;
  private depth = 0;
  private object = false;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  /** The bytes of the top-level key being read, and the last key read. */
  private key: number[] | null = null;
  private lastKey = '';
  /** The bytes of the top-level id's value being read. */
  private value: number[] | null = null;

  feed(bytes: Buffer): void {
    for (const b of bytes) this.byte(b);
  }

  private byte(b: number): void {
    if (this.value) {
      if (this.value.length > 300) this.value = null;
      else this.value.push(b);
    }
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === 0x5c) this.escaped = true;
      else if (b === 0x22) {
        this.inString = false;
        if (this.key) this.lastKey = Buffer.from(this.key).toString('utf8');
        this.key = null;
        return;
      }
      if (this.key && this.key.length < 8) this.key.push(b);
      return;
    }
    if (b === 0x22) {
      this.inString = true;
      if (this.depth === 1 && this.object && this.expectKey) [this.key, this.expectKey] = [[], false];
    } else if (b === 0x7b || b === 0x5b) {
      if (this.depth === 0) [this.object, this.expectKey] = [b === 0x7b, true];
      if (this.depth === 1) this.value = null;
      this.depth++;
    } else if (b === 0x7d || b === 0x5d) {
      if (this.depth === 1) this.endValue();
      this.depth--;
    } else if (this.depth === 1 && b === 0x2c) {
      this.endValue();
      this.expectKey = true;
    } else if (this.depth === 1 && b === 0x3a && this.lastKey === 'id') {
      this.value = [];
    }
  }

  private endValue(): void {
    if (this.value) {
      try {
        this.id = exactId(Buffer.from(this.value.slice(0, -1)).toString('utf8')) ?? this.id;
      } catch {
        // Not a string or a number: not an id a response can carry.
      }
    }
    this.value = null;
    this.lastKey = '';
  }
}

/** The members of a JSON-RPC message: MCP's schema lets a message have others, which mean nothing to this server. */
const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/** The message without the members JSON-RPC does not define (the SDK's schema refuses any). */
function withoutOtherMembers(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
  if (Object.keys(json).every((key) => MEMBERS.has(key))) return json;
  return Object.fromEntries(Object.entries(json).filter(([key]) => MEMBERS.has(key)));
}

const LIKE = 'Send one JSON-RPC 2.0 message per line, like {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}.';

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null || typeof value !== 'object') return printable(JSON.stringify(value)).slice(0, 60);
  return Array.isArray(value) ? 'an array' : 'an object';
}

/**
 * Why a message is not one JSON-RPC takes, in words, and the error it gets: Invalid params when only
 * its params are wrong, Invalid Request else; null for a response, and for a notification whose
 * params only are wrong (neither is ever answered).
 */
function notJsonRpc(json: unknown): [number | null, string] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [INVALID_REQUEST, `The message is ${shown(json)}, not a JSON-RPC 2.0 object. ${LIKE}`];
  const message = json as Record<string, unknown>;
  const response = responseLike(message);
  const problem = (why: string): [number | null, string] => (response ? [null, why] : [INVALID_REQUEST, `${why} ${LIKE}`]);
  if (message.jsonrpc !== '2.0') return problem(`"jsonrpc" must be "2.0"; got ${shown(message.jsonrpc)}.`);
  if ('id' in message && typeof message.id !== 'string' && !Number.isSafeInteger(message.id)) return problem(`"id" must be a string or an integer; got ${shown(message.id)}.`);
  if (response) return [null, 'The message is a response that is not one JSON-RPC defines (an "id", and "result" or an "error" with a code and a message), to a request this server never sent.'];
  if (!('method' in message)) return problem('The message has no "method" (a request or a notification), and no "result" or "error" (a response).');
  if (typeof message.method !== 'string') return problem(`"method" must be a string; got ${shown(message.method)}.`);
  const method = printable(message.method);
  if ('result' in message || 'error' in message) return problem(`A message has "method" (a request or a notification) or "result" or "error" (a response), not both.`);
  if (message.params !== undefined && typeof message.params !== 'object') return problem(`"params" must be an object; got ${shown(message.params)}.`);
  // A notification is never answered: one whose params are wrong is only said on stderr.
  const invalidParams = 'id' in message ? INVALID_PARAMS : null;
  // JSON-RPC also has params by position (an array), which no MCP method takes.
  if (Array.isArray(message.params)) return [invalidParams, `Invalid params of ${method}: params is an array; MCP takes params by name, as an object.`];
  const schema = 'id' in message ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  const issues = schema.safeParse(withoutOtherMembers(message)).error?.issues ?? [];
  const problems = issues.slice(0, 5).map((issue) => `${issue.path.map((p) => printable(String(p))).join('.')}: ${issue.code === 'invalid_union' ? `expected ${issue.errors.map((e) => (e[0] as { expected?: string } | undefined)?.expected).join(' or ')}` : issue.message.replace(/^Invalid input: /, '')}`);
  return [invalidParams, `Invalid params of ${method}: ${problems.join('; ')}. See the MCP schema of ${method} for what its params hold.`];
}

/** The id of a parsed message, when it has one a response can carry. */
function idOf(json: unknown): Id | null {
  const id = json !== null && typeof json === 'object' && 'id' in json ? json.id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A batch being answered: the ids still to answer, and the answers so far. */
interface Batch {
  waiting: Set<Id>;
  answers: unknown[];
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called when the client stops reading (its end of stdout is closed): nothing more can be answered. */
  onoutputclosed?: () => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** The over-sized line being skipped (its size and its top-level id), or null when reading normally. */
  private skipped: { bytes: number; id: TopLevelId } | null = null;
  private closed = false;
  private outputClosed = false;
  /** False once the server takes no more messages (stopReading). */
  private reading = true;
  /** True while reading waits for the client to read the answers waiting for it (UNREAD_MAX). */
  private waitingForClient = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /** The protocol version the initialize request agreed on. */
  private protocolVersion: string | undefined;
  /** The id of the initialize request being answered; once it is answered with a result, the session is initialized. */
  private initializing: Id | null = null;
  private initialized = false;
  /** Messages received while the initialize request is being answered, taken in order once it is. */
  private held: JSONRPCMessage[] = [];
  /** Lines received while the initialize request is being answered, read in order once it is (a batch's refusal too comes after that answer). */
  private heldLines: Buffer[] = [];
  /** Batches being answered. */
  private readonly batches: Batch[] = [];
  /** Why a tool call cannot be carried out as its client wrote it (roundedArguments). */
  private readonly inexact = new WeakMap<JSONRPCMessage, string>();

  constructor(
    private readonly maxLineBytes: number,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  /**
   * Takes a last message that stdin ended without a newline (`printf '%s' "$request" | agentboard
   * mcp`) as if it had one, rather than drop it without a word.
   */
  endInput(): void {
    if (this.size > 0 || this.skipped) this.endLine();
  }

  /** The client closed its end of stdout (EPIPE): stop quietly, as when stdin closes. */
  private readonly onOutputError = () => {
    if (this.outputClosed) return;
    this.outputClosed = true;
    this.onoutputclosed?.();
  };

  /** The client has read every answer waiting for it: its requests are read again. */
  private readonly onDrain = () => {
    if (!this.waitingForClient) return;
    this.waitingForClient = false;
    this.log('agentboard mcp: the client read its answers: reading its requests again.');
    if (this.reading) this.input.resume();
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
    this.output.on('error', this.onOutputError);
    this.output.on('drain', this.onDrain);
  }

  private take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.skipped) {
      this.skipped.bytes += bytes.length;
      this.skipped.id.feed(bytes);
      return;
    }
    if (this.size + bytes.length > this.maxLineBytes) {
      const id = new TopLevelId();
      for (const part of [...this.parts, bytes]) id.feed(part);
      this.skipped = { bytes: this.size + bytes.length, id };
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private endLine(): void {
    if (this.initializing !== null && !this.skipped) {
      this.heldLines.push(Buffer.concat(this.parts));
      this.parts = [];
      this.size = 0;
      return;
    }
    if (this.skipped) {
      const { bytes, id } = this.skipped;
      this.skipped = null;
      this.refuse(id.id, INVALID_REQUEST, `The message has ${bytes} bytes; agentboard mcp takes messages of at most ${this.maxLineBytes} bytes. Send less at once (split a large document or task list into several calls).`);
      return;
    }
    const bytes = Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    let line: string;
    try {
      line = this.decoder.decode(bytes).replace(/\r$/, '');
    } catch {
      const id = new TopLevelId();
      id.feed(bytes);
      this.refuse(id.id, PARSE_ERROR, 'The message is not valid UTF-8; send JSON text encoded as UTF-8, one message per line.');
      return;
    }
    if (line.trim() === '') return;
    let json: unknown;
    let exact: unknown[] | null;
    try {
      json = JSON.parse(line);
      exact = readExactly(line, json);
      if (exact) keepExactIds(json, exact);
    } catch {
      this.refuse(null, PARSE_ERROR, 'The message is not valid JSON; send one JSON-RPC message per line.');
      return;
    }
    if (Array.isArray(json)) return this.batch(json, exact);
    const message = this.check(json, undefined, exact?.[0]);
    if (message) this.receive(message);
  }

  /** The message, or null when it is not JSON-RPC (then it is refused). `exact`: the message read exactly, when it holds an integer JSON.parse rounds. */
  private check(json: unknown, answers?: unknown[], exact?: unknown): JSONRPCMessage | null {
    // A client whose JSON writer puts null for a field it has no value for sends "params": null: no params.
    if (field(json, 'params') === null) delete (json as Record<string, unknown>).params;
    const message = JSONRPCMessageSchema.safeParse(withoutOtherMembers(json));
    if (message.success) {
      const problem = exact === undefined ? null : roundedArguments(message.data, exact);
      if (problem) this.inexact.set(message.data, problem);
      return message.data;
    }
    const [code, why] = notJsonRpc(json);
    // A response is never answered, nor a notification (JSON-RPC): two ends that each answered the
    // other's malformed response would never stop.
    if (code === null) this.log(`agentboard mcp: ignored a message: ${why}`);
    else this.refuse(idOf(json), code, why, answers);
    return null;
  }

  private receive(message: JSONRPCMessage): void {
    if (this.initializing !== null) return void this.held.push(message);
    if (!('method' in message && 'id' in message)) {
      if ('method' in message && message.method === 'notifications/cancelled') this.cancelled(message.params?.requestId);
      return void this.onmessage?.(message);
    }
    if (!this.initialized && !BEFORE_INITIALIZE.has(message.method)) {
      // The SDK's server would answer it; MCP has a client initialize the session before anything but ping.
      return this.refuse(message.id, NOT_INITIALIZED, `Server not initialized: ${printable(message.method)} is answered once the session is initialized. Send an initialize request first (then the notification notifications/initialized); only ping is answered before it.`);
    }
    if (this.initialized && message.method === 'initialize') {
      // The SDK's server would answer it again, and the session would go on under another version than the one agreed.
      return this.refuse(message.id, INVALID_REQUEST, `The session is already initialized (MCP ${this.protocolVersion}); initialize is sent once, first. To start a new session, start agentboard mcp again.`);
    }
    const problem = this.inexact.get(message) ?? paramsProblem(message);
    if (problem) return this.refuse(message.id, INVALID_PARAMS, problem);
    if (message.method === 'initialize') {
      // The version the server agrees on, as the SDK's server chooses it: the client's when supported.
      const asked = (message.params as { protocolVersion: string }).protocolVersion;
      this.protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      this.initializing = message.id;
    }
    this.onmessage?.(message);
  }

  /**
   * A JSON-RPC batch, answered with an array. Under MCP 2025-03-26 each message in it is served;
   * other versions have no batches, so each request in it gets an error saying so.
   */
  private batch(items: unknown[], exact: unknown[] | null): void {
    if (items.length === 0) return this.refuse(null, INVALID_REQUEST, 'The batch is empty; send at least one JSON-RPC message.');
    const answers: unknown[] = [];
    if (this.protocolVersion !== BATCH_VERSION) {
      const version = this.protocolVersion ? `MCP ${this.protocolVersion}, the version this session agreed on,` : 'A session not yet initialized';
      const why = `${version} takes no JSON-RPC batches (only MCP ${BATCH_VERSION} has them); send one message per line.`;
      for (const item of items) {
        // A notification or a response is never answered: that it was not taken is said on stderr only.
        const notification = idOf(item) === null && typeof field(item, 'method') === 'string';
        if (notification || responseLike(item)) this.log(`agentboard mcp: ignored a message of a batch: ${why}`);
        else this.refuse(idOf(item), INVALID_REQUEST, why, answers);
      }
      return this.flush(answers);
    }
    const messages = items.map((item, i) => this.check(item, answers, exact?.[i])).filter((m): m is JSONRPCMessage => m !== null);
    const batch = { waiting: new Set(messages.flatMap((m) => ('method' in m && 'id' in m ? [m.id] : []))), answers };
    this.batches.push(batch);
    for (const message of messages) this.receive(message);
    void this.settle(batch);
  }

  /** A cancelled request gets no answer (MCP): a batch that holds it is answered without it. */
  private cancelled(id: unknown): void {
    const batch = this.batches.find((b) => b.waiting.has(id as Id));
    if (!batch) return;
    batch.waiting.delete(id as Id);
    void this.settle(batch);
  }

  /** Writes a batch's answers once none is awaited (none at all when it held no request and nothing was refused). */
  private settle(batch: Batch): Promise<void> {
    if (batch.waiting.size > 0 || !this.batches.includes(batch)) return Promise.resolve();
    this.batches.splice(this.batches.indexOf(batch), 1);
    return batch.answers.length > 0 ? this.write(batch.answers) : Promise.resolve();
  }

  private flush(answers: unknown[]): void {
    if (answers.length > 0) void this.write(answers);
  }

  /** Answers with an error; into `answers` when the message could not be read as part of a batch, with the batch's other answers when it was read. */
  private refuse(id: Id | null, code: number, message: string, answers?: unknown[]): void {
    this.log(`agentboard mcp: refused a message: ${message}`);
    const error = { jsonrpc: '2.0', id, error: { code, message } };
    if (answers) answers.push(error);
    else void this.deliver(error, id ?? undefined);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const id = 'method' in message || !('id' in message) ? undefined : message.id;
    if (id === undefined || id !== this.initializing) return this.deliver(message, id);
    // The answer to initialize: the session is initialized when it is a result, not an error. Then
    // what came meanwhile is taken, in order, after the answer.
    this.initializing = null;
    if ('result' in message) this.initialized = true;
    const sent = this.deliver(message, id);
    for (const held of this.held.splice(0)) this.receive(held);
    // The line being read now, if any, is read on after them.
    const [parts, size] = [this.parts, this.size];
    for (const line of this.heldLines.splice(0)) {
      if (this.initializing !== null) {
        this.heldLines.push(line);
        continue;
      }
      this.parts = [line];
      this.size = line.length;
      this.endLine();
    }
    [this.parts, this.size] = [parts, size];
    return sent;
  }

  private deliver(message: unknown, id: Id | undefined): Promise<void> {
    if (id === undefined) return this.write(message);
    const batch = this.batches.find((b) => b.waiting.has(id));
    if (!batch) return this.write(message);
    batch.waiting.delete(id);
    batch.answers.push(message);
    return this.settle(batch);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || this.outputClosed) return resolve();
      // The callback also runs when the write fails (the client stopped reading).
      let text = JSON.stringify(message);
      if (text.includes(EXACT)) text = text.replace(EXACT_OUT, '$1');
      if (this.output.write(`${text}\n`, () => resolve())) return resolve();
      const unread = (this.output as NodeJS.WritableStream & { writableLength: number }).writableLength;
      if (unread > UNREAD_MAX && !this.waitingForClient) {
        this.waitingForClient = true;
        this.log(`agentboard mcp: the client has not read ${unread} bytes of answers: reading no more of its requests until it does.`);
        this.input.pause();
      }
    });
  }

  /** Takes no more messages (the server is stopping): what stdin brings from now on is left unread, a line begun is dropped. */
  stopReading(): void {
    this.reading = false;
    this.input.off('data', this.onData);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.size = 0;
    this.skipped = null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopReading();
    this.input.off('error', this.onError);
    this.held = [];
    this.heldLines = [];
    this.onclose?.();
  }
}
