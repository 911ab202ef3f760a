/**
 * A clone that cannot reach the remote: exclusive writes fail and change nothing; notes and
 * progress are queued, then pushed in order when it is back; a queued write the rules no longer
 * allow is kept and reported, never applied and never dropped on its own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, NODE_ARGS, ok, snapshot } from '../helpers.js';
import { git, remoteFile, sharedBoard, stoppedAt } from './helpers.js';

function offline(dir: string, remote: string): () => void {
  git(dir, ['remote', 'set-url', 'origin', join(remote, '..', 'nowhere.git')]);
  return () => git(dir, ['remote', 'set-url', 'origin', remote]);
}

const shownBoard = (dir: string) => {
  const all = snapshot(join(dir, 'agentd'));
  return Object.fromEntries(Object.entries(all).filter(([p]) => !p.startsWith('.runtime/remote/') && p !== '.runtime/lock'));
};

/** walker claims trip/T1 on clone a, which goes offline and queues its progress (80%: Nearly packed); a person releases the task on clone b. */
async function queuedThenReleased() {
  const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }]));
  const [a, b] = shared.clones as [string, string];
  await ok(a, ['next', '--as', 'walker']);
  const back = offline(a, shared.remote);
  await ok(a, ['task', 'progress', 'trip/T1', '--percent', '80', '--message', 'Nearly packed', '--as', 'walker']);
  await ok(b, ['release', 'trip/T1', '--reason', 'Walker is away']);
  return { shared, a, b, back };
}

