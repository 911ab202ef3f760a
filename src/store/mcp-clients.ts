/**
 * Wiring MCP clients to `agentboard mcp`: each client's project configuration file gets an
 * "agentboard" server entry. Existing files are merged into, never replaced; an existing
 * agentboard entry that differs is kept as the person wrote it.
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fail } from '../errors.js';
import { onPath, readTextFile, writeFileAtomic } from './fs.js';

export const MCP_CLIENTS = ['claude', 'codex', 'cursor', 'gemini', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** How a client starts the server: `agentboard` when it is on the PATH, else node and the installed bin. */
export interface ServerCommand {
  command: string;
  /** What comes before `mcp`: the bin, when the command is node. */
  args: string[];
}

/** Whether `agentboard` is a program on this PATH (as the client will look for it). */
export function agentboardOnPath(path: string | undefined): boolean {
  return onPath(process.platform === 'win32' ? ['agentboard.cmd', 'agentboard.exe'] : ['agentboard'], path);
}

/** bin/agentboard.js of the agentboard running now (the CLI bundle is dist/cli.cjs, next to bin/). */
function installedBin(): string {
  const bin = join(__dirname, '..', 'bin', 'agentboard.js');
  return existsSync(bin) ? realpathSync(bin) : realpathSync(process.argv[1]!);
}

export function serverCommand(path: string | undefined): ServerCommand {
  return agentboardOnPath(path) ? { command: 'agentboard', args: [] } : { command: process.execPath, args: [installedBin()] };
}

/** How each client reads its project configuration. */
interface ClientShape {
  file: string;
  /** The key of its object of servers (JSON files; Codex's TOML has mcp_servers). */
  serversKey: string;
  /**
   * The editors start servers elsewhere than the project (Cursor in the home folder; VS Code does
   * not say where): the entry names the project's root, which they fill in for ${workspaceFolder}.
   */
  namesRoot: boolean;
  /** VS Code's entries name their transport. */
  transport?: 'stdio';
}

const CLIENTS: Record<McpClient, ClientShape> = {
  claude: { file: '.mcp.json', serversKey: 'mcpServers', namesRoot: false },
  codex: { file: '.codex/config.toml', serversKey: 'mcp_servers', namesRoot: false },
  cursor: { file: '.cursor/mcp.json', serversKey: 'mcpServers', namesRoot: true },
  gemini: { file: '.gemini/settings.json', serversKey: 'mcpServers', namesRoot: false },
  vscode: { file: '.vscode/mcp.json', serversKey: 'servers', namesRoot: true, transport: 'stdio' },
};

/** The entry of one client: the profile to serve, the project's root where the client needs it named. */
export function serverEntry(client: McpClient, server: ServerCommand, profile: string): { type?: 'stdio'; command: string; args: string[] } {
  const { namesRoot, transport } = CLIENTS[client];
  const args = [...server.args, 'mcp', ...(namesRoot ? ['--root', '${workspaceFolder}'] : []), '--profile', profile];
  return transport ? { type: transport, command: server.command, args } : { command: server.command, args };
}

export interface ClientResult {
  client: McpClient;
  file: string;
  result: 'created' | 'added' | 'unchanged' | 'kept';
}

type Entry = ReturnType<typeof serverEntry>;

/** The entry's TOML key/value lines (TOML basic strings take JSON's escapes). */
function tomlValues(entry: Entry): string[] {
  return [`command = ${JSON.stringify(entry.command)}`, `args = [${entry.args.map((a) => JSON.stringify(a)).join(', ')}]`];
}

function tomlBlock(entry: Entry): string {
  return `[mcp_servers.agentboard]\n${tomlValues(entry).join('\n')}\n`;
}

/**
 * JSON with comments (// and /* *\/) and trailing commas, as Gemini CLI's settings.json and other
 * editors' files allow: the text with every comment blanked (offsets kept) and, in `plain`, trailing
 * commas too, so that JSON.parse reads it; `open` gives, for the root object and for the object
 * value of each of its keys, the offset just after its opening brace and whether it holds anything.
 */
function readJsonc(text: string): { plain: string; root: Brace | null; keys: Map<string, Brace> } {
  const out = text.split('');
  // The open objects and arrays, innermost last (an array has no brace to insert into).
  const open: (Brace | null)[] = [];
  const keys = new Map<string, Brace>();
  let root: Brace | null = null;
  let key: string | null = null; // a key of the root object, between its string and its value
  let string: string | null = null; // the string just read, when it may be a key
  let last = -1; // the offset of the last character that is neither blank nor in a comment
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : text[i + 1] === '/' ? end : end + 2;
      for (let k = i; k < stop; k++) if (out[k] !== '\n') out[k] = ' ';
      i = stop - 1;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    const top = open.length > 0 ? open[open.length - 1] : undefined;
    if (top && c !== '}' && c !== ']') top.empty = false;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      string = open.length === 1 && top === root && key === null ? (JSON.parse(text.slice(i, j + 1)) as string) : null;
      last = i = j;
      continue;
    }
    if (c === ':') key = string;
    else if (c === '{' || c === '[') {
      const brace: Brace | null = c === '{' ? { after: i + 1, empty: true } : null;
      if (open.length === 0 && root === null) root = brace;
      else if (brace && key !== null && open.length === 1) keys.set(key, brace);
      open.push(brace);
      key = null;
    } else if (c === '}' || c === ']') {
      if (text[last] === ',') out[last] = ' '; // a trailing comma
      open.pop();
      if (open.length === 1) key = null;
    } else if (c === ',') key = null;
    string = null;
    last = i;
  }
  return { plain: out.join(''), root, keys };
}

