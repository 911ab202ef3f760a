import { describe, expect, it } from 'vitest';
import { cliProcess, newBoard, write } from '../helpers.js';

describe('the CLI loads only what a command uses', () => {
  it('list and status load no package at all (the MCP SDK only for mcp)', async () => {
    const dir = await newBoard();
    const hook = write(dir, 'loaded.cjs', "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('node_modules')))));\n");
    for (const command of [['list'], ['status'], ['validate']]) {
      const r = cliProcess(dir, command, { env: { NODE_OPTIONS: `--require=${hook}` } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stderr.split('LOADED ')[1]!)).toEqual([]);
    }
    const mcp = cliProcess(dir, ['mcp'], { stdin: '', env: { NODE_OPTIONS: `--require=${hook}` } });
    const loaded: string[] = JSON.parse(mcp.stderr.split('LOADED ')[1]!);
    expect(loaded.some((p) => p.includes('@modelcontextprotocol/sdk'))).toBe(true);
  });
});
