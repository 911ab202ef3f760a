import type { Operation } from '../ops/registry.js';

/** How a person reads a reference to an operation in a message: the command that runs it. */
export function cliSpelling(op: Operation): string {
  const args = (op.cli.args ?? []).map((a) => (a.endsWith('?') ? `[${a.slice(0, -1)}]` : `<${a}>`)).join(' ');
  return `\`agentboard ${op.cli.command}${args ? ` ${args}` : ''}\``;
}
