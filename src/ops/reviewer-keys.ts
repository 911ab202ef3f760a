/** Reviewer keys: shown once when made, stored only as a SHA-256 hash, compared in constant time. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { fail } from '../errors.js';
import type { ReviewerRecord, RuntimeData } from '../domain/records.js';
import { refTo } from '../domain/refs.js';

export function newReviewKey(): string {
  return `abrk_${randomBytes(24).toString('base64url')}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The reviewer a key belongs to; refuses an unknown key without saying which part was wrong. */
export function verifyReviewKey(data: RuntimeData, key: string): ReviewerRecord {
  const presented = Buffer.from(hashKey(key), 'hex');
  let match: ReviewerRecord | null = null;
  for (const reviewer of Object.values(data.reviewers)) {
    const stored = Buffer.from(reviewer.key_hash, 'hex');
    // Every stored hash is compared, so the time taken does not tell which reviewer was close.
    if (stored.length === presented.length && timingSafeEqual(stored, presented)) match = reviewer;
  }
  if (!match) {
    fail('REVIEW_KEY_INVALID', 'This review key is not valid on this board.', `Use the key a person gave you when they ran \`agentboard reviewer add\`; without one, submitted documents cannot be changed. Look for other work with ${refTo(['task.next', 'document.list'], { awaiting: 'review' })}.`);
  }
  return match;
}
