// Loads dist/cli.cjs through V8's code cache made at build time (dist/cli.cjs.cache).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const FILE = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));

export function compile({ produce = false } = {}) {
  const source = readFileSync(FILE, 'utf8');
  let cachedData;
  if (!produce) {
    try {
      cachedData = readFileSync(`${FILE}.cache`);
    } catch {
      // no cache: compile as usual
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: FILE, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(FILE), module, FILE, dirname(FILE));
  return { script, module };
}

/** The CLI's main(argv, io): the entry point of every command. */
export function loadCli() {
  return compile().module.exports;
}
