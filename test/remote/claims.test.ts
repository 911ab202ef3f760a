/**
 * Claims across clones: every clone's write is a compare-and-swap on the remote's board ref, so a
 * task is never handed out twice, whichever clone asks; a write that lost the race runs again on
 * the new state under the same rules.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
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
    expect(Number(git(shared.remote, ['rev-list', '--count', 'refs/agentboard/board']))).toBeGreaterThanOrEqual(49);
  });
});
