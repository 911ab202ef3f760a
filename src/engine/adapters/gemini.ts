/**
 * Gemini CLI in headless mode. Every flag is checked against `gemini --help` of the versions the
 * README names; sources: https://geminicli.com/docs/cli/headless and
 * https://geminicli.com/docs/reference/policy-engine.
 */
import type { Adapter } from './types.js';

// The policy engine decides which tools run: in headless mode anything that would ask is denied.
// Rule 1 denies every tool, rule 2 (higher priority) allows every tool of the agentboard server.
// mcpName goes with toolName = "*": a rule with mcpName alone makes the CLI drop the whole file.
const AGENTBOARD_ONLY = `[[rule]]
toolName = "*"
decision = "deny"
priority = 100

[[rule]]
mcpName = "agentboard"
toolName = "*"
decision = "allow"
priority = 200
`;

// Workers keep the built-in tools (edits are approved by --approval-mode auto_edit) and may run the tests.
const WORKER = `[[rule]]
mcpName = "agentboard"
toolName = "*"
decision = "allow"
priority = 200

[[rule]]
toolName = "run_shell_command"
commandPrefix = "npm test"
decision = "allow"
priority = 200
`;

export const gemini: Adapter = ({ agent, prompt, mcpServer, filesBase }) => {
  const worker = agent.role === 'worker';
  const settings = `${filesBase}.gemini-settings.json`;
  const policy = `${filesBase}.gemini-policy.toml`;
  const args = [
    // -p: headless, with this prompt. -o stream-json: JSON events ending with
    // {"type":"result","stats":{"input_tokens",…}} (no cost).
    '-p',
    prompt,
    '-o',
    'stream-json',
  ];
  // -m: the model (the default, auto, routes between models).
  if (agent.config.model) args.push('-m', agent.config.model);
  args.push(
    // --skip-trust: a stdio MCP server needs a trusted folder (else exit 55).
    '--skip-trust',
    // Only our server, of every server the settings scopes merge.
    '--allowed-mcp-server-names',
    'agentboard',
    '--policy',
    policy,
  );
  // auto_edit: file edits are approved without asking.
  if (worker) args.push('--approval-mode', 'auto_edit');
  return {
    command: 'gemini',
    args: [...args, ...agent.config.args],
    // Gemini has no MCP flag: the server comes from a settings file named by this variable (the
    // system scope; the file is ignored when it or a folder above it is writable by others).
    env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: settings },
    files: [
      { path: settings, content: `${JSON.stringify({ mcpServers: { agentboard: mcpServer } }, null, 2)}\n` },
      { path: policy, content: worker ? WORKER : AGENTBOARD_ONLY },
    ],
  };
};
