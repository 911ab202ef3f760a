import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CallQueue } from '../../src/store/calls.js';
import { BoardLock } from '../../src/store/lock.js';
import { BIN, changeWithTasks, newBoard, ok, read, snapshot, tempDir } from '../helpers.js';
import { until } from './helpers.js';

const ENV = () => ({ PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') });

async function agent(dir: string, name: string) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir], env: ENV(), stderr: 'pipe' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  // Reads take no agent_id; everything else is called as this agent.
  const call = async (tool: string, args: object) => {
    const read = tool === 'agentboard_get_task';
    const r = (await client.callTool({ name: tool, arguments: (read ? args : { agent_id: name, ...args }) as Record<string, unknown> })) as any;
    return r.isError ? { error: JSON.parse(r.content[0].text).error } : r.structuredContent;
  };
  return { client, call };
}

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

describe('agentboard mcp over stdio, a whole session', () => {
  it('two agents race, review, a question answered by a person, and a third agent kept out', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'stdio', [{ title: 'First' }, { title: 'Second' }, { title: 'Third', depends: ['T1'] }]);
    const a = await agent(dir, 'agent-a');
    const b = await agent(dir, 'agent-b');
    const c = await agent(dir, 'agent-c');
    open.push(a.client, b.client, c.client);
    expect(a.client.getInstructions()).toContain('agentboard_get_next_task');

    const [na, nb] = await Promise.all([a.call('agentboard_get_next_task', {}), b.call('agentboard_get_next_task', {})]);
    expect(na.status).toBe('assigned');
    expect(nb.status).toBe('assigned');
    expect(na.task.task_id).not.toBe(nb.task.task_id);

    const submitted = await a.call('agentboard_submit_for_review', { summary: 'Implemented, tests pass', tasks: [na.task.task_id] });
    expect(submitted.status).toBe('awaiting_review');
    const waiting = await a.call('agentboard_get_next_task', {});
    expect(waiting.status).toBe('awaiting_review');
    expect(waiting.message).toContain('awaiting review by a person');

    await ok(dir, ['approve', na.task.task_id]);
    expect((await a.call('agentboard_get_task', { task_id: na.task.task_id })).task.status).toBe('done');
    const afterApproval = await a.call('agentboard_get_next_task', {});
    expect(['assigned', 'nothing_available']).toContain(afterApproval.status);

    const asked = await b.call('agentboard_request_input', { question: 'Keep the old API?', default_action: 'Keep it', options: ['Keep it', 'Drop it'] });
    await ok(dir, ['answer', asked.input_id, 'Drop it; nobody uses it']);
    const state = await b.call('agentboard_get_workflow_state', {});
    expect(state.status).toBe('working');
    expect(state.resolutions[0].resolution).toMatchObject({ type: 'human', value: 'Drop it; nobody uses it' });

    const before = await b.call('agentboard_get_task', { task_id: nb.task.task_id });
    const stolen = await c.call('agentboard_complete_task', { task_id: nb.task.task_id });
    expect(stolen.error.code).toBe('TASK_HELD');
    expect(stolen.error.message).toContain('held by agent-b');
    const noted = await c.call('agentboard_add_note', { task_id: nb.task.task_id, text: 'mine' });
    expect(noted.error.code).toBe('TASK_HELD');
    expect(await b.call('agentboard_get_task', { task_id: nb.task.task_id })).toEqual(before);
  });
});

