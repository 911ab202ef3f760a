/**
 * Agents run in a process group of their own (execa's `detached`), so that an agent and every
 * process it started (its MCP server, the shell commands it ran) end together: on a timeout, on
 * Ctrl-C, and when the agent itself exits and leaves something behind. A process that left the
 * group (`setsid`, a daemon) is still found by the environment it inherited: AGENTBOARD_RUN_ID, and
 * AGENTBOARD_INVOCATION for one invocation of the run.
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
 * The processes still running for `runId` (for one of its invocations when `invocation` is given):
 * every process whose environment names them, since agents and what they started inherit it.
 * Never this process itself (a run started by an agent of another run carries that run's marks).
 */
function processesOfRun(runId: string, invocation?: number): number[] {
  const markers: Record<string, string> = { AGENTBOARD_RUN_ID: runId };
  if (invocation !== undefined) markers.AGENTBOARD_INVOCATION = String(invocation);
  return processesWith(markers).filter((pid) => pid !== process.pid);
}

/** Signals the processes of a run (of one invocation when given): those of its agents' groups and those that left them. */
export function stopProcessesOfRun(signal: NodeJS.Signals, runId: string, invocation?: number): void {
  for (const pid of processesOfRun(runId, invocation)) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}
