/**
 * Many machines, one board, on one machine: a bare repository as the remote, 4 clones, 4 agents
 * per clone (16 processes, CLI and MCP) claiming and completing 200 tasks; a clone that was offline
 * rejoining; writers killed with -9 at random moments of their push.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, NODE_ARGS, ok } from '../helpers.js';
import { cliClaimer, mcpClaimer, percentile } from '../claimers.js';
import { activityOf, addClone, cloneTree, git, remoteFile, remoteTree, sharedBoard } from '../remote/helpers.js';

describe('4 clones × 4 agents (CLI and MCP) claim and complete 200 tasks through a bare remote', () => {
  it('hand out no task twice, lose no update, and every clone converges to the same board', async () => {
    const shared = await sharedBoard(4, async (first) => {
      for (let c = 0; c < 4; c++) await changeWithTasks(first, `work-${c}`, Array.from({ length: 50 }, (_, i) => ({ title: `Task ${i + 1}` })));
    });
    const t0 = performance.now();
    const results = await Promise.all(
      shared.clones.flatMap((dir, c) => [cliClaimer(dir, `c${c}-cli-1`), cliClaimer(dir, `c${c}-cli-2`), mcpClaimer(dir, `c${c}-mcp-1`), mcpClaimer(dir, `c${c}-mcp-2`)]),
    );
    const seconds = (performance.now() - t0) / 1000;
    const all = results.flatMap((r) => r.claimed);
    const latencies = results.flatMap((r) => r.latencies);
    console.log(
      `shared board, 4 clones × 4 agents, 200 tasks: ${all.length} claims in ${seconds.toFixed(1)} s = ${(all.length / seconds).toFixed(2)} claims/s ` +
        `(each followed by its completion); claim latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms; ` +
        `per agent: ${results.map((r) => r.claimed.length).join(' ')}`,
    );

    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);
    for (const dir of shared.clones) await ok(dir, ['status', '--sync']);
    const [first] = shared.clones as [string];
    const tasks = (await ok(first, ['task', 'list', '--limit', '500'])).tasks as any[];
    expect(tasks).toHaveLength(200);
    for (const r of results) for (const id of r.claimed) expect(tasks.find((t) => t.task_id === id), id).toMatchObject({ status: 'done', assignee: r.agent });
    const log = activityOf(first);
    const claims = log.filter((e) => e.action === 'task.claim');
    expect(claims).toHaveLength(200);
    expect(new Set(claims.map((e) => e.target)).size).toBe(200);
    expect(log.filter((e) => e.action === 'task.done')).toHaveLength(200);
    const remote = remoteTree(shared);
    for (const dir of shared.clones) {
      const tree = cloneTree(dir);
      expect(tree).toEqual(cloneTree(first));
      for (const [path, blob] of Object.entries(tree)) expect(remote[path], path).toBe(blob);
      expect(readFileSync(join(dir, 'agentd/.runtime/activity.jsonl'), 'utf8')).toBe(readFileSync(join(first, 'agentd/.runtime/activity.jsonl'), 'utf8'));
      expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
    }
  });
});

describe('a clone that was offline while the others worked', () => {
  it('rejoins: its queued notes land in order, and its stale claim was visible to the others all along', async () => {
    const shared = await sharedBoard(3, async (first) => changeWithTasks(first, 'busy', Array.from({ length: 40 }, (_, i) => ({ title: `Task ${i + 1}` }))));
    const away = addClone(shared);
    const held = (await ok(away, ['next', '--as', 'traveller'])).task.task_id as string;
    git(away, ['remote', 'set-url', 'origin', join(shared.remote, '..', 'unreachable.git')]);
    const working = Promise.all(shared.clones.slice(0, 3).flatMap((dir, c) => [cliClaimer(dir, `w${c}-a`), cliClaimer(dir, `w${c}-b`)]));
    for (let i = 1; i <= 20; i++) {
      const r = await cli(away, ['task', i % 5 === 0 ? 'progress' : 'note', held, ...(i % 5 === 0 ? ['--percent', String(i * 4), '--message', `step ${i}`] : [`note ${i}`]), '--as', 'traveller', '--json']);
      expect(r.code, r.stdout).toBe(0);
    }
    const later = { AGENTBOARD_TEST_NOW: new Date(Date.now() + 3 * 3600_000).toISOString() };
    const seen = await ok(shared.clones[0]!, ['status', '--sync'], { env: later });
    expect(seen.stale_claims.map((s: any) => [s.task_id, s.assignee])).toContainEqual([held, 'traveller']);
    const done = await working;
    expect(done.flatMap((r) => r.claimed)).toHaveLength(39);
    expect((await ok(away, ['remote', 'status'])).waiting).toHaveLength(20);

    git(away, ['remote', 'set-url', 'origin', shared.remote]);
    await ok(away, ['status', '--sync']);
    expect((await ok(away, ['remote', 'status'])).waiting).toEqual([]);
    const task = (await ok(shared.clones[0]!, ['task', 'show', held, '--sync'])).task;
    expect(task.notes.map((n: any) => n.text)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1).filter((i) => i % 5 !== 0).map((i) => `note ${i}`));
    expect(task).toMatchObject({ assignee: 'traveller', status: 'in_progress', progress: 80, progress_message: 'step 20' });
    const steps = activityOf(away)
      .filter((e) => e.actor === 'traveller' && e.action !== 'task.claim')
      .map((e) => e.summary);
    expect(steps).toHaveLength(20);
    expect(steps.map((s) => /(note|step) (\d+)/.exec(s)![2])).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect(cloneTree(away)).toEqual(cloneTree(shared.clones[0]!));
  });
});

describe('writers on two clones killed with -9 at random moments', () => {
  it('leave every write wholly on the remote or wholly absent, and the next command recovers', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'crash', [{ title: 'Survive' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['next', '--as', 'victim']);
    await ok(b, ['status', '--sync']);
    const env = childEnv();
    for (let trial = 0; trial < 40; trial++) {
      const writers = [a, b].flatMap((dir, c) => [0, 1].map((w) => spawn(process.execPath, [...NODE_ARGS, BIN, 'task', 'note', 'crash/T1', `note ${trial}.${c}.${w}`, '--as', 'victim', '--root', dir], { env })));
      const closed = writers.map((child) => new Promise((r) => child.on('close', r)));
      await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 800)));
      for (const child of writers) child.kill('SIGKILL');
      await Promise.all(closed);
      for (const [c, dir] of [a, b].entries()) {
        const after = await cli(dir, ['task', 'note', 'crash/T1', `after ${trial}.${c}`, '--as', 'victim', '--json']);
        expect(after.code, after.stdout + after.stderr).toBe(0);
      }
    }
    for (const dir of [a, b]) await ok(dir, ['status', '--sync']);
    const text = remoteFile(shared, 'changes/crash/tasks.md');
    const notes = [...text.slice(text.indexOf('## T1')).matchAll(/text: (.+)/g)].map((m) => m[1]!.replace(/^"|"$/g, ''));
    const logged = activityOf(a)
      .filter((e) => e.action === 'task.note')
      .map((e) => e.summary.replace('note on crash/T1: ', ''));
    expect(notes.filter((n) => n.startsWith('after '))).toHaveLength(80);
    expect(notes).toEqual(logged);
    expect(new Set(notes).size).toBe(notes.length);
    expect(cloneTree(a)).toEqual(cloneTree(b));
    for (const dir of [a, b]) expect((await cli(dir, ['validate'])).code).toBe(0);
    console.log(`kill -9 trials: ${notes.length - 80} of ${40 * 4} killed writes had landed; every note once, with its log entry`);
  });
});
