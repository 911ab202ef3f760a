/** Reviewer keys: shown once when made, stored only as a SHA-256 hash, compared in constant time. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { fail } from '../errors.js';
import type { ReviewerRecord, RuntimeData } from '../domain/records.js';
import { refTo } from '../domain/refs.js';
import { findRun, RUN_ID_PATTERN, runState } from '../store/runs.js';

export function newReviewKey(): string {
  return `abrk_${randomBytes(24).toString('base64url')}`;
}

/** The name of the key `agentboard run` makes for its reviewer: it holds for that run only. */
export function reviewKeyName(reviewerId: string, runId: string): string {
  return `${reviewerId}-run-${runId}`;
}

/**
 * Refuses the key a run made for its reviewer once that run is over (ended, or its process gone):
 * an agent that kept it cannot act as a reviewer after the run, before any other run revokes it.
 */
export function refuseKeyOfRunOver(runtimeDir: string, reviewer: ReviewerRecord): void {
  const runId = reviewer.name.slice(reviewer.name.lastIndexOf('-run-') + '-run-'.length);
  if (!reviewer.name.includes('-run-') || !RUN_ID_PATTERN.test(runId)) return;
  const run = findRun(runtimeDir, runId);
  if (run && runState(run) !== 'running') {
    fail('REVIEW_KEY_INVALID', `This review key was made for run ${runId}, which is over; it is no longer valid.`, `Only the reviewer of a running run uses its key. Look for other work with ${refTo(['task.next', 'document.list'], { awaiting: 'review' })}.`);
  }
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
