/**
 * The run's secrets, kept out of everything it records and shows: each is replaced by "***". They
 * are the review key made for the run's reviewer and the person's key the run was given in its
 * environment. Any agent can read the run's records (the agents run as the same user), and a
 * reviewer that prints its prompt prints its key.
 */
import { PERSON_KEY_VARIABLE } from '../domain/people.js';
import type { RunContext } from './context.js';

export const MASK = '***';

/** A value this short is no key, and hiding it everywhere would garble what the run records. */
const SHORTEST_SECRET = 16;

/** Every secret of the run as it stands (the review key once it is made), with `extra`. */
export function runSecrets(ctx: Pick<RunContext, 'reviewKey'>, extra: readonly string[] = []): string[] {
  const personKey = process.env[PERSON_KEY_VARIABLE];
  const all = [...extra, ctx.reviewKey?.key, personKey && personKey.length >= SHORTEST_SECRET ? personKey : undefined];
  return [...new Set(all.filter((s): s is string => !!s))];
}

/** The text with every secret in it replaced by "***". */
export function mask(text: string, secrets: readonly string[]): string {
  return secrets.reduce((masked, s) => (s && masked.includes(s) ? masked.split(s).join(MASK) : masked), text);
}

/** Every string in a JSON value masked (an event, a record), its shape kept. */
export function maskDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return mask(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, secrets)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v, secrets)])) as T;
  return value;
}

/**
 * Masks output that comes in chunks, where a secret can be split across two of them: the end of
 * a chunk that could be the start of a secret is held back until the next chunk says whether it is.
 */
export class SecretMasker {
  private held = '';

  constructor(private readonly secrets: readonly string[]) {}

  /** What can be written of the output so far, masked. */
  push(chunk: string): string {
    if (this.secrets.length === 0) return chunk;
    const text = mask(this.held + chunk, this.secrets);
    const keep = startOfSecretAtEnd(text, this.secrets);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** What is still held when the output ends: the start of a secret it never finished, as printed. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

/** How long the longest end of `text` is that begins one of the secrets (without being all of it). */
function startOfSecretAtEnd(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const s of secrets) {
    for (let n = Math.min(s.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(s.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
