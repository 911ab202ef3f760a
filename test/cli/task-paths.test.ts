/**
 * Every path to a task's state, through the CLI and through MCP, against the claim rules `next`
 * applies: a held task moves for its holder; a ready task nobody holds is claimed first (and the
 * claim is logged); a task waiting for its dependencies or for a person's approval of its list, a
 * task another agent holds and a task in review are refused with the rule and the call to make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { changeWithTasks, cli, newBoard, ok, read, snapshot, write } from '../helpers.js';
import { connect } from '../mcp/helpers.js';
import { addClone, boardWithRemote, git, gitTry } from '../remote/helpers.js';

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
    expect(none.message).toContain('1 in changes whose proposal, spec or task list must be revised, fixed or approved first');
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

/** A list open to its planner's edits: T1 held by w1, T2 ready, T3 held by w2, T4 in review (w3), T5 done (w4). */
async function openBoard(): Promise<string> {
  const dir = await newBoard();
  await changeWithTasks(dir, 'plan', [
    { title: 'Held by w1', priority: 'urgent' },
    { title: 'Ready', priority: 'low' },
    { title: 'Held by w2', priority: 'urgent' },
    { title: 'In review', priority: 'urgent' },
    { title: 'Done', priority: 'urgent' },
  ]);
  for (const [agent, task] of [['w1', 'plan/T1'], ['w2', 'plan/T3'], ['w3', 'plan/T4'], ['w4', 'plan/T5']]) {
    expect((await ok(dir, ['next', '--as', agent!])).task.task_id).toBe(task);
  }
  await ok(dir, ['session', 'submit', '--as', 'w3', '--summary', 'Finished', '--task', 'plan/T4']);
  await ok(dir, ['task', 'done', 'plan/T5', '--as', 'w4']);
  return dir;
}

describe('an agent\'s update or deletion of a task it does not hold', () => {
  it('follows the claim rules: refused while the agent works on another task, claimed (and logged) otherwise', async () => {
    const dir = await openBoard();
    const before = snapshot(dir);
    const r = await cli(dir, ['task', 'update', 'plan/T2', '--as', 'w1', '--title', 'Renamed', '--priority', 'urgent', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'TASK_NOT_READY', message: 'You are working on plan/T1; an agent takes one task at a time, so plan/T2 is not yours to take now.' });
    expect(r.json.error.next_step).toContain('`agentboard task done plan/T1 --as w1`');
    expect(snapshot(dir)).toEqual(before);
    expect((await ok(dir, ['task', 'update', 'plan/T2', '--as', 'w5', '--priority', 'urgent'])).task).toMatchObject({ status: 'in_progress', assignee: 'w5', priority: 'urgent' });
    expect(await claimsLogged(dir, 'plan/T2', 'w5')).toBe(1);
  });

  it('lets the agent that wrote the list plan its tasks nobody works on, without taking them', async () => {
    const dir = await openBoard();
    await ok(dir, ['task', 'update', 'plan/T2', '--as', 'planner', '--title', 'Ready, renamed']);
    expect(await taskOf(dir, 'plan/T2')).toMatchObject({ title: 'Ready, renamed', status: 'todo', assignee: null });
    expect(await ok(dir, ['task', 'rm', 'plan/T2', '--as', 'planner'])).toEqual({ task_id: 'plan/T2', deleted: true });
    expect(read(dir, 'agentd/changes/plan/tasks.md')).not.toContain('Ready, renamed');
  });

  it('refuses to delete what is not the agent\'s to plan, saying why and what to do, and changes nothing', async () => {
    const dir = await openBoard();
    const refusals = [
      { as: 'zz', ref: 'plan/T2', code: 'TASK_NOT_YOURS', says: 'Task plan/T2 is in the task list planner wrote; an agent deletes only tasks of a list it wrote, before anyone works on them.', next: '`agentboard ask --as zz`' },
      { as: 'planner', ref: 'plan/T3', code: 'TASK_HELD', says: 'Task plan/T3 is held by w2', next: '`agentboard release plan/T3`' },
      { as: 'w3', ref: 'plan/T4', code: 'TASK_IN_REVIEW', says: 'Task plan/T4 was submitted and is awaiting review by a person', next: '`agentboard next --as w3`' },
      { as: 'w1', ref: 'plan/T1', code: 'TASK_IN_PROGRESS', says: 'You are working on plan/T1 (in_progress); a task being worked on is not deleted.', next: '`agentboard task done plan/T1 --as w1`' },
      { as: 'planner', ref: 'plan/T5', code: 'TASK_NOT_READY', says: 'Task plan/T5 is done: w4 completed it at ', next: '`agentboard next --as planner`' },
      { as: 'w4', ref: 'plan/T5', code: 'TASK_NOT_READY', says: 'Task plan/T5 is done: you completed it at ', next: 'Nothing is left to do on it' },
    ];
    const before = snapshot(dir);
    for (const r of refusals) {
      const out = await cli(dir, ['task', 'rm', r.ref, '--as', r.as, '--json']);
      expect(out.code, `${r.as} ${r.ref}`).toBe(1);
      expect(out.json.error.code, `${r.as} ${r.ref}`).toBe(r.code);
      expect(out.json.error.message).toContain(r.says);
      expect(out.json.error.next_step).toContain(r.next);
    }
    expect(snapshot(dir)).toEqual(before);
    // People keep their powers.
    expect(await ok(dir, ['task', 'rm', 'plan/T5'])).toEqual({ task_id: 'plan/T5', deleted: true });
  });
});

