// agentboard benchmarks. Run: npm run bench   (or: node bench/run.mjs [--runs N] [--only cli|claims|next|tools|engine|console|remote])
// Every figure is printed beside `node -e 0` measured in the same run on the same machine.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { benchBoard, TMP } from './board.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'agentboard.js');
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 10;
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : null; // cli | next | claims | tools | engine | console | remote

function time(argv, cwd = ROOT) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  return ms;
}

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0] };
}

function measure(label, argv, cwd = ROOT) {
  return { label, argv, cwd };
}

/** Runs every command once per round, round after round, so that noise on the machine hits all alike. */
function runAll(commands) {
  for (const c of commands) time(c.argv, c.cwd); // warm the file cache
  const samples = commands.map(() => []);
  for (let round = 0; round < RUNS; round++) commands.forEach((c, i) => samples[i].push(time(c.argv, c.cwd)));
  return commands.map((c, i) => ({ label: c.label, ...stats(samples[i]) }));
}

function report(title, rows, baseline) {
  console.log(`\n${title}`);
  console.log(`${'command'.padEnd(40)} ${'median ms'.padStart(10)} ${'min ms'.padStart(8)} ${'× node'.padStart(8)}`);
  for (const r of rows) console.log(`${r.label.padEnd(40)} ${r.median.toFixed(1).padStart(10)} ${r.min.toFixed(1).padStart(8)} ${(r.median / baseline).toFixed(2).padStart(8)}`);
}

console.log(`agentboard bench · node ${process.version} · ${cpus().length} cpus · ${RUNS} runs each`);

const node = measure('node -e 0', ['-e', '0']);

/** A copy of a board whose parse cache is filled, as it is on a board agents are working: one agent took a task. */
function warmCopy(source, name) {
  const dir = join(TMP, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });
  time([BIN, 'next', '--as', 'bench-warm', '--root', dir]);
  return dir;
}

if (!ONLY || ONLY === 'cli') {
  for (const [changes, perChange] of [
    [10, 100],
    [100, 100],
  ]) {
    const cold = await benchBoard(changes, perChange);
    const warm = warmCopy(cold, `warm-${changes}`);
    const total = changes * perChange;
    const rows = runAll([
      node,
      measure('agentboard --version', [BIN, '--version']),
      measure('agentboard list', [BIN, 'list', '--root', cold]),
      measure('agentboard status', [BIN, 'status', '--root', cold]),
      measure('agentboard validate --all', [BIN, 'validate', '--all', '--root', cold]),
      measure('agentboard list (parse cache warm)', [BIN, 'list', '--root', warm]),
      measure('agentboard status (parse cache warm)', [BIN, 'status', '--root', warm]),
    ]);
    report(`Board of ${changes} changes × ${perChange} tasks = ${total.toLocaleString('en')} tasks`, rows, rows[0].median);
    rmSync(warm, { recursive: true, force: true });
  }
}

if (!ONLY || ONLY === 'next') {
  // Each claiming run takes one more task of the 10,000; each resuming run gives an agent its own task back.
  const dir = warmCopy(await benchBoard(100, 100), 'next-copy');
  time([BIN, 'next', '--as', 'bench-resumer', '--root', dir]);
  let n = 0;
  const claim = { label: 'agentboard next (claims a new task)', get argv() { return [BIN, 'next', '--as', `fresh-${n++}`, '--root', dir]; } };
  const rows = runAll([node, claim, measure('agentboard next (resumes its own task)', [BIN, 'next', '--as', 'bench-resumer', '--root', dir])]);
  report('next at 10,000 tasks', rows, rows[0].median);
  rmSync(dir, { recursive: true, force: true });
}

if (!ONLY || ONLY === 'claims') {
  const { claimsRound, reportClaims } = await import('./claims.mjs');
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
