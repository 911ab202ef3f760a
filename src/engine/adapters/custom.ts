/**
 * Any command (`agents: { mine: { command: [...] } }`): {placeholder}s in its arguments are
 * replaced by the invocation's values; the same values are in its environment (AGENTBOARD_*).
 */
import type { Adapter } from './types.js';

export const PLACEHOLDERS = ['prompt_file', 'prompt', 'mcp_config', 'agent_id', 'role', 'phase', 'change_id', 'task_id', 'root', 'workdir'] as const;

const PLACEHOLDER = new RegExp(`\\{(${PLACEHOLDERS.join('|')})\\}`, 'g');

export function fillPlaceholders(arg: string, values: Record<string, string>): string {
  return arg.replace(PLACEHOLDER, (_, name: string) => values[name] ?? '');
}

/** The placeholders an argument names. */
export function placeholdersIn(arg: string): string[] {
  return [...arg.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

export const custom: Adapter = ({ agent, values }) => {
  const [command, ...args] = agent.config.command!.map((a) => fillPlaceholders(a, values));
  return { command: command!, args: [...args, ...agent.config.args.map((a) => fillPlaceholders(a, values))], env: {}, files: [] };
};
