// Loads a bundle of the CLI through V8's code cache made at build time: dist/cli.cjs for every
// command, dist/mcp.cjs (the same CLI with the MCP SDK bundled in) for `agentboard mcp`.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

/** @param {{ produce?: boolean, bundle?: 'cli' | 'mcp' }} [options] */
function compile({ produce = false, bundle = 'cli' } = {}) {
  const file = join(__dirname, '..', 'dist', `${bundle}.cjs`);
  const source = readFileSync(file, 'utf8');
  let cachedData;
  if (!produce) {
    try {
      cachedData = readFileSync(`${file}.cache`);
    } catch {
      // no cache: compile as usual
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { script, module };
}

/** The CLI's main(argv, io): the entry point of every command. */
function loadCli(bundle = 'cli') {
  return compile({ bundle }).module.exports;
}

module.exports = { compile, loadCli };
