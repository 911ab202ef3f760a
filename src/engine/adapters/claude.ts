/**
 * Claude Code in print mode. Every flag is in `claude --help` of 2.1.197, 2.1.330 and 2.1.331
 * (the versions the README names); sources: https://code.claude.com/docs/en/cli-reference,
 * https://code.claude.com/docs/en/headless and https://code.claude.com/docs/en/permission-modes.
 */
import type { Adapter } from './types.js';

export const claude: Adapter = ({ agent, prompt, mcpConfigFile }) => {
  const worker = agent.role === 'worker';
  const args = [
    // -p/--print: answer the prompt and exit; without a prompt argument, the prompt is read from stdin.
    '-p',
    // stream-json: one JSON event per line, ending with {"type":"result",…,"total_cost_usd","usage"};
    // in print mode it needs --verbose (without it claude exits 1).
    '--output-format',
    'stream-json',
    '--verbose',
    // --mcp-config <file>: this run's agentboard server; --strict-mcp-config ignores every other
    // MCP server of the user and the project.
    '--mcp-config',
    mcpConfigFile,
    '--strict-mcp-config',
  ];
  // --model: an alias (sonnet, opus) or a full model name.
  if (agent.config.model) args.push('--model', agent.config.model);
  if (worker) {
    // --tools: the built-in tools offered. --permission-mode acceptEdits: edits in the working
    // directory run without asking; anything else not allowed below is denied (nobody is asked in print mode).
    args.push('--tools', 'Read,Edit,Write,Glob,Grep,Bash', '--permission-mode', 'acceptEdits');
    // --allowedTools: the agentboard server's tools (mcp__<server> is the whole server), and the tests.
    args.push('--allowedTools', 'mcp__agentboard', 'Bash(npm test *)');
  } else {
    // Planners and reviewers work through agentboard only: --tools "" offers no built-in tool;
    // dontAsk denies every call that is not allowed, whatever the user's default mode is.
    args.push('--tools', '', '--permission-mode', 'dontAsk', '--allowedTools', 'mcp__agentboard');
  }
  // The prompt on stdin: an argument is capped at 128 KiB, and --tools, --allowedTools and
  // --mcp-config, which take several values, would read a prompt argument as one of theirs.
  return { command: 'claude', args: [...args, ...agent.config.args], env: {}, files: [], stdin: prompt };
};
