/** agentboard mcp as clients other than the SDK's speak to it: JSON-RPC lines written by hand, checked byte for byte. */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, newBoard, read } from '../helpers.js';
import { handWrittenServer as server, linesOf } from './helpers.js';


describe('requests whose params their method does not take', () => {
  it('are answered with invalid params (-32602) naming the field, not an internal error, and in a batch with the batch', async () => {
    const s = server(await newBoard());
    const noVersion = await s.request('initialize', { capabilities: {}, clientInfo: { name: 'hand-written', version: '1' } });
    expect(noVersion.error.code).toBe(-32602);
    expect(noVersion.error.message).toMatch(/^Invalid params of initialize: params\.protocolVersion: expected string, received undefined\. Send params like \{"protocolVersion": /);
    const listed = await s.request('tools/list');
    expect(listed.error.code, 'the refused initialize did not initialize the session').toBe(-32002);

    const init = await s.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'hand-written', version: '1' } });
    expect(init.result.protocolVersion).toBe('2025-03-26');
    const badCursor = await s.request('tools/list', { cursor: 5 });
    expect(badCursor.error).toEqual({ code: -32602, message: 'Invalid params of tools/list: params.cursor: expected string, received number. Send params like {} or none (every tool is listed in one answer).' });

    // MCP 2025-03-26 has batches: the refusal is one of the batch's answers.
    s.write(`${JSON.stringify([{ jsonrpc: '2.0', id: 'b1', method: 'tools/list', params: { cursor: false } }, { jsonrpc: '2.0', id: 'b2', method: 'ping' }])}\n`);
    await s.close();
    const lines = linesOf(s.stdout());
    expect(lines).toHaveLength(5);
    const batch = lines[4];
    expect(Array.isArray(batch)).toBe(true);
    expect(batch.map((a: any) => [a.id, a.error?.code ?? 'result']).sort()).toEqual([['b1', -32602], ['b2', 'result']]);
    expect(s.stderr()).toContain('refused a message: Invalid params of tools/list');
  });
});

describe('a task-augmented request (params.task, MCP 2025-11-25)', () => {
  it('is served as any other, the task ignored, since the server declares no tasks capability', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'tasked', [{ title: 'Only' }]);
    const s = server(dir);
    const init = await s.request('initialize', { protocolVersion: '2025-11-25', capabilities: { tasks: {} }, clientInfo: { name: 'hand-written', version: '1' } });
    expect(init.result.capabilities.tasks).toBeUndefined();
    s.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const note = await s.request('tools/call', { name: 'agentboard_add_note', arguments: { agent_id: 'tasker', task_id: 'tasked/T1', text: 'Sent as a task.' }, task: { ttl: 60000 } });
    expect(note.error).toBeUndefined();
    expect(note.result.isError).toBeFalsy();
    expect(note.result.task, 'a plain result, not a CreateTaskResult').toBeUndefined();
    expect(await s.request('ping', { task: {} })).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    expect(await s.close()).toBe(0);
    expect(read(dir, 'agentd/changes/tasked/tasks.md').split('Sent as a task.')).toHaveLength(2);
  });
});

describe('a request cancelled in a batch (MCP 2025-03-26)', () => {
  it('gets no answer, and the batch is answered with the rest', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'cancelled', [{ title: 'Only' }]);
    const s = server(dir);
    await s.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'hand-written', version: '1' } });
    const claim = { jsonrpc: '2.0', id: 'claim', method: 'tools/call', params: { name: 'agentboard_get_next_task', arguments: { agent_id: 'canceller' } } };
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'claim', reason: 'The user stopped it.' } };
    s.write(`${JSON.stringify([{ jsonrpc: '2.0', id: 'ping', method: 'ping' }, claim, cancel])}\n`);
    expect(await s.close()).toBe(0);
    const lines = linesOf(s.stdout());
    expect(lines.slice(1)).toEqual([[{ jsonrpc: '2.0', id: 'ping', result: {} }]]);
    // The claim may have landed before it was cancelled, and then only once.
    expect(read(dir, 'agentd/changes/cancelled/tasks.md').split('canceller').length).toBeLessThanOrEqual(2);
  });
});

