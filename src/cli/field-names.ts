import type { ErrorPayload } from '../errors.js';
import type { OpInfo } from '../ops/catalog.js';
import { FIX_FIELDS } from '../ops/input.js';
import type { CliSpec } from '../ops/registry.js';

/** The flag of an input field: its name in kebab case, unless the command names it otherwise. */
export function flagOf(op: { cli: Pick<CliSpec, 'flags'> }, fieldName: string): string {
  return op.cli.flags?.[fieldName] ?? fieldName.replace(/_/g, '-');
}

/**
 * An input error as the command line says it: the fields it names are spelled as the command's
 * flags (`--what-changes`, not `what_changes`) or arguments (`<change_id>`), the actor as `--as`.
 * Only the field names that start each problem of the message are spelled so, never other text;
 * fields that have no flag (lists of objects, given with --input or --from) keep their names.
 */
export function spellFields(op: Pick<OpInfo, 'cli' | 'fields'>, message: string): string {
  if (!message.startsWith('Invalid input: ')) return message;
  const positional = new Set((op.cli.args ?? []).map((a) => a.replace(/\?$/, '')));
  const kinds = new Map(op.fields.map((f) => [f.name, f.kind]));
  return message.replace(/(^Invalid input: |; )([a-z][a-z0-9_]*)(?=[ .[:]|$)/g, (whole, before: string, name: string) => {
    const kind = kinds.get(name);
    if (kind === undefined) return whole;
    if (positional.has(name)) return `${before}<${name}>`;
    if (name === 'agent_id') return `${before}--as`;
    return kind === 'object' ? whole : `${before}--${flagOf(op, name)}`;
  });
}

/** An input error of a command as the command line says it: its fields spelled so, and the command's help as the next step. */
export function spellInputError(op: Pick<OpInfo, 'cli' | 'fields'>, payload: ErrorPayload): ErrorPayload {
  if (payload.code !== 'INVALID_INPUT') return payload;
  const help = `\`agentboard ${op.cli.command} --help\` says what each takes and what the command needs`;
  return { ...payload, message: spellFields(op, payload.message), next_step: payload.next_step === FIX_FIELDS ? `Correct the options and arguments named above and run the command again (${help}); nothing was changed.` : payload.next_step };
}
