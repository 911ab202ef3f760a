/**
 * `agentboard mcp --as <agent_id>`: the server a run starts for one agent acts for that agent only,
 * and records every call for the run. And the board's rule that a change is reviewed by someone
 * who did not make it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, cli, newBoard, ok, tempDir, WHY, write } from '../helpers.js';

async function boundAgent(dir: string, args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, ...args], env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-'), ...env }, stderr: 'ignore' });
  const client = new Client({ name: 'bound', version: '1.0.0' });
  await client.connect(transport);
  const call = async (tool: string, args: object) => {
    const r = (await client.callTool({ name: tool, arguments: args as Record<string, unknown> })) as any;
    return r.isError ? { error: JSON.parse(r.content[0].text).error } : r.structuredContent;
  };
  return { client, call };
}

describe('agentboard mcp --as', () => {
  it('acts as the bound agent when agent_id is left out, refuses another one, and records each call for the run', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bound', [{ title: 'First' }, { title: 'Second' }]);
    const runDir = join(dir, 'agentd/.runtime/runs/20261122-080000000-abcd');
    mkdirSync(runDir, { recursive: true });
    const { client, call } = await boundAgent(dir, ['--as', 'codex-w1', '--profile', 'worker', '--run', '20261122-080000000-abcd', '--invocation', '7']);
    try {
      const { tools } = await client.listTools();
      const next = tools.find((t) => t.name === 'agentboard_get_next_task')!;
      expect(next.inputSchema.required ?? []).not.toContain('agent_id');

      const claimed = await call('agentboard_get_next_task', {});
      expect(claimed).toMatchObject({ status: 'assigned', task: { assignee: 'codex-w1' } });
      const other = await call('agentboard_report_progress', { agent_id: 'claude-w2', task_id: claimed.task.task_id, percent: 10, message: 'Started' });
      expect(other.error).toEqual({
        code: 'AGENT_MISMATCH',
        message: 'This MCP server acts for agent "codex-w1"; a call as "claude-w2" is refused.',
        next_step: 'Call again with agent_id "codex-w1", or leave agent_id out.',
      });
      const same = await call('agentboard_report_progress', { agent_id: 'codex-w1', task_id: claimed.task.task_id, percent: 50, message: 'Half way' });
      expect(same.task.progress).toBe(50);
      // null, as models told that every field is required send for one they leave out, is the bound agent too.
      expect((await call('agentboard_report_progress', { agent_id: null, task_id: claimed.task.task_id, percent: 60, message: 'More' })).task.progress).toBe(60);
      // Reading another agent's state is not acting as it.
      expect((await call('agentboard_get_workflow_state', { agent_id: 'someone-else' })).error).toBeUndefined();
    } finally {
      await client.close();
    }
    const calls = readFileSync(join(runDir, '007.calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls.map((c) => [c.tool, c.ok, c.code ?? null])).toEqual([
      ['agentboard_get_next_task', true, null],
      ['agentboard_report_progress', false, 'AGENT_MISMATCH'],
      ['agentboard_report_progress', true, null],
      ['agentboard_report_progress', true, null],
      ['agentboard_get_workflow_state', true, null],
    ]);
    expect(calls[2]).toMatchObject({ task_id: 'bound/T1', percent: 50, message: 'Half way' });
    // The board shows the bound agent as the one who worked.
    expect((await ok(dir, ['task', 'show', 'bound/T1'])).task).toMatchObject({ assignee: 'codex-w1', progress: 60 });
  });

  it('keeps a key an agent puts in a call out of the run\'s record of its calls, where "***" stands for it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bound', [{ title: 'First' }]);
    const runDir = join(dir, 'agentd/.runtime/runs/20261122-080000000-abcd');
    mkdirSync(runDir, { recursive: true });
    const reviewKey = `abrk_${'x'.repeat(20)}-_${'Y9'.repeat(5)}`;
    const personKey = `abpk_${'k'.repeat(32)}`;
    const { client, call } = await boundAgent(dir, ['--as', 'codex-w1', '--profile', 'worker', '--run', '20261122-080000000-abcd', '--invocation', '3']);
    try {
      const claimed = await call('agentboard_get_next_task', {});
      const message = `Found the key ${reviewKey} in the logs; and ${personKey}.`;
      expect((await call('agentboard_report_progress', { task_id: claimed.task.task_id, percent: 20, message })).task.progress).toBe(20);
      expect((await call('agentboard_report_progress', { agent_id: 'claude-w2', task_id: claimed.task.task_id, percent: 30, message })).error.code).toBe('AGENT_MISMATCH');
    } finally {
      await client.close();
    }
    const text = readFileSync(join(runDir, '003.calls.jsonl'), 'utf8');
    expect(text).not.toContain(reviewKey);
    expect(text).not.toContain(personKey);
    expect(text.trim().split('\n').map((l) => JSON.parse(l).message)).toEqual([undefined, 'Found the key *** in the logs; and ***.', expect.stringContaining('codex-w1')]);
  });

  it('serves the agent `agentboard run` started (AGENTBOARD_AGENT_ID) without --as, and will not serve it as another', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'started', [{ title: 'First' }]);
    const { client, call } = await boundAgent(dir, ['--profile', 'worker'], { AGENTBOARD_AGENT_ID: 'codex-w1' });
    try {
      expect((await call('agentboard_get_next_task', {})).task.assignee).toBe('codex-w1');
      expect((await call('agentboard_get_next_task', { agent_id: 'claude-w2' })).error.code).toBe('AGENT_MISMATCH');
    } finally {
      await client.close();
    }
    const other = spawnSync(process.execPath, [BIN, 'mcp', '--root', dir, '--as', 'claude-w2'], { input: '', encoding: 'utf8', env: { PATH: process.env.PATH ?? '', AGENTBOARD_AGENT_ID: 'codex-w1' } });
    expect(other.status).toBe(1);
    expect(other.stdout).toBe('');
    expect(other.stderr).toContain('This command runs as agent codex-w1 (AGENTBOARD_AGENT_ID, set by `agentboard run`); acting as claude-w2 is refused.');
  });

  it('keeps the server of a run\'s worker (--task) on its task: next gives only it, writes to another task and over a hand edit are refused', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'mine', [{ title: 'First' }, { title: 'Second' }]);
    await changeWithTasks(dir, 'theirs', [{ title: 'Other' }]);
    await ok(dir, ['next', '--as', 'codex-w1', '--change', 'mine']);
    const runId = '20261122-080000000-abcd';
    mkdirSync(join(dir, 'agentd/.runtime/runs', runId), { recursive: true });
    const { call, client } = await boundAgent(dir, ['--as', 'codex-w1', '--profile', 'worker', '--run', runId, '--invocation', '1', '--task', 'mine/T1']);
    const tasks = join(dir, 'agentd/changes/mine/tasks.md');
    try {
      expect(await call('agentboard_get_next_task', {})).toMatchObject({ status: 'resumed', task: { task_id: 'mine/T1' } });
      const other = await call('agentboard_complete_task', { task_id: 'theirs/T1', note: 'Not mine.' });
      expect(other.error).toMatchObject({ code: 'TASK_NOT_YOURS', message: 'agentboard run gave you mine/T1; theirs/T1 is not yours to change in this run, so nothing was changed.' });
      expect((await call('agentboard_report_progress', { task_id: 'mine/T2', percent: 5, message: 'Peeking' })).error.code).toBe('TASK_NOT_YOURS');
      // A hand edit of the task list: the worker's next write takes nothing of it.
      const edited = readFileSync(tasks, 'utf8').replace('status: todo', 'status: done');
      write(dir, 'agentd/changes/mine/tasks.md', edited);
      const over = await call('agentboard_complete_task', { task_id: 'mine/T1', note: 'Done.' });
      expect(over.error).toMatchObject({ code: 'HAND_EDITED', message: expect.stringContaining('agentd/changes/mine/tasks.md was changed outside agentboard') });
      expect(readFileSync(tasks, 'utf8')).toBe(edited);
      write(dir, 'agentd/changes/mine/tasks.md', edited.replace('status: done', 'status: todo'));
      expect((await call('agentboard_complete_task', { task_id: 'mine/T1', note: 'Done.' })).task.status).toBe('done');
      expect(await call('agentboard_get_next_task', {})).toMatchObject({ status: 'nothing_available', message: 'agentboard run gave you mine/T1, which is done (codex-w1); it hands you no other task, so end your turn.' });
    } finally {
      await client.close();
    }
    expect((await ok(dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([
      ['mine/T1', 'done', 'codex-w1'],
      ['mine/T2', 'todo', null],
      ['theirs/T1', 'todo', null],
    ]);
  });

  it('keys a question of a run\'s planner or reviewer by the change and phase the run started it for (--change and --phase, or its environment)', async () => {
    const dir = await newBoard();
    const runId = '20261122-080000000-abcd';
    mkdirSync(join(dir, 'agentd/.runtime/runs', runId), { recursive: true });
    const { call, client } = await boundAgent(dir, ['--as', 'fake-planner', '--profile', 'planner', '--run', runId, '--invocation', '1', '--change', 'add-search', '--phase', 'spec']);
    try {
      expect(await call('agentboard_request_input', { question: 'Should the spec cover tags?', default_action: 'Leave tags out.' })).toMatchObject({ input_id: 'input-1' });
    } finally {
      await client.close();
    }
    // The run's reviewer asking from its shell: the run's environment says where it works.
    const env = { AGENTBOARD_RUN_ID: runId, AGENTBOARD_AGENT_ID: 'fake-reviewer', AGENTBOARD_CHANGE_ID: 'add-search', AGENTBOARD_PHASE: 'review', AGENTBOARD_TASK_ID: '' };
    await ok(dir, ['ask', '--question', 'Should the review cover tags?', '--default-action', 'Leave tags out.'], { env });
    // Asked outside any run: keyed by nothing.
    await ok(dir, ['ask', '--as', 'someone', '--question', 'Tags?', '--default-action', 'Leave tags out.']);
    const inputs = JSON.parse(readFileSync(join(dir, 'agentd/.runtime/state.json'), 'utf8')).inputs;
    expect(Object.values(inputs).map((i: any) => [i.id, i.agent_id, i.change_id ?? null, i.phase ?? null, i.task_id ?? null])).toEqual([
      ['input-1', 'fake-planner', 'add-search', 'spec', null],
      ['input-2', 'fake-reviewer', 'add-search', 'review', null],
      ['input-3', 'someone', null, null, null],
    ]);
  });

  it("records a run agent's command refused before its input was read (a --from file that is no spec) with the calls it made", async () => {
    const dir = await newBoard();
    const runId = '20261122-080000000-abcd';
    const runDir = join(dir, 'agentd/.runtime/runs', runId);
    mkdirSync(runDir, { recursive: true });
    const env = { AGENTBOARD_RUN_ID: runId, AGENTBOARD_AGENT_ID: 'fake-planner', AGENTBOARD_INVOCATION: '2' };
    await ok(dir, ['propose', 'from-md', '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'n'], { env });
    const refused = await cli(dir, ['spec', 'from-md', '--from', write(dir, 'notes.md', '# Some notes\n\nNothing that reads as a spec.\n'), '--notes', 'n', '--json'], { env });
    expect(refused.code).toBe(2);
    const calls = readFileSync(join(runDir, '002.calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls.map((c) => [c.command, c.ok, c.code ?? null])).toEqual([
      ['propose', true, null],
      ['spec', false, 'INVALID_INPUT'],
    ]);
    expect(calls[1]).toMatchObject({ message: refused.json.error.message, next_step: refused.json.error.next_step, tool: 'agentboard_create_spec' });
  });

  it('refuses to start bound to a person or a bad id', async () => {
    const dir = await newBoard();
    const r = await cli(dir, ['mcp', '--as', 'human:ann'], { stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--as human:ann:');
  });
});

describe('who may review', () => {
  const review = (dir: string, as: string) => cli(dir, ['review', 'rev', '--as', as, '--verdict', 'APPROVED', '--summary', 'Fine.', '--notes', 'No additional notes.', '--json']);

  it('refuses a review by the agent that wrote the spec or the tasks, or completed a task; allow_self_review lets a one-agent setup do it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rev', [{ title: 'Only task' }], 'planner');
    await ok(dir, ['task', 'done', 'rev/T1', '--as', 'worker']);
    const byPlanner = await review(dir, 'planner');
    expect(byPlanner.code).toBe(1);
    expect(byPlanner.json.error).toMatchObject({ code: 'SELF_REVIEW', message: 'planner cannot review rev: it wrote its spec and wrote its task list.' });
    expect((await review(dir, 'worker')).json.error.message).toBe('worker cannot review rev: it completed T1.');
    expect((await review(dir, 'critic')).json.data).toMatchObject({ verdict: 'APPROVED', author: 'critic' });

    write(dir, 'agentd/config.yaml', 'review: {allow_self_review: true}\n');
    expect((await review(dir, 'worker')).json.data).toMatchObject({ round: 2, author: 'worker' });
  });
});
