/**
 * How an agent reads a reference in agentboard's messages (domain/refs.ts): the first of its
 * alternatives that the agent's profile serves, as the tool to call with the arguments known; an
 * operation no tool of the profile serves is named as the command a person (or the agent's own
 * shell) runs, with the agent's id (`caller`), never as a tool the agent does not have. The call
 * being answered (SAME_CALL) is the tool that was called, `calling`.
 */
import { refsIn, resolveRefs, type Ref } from '../domain/refs.js';
import { and, commandLine } from '../cli/refs.js';
import { spelledOf } from '../ops/catalog.js';
import { findOperation } from '../ops/index.js';
import type { Operation } from '../ops/registry.js';

export function toolSpeller(served: readonly Operation[], calling?: Operation, caller?: string, withCaller = false): (r: Ref) => string {
  const names = new Set(served.map((op) => op.name));
  return (r) => {
    // The call being answered (SAME_CALL): the tool that was called.
    if (r.ops.length === 0) return calling?.tool ? calling.tool.name : 'it';
    const name = r.ops.find((n) => names.has(n));
    const args = Object.fromEntries(Object.entries(r.args).filter(([k]) => k !== 'agent_id'));
    if (name) {
      const op = findOperation(name)!;
      // A server not bound to an agent (no --as) takes agent_id on every call: the call named is the caller's, whole.
      const own = withCaller && caller !== undefined && 'agent_id' in op.input.shape ? { agent_id: caller } : {};
      const given = { ...own, ...Object.fromEntries(Object.entries(args).filter(([k]) => k in op.input.shape)) };
      if (Object.keys(given).length === 0) return op.tool!.name;
      // A call with its arguments is one to make as it is: the fields it still needs are named, as the command line's are ("giving --message").
      const lacking = spelledOf(op).fields.filter((f) => f.required && f.name !== 'agent_id' && !(f.name in given)).map((f) => f.name);
      return `${op.tool!.name} ${JSON.stringify(given)}${lacking.length > 0 ? ` giving ${and(lacking)}` : ''}`;
    }
    const op = findOperation(r.ops[0]!);
    if (!op) return r.ops[0]!;
    // An agent's command names the agent (--as): run without it, it would act as a person.
    const as = typeof r.args.agent_id === 'string' ? r.args.agent_id : (caller ?? '');
    return `${commandLine(spelledOf(op), args, as)} (${op.access === 'human' ? "a person's command" : 'on the command line'})`;
  };
}

/**
 * The sentences of a text, each with the space after it; a reference is never cut, whatever its
 * arguments hold.
 */
function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inRef = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\uFDD0') inRef = true;
    else if (c === '\uFDD1') inRef = false;
    else if (!inRef && (c === '.' || c === '!' || c === '?') && /\s/.test(text[i + 1] ?? '')) {
      let end = i + 1;
      while (end < text.length && /\s/.test(text[end]!)) end++;
      out.push(text.slice(start, end));
      start = end;
      i = end - 1;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * Guidance (a tool's description, the server's instructions) for a reader of the profile that
 * serves `served`: a sentence that points to an agent operation the profile does not serve is left
 * out, since the reader cannot follow it; the rest is spelled for that reader. A person's
 * operation stays, named as the person's command.
 */
export function fitGuidance(text: string, served: readonly Operation[]): string {
  const names = new Set(served.map((op) => op.name));
  const followable = (r: Ref) => r.ops.length === 0 || r.ops.some((n) => names.has(n)) || findOperation(r.ops[0]!)?.access === 'human';
  const spell = toolSpeller(served);
  return sentences(text)
    .filter((s) => refsIn(s).every(followable))
    .map((s) => resolveRefs(s, spell))
    .join('')
    .trim();
}
