/**
 * Every path to a task's state, through the CLI and through MCP, against the claim rules `next`
 * applies: a held task moves for its holder; a ready task nobody holds is claimed first (and the
 * claim is logged); a task waiting for its dependencies or for a person's approval of its list, a
 * task another agent holds and a task in review are refused with the rule and the call to make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { changeWithTasks, cli, newBoard, ok, read, snapshot, write } from '../helpers.js';
import { connect } from '../mcp/helpers.js';

interface Path {
  name: string;
  cli: (ref: string) => string[];
  tool: string;
  args: (ref: string) => object;
  /** The status the task has once the path applied. */
  to: string;
}

const PATHS: Path[] = [
  { name: 'complete', cli: (ref) => ['task', 'done', ref], tool: 'agentboard_complete_task', args: (ref) => ({ task_id: ref }), to: 'done' },
  { name: 'progress', cli: (ref) => ['task', 'progress', ref, '--percent', '40', '--message', 'Parser written'], tool: 'agentboard_report_progress', args: (ref) => ({ task_id: ref, percent: 40, message: 'Parser written' }), to: 'in_progress' },
  { name: 'block', cli: (ref) => ['task', 'block', ref, '--reason', 'The schema is undecided'], tool: 'agentboard_report_blocker', args: (ref) => ({ task_id: ref, reason: 'The schema is undecided' }), to: 'blocked' },
  { name: 'update status', cli: (ref) => ['task', 'update', ref, '--status', 'done'], tool: 'agentboard_update_task', args: (ref) => ({ task_id: ref, status: 'done' }), to: 'done' },
  { name: 'submit', cli: (ref) => ['session', 'submit', '--summary', 'Done, with tests', '--task', ref], tool: 'agentboard_submit_for_review', args: (ref) => ({ summary: 'Done, with tests', tasks: [ref] }), to: 'in_review' },
];

/**
 * A board where `open` has its list approved and tasks in every situation, `waiting` has a
 * list a person has not approved yet (require_approval: [tasks]), and `rejected` an approved list
 * whose spec a person rejected afterwards (the change is back at its spec).
 */
async function boardInEverySituation(): Promise<string> {
  const dir = await newBoard();
  write(dir, 'agentd/config.yaml', 'require_approval: [tasks]\n');
  await changeWithTasks(dir, 'open', [
    { title: 'Held by w1', priority: 'urgent' },
    { title: 'Ready', priority: 'low' },
    { title: 'Waits for T4', priority: 'low', depends: ['T4'] },
    { title: 'Dependency', priority: 'low' },
    { title: 'Held by w2', priority: 'urgent' },
    { title: 'In review', priority: 'urgent' },
  ]);
  await changeWithTasks(dir, 'waiting', [{ title: 'Not approved yet' }]);
  await changeWithTasks(dir, 'rejected', [{ title: 'Planned for a spec sent back', priority: 'urgent' }]);
  await ok(dir, ['approve', 'open', 'tasks']);
  await ok(dir, ['approve', 'rejected', 'tasks']);
  for (const [agent, task] of [['w1', 'open/T1'], ['w2', 'open/T5'], ['w3', 'open/T6']]) {
    expect((await ok(dir, ['next', '--as', agent!])).task.task_id).toBe(task);
  }
  await ok(dir, ['session', 'submit', '--as', 'w3', '--summary', 'Finished', '--task', 'open/T6']);
  await ok(dir, ['reject', 'rejected', 'spec', '--feedback', 'Add a scenario for errors.']);
  return dir;
}

interface Outcome {
  error?: { code: string; message: string; next_step: string };
}

type Caller = (path: Path, ref: string, agent: string) => Promise<Outcome>;

