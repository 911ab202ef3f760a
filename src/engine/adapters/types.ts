/** What an adapter is given to start one agent invocation, and what it returns: a command line. */
import type { AgentInstance } from '../settings.js';

export interface LaunchRequest {
  agent: AgentInstance;
  prompt: string;
  /** Absolute paths of the invocation's files (see store/runs.ts invocationPaths). */
  promptFile: string;
  mcpConfigFile: string;
  /** How to start this board's MCP server for the agent: an absolute command and its arguments. */
  mcpServer: { command: string; args: string[] };
  /** Where an adapter may put files of its own for this invocation: `${filesBase}.<name>`. */
  filesBase: string;
  workdir: string;
  /** The values of the custom-agent placeholders: {prompt_file}, {agent_id}, … (keys without braces). */
  values: Record<string, string>;
}

export interface Launch {
  command: string;
  args: string[];
  /** Added to the agent's environment (after the AGENTBOARD_* contract). */
  env: Record<string, string>;
  /** Files the adapter needs written before the agent starts. */
  files: { path: string; content: string }[];
  /**
   * Written to the agent's stdin, which then closes: the prompt, for a CLI that reads it there (an
   * argument is capped at 128 KiB on Linux). Without it, stdin is closed from the start.
   */
  stdin?: string;
}

export type Adapter = (request: LaunchRequest) => Launch;
