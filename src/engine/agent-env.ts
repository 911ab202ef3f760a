/**
 * The environment an agent starts with: the run's own, minus what marks the shell as an agent's
 * (an agent CLI started from inside another one would otherwise think it is nested, and the
 * markers of the parent would leak into its commands), plus the AGENTBOARD_* contract.
 */
import { isAgentMarker } from '../domain/agent-markers.js';
import { PERSON_KEY_VARIABLE } from '../domain/people.js';

export interface AgentContract {
  promptFile: string;
  mcpConfig: string;
  agentId: string;
  role: string;
  phase: string;
  changeId: string;
  taskId: string;
  root: string;
  runId: string;
  /** The agent's working directory: the task's worktree for a worker, else the root. */
  workdir: string;
  /** The number of this invocation in the run's records. */
  invocation: number;
}

/** The AGENTBOARD_* variables of the custom-agent contract (every agent gets them). */
export function contractEnv(c: AgentContract): Record<string, string> {
  return {
    AGENTBOARD_PROMPT_FILE: c.promptFile,
    AGENTBOARD_MCP_CONFIG: c.mcpConfig,
    AGENTBOARD_AGENT_ID: c.agentId,
    AGENTBOARD_ROLE: c.role,
    AGENTBOARD_PHASE: c.phase,
    AGENTBOARD_CHANGE_ID: c.changeId,
    AGENTBOARD_TASK_ID: c.taskId,
    AGENTBOARD_ROOT: c.root,
    AGENTBOARD_RUN_ID: c.runId,
    AGENTBOARD_WORKDIR: c.workdir,
    AGENTBOARD_INVOCATION: String(c.invocation),
  };
}

/** The run's environment for an agent: without agent markers, and without the person's key (an agent never acts as the person). */
export function agentEnv(parent: NodeJS.ProcessEnv, ...layers: Record<string, string>[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && !isAgentMarker(k) && k !== PERSON_KEY_VARIABLE) env[k] = v;
  for (const layer of layers) Object.assign(env, layer);
  return env;
}
