import { describe, expect, it } from 'vitest';
import { cliProcess, newBoard, write } from '../helpers.js';

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