interface Brace {
  /** The offset just after the opening brace. */
  after: number;
  empty: boolean;
}

/** The entry put into a JSON-with-comments file by inserting text, so that its comments and layout stay. */
function insertJsonc(text: string, jsonc: ReturnType<typeof readJsonc>, key: string, hasServers: boolean, entry: Entry): string {
  const at = (brace: Brace, insert: string) => text.slice(0, brace.after) + insert + (brace.empty ? '' : ',') + text.slice(brace.after);
  const value = (indent: string) => JSON.stringify(entry, null, 2).replace(/\n/g, `\n${indent}`);
  if (hasServers) return at(jsonc.keys.get(key)!, `\n    "agentboard": ${value('    ')}`);
  return at(jsonc.root!, `\n  ${JSON.stringify(key)}: {\n    "agentboard": ${value('    ')}\n  }`);
}

function planJson(text: string | null, file: string, key: string, entry: Entry): { text: string; result: ClientResult['result'] } {
  if (text === null) return { text: `${JSON.stringify({ [key]: { agentboard: entry } }, null, 2)}\n`, result: 'created' };
  let config: unknown;
  let jsonc: ReturnType<typeof readJsonc> | null = null;
  try {
    config = JSON.parse(text);
  } catch {
    try {
      jsonc = readJsonc(text);
      config = JSON.parse(jsonc.plain);
    } catch {
      return fail('MCP_CONFIG_INVALID', `${file} is not valid JSON (comments and trailing commas are read), so agentboard did not touch it.`, `Fix ${file}, or add the agentboard server to it by hand (see the README).`);
    }
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    fail('MCP_CONFIG_INVALID', `${file} does not hold a JSON object, so agentboard did not touch it.`, `Fix ${file}, or add the agentboard server to it by hand (see the README).`);
  }
  const root = config as Record<string, unknown>;
  const servers = root[key];
  if (servers !== undefined && (servers === null || typeof servers !== 'object' || Array.isArray(servers))) {
    fail('MCP_CONFIG_INVALID', `"${key}" in ${file} is not an object, so agentboard did not touch it.`, `Fix ${file} by hand.`);
  }
  const existing = (servers as Record<string, unknown> | undefined)?.agentboard;
  if (existing !== undefined) {
    return { text, result: JSON.stringify(existing) === JSON.stringify(entry) ? 'unchanged' : 'kept' };
  }
  if (jsonc) {
    // Its comments stay: the entry goes in as text, and the result must read back with it.
    const inserted = insertJsonc(text, jsonc, key, servers !== undefined, entry);
    let back: unknown;
    try {
      back = JSON.parse(readJsonc(inserted).plain);
    } catch {
      back = null;
    }
    if (JSON.stringify((back as Record<string, Record<string, unknown> | undefined> | null)?.[key]?.agentboard) !== JSON.stringify(entry)) {
      fail('MCP_CONFIG_INVALID', `${file} has comments agentboard could not write around, so it did not touch it.`, `Add the agentboard server to ${file} by hand (see the README).`);
    }
    return { text: inserted, result: 'added' };
  }
  root[key] = { ...(servers as Record<string, unknown> | undefined), agentboard: entry };
  return { text: `${JSON.stringify(root, null, 2)}\n`, result: 'added' };
}

/** A key a TOML text defines, in full: a table header ([a.b] or [[a.b]]) or a key given a value. */
interface TomlKey {
  path: string[];
  kind: 'table' | 'array' | 'inline' | 'value';
}

/**
 * The keys a TOML text defines, in any spelling (bare, quoted, dotted, in inline tables), read far
 * enough to know where an entry is; throws where the text cannot be TOML.
 */
