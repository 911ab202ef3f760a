/**
 * What marks a process as run by an agent: the variables agentboard sets for the agents it starts
 * (AGENTBOARD_AGENT_ID) and those the known agent CLIs set in the shells of their agents (observed
 * with Claude Code 2.1.330, Codex 0.169.0, Gemini CLI 0.61.0; Cursor from its documentation). A
 * person's command refuses to run where one is set; `run` strips them all from the agents it
 * starts, so that a nested agent CLI does not think it runs inside another.
 */
import { fail } from '../errors.js';
import { printable } from './text.js';

interface Marker {
  name: string;
  /** Set only in agents' shells with this value (else: any value marks an agent). */
  value?: string;
  /** Also set in people's own terminals (Cursor sets it in every terminal): stripped, not a sign of an agent. */
  alsoInPeoplesTerminals?: boolean;
}

const MARKERS: Marker[] = [
  { name: 'AGENTBOARD_AGENT_ID' },
  { name: 'CLAUDECODE' },
  { name: 'CLAUDE_CODE_ENTRYPOINT' },
  { name: 'CLAUDE_CODE_SESSION_ID' },
  { name: 'CLAUDE_CODE_CHILD_SESSION' },
  { name: 'CLAUDE_PROJECT_DIR' },
  { name: 'CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS' },
  { name: 'CLAUDE_CODE_CHILD_NOTES_DIR' },
  { name: 'CLAUDE_CODE_MESSAGING_SOCKET' },
  { name: 'CLAUDE_CODE_MESSAGING_TOKEN' },
  { name: 'AI_AGENT' },
  { name: 'CODEX_CI' },
  { name: 'CODEX_THREAD_ID' },
  { name: 'CODEX_SESSION_ID' },
  { name: 'CODEX_TOOL_CALL_ID' },
  { name: 'CODEX_VERSION' },
  { name: 'CODEX_SANDBOX' },
  { name: 'CODEX_SANDBOX_NETWORK_DISABLED' },
  { name: 'CODEX_MANAGED_BY_NPM' },
  { name: 'GEMINI_CLI' },
  { name: 'GEMINI_CLI_NO_RELAUNCH' },
  // Inherited, it would let a repository's .gemini/settings.json replace the run's MCP server.
  { name: 'GEMINI_CLI_TRUST_WORKSPACE' },
  { name: 'CURSOR_AGENT' },
  { name: 'CURSOR_EXTENSION_HOST_ROLE', value: 'agent-exec' },
  { name: 'CURSOR_TRACE_ID', alsoInPeoplesTerminals: true },
];

const NAMES = new Set(MARKERS.map((m) => m.name));

/** Whether `name` is one of the markers (to strip from the environment of an agent agentboard starts). */
export function isAgentMarker(name: string): boolean {
  return NAMES.has(name);
}

/** The first marker of an agent's environment in `env` ("NAME=value"), or null when none is set. */
export function agentMarkerIn(env: Record<string, string | undefined>): string | null {
  for (const m of MARKERS) {
    const v = env[m.name];
    if (v === undefined || v === '' || m.alsoInPeoplesTerminals) continue;
    if (m.value !== undefined && v !== m.value) continue;
    return `${m.name}=${printable(v, 40)}`;
  }
  return null;
}

/** The variable `agentboard run` names each agent it starts with. */
export const STARTED_AGENT_VARIABLE = 'AGENTBOARD_AGENT_ID';

/** The agent `agentboard run` started this process as (its commands act as that agent), or undefined. */
export function startedAgent(env: Record<string, string | undefined>): string | undefined {
  const id = env[STARTED_AGENT_VARIABLE];
  return id === undefined || id === '' ? undefined : id;
}

/** Refuses a command of the agent `started` that names another agent: an agent acts only as itself. */
export function refuseOtherAgent(started: string, as: string): never {
  return fail(
    'AGENT_MISMATCH',
    `This command runs as agent ${started} (${STARTED_AGENT_VARIABLE}, set by \`agentboard run\`); acting as ${printable(as)} is refused.`,
    `Leave out --as (the command acts as ${started}), or pass --as ${started}.`,
  );
}
