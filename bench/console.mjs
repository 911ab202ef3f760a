// The console (`agentboard board`) on the board of 100 changes × 100 tasks, in a real terminal
// (tmux, 80×24): how long it takes to show the board, the CPU it uses while nothing happens, and
// how long a change on disk takes to reach the screen, for a person's save in an editor (a file
// renamed over the task list) and for a write by another agentboard process.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchBoard, TMP } from './board.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'agentboard.js');
const SOCKET = `agentboard-bench-${process.pid}`;
const tmux = (...args) => spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', 'console').stdout;
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time of a process so far, in seconds (user + system). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Milliseconds until the screen shows `text`, read every 10 ms (each read is a tmux command: a few ms of its own). */
function untilShown(text, t0, limitMs = 10_000) {
  for (;;) {
    if (screen().includes(text)) return performance.now() - t0;
    if (performance.now() - t0 > limitMs) throw new Error(`the screen did not show "${text}" within ${limitMs} ms`);
    pause(10);
  }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};

export async function consoleBench({ idleSeconds = 120, settleSeconds = 20, rounds = 10 } = {}) {
  const dir = join(TMP, 'console-board');
  rmSync(dir, { recursive: true, force: true });
  cpSync(await benchBoard(100, 100), dir, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, USER: 'bench', TERM: 'xterm-256color' };
  const vars = Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ');
  const t0 = performance.now();
  tmux('new-session', '-d', '-s', 'console', '-x', '80', '-y', '24', `cd '${dir}' && exec env -i ${vars} '${process.execPath}' '${BIN}' board`);
  try {
    const pid = Number(tmux('display-message', '-p', '-t', 'console', '#{pane_pid}').stdout.trim());
    const startup = untilShown('TODO 10,000', t0, 60_000);

    // Idle: let the first read's garbage go, then measure a while of nothing happening.
    pause(settleSeconds * 1000);
    const idle0 = cpuSeconds(pid);
    pause(idleSeconds * 1000);
    const idle = ((cpuSeconds(pid) - idle0) / idleSeconds) * 100;

    // A person's save in an editor: the title of the first card, written to a new file renamed over tasks.md.
    const file = join(dir, 'agentd/changes/change-0000/tasks.md');
    const edits = [];
    const cpuBefore = cpuSeconds(pid);
    for (let k = 0; k < rounds; k++) {
      const text = readFileSync(file, 'utf8').replace(/^## T1: .*$/m, `## T1: Edit ${k} by hand`);
      writeFileSync(`${file}.swp`, text);
      const t = performance.now();
      renameSync(`${file}.swp`, file);
      edits.push(untilShown(`Edit ${k} by`, t));
    }
    const cpuPerEdit = ((cpuSeconds(pid) - cpuBefore) / rounds) * 1000;

    // Another agentboard process claims a task and reports progress: from its exit to the screen.
    // (At 80 columns the column's count shows whole up to 9.)
    const writes = [];
    for (let k = 1; k <= Math.min(rounds, 9); k++) {
      const r = spawnSync(process.execPath, [BIN, 'task', 'progress', `change-${String(k).padStart(4, '0')}/T1`, '--as', `bench-agent-${k}`, '--percent', '50', '--message', 'Halfway', '--root', dir], { encoding: 'utf8' });
      const t = performance.now();
      if (r.status !== 0) throw new Error(`task progress failed: ${r.stderr}`);
      writes.push(untilShown(`IN PROGRESS ${k} `, t));
    }

    const e = stats(edits);
    const w = stats(writes);
    console.log('\nagentboard board on 100 changes × 100 tasks = 10,000 tasks, in tmux at 80×24');
    console.log(`first screen:                         ${startup.toFixed(0)} ms`);
    console.log(`CPU while idle (${idleSeconds} s, after ${settleSeconds} s): ${idle.toFixed(2)} % of a core (target < 1 %)`);
    console.log(`a save in an editor → screen:          median ${e.median.toFixed(0)} ms, max ${e.max.toFixed(0)} ms over ${rounds} (target < 300 ms)`);
    console.log(`CPU of the console per such change:    ${cpuPerEdit.toFixed(0)} ms`);
    console.log(`another process's write → screen:     median ${w.median.toFixed(0)} ms, max ${w.max.toFixed(0)} ms over ${writes.length}`);
  } finally {
    tmux('kill-server');
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
  await consoleBench({ idleSeconds: arg('--idle', 120), settleSeconds: arg('--settle', 20), rounds: arg('--rounds', 10) });
}