function tomlKeys(text: string): TomlKey[] {
  const keys: TomlKey[] = [];
  let i = 0;
  const bad = (): never => {
    throw new Error(`line ${text.slice(0, i).split('\n').length}`);
  };
  const blanks = (lines: boolean) => {
    for (;;) {
      while (i < text.length && (text[i] === ' ' || text[i] === '\t' || (lines && (text[i] === '\n' || text[i] === '\r')))) i++;
      if (text[i] !== '#') return;
      while (i < text.length && text[i] !== '\n') i++;
    }
  };
  const expect = (c: string) => {
    blanks(false);
    if (text[i] !== c) bad();
    i++;
  };
  /** Skips a string at i (basic, literal, or either multi-line) and gives its text as written. */
  const string = (): string => {
    const q = text[i]!;
    const multi = text.startsWith(q.repeat(3), i);
    const start = (i += multi ? 3 : 1);
    while (i < text.length && !(multi ? text.startsWith(q.repeat(3), i) : text[i] === q)) {
      if (!multi && text[i] === '\n') bad();
      i += q === '"' && text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) bad();
    const body = text.slice(start, i);
    i += multi ? 3 : 1;
    while (multi && text[i] === q) i++; // up to two quotes end the string's text
    return body;
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      blanks(false);
      if (text[i] === '"' || text[i] === "'") {
        const q = text[i];
        const body = string();
        parts.push(q === '"' ? (JSON.parse(`"${body}"`) as string) : body);
      } else {
        const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(i))?.[0] ?? bad();
        parts.push(bare);
        i += bare.length;
      }
      blanks(false);
      if (text[i] !== '.') return parts;
      i++;
    }
  };
  /** Skips a value, recording the keys of an inline table under `path` (null: in an array). */
  const value = (path: string[] | null): void => {
    blanks(false);
    const c = text[i];
    if (c === '"' || c === "'") string();
    else if (c === '[') {
      i++;
      for (blanks(true); text[i] !== ']'; blanks(true)) {
        value(null);
        blanks(true);
        if (text[i] === ',') i++;
        else if (text[i] !== ']') bad();
      }
      i++;
    } else if (c === '{') {
      i++;
      blanks(false);
      while (text[i] !== '}') {
        const k = key();
        expect('=');
        blanks(false);
        if (path) keys.push({ path: [...path, ...k], kind: text[i] === '{' ? 'inline' : 'value' });
        value(path && [...path, ...k]);
        blanks(false);
        if (text[i] === ',') i++;
        else if (text[i] !== '}') bad();
        blanks(false);
      }
      i++;
    } else {
      const scalar = /^[^,\]}\n#]*/.exec(text.slice(i))![0];
      if (scalar.trim() === '') bad();
      i += scalar.length;
    }
  };
  let table: string[] = [];
  for (blanks(true); i < text.length; blanks(true)) {
    if (text[i] === '[') {
      const array = text[i + 1] === '[';
      i += array ? 2 : 1;
      table = key();
      expect(']');
      if (array) expect(']');
      keys.push({ path: table, kind: array ? 'array' : 'table' });
    } else {
      const path = [...table, ...key()];
      expect('=');
      blanks(false);
      keys.push({ path, kind: text[i] === '{' ? 'inline' : 'value' });
      value(path);
    }
    blanks(false);
    if (i < text.length && text[i] !== '\n' && text[i] !== '\r') bad();
  }
  return keys;
}

function planToml(text: string | null, file: string, entry: Entry): { text: string; result: ClientResult['result'] } {
  const block = tomlBlock(entry);
  if (text === null) return { text: block, result: 'created' };
  let keys: TomlKey[];
  try {
    keys = tomlKeys(text);
  } catch (e) {
    return fail('MCP_CONFIG_INVALID', `${file} is not valid TOML (at ${(e as Error).message}), so agentboard did not touch it.`, `Fix ${file}, or add the agentboard server to it by hand:\n${block}`);
  }
  const under = (k: TomlKey, ...path: string[]) => path.every((p, n) => k.path[n] === p);
  const servers = keys.find((k) => k.path.length === 1 && under(k, 'mcp_servers') && k.kind !== 'table');
  if (servers?.kind === 'array' || servers?.kind === 'value') {
    fail('MCP_CONFIG_INVALID', `mcp_servers in ${file} is not a table, so agentboard did not touch it.`, `Fix ${file} by hand.`);
  }
  if (keys.some((k) => under(k, 'mcp_servers', 'agentboard'))) return { text, result: text.includes(block) ? 'unchanged' : 'kept' };
  if (servers?.kind === 'inline') {
    // A table written inline is closed: no [mcp_servers.agentboard] can be added after it.
    fail('MCP_CONFIG_INVALID', `${file} gives mcp_servers as an inline table ({ … }), which cannot be added to without rewriting it, so agentboard did not touch it.`, `Add the agentboard server inside the braces of mcp_servers by hand: agentboard = { ${tomlValues(entry).join(', ')} } (or write each server as a [mcp_servers.<name>] table and run this again).`);
  }
  return { text: `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}\n${block}`, result: 'added' };
}

/** Works out every file first, so that one broken file means nothing is written. */
export function wireClients(root: string, clients: readonly McpClient[], server: ServerCommand, profile: string): ClientResult[] {
  const plans = clients.map((client) => {
    const { file, serversKey } = CLIENTS[client];
    const path = join(root, file);
    const text = existsSync(path) ? readTextFile(path, file) : null;
    const entry = serverEntry(client, server, profile);
    const plan = client === 'codex' ? planToml(text, file, entry) : planJson(text, file, serversKey, entry);
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
