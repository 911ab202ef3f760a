/**
 * MCP over stdin/stdout, one JSON-RPC message per line. Unlike a transport that gives up on a bad
 * line, this one answers it and keeps serving: a line over the size limit is skipped as it streams
 * in (never buffered whole) and answered with an Invalid Request error naming the limit; a line
 * that is not JSON, or not JSON-RPC, gets a Parse error or an Invalid Request error. Each is also
 * said on stderr; stdout carries only protocol messages.
 */
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** The id of a request from the first bytes of its line, when it can be seen there (JSON-RPC: null otherwise). */
function idIn(head: string): string | number | null {
  const m = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!m) return null;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the over-sized line being skipped, or -1 when reading normally. */
  private skipped = -1;
  private skippedHead = '';
  private closed = false;

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

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  private take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.skipped >= 0) {
      this.skipped += bytes.length;
      return;
    }
    if (this.size + bytes.length > this.maxLineBytes) {
      const head = Buffer.concat([...this.parts, bytes]).subarray(0, 512).toString('utf8');
      this.parts = [];
      this.skipped = this.size + bytes.length;
      this.skippedHead = head;
      this.size = 0;
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private endLine(): void {
    if (this.skipped >= 0) {
      const bytes = this.skipped;
      this.skipped = -1;
      this.refuse(idIn(this.skippedHead), INVALID_REQUEST, `The message has ${bytes} bytes; agentboard mcp takes messages of at most ${this.maxLineBytes} bytes. Send less at once (split a large document or task list into several calls).`);
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.refuse(null, PARSE_ERROR, 'The message is not valid JSON; send one JSON-RPC message per line.');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(json);
    if (!message.success) {
      const id = json !== null && typeof json === 'object' && 'id' in json && (typeof json.id === 'string' || typeof json.id === 'number') ? json.id : null;
      this.refuse(id, INVALID_REQUEST, 'The message is not a JSON-RPC 2.0 request, notification or response.');
      return;
    }
    this.onmessage?.(message.data);
  }

  private refuse(id: string | number | null, code: number, message: string): void {
    this.log(`agentboard mcp: refused a message: ${message}`);
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.onclose?.();
  }
}
