// agentboard benchmarks. Run: npm run bench   (or: node bench/run.mjs [--runs N] [--only cli|claims|next|tools|engine|console|remote])
// Every figure is printed beside `node -e 0` measured in the same run on the same machine.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { benchBoard, TMP } from './board.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'agentboard.js');
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 10;
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : null; // cli | next | claims | tools | engine | console | remote

function time(argv, env = process.env, file = process.execPath) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  return ms;
}

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0] };
}

/** A command to time; `prepare` runs before each timed run, untimed (a fresh copy of a board). */
function measure(label, argv, prepare = () => {}, env = process.env) {
  return { label, argv, prepare, env, file: process.execPath };
}

/**
 * Runs every command once per round, round after round, so that noise on the machine hits them all
 * alike, each round in an order of its own: the place in a round alone moved a command's median by
 * up to 25 ms here (the first after the copy of a board and `node -e 0` ran slower).
 */
function runAll(commands) {
  for (const c of commands) {
    c.prepare();
    time(c.argv, c.env, c.file); // warm the file cache
  }
  const samples = commands.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    const order = commands.map((c, i) => ({ c, i, key: Math.random() })).sort((a, b) => a.key - b.key);
    for (const { c, i } of order) {
      c.prepare();
      samples[i].push(time(c.argv, c.env, c.file));
    }
  }
  return commands.map((c, i) => ({ label: c.label, ...stats(samples[i]) }));
}

function report(title, rows, baseline) {
  console.log(`\n${title}`);
  console.log(`${'command'.padEnd(64)} ${'median ms'.padStart(10)} ${'min ms'.padStart(8)} ${'× node'.padStart(8)}`);
  const bare = rows.find((r) => r.label === `node -e 0${NO_CERTS}`)?.median;
  for (const r of rows) {
    const base = r.label.endsWith(NO_CERTS) ? bare : baseline;
    console.log(`${r.label.padEnd(64)} ${r.median.toFixed(1).padStart(10)} ${r.min.toFixed(1).padStart(8)} ${(r.median / base).toFixed(2).padStart(8)}`);
  }
}

console.log(`agentboard bench · node ${process.version} · ${cpus().length} cpus · ${RUNS} runs each · load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

const node = measure('node -e 0', ['-e', '0']);

/**
 * Node reads the certificates NODE_EXTRA_CA_CERTS names as it starts, before any code runs (a
 * machine behind a proxy of its own often sets it): `node -e 0` then takes tens of milliseconds more,
 * and every "× node" figure is smaller for it. When it is set, node and the given commands are
 * timed without it too (rows marked so, each compared with node timed the same way), so that the
 * figures can be read both ways.
 */
const NO_CERTS = ' (without NODE_EXTRA_CA_CERTS)';
function withoutCerts(...commands) {
  if (!process.env.NODE_EXTRA_CA_CERTS) return [];
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return [node, ...commands].map((c) => ({ ...c, label: c.label + NO_CERTS, env }));
}

/**
 * The commands as a person or an agent starts them: bin/agentboard.js run as a program (its first
 * line hands it to sh, which starts node without NODE_EXTRA_CA_CERTS; see the file), not as
 * `node bin/agentboard.js`. Compared with `node -e 0` in the same environment, like every row.
 */
const AS_COMMAND = ' (run as a command)';
const asCommand = (...commands) => commands.map((c) => ({ ...c, label: c.label + AS_COMMAND, file: BIN, argv: c.argv.slice(1) }));

/**
 * A board no command has run on: a fresh copy of the generated one before every run. As generated,
 * it has the ledgers of the commands that wrote it (which no longer match the copied files, so
 * each is checked by content); "no ledger" is the board as a clone brings it (.runtime/ is not in git).
 */
function cold(source, name, { ledger }) {
  const dir = join(TMP, name);
  const copy = () => {
    rmSync(dir, { recursive: true, force: true });
    cpSync(source, dir, { recursive: true });
    if (!ledger) rmSync(join(dir, 'agentd', '.runtime', 'ledger'), { recursive: true, force: true });
  };
  return { dir, copy };
}

if (!ONLY || ONLY === 'cli') {
  for (const [changes, perChange] of [
    [10, 100],
    [100, 100],
  ]) {
    const source = await benchBoard(changes, perChange);
    const board = cold(source, `cold-${changes}`, { ledger: true });
    const bare = cold(source, `bare-${changes}`, { ledger: false });
    const total = changes * perChange;
    const status = measure('agentboard status', [BIN, 'status', '--root', board.dir], board.copy);
    const next = measure('agentboard next', [BIN, 'next', '--as', 'bench-agent', '--root', board.dir], board.copy);
    const bareStatus = measure('agentboard status (no ledger)', [BIN, 'status', '--root', bare.dir], bare.copy);
    const bareNext = measure('agentboard next (no ledger)', [BIN, 'next', '--as', 'bench-agent', '--root', bare.dir], bare.copy);
    const rows = runAll([
      node,
      measure('agentboard --version', [BIN, '--version']),
      measure('agentboard list', [BIN, 'list', '--root', board.dir], board.copy),
      status,
      measure('agentboard validate --all', [BIN, 'validate', '--all', '--root', board.dir], board.copy),
      next,
      bareStatus,
      bareNext,
      ...asCommand(status, next, bareStatus, bareNext),
      ...withoutCerts(status, next),
    ]);
    report(`Board of ${changes} changes × ${perChange} tasks = ${total.toLocaleString('en')} tasks, each command on a fresh copy`, rows, rows[0].median);
    rmSync(board.dir, { recursive: true, force: true });
    rmSync(bare.dir, { recursive: true, force: true });
  }
}

if (!ONLY || ONLY === 'next') {
  // On one copy: each claiming run takes one more task of the 10,000 (the board warm from the runs before); each resuming run gives an agent its own task back.
  const dir = join(TMP, 'next-copy');
  rmSync(dir, { recursive: true, force: true });
  cpSync(await benchBoard(100, 100), dir, { recursive: true });
  time([BIN, 'next', '--as', 'bench-resumer', '--root', dir]);
  let n = 0;
  const claim = { label: 'agentboard next (claims a new task)', prepare: () => {}, get argv() { return [BIN, 'next', '--as', `fresh-${n++}`, '--root', dir]; } };
  const rows = runAll([node, ...withoutCerts(), claim, measure('agentboard next (resumes its own task)', [BIN, 'next', '--as', 'bench-resumer', '--root', dir])]);
  report('next at 10,000 tasks, one board after another run', rows, rows[0].median);
  rmSync(dir, { recursive: true, force: true });
}

if (!ONLY || ONLY === 'claims') {
  const { claimsRound, reportClaims } = await import('./claims.mjs');
  reportClaims([await claimsRound(8, 400, 'mcp')]);
  const rows = [];
  for (const agents of [8, 16, 32]) rows.push(await claimsRound(agents));
  reportClaims(rows);
}

if (!ONLY || ONLY === 'tools') {
  const { toolsBench } = await import('./tools.mjs');
  await toolsBench();
}

if (!ONLY || ONLY === 'engine') {
  const { engineBench } = await import('./engine.mjs');
  engineBench();
}

if (!ONLY || ONLY === 'console') {
  const { consoleBench } = await import('./console.mjs');
  await consoleBench();
}

if (!ONLY || ONLY === 'remote') {
  const { remoteBench } = await import('./remote.mjs');
  await remoteBench();
}
