// A real agent process for the race tests: it runs agentboard operations in a loop against one
// board and prints every result as a JSON line. Usage: worker.mjs <dir> <agent> <task_id> <count>
import { join, resolve } from 'node:path';

const [dir, agent, taskId, count] = process.argv.slice(2);
const { main } = (await import(join(resolve(import.meta.dirname, '..', '..'), 'bin', 'load.mjs'))).loadCli();
async function call(args) {
  let out = '';
  await main([...args, '--root', dir, '--as', agent, '--json'], { out: (t) => (out += t), err: (t) => (out += t) });
  return JSON.parse(out);
}
for (let i = 0; i < Number(count); i++) {
  const note = await call(['task', 'note', taskId, `${agent} note ${i}`]);
  const progress = await call(['task', 'progress', taskId, '--percent', String(i), '--message', `${agent} step ${i}`]);
  process.stdout.write(`${JSON.stringify({ note: note.ok, progress: progress.ok, error: note.error ?? progress.error })}\n`);
}
