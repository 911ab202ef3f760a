/**
 * Gemini CLI in headless mode. Every flag is in `gemini --help` of 0.61.0 (the version the README
 * names); sources: https://geminicli.com/docs/cli/headless,
 * https://geminicli.com/docs/reference/configuration and
 * https://geminicli.com/docs/reference/policy-engine.
 */
import type { Adapter } from './types.js';

/**
 * The name of the run's server: one no project names its own. A repository's .gemini/settings.json
 * (as `agentboard init --mcp gemini` writes it) names its server `agentboard`, and a workspace's
 * settings win over the user's, where the run's server is: under the same name, the project's
 * server (no agent id, no run, no task) would be the one the agent gets. Letters only: Gemini
 * names an MCP tool `mcp_<server>_<tool>`.
 */
const GEMINI_SERVER = 'agentboardrun';

// The policy engine decides which tools run; in headless mode anything that would ask is denied.
// Rule 1 denies every tool, rule 2 (higher priority) allows every tool of the run's server.
// mcpName goes with toolName = "*": a rule without toolName makes the CLI reject the whole file.
const AGENTBOARD_ONLY = `[[rule]]
toolName = "*"
decision = "deny"
priority = 100

[[rule]]
mcpName = "${GEMINI_SERVER}"
toolName = "*"
decision = "allow"
priority = 200
`;

// Workers keep the built-in tools (edits are approved by --approval-mode auto_edit) and may run the tests.
const WORKER = `[[rule]]
mcpName = "${GEMINI_SERVER}"
toolName = "*"
decision = "allow"
priority = 200

[[rule]]
toolName = "run_shell_command"
commandPrefix = "npm test"
decision = "allow"
priority = 300
`;

/** The -p text, after the prompt that stdin holds. */
const GO = 'Do what the instructions above say.';

export const gemini: Adapter = ({ agent, prompt, mcpServer, filesBase }) => {
  const worker = agent.role === 'worker';
  // Gemini has no MCP flag. Its settings come from <GEMINI_CLI_HOME>/.gemini/settings.json: a home
  // of its own per invocation holds this run's server (the system settings file would do it
  // without moving the home, but is read only when root owns it).
  const home = `${filesBase}.gemini-home`;
  const policy = `${filesBase}.gemini-policy.toml`;
  const args = [
    // -p: headless; its text is appended to what stdin holds, the prompt (an argument is capped at
    // 128 KiB). -o stream-json: JSON events ending with {"type":"result","stats":{"input_tokens",…}} (no cost).
    '-p',
    GO,
    '-o',
    'stream-json',
  ];
  // -m: the model (without it, "auto" routes between models).
  if (agent.config.model) args.push('-m', agent.config.model);
  args.push(
    // --skip-trust: a stdio MCP server needs a trusted folder (else exit 55); the repository's
    // .gemini/settings.json is read too, and its servers are left out by the next flag.
    '--skip-trust',
    // Only our server, of every server the settings scopes merge.
    '--allowed-mcp-server-names',
    GEMINI_SERVER,
    '--policy',
    policy,
  );
  // auto_edit: file edits are approved without asking.
  if (worker) args.push('--approval-mode', 'auto_edit');
  return {
    command: 'gemini',
    args: [...args, ...agent.config.args],
    env: { GEMINI_CLI_HOME: home },
    files: [
      { path: `${home}/.gemini/settings.json`, content: `${JSON.stringify({ mcpServers: { [GEMINI_SERVER]: mcpServer } }, null, 2)}\n` },
      { path: policy, content: worker ? WORKER : AGENTBOARD_ONLY },
    ],
    stdin: prompt,
  };
};
