import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolOperations } from '../../src/mcp/server.js';
import { BIN, cli, cliProcess, ok, read, snapshot, tempDir, write } from '../helpers.js';
import { stdioServer } from '../mcp/helpers.js';

/** A folder holding an `agentboard` program, as `npm link` would put one on the PATH. */
function linkedBin(): string {
  const dir = tempDir('agentboard-bin-');
  writeFileSync(join(dir, 'agentboard'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'agentboard'), 0o755);
  return dir;
}

/** A PATH with the usual system folders and no agentboard on it. */
const BARE_PATH = ['/usr/local/bin', '/usr/bin', '/bin'].filter((d) => !existsSync(join(d, 'agentboard'))).join(delimiter);
const ON_PATH = () => ({ PATH: `${linkedBin()}${delimiter}${BARE_PATH}` });

const entry = (args: string[]) => ({ command: 'agentboard', args });

describe('init --mcp', () => {
  it('writes each client configuration, merging into files that exist', async () => {
    const dir = tempDir();
    write(dir, '.mcp.json', JSON.stringify({ mcpServers: { other: { command: 'other-server' } }, keep: true }));
    const env = ON_PATH();
    const r = await ok(dir, ['init', '--mcp', 'claude', '--mcp', 'codex', '--mcp', 'cursor,gemini'], { env });
    expect(r.mcp).toEqual([
      { client: 'claude', file: '.mcp.json', result: 'added' },
      { client: 'codex', file: '.codex/config.toml', result: 'created' },
      { client: 'cursor', file: '.cursor/mcp.json', result: 'created' },
      { client: 'gemini', file: '.gemini/settings.json', result: 'created' },
    ]);
    expect(r.mcp_server).toEqual({ command: 'agentboard', args: ['mcp'], on_path: true });
    const claude = JSON.parse(read(dir, '.mcp.json'));
    expect(claude).toEqual({ mcpServers: { other: { command: 'other-server' }, agentboard: entry(['mcp', '--profile', 'agent']) }, keep: true });
    // Cursor starts servers in the home folder: its entry names the project.
    expect(JSON.parse(read(dir, '.cursor/mcp.json')).mcpServers.agentboard).toEqual(entry(['mcp', '--root', '${workspaceFolder}', '--profile', 'agent']));
    expect(JSON.parse(read(dir, '.gemini/settings.json')).mcpServers.agentboard).toEqual(entry(['mcp', '--profile', 'agent']));
    expect(read(dir, '.codex/config.toml')).toBe('[mcp_servers.agentboard]\ncommand = "agentboard"\nargs = ["mcp", "--profile", "agent"]\n');
    const again = await ok(dir, ['init', '--mcp', 'claude,codex,cursor,gemini'], { env });
    expect(again.mcp.map((m: any) => m.result)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect((await cli(dir, ['init', '--mcp', 'claude'], { env })).stdout).toContain('; nothing changed.\n');
    // On a board already there, a client's file written now is no "nothing changed".
    const added = await cli(dir, ['init', '--mcp', 'vscode'], { env });
    expect(added.stdout).toContain(`A board already exists in ${dir}; the board is unchanged.\nvscode: .vscode/mcp.json created`);
  });

  it('writes VS Code its own shape: "servers", the transport named, the project named as for Cursor; comments in its file stay', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.vscode'));
    write(dir, '.vscode/mcp.json', '{\n  // the team\'s servers\n  "inputs": [],\n  "servers": { "other": { "type": "stdio", "command": "x" }, },\n}\n');
    const r = await cli(dir, ['init', '--mcp', 'vscode'], { env: ON_PATH() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(".vscode/mcp.json agentboard server added (VS Code asks to trust a project's server before it first starts it");
    const text = read(dir, '.vscode/mcp.json');
    expect(text).toContain("// the team's servers");
    const config = JSON.parse(text.replace(/\/\/.*$/m, '').replace(/,(\s*[}\]])/g, '$1'));
    expect(config.servers.agentboard).toEqual({ type: 'stdio', command: 'agentboard', args: ['mcp', '--root', '${workspaceFolder}', '--profile', 'agent'] });
    expect(config.servers.other).toEqual({ type: 'stdio', command: 'x' });
    expect(config.mcpServers).toBeUndefined();
    expect((await ok(dir, ['init', '--mcp', 'vscode', '--mcp', 'claude,codex,cursor,gemini'], { env: ON_PATH() })).mcp.map((m: any) => m.result)).toEqual(['unchanged', 'created', 'created', 'created', 'created']);
  });

  it('serves the profile --profile names', async () => {
    const dir = tempDir();
    await ok(dir, ['init', '--mcp', 'claude,codex', '--profile', 'worker'], { env: ON_PATH() });
    expect(JSON.parse(read(dir, '.mcp.json')).mcpServers.agentboard).toEqual(entry(['mcp', '--profile', 'worker']));
    expect(read(dir, '.codex/config.toml')).toContain('args = ["mcp", "--profile", "worker"]');
    const bad = await cli(dir, ['init', '--mcp', 'claude', '--profile', 'boss', '--json'], { env: ON_PATH() });
    expect(bad.json.error.code).toBe('USAGE');
  });

  it('wires and reports a client named twice once', async () => {
    const dir = tempDir();
    const r = await cli(dir, ['init', '--mcp', 'claude', '--mcp', 'claude,codex'], { env: ON_PATH() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/^claude: /gm)).toHaveLength(1);
    expect((await ok(dir, ['init', '--mcp', 'claude', '--mcp', 'claude'], { env: ON_PATH() })).mcp).toEqual([{ client: 'claude', file: '.mcp.json', result: 'unchanged' }]);
  });

  it('writes node and the installed bin when agentboard is not on the PATH, and says so', async () => {
    const dir = tempDir();
    const r = await cli(dir, ['init', '--mcp', 'claude,codex'], { env: { PATH: BARE_PATH } });
    expect(r.code).toBe(0);
    const bin = realpathSync(BIN);
    expect(r.stdout).toContain(`agentboard is not on the PATH, so the clients start it as ${process.execPath} ${bin} mcp`);
    expect(JSON.parse(read(dir, '.mcp.json')).mcpServers.agentboard).toEqual({ command: process.execPath, args: [bin, 'mcp', '--profile', 'agent'] });
    expect(read(dir, '.codex/config.toml')).toBe(`[mcp_servers.agentboard]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(bin)}, "mcp", "--profile", "agent"]\n`);
    expect(r.stdout).toContain('Codex reads it only in a trusted project');
    // Run again, it writes nothing, and says nothing of how the clients start what it did not write.
    const again = await cli(dir, ['init', '--mcp', 'claude,codex'], { env: { PATH: BARE_PATH } });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('is not on the PATH');
  });

  it('says what each client needs before it starts the server: approval, or a trusted folder (Gemini CLI trusts none by default)', async () => {
    const dir = tempDir();
    const r = await cli(dir, ['init', '--mcp', 'claude,codex,cursor,gemini'], { env: ON_PATH() });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('claude: .mcp.json created, with the agentboard server (Claude Code asks once to approve project servers: approve agentboard, or in /mcp)');
    expect(lines).toContain('codex: .codex/config.toml created, with the agentboard server (Codex reads it only in a trusted project: trust the folder when asked)');
    expect(lines).toContain('cursor: .cursor/mcp.json created, with the agentboard server');
    expect(lines).toContain('gemini: .gemini/settings.json created, with the agentboard server (Gemini CLI reads it only in a trusted folder: trust the folder when asked, or with /permissions)');
  });

  it('never replaces an agentboard entry a person wrote', async () => {
    const dir = tempDir();
    const own = { mcpServers: { agentboard: { command: 'node', args: ['/opt/agentboard/bin/agentboard.js', 'mcp', '--profile', 'worker'] } } };
    write(dir, '.mcp.json', JSON.stringify(own));
    const r = await cli(dir, ['init', '--mcp', 'claude', '--json']);
    expect(r.json.data.mcp).toEqual([{ client: 'claude', file: '.mcp.json', result: 'kept' }]);
    expect(JSON.parse(read(dir, '.mcp.json'))).toEqual(own);
  });

  it('refuses a broken configuration file and changes nothing, not even the board', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.cursor'));
    write(dir, '.cursor/mcp.json', '{ not json');
    const before = snapshot(dir);
    const r = await cli(dir, ['init', '--mcp', 'claude', '--mcp', 'cursor', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('MCP_CONFIG_INVALID');
    expect(r.json.error.message).toContain('.cursor/mcp.json');
    expect(snapshot(dir)).toEqual(before);
    expect(existsSync(join(dir, 'agentd'))).toBe(false);
  });

  it('adds its server to settings with comments and trailing commas (Gemini CLI reads them), keeping the comments', async () => {
    const agentboard = entry(['mcp', '--profile', 'agent']);
    const strip = (text: string) => JSON.parse(text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').replace(/,(\s*[}\]])/g, '$1'));
    const cases = {
      // no mcpServers yet: it goes first in the root object
      plain: '{\n  // the theme we like\n  "theme": "GitHub", /* for now */\n  "checkpointing": { "enabled": true, },\n}\n',
      // other servers: it joins them
      servers: '{\n  "mcpServers": { // ours\n    "other": { "command": "x", "args": ["a,b", "}"] },\n  },\n}\n',
      // an empty one
      empty: '// settings\n{ "mcpServers": {} }\n',
    };
    for (const [name, text] of Object.entries(cases)) {
      const dir = tempDir();
      mkdirSync(join(dir, '.gemini'));
      write(dir, '.gemini/settings.json', text);
      expect((await ok(dir, ['init', '--mcp', 'gemini'], { env: ON_PATH() })).mcp[0].result, name).toBe('added');
      const written = read(dir, '.gemini/settings.json');
      for (const comment of text.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? []) expect(written, name).toContain(comment);
      const settings = strip(written);
      expect(settings.mcpServers.agentboard, name).toEqual(agentboard);
      expect({ ...settings, mcpServers: { ...settings.mcpServers, agentboard: undefined } }, name).toEqual({ ...strip(text), mcpServers: { ...strip(text).mcpServers, agentboard: undefined } });
      // run again: already there, nothing written
      expect((await ok(dir, ['init', '--mcp', 'gemini'], { env: ON_PATH() })).mcp[0].result, name).toBe('unchanged');
      expect(read(dir, '.gemini/settings.json')).toBe(written);
    }
  });

  it('appends to a Codex config that has other servers', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.codex'));
    write(dir, '.codex/config.toml', 'model = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n');
    expect((await ok(dir, ['init', '--mcp', 'codex'], { env: ON_PATH() })).mcp[0].result).toBe('added');
    expect(read(dir, '.codex/config.toml')).toBe('model = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n\n[mcp_servers.agentboard]\ncommand = "agentboard"\nargs = ["mcp", "--profile", "agent"]\n');
  });

  it('keeps an agentboard server a Codex config already has in any TOML spelling, writing nothing', async () => {
    const spellings = [
      '[mcp_servers."agentboard"]\ncommand = "mine"\n',
      "[ mcp_servers . 'agentboard' ]\ncommand = \"mine\"\n",
      '[mcp_servers]\nagentboard.command = "mine"\n',
      'mcp_servers.agentboard.command = "mine"\n',
      'mcp_servers = { agentboard = { command = "mine" } }\n',
      '[mcp_servers.agentboard.env]\nKEY = "v"\n',
    ];
    for (const text of spellings) {
      const dir = tempDir();
      mkdirSync(join(dir, '.codex'));
      write(dir, '.codex/config.toml', text);
      expect((await ok(dir, ['init', '--mcp', 'codex'], { env: ON_PATH() })).mcp[0].result, text).toBe('kept');
      expect(read(dir, '.codex/config.toml'), text).toBe(text);
    }
  });

  it('appends after multi-line strings and arrays, whose lines are no tables', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.codex'));
    const text = 'notes = """\n[mcp_servers.agentboard]\n"""\n[mcp_servers.other]\nargs = [\n  "a", # one\n  "b",\n]\n';
    write(dir, '.codex/config.toml', text);
    expect((await ok(dir, ['init', '--mcp', 'codex'], { env: ON_PATH() })).mcp[0].result).toBe('added');
    expect(read(dir, '.codex/config.toml')).toBe(`${text}\n[mcp_servers.agentboard]\ncommand = "agentboard"\nargs = ["mcp", "--profile", "agent"]\n`);
  });

  it('refuses a Codex config whose mcp_servers is an inline table or not TOML, saying what to add by hand, and writes nothing', async () => {
    const cases = {
      'mcp_servers = { other = { command = "x" } }\n': ['inline table', 'agentboard = { command = "agentboard", args = ["mcp", "--profile", "agent"] }'],
      'model = "o3\n': ['is not valid TOML (at line 1)', '[mcp_servers.agentboard]\ncommand = "agentboard"'],
      '[[mcp_servers]]\nname = "x"\n': ['mcp_servers in .codex/config.toml is not a table', 'by hand'],
    };
    for (const [text, [message, nextStep]] of Object.entries(cases)) {
      const dir = tempDir();
      mkdirSync(join(dir, '.codex'));
      write(dir, '.codex/config.toml', text);
      const before = snapshot(dir);
      const r = await cli(dir, ['init', '--mcp', 'codex', '--json'], { env: ON_PATH() });
      expect(r.code, text).toBe(1);
      expect(r.json.error, text).toMatchObject({ code: 'MCP_CONFIG_INVALID', message: expect.stringContaining(message), next_step: expect.stringContaining(nextStep) });
      expect(snapshot(dir), text).toEqual(before);
    }
  });
});

