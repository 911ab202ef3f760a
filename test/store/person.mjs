// A person editing tasks.md in an editor while agents work: the buffer is loaded once and never
// reloaded (stale), each round fixes one more description (up to 4 × <rounds> fixes, so that
// descriptions stay within their limit however long the agents take; then it saves the same stale
// buffer again), and saves it in turn in place, in place half-finished for a moment (the editor
// wrote part of the file, then the rest), and as a new file renamed over the old one.
// Usage: person.mjs <file> <rounds> <stop file> [pause ms]: saves at least <rounds> times, and goes on
// until <stop file> exists (the agents are done); writes <stop file>.started after its first save;
// prints the markers of its edits as JSON.
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';

const [file, rounds, stop, gap = '20'] = process.argv.slice(2);
let buffer = readFileSync(file, 'utf8');
const tasks = [...buffer.matchAll(/^Description of task (\d+)\.$/gm)].map((m) => m[1]);
const markers = [];
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
for (let k = 0; k < Number(rounds) || !existsSync(stop); k++) {
  if (k < 4 * Number(rounds)) {
    const n = tasks[k % tasks.length];
    const marker = `(fixed by hand ${k})`;
    buffer = buffer.replace(new RegExp(`^Description of task ${n}\\.(.*)$`, 'm'), (line) => `${line} ${marker}`);
    markers.push({ task: `T${n}`, marker });
  }
  if (k % 3 === 2) {
    // Saved as many editors do: a new file beside it, renamed over it.
    writeFileSync(`${file}.swp`, buffer);
    renameSync(`${file}.swp`, file);
  } else {
    const fd = openSync(file, 'w');
    if (k % 3 === 1) {
      const cut = Math.floor(buffer.length * (0.3 + 0.4 * Math.random()));
      writeSync(fd, buffer.slice(0, cut));
      await pause(40);
      writeSync(fd, buffer.slice(cut));
    } else writeSync(fd, buffer);
    closeSync(fd);
  }
  if (k === 0) writeFileSync(`${stop}.started`, '');
  await pause(Number(gap));
}
process.stdout.write(`${JSON.stringify(markers)}\n`);
