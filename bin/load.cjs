// Loads a bundle of the CLI through V8's code cache made at build time: dist/cli.cjs for every
// command, dist/mcp.cjs (the same CLI with the MCP SDK bundled in) for `agentboard mcp`.
'use strict';
const { isAscii } = require('node:buffer');
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

/** @param {{ produce?: boolean, bundle?: 'cli' | 'mcp' }} [options] */
function compile({ produce = false, bundle = 'cli' } = {}) {
  const file = join(__dirname, '..', 'dist', `${bundle}.cjs`);
  // The build writes the bundle as a function expression (node's wrapper of a CommonJS module) in
  // ASCII: read as latin1, its text is kept outside V8's heap (node does so for a text over a
  // megabyte in latin1) and compiled as it is.
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  let cachedData;
  if (!produce) {
    try {
      cachedData = readFileSync(`${file}.cache`);
    } catch {
      // no cache: compile as usual
    }
  }
  const script = new vm.Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { script, module };
}

/** The CLI's main(argv, io): the entry point of every command. */
function loadCli(bundle = 'cli') {
  return compile({ bundle }).module.exports;
}

module.exports = { compile, loadCli };
