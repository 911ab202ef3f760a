/**
 * Agent ids that read as a person's: "human", and "human" followed by ".", "_" or "-". People act
 * as "human:<name>"; an agent id like these would be taken for one in every record that names it
 * (held by, done by, the log), so it is refused wherever an agent id is given, saying which ids are
 * reserved and what to use instead, and nothing is written.
 */
import { describe, expect, it } from 'vitest';
import { agentIdProblem } from '../../src/domain/ids.js';
import { changeWithTasks, cli, newBoard, ok, read, snapshot, write } from '../helpers.js';
import { connect } from '../mcp/helpers.js';

const RESERVED = ['human', 'human-alice', 'human.bob', 'human_2'];

describe('an agent id that reads as a person', () => {
  it('is no agent id; ids that only begin with the word are', () => {
    for (const id of RESERVED) {
      expect(agentIdProblem(id), id).toBe(
        `"${id}" reads as a person, so it is no agent id: "human" and the ids that start with "human-", "human." or "human_" are reserved, as people act as "human:<name>"; give the agent an id of its own (like "claude" or "codex-2"), or act as a person with "human:" and a name (like "human:alice")`,
      );
    }
    for (const id of ['humane', 'humans', 'claude', 'not-human']) expect(agentIdProblem(id), id).toBeNull();
  });

  it('is refused on the command line (--as, registering) and over MCP (agent_id, mcp --as), and nothing is written', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }]);
    const before = snapshot(dir);
    for (const id of RESERVED) {
      for (const args of [['next'], ['agent', 'register', '--name', 'Bot', '--role', 'Worker'], ['task', 'note', 'ids/T1', 'Hello.']]) {
        const r = await cli(dir, [...args, '--as', id, '--json']);
        expect(r.code, `${args.join(' ')} --as ${id}`).toBe(2);
        expect(r.json.error.code).toBe('INVALID_INPUT');
        expect(r.json.error.message).toContain(`--as: "${id}" reads as a person, so it is no agent id`);
        expect(r.json.error.message).toContain('like "human:alice"');
      }
    }
    const mcp = await connect(dir);
    try {
      const next = await mcp.call('agentboard_get_next_task', { agent_id: 'human' });
      expect(next.isError).toBe(true);
      expect(next.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('agent_id: "human" reads as a person') });
      const register = await mcp.call('agentboard_register_agent', { agent_id: 'human-ops', name: 'Ops', role: 'Worker' });
      expect(register.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('"human" and the ids that start with "human-", "human." or "human_" are reserved') });
    } finally {
      await mcp.close();
    }
    const bound = await cli(dir, ['mcp', '--as', 'human'], { stdin: '' });
    expect(bound.code).toBe(2);
    expect(bound.stderr).toContain('--as human: "human" reads as a person, so it is no agent id');
    expect(snapshot(dir)).toEqual(before);
    // an id of its own works
    expect((await ok(dir, ['next', '--as', 'humane'])).task.task_id).toBe('ids/T1');
  });

  it('is no name for an agent of agentd/config.yaml, whose ids it would begin', async () => {
    const dir = await newBoard();
    write(dir, 'agentd/config.yaml', `${read(dir, 'agentd/config.yaml')}\nagents:\n  human:\n    adapter: claude\n`);
    const r = await cli(dir, ['status', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.message).toContain('agent names "human" and those that start with "human-", "human." or "human_" are reserved');
  });
});
