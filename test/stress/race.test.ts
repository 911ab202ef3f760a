/**
 * 32 processes, half of them command lines and half MCP servers, claim and complete tasks until the
 * board is empty: none gives up on the lock, no task is claimed twice, none is lost.
 */
import { describe, expect, it } from 'vitest';
import { cliClaimer, mcpClaimer } from '../claimers.js';
import { changeWithTasks, newBoard, ok } from '../helpers.js';
import { handEditRace } from '../store/hand-edit-race.js';

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

describe('the long hand-edit race', () => {
  it('loses no agent write, hands no task out twice, keeps every edit of the person', async () => {
    const { merges } = await handEditRace({ tasks: 40, agents: 8, agentRounds: 6, notesPerTask: 4, personRounds: 60 });
    expect(merges).toBeGreaterThan(0);
  });
});
