// Makes dist/cli.cjs.cache: compiles the bundle, runs a few commands so that their code is
// compiled too, and saves what V8 compiled. A cache made by another Node version is simply not
// used (the CLI then compiles as usual).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../bin/load.mjs';

const { script, module } = compile({ produce: true });
const dir = mkdtempSync(join(tmpdir(), 'agentboard-cache-'));
const quiet = { out: () => {}, err: () => {} };
for (const args of [['init', '--as', 'human:build'], ['status'], ['list'], ['validate'], ['next', '--as', 'build'], ['task', 'list'], ['--help']]) {
  await module.exports.main([...args, '--root', dir], quiet);
}
rmSync(dir, { recursive: true, force: true });
const data = script.createCachedData();
writeFileSync(new URL('../dist/cli.cjs.cache', import.meta.url), data);
console.log(`dist/cli.cjs.cache  ${(data.length / 1024).toFixed(0)} KiB`);