describe('a last message that stdin ends without a newline', () => {
  it('is answered as if the newline were there', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'unended', [{ title: 'Only' }]);
    const s = server(dir);
    await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'printf', version: '1' } });
    s.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    s.write(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'printer', task_id: 'unended/T1', text: 'Sent last.' } } }));
    expect(await s.close()).toBe(0);
    const last = linesOf(s.stdout()).at(-1);
    expect(last.id).toBe('last');
    expect(last.result.isError).toBeFalsy();
    expect(read(dir, 'agentd/changes/unended/tasks.md')).toContain('Sent last.');
  });
});

/**
 * The answers in stdout that carry exactly `id` (JSON text: digits, or a quoted string), found by
 * the text itself: JSON.parse would round an integer beyond 2^53 as the server must not.
 */
const answersTo = (out: string, id: string) => out.split('\n').filter((l) => l.includes(`"id":${id},`) || l.endsWith(`"id":${id}}`));

/** The one answer in stdout that carries exactly `id` (answersTo), read: there must be exactly one. */
function oneAnswer(out: string, id: string): any {
  const found = answersTo(out, id);
  expect(found, `the answers to ${id}`).toHaveLength(1);
  return JSON.parse(found[0]!);
}

describe('request ids beyond 2^53', () => {
  it('are answered with the digits the client wrote, as numbers: one by one, in a batch, refused, and two that round to one number each under its own', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'big-ids', [{ title: 'Only' }]);
    const s = server(dir);
    const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'sixty-four-bit', version: '1' } } });
    const line = (id: string, method: string, params?: object) => `{"jsonrpc":"2.0","id":${id},"method":"${method}"${params ? `,"params":${JSON.stringify(params)}` : ''}}`;
    const status = { name: 'agentboard_get_project_status', arguments: {} };
    // Before initialize: refused under its own id.
    s.write(`${line('9007199254740995', 'tools/list')}\n`);
    s.write(`${init.replace('"id":0', '"id":9007199254740993')}\n`);
    s.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    s.write(`${line('12345678901234567890', 'ping')}\n`);
    s.write(`${line('-9007199254740993', 'tools/call', status)}\n`);
    s.write(`${line('"9007199254740993"', 'ping')}\n`);
    // 2^53 + 1 and 2^53 are one number to JSON.parse: each is answered under its own digits.
    s.write(`${line('9007199254740992', 'tools/call', { name: 'agentboard_get_task', arguments: { task_id: 'big-ids/T1' } })}\n`);
    s.write(`[${line('18446744073709551615', 'ping')},${line('18446744073709551614', 'tools/call', status)}]\n`);
    // A line too long to be read, and one that is not UTF-8: refused under the id they begin with.
    s.write(`${line('98765432109876543210', 'tools/call', { name: 'agentboard_get_task', arguments: { task_id: 'x'.repeat(9 * 1024 * 1024) } })}\n`);
    s.write(Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":98765432109876543211,"method":"ping","params":{"_meta":{"x":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}}}\n')]));
    expect(await s.close()).toBe(0);
    const out = s.stdout();
    const one = (id: string) => oneAnswer(out, id);
    expect(one('9007199254740995').error.code).toBe(-32002);
    expect(one('9007199254740993').result.serverInfo.name).toBe('agentboard');
    expect(one('12345678901234567890').result).toEqual({});
    expect(one('-9007199254740993').result.isError).toBeFalsy();
    expect(one('"9007199254740993"').result).toEqual({});
    expect(one('9007199254740992').result.structuredContent.task.task_id).toBe('big-ids/T1');
    expect(one('98765432109876543210').error.code).toBe(-32600);
    expect(one('98765432109876543211').error.code).toBe(-32700);
    const batch = out.split('\n').find((l) => l.startsWith('['))!;
    expect(batch).toContain('"id":18446744073709551615}');
    expect(batch).toContain('"id":18446744073709551614}');
    expect(JSON.parse(batch)).toHaveLength(2);
    // Every line is an answer to one request: nothing under a rounded id.
    expect(out.split('\n').filter(Boolean)).toHaveLength(9);
  });

  it('are cancelled by the digits the client wrote, not another request that rounds to the same number', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'big-cancel', [{ title: 'Only' }]);
    const s = server(dir);
    await s.initialize();
    // 2^53 + 1 (the claim) and 2^53 (a read) are one number to JSON.parse; the cancellation names the claim.
    // One write, read at once: the claim is cancelled before it can be answered.
    s.write(
      [
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"agentboard_get_next_task","arguments":{"agent_id":"canceller"}}}',
        '{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/call","params":{"name":"agentboard_get_task","arguments":{"task_id":"big-cancel/T1"}}}',
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740993,"reason":"The user stopped it."}}\n',
      ].join('\n'),
    );
    expect(await s.close()).toBe(0);
    const out = s.stdout();
    expect(answersTo(out, '9007199254740993'), 'the cancelled claim').toHaveLength(0);
    const got = answersTo(out, '9007199254740992');
    expect(got, 'the read').toHaveLength(1);
    expect(JSON.parse(got[0]!).result.structuredContent.task.task_id).toBe('big-cancel/T1');
    // The claim may have landed before it was cancelled, and then only once.
    expect(read(dir, 'agentd/changes/big-cancel/tasks.md').split('canceller').length).toBeLessThanOrEqual(2);
  });
});

