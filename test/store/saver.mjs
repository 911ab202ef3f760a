// A person who saves again and again, each time from the file as it is now (a fresh buffer, with one
// more fix), as editors do that write a new file and rename it over the old one. Before each save
// they see their last fix on screen: in the file, or (merged with a conflict) among the conflicts
// agentboard kept. A save that raced with a commit is back in the file once the committing command
// has merged it; a save made from the file before that would be the person taking the fix back.
// Waiting for it is bounded: a fix agentboard lost is not waited for forever, and shows as missing.
// Usage: saver.mjs <file> <saves> [pause ms]; prints the markers of its fixes as JSON.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [file, saves, gap = '15'] = process.argv.slice(2);
const conflicts = join(file.slice(0, file.lastIndexOf('/agentd/')), 'agentd/.runtime/conflicts.json');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Seen in the very text the next save is made from: a fix seen in one read of the file and gone from
// the next (a commit's rename displacing the save, to be merged back by the one after) is waited for.
const seen = (marker, text) => text.includes(marker) || (existsSync(conflicts) && readFileSync(conflicts, 'utf8').includes(marker));
const markers = [];
for (let k = 0; k < Number(saves); k++) {
  let text = readFileSync(file, 'utf8');
  for (let waited = 0; k > 0 && !seen(markers[k - 1].marker, text) && waited < 10_000; waited += 20) {
    await sleep(20);
    text = readFileSync(file, 'utf8');
  }
  const tasks = [...text.matchAll(/^Description of task (\d+)\./gm)].map((m) => m[1]);
  const n = tasks[k % tasks.length];
  const marker = `(saved by hand ${k})`;
  writeFileSync(`${file}.swp`, text.replace(new RegExp(`^Description of task ${n}\\.(.*)$`, 'm'), (line) => `${line} ${marker}`));
  renameSync(`${file}.swp`, file);
  markers.push({ task: `T${n}`, marker });
  await sleep(Number(gap));
}
process.stdout.write(`${JSON.stringify(markers)}\n`);
