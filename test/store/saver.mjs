// A person who saves again and again, each time from the file as it is now (a fresh buffer, with one
// more fix), as editors do that write a new file and rename it over the old one.
// Usage: saver.mjs <file> <saves> [pause ms]; prints the markers of its fixes as JSON.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const [file, saves, gap = '15'] = process.argv.slice(2);
const markers = [];
for (let k = 0; k < Number(saves); k++) {
  const text = readFileSync(file, 'utf8');
  const tasks = [...text.matchAll(/^Description of task (\d+)\./gm)].map((m) => m[1]);
  const n = tasks[k % tasks.length];
  const marker = `(saved by hand ${k})`;
  writeFileSync(`${file}.swp`, text.replace(new RegExp(`^Description of task ${n}\\.(.*)$`, 'm'), (line) => `${line} ${marker}`));
  renameSync(`${file}.swp`, file);
  markers.push({ task: `T${n}`, marker });
  await new Promise((r) => setTimeout(r, Number(gap)));
}
process.stdout.write(`${JSON.stringify(markers)}\n`);
