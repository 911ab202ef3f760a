/**
 * `agentboard mcp` runs for as long as its agent does, and keeps what it parsed between calls. It
 * must still see every change anyone else makes between two calls: another process's write, and a
 * person's save that keeps the file's size and mtime (the save in place within one tick of the file
 * system's clock that identity alone cannot tell).
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, cliProcess, newBoard, read, tempDir, write } from '../helpers.js';

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function server(dir: string) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir], env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') }, stderr: 'pipe' });
  const client = new Client({ name: 'long-lived', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return async (tool: string, args: object) => {
    const r = (await client.callTool({ name: tool, arguments: args as Record<string, unknown> })) as any;
    if (r.isError) throw new Error(r.content[0].text);
    return r.structuredContent;
  };
}

/** Rewrites a file in place with text of the same length, then puts its mtime back to the nanosecond: inode, size and mtime say nothing changed. */
function saveSameSizeSameMtime(dir: string, file: string, edit: (text: string) => string): void {
  const path = join(dir, file);
  const stamp = join(dir, 'mtime-of-before');
  const before = statSync(path, { bigint: true });
  expect(spawnSync('touch', ['-r', path, stamp]).status).toBe(0);
  const text = read(dir, file);
  const edited = edit(text);
  expect(edited).not.toBe(text);
  expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(text));
  write(dir, file, edited);
  expect(spawnSync('touch', ['-r', stamp, path]).status).toBe(0);
  const after = statSync(path, { bigint: true });
  expect([after.ino, after.size, after.mtimeNs]).toEqual([before.ino, before.size, before.mtimeNs]);
}

describe('a long-lived MCP server', () => {
  it("sees another process's write and a person's same-size same-mtime save made between two of its calls", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'seen', [{ title: 'Alpha', priority: 'urgent' }, { title: 'Bravo', priority: 'high' }, { title: 'Charlie' }]);
    const call = await server(dir);
    const tasks = 'agentd/changes/seen/tasks.md';

    // The server reads the board (and keeps what it parsed).
    expect((await call('agentboard_get_task', { task_id: 'seen/T2' })).task.title).toBe('Bravo');
    expect((await call('agentboard_list_tasks', { change_id: 'seen' })).tasks.map((t: any) => t.status)).toEqual(['todo', 'todo', 'todo']);

    // Another process claims the urgent task: the server must not hand it out again.
    const other = cliProcess(dir, ['next', '--as', 'other-agent', '--json']);
    expect(other.json.data.task.task_id).toBe('seen/T1');
    expect((await call('agentboard_get_task', { task_id: 'seen/T1' })).task.assignee).toBe('other-agent');

    // A person renames T2 in place, keeping size and mtime: reads show it.
    saveSameSizeSameMtime(dir, tasks, (t) => t.replace('## T2: Bravo', '## T2: Delta'));
    expect((await call('agentboard_get_task', { task_id: 'seen/T2' })).task.title).toBe('Delta');

    // The person renames T2 again and types it done the same way: the server's next claim reads
    // that save (the new title), and takes T2 all the same, since a done typed by hand decides nothing.
    saveSameSizeSameMtime(dir, tasks, (t) => t.replace(/## T2: Delta(\n\n```yaml\nstatus: )todo/, '## T2: Omega$1done'));
    const next = await call('agentboard_get_next_task', { agent_id: 'mcp-agent' });
    expect(next.status).toBe('assigned');
    expect([next.task.task_id, next.task.title]).toEqual(['seen/T2', 'Omega']);

    // On disk: T1 is the other agent's, the person's title for T2 is kept, and T2 is the server's.
    const list = cliProcess(dir, ['task', 'list', '--change', 'seen', '--json']).json.data.tasks;
    expect(list.map((t: any) => [t.id, t.title, t.status, t.assignee])).toEqual([
      ['T1', 'Alpha', 'in_progress', 'other-agent'],
      ['T2', 'Omega', 'in_progress', 'mcp-agent'],
      ['T3', 'Charlie', 'todo', null],
    ]);
  });
});
