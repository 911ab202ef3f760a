/** agentboard mcp as clients the SDK does not cover write to it: messages JSON-RPC and MCP allow or refuse, byte for byte on stdio. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, newBoard, read, snapshot } from '../helpers.js';
import { BARE_ENV, handWrittenServer as server, linesOf, until } from './helpers.js';


const initialize = (version: string) => ({ protocolVersion: version, capabilities: {}, clientInfo: { name: 'wire', version: '1' } });


describe('a batch under a version without batches', () => {
  it('has every item refused that is neither a notification nor a response, one without an id under a null id, and the others said on stderr', async () => {
    const s = server(await newBoard());
    await s.request('initialize', initialize('2025-06-18'));
    s.write('[1,[]]\n');
    s.write('[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"r","result":{}}]\n');
    expect((await s.request('ping')).result).toEqual({});
    expect(await s.close()).toBe(0);
    const [, batch, ping] = linesOf(s.stdout());
    expect(batch).toEqual([1, 2].map(() => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'MCP 2025-06-18, the version this session agreed on, takes no JSON-RPC batches (only MCP 2025-03-26 has them); send one message per line.' } })));
    expect(ping.id).toBe(2);
    expect(linesOf(s.stdout())).toHaveLength(3);
    expect(s.stderr().split('ignored a message of a batch: MCP 2025-06-18')).toHaveLength(3);
  });
});

describe('members of a message other than those of JSON-RPC', () => {
  it('are let be, as the MCP schema allows them: the request is carried out and answered', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'members', [{ title: 'Only' }]);
    const s = server(dir);
    await s.request('initialize', initialize('2025-06-18'));
    const call = { name: 'agentboard_add_note', arguments: { agent_id: 'tracer', task_id: 'members/T1', text: 'Sent with a trace.' } };
    s.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'traced', method: 'tools/call', params: call, trace: { span: 'a1' } })}\n`);
    s.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized', sent_at: 1 })}\n`);
    const answer = await s.answer('traced');
    expect(answer.result.isError).toBeFalsy();
    expect(await s.close()).toBe(0);
    expect(linesOf(s.stdout())).toHaveLength(2);
    expect(read(dir, 'agentd/changes/members/tasks.md').split('Sent with a trace.')).toHaveLength(2);
  });
});

describe('a response the server cannot read', () => {
  it('is never answered (two ends answering each other would not stop), only said on stderr', async () => {
    const s = server(await newBoard());
    await s.request('initialize', initialize('2025-06-18'));
    s.write('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n');
    s.write('{"jsonrpc":"2.0","id":"x","result":5}\n');
    expect((await s.request('ping')).result).toEqual({});
    expect(await s.close()).toBe(0);
    expect(linesOf(s.stdout()).map((m) => m.id)).toEqual([1, 2]);
    expect(s.stderr()).toContain('ignored a message: "id" must be a string or an integer; got null.');
    expect(s.stderr()).toContain('ignored a message: The message is a response that is not one JSON-RPC defines');
  });
});

describe('a request that is not what JSON-RPC or its method takes', () => {
  it('is refused saying what is wrong: invalid params (-32602) naming the field when only its params are, nothing done', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'tokens', [{ title: 'Only' }]);
    const s = server(dir);
    await s.request('initialize', initialize('2025-06-18'));
    const before = snapshot(dir);
    const call = { name: 'agentboard_add_note', arguments: { agent_id: 'tokens', task_id: 'tokens/T1', text: 'Never written.' } };
    expect((await s.request('tools/call', { ...call, _meta: { progressToken: null } })).error).toEqual({
      code: -32602,
      message: 'Invalid params of tools/call: params._meta.progressToken: expected string or number. See the MCP schema of tools/call for what its params hold.',
    });
    expect((await s.request('ping', { _meta: 5 })).error.code).toBe(-32602);
    s.write('{"jsonrpc":"1.0","id":"old","method":"ping"}\n');
    expect((await s.answer('old')).error).toEqual({ code: -32600, message: '"jsonrpc" must be "2.0"; got "1.0". Send one JSON-RPC 2.0 message per line, like {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}.' });
    s.write('{"jsonrpc":"2.0","id":"both","method":"ping","result":{}}\n');
    expect((await s.answer('both')).error.message).toContain('A message has "method" (a request or a notification) or "result" or "error" (a response), not both.');
    expect(await s.close()).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('a server told to stop by a signal while its client does not read its answers', () => {
  it('answers the calls it received, waits a while for the client to read, then exits 0 without the answers left unread, saying so', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'unread', [{ title: 'Only' }]);
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', dir], { env: BARE_ENV() });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize('2025-06-18') })}\n`);
    // The client reads nothing: some 40 KB per tools/list answer, far more than a pipe holds.
    child.stdout.pause();
    const list = Array.from({ length: 40 }, (_, k) => `${JSON.stringify({ jsonrpc: '2.0', id: 100 + k, method: 'tools/list' })}\n`).join('');
    const note = { name: 'agentboard_add_note', arguments: { agent_id: 'unread', task_id: 'unread/T1', text: 'Carried out, never read.' } };
    child.stdin.write(`${list}${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: note })}\n`);
    await until('the note to be written', () => read(dir, 'agentd/changes/unread/tasks.md').includes('Carried out, never read.'));
    child.kill('SIGTERM');
    let exit: number | null | 'running' = 'running';
    void exited.then((code) => (exit = code));
    await until('the server to exit', () => exit !== 'running').finally(() => exit === 'running' && child.kill('SIGKILL'));
    expect(exit).toBe(0);
    expect(err).toMatch(/stopping on SIGTERM: answering the calls already received, taking no more\nagentboard mcp: the client has not read \d+ bytes of answers: exiting without them\n$/);
  });
});
