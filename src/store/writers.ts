/**
 * Who is writing a file right now. An editor that saves in place truncates the file and writes it
 * again; a command that reads it half-way would merge a half file. Before merging a person's edit,
 * agentboard waits while another process still has the file open for writing. Linux tells through
 * /proc; elsewhere the answer is "nobody" and the merge's own rules (never dropping what a shorter
 * file lacks) keep a half save from losing anything.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

const O_ACCMODE = 3;

/**
 * Pids of other processes that have `path` open for writing; with `replaced`, the version of it
 * that a rename has just replaced (which /proc names "<path> (deleted)").
 */
export function openWriters(path: string, replaced = false): number[] {
  let real: string;
  let pids: string[];
  try {
    real = realpathSync(path);
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return [];
  }
  const writers: number[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== (replaced ? `${real} (deleted)` : real)) continue;
        const flags = Number.parseInt(/^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0', 8);
        if ((flags & O_ACCMODE) !== 0) {
          writers.push(Number(pid));
          break;
        }
      } catch {
        // the process or its descriptor went away meanwhile
      }
    }
  }
  return writers;
}
