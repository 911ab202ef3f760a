/** agentd/config.yaml: project settings, every key optional, checked on read. */
import * as z from 'zod';
import { fail } from '../errors.js';
import { LIMITS } from '../domain/limits.js';
import { readTextFile } from './fs.js';
import { lineOfKey, parseYaml, YamlError } from './yaml-lite.js';

export const APPROVABLE_PHASES = ['proposal', 'spec', 'tasks'] as const;

const ConfigSchema = z.strictObject({
  project: z.string().min(1).max(100).optional(),
  require_approval: z.array(z.enum(APPROVABLE_PHASES)).default([]),
  stale_claim_minutes: z.number().int().min(1).max(525600).default(120),
  input_timeout_minutes: z.number().int().min(1).max(LIMITS.inputTimeoutMax).default(LIMITS.inputTimeoutDefault),
});

export type Config = z.infer<typeof ConfigSchema>;

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
`;

export function loadConfig(path: string, shownAs: string): Config {
  const text = readTextFile(path, shownAs);
  if (text === null) return ConfigSchema.parse({});
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    if (err instanceof YamlError) fail('CONFIG_INVALID', `${shownAs}:${err.line}: ${err.message}`, `Fix the YAML in ${shownAs}.`);
    throw err;
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    const line = key ? lineOfKey(text, key) : undefined;
    const where = line ? `${shownAs}:${line}` : shownAs;
    const what = issue.code === 'unrecognized_keys' ? `unknown setting ${issue.keys.map((k) => `"${k}"`).join(', ')}` : `"${key}": ${issue.message}`;
    fail('CONFIG_INVALID', `${where}: ${what}.`, `Fix ${shownAs}; the settings are require_approval, stale_claim_minutes, input_timeout_minutes and project.`);
  }
  return parsed.data;
}