describe('request ids written otherwise than as their digits', () => {
  it('are answered as the client wrote them (1e3, 1.0, -0, 2E1), one by one and in a batch; a fraction is still refused, and such numbers in arguments are read as numbers', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'odd-ids', [{ title: 'Only' }, { title: 'Second' }]);
    const s = server(dir);
    await s.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'exponents', version: '1' } });
    s.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const line = (id: string, method: string, params?: object) => `{"jsonrpc":"2.0","id":${id},"method":"${method}"${params ? `,"params":${JSON.stringify(params)}` : ''}}`;
    s.write(`${line('1e3', 'ping')}\n`);
    s.write(`${line('1.0', 'tools/call', { name: 'agentboard_get_task', arguments: { task_id: 'odd-ids/T1' } })}\n`);
    s.write(`${line('-0', 'ping')}\n`);
    s.write(`${line('1.5', 'ping')}\n`);
    s.write(`[${line('2E1', 'ping')},${line('20', 'ping')}]\n`);
    // A limit written 1.0 is the number 1: one task listed, not a refusal.
    s.write(`{"jsonrpc":"2.0","id":"limit","method":"tools/call","params":{"name":"agentboard_list_tasks","arguments":{"change_id":"odd-ids","limit":1.0}}}\n`);
    expect(await s.close()).toBe(0);
    const out = s.stdout();
    const one = (id: string) => oneAnswer(out, id);
    expect(one('1e3').result).toEqual({});
    expect(one('1.0').result.structuredContent.task.task_id).toBe('odd-ids/T1');
    expect(one('-0').result).toEqual({});
    expect(one('1.5').error.code).toBe(-32600);
    const batch = out.split('\n').find((l) => l.startsWith('['))!;
    expect(batch).toContain('"id":2E1}');
    expect(batch).toContain('"id":20}');
    const limited = one('"limit"').result;
    expect(limited.isError).toBeFalsy();
    expect(limited.structuredContent.tasks).toHaveLength(1);
    expect(out).not.toContain('"id":1000');
    expect(out).not.toContain('agentboard-exact-id');
  });
});

