// One claiming agent for the claims benchmarks and the race tests: get the next task, complete it,
// repeat until the board has nothing left. Prints the task ids it got, and how long each claim took
// (ms, the whole `next` call), as JSON. BENCH_COUNT=<point>,… counts how often the store reaches
// those named points (through the same hook the tests use), printed as `counts`.
import { join, resolve } from 'node:path';

const counts = {};
if (process.env.BENCH_COUNT) {
  const points = new Set(process.env.BENCH_COUNT.split(','));
  globalThis[Symbol.for('agentboard.test-hooks')] = { fault: (point) => points.has(point) && (counts[point] = (counts[point] ?? 0) + 1) };
}

const [dir, agent] = process.argv.slice(2);
const { main } = (await import(join(resolve(import.meta.dirname, '..'), 'bin', 'load.mjs'))).loadCli();
async function call(args) {
  let out = '';
  await main([...args, '--root', dir, '--as', agent, '--json'], { out: (t) => (out += t), err: () => {} });
  return JSON.parse(out);
}
const claimed = [];
const latencies = [];
for (;;) {
  const t0 = performance.now();
  const r = await call(['next']);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  if (r.data.status !== 'assigned') break;
  latencies.push(performance.now() - t0);
  claimed.push(r.data.task.task_id);
  const done = await call(['task', 'done', r.data.task.task_id]);
  if (!done.ok) throw new Error(JSON.stringify(done.error));
}
process.stdout.write(JSON.stringify({ agent, claimed, latencies, counts }));
