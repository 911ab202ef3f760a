/** agentd/config.yaml: project settings, every key optional, checked on read. */
import * as z from 'zod';
import { fail } from '../errors.js';
import { AGENT_ID_PATTERN, readsAsPerson } from '../domain/ids.js';
import { LIMITS } from '../domain/limits.js';
import { lineOfPath, parseYaml, YamlError, yamlInteger } from './yaml-lite.js';
import { once } from '../once.js';
import { withLf } from './markdown.js';
import { printable } from '../domain/text.js';

export const APPROVABLE_PHASES = ['proposal', 'spec', 'tasks'] as const;

export const BUILT_IN_ADAPTERS = ['claude', 'codex', 'gemini'] as const;

/** A git remote's name, as `git remote` accepts it and as it can be passed to git as one argument. */
export const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The schema of config.yaml, built when a command first reads the file. */
const configSchema = once(() => {
  /** A number of minutes or rounds, written as YAML reads a whole number (`0120` too). */
  const whole = (n: z.ZodNumber) => z.preprocess(yamlInteger, n);

  /** An agent `agentboard run` can start: a built-in adapter, or any command (see the README's custom-agent contract). */
  const AgentConfig = () =>
    z
      .strictObject({
        adapter: z.enum(BUILT_IN_ADAPTERS).optional(),
        command: z.array(z.string().min(1)).min(1).optional(),
        model: z.string().min(1).max(200).optional(),
        args: z.array(z.string()).default([]),
        env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names are letters, digits and "_", not starting with a digit'), z.string()).default({}),
      })
      .refine((a) => a.adapter !== undefined || a.command !== undefined, { message: 'an agent needs either adapter (claude, codex or gemini) or command (the program to start, as a list), and this one has neither' })
      .refine((a) => a.adapter === undefined || a.command === undefined, { message: 'give an agent either adapter (claude, codex or gemini) or command, not both' });

  /** Agent names become the stem of per-role agent ids (claude-planner, codex-w2), so they follow the agent id rules. */
  const AgentName = once(() =>
    z
      .string()
      .max(48)
      .regex(AGENT_ID_PATTERN, 'agent names are lowercase letters, digits, ".", "_" and "-"')
      .refine((n) => !readsAsPerson(n), 'agent names "human" and those that start with "human-", "human." or "human_" are reserved (the agent ids made of them would read as a person\'s); name the agent after its tool, like "claude"'),
  );

  const RunConfig = () =>
    z.strictObject({
      planner: AgentName().optional(),
      reviewer: AgentName().optional(),
      workers: z.array(AgentName()).min(1).optional(),
      /** Where task worktrees live, relative to the repository root; outside its working tree. */
      worktrees: z.string().min(1).optional(),
      max_review_rounds: whole(z.number().int().min(1).max(20)).default(3),
    });

  return z.strictObject({
    project: z.string().min(1).max(100).optional(),
    /** The git remote through which the board is shared by every clone (agentboard remote enable). */
    remote: z.string().regex(REMOTE_NAME, 'a git remote name, like origin').optional(),
    require_approval: z.array(z.enum(APPROVABLE_PHASES)).default([]),
    stale_claim_minutes: whole(z.number().int().min(1).max(525600)).default(120),
    input_timeout_minutes: whole(z.number().int().min(1).max(LIMITS.inputTimeoutMax)).default(LIMITS.inputTimeoutDefault),
    // Built when a config.yaml has them (most have neither): building them costs a command a few milliseconds.
    agents: z.lazy(once(() => z.record(AgentName(), AgentConfig()))).default({}),
    run: z.lazy(once(RunConfig)).optional(),
    review: z.strictObject({ allow_self_review: z.boolean().default(false) }).default({ allow_self_review: false }),
  });
});

export type Config = z.infer<ReturnType<typeof configSchema>>;
export type AgentSettings = Config['agents'][string];
export type RunSettings = NonNullable<Config['run']>;

/** agentd/.gitignore: the runtime state stays out of git. */
export const BOARD_GITIGNORE =
  '# agentboard runtime state (agents, sessions, input requests, activity log, lock)\n.runtime/\n' +
  "# agentboard's files while it writes them (each renamed into place at once): never the board's own\n.*.tmp\n";

/** agentd/.gitignore as boards made before it ignored agentboard's files being written: init brings it up to date. */
export const OLD_BOARD_GITIGNORE = '# agentboard runtime state (agents, sessions, input requests, activity log, lock)\n.runtime/\n';

export const DEFAULT_CONFIG_TEXT = `# agentboard settings for this repository.
# Every key is optional; the values below are the defaults.

# Phases whose document a person must approve (agentboard approve <change> <doc>)
# before the next phase opens. Any of: proposal, spec, tasks.
require_approval: []

# A claimed task with no progress for this many minutes shows as stale in \`agentboard status\`.
stale_claim_minutes: 120

# Minutes an input request (agentboard ask) waits for a person before its default action applies.
# Agents may ask for less or more per request, up to 120.
input_timeout_minutes: 30

# Agents \`agentboard run\` starts, and the roles they play (see the README, "Running a change"):
# agents:
#   claude: { adapter: claude }
#   codex:  { adapter: codex, model: gpt-5-codex }
# run:
#   planner: claude
#   reviewer: codex
#   workers: [claude, codex]
`;

