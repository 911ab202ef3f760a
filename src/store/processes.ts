/**
 * Finding processes by a marker in their environment (read from /proc, so a reused pid is never
 * mistaken for one): the agents of a run that died, a push that outlived the command that started
 * it. Where there is no /proc the list is empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The pids of the processes whose environment holds `NAME=value` exactly, for every pair of `markers`. */
export function processesWith(markers: Record<string, string>): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  const wanted = Object.entries(markers).map(([name, value]) => `${name}=${value}`);
  return pids.flatMap((p) => {
    try {
      const env = new Set(readFileSync(`/proc/${p}/environ`, 'latin1').split('\0'));
      return wanted.every((m) => env.has(m)) ? [Number(p)] : [];
    } catch {
      return [];
    }
  });
}
