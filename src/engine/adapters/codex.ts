/**
 * Codex CLI's non-interactive `codex exec`. Every flag is checked against `codex exec --help` of
 * the versions the README names; sources: https://developers.openai.com/codex/noninteractive and
 * https://developers.openai.com/codex/config-reference.
 */
import type { Adapter } from './types.js';

/** A TOML value for `-c key=value`: JSON's string escapes are valid TOML basic strings. */
const toml = (value: string | string[]): string => (Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(', ')}]` : JSON.stringify(value));

export const codex: Adapter = ({ agent, prompt, mcpServer, workdir }) => {
  const worker = agent.role === 'worker';
  const args = [
    'exec',
    // --json: events as JSON lines; usage comes in {"type":"turn.completed","usage":{…}} (no cost).
    '--json',
    // -C: the agent's working root. --skip-git-repo-check: also run where there is no git.
    // --ephemeral: no session files; every invocation starts afresh from its prompt.
    '-C',
    workdir,
    '--skip-git-repo-check',
    '--ephemeral',
    // -s: the sandbox of the shell commands the model runs: workers write in their worktree,
    // planners and reviewers only read, and have no shell at all (both shell features off).
    '-s',
    worker ? 'workspace-write' : 'read-only',
    ...(worker ? [] : ['--disable', 'shell_tool', '--disable', 'unified_exec']),
    // exec has no -a flag: never ask for approval (there is nobody to ask), and no web search.
    '-c',
    'approval_policy="never"',
    '-c',
    'web_search="disabled"',
    // -c mcp_servers.<name>.*: this run's agentboard server, added to the user's servers; its tools
    // are approved (exec fails unapproved MCP calls) and it must start (else the run would go on without it).
    '-c',
    `mcp_servers.agentboard.command=${toml(mcpServer.command)}`,
    '-c',
    `mcp_servers.agentboard.args=${toml(mcpServer.args)}`,
    '-c',
    'mcp_servers.agentboard.default_tools_approval_mode="approve"',
    '-c',
    'mcp_servers.agentboard.required=true',
  ];
  // -m: the model.
  if (agent.config.model) args.push('-m', agent.config.model);
  // The prompt argument `-`: exec reads the prompt from stdin (up to its end, so stdin is closed
  // after it); an argument is capped at 128 KiB. A codex that cannot reach its API retries for
  // ever: the run's --timeout ends it.
  return { command: 'codex', args: [...args, ...agent.config.args, '-'], env: {}, files: [], stdin: prompt };
};
