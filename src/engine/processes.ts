/**
 * Agents run in a process group of their own (execa's `detached`), so that an agent and every
 * process it started (its MCP server, the shell commands it ran) end together: on a timeout, on
 * Ctrl-C, and when the agent itself exits and leaves something behind.
 */
import { processesWith } from '../store/processes.js';

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
 * and what they started inherit AGENTBOARD_RUN_ID).
 */
export function processesOfRun(runId: string): number[] {
  return processesWith('AGENTBOARD_RUN_ID', runId);
}
