/**
 * Hand edits are first-class: a person saving stale buffers and half-finished files while agents
 * claim, note and progress loses no agent write, hands no task out twice, and keeps every one of
 * the person's own edits.
 */
import { describe, expect, it } from 'vitest';
import { handEditRace } from './hand-edit-race.js';

describe('a person saving stale and half-finished buffers while agents work', () => {
  it('loses no agent write, hands no task out twice, and keeps every edit of the person', async () => {
    const { merges } = await handEditRace({ tasks: 12, agents: 4, agentRounds: 3, notesPerTask: 4, personRounds: 16 });
    // the person's saves really landed between the agents' writes and were merged
    expect(merges).toBeGreaterThan(0);
  });
});
