// What waking the callers costs the holder of the lock: it writes the lock file again after each
// commit, and every caller waiting for its answer watches that file (fs.watch). Here one process
// writes a few bytes into a file 200 times, 10 ms apart, while N other processes watch it, and
// times each write.
//
//   node bench/watch-wake.mjs [watchers...]     # default: 0 1 7
import { fork } from 'node:child_process';
import { mkdirSync, openSync, watch, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '.bench-tmp');
const file = join(dir, 'watched-file');

if (process.argv[2] === 'watcher') {
  watch(file, () => undefined);
  process.send('watching');
} else {
  mkdirSync(dir, { recursive: true });
  const counts = process.argv.slice(2).map(Number);
  for (const n of counts.length > 0 ? counts : [0, 1, 7]) {
    writeFileSync(file, 'x');
    const watchers = [];
    for (let i = 0; i < n; i++) {
      const child = fork(import.meta.filename, ['watcher']);
      await new Promise((resolve) => child.once('message', resolve));
      watchers.push(child);
    }
    const fd = openSync(file, 'r+');
    const times = [];
    for (let i = 0; i < 200; i++) {
      const start = process.hrtime.bigint();
      writeSync(fd, `lock-${i}`, 0);
      times.push(Number(process.hrtime.bigint() - start) / 1000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const child of watchers) child.kill();
    times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    console.log(`${String(n).padStart(2)} watchers: write median ${times[100].toFixed(0)} µs, mean ${mean.toFixed(0)}, p90 ${times[180].toFixed(0)}, max ${times[199].toFixed(0)}`);
  }
}
