import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, newBoard, tempDir } from '../helpers.js';

const { compile } = createRequire(import.meta.url)('../../bin/load.cjs') as { compile: (o: { bundle: 'cli' | 'mcp' }) => { script: { cachedDataRejected?: boolean } } };

describe('the built bundles', () => {
  it.each(['cli', 'mcp'] as const)('%s is ASCII, the words of the import readers escaped in their regular expressions, and V8 takes its code cache', (bundle) => {
    const source = readFileSync(new URL(`../../dist/${bundle}.cjs`, import.meta.url), 'latin1');
    // One character outside ASCII and V8 holds the whole bundle as two bytes per character.
    const outside = source.match(/[^\x00-\x7f]/);
    expect(outside && source.slice(Math.max(0, outside.index! - 60), outside.index! + 20)).toBeNull();
    // The readers of spec-kit's and OpenSpec's formats in other languages are in it, escaped.
    expect(source).toContain('\\u30bf\\u30b9\\u30af'); // タスク
    expect(compile({ bundle }).script.cachedDataRejected).toBe(false);
  });

  it('a command compiles no code at run time (zod builds no parsers with new Function), the MCP server does', async () => {
    const dir = await newBoard();
    // Counts every use of the Function constructor in the process, as a preloaded module.
    const counter = join(tempDir(), 'count-functions.cjs');
    writeFileSync(counter, "const F = Function; let n = 0; globalThis.Function = new Proxy(F, { construct: (t, a) => (n++, Reflect.construct(t, a)), apply: (t, s, a) => (n++, Reflect.apply(t, s, a)) }); process.on('exit', () => process.stderr.write(`functions made: ${n}\\n`));\n");
    const run = (args: string[], input?: string) => spawnSync(process.execPath, ['-r', counter, BIN, ...args, '--root', dir], { encoding: 'utf8', input });
    const status = run(['status']);
    expect(status.status).toBe(0);
    expect(status.stderr).toContain('functions made: 0');
    const request = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const served = run(['mcp'], [request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }), request(2, 'tools/call', { name: 'agentboard_list_changes', arguments: {} }), ''].join('\n'));
    expect(served.stdout).toContain('"id":2');
    expect(served.stderr).not.toContain('functions made: 0');
  });
});
