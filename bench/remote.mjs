// Claims through a git remote (node bench/remote.mjs, or node bench/run.mjs --only remote).
//
// A shared board whose remote is a bare repository on this machine: 1 agent (1 clone), 4 agents
// (4 clones × 1) and 16 agents (4 clones × 4), each a process of its own looping `next` + `task
// done` until the tasks are gone. Beside each, the same agents on one board that is not shared.
// Reports claims/s (each claim is followed by its completion, so writes/s is twice that), the
// latency of a claim (the whole `next` call) at p50, p95 and its maximum, and how many pushes the
// remote refused per write (another clone wrote first; the write ran again), counted at the
// store's `remote:moved` point. Last, the same through a remote made BENCH_RTT_MS (100) further away: git's
// ext:: transport starts each connection (one per fetch, one per push) after that delay, as a
// rough stand-in for a remote across a network.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SPEC } from './board.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const TMP = join(ROOT, '.bench-tmp', 'remote');
const TASKS = Number(process.env.BENCH_REMOTE_TASKS ?? 100);
const KEY = 'abpk_bench-person-key-for-the-remote-benchmark';
const HOME = join(TMP, 'home');
const env = { ...process.env, HOME, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(HOME, 'gitconfig'), AGENTBOARD_PERSON_KEY: KEY, USER: 'bench' };

function sh(cwd, command, args) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}
const git = (cwd, args) => sh(cwd, 'git', args);
const ab = (cwd, args) => sh(cwd, process.execPath, [join(ROOT, 'bin', 'agentboard.js'), ...args]);

/** A git repository with a board of TASKS tasks, committed. */
function board(dir) {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q']);
  git(dir, ['config', 'user.name', 'bench']);
  git(dir, ['config', 'user.email', 'bench@example.com']);
  ab(dir, ['init', '--as', 'human:bench']);
  const hash = createHash('sha256').update(KEY).digest('hex');
  writeFileSync(join(dir, 'agentd', 'people.yaml'), `people:\n  - name: human:bench\n    key_sha256: ${hash}\n    added: 2026-11-22T00:00:00.000Z\n`);
  writeFileSync(join(dir, 'spec.md'), SPEC);
  ab(dir, ['propose', 'bench', '--as', 'planner', '--why', 'Benchmark boards need realistic changes so that the figures mean something.', '--what-changes', 'Generated.', '--impact', 'None.', '--notes', 'Generated.']);
  ab(dir, ['spec', 'bench', '--as', 'planner', '--from', 'spec.md', '--notes', 'Generated.']);
  writeFileSync(join(dir, 'tasks.json'), JSON.stringify({ notes: 'Generated.', tasks: Array.from({ length: TASKS }, (_, i) => ({ title: `Generated task ${i + 1}`, description: 'Do the generated work and check it.' })) }));
  ab(dir, ['tasks', 'bench', '--as', 'planner', '--input', 'tasks.json']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'A board']);
}

const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 100);

/** A remote RTT_MS away: every connection to the bare repository starts after that delay. */
function distant(dir, remote) {
  const script = join(dir, 'distant-remote.sh');
  writeFileSync(script, `#!/bin/sh\nsleep ${RTT_MS / 1000}\nexec "$1" "${remote}"\n`, { mode: 0o755 });
  return `ext::${script} %S`;
}

/** `clones` clones sharing one board through a bare remote in `dir` (RTT_MS away when `far`). */
function sharedClones(dir, clones, far = false) {
  mkdirSync(dir, { recursive: true });
  const remote = join(dir, 'remote.git');
  git(dir, ['init', '-q', '--bare', remote]);
  const first = join(dir, 'clone-0');
  board(first);
  git(first, ['remote', 'add', 'origin', far ? distant(dir, remote) : remote]);
  git(first, ['config', 'protocol.ext.allow', 'always']);
  git(first, ['push', '-q', 'origin', 'HEAD']);
  ab(first, ['remote', 'enable']);
  git(first, ['commit', '-q', '-m', 'Share the board', 'agentd/config.yaml']);
  git(first, ['push', '-q', 'origin', 'HEAD']);
  const out = [first];
  for (let c = 1; c < clones; c++) {
    const clone = join(dir, `clone-${c}`);
    git(dir, ['-c', 'protocol.ext.allow=always', 'clone', '-q', far ? distant(dir, remote) : remote, clone]);
    git(clone, ['config', 'protocol.ext.allow', 'always']);
    ab(clone, ['status', '--sync']);
    out.push(clone);
  }
  return out;
}

function claimer(dir, agent) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'claimer.mjs'), dir, agent], { env: { ...env, BENCH_COUNT: 'remote:moved,remote:push' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`${agent} exited ${code}`))));
  });
}

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function run(label, dirs, perDir) {
  const t0 = process.hrtime.bigint();
  const results = await Promise.all(dirs.flatMap((dir, c) => Array.from({ length: perDir }, (_, a) => claimer(dir, `c${c}-a${a}`))));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const claimed = results.flatMap((r) => r.claimed);
  const latencies = results.flatMap((r) => r.latencies);
  if (claimed.length !== TASKS || new Set(claimed).size !== TASKS) throw new Error(`${label}: ${claimed.length} claims, ${new Set(claimed).size} distinct, of ${TASKS} tasks`);
  const moved = results.reduce((n, r) => n + (r.counts?.['remote:moved'] ?? 0), 0);
  const pushes = results.reduce((n, r) => n + (r.counts?.['remote:push'] ?? 0), 0);
  const refused = pushes === 0 ? '' : `${(moved / (pushes - moved)).toFixed(2)}`;
  console.log(`${label.padEnd(34)} ${(claimed.length / seconds).toFixed(1).padStart(9)} ${percentile(latencies, 50).toFixed(0).padStart(8)} ${percentile(latencies, 95).toFixed(0).padStart(8)} ${Math.max(...latencies).toFixed(0).padStart(8)} ${refused.padStart(14)}`);
}

export async function remoteBench() {
  console.log(`\nClaims through a local bare remote: ${TASKS} tasks, each agent a process looping next + task done (a claim and a write each)`);
  console.log(`${'agents'.padEnd(34)} ${'claims/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'refused/write'.padStart(14)}`);
  for (const [agents, clones] of [
    [1, 1],
    [4, 4],
    [16, 4],
  ]) {
    rmSync(TMP, { recursive: true, force: true });
    mkdirSync(HOME, { recursive: true });
    const local = join(TMP, 'local');
    board(local);
    await run(`${agents} on one board, not shared`, [local], agents);
    await run(`${agents} through the remote (${clones} clone${clones === 1 ? '' : 's'})`, sharedClones(join(TMP, 'shared'), clones), agents / clones);
  }
  for (const [agents, clones] of [
    [1, 1],
    [4, 4],
  ]) {
    rmSync(TMP, { recursive: true, force: true });
    mkdirSync(HOME, { recursive: true });
    await run(`${agents} through a remote ${RTT_MS} ms away (${clones})`, sharedClones(join(TMP, 'far'), clones, true), agents / clones);
  }
  rmSync(TMP, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await remoteBench();
