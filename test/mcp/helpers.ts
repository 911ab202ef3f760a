/** MCP test helpers: an in-memory client bound to a board, tool calls that return parsed results, and a raw stdio client. */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer, type Binding, type Profile } from '../../src/mcp/server.js';
import { createContext } from '../../src/ops/registry.js';
import { BIN, tempDir } from '../helpers.js';

export interface ToolResult {
  isError: boolean;
  text: string;
  data: any;
  error: { code: string; message: string; next_step: string } | undefined;
}

export async function connect(root: string, profile: Profile = 'all', binding?: Binding): Promise<{ client: Client; call: (name: string, args?: object) => Promise<ToolResult>; close: () => Promise<void> }> {
  const server = createServer(createContext(root), profile, binding);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'agentboard-test', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  await client.listTools(); // caches the output schemas: every structuredContent is then checked against them
  const call = async (name: string, args: object = {}): Promise<ToolResult> => {
    const r = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };
    const text = r.content.map((c) => c.text).join('\n');
    let error;
    // An error's first block is the error; notes of what the call did before it was refused may follow.
    if (r.isError) error = JSON.parse(r.content[0]!.text).error;
    return { isError: r.isError === true, text, data: r.structuredContent, error };
  };
  return { client, call, close: async () => (await client.close(), await server.close()) };
}

/**
 * A server process spoken to the way a client speaks to it: newline-delimited JSON-RPC on its
 * stdin and stdout, started with exactly the command and arguments given.
 */
export function stdioServer(command: string, args: string[], options: { cwd?: string; env: Record<string, string> }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let id = 0;
  const answer = async (wanted: number | string): Promise<any> => {
    for (;;) {
      const found = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.id === wanted);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** Sends a request (params as given, even malformed ones) and waits for its answer. */
  const request = (method: string, params?: unknown): Promise<any> => {
    const mine = ++id;
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, ...(params === undefined ? {} : { params }) })}\n`);
    return answer(mine);
  };
  /** Sends a request whose params are given as JSON text (deeper than JSON.stringify can write, say). */
  const requestRaw = (method: string, paramsText: string): Promise<any> => {
    const mine = ++id;
    child.stdin.write(`{"jsonrpc":"2.0","id":${mine},"method":${JSON.stringify(method)},"params":${paramsText}}\n`);
    return answer(mine);
  };
  const initialize = async () => {
    const init = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agentboard-test', version: '1' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return init;
  };
  /** Writes to stdin exactly what is given (a batch, a notification, a line no other helper writes). */
  const write = (text: string | Buffer) => child.stdin.write(text);
  /** Closes stdin and returns the exit code. */
  const close = async () => {
    child.stdin.end();
    return exited;
  };
  return { request, requestRaw, initialize, write, answer, close, stdout: () => out, stderr: () => err };
}

/** The environment of a server started as a client nobody configured would start it: the PATH, and a home of its own. */
export const BARE_ENV = () => ({ PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') });

/** `agentboard mcp` on a board, spoken to with JSON-RPC lines written by hand. */
export function handWrittenServer(dir: string) {
  return stdioServer(process.execPath, [BIN, 'mcp', '--root', dir], { env: BARE_ENV() });
}

/** Every line the server wrote to stdout, parsed: each one must be JSON. */
export const linesOf = (out: string) => out.split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Waits (polling) until `check` holds; fails after `ms`. */
export async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
  }
}