describe('integers beyond 2^53 in the arguments of a tool call', () => {
  it('are refused with invalid params (-32602) naming each field, nothing done, where JSON.parse would round them; digits in strings, fractions and such integers elsewhere are let be', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'big-args', [{ title: 'Only' }]);
    const s = server(dir);
    await s.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'sixty-four-bit', version: '1' } });
    s.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const call = (id: string, name: string, args: string, extra = '') => `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"${name}","arguments":${args}${extra}}}`;
    s.write(`${call('offset', 'agentboard_get_change', '{"change_id":"big-args","offset": 9007199254740993}')}\n`);
    s.write(`${call('nested', 'agentboard_add_note', '{"agent_id":"w1","task_id":"big-args/T1","text":"Refused.","more":[{"n":-12345678901234567890},[0,18446744073709551616]]}')}\n`);
    // The same digits in a string, a fraction, an exponent, and an integer outside the arguments: carried out.
    s.write(`${call('kept', 'agentboard_add_note', '{"agent_id":"w1","task_id":"big-args/T1","text":"Order 12345678901234567890 kept."}', ',"_meta":{"n":12345678901234567890,"f":0.12345678901234567890,"e":1e12345678901234567}')}\n`);
    s.write(`[{"jsonrpc":"2.0","id":"ping","method":"ping"},${call('in-batch', 'agentboard_list_changes', '{"limit":99999999999999999999}')}]\n`);
    expect(await s.close()).toBe(0);
    const lines = linesOf(s.stdout());
    const answer = (id: string) => lines.flat().find((a) => a.id === id);
    expect(answer('offset').error).toEqual({
      code: -32602,
      message: 'Invalid params of tools/call: params.arguments.offset (9007199254740993) is an integer beyond 9007199254740991 in size, which agentboard cannot read exactly; nothing was done. Send numbers from -9007199254740991 to 9007199254740991.',
    });
    expect(answer('nested').error.code).toBe(-32602);
    expect(answer('nested').error.message).toMatch(/^Invalid params of tools\/call: params\.arguments\.more\[0\]\.n \(-12345678901234567890\), params\.arguments\.more\[1\]\[1\] \(18446744073709551616\) are integers beyond /);
    expect(answer('kept').result.isError).toBeFalsy();
    expect(answer('in-batch').error).toMatchObject({ code: -32602, message: expect.stringContaining('params.arguments.limit (99999999999999999999)') });
    expect(answer('ping').result).toEqual({});
    const tasks = read(dir, 'agentd/changes/big-args/tasks.md');
    expect(tasks).toContain('Order 12345678901234567890 kept.');
    expect(tasks).not.toContain('Refused.');
    expect(s.stderr()).toContain('refused a message: Invalid params of tools/call: params.arguments.offset');
  });
});

describe('a second initialize request', () => {
  it('is refused with Invalid Request once the session is initialized, and the session keeps the version it agreed on', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'twice', [{ title: 'Only' }]);
    const s = server(dir);
    expect((await s.initialize()).result.protocolVersion).toBe('2025-06-18');
    const again = await s.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'again', version: '2' } });
    expect(again.error).toEqual({ code: -32600, message: 'The session is already initialized (MCP 2025-06-18); initialize is sent once, first. To start a new session, start agentboard mcp again.' });
    // Still 2025-06-18, which has no batches.
    s.write(`${JSON.stringify([{ jsonrpc: '2.0', id: 'b1', method: 'ping' }])}\n`);
    const note = await s.request('tools/call', { name: 'agentboard_add_note', arguments: { agent_id: 'twice', task_id: 'twice/T1', text: 'Still served.' } });
    expect(note.result.isError).toBeFalsy();
    expect(await s.close()).toBe(0);
    const batch = linesOf(s.stdout()).find(Array.isArray)!;
    expect(batch.map((a: any) => [a.id, a.error?.code])).toEqual([['b1', -32600]]);
    expect(batch[0].error.message).toContain('MCP 2025-06-18, the version this session agreed on, takes no JSON-RPC batches');
    expect(read(dir, 'agentd/changes/twice/tasks.md')).toContain('Still served.');
  });
});

