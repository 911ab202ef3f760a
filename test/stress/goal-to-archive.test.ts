/**
 * End to end with real processes: a goal becomes an archived change through a planner, three
 * workers in their own worktrees, a reviewer, a NEEDS_FIX round with its fix task, and a person's
 * decisions; finished branches merged in dependency order.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok } from '../helpers.js';
import { fakeBoard, git, runIds, startRun, until } from '../engine/helpers.js';

const PLAN = [
  { title: 'Index the titles' },
  { title: 'Index the descriptions' },
  { title: 'Parse the query' },
  { title: 'Rank the results', depends: ['T1', 'T2'] },
  { title: 'Show the results', depends: ['T3', 'T4'] },
];

describe('a goal to an archived change', () => {
  it('plans, works with three workers, fixes what the review found, merges in dependency order, and is archived by a person', async () => {
    const board = await fakeBoard({ config: 'require_approval: [spec]', scenario: { spec: ['invalid', 'valid'], plan: PLAN, review: ['needs_fix', 'approved'], usage: true } });
    const live = startRun(board.dir, ['add-search', '--goal', 'Let people search the board', '--workers', '3', '--merge', '--wait']);

    // A person approves the spec from another terminal while the run waits.
    await until('the spec to wait for a person', () => live.events.some((e) => e.type === 'waiting_on_person'), 60_000);
    expect((await ok(board.dir, ['approve', 'add-search', 'spec'])).status).toBe('approved');
    expect(await live.done).toBe(0);
    const events = live.events;
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished', next_steps: ['agentboard approve add-search review', 'agentboard archive add-search'] });

    // Planning: the invalid spec was refused once, then written; the tasks followed the approval.
    expect(events.filter((e) => e.type === 'phase.refused').map((e) => e.document)).toEqual(['spec']);
    expect(events.filter((e) => e.type === 'phase.validated').map((e) => e.document)).toEqual(['proposal', 'spec', 'tasks', 'review', 'review']);

    // Every task claimed once, by the workers of the run, each on a branch of its own.
    const claims = events.filter((e) => e.type === 'task.claimed');
    const ids = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6'].map((t) => `add-search/${t}`);
    expect(claims.map((e) => e.task_id).sort()).toEqual(ids);
    expect(new Set(claims.map((e) => e.agent_id))).toEqual(new Set(['fake-w1', 'fake-w2', 'fake-w3']));
    const logged = (await ok(board.dir, ['log', '--change', 'add-search', '--limit', '500'])).entries.filter((e: any) => e.action === 'task.claim');
    expect(logged.map((e: any) => e.target).sort()).toEqual(ids);
    const branches = git(board.dir, ['branch', '--list', 'agentboard/*', '--format=%(refname:short)']).trim().split('\n').sort();
    expect(branches).toEqual(ids.map((id) => `agentboard/${id}`));
    const tasks = (await ok(board.dir, ['show', 'add-search', 'tasks', '--format', 'fields'])).content.tasks;
    for (const t of tasks) expect(t).toMatchObject({ status: 'done', branch: `agentboard/${t.task_id}` });

    // The review's High issue became a fix task linked to round 1; round 2 approved.
    const fix = tasks.find((t: any) => t.id === 'T6');
    expect(fix).toMatchObject({ title: 'Fix: Empty query crashes', review_round: 1, priority: 'high' });
    expect(events.find((e) => e.type === 'review.fix_tasks')).toMatchObject({ round: 1, verdict: 'NEEDS_FIX', task_ids: ['add-search/T6'] });

    // --merge: every branch merged into the current branch, a task after the tasks it depends on.
    const merged = events.filter((e) => e.type === 'merge.done').map((e) => e.task_id.split('/')[1]);
    expect(merged.slice(0, 5).sort()).toEqual(['T1', 'T2', 'T3', 'T4', 'T5']);
    expect(merged[5]).toBe('T6');
    const at = (t: string) => merged.indexOf(t);
    expect(at('T4')).toBeGreaterThan(Math.max(at('T1'), at('T2')));
    expect(at('T5')).toBeGreaterThan(Math.max(at('T3'), at('T4')));
    const history = git(board.dir, ['log', '--first-parent', '--reverse', '--format=%s']).trim().split('\n');
    expect(history.filter((s) => s.startsWith('Merge ')).map((s) => s.split(' ')[1]!.split('/')[2]!.replace(/:$/, ''))).toEqual(merged);
    for (const t of ['T1', 'T2', 'T3', 'T4', 'T5', 'T6']) expect(readFileSync(join(board.dir, 'work', `${t}.txt`), 'utf8')).toMatch(new RegExp(`^${t} done by fake-w\\d\\n$`));

    // runs show lists every invocation, each with its transcript.
    const [runId] = runIds(board.dir);
    const shown = await ok(board.dir, ['runs', 'show', runId!]);
    expect(shown.invocations).toHaveLength(events.filter((e) => e.type === 'invocation.started').length);
    expect(shown.invocations.map((i: any) => i.n)).toEqual(shown.invocations.map((_: unknown, k: number) => k + 1));
    expect(shown.run.invocations).toBe(shown.invocations.length);
    for (const i of shown.invocations) expect(existsSync(join(board.dir, i.transcript))).toBe(true);
    expect(shown.invocations.filter((i: any) => i.role === 'worker').map((i: any) => i.task_id).sort()).toEqual(ids);
    expect(shown.run.usage.cost_usd).toBeCloseTo(0.0125 * shown.invocations.length, 6);

    // The person's decisions: approve the review, archive the change.
    expect((await ok(board.dir, ['approve', 'add-search', 'review'])).status).toBe('approved');
    const archived = await ok(board.dir, ['archive', 'add-search']);
    expect(existsSync(join(board.dir, archived.archived_to, 'REVIEW.md'))).toBe(true);
    const decisions = (await ok(board.dir, ['log', '--actor', 'human:tester', '--limit', '500'])).entries.map((e: any) => e.action);
    expect(decisions).toEqual(expect.arrayContaining(['document.approve', 'change.archive', 'task.add', 'task.update', 'reviewer.add', 'reviewer.remove']));
    // The reviewer's key was made for the run and revoked at its end.
    expect(JSON.parse(readFileSync(join(board.dir, 'agentd/.runtime/state.json'), 'utf8')).reviewers).toEqual({});
  });
});