describe('a clone that cannot reach the remote', () => {
  it('refuses exclusive writes with a clear error and changes nothing; queues notes and progress, and pushes them in order when it is back', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }, { title: 'Go' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['next', '--as', 'walker']);
    const back = offline(a, shared.remote);

    const before = shownBoard(a);
    for (const args of [['next', '--as', 'runner'], ['task', 'done', 'trip/T1', '--as', 'walker'], ['task', 'block', 'trip/T1', '--as', 'walker', '--reason', 'No map']]) {
      const r = await cli(a, [...args, '--json']);
      expect(r.code).toBe(1);
      expect(r.json.error.code).toBe('REMOTE_UNREACHABLE');
      expect(r.json.error.message).toContain('nothing was written');
      expect(r.json.error.next_step).toContain('git fetch origin');
    }
    expect(shownBoard(a)).toEqual(before);

    const first = await cli(a, ['task', 'note', 'trip/T1', 'Packed the tent', '--as', 'walker', '--json']);
    expect(first.code).toBe(0);
    expect(first.json.notices.join(' ')).toMatch(/queued \(1 waiting\)/);
    await ok(a, ['task', 'progress', 'trip/T1', '--percent', '50', '--message', 'Half packed', '--as', 'walker']);
    await ok(a, ['task', 'note', 'trip/T1', 'Packed the stove', '--as', 'walker']);
    expect(shownBoard(a)).toEqual(before);
    // an exclusive write refused meanwhile says how many writes wait to be pushed
    expect((await cli(a, ['next', '--as', 'runner', '--json'])).json.error.message).toMatch(/nothing was written\. 3 writes made offline wait to be pushed\.$/);
    // a note a rule refuses on the local copy is not queued at all
    const refused = await cli(a, ['task', 'note', 'trip/T1', 'Not mine', '--as', 'runner', '--json']);
    expect(refused.json.error.code).toBe('TASK_HELD');
    // nor is a report that would claim a task nobody holds: a claim is made with the remote only
    const claim = await cli(a, ['task', 'progress', 'trip/T2', '--percent', '5', '--message', 'Starting', '--as', 'runner', '--json']);
    expect(claim.code).toBe(1);
    expect(claim.json.error).toMatchObject({ code: 'REMOTE_UNREACHABLE', message: 'The remote "origin" could not be reached, and this write would make trip/T2 yours: on a shared board a task is claimed only with the remote, where another clone may hold it already. Nothing was written or queued.' });
    expect(claim.json.error.next_step).toContain('agentboard remote status');

    const status = await ok(a, ['remote', 'status']);
    expect(status.waiting.map((e: any) => [e.id, e.actor, e.op])).toEqual([
      [1, 'walker', 'task.note'],
      [2, 'walker', 'task.progress'],
      [3, 'walker', 'task.note'],
    ]);
    // meanwhile the other clones see the claim, stale after a while, and nothing of the queue
    const later = { AGENTBOARD_TEST_NOW: new Date(Date.now() + 3 * 3600_000).toISOString() };
    const seen = await ok(b, ['status', '--sync'], { env: later });
    expect(seen.stale_claims.map((c: any) => [c.task_id, c.assignee])).toEqual([['trip/T1', 'walker']]);
    expect((await ok(b, ['task', 'show', 'trip/T1'])).task.notes).toEqual([]);

    // back online: the next command pushes the queue first, in order
    back();
    const read = await cli(a, ['task', 'list', '--sync', '--json']);
    expect(read.code).toBe(0);
    expect((await ok(a, ['remote', 'status'])).waiting).toEqual([]);
    const task = (await ok(b, ['task', 'show', 'trip/T1', '--sync'])).task;
    expect(task.notes.map((n: any) => n.text)).toEqual(['Packed the tent', 'Packed the stove']);
    expect(task).toMatchObject({ progress: 50, progress_message: 'Half packed', assignee: 'walker' });
    const log = remoteFile(shared, 'runtime/activity/000001.jsonl');
    expect(log.indexOf('Packed the tent')).toBeLessThan(log.indexOf('Half packed'));
    expect(log.indexOf('Half packed')).toBeLessThan(log.indexOf('Packed the stove'));
  });

  it('keeps a queued write whose claim was released meanwhile, reports it, and never applies it', async () => {
    const { shared, a, b, back } = await queuedThenReleased();
    back();
    const r = await cli(a, ['task', 'note', 'trip/T1', 'Anyone may take it', '--as', 'helper', '--json']);
    expect(r.code, r.stdout).toBe(0);
    // the command whose sync replayed it says so, and so does the shared board's activity log
    expect(r.json.notices.join('\n')).toMatch(/The queued write #1 \(trip\/T1 at 80%: Nearly packed\) was made while walker held trip\/T1 \(claimed [^)]+\); that task is now held by nobody, so the write is not applied\. It stays in the queue/);
    const logged = remoteFile(shared, 'runtime/activity/000001.jsonl').split('\n').map((l) => JSON.parse(l)).filter((e) => e.action === 'remote.queued_refused');
    expect(logged.map((e) => [e.actor, e.target])).toEqual([['agentboard', 'trip/T1']]);
    expect(logged[0].summary).toContain('walker held trip/T1');
    const status = await ok(a, ['remote', 'status']);
    expect(status.waiting).toEqual([]);
    expect(status.refused).toHaveLength(1);
    expect(status.refused[0]).toMatchObject({ id: 1, actor: 'walker', op: 'task.progress', code: 'QUEUED_WRITE_REFUSED' });
    expect(status.refused[0].message).toContain('walker held trip/T1');
    const task = (await ok(b, ['task', 'show', 'trip/T1', '--sync'])).task;
    expect(task).toMatchObject({ status: 'todo', progress: null });
    expect(task.assignee ?? null).toBeNull();
    expect(task.notes.map((n: any) => n.text)).toEqual(['Released from walker: Walker is away', 'Anyone may take it']);
    // kept until a person removes it
    await ok(a, ['status', '--sync']);
    expect((await ok(a, ['remote', 'status'])).refused).toHaveLength(1);
    const drop = await cli(a, ['remote', 'drop', '1', '--json']);
    expect(drop.json.data.dropped).toMatchObject({ id: 1, op: 'task.progress' });
    expect((await ok(a, ['remote', 'status'])).refused).toEqual([]);
    expect((await cli(a, ['remote', 'drop', '1', '--json'])).json.error.code).toBe('QUEUED_WRITE_NOT_FOUND');
    const disable = JSON.parse(readFileSync(join(a, 'agentd/.runtime/remote/queue.json'), 'utf8'));
    expect(disable.entries).toEqual([]);
  });

  it('says which agent\'s queued write the board refuses now, to whoever synced, even when the command that synced is refused itself', async () => {
    const { shared, a, b, back } = await queuedThenReleased();
    // and another agent takes it
    await ok(b, ['next', '--as', 'taker']);
    back();
    const r = await cli(a, ['task', 'note', 'trip/T1', 'Hello', '--as', 'helper', '--json']);
    expect(r.json.error.code).toBe('TASK_HELD');
    expect(r.json.notices).toEqual([expect.stringMatching(/^The write #1 that walker queued offline \(trip\/T1 at 80%: Nearly packed\) is not applied: the board refuses it now \(TASK_HELD: Task trip\/T1 is held by taker \(since [^)]+\); you cannot report progress on it\)\. It stays in this clone's queue: `agentboard remote status` shows it, `agentboard remote drop 1` removes it\.$/)]);
    expect((await ok(a, ['remote', 'status'])).refused).toEqual([expect.objectContaining({ id: 1, actor: 'walker', code: 'TASK_HELD' })]);
    // The shared board's log names the write and its agent too (written with the clone's next write).
    await ok(a, ['task', 'note', 'trip/T1', 'Still on it', '--as', 'taker']);
    const logged = remoteFile(shared, 'runtime/activity/000001.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.action === 'remote.queued_refused');
    expect(logged.at(-1).summary).toMatch(/^The write #1 that walker queued offline \(trip\/T1 at 80%: Nearly packed\) is not applied: the board refuses it now \(TASK_HELD: /);

    // So does an MCP call refused after its sync replayed the queue: the note comes with its error, not with the next call.
    await ok(a, ['task', 'add', 'trip', '--as', 'planner', '--title', 'Go']);
    await ok(a, ['next', '--as', 'walker2']);
    const back3 = offline(a, shared.remote);
    await ok(a, ['task', 'progress', 'trip/T2', '--percent', '10', '--message', 'Started', '--as', 'walker2']);
    await ok(b, ['release', 'trip/T2', '--reason', 'Away', '--sync']);
    await ok(b, ['next', '--as', 'taker2']);
    back3();
    const client = new Client({ name: 'helper', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...NODE_ARGS, BIN, 'mcp', '--root', a], env: childEnv(), stderr: 'ignore' }));
    try {
      const refused = (await client.callTool({ name: 'agentboard_add_note', arguments: { agent_id: 'helper', task_id: 'trip/T2', text: 'Hello' } })) as { isError: boolean; content: { text: string }[] };
      expect(refused.isError).toBe(true);
      expect(refused.content.map((c) => c.text).slice(1)).toEqual([expect.stringMatching(/^Note: The write #2 that walker2 queued offline \(trip\/T2 at 10%: Started\) is not applied/)]);
    } finally {
      await client.close();
    }
  });

  it('pushes a queued write once when two processes replay the queue at the same time', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }, { title: 'Go' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['next', '--as', 'walker']);
    const back = offline(a, shared.remote);
    await ok(a, ['task', 'note', 'trip/T1', 'Only once', '--as', 'walker']);
    back();
    // One process has read the queue and is about to replay its write when another replays it.
    const slow = await stoppedAt(a, ['next', '--as', 'runner', '--json'], 'remote:replay');
    expect((await ok(a, ['remote', 'sync'])).replayed).toBe(1);
    const late = await slow.go();
    expect(late.code, late.stdout).toBe(0);
    expect(JSON.parse(late.stdout).data.task.task_id).toBe('trip/T2');
    expect((await ok(a, ['remote', 'status'])).waiting).toEqual([]);
    const notes = (await ok(b, ['task', 'show', 'trip/T1', '--sync'])).task.notes.map((n: any) => n.text);
    expect(notes).toEqual(['Only once']);
    expect(remoteFile(shared, 'runtime/activity/000001.jsonl').split('Only once').length).toBe(2);
  });

  it('does not turn sharing off while writes wait to be pushed', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }]));
    const a = shared.clones[0]!;
    await ok(a, ['next', '--as', 'walker']);
    offline(a, shared.remote);
    await ok(a, ['task', 'note', 'trip/T1', 'Tent packed', '--as', 'walker']);
    const r = await cli(a, ['remote', 'disable', '--json']);
    expect(r.json.error.code).toBe('QUEUE_NOT_EMPTY');
    expect(readFileSync(join(a, 'agentd/config.yaml'), 'utf8')).toMatch(/^remote: origin$/m);
    await ok(a, ['remote', 'drop', '1']);
    const off = await ok(a, ['remote', 'disable']);
    expect(off).toMatchObject({ changed: true, synced: false });
  });
});
