/**
 * People's keys: how a person who is not at a terminal (a script, CI) shows that a person is behind
 * a command. A key is made by `agentboard person key` at a terminal, shown once, and recorded as
 * its SHA-256 with the person's name in agentd/people.yaml, a committed file: adding a person is a
 * change reviewed in git, and a fresh clone in CI can check the key. Scripts pass the key in
 * AGENTBOARD_PERSON_KEY; agentboard never hands it to an agent it starts.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const PERSON_KEY_VARIABLE = 'AGENTBOARD_PERSON_KEY';

export interface PersonRecord {
  /** human:<name>, as it is recorded as the actor. */
  name: string;
  key_sha256: string;
  added: string;
}

export function newPersonKey(): string {
  return `abpk_${randomBytes(24).toString('base64url')}`;
}

export function personKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The person a key belongs to, or null. Every recorded hash is compared, in constant time. */
export function personOfKey(people: PersonRecord[], key: string): PersonRecord | null {
  const presented = Buffer.from(personKeyHash(key), 'hex');
  let match: PersonRecord | null = null;
  for (const p of people) {
    const stored = Buffer.from(p.key_sha256, 'hex');
    if (stored.length === presented.length && timingSafeEqual(stored, presented)) match = p;
  }
  return match;
}
