/**
 * 32 processes, half of them command lines and half MCP servers, claim and complete tasks until the
 * board is empty: none gives up on the lock, no task is claimed twice, none is lost. The same with
 * 8 long-lived MCP servers alone. And pairs of `agentboard run` of one change started together.
 */
import { describe, expect, it } from 'vitest';
import { cliClaimer, mcpClaimer } from '../claimers.js';
import { changeWithTasks, newBoard, ok, read } from '../helpers.js';
import { handEditRace } from '../store/hand-edit-race.js';
import { expectOneOfTwoRuns, fakeBoard } from '../engine/helpers.js';

describe('32 processes claiming at once, CLI and MCP', () => {
  it('all finish without BOARD_BUSY, each task claimed exactly once, every task done', async () => {
    const dir = await newBoard();
    for (let c = 0; c < 4; c++) await changeWithTasks(dir, `race-${c}`, Array.from({ length: 100 }, (_, i) => ({ title: `Task ${i + 1}` })));
    const claims = await Promise.all(Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? cliClaimer(dir, `cli-${i}`) : mcpClaimer(dir, `mcp-${i}`))));
    const all = claims.flatMap((c) => c.claimed);
    expect(all).toHaveLength(400);
    expect(new Set(all).size).toBe(400);
    const status = await ok(dir, ['status']);
    expect(status.totals).toMatchObject({ total: 400, done: 400 });
  });
});

describe('8 MCP servers claiming and completing 400 tasks', () => {
  it('each task is claimed by exactly one of them, and every claim and completion is on disk', async () => {
    const dir = await newBoard();
    for (let c = 0; c < 4; c++) await changeWithTasks(dir, `mcp-${c}`, Array.from({ length: 100 }, (_, i) => ({ title: `Task ${i + 1}` })));
    const agents = Array.from({ length: 8 }, (_, i) => `server-${i}`);
    const claims = await Promise.all(agents.map((agent) => mcpClaimer(dir, agent)));
    const all = claims.flatMap((c) => c.claimed);
    expect(all).toHaveLength(400);
    expect(new Set(all).size).toBe(400);
    // No lost update: every task is done, by the agent that was told it was theirs.
    const claimedBy = new Map(claims.flatMap((c) => c.claimed.map((id) => [id, c.agent] as const)));
    const onDisk = (await ok(dir, ['task', 'list', '--limit', '500'])).tasks;
    expect(onDisk).toHaveLength(400);
    for (const t of onDisk) expect([t.task_id, t.status, t.assignee]).toEqual([t.task_id, 'done', claimedBy.get(t.task_id)]);
    const log = read(dir, 'agentd/.runtime/activity.jsonl').trim().split('\n').map((l) => JSON.parse(l));
    expect(log.filter((e) => e.action === 'task.claim')).toHaveLength(400);
  });
});

describe('the long hand-edit race', () => {
  it('loses no agent write, hands no task out twice, keeps every edit of the person', async () => {
    const { merges } = await handEditRace({ tasks: 40, agents: 8, agentRounds: 6, notesPerTask: 4, personRounds: 60 });
    expect(merges).toBeGreaterThan(0);
  });
});

describe('20 pairs of `agentboard run` of one change, each pair started at the same instant', () => {
  it('one of each pair runs and the other is refused with RUN_REFUSED; no agent is invoked twice', async () => {
    const board = await fakeBoard();
    for (let i = 1; i <= 20; i++) await expectOneOfTwoRuns(board, `pair-${i}`);
  });
});
