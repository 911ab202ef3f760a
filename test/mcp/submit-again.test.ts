/**
 * Work submitted for review waits on a person; an agent that submits again (a retry after a lost
 * answer, say) hears that its work is already submitted, what it was, and what to do, and the
 * submission on the board stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { newBoard, snapshot } from '../helpers.js';
import { connect } from './helpers.js';

describe('submit_for_review while the work already awaits review', () => {
  it('says the work is already submitted, names it, and changes nothing', async () => {
    const dir = await newBoard();
    const mcp = await connect(dir);
    try {
      await mcp.call('agentboard_update_status', { agent_id: 'sender', status: 'working', message: 'Starting.' });
      const first = await mcp.call('agentboard_submit_for_review', { agent_id: 'sender', summary: 'Adds the board.', pr_url: 'https://example.com/pr/7' });
      expect(first.data.status).toBe('awaiting_review');
      const before = snapshot(dir);
      const again = await mcp.call('agentboard_submit_for_review', { agent_id: 'sender', summary: 'Adds the board.', pr_url: 'https://example.com/pr/7' });
      expect(again.isError).toBe(true);
      expect(again.error!.code).toBe('INVALID_TRANSITION');
      expect(again.error!.message).toContain('already submitted and awaiting review by a person (https://example.com/pr/7)');
      expect(again.error!.next_step).toContain('agentboard_get_next_task');
      expect(snapshot(dir)).toEqual(before);
    } finally {
      await mcp.close();
    }
  });
});
