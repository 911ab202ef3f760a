import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

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
});
