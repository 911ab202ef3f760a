/**
 * The environment an agent starts with: the run's own, minus what marks the shell as an agent's
 * (an agent CLI started from inside another one would otherwise think it is nested, and the
 * markers of the parent would leak into its commands), plus the AGENTBOARD_* contract.
 */
// What Claude Code, Codex, Gemini CLI and Cursor set in the shells of their agents (see the README).
// Their settings (CLAUDE_CODE_USE_BEDROCK, CODEX_HOME…) are not markers and are kept.
const AGENT_MARKERS = new Set([
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
  'CLAUDE_CODE_MESSAGING_SOCKET',
  'CLAUDE_CODE_MESSAGING_TOKEN',
  'AI_AGENT',
  'CODEX_CI',
  'CODEX_THREAD_ID',
  'CODEX_SESSION_ID',
  'CODEX_TOOL_CALL_ID',
  'CODEX_VERSION',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
  'CODEX_MANAGED_BY_NPM',
  'GEMINI_CLI',
  'GEMINI_CLI_NO_RELAUNCH',
  // Inherited, it would let a repository's .gemini/settings.json replace the run's MCP server.
  'GEMINI_CLI_TRUST_WORKSPACE',
  'CURSOR_AGENT',
  'CURSOR_TRACE_ID',
  'CURSOR_EXTENSION_HOST_ROLE',
]);

export function isAgentMarker(name: string): boolean {
  return AGENT_MARKERS.has(name);
}

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
  };
}

export function agentEnv(parent: NodeJS.ProcessEnv, ...layers: Record<string, string>[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && !isAgentMarker(k)) env[k] = v;
  for (const layer of layers) Object.assign(env, layer);
  return env;
}
