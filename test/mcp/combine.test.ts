/**
 * MCP servers share commits: a call that would wait for the board lock is queued in
 * agentd/.runtime/calls/, and whoever holds the lock carries out every call waiting in one
 * transaction, answering each when that commit is on disk. Each call is carried out exactly once,
 * whatever process dies when. The waiting callers are played here by the test process itself,
 * queueing calls the way a server does (its pid is alive, so they are not swept as abandoned).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CallQueue } from '../../src/store/calls.js';
import { BIN, changeWithTasks, cli, cliAsync, newBoard, NODE_ARGS, ok, read, tempDir } from '../helpers.js';
import { until } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
});

async function server(dir: string, env: Record<string, string> = {}, args: string[] = []) {
  return (await serverWithClient(dir, env, args)).call;
}

async function serverWithClient(dir: string, env: Record<string, string> = {}, args: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...NODE_ARGS, BIN, 'mcp', '--root', dir, '--profile', 'worker', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-'), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'combine', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  const call = async (tool: string, args: object) => (await client.callTool({ name: tool, arguments: args as Record<string, unknown> })) as any;
  return { call, client, pid: transport.pid };
}


/** Who holds the board lock, by its file (null when nobody does). */
function lockHolder(dir: string): number | null {
  const path = join(runtime(dir), 'lock');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')).pid as number) : null;
}

/** A server that, once it has the lock, keeps it for as long as the test needs (it waits for more calls for ten minutes). */
const HOLDING = { AGENTBOARD_TEST_LINGER_MS: '600000', AGENTBOARD_TEST_TENURE_MS: '600000' };

const runtime = (dir: string) => join(dir, 'agentd/.runtime');
const callsDir = (dir: string) => join(runtime(dir), 'calls');
const callFiles = (dir: string) => (existsSync(callsDir(dir)) ? readdirSync(callsDir(dir)).filter((n) => n.startsWith('call.')) : []);

function queue(dir: string, op: string, input: object): string {
  return new CallQueue(runtime(dir)).post({ op, input, format: 'json', writes: [] });
}

function answer(dir: string, id: string): any {
  return JSON.parse(readFileSync(join(callsDir(dir), `answer.${id}.json`), 'utf8'));
}

