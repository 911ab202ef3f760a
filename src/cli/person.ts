/**
 * The person at the command line. Every command that acts for a person (the human-only
 * operations, and `run`) learns who that is here, and only here: the rules for being a person
 * (agent-environment markers, person keys) replace this one function.
 */
import { fail } from '../errors.js';
import { requireHuman } from '../ops/registry.js';

let cachedHuman: string | null = null;

/** human:<git user.name, else $USER>. */
export function defaultHuman(): string {
  if (cachedHuman) return cachedHuman;
  let name = '';
  try {
    // Loaded here: only writes without --as need it, and child_process costs every command time to load.
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    name = execFileSync('git', ['config', 'user.name'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).trim();
  } catch {
    // no git, or no user.name
  }
  name ||= process.env.USER ?? process.env.USERNAME ?? '';
  if (!name) fail('ACTOR_REQUIRED', 'No actor: git has no user.name and $USER is not set.', 'Pass --as human:<your name> (or --as <agent-id> for an agent).');
  cachedHuman = `human:${name}`;
  return cachedHuman;
}

/** The person a command acts for: --as when given (it must name a person), else the default. */
export function currentPerson(as: string | undefined, what: string): string {
  const person = as ?? defaultHuman();
  requireHuman(person, what);
  return person;
}
