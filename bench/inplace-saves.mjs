// A person saving a task list in place (truncate and write, as many editors do) every 30 to 80 ms
// while an agent writes notes to the same list, one `agentboard task note` process after another.
// Before each save the person's "editor" reads the file and checks that every earlier edit of theirs
// is still there; at the end, every edit must be in the file. Prints the edits missing from the file
// for a moment (seen before a save) and for good, and the agent's notes kept. A count, not a time:
// run it alternately with another build (BIN=…) to compare.
//
//   node bench/inplace-saves.mjs [saves=60] [notes=40] [rounds=3]
import { spawn } from 'node:child_process';
import { cpSync, openSync, readFileSync, closeSync, ftruncateSync, writeSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchBoard, TMP } from './board.mjs';

const [saves = 60, notes = 40, rounds = 3] = process.argv.slice(2).map(Number);
const bin = process.env.BIN ?? join(resolve(import.meta.dirname, '..'), 'bin', 'agentboard.js');
const source = await benchBoard(1, 10);

const run = (dir, args) =>
  new Promise((done, failed) => {
    const child = spawn(process.execPath, [bin, ...args, '--root', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? done() : failed(new Error(`agentboard ${args.join(' ')}: ${err}`))));
  });

for (let round = 1; round <= rounds; round++) {
  const dir = join(TMP, 'inplace');
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });
  const file = join(dir, 'agentd/changes/change-0000/tasks.md');
  await run(dir, ['next', '--as', 'writer']);
  const task = 'change-0000/T1';

  let agentDone = false;
  const agent = (async () => {
    for (let i = 1; i <= notes; i++) await run(dir, ['task', 'note', task, `note ${i}`, '--as', 'writer']);
    agentDone = true;
  })();

  const seenMissing = new Set();
  for (let i = 1; i <= saves; i++) {
    const text = readFileSync(file, 'utf8');
    for (let j = 1; j < i; j++) if (!text.includes(` M${j} `)) seenMissing.add(j);
    // The person's edit: a marker in the second task's title line.
    const edited = text.replace('## T2: ', `## T2: M${i} `);
    const fd = openSync(file, 'r+');
    ftruncateSync(fd, 0);
    writeSync(fd, edited, 0);
    closeSync(fd);
    await sleep(30 + Math.random() * 50);
  }
  await agent;
  // One more write merges whatever the last save left to merge.
  await run(dir, ['task', 'note', task, 'last', '--as', 'writer']);
  const final = readFileSync(file, 'utf8');
  const lost = Array.from({ length: saves }, (_, k) => k + 1).filter((j) => !final.includes(` M${j} `));
  const kept = Array.from({ length: notes }, (_, k) => k + 1).filter((j) => final.includes(`note ${j}\n`) || final.includes(`note ${j}"`)).length;
  console.log(`round ${round}: ${saves} saves in place, ${notes} notes (agent ${agentDone ? 'done' : 'cut short'}): missing for a moment ${seenMissing.size}, missing for good ${lost.length}${lost.length ? ` (M${lost.join(', M')})` : ''}; notes kept ${kept} of ${notes}`);
}