function rawServer(dir: string, args: string[] = []) {
  const child = spawn(process.execPath, [BIN, 'mcp', '--root', dir, ...args], { env: ENV() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // A message sent once the server has stopped reading (a test of stopping) may find its stdin
  // already closed: the pipe then answers EPIPE, which is the server not reading it, as meant.
  child.stdin.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  const waitFor = async (id: number) => {
    while (!stdout.split('\n').some((l) => l && JSON.parse(l).id === id)) await new Promise((r) => setTimeout(r, 20));
  };
  /** The messages the server wrote, each line parsed. */
  const messages = (): any[] => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return { child, send, waitFor, exited, out: () => stdout, err: () => stderr, messages };
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('the stdio server process', () => {
  it('writes only JSON-RPC to stdout, and logs go to stderr', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'pure', [{ title: 'Only' }]);
    const s = rawServer(dir);
    s.send(INIT);
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'agentboard_get_next_task', arguments: { agent_id: 'pure-agent', response_format: 'markdown' } } });
    s.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'x', task_id: 'nope/T1', text: 't' } } });
    s.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'agentboard_get_project_status', arguments: {} } });
    s.send({ jsonrpc: '2.0', id: 6, method: 'no/such/method' });
    await s.waitFor(6);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    const lines = s.out().split('\n').filter(Boolean);
    expect(lines.length).toBe(6);
    for (const line of lines) {
      const msg = JSON.parse(line);
      expect(msg.jsonrpc).toBe('2.0');
      expect('result' in msg || 'error' in msg).toBe(true);
    }
    expect(s.err()).toContain('agentboard mcp');
  });

  it('writes nothing at startup, needs only PATH and HOME, and exits when stdin closes', async () => {
    const dir = await newBoard();
    const before = snapshot(dir);
    const s = rawServer(dir);
    s.send(INIT);
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await s.waitFor(2);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('started where no board is, says so on stderr, and each call tells the agent what a person does; a board made meanwhile serves at once', async () => {
    const dir = tempDir();
    const s = rawServer(dir);
    s.send(INIT);
    await s.waitFor(1);
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'agentboard_list_changes', arguments: {} } });
    await s.waitFor(2);
    expect(s.err()).toContain(`agentboard mcp: no board (an agentd/ folder) is at ${dir} or above it: every call is refused with BOARD_NOT_FOUND until a person runs \`agentboard init\` there`);
    const refused = JSON.parse(s.messages().find((m) => m.id === 2).result.content[0].text).error;
    expect(refused).toMatchObject({ code: 'BOARD_NOT_FOUND', next_step: expect.stringContaining('starts this MCP server with --root and the repository') });
    expect(refused.next_step).not.toContain('pass --root');
    await ok(dir, ['init']);
    s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'agentboard_list_changes', arguments: {} } });
    await s.waitFor(3);
    expect(s.messages().find((m) => m.id === 3).result.isError).toBeFalsy();
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
  });

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('exits on %s', async (signal) => {
    const s = rawServer(await newBoard(), ['--profile', 'worker']);
    s.send(INIT);
    await s.waitFor(1);
    s.child.kill(signal);
    expect(await s.exited).toBe(0);
  });

  it('answers a 12 MB message, a line that is not JSON and one that is not JSON-RPC with JSON-RPC errors, and keeps serving', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'big', [{ title: 'Only' }]);
    const before = snapshot(dir);
    const s = rawServer(dir);
    s.send(INIT);
    await s.waitFor(1);
    const huge = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'w1', task_id: 'big/T1', text: 'x'.repeat(12 * 1024 * 1024) } } };
    s.child.stdin.write(`${JSON.stringify(huge)}\n`);
    s.child.stdin.write('this is not json\n');
    s.send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: 'not an object' });
    s.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'agentboard_get_project_status', arguments: {} } });
    await s.waitFor(4);
    const answers = s.messages();
    expect(answers.find((a) => a.id === 2).error).toMatchObject({ code: -32600, message: expect.stringContaining('at most 8388608 bytes') });
    expect(answers.find((a) => a.id === null && a.error.code === -32700).error.message).toContain('not valid JSON');
    expect(answers.find((a) => a.id === 3).error.code).toBeLessThan(0);
    expect(answers.find((a) => a.id === 4).result.isError).toBeFalsy();
    expect(s.err()).toContain('refused a message: The message has 1258');
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('the stdio transport at its edges', () => {
  it('refuses an over-size request under its own top-level id, written last as the SDK writes it, never an id inside params', async () => {
    const dir = await newBoard();
    const before = snapshot(dir);
    const s = rawServer(dir);
    s.send(INIT);
    await s.waitFor(1);
    const tasks = Array.from({ length: 1000 }, (_, k) => ({ id: `T${k + 1}`, title: `Task ${k}`, description: 'd'.repeat(2000), files: Array.from({ length: 20 }, (_, j) => ({ path: `src/${k}/${j}${'p'.repeat(400)}`, action: 'modify' })) }));
    s.send({ method: 'tools/call', params: { name: 'agentboard_create_tasks', arguments: { agent_id: 'p', change_id: 'some-change', tasks } }, jsonrpc: '2.0', id: 8 });
    s.send({ method: 'tools/call', params: { name: 'agentboard_get_task', arguments: { task_id: 'x'.repeat(9 * 1024 * 1024) } }, jsonrpc: '2.0', id: 'last' });
    while (s.out().split('\n').filter(Boolean).length < 3) await new Promise((r) => setTimeout(r, 20));
    const answers = s.messages().slice(1);
    expect(answers.map((a) => [a.id, a.error.code])).toEqual([[8, -32600], ['last', -32600]]);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('gives the SDK client its refusal of an over-size call, so the call ends at once', async () => {
    const { client } = await agent(await newBoard(), 'big-sender');
    open.push(client);
    const call = client.callTool({ name: 'agentboard_get_task', arguments: { task_id: 'x'.repeat(9 * 1024 * 1024) } }, undefined, { timeout: 15_000 });
    await expect(call).rejects.toThrow(/-32600: The message has \d+ bytes/);
  });

  const batch = [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { jsonrpc: '2.0', id: 3, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { id: 4, x: 1 }];
  const batchAnswer = async (version: string) => {
    const s = rawServer(await newBoard());
    s.send({ ...INIT, params: { ...INIT.params, protocolVersion: version } });
    await s.waitFor(1);
    s.child.stdin.write(`${JSON.stringify(batch)}\n`);
    while (!s.out().split('\n')[1]) await new Promise((r) => setTimeout(r, 20));
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    return JSON.parse(s.out().split('\n')[1]!);
  };

  it('answers each request of a batch, in one array, under MCP 2025-03-26', async () => {
    const answers = await batchAnswer('2025-03-26');
    expect(answers.map((a: any) => a.id).sort()).toEqual([2, 3, 4]);
    expect(answers.find((a: any) => a.id === 2).result.tools.length).toBeGreaterThan(10);
    expect(answers.find((a: any) => a.id === 3).result).toEqual({});
    expect(answers.find((a: any) => a.id === 4).error.code).toBe(-32600);
  });

  it('refuses each request of a batch under its id under a version without batches', async () => {
    const answers = await batchAnswer('2025-06-18');
    expect(answers.map((a: any) => [a.id, a.error.code])).toEqual([[2, -32600], [3, -32600], [4, -32600]]);
    expect(answers[0].error.message).toContain('MCP 2025-06-18, the version this session agreed on, takes no JSON-RPC batches');
  });

  it('answers a batch sent right behind initialize after initialize\'s answer, under the version it agreed', async () => {
    for (const version of ['2025-06-18', '2025-03-26']) {
      const s = rawServer(await newBoard());
      // One write: the batch is read while initialize is being answered.
      s.child.stdin.write(`${JSON.stringify({ ...INIT, params: { ...INIT.params, protocolVersion: version } })}\n${JSON.stringify(batch)}\n`);
      while (!s.out().split('\n')[1]) await new Promise((r) => setTimeout(r, 20));
      s.child.stdin.end();
      expect(await s.exited).toBe(0);
      const [first, second] = s.out().split('\n').map((l) => (l ? JSON.parse(l) : null));
      expect(first, version).toMatchObject({ id: 1, result: { protocolVersion: version } });
      expect(second.map((a: any) => a.id).sort(), version).toEqual([2, 3, 4]);
      if (version === '2025-06-18') expect(second[0].error.message).toContain('MCP 2025-06-18, the version this session agreed on, takes no JSON-RPC batches');
    }
  });

  it('stops quietly, exit 0, when the client stops reading its stdout', async () => {
    const s = rawServer(await newBoard());
    s.send(INIT);
    await s.waitFor(1);
    s.child.stdout.destroy();
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(await s.exited).toBe(0);
    expect(s.err()).not.toMatch(/EPIPE|Error/);
  });

  it('refuses invalid UTF-8 inside a JSON string with a Parse error and stores nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bytes', [{ title: 'Only' }]);
    const before = snapshot(dir);
    const s = rawServer(dir);
    s.send(INIT);
    await s.waitFor(1);
    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'w1', task_id: 'bytes/T1', text: 'bad:@:end' } } });
    const [head, tail] = call.split('@');
    s.child.stdin.write(Buffer.concat([Buffer.from(head!), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(`${tail}\n`)]));
    await s.waitFor(2);
    const answer = s.messages().find((a) => a.id === 2);
    expect(answer.error).toMatchObject({ code: -32700, message: expect.stringContaining('not valid UTF-8') });
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('the stdio server before initialize', () => {
  const answersOf = (out: string) => out.split('\n').filter(Boolean).map((l) => JSON.parse(l));

  it('refuses every request but initialize and ping with "Server not initialized" (-32002), carries out none of them, and serves them once initialized', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'early', [{ title: 'Only' }]);
    const before = snapshot(dir);
    const s = rawServer(dir);
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'early-bird', task_id: 'early/T1', text: 'Before initialize.' } } });
    s.send({ jsonrpc: '2.0', id: 4, method: 'no/such/method' });
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    await s.waitFor(5);
    const early = answersOf(s.out());
    for (const id of [2, 3, 4]) {
      expect(early.find((a) => a.id === id)?.error, `request ${id}`).toMatchObject({ code: -32002, message: expect.stringMatching(/^Server not initialized: .* Send an initialize request first/) });
    }
    expect(early.find((a) => a.id === 3).error.message).toContain('tools/call is answered once the session is initialized');
    expect(early.find((a) => a.id === 5)).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    expect(snapshot(dir), 'the call before initialize wrote nothing').toEqual(before);

    // A client that sends its next request without waiting for the answer to initialize is served.
    s.send(INIT);
    s.send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'early-bird', task_id: 'early/T1', text: 'After initialize.' } } });
    await s.waitFor(7);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    const answers = answersOf(s.out());
    expect(answers.find((a) => a.id === 1).result.serverInfo.name).toBe('agentboard');
    expect(answers.find((a) => a.id === 6).result.tools.length).toBeGreaterThan(10);
    expect(answers.find((a) => a.id === 7).result.isError).toBeFalsy();
    expect(read(dir, 'agentd/changes/early/tasks.md')).toContain('After initialize.');
    expect(read(dir, 'agentd/changes/early/tasks.md')).not.toContain('Before initialize.');
    // stdout holds protocol messages only: one JSON-RPC answer per request, nothing else.
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const a of answers) {
      expect(a.jsonrpc).toBe('2.0');
      expect('result' in a !== 'error' in a).toBe(true);
    }
    expect(s.err()).toContain('refused a message: Server not initialized');
  });

  it('keeps refusing after an initialize request that failed', async () => {
    const s = rawServer(await newBoard());
    s.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await s.waitFor(2);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    const answers = answersOf(s.out());
    expect(answers.find((a) => a.id === 1).error.code).toBeLessThan(0);
    expect(answers.find((a) => a.id === 2).error.code).toBe(-32002);
  });
});


