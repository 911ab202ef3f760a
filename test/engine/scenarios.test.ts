/**
 * The fake agent's scenarios against the real engine, the real `agentboard mcp` and real git:
 * what the run does when an agent gets a document wrong, hangs, crashes, stops early, writes
 * files, and reports its usage.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, ok } from '../helpers.js';
import { agentInvocations, alive, fakeBoard, git, hangs, prompt, run, runIds, runRecord } from './helpers.js';

describe('agentboard run with a scripted agent', () => {
  it('runs the planner again with the findings of a refused spec, until it is valid', async () => {
    const board = await fakeBoard({ scenario: { spec: ['invalid', 'valid'] } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'spec']);
    expect(r.code).toBe(0);
    const types = r.events.map((e) => `${e.type}${e.document ? `:${e.document}` : ''}`);
    expect(types).toEqual([
      'run.started',
      'invocation.started',
      'tool.called',
      'invocation.finished',
      'phase.validated:proposal',
      'invocation.started',
      'tool.called',
      'invocation.finished',
      'phase.refused:spec',
      'invocation.started',
      'tool.called',
      'invocation.finished',
      'phase.validated:spec',
      'run.finished',
    ]);
    const refused = r.events.find((e) => e.type === 'phase.refused');
    expect(refused).toMatchObject({ role: 'planner', agent_id: 'fake-planner', phase: 'spec', attempt: 1 });
    expect(refused.findings[0]).toMatchObject({ source: 'call', tool: 'agentboard_create_spec', code: 'INVALID_INPUT' });
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished', exit_code: 0 });

    // The second attempt's prompt carries the first attempt's findings, as the agent received it.
    const [runId] = runIds(board.dir);
    const second = prompt(board.dir, runId!, 3);
    expect(second).toContain('## What went wrong in your previous attempt');
    expect(second).toContain('agentboard_create_spec: INVALID_INPUT: Invalid input: overview needs at least 50 characters (got 10).');
    expect(agentInvocations(board)[2].prompt).toBe(second);
    expect(prompt(board.dir, runId!, 2)).not.toContain('What went wrong');
    const spec = await ok(board.dir, ['show', 'add-search', 'spec']);
    expect(spec).toMatchObject({ status: 'submitted', revision: 1, author: 'fake-planner' });
  });

  it('stops for a person when the planner leaves its document unreadable, with the parse error and how to recover a file git does not hold', async () => {
    // The planner writes spec.md by hand, with broken YAML, instead of calling the tool: the board writes over no such file, so a second attempt could not submit it.
    const board = await fakeBoard({ scenario: { spec: ['broken_file', 'valid'] } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'spec']);
    expect(r.code).toBe(1);
    const refused = r.events.filter((e) => e.type === 'phase.refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ reason: 'The spec was not submitted.', attempt: 1 });
    expect(refused[0].findings).toContainEqual({ source: 'validate', file: 'agentd/changes/add-search/spec.md', line: 5, rule: 'frontmatter.yaml', message: 'frontmatter is not valid YAML: Missing closing "quote', fix: 'fix the YAML between the two --- lines' });
    expect(agentInvocations(board).map((i) => i.action)).toEqual(['valid', 'broken_file']);
    const spec = 'agentd/changes/add-search/spec.md';
    expect(git(board.dir, ['status', '--porcelain', '--', spec])).toBe(`?? ${spec}\n`);
    expect(r.events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'failed',
      exit_code: 1,
      message: `The spec of add-search cannot be read: ${spec}:5: frontmatter is not valid YAML: Missing closing "quote. The board writes over no file it cannot read, so the planner cannot submit the spec until a person fixes or replaces the file.`,
      next_steps: [`Fix ${spec}:5 (fix the YAML between the two --- lines), or delete ${spec} to have the planner write the spec anew: git holds no other version of it to restore.`, 'agentboard run add-search   # then go on'],
    });

    // As advised: the file deleted, the next run has the planner write the spec.
    rmSync(join(board.dir, spec));
    const again = run(board.dir, ['add-search', '--until', 'spec']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.events.find((e) => e.type === 'phase.validated')).toMatchObject({ document: 'spec', revision: 1 });
    expect(await ok(board.dir, ['show', 'add-search', 'spec'])).toMatchObject({ status: 'submitted', author: 'fake-planner' });
  });

  it('starts no planner on a committed document a person broke, and names the git command that restores it', async () => {
    const board = await fakeBoard();
    expect(run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'proposal']).code).toBe(0);
    const proposal = 'agentd/changes/add-search/proposal.md';
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the proposal']);
    const committed = readFileSync(join(board.dir, proposal), 'utf8');
    writeFileSync(join(board.dir, proposal), committed.replace(/^status: submitted$/m, 'status: [submitted'));
    const before = agentInvocations(board).length;
    const r = run(board.dir, ['add-search', '--until', 'spec']);
    expect(r.code).toBe(1);
    expect(agentInvocations(board)).toHaveLength(before);
    const end = r.events.at(-1);
    expect(end.message).toMatch(new RegExp(`^The proposal of add-search cannot be read: ${proposal}:\\d+: frontmatter is not valid YAML: `));
    expect(end.next_steps).toEqual([`git checkout -- ${proposal}   # restore the committed proposal`, 'agentboard run add-search   # then go on']);

    // As advised: restored, the run goes on to the spec.
    git(board.dir, ['checkout', '--', proposal]);
    const again = run(board.dir, ['add-search', '--until', 'spec']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.events.find((e) => e.type === 'phase.validated')).toMatchObject({ document: 'spec' });
  });

  it('kills an agent that hangs, with the processes it started, at the timeout', async () => {
    const board = await fakeBoard({ scenario: { proposal: ['hang'] } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--timeout', '0.03', '--max-attempts', '1']);
    expect(r.code).toBe(1);
    const finished = r.events.find((e) => e.type === 'invocation.finished');
    expect(finished).toMatchObject({ timed_out: true, failure: 'timed out after 0.03 min; its processes were stopped' });
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed', exit_code: 1 });
    const [hang] = hangs(board);
    expect(alive(hang!.agent)).toBe(false);
    expect(alive(hang!.child!)).toBe(false);
    expect(alive(hang!.escaped)).toBe(false);
    const [runId] = runIds(board.dir);
    const inv = JSON.parse(readFileSync(join(board.dir, 'agentd/.runtime/runs', runId!, '001.json'), 'utf8'));
    expect(inv).toMatchObject({ timed_out: true, exit_code: null, pid: hang!.agent });
  });

  it('ends an invocation when its agent exits, stopping what it left running outside its process group', async () => {
    const board = await fakeBoard({ scenario: { proposal: ['exit_leaving'] } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--max-attempts', '1']);
    expect(r.code).toBe(1);
    expect(r.events.find((e) => e.type === 'invocation.finished')).toMatchObject({ exit_code: 0, timed_out: false, failure: null });
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    const [left] = hangs(board);
    expect(alive(left!.escaped)).toBe(false);
    const [runId] = runIds(board.dir);
    expect(readFileSync(join(board.dir, 'agentd/.runtime/runs', runId!, '001.transcript.log'), 'utf8')).toContain('I leave something running.');
  });

  it('releases a task whose worker crashes on every attempt, with the reason noted', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['crash'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--max-attempts', '2']);
    expect(r.code).toBe(1);
    const failed = r.events.filter((e) => e.type === 'task.attempt_failed');
    expect(failed.map((e) => [e.attempt, e.reason])).toEqual([
      [1, 'The agent exited with code 3; the task is in_progress.'],
      [2, 'The agent exited with code 3; the task is in_progress.'],
    ]);
    expect(r.events.filter((e) => e.type === 'task.released')).toHaveLength(1);
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    const task = (await ok(board.dir, ['task', 'show', 'add-search/T1'])).task;
    expect(task).toMatchObject({ status: 'todo', assignee: null });
    expect(task.notes.at(-1).text).toMatch(/^Released from fake-w1: agentboard run \S+: fake-w1 did not finish it in 2 attempts\. Last: The agent exited with code 3/);
    expect(task.notes.at(-1).author).toBe('human:tester');
  });

  it('says which files of the repository itself changed while a worker worked in its worktree, once each', async () => {
    // The agent writes its file into the person's working tree (a path out of its worktree) instead of its own.
    const board = await fakeBoard({ scenario: { implementation: { '*': ['work'] }, file: { T1: '../../../repo/stray.txt' } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    writeFileSync(join(board.dir, 'mine.txt'), 'The person was here first.\n');
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    const said = r.events.filter((e) => e.type === 'notice' && /repository's own working tree/.test(e.message));
    expect(said.map((e) => [e.agent_id, e.message])).toEqual([
      ['fake-w1', "While fake-w1 worked on add-search/T1 in its worktree, files of the repository's own working tree changed: stray.txt. They are on no task's branch, and agentboard neither commits nor undoes them: look at them with `git status`."],
    ]);
    expect(readFileSync(join(board.dir, 'stray.txt'), 'utf8')).toBe('T1 done by fake-w1\n');
    expect(git(board.dir, ['show', 'agentboard/add-search/T2:work/T2.txt'])).toBe('T2 done by fake-w1\n');
  });

  it('takes a worker\'s CLI commands in its worktree to the run\'s board, and records them with its calls', async () => {
    // The worktree holds its branch's copy of agentd/: a command run there without --root would write that copy, which no one reads.
    const board = await fakeBoard({ scenario: { implementation: { '*': ['work_cli'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    const task = (await ok(board.dir, ['task', 'show', 'add-search/T1'])).task;
    expect(task).toMatchObject({ status: 'done', assignee: 'fake-w1' });
    expect(task.notes.map((n: any) => n.text)).toContain('Wrote T1.txt.');
    // the branch has the agent's work and nothing of the board
    expect(git(board.dir, ['show', 'agentboard/add-search/T1:T1.txt'])).toBe('T1 done by fake-w1\n');
    expect(git(board.dir, ['diff', '--stat', 'HEAD', 'agentboard/add-search/T1', '--', 'agentd'])).toBe('');
    const [runId] = runIds(board.dir);
    const calls = readdirSync(join(board.dir, 'agentd/.runtime/runs', runId!))
      .filter((f) => f.endsWith('.calls.jsonl'))
      .flatMap((f) => readFileSync(join(board.dir, 'agentd/.runtime/runs', runId!, f), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)))
      .filter((c) => c.command);
    expect(calls.map((c) => [c.command, c.tool, c.ok, c.task_id, c.code ?? null])).toEqual([
      ['task progress', 'agentboard_report_progress', true, 'add-search/T1', null],
      ['task done', 'agentboard_complete_task', false, 'add-search/T99', 'TASK_NOT_FOUND'],
      ['task done', 'agentboard_complete_task', true, 'add-search/T1', null],
    ]);
    expect(r.events.filter((e) => e.type === 'tool.called' && e.ok === false).map((e) => e.code)).toContain('TASK_NOT_FOUND');
  });

  it('counts an attempt that ends without finishing, commits what the agent wrote on its branch, and records its usage', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'] }, usage: true } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(0);
    expect(r.events.filter((e) => e.type === 'task.attempt_failed').map((e) => [e.attempt, e.reason])).toEqual([[1, 'The agent ended its turn without finishing the task; it is in_progress.']]);
    expect(r.events.filter((e) => e.type === 'task.claimed')).toHaveLength(1);
    expect(r.events.find((e) => e.type === 'task.done')).toMatchObject({ task_id: 'add-search/T1', agent_id: 'fake-w1', attempt: 2, status: 'done' });

    // The work is on the task's branch, committed with the agent as author; the person's working tree is untouched.
    const task = (await ok(board.dir, ['task', 'show', 'add-search/T1'])).task;
    expect(task).toMatchObject({ status: 'done', assignee: 'fake-w1', branch: 'agentboard/add-search/T1' });
    expect(git(board.dir, ['log', '-1', '--format=%an|%s', 'agentboard/add-search/T1']).trim()).toBe('fake-w1|add-search/T1: Index the titles');
    expect(git(board.dir, ['show', 'agentboard/add-search/T1:work/T1.txt'])).toBe('T1 done by fake-w1\n');
    expect(existsSync(join(board.dir, 'work/T1.txt'))).toBe(false);
    const worktree = join(board.dir, '..', 'repo.agentboard-worktrees', 'add-search', 'T1');
    expect(agentInvocations(board).map((i) => i.cwd)).toEqual([worktree, worktree]);

    // claude's stream-json usage: tokens (cache included) and cost, per invocation and for the run.
    const usage = { input_tokens: 350, output_tokens: 60, cached_input_tokens: 30, cost_usd: 0.0125 };
    expect(r.events.filter((e) => e.type === 'invocation.finished').map((e) => e.usage)).toEqual([usage, usage]);
    const [runId] = runIds(board.dir);
    expect(runRecord(board.dir, runId!).usage).toEqual({ input_tokens: 700, output_tokens: 120, cached_input_tokens: 60, cost_usd: 0.025 });
    const shown = await ok(board.dir, ['runs', 'show', runId!]);
    expect(shown.invocations.map((i: any) => [i.role, i.task_id, i.attempt, i.exit_code, i.usage.cost_usd])).toEqual([
      ['worker', 'add-search/T1', 1, 0, 0.0125],
      ['worker', 'add-search/T1', 2, 0, 0.0125],
    ]);
  });
});