/** The settings of config.yaml's text (null: the file is not there). */
export function parseConfig(text: string | null, shownAs: string): Config {
  if (text === null) return configSchema().parse({});
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    if (err instanceof YamlError) fail('CONFIG_INVALID', `${shownAs}:${err.line}: ${err.message}`, `Fix the YAML in ${shownAs}.`);
    throw err;
  }
  const parsed = configSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // An unknown key is named in full and pointed at itself; any other problem at the key it is about.
    const unknown = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [];
    const path = unknown[0] ?? issue.path;
    const line = lineOfPath(text, path);
    const where = line ? `${shownAs}:${line}` : shownAs;
    const named = (p: readonly PropertyKey[]) => `"${printable(p.map(String).join('.'))}"`;
    const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : inWords(issue, valueAt(raw, path));
    const what = unknown.length > 0 ? `unknown setting ${unknown.map(named).join(', ')}` : `${named(path)}: ${message}`;
    const next = issue.code === 'invalid_key' ? `rename ${named(path)} to follow that rule` : settingsHint(path);
    fail('CONFIG_INVALID', `${where}: ${what}.`, `Fix ${shownAs}; ${next}.`);
  }
  return parsed.data;
}

/** What YAML read at `path` of `raw` (undefined: nothing there). */
export function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let at = raw;
  for (const step of path) at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[step] : undefined;
  return at;
}

/** A value of config.yaml as a person wrote it: its kind, and the value itself when short. */
function given(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map of settings';
  const shown = printable(String(value), 40);
  return typeof value === 'string' ? `the text "${shown}"` : `${typeof value === 'number' ? 'the number' : ''} ${shown}`.trim();
}

/** What a kind of value zod expects is, in a person's words. */
const EXPECTED: Record<string, string> = {
  record: 'a map of names to settings (name: { … })',
  object: 'a map of settings (key: value)',
  array: 'a list ([a, b])',
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};

const or = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? ''));

/**
 * A problem zod found, said as config.yaml's reader needs it: what the setting must be and what it
 * is. zod's own wording ("Invalid input: expected record, received string") is replaced; a message
 * the schema gives of its own (a rule of agent names) is kept.
 */
export function inWords(issue: z.core.$ZodIssue, value: unknown): string {
  if (!/^(Invalid input|Invalid option|Too small|Too big)\b/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${given(value)}`;
    case 'invalid_value':
      return `must be ${or(issue.values.map((v) => String(v)))}, not ${given(value)}`;
    case 'too_small':
    case 'too_big': {
      const n = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const bound = `${issue.code === 'too_small' ? 'at least' : 'at most'} ${n}`;
      if (issue.origin === 'array') return `must list ${bound} item${n === 1 ? '' : 's'}, not ${Array.isArray(value) ? value.length : given(value)}`;
      if (issue.origin === 'string') return `must be ${bound} character${n === 1 ? '' : 's'} long, not ${given(value)}`;
      return `must be ${bound}, not ${given(value)}`;
    }
    default:
      return issue.message;
  }
}

/** The schema a value of config.yaml must have, its default or optional marks taken off. */
function bare(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodDefault || schema instanceof z.ZodOptional || schema instanceof z.ZodLazy ? bare(schema.unwrap() as z.ZodType) : schema;
}

/** The schema of the value at `step` inside a value of this schema; undefined when there is none. */
function schemaAt(schema: z.ZodType, step: PropertyKey): z.ZodType | undefined {
  if (schema instanceof z.ZodObject) return Object.hasOwn(schema.shape, String(step)) ? (schema.shape as Record<string, z.ZodType>)[String(step)] : undefined;
  if (schema instanceof z.ZodRecord) return schema.valueType as z.ZodType;
  return schema instanceof z.ZodArray ? (schema.element as z.ZodType) : undefined;
}

/** The settings of the part of config.yaml nearest to the key at `path` that holds settings, in words. */
function settingsHint(path: readonly PropertyKey[]): string {
  let holder: { at: readonly PropertyKey[]; keys: string[] } = { at: [], keys: [] };
  let schema: z.ZodType | undefined = configSchema();
  for (let i = 0; schema !== undefined; i++) {
    const here = bare(schema);
    if (here instanceof z.ZodObject) holder = { at: path.slice(0, i), keys: Object.keys(here.shape) };
    schema = i < path.length ? schemaAt(here, path[i]!) : undefined;
  }
  const keys = holder.keys.length > 1 ? `${holder.keys.slice(0, -1).join(', ')} and ${holder.keys.at(-1)}` : holder.keys.join('');
  return `known settings${holder.at.length === 0 ? '' : ` of ${holder.at.map(String).join('.')}`}: ${keys}`;
}

const REMOTE_LINE = /^remote:.*\n?/m;
const REMOTE_COMMENT = '# This board is shared by every clone through this git remote (agentboard remote enable / disable).\n';

/**
 * config.yaml's text with `remote:` set to `remote` (null: taken out); every other line stays as it
 * is. Given and returned with LF line ends: a file saved with CRLF gets them back as it is written.
 */
export function withRemote(text: string, remote: string | null): string {
  const without = withLf(text).replace(REMOTE_COMMENT, '').replace(REMOTE_LINE, '');
  if (remote === null) return without;
  return `${without}${without === '' || without.endsWith('\n') ? '' : '\n'}${REMOTE_COMMENT}remote: ${remote}\n`;
}