const REFUSALS = [
  { situation: 'waits for a dependency', as: 'w1', ref: 'open/T3', code: 'TASK_NOT_READY', says: /waits for T4/, next: /next/ },
  { situation: 'its list awaits a person\'s approval', as: 'w1', ref: 'waiting/T1', code: 'TASK_NOT_READY', says: /approv/, next: /next/ },
  { situation: 'its change\'s spec was rejected', as: 'w1', ref: 'rejected/T1', code: 'TASK_NOT_READY', says: /its change waits for the spec to be revised after rejection/, next: /next/ },
  { situation: 'another agent holds it', as: 'w1', ref: 'open/T5', code: 'TASK_HELD', says: /held by w2/, next: /next/ },
  { situation: 'another agent\'s task is in review', as: 'w1', ref: 'open/T6', code: 'TASK_HELD', says: /held by w3/, next: /next/ },
  { situation: 'its holder\'s own task is in review', as: 'w3', ref: 'open/T6', code: 'TASK_IN_REVIEW', says: /awaiting review/, next: /next/ },
];

async function taskOf(dir: string, ref: string): Promise<any> {
  return (await ok(dir, ['task', 'show', ref])).task;
}

async function claimsLogged(dir: string, ref: string, agent: string): Promise<number> {
  const entries = (await ok(dir, ['log', '--actor', agent])).entries as { action: string; target: string }[];
  return entries.filter((e) => e.action === 'task.claim' && e.target === ref).length;
}

function pathTable(adapter: string, callerFor: (dir: string) => Promise<{ call: Caller; close?: () => Promise<void> }>) {
  describe(`every task-state path through ${adapter}`, () => {
    for (const path of PATHS) {
      describe(path.name, () => {
        let dir: string;
        let call: Caller;
        let close: (() => Promise<void>) | undefined;
        beforeAll(async () => {
          dir = await boardInEverySituation();
          ({ call, close } = await callerFor(dir));
        });
        afterAll(async () => close?.());

        for (const r of REFUSALS) {
          it(`is refused when ${r.situation}, naming the rule and the call to make, and changes nothing`, async () => {
            const before = snapshot(dir);
            const out = await call(path, r.ref, r.as);
            expect(out.error?.code).toBe(r.code);
            expect(out.error?.message).toMatch(r.says);
            expect(out.error?.next_step).toMatch(r.next);
            expect(snapshot(dir)).toEqual(before);
          });
        }

        it('applies to the task the agent holds', async () => {
          expect(await call(path, 'open/T1', 'w1')).toEqual({});
          expect(await taskOf(dir, 'open/T1')).toMatchObject({ status: path.to, assignee: 'w1' });
          expect(await claimsLogged(dir, 'open/T1', 'w1')).toBe(1); // the claim by next, no other
        });

        it('claims a ready task nobody holds first, and logs the claim', async () => {
          expect(await call(path, 'open/T2', 'w4')).toEqual({});
          expect(await taskOf(dir, 'open/T2')).toMatchObject({ status: path.to, assignee: 'w4' });
          expect(await claimsLogged(dir, 'open/T2', 'w4')).toBe(1);
        });
      });
    }

    it('task done twice is harmless', async () => {
      const dir = await boardInEverySituation();
      const { call, close } = await callerFor(dir);
      expect(await call(PATHS[0]!, 'open/T1', 'w1')).toEqual({});
      const before = snapshot(dir);
      expect(await call(PATHS[0]!, 'open/T1', 'w1')).toEqual({});
      expect(snapshot(dir)).toEqual(before);
      await close?.();
    });
  });
}

pathTable('the CLI', async (dir) => ({
  call: async (path, ref, agent) => {
    const r = await cli(dir, [...path.cli(ref), '--as', agent, '--json']);
    expect(r.code).toBe(r.json.ok ? 0 : 1);
    return r.json.ok ? {} : { error: r.json.error };
  },
}));

pathTable('MCP', async (dir) => {
  const mcp = await connect(dir);
  return {
    call: async (path, ref, agent) => {
      const r = await mcp.call(path.tool, { agent_id: agent, ...path.args(ref) });
      return r.isError ? { error: r.error } : {};
    },
    close: mcp.close,
  };
});

