// Benchmarks of `agentboard run`'s own cost (node bench/engine.mjs, or node bench/run.mjs --only engine):
//
// 1. Overhead per invocation: a worker agent that exits at once (`true`) without finishing its
//    task, so every attempt is one invocation. Runs with 1 and with 1 + N attempts; the difference
//    per extra attempt, less the agent's own process start (`true` spawned bare, the same way), is
//    what the engine adds per invocation: prompt and MCP files, records, events, the board check of
//    the task, the commit check in the worktree.
// 2. 8 workers on 200 quick tasks: each agent is a shell script that marks its task done through
//    the CLI. Wall time, and the CPU time of the `agentboard run` process alone (read by a
//    preloaded hook at its exit), per task.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'agentboard.js');
const TMP = join(ROOT, '.bench-tmp', 'engine');
const EXTRA = Number(process.env.BENCH_EXTRA_ATTEMPTS ?? 19);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com', USER: 'bench' };

function sh(cwd, command, args) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

const ab = (cwd, args) => sh(cwd, process.execPath, [BIN, ...args]);

/** A git repository with a board, its agent `command`, and a change whose tasks are `tasks`. */
function board(name, command, tasks) {
  const dir = join(TMP, name, 'repo');
  rmSync(join(TMP, name), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  sh(dir, 'git', ['init', '-q']);
  ab(dir, ['init']);
  writeFileSync(join(dir, 'agentd/config.yaml'), `agents:\n  quick: { command: ${JSON.stringify(command)} }\nrun:\n  planner: quick\n  reviewer: quick\n  workers: [quick]\n`);
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  sh(dir, 'git', ['add', '-A']);
  sh(dir, 'git', ['commit', '-q', '-m', 'start']);
  const why = 'Benchmark boards need realistic changes so that the figures mean something for real boards.';
  ab(dir, ['propose', 'bench', '--as', 'planner', '--why', why, '--what-changes', 'Work.', '--impact', 'None.', '--notes', 'No additional notes.']);
  writeFileSync(join(dir, 'spec.md'), '# Specification: Bench\n\n## Overview\n\nA generated change used to measure what agentboard run costs per invocation and per task.\n\n## Requirements\n\n### R1: Work\n\nThe system MUST do the work.\n\n## Acceptance Criteria\n\n### Scenario: Work is done\n\n- **WHEN** an agent works\n- **THEN** the work is done\n');
  ab(dir, ['spec', 'bench', '--as', 'planner', '--from', 'spec.md', '--notes', 'No additional notes.']);
  writeFileSync(join(dir, 'tasks.json'), JSON.stringify({ tasks, notes: 'No additional notes.' }));
  ab(dir, ['tasks', 'bench', '--as', 'planner', '--input', 'tasks.json']);
  return dir;
}

function wall(fn) {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function engineBench() {
  rmSync(TMP, { recursive: true, force: true });
  console.log(`\nagentboard run: the engine's overhead per invocation (an agent that exits at once: \`true\`; ${ROUNDS} rounds)`);
  const single = [];
  const many = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [attempts, into] of [
      [1, single],
      [1 + EXTRA, many],
    ]) {
      const dir = board(`overhead-${attempts}`, ['true'], [{ title: 'Never finished' }]);
      into.push(wall(() => spawnSync(process.execPath, [BIN, 'run', 'bench', '--max-attempts', String(attempts), '--json'], { cwd: dir, env, stdio: 'ignore' })));
    }
  }
  const bare = median(Array.from({ length: 20 }, () => wall(() => spawnSync('true', [], { stdio: 'ignore' }))));
  const perExtra = (median(many) - median(single)) / EXTRA;
  console.log(`run with 1 attempt:               ${median(single).toFixed(0)} ms`);
  console.log(`run with ${1 + EXTRA} attempts:             ${median(many).toFixed(0)} ms`);
  console.log(`per extra invocation:             ${perExtra.toFixed(1)} ms`);
  console.log(`the agent's process start (true): ${bare.toFixed(1)} ms`);
  console.log(`engine overhead per invocation:   ${(perExtra - bare).toFixed(1)} ms (target < 150 ms)`);

  // 8 workers, 200 quick tasks.
  const tasks = Array.from({ length: 200 }, (_, i) => ({ title: `Quick task ${i + 1}` }));
  const agent = join(TMP, 'quick-agent.sh');
  mkdirSync(TMP, { recursive: true });
  writeFileSync(agent, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" task done "$AGENTBOARD_TASK_ID" --as "$AGENTBOARD_AGENT_ID" --root "$AGENTBOARD_ROOT" >/dev/null\n`, { mode: 0o755 });
  const dir = board('workers', [agent], tasks);
  const cpuDir = join(TMP, 'cpu');
  mkdirSync(cpuDir, { recursive: true });
  const hook = join(TMP, 'cpu-hook.cjs');
  writeFileSync(hook, `process.on('exit', () => { if (process.argv.includes('run')) require('fs').writeFileSync(${JSON.stringify(cpuDir)} + '/' + process.pid, JSON.stringify(process.cpuUsage())); });\n`);
  let out = '';
  const ms = wall(() => {
    const r = spawnSync(process.execPath, [BIN, 'run', 'bench', '--workers', '8', '--until', 'implementation', '--json'], { cwd: dir, env: { ...env, NODE_OPTIONS: `--require=${hook}` }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    out = r.stdout;
  });
  const events = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const finished = events.at(-1);
  const done = events.filter((e) => e.type === 'task.done').length;
  const [cpuFile] = readdirSync(cpuDir);
  const cpu = JSON.parse(readFileSync(join(cpuDir, cpuFile), 'utf8'));
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(`\nagentboard run: 8 workers on 200 quick tasks (each agent marks its task done with the CLI), worktrees on`);
  console.log(`outcome: ${finished.outcome} · tasks done: ${done} · invocations: ${finished.invocations}`);
  console.log(`wall time: ${(ms / 1000).toFixed(1)} s = ${(ms / done).toFixed(0)} ms per task`);
  console.log(`engine CPU: ${cpuSeconds.toFixed(1)} s = ${(cpuSeconds / done).toFixed(3)} CPU-s per task (target ≤ 0.5)`);
}

if (import.meta.url === `file://${process.argv[1]}`) engineBench();