/** The calls and answers in the queue of the board. */
function queued(dir: string): string[] {
  const calls = join(dir, 'agentd/.runtime/calls');
  return existsSync(calls) ? readdirSync(calls) : [];
}

/** The board's files, its runtime folder left out. */
function boardFiles(dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(dir)).filter(([path]) => !path.startsWith('agentd/.runtime/')));
}

/**
 * Takes up the server's queued call as the holder of the board lock does before its commit (this
 * process holds the lock), so that the server can no longer take its call back.
 */
function takeUpQueued(dir: string, pid: number): void {
  const runtime = join(dir, 'agentd/.runtime');
  const name = queued(dir).find((n) => /^call\..+\.json$/.test(n));
  const id = /^call\.(.+)\.json$/.exec(name!)![1]!;
  expect(new CallQueue(runtime).take({ id, pid, path: join(runtime, 'calls', name!) })).toBeTruthy();
}

describe('the stdio server stopping', () => {
  const note = (id: number, text: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'stopper', task_id: 'stopping/T1', text } } });

  /**
   * A board of change `stopping` (a task per title) whose lock this process holds, and a server on it
   * that has received `call`: the call waits for the lock, queued.
   */
  async function queuedBehindLock(call: object, titles = ['Only']) {
    const dir = await newBoard();
    await changeWithTasks(dir, 'stopping', titles.map((title) => ({ title })));
    const { lock } = await BoardLock.acquire(join(dir, 'agentd/.runtime'), {});
    const s = rawServer(dir);
    s.send(INIT);
    await s.waitFor(1);
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send(call);
    // Queued once it is there whole: a call is written aside (call.<id>.json.part), then renamed.
    await until('the call to be queued', () => queued(dir).some((n) => /^call\..+\.json$/.test(n)));
    return { dir, lock, s };
  }

  it('at the end of stdin, carries out and answers the call already received (waiting for the board lock), and exits 0', async () => {
    // Another process holds the board lock: the server's call waits for it, queued.
    const { dir, lock, s } = await queuedBehindLock(note(2, 'Received before the stop.'));
    s.child.stdin.end();
    lock.release();
    expect(await s.exited).toBe(0);
    const answers = s.messages();
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1].result.isError).toBeFalsy();
    expect(read(dir, 'agentd/changes/stopping/tasks.md').split('Received before the stop.')).toHaveLength(2);
  });

  it.each(['SIGHUP', 'SIGTERM', 'SIGINT'] as const)('on %s, answers a call still waiting for the board lock another process holds with BOARD_BUSY at once, carries out nothing of it, reads nothing more, and exits 0', async (signal) => {
    // Another process (this one) holds the board lock, and keeps it until the server has exited.
    const { dir, lock, s } = await queuedBehindLock(note(2, 'Received before the stop.'));
    const board = () => boardFiles(dir);
    const before = board();
    try {
      s.child.kill(signal);
      await until('the server to say it stops', () => s.err().includes(`stopping on ${signal}: answering the calls already received, taking no more`));
      // Sent once the server stops: never read.
      s.send(note(3, 'Sent after the stop.'));
      expect(await s.exited).toBe(0);
      const answers = s.messages();
      expect(answers.map((a) => a.id)).toEqual([1, 2]);
      expect(answers[1].result.isError).toBe(true);
      const { error } = JSON.parse(answers[1].result.content[0].text);
      expect(error.code).toBe('BOARD_BUSY');
      expect(error.message).toMatch(new RegExp(`^This MCP server is stopping \\(${signal}\\): this call was not carried out, and nothing of it was written \\(the board is locked by another agentboard process, pid ${process.pid} `));
      expect(error.next_step).toContain('Make the same call again on an agentboard MCP server that is running');
      expect(board()).toEqual(before);
      expect(queued(dir), 'no call or answer left behind').toEqual([]);
    } finally {
      lock.release();
    }
  });

  it('takes back a call the client cancels while it waits for the board lock another process holds: nothing of it is carried out or left, and the server goes on serving', async () => {
    const claim = (id: number, agentId: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'agentboard_get_next_task', arguments: { agent_id: agentId, response_format: 'json' } } });
    const { dir, lock, s } = await queuedBehindLock(claim(2, 'canceller'), ['First', 'Second']);
    const board = () => boardFiles(dir);
    const before = board();
    try {
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'no longer wanted' } });
      // Read after the cancellation: once it is answered, the server has seen the cancellation.
      s.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      await s.waitFor(3);
    } finally {
      lock.release();
    }
    await until('the queue to be empty', () => queued(dir).length === 0);
    expect(board(), 'the cancelled call claimed nothing').toEqual(before);
    // The server goes on serving: another claim gets the first task, which the cancelled call did not take.
    s.send(claim(4, 'second'));
    await s.waitFor(4);
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    const answers = s.messages();
    expect(answers.map((a) => a.id), 'a cancelled call gets no answer').toEqual([1, 3, 4]);
    expect(answers[2].result.isError).toBeFalsy();
    expect(answers[2].result.structuredContent).toMatchObject({ status: 'assigned', task: { task_id: 'stopping/T1' } });
    expect(read(dir, 'agentd/changes/stopping/tasks.md')).not.toContain('canceller');
    expect(queued(dir), 'no call or answer left behind').toEqual([]);
  });

  it('still carries out a call the client cancels once the holder of the board lock has taken it up', async () => {
    const { dir, lock, s } = await queuedBehindLock(note(2, 'Taken up before the cancellation.'));
    // This process, holding the lock, takes the call up, then goes without committing: the server cannot take its call back.
    takeUpQueued(dir, s.child.pid!);
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    s.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await s.waitFor(3);
    lock.release();
    await until('the call to be carried out', () => read(dir, 'agentd/changes/stopping/tasks.md').includes('Taken up before the cancellation.'));
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(s.messages().map((a) => a.id)).toEqual([1, 3]);
    expect(read(dir, 'agentd/changes/stopping/tasks.md').split('Taken up before the cancellation.')).toHaveLength(2);
    expect(queued(dir)).toEqual([]);
  });

  it('on SIGTERM, still carries out a call of its own that the holder of the board lock had taken up, and answers it', async () => {
    const { dir, lock, s } = await queuedBehindLock(note(2, 'Taken up before the stop.'));
    // This process, holding the lock, takes the call up, then goes without committing: the server
    // cannot take its call back, and carries it out itself.
    takeUpQueued(dir, s.child.pid!);
    s.child.kill('SIGTERM');
    await until('the server to say it stops', () => s.err().includes('stopping on SIGTERM'));
    lock.release();
    expect(await s.exited).toBe(0);
    const answers = s.messages();
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1].result.isError).toBeFalsy();
    expect(read(dir, 'agentd/changes/stopping/tasks.md').split('Taken up before the stop.')).toHaveLength(2);
    expect(queued(dir)).toEqual([]);
  });

  it('keeps serving when the client closes its stderr', async () => {
    const s = rawServer(await newBoard());
    s.send(INIT);
    await s.waitFor(1);
    s.child.stderr.destroy();
    // A line refused is said on stderr: the server writes to it, and goes on.
    s.child.stdin.write('this is not json\n');
    s.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(s.messages().map((a) => a.id)).toEqual([1, null, 2]);
  });

  it('stops reading requests while the client leaves more than 16 MB of answers unread (said on stderr), and answers every one once it reads them', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'stopping', [{ title: 'Only' }]);
    const s = rawServer(dir);
    s.send(INIT);
    await s.waitFor(1);
    s.child.stdout.pause();
    // Each tools/list answer holds some 40 KB: 450 of them are more than 16 MB.
    s.child.stdin.write(Array.from({ length: 450 }, (_, k) => `${JSON.stringify({ jsonrpc: '2.0', id: 100 + k, method: 'tools/list' })}\n`).join(''));
    await until('the server to stop reading', () => /the client has not read \d+ bytes of answers: reading no more of its requests until it does/.test(s.err()));
    s.send(note(2, 'Sent while answers wait.'));
    s.child.stdout.resume();
    await until('the note to be answered', () => s.out().includes('"jsonrpc":"2.0","id":2}\n'));
    expect(s.err()).toContain('the client read its answers: reading its requests again');
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    const ids = s.messages().map((a) => a.id);
    expect(ids).toHaveLength(452);
    expect(new Set(ids).size).toBe(452);
    expect(read(dir, 'agentd/changes/stopping/tasks.md').split('Sent while answers wait.')).toHaveLength(2);
  });
});
