import type { ErrorPayload } from '../errors.js';
import type { Finding } from '../domain/findings.js';
import type { InputLines } from '../ops/from-markdown.js';
import type { OpInfo } from '../ops/catalog.js';
import { CALL_LOST, FIX_FIELDS } from '../ops/input.js';
import { CURSOR_ALONE, CURSOR_OR_NEW_LIST } from '../ops/pages.js';
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

/**
 * The next steps the operations word for a tool call ("send the call again"), as the command line
 * says them: the command to run again, and its options by their flags. (Made when asked: the
 * modules the steps come from may still be loading when this one is.)
 */
const cliSteps = (): Record<string, (command: string) => string> => ({
  [FIX_FIELDS]: (command) => `Correct the options and arguments named above and run the command again (\`${command} --help\` says what each takes and what the command needs); nothing was changed.`,
  [CURSOR_ALONE]: (command) => `Run \`${command}\` again with --cursor alone (and --limit, for another page size).`,
  [CURSOR_OR_NEW_LIST]: (command) => `Run \`${command}\` again with --cursor alone to continue that list, or without --cursor to start another one.`,
  [CALL_LOST]: (command) => `See where things stand with \`agentboard status\`, then run \`${command}\` again if it is still needed.`,
});

/** An error of a command as the command line says it: an input error's fields spelled so, and a next step worded for a tool call as the command's own. */
export function spellInputError(op: Pick<OpInfo, 'cli' | 'fields'>, payload: ErrorPayload): ErrorPayload {
  const step = cliSteps()[payload.next_step];
  const next_step = step ? step(`agentboard ${op.cli.command}`) : payload.next_step;
  return { ...payload, message: payload.code === 'INVALID_INPUT' ? spellFields(op, payload.message) : payload.message, next_step };
}

/**
 * An answer or error of a command whose --from file filled a field with its text (a reviewer's
 * `correct`): the operation names that text by its field (`markdown`, `markdown:12`), the command
 * line by the file given, so that findings point at the file the person or agent can open.
 */
export function spellFromFile<T>(op: Pick<OpInfo, 'cli'>, value: T, from: string | undefined): T {
  const field = op.cli.fromText;
  if (from === undefined || field === undefined) return value;
  const file = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(file);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === 'file' && x === field ? from : file(x);
    return out;
  };
  const spelled = file(value) as T;
  const payload = spelled as Partial<ErrorPayload>;
  // A message of the markdown's problems starts with the field, and so does each problem it lists.
  if (typeof payload.message === 'string' && typeof payload.code === 'string') {
    payload.message = payload.message.replace(new RegExp(`(^|\\n  )${field}(?=:| has \\d+ problems:)`, 'g'), (_, before: string) => `${before}${from}`);
  }
  return spelled;
}

/** A field or list item an operation names at the start of a problem (`tasks[3]`, `tasks[3].title`, `--why` as spellFields gives it), then what follows its name. */
const NAMED_FIELD = /(^|Invalid input: |: |; |\n {2})((?:--)?[a-z][a-z_-]*(?:\[\d+\])?)((?:\.[a-z_]+|\[\d+\])*)(?=[: ])/g;

/**
 * An answer or error of a command whose --from file was a document read into fields (propose,
 * spec, tasks, review --from): a field or item of a list that the operation names (`tasks[3]`,
 * `tasks[3].title`) is named by the line of the file it was read from (`tasks.md:14`, `tasks.md:14:
 * title`), in the message and in each finding, which then points at that file and line.
 */
export function spellFromMarkdown<T>(value: T, lines: InputLines, from: string | undefined): T {
  if (from === undefined || Object.keys(lines).length === 0) return value;
  const spell = (text: string) =>
    text.replace(NAMED_FIELD, (whole, before: string, named: string, rest: string) => {
      const line = lines[named.startsWith('--') ? named.slice(2).replace(/-/g, '_') : named];
      return line === undefined ? whole : `${before}${from}:${line}${rest ? `: ${rest.replace(/^\./, '')}` : ''}`;
    });
  const finding = (f: Finding): Finding => {
    const named = /^([a-z][a-z_]*(?:\[\d+\])?): /.exec(f.message);
    const line = named ? lines[named[1]!] : undefined;
    return line === undefined ? f : { ...f, file: from, line, message: f.message.slice(named![0].length) };
  };
  const out = value as { message?: unknown; code?: unknown; details?: { findings?: Finding[] }; warnings?: Finding[] };
  const spelled = { ...out } as typeof out;
  if (typeof out.message === 'string' && typeof out.code === 'string') spelled.message = spell(out.message);
  if (Array.isArray(out.details?.findings)) spelled.details = { ...out.details, findings: out.details.findings.map(finding) };
  if (Array.isArray(out.warnings)) spelled.warnings = out.warnings.map(finding);
  return spelled as T;
}
