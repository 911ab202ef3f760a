/**
 * Claude Code in print mode. Every flag is checked against `claude --help` of the versions the
 * README names; sources: https://code.claude.com/docs/en/cli-reference and
 * https://code.claude.com/docs/en/headless.
 */
import type { Adapter } from './types.js';

export const claude: Adapter = ({ agent, prompt, mcpConfigFile }) => {
  const worker = agent.role === 'worker';
  const args = [
    // -p/--print: answer the prompt and exit. The prompt comes right after it, before any option
    // that takes several values (--tools, --allowedTools), which would otherwise swallow it.
    '-p',
    prompt,
    // stream-json: one JSON event per line, ending with {"type":"result",…,"total_cost_usd","usage"};
    // in print mode it needs --verbose (without it claude exits 1).
    '--output-format',
    'stream-json',
    '--verbose',
    // --mcp-config <file>: this run's agentboard server only; --strict-mcp-config ignores the
    // user's and the project's other MCP servers.
    '--mcp-config',
    mcpConfigFile,
    '--strict-mcp-config',
  ];
  // --model: an alias (sonnet, opus) or a full model name.
  if (agent.config.model) args.push('--model', agent.config.model);
  if (worker) {
    // --tools: the built-in tools offered; --permission-mode acceptEdits: file edits in the working
    // directory are approved without asking (print mode denies what nobody approves).
    args.push('--tools', 'Read,Edit,Write,Glob,Grep,Bash', '--permission-mode', 'acceptEdits');
    // --allowedTools: the agentboard server's tools, and the test command, without asking.
    args.push('--allowedTools', 'mcp__agentboard', 'Bash(npm test:*)');
  } else {
    // Planners and reviewers work through agentboard only: --tools "" offers no built-in tool.
    args.push('--tools', '', '--allowedTools', 'mcp__agentboard');
  }
  return { command: 'claude', args: [...args, ...agent.config.args], env: {}, files: [] };
};
