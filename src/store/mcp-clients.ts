/**
 * Wiring MCP clients to `agentboard mcp`: each client's project configuration file gets an
 * "agentboard" server entry. Existing files are merged into, never replaced; an existing
 * agentboard entry that differs is kept as the person wrote it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fail } from '../errors.js';
import { readTextFile, writeFileAtomic } from './fs.js';

export const MCP_CLIENTS = ['claude', 'codex', 'cursor', 'gemini'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export const SERVER_ENTRY = { command: 'agentboard', args: ['mcp'] };

export const CLIENT_FILES: Record<McpClient, string> = {
  claude: '.mcp.json',
  codex: '.codex/config.toml',
  cursor: '.cursor/mcp.json',
  gemini: '.gemini/settings.json',
};

export interface ClientResult {
  client: McpClient;
  file: string;
  result: 'created' | 'added' | 'unchanged' | 'kept';
}

const TOML_BLOCK = `[mcp_servers.agentboard]\ncommand = "agentboard"\nargs = ["mcp"]\n`;

function planJson(text: string | null, file: string): { text: string; result: ClientResult['result'] } {
  if (text === null) return { text: `${JSON.stringify({ mcpServers: { agentboard: SERVER_ENTRY } }, null, 2)}\n`, result: 'created' };
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return fail('MCP_CONFIG_INVALID', `${file} is not valid JSON, so agentboard did not touch it.`, `Fix ${file}, or add the agentboard server to it by hand (see the README).`);
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    fail('MCP_CONFIG_INVALID', `${file} does not hold a JSON object, so agentboard did not touch it.`, `Fix ${file}, or add the agentboard server to it by hand (see the README).`);
  }
  const root = config as Record<string, unknown>;
  const servers = root.mcpServers;
  if (servers !== undefined && (servers === null || typeof servers !== 'object' || Array.isArray(servers))) {
    fail('MCP_CONFIG_INVALID', `"mcpServers" in ${file} is not an object, so agentboard did not touch it.`, `Fix ${file} by hand.`);
  }
  const existing = (servers as Record<string, unknown> | undefined)?.agentboard;
  if (existing !== undefined) {
    return { text, result: JSON.stringify(existing) === JSON.stringify(SERVER_ENTRY) ? 'unchanged' : 'kept' };
  }
  root.mcpServers = { ...(servers as Record<string, unknown> | undefined), agentboard: SERVER_ENTRY };
  return { text: `${JSON.stringify(root, null, 2)}\n`, result: 'added' };
}

function planToml(text: string | null): { text: string; result: ClientResult['result'] } {
  if (text === null) return { text: TOML_BLOCK, result: 'created' };
  if (/^\s*\[mcp_servers\.agentboard\]\s*$/m.test(text)) return { text, result: text.includes(TOML_BLOCK) ? 'unchanged' : 'kept' };
  return { text: `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}\n${TOML_BLOCK}`, result: 'added' };
}

/** Works out every file first, so that one broken file means nothing is written. */
export function wireClients(root: string, clients: readonly McpClient[]): ClientResult[] {
  const plans = clients.map((client) => {
    const file = CLIENT_FILES[client];
    const path = join(root, file);
    const text = existsSync(path) ? readTextFile(path, file) : null;
    const plan = client === 'codex' ? planToml(text) : planJson(text, file);
    return { client, file, path, ...plan };
  });
  for (const p of plans) {
    if (p.result === 'created' || p.result === 'added') {
      mkdirSync(dirname(p.path), { recursive: true });
      writeFileAtomic(p.path, p.text);
    }
  }
  return plans.map(({ client, file, result }) => ({ client, file, result }));
}