function activity(dir: string): any[] {
  return read(dir, 'agentd/.runtime/activity.jsonl')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Who holds each task of a change, as tasks.md on disk says. */
function assignees(dir: string, changeId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of read(dir, `agentd/changes/${changeId}/tasks.md`).matchAll(/^## (T\d+)\b[\s\S]*?assignee: (\S+)/gm)) out[m[1]!] = m[2]!;
  return out;
}

const SIX = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'].map((title) => ({ title }));

/**
 * Two calls queued on a board of six tasks, then a server that takes them up with its own claim
 * and is killed at `fault` of its commit (its client sees the call fail).
 */
async function holderKilledAt(changeId: string, fault: string) {
  const dir = await newBoard();
  await changeWithTasks(dir, changeId, SIX);
  const b = queue(dir, 'task.next', { agent_id: 'queued-b' });
  const c = queue(dir, 'task.next', { agent_id: 'queued-c' });
  const doomed = await server(dir, { AGENTBOARD_TEST_FAULT: fault });
  await expect(doomed('agentboard_get_next_task', { agent_id: 'agent-a' })).rejects.toThrow();
  return { dir, b, c };
}

describe('queued calls', () => {
  it('are carried out by the holder of the lock in its one commit, each answered, a refused one leaving the others whole', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'batch', SIX);
    const b = queue(dir, 'task.next', { agent_id: 'queued-b' });
    const c = queue(dir, 'task.next', { agent_id: 'queued-c' });
    const d = queue(dir, 'task.done', { agent_id: 'queued-d', task_id: 'batch/T66' });
    const eve = queue(dir, 'task.next', { agent_id: 'human:eve' });
    expect(callFiles(dir)).toHaveLength(4);

    const call = await server(dir);
    const mine = await call('agentboard_get_next_task', { agent_id: 'agent-a' });
    expect(mine.isError).toBeFalsy();
    expect(mine.structuredContent.status).toBe('assigned');

    const [ab, ac, ad, ae] = [b, c, d, eve].map((id) => answer(dir, id));
    expect([ab.ok, ac.ok]).toEqual([true, true]);
    expect([ab.result.status, ac.result.status]).toEqual(['assigned', 'assigned']);
    const claimed = [mine.structuredContent.task.task_id, ab.result.task.task_id, ac.result.task.task_id];
    expect(new Set(claimed).size).toBe(3);
    // A task that is not there cannot be completed; the person's call is not an agent's to queue.
    expect(ad).toMatchObject({ ok: false, error: { code: 'TASK_NOT_FOUND' } });
    expect(ae).toMatchObject({ ok: false, error: { code: 'HUMAN_ONLY' } });

    // One commit: the claims carry the same board time, and tasks.md names all three.
    const claims = activity(dir).filter((e) => e.action === 'task.claim');
    expect(claims.map((e) => e.actor).sort()).toEqual(['agent-a', 'queued-b', 'queued-c']);
    expect(new Set(claims.map((e) => e.at)).size).toBe(1);
    const held = assignees(dir, 'batch');
    expect(Object.values(held).sort()).toEqual(['agent-a', 'queued-b', 'queued-c']);
    expect(callFiles(dir)).toEqual([]);
  });

  it('bring back the notices of the merges their batch made (a person\'s edit that could not be reconciled)', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'noticed', SIX);
    const path = 'agentd/changes/noticed/tasks.md';
    const stale = read(dir, path);
    await cli(dir, ['next', '--as', 'codex']);
    // From a stale buffer, a person hands T1 (codex's) to gemini: the merge keeps codex and records the conflict.
    writeFileSync(join(dir, path), stale.replace('status: todo', 'status: in_progress\nassignee: gemini'));
    const b = queue(dir, 'task.note', { agent_id: 'codex', task_id: 'noticed/T1', text: 'Still mine.' });
    const call = await server(dir);
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).isError).toBeFalsy();
    const queued = answer(dir, b);
    expect(queued.ok).toBe(true);
    expect(queued.notices.map((n: any) => n.message)).toContainEqual(expect.stringMatching(/^agentd\/changes\/noticed\/tasks\.md: T1: the .* of a person's hand edit and agentboard's differ/));
  });

  it('are answered exactly once when the holder is killed after its commit is durable: the next holder rolls it forward', async () => {
    const { dir, b, c } = await holderKilledAt('crash', 'commit:journal');
    // Killed with the journal on disk and nothing applied: no answer yet, the calls taken.
    expect(existsSync(join(callsDir(dir), `answer.${b}.json`))).toBe(false);
    expect(callFiles(dir).every((n) => n.endsWith('.taken'))).toBe(true);

    const next = await server(dir);
    const mine = await next('agentboard_get_next_task', { agent_id: 'agent-d' });
    expect(mine.structuredContent.status).toBe('assigned');
    const [ab, ac] = [b, c].map((id) => answer(dir, id));
    expect([ab.result.status, ac.result.status]).toEqual(['assigned', 'assigned']);
    // The killed holder's claim was committed with the others (its agent never got the answer; `next` resumes it).
    const held = assignees(dir, 'crash');
    expect(Object.values(held).sort()).toEqual(['agent-a', 'agent-d', 'queued-b', 'queued-c']);
    expect(held[ab.result.task.task_id.split('/')[1]]).toBe('queued-b');
    expect(held[ac.result.task.task_id.split('/')[1]]).toBe('queued-c');
    expect(activity(dir).filter((e) => e.action === 'task.claim')).toHaveLength(4);
    expect(callFiles(dir)).toEqual([]);
  });

  it('are carried out by the next holder when the holder is killed before its commit: nothing of that batch landed', async () => {
    const { dir, b, c } = await holderKilledAt('early', 'commit:staged');
    // Killed before its journal: nothing landed, the calls taken.
    expect(callFiles(dir).sort()).toEqual([`call.${b}.json.taken`, `call.${c}.json.taken`].sort());
    expect(read(dir, 'agentd/changes/early/tasks.md')).not.toContain('assignee');

    const next = await server(dir);
    expect((await next('agentboard_get_next_task', { agent_id: 'agent-d' })).structuredContent.status).toBe('assigned');
    const [ab, ac] = [b, c].map((id) => answer(dir, id));
    expect([ab.result.status, ac.result.status]).toEqual(['assigned', 'assigned']);
    expect(Object.values(assignees(dir, 'early')).sort()).toEqual(['agent-d', 'queued-b', 'queued-c']);
    expect(activity(dir).filter((e) => e.action === 'task.claim')).toHaveLength(3);
    expect(callFiles(dir)).toEqual([]);
  });

  it("are left to their caller on another machine, and swept when their caller is gone", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'hosts', SIX);
    const ours = queue(dir, 'task.next', { agent_id: 'queued-b' });
    const host = ours.split('-')[2]!;
    const other = host === '00000000' ? '11111111' : '00000000';
    // A process of this machine that is gone, one of another machine (not to be judged from here), and one of another machine abandoned long ago.
    const body = (agent: string) => JSON.stringify({ op: 'task.next', input: { agent_id: agent }, format: 'json', writes: [] });
    const dead = `0000000001-999999-${host}-aaaaaaaa`;
    const remote = `0000000002-999999-${other}-bbbbbbbb`;
    const stale = `0000000003-999999-${other}-cccccccc`;
    writeFileSync(join(callsDir(dir), `call.${dead}.json`), body('gone-here'));
    writeFileSync(join(callsDir(dir), `call.${remote}.json`), body('over-there'));
    writeFileSync(join(callsDir(dir), `call.${stale}.json`), body('long-gone'));
    const old = new Date(Date.now() - 20 * 60_000);
    utimesSync(join(callsDir(dir), `call.${stale}.json`), old, old);

    const call = await server(dir);
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).structuredContent.status).toBe('assigned');
    expect(answer(dir, ours).result.status).toBe('assigned');
    expect(answer(dir, remote).result.status).toBe('assigned');
    expect(existsSync(join(callsDir(dir), `answer.${dead}.json`))).toBe(false);
    expect(existsSync(join(callsDir(dir), `answer.${stale}.json`))).toBe(false);
    expect(Object.values(assignees(dir, 'hosts')).sort()).toEqual(['agent-a', 'over-there', 'queued-b']);
    expect(callFiles(dir)).toEqual([]);
  });

  it('let four servers racing through 24 tasks claim each exactly once and complete them all', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'race', Array.from({ length: 24 }, (_, i) => ({ title: `Task ${i + 1}` })));
    const agents = await Promise.all(['w1', 'w2', 'w3', 'w4'].map(async (agent) => ({ agent, call: await server(dir) })));
    const claimed = await Promise.all(
      agents.map(async ({ agent, call }) => {
        const mine: string[] = [];
        for (;;) {
          const next = await call('agentboard_get_next_task', { agent_id: agent });
          expect(next.isError).toBeFalsy();
          if (next.structuredContent.status !== 'assigned') return mine;
          mine.push(next.structuredContent.task.task_id);
          const done = await call('agentboard_complete_task', { agent_id: agent, task_id: next.structuredContent.task.task_id });
          expect(done.isError).toBeFalsy();
        }
      }),
    );
    const all = claimed.flat();
    expect(all).toHaveLength(24);
    expect(new Set(all).size).toBe(24);
    expect(read(dir, 'agentd/changes/race/tasks.md').match(/^status: done$/gm)).toHaveLength(24);
    // A queued call's answer is put in place before the call is removed (the same commit, a moment apart).
    await until('the calls carried out to be removed', () => callFiles(dir).length === 0, 60_000);
    expect(existsSync(callsDir(dir)) ? readdirSync(callsDir(dir)).filter((n) => n.startsWith('answer.')) : []).toEqual([]);
  });
});

