/**
 * How an agent reads a reference in agentboard's messages (domain/refs.ts): the first of its
 * alternatives that the agent's profile serves, as the tool to call with the arguments known; an
 * operation no tool of the profile serves is named as the command a person (or the agent's own
 * shell) runs, never as a tool the agent does not have.
 */
import type { Ref } from '../domain/refs.js';
import { commandLine } from '../cli/refs.js';
import { findOperation } from '../ops/index.js';
import type { Operation } from '../ops/registry.js';

export function toolSpeller(served: readonly Operation[]): (r: Ref) => string {
  const names = new Set(served.map((op) => op.name));
  return (r) => {
    const name = r.ops.find((n) => names.has(n));
    const args = Object.fromEntries(Object.entries(r.args).filter(([k]) => k !== 'agent_id'));
    if (name) {
      const op = findOperation(name)!;
      const given = Object.fromEntries(Object.entries(args).filter(([k]) => k in op.input.shape));
      return Object.keys(given).length > 0 ? `${op.tool!.name} ${JSON.stringify(given)}` : op.tool!.name;
    }
    const op = findOperation(r.ops[0]!);
    if (!op) return r.ops[0]!;
    return `\`${commandLine(op, args)}\` (${op.access === 'human' ? "a person's command" : 'on the command line'})`;
  };
}
