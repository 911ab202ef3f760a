/** A reviewer correcting a document that is not submitted hears which document, in words, and that nothing changed. */
import { describe, expect, it } from 'vitest';
import { newBoard, ok, snapshot, WHY } from '../helpers.js';
import { connect } from './helpers.js';

describe('correct_document on a task list not written yet', () => {
  it('names the task list in words, refuses, and changes nothing', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'unwritten', '--as', 'planner', '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'No additional notes.']);
    const { review_key } = await ok(dir, ['reviewer', 'add', 'rev']);
    const mcp = await connect(dir);
    try {
      const before = snapshot(dir);
      const r = await mcp.call('agentboard_correct_document', { agent_id: 'rev-1', review_key, change_id: 'unwritten', document: 'tasks', markdown: '# Tasks', notes: 'Fixing the order.' });
      expect(r.error!.code).toBe('DOCUMENT_NOT_SUBMITTED');
      expect(r.error!.message).toBe('The task list of unwritten is not written yet; only a submitted document is corrected.');
      expect(snapshot(dir)).toEqual(before);
    } finally {
      await mcp.close();
    }
  });
});
