/**
 * Reads on a shared board answer from the clone's copy and say how fresh it is; --sync (on the CLI,
 * or on `agentboard mcp` for every call) fetches first.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, NODE_ARGS, ok } from '../helpers.js';
import { addClone, git, sharedBoard } from './helpers.js';

/** A task read through an agent's MCP server: the task (none when refused), the notes said beside it, and the refusal's text. */
async function mcpRead(dir: string, args: string[], taskId = 'search/T1'): Promise<{ task: any; notes: string[]; error: string | null }> {
  const client = new Client({ name: 'reader', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...NODE_ARGS, BIN, 'mcp', '--root', dir, ...args], env: childEnv(), stderr: 'ignore' }));
  try {
    const r = (await client.callTool({ name: 'agentboard_get_task', arguments: { task_id: taskId } })) as { content: { text: string }[]; structuredContent?: any; isError?: boolean };
    return { task: r.structuredContent?.task, notes: r.content.slice(1).map((c) => c.text), error: r.isError ? r.content[0]!.text : null };
  } finally {
    await client.close();
  }
}

describe('a read on a shared board', () => {
  it('answers from the local copy and says how fresh it is; --sync fetches first', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['status', '--sync']);
    await ok(a, ['next', '--as', 'claude']);

    const stale = await cli(b, ['task', 'show', 'search/T1', '--json']);
    expect(stale.json.data.task.status).toBe('todo');
    expect(stale.json.notices).toEqual([expect.stringMatching(/^Read from this clone's copy of the shared board \(remote "origin"\), last synced \d+ s ago; --sync fetches first\.$/)]);
    const text = await cli(b, ['task', 'show', 'search/T1']);
    expect(text.stderr).toMatch(/note: Read from this clone's copy/);

    const viaMcp = await mcpRead(b, []);
    expect(viaMcp.task.status).toBe('todo');
    // An agent cannot pass --sync: it is told what its server does instead.
    expect(viaMcp.notes.join(' ')).toMatch(/Read from this clone's copy of the shared board \(remote "origin"\), last synced \d+ s ago; this MCP server was started without --sync, so its reads do not fetch first/);
    const synced = await mcpRead(b, ['--sync']);
    expect(synced.task).toMatchObject({ status: 'in_progress', assignee: 'claude' });
    expect(synced.notes.join(' ')).toMatch(/Read from this clone's copy of the shared board \(remote "origin"\), last synced \d+ s ago\.$/);

    const fresh = await cli(b, ['task', 'show', 'search/T1', '--sync', '--json']);
    expect(fresh.json.data.task).toMatchObject({ status: 'in_progress', assignee: 'claude' });
    expect(fresh.json.notices.join(' ')).not.toContain('--sync');
  });

  it('that finds nothing in a copy it did not fetch says how fresh the copy is and fetches first, never suggesting to make what the shared board may hold', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'notes', [{ title: 'One' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['propose', 'later', '--as', 'planner', '--why', 'Because a board shared by many clones needs a later change too.', '--what-changes', 'More.', '--impact', 'Some.', '--notes', 'No additional notes.']);
    await ok(b, ['status', '--sync']);
    await ok(a, ['task', 'add', 'notes', '--title', 'Two', '--as', 'planner']);
    await ok(a, ['spec', 'later', '--as', 'planner', '--from', join(a, 'notes-spec.md'), '--notes', 'No additional notes.']);

    // A clone that never synced: the change is on the shared board, not in its copy yet.
    const fresh = addClone(shared);
    const missing = await cli(fresh, ['task', 'list', '--change', 'notes', '--json']);
    expect(missing.json.error).toMatchObject({ code: 'CHANGE_NOT_FOUND', message: 'There is no change "notes" on this board. Read from this clone\'s copy of the shared board (remote "origin"), never synced yet; --sync fetches first.' });
    expect(missing.json.error.next_step).toBe('The shared board may hold it: fetch it first with `agentboard remote sync`, then try `agentboard task list --change notes` again.');
    // A clone that synced before another wrote: a task, a document it does not have yet.
    for (const [args, code] of [[['task', 'show', 'notes/T2'], 'TASK_NOT_FOUND'], [['show', 'later', 'spec'], 'DOCUMENT_NOT_FOUND']] as const) {
      const stale = await cli(b, [...args, '--json']);
      expect(stale.json.error.code).toBe(code);
      expect(stale.json.error.message).toMatch(/ Read from this clone's copy of the shared board \(remote "origin"\), last synced \d+ s ago; --sync fetches first\.$/);
      expect(stale.json.error.next_step).toContain('fetch it first with `agentboard remote sync`');
    }
    // An agent is told the same; it cannot pass --sync, and is told what its server does instead.
    expect((await mcpRead(b, [], 'notes/T2')).error).toMatch(/TASK_NOT_FOUND[\s\S]*this MCP server was started without --sync[\s\S]*fetch it first with `agentboard remote sync` \(a person's command\), then try agentboard_get_task again/);

    // Fetched, the shared board answers for itself: what it holds is there, and what it does not hold is told as ever.
    expect((await ok(fresh, ['task', 'list', '--change', 'notes', '--sync'])).tasks).toHaveLength(2);
    expect((await ok(b, ['task', 'show', 'notes/T2', '--sync'])).task.title).toBe('Two');
    const absent = await cli(fresh, ['task', 'list', '--change', 'nope', '--sync', '--json']);
    expect(absent.json.error).toMatchObject({ code: 'CHANGE_NOT_FOUND', message: 'There is no change "nope" on this board.' });
    expect(absent.json.error.next_step).toContain('create this one with `agentboard new nope`');
  });

  it('with --sync and no remote answers from the local copy and says so, never showing a credential', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }]));
    const a = shared.clones[0]!;
    git(a, ['remote', 'set-url', 'origin', 'https://someone:s3cret-token@127.0.0.1:9/board.git']);
    const r = await cli(a, ['task', 'list', '--sync', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.data.tasks).toHaveLength(1);
    expect(r.json.notices.join(' ')).toMatch(/Could not sync with "origin": The shared board's remote "origin" could not be reached/);
    // The copy read is not said to be fresh: the sync was tried and failed.
    expect(r.json.notices).toContain('Read from this clone\'s copy of the shared board (remote "origin"), as this clone last synced it: it could not be synced now.');
    expect(r.json.notices.join(' ')).not.toMatch(/last synced \d+ s ago/);
    const write = await cli(a, ['next', '--as', 'claude', '--json']);
    expect(write.json.error.code).toBe('REMOTE_UNREACHABLE');
    const status = await ok(a, ['remote', 'status']);
    expect(status).toMatchObject({ shared: true, remote: 'origin', url: 'https://127.0.0.1:9/board.git', ref: 'refs/agentboard/board', waiting: [], refused: [], interrupted_push: null });
    expect(status.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(JSON.stringify([r.json, write.json, status])).not.toContain('s3cret');
  });
});
