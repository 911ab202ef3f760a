import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ok, read, snapshot, tempDir, write } from '../helpers.js';

describe('init --mcp', () => {
  it('writes each client configuration, merging into files that exist', async () => {
    const dir = tempDir();
    write(dir, '.mcp.json', JSON.stringify({ mcpServers: { other: { command: 'other-server' } }, keep: true }));
    const r = await ok(dir, ['init', '--mcp', 'claude', '--mcp', 'codex', '--mcp', 'cursor,gemini']);
    expect(r.mcp).toEqual([
      { client: 'claude', file: '.mcp.json', result: 'added' },
      { client: 'codex', file: '.codex/config.toml', result: 'created' },
      { client: 'cursor', file: '.cursor/mcp.json', result: 'created' },
      { client: 'gemini', file: '.gemini/settings.json', result: 'created' },
    ]);
    const claude = JSON.parse(read(dir, '.mcp.json'));
    expect(claude).toEqual({ mcpServers: { other: { command: 'other-server' }, agentboard: { command: 'agentboard', args: ['mcp'] } }, keep: true });
    expect(JSON.parse(read(dir, '.cursor/mcp.json')).mcpServers.agentboard).toEqual({ command: 'agentboard', args: ['mcp'] });
    expect(JSON.parse(read(dir, '.gemini/settings.json')).mcpServers.agentboard).toEqual({ command: 'agentboard', args: ['mcp'] });
    expect(read(dir, '.codex/config.toml')).toBe('[mcp_servers.agentboard]\ncommand = "agentboard"\nargs = ["mcp"]\n');
    const again = await ok(dir, ['init', '--mcp', 'claude,codex,cursor,gemini']);
    expect(again.mcp.map((m: any) => m.result)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
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

  it('appends to a Codex config that has other servers', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.codex'));
    write(dir, '.codex/config.toml', 'model = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n');
    expect((await ok(dir, ['init', '--mcp', 'codex'])).mcp[0].result).toBe('added');
    expect(read(dir, '.codex/config.toml')).toBe('model = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n\n[mcp_servers.agentboard]\ncommand = "agentboard"\nargs = ["mcp"]\n');
  });
});
