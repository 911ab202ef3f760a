import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cliProcess, newBoard, tempDir, write } from '../helpers.js';

describe('the CLI loads only what a command uses', () => {
  it('list, status and mcp load no package at all (mcp has the MCP SDK in its own bundle)', async () => {
    const dir = await newBoard();
    const hook = write(dir, 'loaded.cjs', "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('node_modules')))));\n");
    for (const command of [['list'], ['status'], ['validate']]) {
      const r = cliProcess(dir, command, { env: { NODE_OPTIONS: `--require=${hook}` } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stderr.split('LOADED ')[1]!)).toEqual([]);
    }
    const mcp = cliProcess(dir, ['mcp'], { stdin: '', env: { NODE_OPTIONS: `--require=${hook}` } });
    expect(mcp.stderr).toContain('serving');
    expect(JSON.parse(mcp.stderr.split('LOADED ')[1]!)).toEqual([]);
  });
});

describe('the command as installed', () => {
  it('runs through a link on the PATH, as npm link and a global install make it, without reading the certificates NODE_EXTRA_CA_CERTS names', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'linked', [{ title: 'Found through the link' }]);
    const bin = join(tempDir('agentboard-bin-'), 'bin');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'agentboard'));
    // A bundle that is not there: node warns on stderr whenever it reads the variable.
    const env = childEnv({ PATH: `${bin}:${process.env.PATH ?? ''}`, NODE_EXTRA_CA_CERTS: join(dir, 'no-such-bundle.pem') });
    const other = tempDir('agentboard-cwd-');
    const version = spawnSync('agentboard', ['--version'], { cwd: other, env, encoding: 'utf8' });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(version.stderr).toBe('');
    const list = spawnSync('agentboard', ['task', 'list', '--change', 'linked', '--root', dir, '--json'], { cwd: other, env, encoding: 'utf8' });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stderr).toBe('');
    expect(JSON.parse(list.stdout).data.tasks.map((t: { title: string }) => t.title)).toEqual(['Found through the link']);
  });
});