describe('task ids', () => {
  it('are never given again within a change, a deleted task\'s neither; without the ledger, never one in the file', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    await ok(dir, ['task', 'rm', 'ids/T2', '--as', 'planner']);
    expect((await ok(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Four'])).task.task_id).toBe('ids/T4');
    const again = await cli(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Again', '--id', 'T3', '--json']);
    expect(again.json.error).toMatchObject({ code: 'TASK_EXISTS', message: 'Task ids/T3 was deleted; its id is not given again.' });
    expect(read(dir, 'agentd/changes/ids/tasks.md')).not.toContain('Again');
    // A checkout without agentd/.runtime/ knows the file, which names the deleted ones.
    expect(read(dir, 'agentd/changes/ids/tasks.md')).toContain('\nretired: [T2, T3]\n');
    rmSync(join(dir, 'agentd/.runtime'), { recursive: true });
    expect((await ok(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Five'])).task.task_id).toBe('ids/T5');
  });

  it('of a list written again without ids pass to no other task: a task keeps its id by its title, a new one gets a free id', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'again', [{ title: 'A' }, { title: 'B' }, { title: 'C' }]);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('again/T1');
    await ok(dir, ['task', 'done', 'again/T1', '--as', 'codex']);
    await ok(dir, ['task', 'note', 'again/T2', 'B: use a trie', '--as', 'planner']);
    await ok(dir, ['reject', 'again', 'tasks', '--feedback', 'Drop A and B, add D.']);
    // written again by a person: an agent's list keeps the done task A
    const out = await ok(dir, ['tasks', 'again', '--input', '-'], { stdin: JSON.stringify({ tasks: [{ title: 'C' }, { title: 'D' }], notes: 'Replanned.' }) });
    expect(out.file).toBe('agentd/changes/again/tasks.md');
    const list = await ok(dir, ['task', 'list', '--change', 'again']);
    expect(list.tasks.map((t: { task_id: string; title: string; status: string; assignee: string | null }) => [t.task_id, t.title, t.status, t.assignee])).toEqual([
      ['again/T3', 'C', 'todo', null],
      ['again/T4', 'D', 'todo', null],
    ]);
    const text = read(dir, 'agentd/changes/again/tasks.md');
    expect(text).toMatch(/^retired: \[T1, T2\]$/m);
    expect(text).not.toContain('B: use a trie');
  });

  /** Every way a task leaves its list, each taking T3 out of the list T1, T2, T3 of change `ids`. */
  const DROPS: { name: string; drop: (dir: string) => Promise<unknown> }[] = [
    { name: 'task rm', drop: (dir) => ok(dir, ['task', 'rm', 'ids/T3', '--as', 'planner']) },
    {
      name: 'the list written again without it',
      drop: async (dir) => {
        await ok(dir, ['reject', 'ids', 'tasks', '--feedback', 'Three is not needed']);
        await ok(dir, ['tasks', 'ids', '--as', 'planner', '--input', write(dir, 'two.json', JSON.stringify({ tasks: [{ title: 'One' }, { title: 'Two' }], notes: 'Dropped Three.' }))]);
      },
    },
    {
      name: "a reviewer's correction",
      drop: async (dir) => {
        const key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
        await ok(dir, ['review-request', 'ids', 'tasks']);
        const fixed = write(dir, 'fixed.md', read(dir, 'agentd/changes/ids/tasks.md').replace(/## T3: [\s\S]*$/, ''));
        await ok(dir, ['correct', 'ids', 'tasks', '--as', 'reviewer-1', '--review-key', key, '--from', fixed, '--notes', 'Three is not needed.']);
      },
    },
    {
      name: "a person's save that retires it",
      drop: async (dir) => {
        const text = read(dir, 'agentd/changes/ids/tasks.md');
        write(dir, 'agentd/changes/ids/tasks.md', text.replace(/## T3: [\s\S]*$/, '').replace('\nnotes:\n', '\nretired: [T3]\nnotes:\n'));
      },
    },
  ];

  it('are those of the branch checked out: a list another branch changed is not taken for a person\'s edit after git switch', async () => {
    const dir = (await boardWithRemote()).clones[0]!;
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'Plan']);
    const main = git(dir, ['branch', '--show-current']);
    const onMain = read(dir, 'agentd/changes/ids/tasks.md');
    // On a branch, T3 goes and a task comes; back on the first branch, a write of T1 changes T1 only.
    git(dir, ['switch', '-q', '-c', 'other']);
    await ok(dir, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    await ok(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Experiment']);
    git(dir, ['commit', '-q', '-am', 'Replan']);
    git(dir, ['switch', '-q', main]);
    expect(read(dir, 'agentd/changes/ids/tasks.md')).toBe(onMain);
    await ok(dir, ['task', 'note', 'ids/T1', 'Started on the index.', '--as', 'worker-1']);
    const after = read(dir, 'agentd/changes/ids/tasks.md');
    expect(after.match(/^## T\d+: .*$/gm)).toEqual(['## T1: One', '## T2: Two', '## T3: Three']);
    expect(after).not.toMatch(/^retired:/m);
    expect(after).toContain('Started on the index.');
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toEqual([]);
    // And back on the branch: its list as it left it, written on as its own.
    git(dir, ['commit', '-q', '-am', 'A note']);
    git(dir, ['switch', '-q', 'other']);
    await ok(dir, ['task', 'note', 'ids/T4', 'Tried it.', '--as', 'worker-1']);
    const there = read(dir, 'agentd/changes/ids/tasks.md');
    expect(there.match(/^## T\d+: .*$/gm)).toEqual(['## T1: One', '## T2: Two', '## T4: Experiment']);
    expect(there).toMatch(/^retired: \[T3\]$/m);
    expect(there).not.toContain('Started on the index.');
  });

  for (const { name, drop } of DROPS) {
    it(`stay taken in a fresh clone once a task left its list by ${name}`, async () => {
      const shared = await boardWithRemote();
      const dir = shared.clones[0]!;
      await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
      await drop(dir);
      const list = read(dir, 'agentd/changes/ids/tasks.md');
      expect(list).not.toContain('## T3:');
      expect(list).toMatch(/^retired: \[T3\]$/m);
      git(dir, ['add', '-A']);
      git(dir, ['commit', '-q', '-m', 'Three is not needed']);
      git(dir, ['push', '-q', 'origin', 'HEAD']);

      // Another machine: the repository as git has it, without this clone's agentd/.runtime/.
      const clone = addClone(shared);
      expect(existsSync(join(clone, 'agentd/.runtime'))).toBe(false);
      expect((await ok(clone, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Four'])).task.task_id).toBe('ids/T4');
      const again = await cli(clone, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Again', '--id', 'T3', '--json']);
      expect(again.json.error).toMatchObject({ code: 'TASK_EXISTS', message: 'Task ids/T3 was deleted; its id is not given again.' });
      expect(read(clone, 'agentd/changes/ids/tasks.md')).toMatch(/^retired: \[T3\]$/m);
      expect((await ok(clone, ['validate', 'ids'])).valid).toBe(true);
    });
  }

  it('are skipped when a list is written again without ids, and one given again is refused, changing nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['task', 'rm', 'ids/T2', '--as', 'planner']);
    await ok(dir, ['reject', 'ids', 'tasks', '--feedback', 'Split One']);
    const before = snapshot(dir);
    const reused = await cli(dir, ['tasks', 'ids', '--as', 'planner', '--input', write(dir, 'reused.json', JSON.stringify({ tasks: [{ id: 'T1', title: 'One' }, { id: 'T2', title: 'Split off' }], notes: 'n' })), '--json']);
    expect(reused.code).toBe(1);
    expect(reused.json.error.code).toBe('VALIDATION_FAILED');
    expect(reused.json.error.message).toContain('task T2 has the id of a task deleted from this list (its frontmatter\'s "retired:" names T2): the activity log, notes and reviews that name T2 mean the deleted task [tasks.id.retired]');
    expect(reused.json.error.details.findings[0].fix).toBe('give this task a new id, like T4 (the id of a deleted task is never given again), and update the depends that name it');
    delete before['reused.json'];
    const after = snapshot(dir);
    delete after['reused.json'];
    expect(after).toEqual(before);

    const written = await ok(dir, ['tasks', 'ids', '--as', 'planner', '--input', write(dir, 'four.json', JSON.stringify({ tasks: [{ title: 'One' }, { title: 'Split off' }, { title: 'Three' }, { title: 'Four' }], notes: 'n' }))]);
    expect(written.task_ids).toEqual(['ids/T1', 'ids/T4', 'ids/T3', 'ids/T5']);
    expect(read(dir, 'agentd/changes/ids/tasks.md')).toMatch(/^retired: \[T2\]$/m);
  });

  it("given again in a reviewer's correction is refused at the input's line, naming the correction as the call to make again", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
    await ok(dir, ['review-request', 'ids', 'tasks']);
    await ok(dir, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    const text = `${(await cli(dir, ['show', 'ids', 'tasks'])).stdout.trimEnd()}\n\n## T3: Again\n\n\`\`\`yaml\nstatus: todo\n\`\`\`\n\nBack.\n`;
    const file = write(dir, 'again.md', text);
    const before = snapshot(dir);
    const r = await cli(dir, ['correct', 'ids', 'tasks', '--as', 'rv', '--review-key', key, '--from', file, '--notes', 'n', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('VALIDATION_FAILED');
    // The call to make again is the command as given, its --from and options too; the key as a placeholder.
    expect(r.json.error.next_step).toBe(`Fix this and call \`agentboard correct ids tasks --as rv --review-key <review-key> --from ${file} --notes n\` again.`);
    expect(r.stdout).not.toContain(key);
    const line = text.split('\n').indexOf('## T3: Again') + 1;
    expect(r.json.error.details.findings).toMatchObject([{ rule: 'tasks.id.retired', file, line }]);
    expect(snapshot(dir)).toEqual(before);
  });
});

/** A shared board whose clone `a` planned change ids (One, Two, Three) and pushed it, and a clone `b` made after. */
async function twoClonesWithAPlan(): Promise<{ a: string; b: string }> {
  const shared = await boardWithRemote();
  const [a] = shared.clones as [string];
  await changeWithTasks(a, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
  git(a, ['add', '-A']);
  git(a, ['commit', '-q', '-m', 'Plan']);
  git(a, ['push', '-q', 'origin', 'HEAD']);
  return { a, b: addClone(shared) };
}

describe("a person's removal of a task by hand", () => {
  const LIST = 'agentd/changes/ids/tasks.md';
  const withoutT3 = (text: string) => text.replace(/## T3: [\s\S]*?(?=## T4: |$)/, '');

  it('is undone and reported when the save only lacks the task; its id stays taken', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    write(dir, LIST, withoutT3(read(dir, LIST)));
    expect((await ok(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Four'])).task.task_id).toBe('ids/T4');
    expect(read(dir, LIST)).toMatch(/## T2: Two[\s\S]*## T3: Three[\s\S]*## T4: Four/);
    expect(read(dir, LIST)).not.toContain('retired:');
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toMatchObject([{ item: 'T3', part: 'removed', kept: 'agentboard' }]);
  });

  it('is followed when the save also retires its id, and the id is never given again', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    write(dir, LIST, withoutT3(read(dir, LIST)).replace('\nnotes:\n', '\nretired: [T3]\nnotes:\n'));
    expect((await ok(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Four'])).task.task_id).toBe('ids/T4');
    const list = read(dir, LIST);
    expect(list).not.toContain('## T3:');
    expect(list).toMatch(/^retired: \[T3\]$/m);
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toEqual([]);
    expect((await ok(dir, ['validate', 'ids'])).valid).toBe(true);
  });

  it('from a buffer loaded before the task was deleted keeps it deleted and its id retired', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const buffer = read(dir, LIST);
    await ok(dir, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    // The person's editor still shows T3 and no retired line; they retitle T1 and save.
    write(dir, LIST, buffer.replace('## T1: One', '## T1: One, in full'));
    expect((await ok(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Four'])).task.task_id).toBe('ids/T4');
    const list = read(dir, LIST);
    expect(list).toContain('## T1: One, in full');
    expect(list).not.toContain('## T3:');
    expect(list).toMatch(/^retired: \[T3\]$/m);
    rmSync(join(dir, 'agentd/.runtime'), { recursive: true });
    expect((await ok(dir, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Five'])).task.task_id).toBe('ids/T5');
  });

  it('pulled with git from another clone is followed, not undone as a hand edit', async () => {
    const { a, b } = await twoClonesWithAPlan();
    await ok(b, ['task', 'progress', 'ids/T1', '--as', 'codex', '--percent', '10', '--message', 'Started']);
    git(b, ['commit', '-q', '-am', 'Progress']);

    await ok(a, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    git(a, ['commit', '-q', '-am', 'Three is not needed']);
    git(a, ['push', '-q', 'origin', 'HEAD']);
    // b's ledger remembers T3; the pulled list says T3 was deleted.
    git(b, ['pull', '-q', '--no-rebase', '--no-edit', 'origin', 'HEAD']);
    expect((await ok(b, ['task', 'add', 'ids', '--as', 'planner', '--title', 'Four'])).task.task_id).toBe('ids/T4');
    const list = read(b, LIST);
    expect(list).not.toContain('## T3:');
    expect(list).toMatch(/^retired: \[T3\]$/m);
    expect(list).toMatch(/## T1: One[\s\S]*progress: 10/);
    expect((await ok(b, ['conflicts', 'list'])).conflicts).toEqual([]);
  });
});

describe('validate', () => {
  it('reports a task whose id its list retires, with what to do', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    // A person pastes a task in by hand under the deleted one's id.
    const list = read(dir, 'agentd/changes/ids/tasks.md');
    write(dir, 'agentd/changes/ids/tasks.md', `${list}\n## T3: Pasted\n\n\`\`\`yaml\nstatus: todo\npriority: medium\n\`\`\`\n`);
    const r = await cli(dir, ['validate', 'ids', '--json']);
    expect(r.code).toBe(1);
    const line = read(dir, 'agentd/changes/ids/tasks.md').split('\n').indexOf('## T3: Pasted') + 1;
    expect(r.json.data.changes[0].findings).toContainEqual({
      level: 'error',
      file: 'agentd/changes/ids/tasks.md',
      line,
      rule: 'tasks.id.retired',
      message: 'task T3 has the id of a task deleted from this list (its frontmatter\'s "retired:" names T3): the activity log, notes and reviews that name T3 mean the deleted task',
      fix: 'give this task a new id, like T4 (the id of a deleted task is never given again), and update the depends that name it',
    });
  });
});

describe('a task whose id its list retires, as a merge of two clones can leave it', () => {
  it('keeps the whole list from being handed out or written until a person renames the task, as an id used twice does', async () => {
    const shared = await boardWithRemote();
    const [a] = shared.clones as [string];
    await changeWithTasks(a, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    // One clone deleted T3 while the other kept it: the merged list retires T3 and still holds it.
    const list = 'agentd/changes/ids/tasks.md';
    write(a, list, read(a, list).replace('\nnotes:\n', '\nretired: [T3]\nnotes:\n'));
    git(a, ['add', '-A']);
    git(a, ['commit', '-q', '-m', 'Merged']);
    git(a, ['push', '-q', 'origin', 'HEAD']);
    // In this clone and in a fresh one (no ledger: the list is read by the quick scan).
    for (const dir of [a, addClone(shared)]) {
      const line = read(dir, list).split('\n').indexOf('## T3: Three') + 1;
      const validate = await cli(dir, ['validate', 'ids', '--json']);
      expect(validate.code).toBe(1);
      expect(validate.json.data.changes[0].findings).toContainEqual(expect.objectContaining({ file: list, line, rule: 'tasks.id.retired' }));
      const text = read(dir, list);
      expect(await ok(dir, ['next', '--as', 'w9'])).toMatchObject({ status: 'nothing_available', reasons: { broken_task_lists: ['ids'] } });
      const before = snapshot(dir);
      for (const ref of ['ids/T3', 'ids/T1']) {
        const done = await cli(dir, ['task', 'done', ref, '--as', 'w9', '--json']);
        expect(done.code).toBe(1);
        expect(done.json.error.message).toContain(`${list}:${line}: task T3 has the id of a task deleted from this list`);
      }
      expect(snapshot(dir)).toEqual(before);
      expect(read(dir, list)).toBe(text);
    }
  });
});

describe('a task list holding an unresolved git merge conflict', () => {
  it('is an error with its file and lines; its tasks are not handed out and nothing writes to it', async () => {
    const { a, b } = await twoClonesWithAPlan();
    await ok(a, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    git(a, ['commit', '-q', '-am', 'Three is not needed']);
    git(a, ['push', '-q', 'origin', 'HEAD']);
    await ok(b, ['task', 'progress', 'ids/T3', '--as', 'w1', '--percent', '10', '--message', 'Started']);
    git(b, ['commit', '-q', '-am', 'w1 on T3']);
    expect(gitTry(b, ['pull', '-q', '--no-rebase', '--no-edit', 'origin', 'HEAD']).code).toBe(1);

    const list = 'agentd/changes/ids/tasks.md';
    const lines = read(b, list).split('\n');
    const start = lines.findIndex((l) => l.startsWith('<<<<<<< ')) + 1;
    const end = lines.findIndex((l) => l.startsWith('>>>>>>> ')) + 1;
    expect(start).toBeGreaterThan(0);
    const message = `${list}:${start}: unresolved git merge conflict (the markers <<<<<<<, ======= and >>>>>>> on lines ${start}–${end}).`;
    const fix = `Resolve it in ${list} (keep one side or both), remove the markers, then git add ${list}.`;
    const validate = await cli(b, ['validate', 'ids', '--json']);
    expect(validate.code).toBe(1);
    expect(validate.json.data.changes[0].findings).toContainEqual(expect.objectContaining({ file: list, line: start, message, fix }));

    const before = snapshot(b);
    const next = await cli(b, ['next', '--as', 'w5', '--json']);
    expect(next.json.data).toMatchObject({ status: 'nothing_available' });
    expect(next.stderr + JSON.stringify(next.json)).toContain(`${list}:${start}: unresolved git merge conflict (the markers <<<<<<<, ======= and >>>>>>> on lines ${start}–${end}); it was left out`);
    for (const args of [['task', 'done', 'ids/T1', '--as', 'w5'], ['task', 'add', 'ids', '--as', 'planner', '--title', 'Four'], ['show', 'ids', 'tasks']]) {
      const refused = await cli(b, [...args, '--json']);
      expect(refused.code).toBe(1);
      // a person is told how to resolve it; an agent, to leave the file to a person
      const agent = args.includes('--as') ? args[args.indexOf('--as') + 1] : null;
      expect(refused.json.error).toMatchObject({ message, next_step: agent ? expect.stringMatching(new RegExp(`^Do not edit, restore or delete board files yourself\\..*agentboard ask --as ${agent}`)) : fix });
    }
    expect(snapshot(b)).toEqual(before);
  });
});

describe('a task the agent completed', () => {
  it('is reported done, by whom, with the next step, on every later path', async () => {
    const dir = await boardInEverySituation();
    await ok(dir, ['task', 'done', 'open/T1', '--as', 'w1']);
    const before = snapshot(dir);
    for (const path of PATHS.slice(1)) {
      const r = await cli(dir, [...path.cli('open/T1'), '--as', 'w1', '--json']);
      expect(r.code, path.name).toBe(1);
      expect(r.json.error.message, path.name).toMatch(/^Task open\/T1 is done: you completed it at \S+\. A done task stays as it is, so you cannot [a-z ]+ it\.$/);
      expect(r.json.error.next_step, path.name).toBe('Nothing is left to do on it: leave it out, and take your next work with `agentboard next --as w1`. If it must be worked again, ask a person to reopen it (`agentboard ask --as w1` giving `--question` and `--default-action`).');
    }
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("a person's status change of a task an agent holds", () => {
  it('records the person as who made it done, in the file, task show and the log; the agent is named as who worked on it, and its claim ends', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ppl', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }, { title: 'Four' }]);
    for (const agent of ['w1', 'w2', 'w3']) await ok(dir, ['next', '--as', agent]);
    await ok(dir, ['task', 'progress', 'ppl/T1', '--as', 'w1', '--percent', '60', '--message', 'Parser written']);
    const claimedAt = (await ok(dir, ['task', 'show', 'ppl/T1'])).task.claimed_at;
    // the person's command acts as human:tester, both ways of marking it done
    expect((await ok(dir, ['task', 'update', 'ppl/T1', '--status', 'done'])).task).toMatchObject({ status: 'done', assignee: 'human:tester' });
    expect((await ok(dir, ['task', 'done', 'ppl/T2', '--as', 'human:tester'])).task).toMatchObject({ status: 'done', assignee: 'human:tester' });

    const block = read(dir, 'agentd/changes/ppl/tasks.md').split('## T2:')[0]!.split('## T1:')[1]!;
    expect(block).toContain('status: done\n');
    expect(block).toContain('assignee: "human:tester"\n');
    expect(block).not.toContain('claimed_at:');
    expect(block).toContain(`text: "Marked done while w1 held it (claimed ${claimedAt})."`);
    const shown = await ok(dir, ['task', 'show', 'ppl/T1']);
    expect(shown.held_by).toBeNull();
    expect(shown.task).toMatchObject({ assignee: 'human:tester', claimed_at: null, progress: 100 });
    expect(shown.task.notes).toEqual([{ author: 'human:tester', at: expect.any(String), text: `Marked done while w1 held it (claimed ${claimedAt}).` }]);
    expect((await cli(dir, ['task', 'show', 'ppl/T1'])).stdout).toContain('· done by human:tester');
    const log = (await ok(dir, ['log', '--change', 'ppl'])).entries.slice(0, 2).map((e: any) => [e.actor, e.action, e.summary]);
    expect(log).toEqual([
      ['human:tester', 'task.done', 'completed ppl/T2 (w2 held it)'],
      ['human:tester', 'task.update', 'updated ppl/T1 (status done; w1 held it)'],
    ]);

    // the agents are not credited, and their claims are over: told who completed it, they get other work
    expect((await ok(dir, ['agent', 'show', 'w1'])).completed_tasks).toBe(0);
    const late = await cli(dir, ['task', 'progress', 'ppl/T1', '--as', 'w1', '--percent', '90', '--message', 'Tests', '--json']);
    expect(late.json.error).toMatchObject({ code: 'TASK_NOT_READY', message: expect.stringContaining('Task ppl/T1 is done: human:tester completed it') });
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('ppl/T4');

    // put back in the pool by a person: the log names whose claim ended, and the task is ready again
    await ok(dir, ['task', 'update', 'ppl/T3', '--status', 'todo']);
    expect((await ok(dir, ['log', '--change', 'ppl'])).entries[0]).toMatchObject({ actor: 'human:tester', action: 'task.update', summary: 'updated ppl/T3 (status todo; w3 held it)' });
    expect((await ok(dir, ['task', 'show', 'ppl/T3'])).task).toMatchObject({ status: 'todo', assignee: null, ready: true });
    expect((await ok(dir, ['next', '--as', 'w3'])).task.task_id).toBe('ppl/T3');
  });

  it('approved from review stays the work of the agent that submitted it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rvw', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'w1']);
    await ok(dir, ['session', 'submit', '--as', 'w1', '--summary', 'Done, with tests', '--task', 'rvw/T1']);
    await ok(dir, ['approve', 'rvw/T1']);
    expect((await ok(dir, ['task', 'show', 'rvw/T1'])).task).toMatchObject({ status: 'done', assignee: 'w1', notes: [] });
    expect((await ok(dir, ['agent', 'show', 'w1'])).completed_tasks).toBe(1);
  });
});

describe('the claim rules on the paths beside next', () => {
  it('bring a blocked task back to work only while the agent works on no other task', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'two', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'a1']);
    await ok(dir, ['task', 'block', 'two/T1', '--as', 'a1', '--reason', 'Waiting for the schema.']);
    expect((await ok(dir, ['next', '--as', 'a1'])).task.task_id).toBe('two/T2');
    const before = snapshot(dir);
    const r = await cli(dir, ['task', 'unblock', 'two/T1', '--as', 'a1', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'TASK_IN_PROGRESS', message: 'You are working on two/T2; an agent works on one task at a time, so two/T1 stays blocked for now.' });
    expect(snapshot(dir)).toEqual(before);
    await ok(dir, ['task', 'done', 'two/T2', '--as', 'a1']);
    expect((await ok(dir, ['task', 'unblock', 'two/T1', '--as', 'a1'])).task.status).toBe('in_progress');
  });

  it("take nothing new while an agent's submitted work awaits review, as next hands out nothing then", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rev', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'a1']);
    await ok(dir, ['session', 'submit', '--as', 'a1', '--summary', 'One is done, with tests', '--task', 'rev/T1']);
    const before = snapshot(dir);
    for (const args of [
      ['task', 'progress', 'rev/T2', '--percent', '10', '--message', 'Started'],
      ['task', 'done', 'rev/T2'],
      ['task', 'update', 'rev/T2', '--status', 'in_progress'],
    ]) {
      const r = await cli(dir, [...args, '--as', 'a1', '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error.code).toBe('TASK_NOT_READY');
      expect(r.json.error.message).toBe('Your submitted work (rev/T1) is awaiting review; nothing new is yours to take until a person decides, so rev/T2 is not yours to take now.');
      expect(r.json.error.next_step).toContain('agentboard next --as a1');
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it('move a task to review or blocked only with what those calls take, and claim nothing for the status a task has', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'upd', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'u1']);
    const before = snapshot(dir);
    const review = await cli(dir, ['task', 'update', 'upd/T1', '--as', 'u1', '--status', 'in_review', '--json']);
    expect(review.json.error).toMatchObject({ code: 'INVALID_TRANSITION', message: 'Task upd/T1 goes to review when it is submitted, with the summary (and pull request) the person reviews.' });
    expect(review.json.error.next_step).toContain('agentboard session submit --task upd/T1 --as u1');
    const blocked = await cli(dir, ['task', 'update', 'upd/T1', '--as', 'u1', '--status', 'blocked', '--json']);
    expect(blocked.json.error).toMatchObject({ code: 'INVALID_TRANSITION', message: 'Task upd/T1 is blocked with the reason it is blocked.' });
    expect(blocked.json.error.next_step).toContain('agentboard task block upd/T1 --as u1');
    const todo = await ok(dir, ['task', 'update', 'upd/T2', '--as', 'u2', '--status', 'todo']);
    expect(todo).toMatchObject({ changed: false, task: { task_id: 'upd/T2', status: 'todo' } });
    expect(snapshot(dir)).toEqual(before);
  });

  it("refuse to complete another agent's done task, and keep the note its own agent sends again", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'fin', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'b1']);
    await ok(dir, ['task', 'done', 'fin/T1', '--as', 'b1']);
    const before = snapshot(dir);
    const other = await cli(dir, ['task', 'done', 'fin/T1', '--as', 'c9', '--json']);
    expect(other.code).toBe(1);
    expect(other.json.error.code).toBe('TASK_NOT_READY');
    expect(other.json.error.message).toContain('Task fin/T1 is done: b1 completed it');
    expect(snapshot(dir)).toEqual(before);
    expect(await ok(dir, ['task', 'done', 'fin/T1', '--as', 'b1'])).toMatchObject({ changed: false });
    expect(snapshot(dir)).toEqual(before);
    expect(await ok(dir, ['task', 'done', 'fin/T1', '--as', 'b1', '--note', 'Also covered the empty case.'])).toMatchObject({ changed: true });
    expect((await ok(dir, ['task', 'show', 'fin/T1'])).task.notes.map((n: { author: string; text: string }) => [n.author, n.text])).toEqual([['b1', 'Also covered the empty case.']]);
  });
});

describe('next with a task list sent back', () => {
  it('hands out none of its tasks and says why', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rej', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['reject', 'rej', 'tasks', '--feedback', 'Split T1 in two.']);
    // another agent took the list up for revision
    expect((await ok(dir, ['next', '--as', 'planner2'])).status).toBe('revise_document');
    const r = await ok(dir, ['next', '--as', 'fresh']);
    expect(r.status).toBe('nothing_available');
    expect(r.reasons).toMatchObject({ waiting_on_documents: 3, awaiting_approval: 0 });
    expect(r.message).toBe('No task is available for you now (3 in changes whose proposal, spec or task list must be revised, fixed or approved first). Call this again later.');
  });
});

describe('a task a person took out of the list by hand', () => {
  it('is named by validate and status, with what the next write does and how to take it out for good', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'cut', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const path = 'agentd/changes/cut/tasks.md';
    const text = read(dir, path);
    // T3 cut out, and T2's heading one level down (it reads as part of T1's description now)
    write(dir, path, text.replace(/\n## T3: [\s\S]*$/, '\n').replace('## T2: Two', '### T2: Two'));
    const v = await ok(dir, ['validate', 'cut']);
    const missing = v.changes[0].findings.filter((f: any) => f.rule === 'tasks.missing.by_hand');
    expect(missing.map((f: any) => [f.level, f.message])).toEqual([
      ['warning', 'task T2 is not in the file since a hand edit (taken out, or its "## T2: Title" heading changed), so agentboard\'s next write of the list puts it back'],
      ['warning', 'task T3 is not in the file since a hand edit (taken out, or its "## T3: Title" heading changed), so agentboard\'s next write of the list puts it back'],
    ]);
    expect(missing[1].fix).toBe('to take it out, have a person run `agentboard task rm cut/T3` (or name T3 under "retired:"); otherwise put its block back as "## T3: Title"');
    const s = await ok(dir, ['status']);
    expect(s.problems.filter((f: any) => f.rule === 'tasks.missing.by_hand').map((f: any) => f.message.slice(0, 7))).toEqual(['task T2', 'task T3']);
    // a person takes T3 out for good: nothing is reported any more
    await ok(dir, ['task', 'rm', 'cut/T3']);
    expect((await ok(dir, ['validate', 'cut'])).changes[0].findings.filter((f: any) => f.rule === 'tasks.missing.by_hand')).toEqual([]);
  });
});

describe('a task list written again without a done task', () => {
  it('is refused to an agent, with who did it and nothing written; a person may drop it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'redo', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['task', 'done', 'redo/T3', '--as', 'w2']);
    await ok(dir, ['reject', 'redo', 'tasks', '--feedback', 'Split One.']);
    const input = write(dir, 'again.json', JSON.stringify({ tasks: [{ id: 'T1', title: 'One' }, { id: 'T2', title: 'Two' }], notes: 'Rewritten.' }));
    const before = snapshot(dir);
    const refused = await cli(dir, ['tasks', 'redo', '--as', 'planner', '--input', input, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json.error.message).toBe('Task redo/T3 is done by w2; the new task list would drop it, and a done task stays on the board.');
    expect(snapshot(dir)).toEqual(before);
    // with T3 kept, the list is written and T3 stays done by w2
    await ok(dir, ['tasks', 'redo', '--as', 'planner', '--input', write(dir, 'kept.json', JSON.stringify({ tasks: [{ id: 'T1', title: 'One' }, { id: 'T2', title: 'Two' }, { id: 'T3', title: 'Three' }], notes: 'Kept.' }))]);
    expect((await ok(dir, ['task', 'show', 'redo/T3'])).task).toMatchObject({ status: 'done', assignee: 'w2' });
    // a person may take it out
    await ok(dir, ['reject', 'redo', 'tasks', '--feedback', 'Drop Three.']);
    await ok(dir, ['tasks', 'redo', '--input', input]);
    expect(read(dir, 'agentd/changes/redo/tasks.md')).not.toContain('## T3');
  });
});

describe('a task whose heading a person moved a level down', () => {
  it('is put back by the next write, and its text leaves the description of the task before it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'demoted', [{ title: 'One', description: 'Do one.' }, { title: 'Two', description: 'Do two.' }, { title: 'Three', description: 'Do three.' }]);
    const path = 'agentd/changes/demoted/tasks.md';
    const written = read(dir, path);
    write(dir, path, written.replace('## T3: Three', '### T3: Three'));
    await ok(dir, ['next', '--as', 'a']);
    const after = read(dir, path);
    expect(after.match(/T3: Three/g)).toHaveLength(1);
    expect(after).toContain('\n## T3: Three\n');
    expect((await ok(dir, ['task', 'show', 'demoted/T2'])).task.description).toBe('Do two.');
    expect((await ok(dir, ['task', 'show', 'demoted/T3'])).task.description).toBe('Do three.');
    // only T1's block (claimed) differs from what agentboard wrote before the edit
    const claimedBlock = /## T1: One\n\n```yaml\n[^`]*```/;
    expect(after.replace(claimedBlock, '').replace(/^updated: .*$/m, '')).toBe(written.replace(claimedBlock, '').replace(/^updated: .*$/m, ''));
  });
});

describe("a task list whose spacing a person changed by hand", () => {
  it('keeps the frontmatter, blank lines and end of the file as written when agents claim, complete and add tasks', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'spaced', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const path = 'agentd/changes/spaced/tasks.md';
    // trailing spaces in the frontmatter and the title, two more blank lines before T2, three at the end
    const edited = read(dir, path).replace(/^(revision: 1)$/m, '$1   ').replace(/^(# Tasks: spaced)$/m, '$1  ').replace('\n## T2', '\n\n\n## T2') + '\n\n\n';
    write(dir, path, edited);
    await ok(dir, ['next', '--as', 'a']);
    const claimed = read(dir, path);
    // only T1's block changed
    expect(claimed.replace(/(## T1: One\n\n```yaml\n)[^`]*```/, '$1```')).toBe(edited.replace(/(## T1: One\n\n```yaml\n)[^`]*```/, '$1```'));
    expect(claimed).toMatch(/^assignee: a$/m);
    await ok(dir, ['task', 'done', 'spaced/T1', '--as', 'a']);
    await ok(dir, ['next', '--as', 'b']);
    await ok(dir, ['task', 'add', 'spaced', '--title', 'Four', '--description', 'Do four.', '--as', 'planner']);
    const after = read(dir, path);
    expect(after).toMatch(/^revision: 1 {3}$/m);
    expect(after).toMatch(/^# Tasks: spaced {2}$/m);
    expect(after).toMatch(/```\n\n\n\n## T2: Two/);
    expect(after).toMatch(/\n## T4: Four\n[\s\S]*\n\n\n\n$/);
    expect(after).toMatch(/^updated: (?!.*\s$)/m);
    expect((await ok(dir, ['validate', 'spaced'])).valid).toBe(true);
  });
});

describe('a task list with an error in one task', () => {
  it('shows none of its tasks ready, as next hands none out', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'flawed', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/flawed/tasks.md';
    write(dir, path, read(dir, path).replace('priority: medium', 'priority: huge'));
    const listed = await ok(dir, ['task', 'list', '--change', 'flawed']);
    expect(listed.tasks.map((t: any) => [t.task_id, t.ready])).toEqual([['flawed/T1', false], ['flawed/T2', false]]);
    expect((await ok(dir, ['task', 'list', '--ready'])).tasks).toEqual([]);
    expect((await ok(dir, ['status'])).totals.ready).toBe(0);
    expect((await ok(dir, ['task', 'show', 'flawed/T2'])).task.ready).toBe(false);
    expect((await ok(dir, ['next', '--as', 'a'])).status).toBe('nothing_available');
    // fixed by hand: ready again
    write(dir, path, read(dir, path).replace('priority: huge', 'priority: high'));
    expect((await ok(dir, ['task', 'list', '--ready'])).tasks.map((t: any) => t.task_id)).toEqual(['flawed/T1', 'flawed/T2']);
  });
});