describe('requests other clients send', () => {
  it('a tool call with an integer progressToken beyond 2^53 is carried out and answered under its id', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'progress', [{ title: 'Only' }]);
    const s = server(dir);
    await s.initialize();
    s.write('{"jsonrpc":"2.0","id":"tok","method":"tools/call","params":{"name":"agentboard_add_note","arguments":{"agent_id":"p1","task_id":"progress/T1","text":"With a big token."},"_meta":{"progressToken":12345678901234567890}}}\n');
    expect((await s.answer('tok')).result.isError).toBeFalsy();
    expect(await s.close()).toBe(0);
    expect(read(dir, 'agentd/changes/progress/tasks.md')).toContain('With a big token.');
  });

  it('"params": null is taken as no params, in a request and in a notification', async () => {
    const s = server(await newBoard());
    await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'nulls', version: '1' } });
    s.write('{"jsonrpc":"2.0","method":"notifications/initialized","params":null}\n');
    expect((await s.request('tools/list', null)).result.tools.length).toBeGreaterThan(10);
    expect(await s.request('ping', null)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    expect(await s.close()).toBe(0);
    // Nothing refused: one answer per request, none to the notification.
    expect(linesOf(s.stdout()).map((a) => a.id)).toEqual([1, 2, 3]);
  });

  it('params by position (an array) are answered with invalid params (-32602), alone and in a batch', async () => {
    const s = server(await newBoard());
    await s.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'positional', version: '1' } });
    expect(await s.request('ping', [])).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params of ping: params is an array; MCP takes params by name, as an object.' } });
    s.write('[{"jsonrpc":"2.0","id":"p","method":"tools/list","params":[1]},{"jsonrpc":"2.0","id":"q","method":"ping"}]\n');
    expect(await s.close()).toBe(0);
    const batch = linesOf(s.stdout()).find(Array.isArray)!;
    expect(batch.map((a: any) => [a.id, a.error?.code ?? 'result']).sort()).toEqual([['p', -32602], ['q', 'result']]);
  });

  it('are served as MCP has it: any protocol version answered with one the server speaks, a UTF-8 BOM before the first message, ping, unlisted methods and notifications sent with an id refused as methods not found', async () => {
    const s = server(await newBoard());
    s.write(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'bom', version: '1' } } })}\r\n`)]));
    const init = await s.answer('init');
    expect(init.result.protocolVersion).toBe('2024-11-05');
    expect(Object.keys(init.result.capabilities)).toEqual(['tools']);
    for (const method of ['logging/setLevel', 'resources/list', 'prompts/list', 'notifications/initialized']) {
      expect((await s.request(method, method === 'logging/setLevel' ? { level: 'debug' } : {})).error.code, method).toBe(-32601);
    }
    expect((await s.request('ping')).result).toEqual({});
    expect(await s.close()).toBe(0);
    for (const version of ['2099-01-01', '1.0']) {
      const other = server(await newBoard());
      const answer = await other.request('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'future', version: '1' } });
      expect(answer.result.protocolVersion, version).toBe(LATEST_PROTOCOL_VERSION);
      expect(await other.close()).toBe(0);
    }
  });
});

describe('a client that ends its lines with \\r\\n and never sends notifications/initialized', () => {
  it('is served all the same', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'crlf-client', [{ title: 'Only' }]);
    const s = server(dir);
    s.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'windows', version: '1' } } })}\r\n`);
    s.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'agentboard_add_note', arguments: { agent_id: 'crlf', task_id: 'crlf-client/T1', text: 'Ended with CR LF.' } } })}\r\n`);
    expect(await s.close()).toBe(0);
    const [init, note] = linesOf(s.stdout());
    expect(init.result.serverInfo.name).toBe('agentboard');
    expect(note.id).toBe(2);
    expect(note.result.isError).toBeFalsy();
    expect(read(dir, 'agentd/changes/crlf-client/tasks.md').split('Ended with CR LF.')).toHaveLength(2);
  });
});