describe('an agent working on a task', () => {
  it('takes no second one on any path until it finishes (or blocks) its own; a person may', async () => {
    const dir = await boardInEverySituation();
    const before = snapshot(dir);
    for (const args of [['task', 'done', 'open/T2'], ['task', 'update', 'open/T2', '--status', 'in_progress'], ['task', 'progress', 'open/T2', '--percent', '10', '--message', 'Started']]) {
      const r = await cli(dir, [...args, '--as', 'w1', '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'TASK_NOT_READY', message: "You are working on open/T1; an agent takes one task at a time, so open/T2 is not yours to take now." });
      expect(r.json.error.next_step).toContain('agentboard task done open/T1 --as w1');
    }
    expect(snapshot(dir)).toEqual(before);
    await ok(dir, ['task', 'block', 'open/T1', '--as', 'w1', '--reason', 'Waiting for the schema.']);
    expect((await ok(dir, ['task', 'done', 'open/T2', '--as', 'w1'])).task).toMatchObject({ status: 'done', assignee: 'w1' });
  });
});

describe('the plan of a task list that waits for a person\'s approval', () => {
  it('does not change by an agent (they approve what they were shown); a person may still change it', async () => {
    const dir = await boardInEverySituation();
    const before = snapshot(dir);
    for (const args of [['task', 'add', 'waiting', '--title', 'Sneaked in'], ['task', 'rm', 'waiting/T1'], ['task', 'update', 'waiting/T1', '--title', 'Retitled']]) {
      const r = await cli(dir, [...args, '--as', 'w1', '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'DOCUMENT_SUBMITTED', message: "The task list of waiting waits for a person's approval; its plan (tasks, titles, dependencies) does not change meanwhile." });
      expect(r.json.error.next_step).toContain('agentboard tasks waiting');
    }
    expect(snapshot(dir)).toEqual(before);
    expect((await ok(dir, ['task', 'add', 'waiting', '--title', 'Added by a person'])).task.task_id).toBe('waiting/T2');
  });
});

describe('the tasks of a change whose proposal or spec holds it back', () => {
  it('are not ready, not handed out and counted apart until the document is resubmitted or fixed', async () => {
    const dir = await boardInEverySituation();
    const ready = async (change: string) => ((await ok(dir, ['task', 'list', '--change', change])).tasks as { ready: boolean }[]).map((t) => t.ready);
    expect(await ready('rejected')).toEqual([false]);
    expect((await ok(dir, ['show', 'rejected', 'tasks', '--format', 'fields'])).content.tasks[0].ready).toBe(false);
    expect((await ok(dir, ['status'])).totals.ready).toBe(2); // open/T2 and open/T4
    // w4 takes the rejected spec to revise; w5 and w6 the ready tasks; w7 finds no work, and is told why
    expect((await ok(dir, ['next', '--as', 'w4'])).status).toBe('revise_document');
    expect((await ok(dir, ['next', '--as', 'w5'])).task.task_id).toBe('open/T2');
    expect((await ok(dir, ['next', '--as', 'w6'])).task.task_id).toBe('open/T4');
    const none = await ok(dir, ['next', '--as', 'w7']);
    expect(none.status).toBe('nothing_available');
    expect(none.reasons).toMatchObject({ waiting_on_documents: 1, awaiting_approval: 1 });
    expect(none.message).toContain('1 in changes whose proposal or spec must be revised, fixed or approved first');
    // resubmitted: the work is open again
    await ok(dir, ['spec', 'rejected', '--as', 'w4', '--from', join(dir, 'agentd/changes/rejected/spec.md'), '--notes', 'Added the scenario.']);
    expect(await ready('rejected')).toEqual([true]);
    expect((await ok(dir, ['next', '--as', 'w7'])).task.task_id).toBe('rejected/T1');
  });

  it('are not handed out while its proposal cannot be read, and validate names the file', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'broken-proposal', [{ title: 'One' }]);
    const path = 'agentd/changes/broken-proposal/proposal.md';
    write(dir, path, read(dir, path).replace(/^author: (.*)$/m, 'author: [$1'));
    const none = await ok(dir, ['next', '--as', 'w1']);
    expect(none.status).toBe('nothing_available');
    expect(none.reasons.waiting_on_documents).toBe(1);
    const r = await cli(dir, ['task', 'done', 'broken-proposal/T1', '--as', 'w1', '--json']);
    expect(r.json.error.message).toContain('its change waits for its proposal file to be fixed: it cannot be read');
  });
});
