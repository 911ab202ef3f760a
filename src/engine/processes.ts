/**
 * Agents run in a process group of their own (execa's `detached`), so that an agent and every
 * process it started (its MCP server, the shell commands it ran) end together: on a timeout, on
 * Ctrl-C, and when the agent itself exits and leaves something behind.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/**
 * The processes still running for `runId`: every process whose environment names the run (agents
 * and what they started inherit AGENTBOARD_RUN_ID). Read from /proc, so a reused pid is never
 * mistaken for an agent; where there is no /proc the list is empty and nothing is killed.
 */
export function processesOfRun(runId: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  const marker = `AGENTBOARD_RUN_ID=${runId}`;
  return pids.flatMap((p) => {
    try {
      return readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').includes(marker) ? [Number(p)] : [];
    } catch {
      return [];
    }
  });
}
