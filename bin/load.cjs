// Loads dist/cli.cjs through V8's code cache made at build time (dist/cli.cjs.cache).
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const FILE = join(__dirname, '..', 'dist', 'cli.cjs');

function compile({ produce = false } = {}) {
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
function loadCli() {
  return compile().module.exports;
}

module.exports = { compile, loadCli };
