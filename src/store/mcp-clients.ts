/**
 * Wiring MCP clients to `agentboard mcp`: each client's project configuration file gets an
 * "agentboard" server entry. Existing files are merged into, never replaced; an existing
 * agentboard entry that differs is kept as the person wrote it.
 */
import { accessSync, constants, existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fail } from '../errors.js';
import { readTextFile, writeFileAtomic } from './fs.js';

export const MCP_CLIENTS = ['claude', 'codex', 'cursor', 'gemini'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** How a client starts the server: `agentboard` when it is on the PATH, else node and the installed bin. */
export interface ServerCommand {
  command: string;
  /** What comes before `mcp`: the bin, when the command is node. */
  args: string[];
}

function isProgram(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether `agentboard` is a program on this PATH (as the client will look for it). */
export function onPath(path: string | undefined): boolean {
  const names = process.platform === 'win32' ? ['agentboard.cmd', 'agentboard.exe'] : ['agentboard'];
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && names.some((n) => isProgram(join(dir, n))));
}

/** bin/agentboard.js of the agentboard running now (the CLI bundle is dist/cli.cjs, next to bin/). */
function installedBin(): string {
  const bin = join(__dirname, '..', 'bin', 'agentboard.js');
  return existsSync(bin) ? realpathSync(bin) : realpathSync(process.argv[1]!);
}

export function serverCommand(path: string | undefined): ServerCommand {
  return onPath(path) ? { command: 'agentboard', args: [] } : { command: process.execPath, args: [installedBin()] };
}

/**
 * The entry of one client: the profile to serve, and for Cursor, which starts servers in the home
 * folder rather than the project, the project's root (Cursor fills in ${workspaceFolder}).
 */
export function serverEntry(client: McpClient, server: ServerCommand, profile: string): { command: string; args: string[] } {
  return { command: server.command, args: [...server.args, 'mcp', ...(client === 'cursor' ? ['--root', '${workspaceFolder}'] : []), '--profile', profile] };
}

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

type Entry = ReturnType<typeof serverEntry>;

/** TOML basic strings take JSON's escapes. */
function tomlBlock(entry: Entry): string {
  return `[mcp_servers.agentboard]\ncommand = ${JSON.stringify(entry.command)}\nargs = [${entry.args.map((a) => JSON.stringify(a)).join(', ')}]\n`;
}

function planJson(text: string | null, file: string, entry: Entry): { text: string; result: ClientResult['result'] } {
  if (text === null) return { text: `${JSON.stringify({ mcpServers: { agentboard: entry } }, null, 2)}\n`, result: 'created' };
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
    return { text, result: JSON.stringify(existing) === JSON.stringify(entry) ? 'unchanged' : 'kept' };
  }
  root.mcpServers = { ...(servers as Record<string, unknown> | undefined), agentboard: entry };
  return { text: `${JSON.stringify(root, null, 2)}\n`, result: 'added' };
}

function planToml(text: string | null, entry: Entry): { text: string; result: ClientResult['result'] } {
  const block = tomlBlock(entry);
  if (text === null) return { text: block, result: 'created' };
  if (/^\s*\[mcp_servers\.agentboard\]\s*$/m.test(text)) return { text, result: text.includes(block) ? 'unchanged' : 'kept' };
  return { text: `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}\n${block}`, result: 'added' };
}

/** Works out every file first, so that one broken file means nothing is written. */
export function wireClients(root: string, clients: readonly McpClient[], server: ServerCommand, profile: string): ClientResult[] {
  const plans = clients.map((client) => {
    const file = CLIENT_FILES[client];
    const path = join(root, file);
    const text = existsSync(path) ? readTextFile(path, file) : null;
    const entry = serverEntry(client, server, profile);
    const plan = client === 'codex' ? planToml(text, entry) : planJson(text, file, entry);
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
