#!/bin/sh
':' //; [ -z "$NODE_EXTRA_CA_CERTS" ] || { AGENTBOARD_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS; export AGENTBOARD_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; }; exec node "$0" "$@"
// The two lines above are read by sh, which runs this file when it is started as a command; node
// reads the second as a string and a comment. Node loads every certificate NODE_EXTRA_CA_CERTS
// names as it starts, before any code runs (tens of milliseconds for a system's whole bundle), and
// agentboard makes no TLS connection of its own: so the command starts node without it, and this
// file sets it back below for every program agentboard starts (agents, git, hooks).
//
// Loads the built CLI. `--version` is answered here, so that it costs no more than starting node.
// A CommonJS file (bin/package.json): node starts one without setting up its ES module loader.
'use strict';
if (process.env.AGENTBOARD_EXTRA_CA_CERTS !== undefined) {
  process.env.NODE_EXTRA_CA_CERTS ??= process.env.AGENTBOARD_EXTRA_CA_CERTS;
  delete process.env.AGENTBOARD_EXTRA_CA_CERTS;
}
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  void run();
}

async function run() {
  let cli;
  try {
    cli = require('./load.cjs').loadCli(commandWord(args) === 'mcp' ? 'mcp' : 'cli');
  } catch (err) {
    if (err?.code !== 'ENOENT') throw err;
    process.stderr.write('error: agentboard is not built yet.\n  next: run `npm run build` in the agentboard folder.\n');
    process.exit(1);
  }
  // The CLI runs inside vm.Script, which cannot import() an ES module: it borrows this file's import().
  const code = await cli.main(args, undefined, { importModule: (specifier) => import(specifier) });
  // The command is over: exit once what it printed is out, rather than wait for the garbage
  // collector to finish work nobody needs (tens of milliseconds after reading a big board).
  process.exitCode = code;
  await flushed(process.stdout);
  await flushed(process.stderr);
  process.exit(code);
}

/** The command of the arguments, read as src/cli/main.ts reads it (the bundle is not loaded yet). */
function commandWord(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--root' || argv[i] === '--as') i++;
    else if (!argv[i].startsWith('-')) return argv[i];
  }
  return undefined;
}

function flushed(stream) {
  if (stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('drain', resolve);
    stream.once('error', resolve);
    stream.once('close', resolve);
  });
}
