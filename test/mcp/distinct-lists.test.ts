/**
 * A list an agent gives (the options of a question, the blockers it names, its skills, a task's
 * skills and requirements) names each item once: the same item twice is refused with the item
 * named, and nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { changeWithTasks, newBoard, snapshot } from '../helpers.js';
import { connect } from './helpers.js';

describe('lists that name the same item twice', () => {
  it('are refused by request_input, mark_blocked, register_agent, add_task and update_task, changing nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'lists', [{ id: 'T1', title: 'First' }]);
    const mcp = await connect(dir);
    try {
      await mcp.call('agentboard_update_status', { agent_id: 'lister', status: 'working', message: 'Starting.' });
      const before = snapshot(dir);
      const calls: [string, object, string][] = [
        ['agentboard_request_input', { agent_id: 'lister', question: 'Which one?', default_action: 'Yes.', options: ['Yes', 'No', ' Yes'] }, 'options names "Yes" more than once'],
        ['agentboard_mark_blocked', { agent_id: 'lister', reason: 'The API is down.', blockers: ['no token', 'no token'] }, 'blockers names "no token" more than once'],
        ['agentboard_register_agent', { agent_id: 'lister', name: 'Lister', role: 'Developer', skills: ['sql', 'sql'] }, 'skills names "sql" more than once'],
        ['agentboard_add_task', { agent_id: 'lister', change_id: 'lists', title: 'Second', skills: ['ts', 'ts'] }, 'skills names "ts" more than once'],
        ['agentboard_update_task', { agent_id: 'lister', task_id: 'lists/T1', skills: ['go', 'go'] }, 'skills names "go" more than once'],
        ['agentboard_update_task', { agent_id: 'lister', task_id: 'lists/T1', requirements: ['R1', 'R2', 'R1'] }, 'requirements names "R1" more than once'],
      ];
      for (const [tool, args, said] of calls) {
        const r = await mcp.call(tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.error!.code, tool).toBe('INVALID_INPUT');
        expect(r.error!.message, tool).toContain(said);
      }
      expect(snapshot(dir)).toEqual(before);
      const asked = await mcp.call('agentboard_request_input', { agent_id: 'lister', question: 'Which one?', default_action: 'Yes.', options: ['Yes', 'No'] });
      expect(asked.data.request.options).toEqual(['Yes', 'No']);
    } finally {
      await mcp.close();
    }
  });
});