describe('a server holding the lock', () => {
  it('carries out the calls queued after its own commit, each batch a commit with a board time of its own, and lets the lock go when it closes', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'tenure', SIX);
    const { call, client, pid } = await serverWithClient(dir, HOLDING);
    // A busy board: another process's call waits when the server takes the lock.
    const first = queue(dir, 'task.next', { agent_id: 'queued-a' });
    const mine = await call('agentboard_get_next_task', { agent_id: 'agent-a' });
    expect(mine.structuredContent.status).toBe('assigned');
    expect(answer(dir, first).result.status).toBe('assigned');
    // Answered, and still holding the lock: calls queued now are carried out by it.
    expect(lockHolder(dir)).toBe(pid);
    const claimed = [mine.structuredContent.task.task_id, answer(dir, first).result.task.task_id];
    for (const agent of ['queued-b', 'queued-c']) {
      await new Promise((r) => setTimeout(r, 30));
      const id = queue(dir, 'task.next', { agent_id: agent });
      await until(`the answer to ${agent}`, () => existsSync(join(callsDir(dir), `answer.${id}.json`)), 60_000);
      const got = answer(dir, id);
      expect(got).toMatchObject({ ok: true, result: { status: 'assigned' } });
      claimed.push(got.result.task.task_id);
      expect(lockHolder(dir)).toBe(pid);
    }
    expect(new Set(claimed).size).toBe(4);
    expect(Object.values(assignees(dir, 'tenure')).sort()).toEqual(['agent-a', 'queued-a', 'queued-b', 'queued-c']);
    // Three commits, each stamped when it was made: the lock's time was renewed for each batch. (The
    // log file gets a commit's entries after its answers are in place: read through agentboard,
    // which shows a commit being applied whole, they are there at once; the file itself is waited for.)
    await until('the four claims in the log file', () => activity(dir).filter((e) => e.action === 'task.claim').length === 4, 60_000);
    const at = activity(dir)
      .filter((e) => e.action === 'task.claim')
      .map((e) => Date.parse(e.at));
    expect(at).toHaveLength(4);
    expect(at[1]!).toBe(at[0]!);
    expect(at[2]!).toBeGreaterThan(at[1]!);
    expect(at[3]!).toBeGreaterThan(at[2]!);
    expect(callFiles(dir)).toEqual([]);

    await client.close();
    await until('the lock to be let go', () => lockHolder(dir) === null, 60_000);
    // Nobody holds it now: a call queued from here is the next holder's to carry out, and a command takes the lock at once.
    const next = await cli(dir, ['next', '--as', 'agent-d', '--json']);
    expect(next.json.data.status).toBe('assigned');
  });

  it("answers its own client between batches while other processes' calls keep it busy", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'busy', SIX);
    const { call, client, pid } = await serverWithClient(dir, HOLDING);
    // Calls enough for many batches, waiting before the server takes the lock: once it has it, it
    // carries them out batch after batch, never waiting for a call to come.
    const queued = Array.from({ length: 600 }, (_, i) => queue(dir, 'task.next', { agent_id: `queued-${i}` }));
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).structuredContent.status).toBe('assigned');
    expect(lockHolder(dir)).toBe(pid);
    // Its own client asks again meanwhile: answered between two batches, while most of the others'
    // calls still wait (a batch takes 16 at most; a server that read its input only once the queue
    // ran dry answered with one batch or none left).
    await client.ping();
    expect(callFiles(dir).length).toBeGreaterThan(32);
    await until('every queued call answered', () => queued.every((id) => existsSync(join(callsDir(dir), `answer.${id}.json`))), 120_000);
    expect(callFiles(dir)).toEqual([]);
    expect(Object.values(assignees(dir, 'busy'))).toHaveLength(6);
  }, 180_000);

  it('killed while it writes its second batch leaves the board of the first: the next holder carries the second out once, logged', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'twice', SIX);
    await ok(dir, ['next', '--as', 'queued-a']);
    // The second commit of the holder's tenure dies once its files are written, before its journal.
    const { call, pid } = await serverWithClient(dir, { ...HOLDING, AGENTBOARD_TEST_FAULT: 'commit:staged@2' });
    const first = queue(dir, 'task.note', { agent_id: 'queued-a', task_id: 'twice/T1', text: 'First note.' });
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).structuredContent.status).toBe('assigned');
    expect(answer(dir, first).ok).toBe(true);
    expect(lockHolder(dir)).toBe(pid);
    queue(dir, 'task.note', { agent_id: 'queued-a', task_id: 'twice/T1', text: 'Second note.' });
    await until('the holder to die', () => !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] === 'Z', 60_000);
    // The next write takes the lock over, and carries out the call the dead holder never committed.
    await ok(dir, ['next', '--as', 'agent-b']);
    const tasks = read(dir, 'agentd/changes/twice/tasks.md');
    expect(tasks.split('Second note.').length - 1).toBe(1);
    expect(tasks.split('First note.').length - 1).toBe(1);
    expect(activity(dir).filter((e) => e.action === 'task.note').map((e) => e.summary)).toEqual(['note on twice/T1: First note.', 'note on twice/T1: Second note.']);
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
  });

  it('gather the calls of the callers a batch answered into one commit, and go with fewer once the gathering time is up', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'gather', [...SIX, { title: 'Seven' }]);
    const { call, pid } = await serverWithClient(dir, { ...HOLDING, AGENTBOARD_TEST_GATHER_MS: '4000' });
    // A first batch of three calls (the server's own and two queued): three are expected next.
    const a = queue(dir, 'task.next', { agent_id: 'queued-a' });
    const b = queue(dir, 'task.next', { agent_id: 'queued-b' });
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).structuredContent.status).toBe('assigned');
    expect([answer(dir, a).ok, answer(dir, b).ok]).toEqual([true, true]);
    expect(lockHolder(dir)).toBe(pid);
    // One call comes: the holder waits for the other two instead of committing it alone.
    const c = queue(dir, 'task.next', { agent_id: 'queued-c' });
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(join(callsDir(dir), `answer.${c}.json`))).toBe(false);
    const d = queue(dir, 'task.next', { agent_id: 'queued-d' });
    const e = queue(dir, 'task.next', { agent_id: 'queued-e' });
    await until('the answers to c, d and e', () => [c, d, e].every((id) => existsSync(join(callsDir(dir), `answer.${id}.json`))), 60_000);
    const byAgent = (agent: string) => activity(dir).find((x) => x.action === 'task.claim' && x.actor === agent);
    await until('the three claims in the log file', () => ['queued-c', 'queued-d', 'queued-e'].every((agent) => byAgent(agent) !== undefined), 60_000);
    // One commit: one board time for the three.
    expect(new Set(['queued-c', 'queued-d', 'queued-e'].map((agent) => byAgent(agent).at)).size).toBe(1);
    // Fewer than expected: the one that came is carried out once the gathering time is up.
    const f = queue(dir, 'task.next', { agent_id: 'queued-f' });
    await until('the answer to f', () => existsSync(join(callsDir(dir), `answer.${f}.json`)), 60_000);
    expect(answer(dir, f).result.status).toBe('assigned');
    expect(Object.values(assignees(dir, 'gather')).sort()).toEqual(['agent-a', 'queued-a', 'queued-b', 'queued-c', 'queued-d', 'queued-e', 'queued-f']);
    // A commit puts its answers in place, then removes the calls it carried out, then writes its log
    // entries: the answer can be read before the call is gone, the log entry not.
    await until('the claim of f in the log file', () => byAgent('queued-f') !== undefined, 60_000);
    expect(callFiles(dir)).toEqual([]);
  });

  it('are counted by name, and looked at past the ones a batch took up already', async () => {
    const dir = await newBoard();
    const calls = new CallQueue(runtime(dir));
    const one = calls.post({ op: 'task.next', input: { agent_id: 'one' }, format: 'json' });
    const two = calls.post({ op: 'task.next', input: { agent_id: 'two' }, format: 'json' });
    const host = one.split('-')[2]!;
    // A call being written, a call taken by a holder that died, and the answer of a caller that is gone.
    writeFileSync(join(callsDir(dir), `call.0000000001-999998-${host}-aaaaaaaa.json.part`), '{');
    const taken = `0000000002-${process.pid}-${host}-bbbbbbbb`;
    writeFileSync(join(callsDir(dir), `call.${taken}.json.taken`), '{}');
    const deadAnswer = join(callsDir(dir), `answer.0000000003-999999-${host}-cccccccc.json`);
    writeFileSync(deadAnswer, '{}');
    expect(calls.count()).toBe(3);
    // Passed over: the calls of the batch and the answers; nothing is removed.
    expect(calls.waiting({ except: new Set([one]), answers: false }).map((c) => c.id)).toEqual([taken, two]);
    expect(existsSync(deadAnswer)).toBe(true);
    // A whole look removes the answer nobody will read.
    expect(calls.waiting().map((c) => c.id)).toEqual([taken, ...[one, two].sort()]);
    expect(existsSync(deadAnswer)).toBe(false);
  });

  it("carries out an agent's command as a queued call, and makes way for a person's command waiting in line", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'line', SIX);
    const { call, pid } = await serverWithClient(dir, HOLDING);
    const other = queue(dir, 'task.next', { agent_id: 'queued-a' });
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).structuredContent.status).toBe('assigned');
    expect(answer(dir, other).result.status).toBe('assigned');
    expect(lockHolder(dir)).toBe(pid);
    // An agent's command queues its call as a server does, and the holder carries it out: the lock never changes hands.
    const claimed = await cliAsync(dir, ['next', '--as', 'agent-z', '--json']);
    expect(claimed.code, claimed.stdout + claimed.stderr).toBe(0);
    expect(claimed.json.data.status).toBe('assigned');
    expect(Object.values(assignees(dir, 'line')).sort()).toEqual(['agent-a', 'agent-z', 'queued-a']);
    expect(lockHolder(dir)).toBe(pid);
    expect(callFiles(dir)).toEqual([]);
    // A person's command (never queued) waits for the lock, joins the line, and the server lets the
    // lock go to it (else it would wait ten minutes, and give up at two with BOARD_BUSY).
    const released = await cliAsync(dir, ['release', 'line/T1', '--as', 'human:tester', '--json']);
    expect(released.code, released.stdout + released.stderr).toBe(0);
    expect(released.json.data.task.assignee).toBe(null);
    expect(lockHolder(dir)).toBe(null);
    // The server still serves: its next call takes the lock again.
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).isError).toBeFalsy();
  });

  it("keep the change and phase a run's planner asked in, whichever process carries its question out", async () => {
    const dir = await newBoard();
    const input = { agent_id: 'fake-planner', question: 'Should the spec cover tags?', default_action: 'Leave tags out.' };
    const id = new CallQueue(runtime(dir)).post({ op: 'input.ask', input, format: 'json', writes: [], run_agent: 'fake-planner', run_phase: { agentId: 'fake-planner', changeId: 'add-search', phase: 'spec' } });
    const call = await server(dir);
    expect((await call('agentboard_update_status', { agent_id: 'agent-a', status: 'working', message: 'Carrying the queued question.' })).isError).toBeFalsy();
    expect(answer(dir, id)).toMatchObject({ ok: true, result: { input_id: 'input-1' } });
    expect(JSON.parse(read(dir, 'agentd/.runtime/state.json')).inputs['input-1']).toMatchObject({ agent_id: 'fake-planner', change_id: 'add-search', phase: 'spec' });
  });

  it("answer a run worker's next with the task the run gave it, whichever process carries it out, and the carrier's own next with its own", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'given', [{ title: 'First' }, { title: 'Second' }, { title: 'Third' }]);
    await ok(dir, ['next', '--as', 'codex-w2', '--change', 'given']);
    await ok(dir, ['next', '--as', 'claude-w1', '--change', 'given']);
    const runId = '20261122-080000000-abcd';
    mkdirSync(join(dir, 'agentd/.runtime/runs', runId), { recursive: true });
    const call = await server(dir, {}, ['--as', 'claude-w1', '--run', runId, '--invocation', '1', '--task', 'given/T2']);
    // codex-w2 holds T1, as a run gave it; its `next`, queued, is carried out by the server bound to claude-w1's T2.
    const id = new CallQueue(runtime(dir)).post({ op: 'task.next', input: { agent_id: 'codex-w2' }, format: 'json', writes: [], run_agent: 'codex-w2', assignment: 'given/T1' });
    expect((await call('agentboard_get_next_task', {})).structuredContent).toMatchObject({ status: 'resumed', task: { task_id: 'given/T2' } });
    expect(answer(dir, id)).toMatchObject({ ok: true, result: { status: 'resumed', task: { task_id: 'given/T1', assignee: 'codex-w2' } } });
  });

  it('lets the lock go at once after a write when no other process called', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alone', SIX);
    const { call } = await serverWithClient(dir, HOLDING);
    expect((await call('agentboard_get_next_task', { agent_id: 'agent-a' })).structuredContent.status).toBe('assigned');
    expect(lockHolder(dir)).toBe(null);
  });
});
