/**
 * Claims across clones: every clone's write is a compare-and-swap on the remote's board ref, so a
 * task is never handed out twice, whichever clone asks; a write that lost the race runs again on
 * the new state under the same rules.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallQueue } from '../../src/store/calls.js';
import { changeWithTasks, cli, ok } from '../helpers.js';
import { cliClaimer, mcpClaimer } from '../claimers.js';
import { activityOf, cloneTree, git, remoteFile, remoteTree, sharedBoard, stoppedAt } from './helpers.js';

describe('two clones claim at the same moment', () => {
  it('the one whose push loses runs again on the new board and gets another task', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'race', [{ title: 'First' }, { title: 'Second' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['status', '--sync']);
    // a chooses race/T1 and stops right before its push…
    const alices = await stoppedAt(a, ['next', '--as', 'alice-agent', '--json'], 'remote:push');
    // …b claims race/T1 meanwhile…
    const bob = await ok(b, ['next', '--as', 'bob-agent']);
    expect(bob.task.task_id).toBe('race/T1');
    // …and a's push is refused: it runs next again on b's board.
    const { code, stdout } = await alices.go();
    expect(code).toBe(0);
    const alice = JSON.parse(stdout).data;
    expect(alice.status).toBe('assigned');
    expect(alice.task.task_id).toBe('race/T2');
    const tasks = remoteFile(shared, 'changes/race/tasks.md');
    expect(tasks).toMatch(/## T1: First[\s\S]*assignee: bob-agent/);
    expect(tasks).toMatch(/## T2: Second[\s\S]*assignee: alice-agent/);
    const claims = activityOf(a).filter((e) => e.action === 'task.claim');
    expect(claims.map((e) => [e.actor, e.target])).toEqual([
      ['bob-agent', 'race/T1'],
      ['alice-agent', 'race/T2'],
    ]);
  });
});

describe('2 clones × 2 agents (CLI and MCP) claim and complete 24 tasks', () => {
  it('hand out no task twice, lose no update, and leave every clone with the same board', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'race', Array.from({ length: 24 }, (_, i) => ({ title: `Task ${i + 1}` }))));
    const [a, b] = shared.clones as [string, string];
    const results = await Promise.all([cliClaimer(a, 'a-cli'), mcpClaimer(a, 'a-mcp'), cliClaimer(b, 'b-cli'), mcpClaimer(b, 'b-mcp')]);
    const all = results.flatMap((r) => r.claimed);
    expect(all).toHaveLength(24);
    expect(new Set(all).size).toBe(24);
    for (const clone of [a, b]) await ok(clone, ['status', '--sync']);
    // every task done by the agent that was told it had it
    const tasks = await ok(a, ['task', 'list', '--limit', '100']);
    for (const r of results) for (const id of r.claimed) expect(tasks.tasks.find((t: any) => t.task_id === id)).toMatchObject({ status: 'done', assignee: r.agent });
    // one claim and one completion per task in the shared log
    const log = activityOf(a);
    expect(log.filter((e) => e.action === 'task.claim')).toHaveLength(24);
    expect(log.filter((e) => e.action === 'task.done')).toHaveLength(24);
    // the clones converge, on the remote's board
    expect(cloneTree(a)).toEqual(cloneTree(b));
    const remote = remoteTree(shared);
    const local = cloneTree(a);
    for (const [path, blob] of Object.entries(local)) expect(remote[path], path).toBe(blob);
    expect(readFileSync(`${a}/agentd/.runtime/activity.jsonl`, 'utf8')).toBe(readFileSync(`${b}/agentd/.runtime/activity.jsonl`, 'utf8'));
    expect((await cli(a, ['validate'])).code).toBe(0);
    // 48 writes after the board's first commit: one push each, or one for the calls of a clone's two
    // agents carried out together (a batch, ops/combine.ts), so between 24 and 48 commits more.
    const commits = Number(git(shared.remote, ['rev-list', '--count', 'refs/agentboard/board']));
    expect(commits).toBeGreaterThanOrEqual(25);
    expect(commits).toBeLessThanOrEqual(49);
  });
});

describe('agents\' calls carried out together on a shared board', () => {
  it('are one push: one commit on the remote holds every claim of the batch, and the other clone sees them', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'batch', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]));
    const [a, b] = shared.clones as [string, string];
    const commits = () => Number(git(shared.remote, ['rev-list', '--count', 'refs/agentboard/board']));
    const before = commits();
    // Two calls waiting in clone a's queue, as MCP servers leave them while another process holds the lock.
    const queue = new CallQueue(join(a, 'agentd/.runtime'));
    const ids = ['queued-b', 'queued-c'].map((agent_id) => queue.post({ op: 'task.next', input: { agent_id }, format: 'json', writes: [] }));
    // An agent's command takes the free lock and carries them out with its own claim.
    expect((await ok(a, ['next', '--as', 'agent-a'])).status).toBe('assigned');
    for (const id of ids) expect(JSON.parse(readFileSync(queue.answerPath(id), 'utf8'))).toMatchObject({ ok: true, result: { status: 'assigned' } });
    expect(commits()).toBe(before + 1);
    const message = git(shared.remote, ['log', '-1', '--format=%B', 'refs/agentboard/board']);
    for (const agent of ['agent-a', 'queued-b', 'queued-c']) expect(message).toContain(agent);
    const tasks = remoteFile(shared, 'changes/batch/tasks.md');
    for (const agent of ['agent-a', 'queued-b', 'queued-c']) expect(tasks).toMatch(new RegExp(`assignee: ${agent}`));
    const seen = await ok(b, ['task', 'list', '--sync']);
    expect(seen.tasks.map((t: any) => t.assignee).sort()).toEqual(['agent-a', 'queued-b', 'queued-c']);
  });

  it('are answered, exactly once, when a person saves a file between the push and the local commit', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'batch', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]));
    const [a] = shared.clones as [string];
    const queue = new CallQueue(join(a, 'agentd/.runtime'));
    const id = queue.post({ op: 'task.next', input: { agent_id: 'queued-b' }, format: 'json', writes: [] });
    // The batch is pushed; then, before it is committed here, a person saves the task list it replaces.
    const claim = await stoppedAt(a, ['next', '--as', 'agent-a', '--json'], 'remote:pushed');
    const tasks = join(a, 'agentd/changes/batch/tasks.md');
    writeFileSync(tasks, readFileSync(tasks, 'utf8').replace('## T3: Three', '## T3: Three, by hand'));
    const { code, stdout } = await claim.go();
    expect(code, stdout).toBe(0);
    expect(JSON.parse(stdout).data.status).toBe('assigned');
    // The queued call has its answer, and nothing of it is left to be carried out again.
    const answer = JSON.parse(readFileSync(queue.answerPath(id), 'utf8'));
    expect(answer).toMatchObject({ ok: true, result: { status: 'assigned' } });
    expect(readdirSync(queue.dir).filter((n) => n.startsWith('call.'))).toEqual([]);
    await ok(a, ['next', '--as', 'agent-c']);
    const claims = activityOf(a).filter((e) => e.action === 'task.claim');
    expect(claims.map((e) => e.actor).sort()).toEqual(['agent-a', 'agent-c', 'queued-b']);
    expect(existsSync(join(a, 'agentd/.runtime/remote/pending.json'))).toBe(false);
  });
});
