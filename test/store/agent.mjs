// An agent working a board in a loop, as its own process: next, a note, progress, done.
// Usage: agent.mjs <dir> <agent_id> <rounds> [notes per task]; prints one JSON line per acknowledged result.
import { join, resolve } from 'node:path';

const [dir, agent, rounds, perTask = '2'] = process.argv.slice(2);
const { main } = (await import(join(resolve(import.meta.dirname, '..', '..'), 'bin', 'load.mjs'))).loadCli();
async function call(args) {
  let out = '';
  await main([...args, '--root', dir, '--as', agent, '--json'], { out: (t) => (out += t), err: () => undefined });
  return JSON.parse(out);
}
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
for (let k = 0; k < Number(rounds); k++) {
  const next = await call(['next']);
  if (!next.ok) {
    print({ kind: 'refused', code: next.error.code });
    continue;
  }
  if (next.data.status === 'nothing_available' && next.data.reasons.broken_task_lists.length > 0) {
    // The person is half-way through a save: the list is back once they finish. Ask again.
    await new Promise((r) => setTimeout(r, 20));
    k--;
    continue;
  }
  if (next.data.status !== 'assigned' && next.data.status !== 'resumed') break;
  const task = next.data.task.task_id;
  if (next.data.status === 'assigned') print({ kind: 'claim', task });
  for (let n = 0; n < Number(perTask); n++) {
    const text = `${agent} note ${k}.${n}`;
    const note = await call(['task', 'note', task, text]);
    if (note.ok) print({ kind: 'note', task, text });
    const progress = await call(['task', 'progress', task, '--percent', String(10 + n), '--message', `${agent} step ${k}.${n}`]);
    if (progress.ok) print({ kind: 'progress', task });
  }
  const done = await call(['task', 'done', task]);
  if (done.ok) print({ kind: 'done', task });
}