describe('a configuration init --mcp writes', () => {
  it('starts the server as each client would: from the project, or from $HOME for Cursor and VS Code, with agentboard not on the PATH', async () => {
    const dir = tempDir();
    const home = tempDir('agentboard-home-');
    const env = { PATH: BARE_PATH, HOME: home };
    expect(cliProcess(dir, ['init', '--mcp', 'claude,codex,cursor,gemini,vscode', '--json'], { env }).json.ok).toBe(true);
    await ok(dir, ['propose', 'wired', '--as', 'planner', '--why', 'The board must be reachable from every client an agent may run in, however it starts its servers.', '--what-changes', 'x', '--impact', 'y', '--notes', 'None: a test.']);
    const toml = read(dir, '.codex/config.toml');
    const configs = {
      claude: JSON.parse(read(dir, '.mcp.json')).mcpServers.agentboard,
      codex: { command: JSON.parse(toml.match(/^command = (.*)$/m)![1]!), args: JSON.parse(toml.match(/^args = (.*)$/m)![1]!) },
      gemini: JSON.parse(read(dir, '.gemini/settings.json')).mcpServers.agentboard,
      // Cursor fills in ${workspaceFolder} and starts the server in the home folder.
      cursor: JSON.parse(read(dir, '.cursor/mcp.json')).mcpServers.agentboard,
      // VS Code fills it in too, wherever it starts the server.
      vscode: JSON.parse(read(dir, '.vscode/mcp.json')).servers.agentboard,
    };
    for (const [client, config] of Object.entries(configs)) {
      const args = (config.args as string[]).map((a) => a.replace('${workspaceFolder}', dir));
      const cwd = client === 'cursor' || client === 'vscode' ? home : dir;
      const server = stdioServer(config.command, args, { cwd, env });
      expect((await server.initialize()).result.serverInfo.name, client).toBe('agentboard');
      expect((await server.request('tools/list')).result.tools.length, client).toBe(toolOperations('agent').length);
      const changes = await server.request('tools/call', { name: 'agentboard_list_changes', arguments: {} });
      expect(changes.result.isError, `${client}: ${JSON.stringify(changes)}`).toBeUndefined();
      expect(changes.result.structuredContent.changes.map((c: any) => c.change_id), client).toEqual(['wired']);
      expect(await server.close(), client).toBe(0);
    }
  });
});
