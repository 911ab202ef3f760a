/**
 * The person at the command line. Every command that acts for a person (the human-only
 * operations, and `run`) learns who that is here, and only here.
 */
import { fail } from '../errors.js';
import { requireHuman } from '../ops/registry.js';
import type { Io } from './main.js';

/** human:<git user.name of the board's repository, else $USER>. */
export function defaultHuman(io: Pick<Io, 'cwd' | 'env'>): string {
  let name = '';
  try {
    // Loaded here: only writes without --as need it, and child_process costs every command time to load.
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    name = execFileSync('git', ['config', 'user.name'], { cwd: io.cwd, env: io.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).trim();
  } catch {
    // no git, or no user.name
  }
  name ||= io.env.USER ?? io.env.USERNAME ?? '';
  if (!name) fail('ACTOR_REQUIRED', 'No actor: git has no user.name and $USER is not set.', 'Pass --as human:<your name> (or --as <agent-id> for an agent).');
  return `human:${name}`;
}

/** The person a command acts for: --as when given (it must name a person), else the default. */
export function currentPerson(as: string | undefined, what: string, io: Pick<Io, 'cwd' | 'env'>): string {
  const person = as ?? defaultHuman(io);
  requireHuman(person, what);
  return person;
}
