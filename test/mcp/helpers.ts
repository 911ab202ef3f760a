/** MCP test helpers: an in-memory client bound to a board, and tool calls that return parsed results. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer, type Profile } from '../../src/mcp/server.js';
import { createContext } from '../../src/ops/registry.js';

export interface ToolResult {
  isError: boolean;
  text: string;
  data: any;
  error: { code: string; message: string; next_step: string } | undefined;
}

export async function connect(root: string, profile: Profile = 'all'): Promise<{ client: Client; call: (name: string, args?: object) => Promise<ToolResult>; close: () => Promise<void> }> {
  const server = createServer(createContext(root), profile);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'agentboard-test', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  await client.listTools(); // caches the output schemas: every structuredContent is then checked against them
  const call = async (name: string, args: object = {}): Promise<ToolResult> => {
    const r = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };
    const text = r.content.map((c) => c.text).join('\n');
    let error;
    if (r.isError) error = JSON.parse(text).error;
    return { isError: r.isError === true, text, data: r.structuredContent, error };
  };
  return { client, call, close: async () => (await client.close(), await server.close()) };
}
