/** Checks an operation's input against its schema and turns every problem into one clear line. */
import type * as z from 'zod';
import { fail } from '../errors.js';
import { textProblem } from '../domain/text.js';

function where(path: PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${String(part)}` : String(part);
  return out || 'input';
}

function describe(issue: z.core.$ZodIssue): string {
  const at = where(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${at === 'input' ? '' : `${at}: `}unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_type':
      return issue.input === undefined ? `${at} is required` : `${at} must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}`;
    case 'invalid_value':
      return `${at} must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string') return `${at} needs at least ${String(issue.minimum)} characters${typeof issue.input === 'string' ? ` (got ${issue.input.length})` : ''}`;
      if (issue.origin === 'array') return `${at} needs at least ${String(issue.minimum)} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return `${at} must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${at} has ${typeof issue.input === 'string' ? issue.input.length : 'too many'} characters; at most ${String(issue.maximum)} are allowed`;
      if (issue.origin === 'array') return `${at} has more than ${String(issue.maximum)} items`;
      return `${at} must be at most ${String(issue.maximum)}`;
    case 'invalid_union':
      return `${at} is not in any accepted form`;
    default:
      return `${at}: ${issue.message}`;
  }
}

export function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    fail('INVALID_INPUT', 'The input must be a JSON object.', 'Send the fields as one JSON object, like {"change_id": "add-review-tool"}.');
  }
  const unsafe = unsafeText(raw, []);
  if (unsafe) fail('INVALID_INPUT', `Invalid input: ${unsafe}.`, 'Remove the character and send the call again; nothing was changed.');
  const result = schema.safeParse(raw, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map(describe);
  const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : '';
  return fail('INVALID_INPUT', `Invalid input: ${problems.join('; ')}${more}.`, 'Correct the fields named above and send the call again; nothing was changed.');
}

/**
 * Every string of every input, whatever its schema says, is held to the text rules
 * (domain/text.ts): no control characters but tab and line ends, no bidi overrides.
 */
function unsafeText(value: unknown, path: PropertyKey[]): string | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? `${where(path)} ${problem}` : null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const inKey = Array.isArray(value) ? null : textProblem(k);
      if (inKey) return `a field name ${inKey}`;
      const found = unsafeText(v, [...path, Array.isArray(value) ? Number(k) : k]);
      if (found) return found;
    }
  }
  return null;
}
