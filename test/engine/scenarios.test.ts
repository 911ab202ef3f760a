/**
 * The fake agent's scenarios against the real engine, the real `agentboard mcp` and real git:
 * what the run does when an agent gets a document wrong, hangs, crashes, stops early, writes
 * files, and reports its usage.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, cliProcess, ok, processState } from '../helpers.js';
import { agentInvocations, alive, fakeBoard, git, hangs, prompt, run, runIds, runRecord, setScenario, shellSteps, startRun, until } from './helpers.js';

/** A run with --merge whose worker rewrites `file` in its worktree (its branch carries the change), the plan committed first; it merges nothing. */
async function mergeOfBranchChanging(file: string, change: (text: string) => string) {
  const board = await fakeBoard();
  await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
  setScenario(board, { implementation: { '*': ['work'] }, file: { T1: file }, content: { T1: change(readFileSync(join(board.dir, file), 'utf8')) } });
  git(board.dir, ['add', '-A']);
  git(board.dir, ['commit', '-q', '-m', 'the plan']);
  const head = git(board.dir, ['rev-parse', 'HEAD']);
  const r = run(board.dir, ['add-search', '--merge']);
  expect(r.code).toBe(1);
  expect(r.events.some((e) => e.type === 'merge.done')).toBe(false);
  return { board, r, head };
}

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
      next_steps: [`Fix ${spec}:5, or delete ${spec} to have the planner write the spec anew: git holds no other version of it to restore.`, 'agentboard run add-search   # then go on'],
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

  it('reads what a process the agent left goes on printing after it exited, while it keeps coming', async () => {
    const board = await fakeBoard({ scenario: { proposal: ['exit_talking'] } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--max-attempts', '1']);
    expect(r.code).toBe(1);
    const [runId] = runIds(board.dir);
    const transcript = readFileSync(join(board.dir, 'agentd/.runtime/runs', runId!, '001.transcript.log'), 'utf8');
    expect(transcript).toContain('I leave something talking.');
    expect(transcript).toContain('still here 13\nthe one left behind is done\n');
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

  it('says what the agent CLI said when its model\'s API turned it away, and waits before the next attempt', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['rate_limited', 'work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation'], { AGENTBOARD_TEST_RATE_LIMIT_WAIT_MS: '20' });
    expect(r.code, r.stderr).toBe(0);
    const said = 'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}';
    expect(r.events.find((e) => e.type === 'invocation.finished' && e.failure)?.failure).toBe(`exited with code 1; it said: ${said}`);
    expect(r.events.filter((e) => e.type === 'task.attempt_failed').map((e) => e.reason)).toEqual([`The agent exited with code 1; it said: ${said}; the task is in_progress.`]);
    const waited = r.events.findIndex((e) => e.type === 'notice' && e.message === `fake-w1's model API turned it away (${said}); the next attempt waits 0 s.`);
    expect(waited).toBeGreaterThan(-1);
    expect(r.events.slice(waited).find((e) => e.type === 'invocation.started')).toMatchObject({ attempt: 2 });
    expect(r.events.filter((e) => e.type === 'task.done').map((e) => e.task_id)).toEqual(['add-search/T1']);
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

  it('stops the run when a worker changes agentd/config.yaml of the repository itself, keeping the version it started with and naming how to undo it', async () => {
    // From its worktree, the agent rewrites the person's config.yaml to allow self-review.
    const board = await fakeBoard();
    const configFile = join(board.dir, 'agentd/config.yaml');
    const config = readFileSync(configFile, 'utf8');
    const changed = `${config}review:\n  allow_self_review: true\n`;
    setScenario(board, { implementation: { '*': ['work'] }, file: { T1: '../../../repo/agentd/config.yaml' }, content: { T1: changed.trimEnd() } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const said = "agentd/config.yaml changed while fake-w1 worked on add-search/T1. It decides the agents, the commands the run starts and what needs a person's approval, and no agent may change it: the run starts no other agent and stops for a person, who keeps the change or undoes it.";
    expect(r.events.filter((e) => e.type === 'settings.changed')).toEqual([expect.objectContaining({ agent_id: 'fake-w1', role: 'worker', phase: 'implementation', task_id: 'add-search/T1', file: 'agentd/config.yaml', message: said })]);
    // No agent after it: T2 was never handed out.
    expect(agentInvocations(board)).toHaveLength(1);
    expect(r.events.filter((e) => e.type === 'task.claimed').map((e) => e.task_id)).toEqual(['add-search/T1']);
    const [runId] = runIds(board.dir);
    const kept = `agentd/.runtime/runs/${runId}/config.yaml.before`;
    expect(r.events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'failed',
      exit_code: 1,
      message: said,
      next_steps: [`diff -u ${kept} agentd/config.yaml   # what changed`, `cp ${kept} agentd/config.yaml   # undo it`, 'agentboard run add-search   # then go on, with the files as they are then'],
    });
    expect(runRecord(board.dir, runId!).message).toBe(said);
    // The run writes neither file: the change stays for the person, the version the run started with is kept.
    expect(readFileSync(configFile, 'utf8')).toBe(changed);
    expect(readFileSync(join(board.dir, kept), 'utf8')).toBe(config);
    // The board says it on the task, for the person and the reviewer.
    const task = (await ok(board.dir, ['task', 'show', 'add-search/T1'])).task;
    expect(task.notes.at(-1)).toMatchObject({ author: 'human:tester', text: said });

    // As advised: undone, the next run goes on.
    writeFileSync(configFile, readFileSync(join(board.dir, kept)));
    const again = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.events.filter((e) => e.type === 'task.done').map((e) => e.task_id)).toEqual(['add-search/T2']);
    expect(again.events.some((e) => e.type === 'settings.changed')).toBe(false);
  });

  it('stops the run when an agent adds a person to agentd/people.yaml', async () => {
    const board = await fakeBoard();
    const people = readFileSync(join(board.dir, 'agentd/people.yaml'), 'utf8');
    const added = `${people}  - name: human:fake-w1\n    key_sha256: "${'0'.repeat(64)}"\n    added: 2026-11-22T00:00:00.000Z`;
    setScenario(board, { implementation: { '*': ['work'] }, file: { T1: '../../../repo/agentd/people.yaml' }, content: { T1: added } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    expect(r.events.find((e) => e.type === 'settings.changed')).toMatchObject({ file: 'agentd/people.yaml', message: expect.stringContaining('It decides who is a person, and so who may approve, and no agent may change it') });
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed', message: expect.stringMatching(/^agentd\/people\.yaml changed while fake-w1 worked on add-search\/T1\./) });
  });

  it('finishes a run whose worker left agentd/config.yaml unparsable with the settings it started with: the claim released, the note written, the way back in order', async () => {
    // The worker breaks config.yaml (a second agents: key) and ends its turn without finishing its task.
    const broken = 'agents: [unclosed\n';
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'] }, by_hand: { T1: [{ append: 'agentd/config.yaml', text: broken }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const configFile = join(board.dir, 'agentd/config.yaml');
    const config = readFileSync(configFile, 'utf8');
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const line = `${config}${broken}`.split('\n').indexOf(broken.trimEnd()) + 1;
    const said = `agentd/config.yaml changed while fake-w1 worked on add-search/T1, and no longer reads (agentd/config.yaml:${line}: the key "agents" is given a second time here; keep one of its lines). It decides the agents, the commands the run starts and what needs a person's approval, and no agent may change it: the run starts no other agent and stops for a person, who keeps the change or undoes it.`;
    const [runId] = runIds(board.dir);
    const kept = `agentd/.runtime/runs/${runId}/config.yaml.before`;
    expect(r.events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'failed',
      message: said,
      next_steps: [`diff -u ${kept} agentd/config.yaml   # what changed`, `cp ${kept} agentd/config.yaml   # undo it`, 'agentboard run add-search   # then go on, with the files as they are then'],
    });
    expect(r.events.filter((e) => e.type === 'task.released').map((e) => e.task_id)).toEqual(['add-search/T1']);
    expect(readFileSync(configFile, 'utf8')).toBe(`${config}${broken}`);
    // The board was written all the same: the task is free again, with the note README promises.
    expect((await cli(board.dir, ['list', '--json'])).json.error).toMatchObject({ code: 'CONFIG_INVALID' });
    writeFileSync(configFile, config);
    const task = (await ok(board.dir, ['task', 'show', 'add-search/T1'])).task;
    expect(task).toMatchObject({ status: 'todo', assignee: null });
    expect(task.notes.map((n: any) => n.text)).toEqual([said, expect.stringMatching(/^Released from fake-w1: run \S+ ended failed before the task was finished/)]);

    // The steps as given, in order, with config.yaml broken again: they work, and the next run finishes the task.
    writeFileSync(configFile, `${config}${broken}`);
    expect(shellSteps(board.dir, r.events.at(-1).next_steps.slice(0, 2))).toEqual([1, 0]);
    expect(readFileSync(configFile, 'utf8')).toBe(config);
    const again = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.events.filter((e) => e.type === 'task.done').map((e) => e.task_id)).toEqual(['add-search/T1']);
  });

  it('says a governing file an agent deleted was deleted, and gives only commands that work', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'] }, by_hand: { T1: [{ remove: 'agentd/people.yaml' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const people = readFileSync(join(board.dir, 'agentd/people.yaml'), 'utf8');
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const said = 'agentd/people.yaml was deleted while fake-w1 worked on add-search/T1. It decides who is a person, and so who may approve, and no agent may change it: the run starts no other agent and stops for a person, who keeps the change or undoes it.';
    expect(r.events.filter((e) => e.type === 'settings.changed').map((e) => e.message)).toEqual([said]);
    const [runId] = runIds(board.dir);
    const end = r.events.at(-1);
    expect(end).toMatchObject({ outcome: 'failed', message: said, next_steps: [`cp agentd/.runtime/runs/${runId}/people.yaml.before agentd/people.yaml   # undo it`, 'agentboard run add-search   # then go on, with the files as they are then'] });
    expect(shellSteps(board.dir, end.next_steps.slice(0, 1))).toEqual([0]);
    expect(readFileSync(join(board.dir, 'agentd/people.yaml'), 'utf8')).toBe(people);
    expect(run(board.dir, ['add-search', '--until', 'implementation']).code).toBe(0);
  });

  it.each([
    ['symlink', /^agentd\/config\.yaml was replaced by a symbolic link \(to \/.+\) during the turn of fake-planner \(spec\)\. It decides /, 'rm agentd/config.yaml'],
    ['folder', /^agentd\/config\.yaml was replaced by a folder during the turn of fake-planner \(spec\)\. It decides /, 'rm -r agentd/config.yaml'],
  ])('takes agentd/config.yaml replaced by a %s for a settings change: said once, its version kept, undone by the command given', async (kind, message, remove) => {
    const board = await fakeBoard({ scenario: { by_hand: { spec: [{ [kind]: 'agentd/config.yaml' }] } } });
    const configFile = join(board.dir, 'agentd/config.yaml');
    const config = readFileSync(configFile, 'utf8');
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'spec']);
    expect(r.code).toBe(1);
    const changed = r.events.filter((e) => e.type === 'settings.changed');
    expect(changed).toEqual([expect.objectContaining({ agent_id: 'fake-planner', phase: 'spec', file: 'agentd/config.yaml', message: expect.stringMatching(message) })]);
    const [runId] = runIds(board.dir);
    const kept = `agentd/.runtime/runs/${runId}/config.yaml.before`;
    expect(readFileSync(join(board.dir, kept), 'utf8')).toBe(config);
    const end = r.events.at(-1);
    expect(end).toMatchObject({ outcome: 'failed', message: changed[0].message, next_steps: [`${remove} && cp ${kept} agentd/config.yaml   # undo it`, 'agentboard run add-search   # then go on, with the files as they are then'] });
    expect(shellSteps(board.dir, end.next_steps.slice(0, 1))).toEqual([0]);
    expect(lstatSync(configFile).isFile()).toBe(true);
    expect(readFileSync(configFile, 'utf8')).toBe(config);
    expect(run(board.dir, ['add-search', '--until', 'tasks']).code).toBe(0);
  });

  it('stops on a planning document replaced by a symbolic link git does not hold, with a removal that works and the run that goes on', async () => {
    const spec = 'agentd/changes/add-search/spec.md';
    const board = await fakeBoard({ scenario: { by_hand: { tasks: [{ symlink: spec }] } } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'tasks']);
    expect(r.code).toBe(1);
    const end = r.events.at(-1);
    expect(end).toMatchObject({
      outcome: 'failed',
      message: `The spec of add-search cannot be read: ${spec} is a symbolic link; agentboard only reads and writes plain files and folders inside agentd/, so it did not touch it. The board writes over no file it cannot read, so the planner cannot submit the spec until a person fixes or replaces the file.`,
      next_steps: [`Remove ${spec} (rm ${spec}) to have the planner write the spec anew: git holds no other version of it to restore.`, 'agentboard run add-search   # then go on'],
    });
    expect(shellSteps(board.dir, [`rm ${spec}`])).toEqual([0]);
    const again = run(board.dir, ['add-search', '--until', 'spec']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.events.find((e) => e.type === 'phase.validated')).toMatchObject({ document: 'spec' });
  });

  it('stops on a committed planning document replaced by a folder, with the git command that restores it', async () => {
    const board = await fakeBoard();
    expect(run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'proposal']).code).toBe(0);
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the proposal']);
    const proposal = 'agentd/changes/add-search/proposal.md';
    setScenario(board, { by_hand: { spec: [{ folder: proposal }] } });
    const r = run(board.dir, ['add-search', '--until', 'spec']);
    expect(r.code).toBe(1);
    const end = r.events.at(-1);
    expect(end).toMatchObject({
      outcome: 'failed',
      message: `The proposal of add-search cannot be read: ${proposal} is a folder, not a file. The board writes over no file it cannot read, so the planner cannot submit the proposal until a person fixes or replaces the file.`,
      next_steps: [`git checkout -- ${proposal}   # restore the committed proposal`, 'agentboard run add-search   # then go on'],
    });
    expect(shellSteps(board.dir, end.next_steps.slice(0, 1))).toEqual([0]);
    expect(lstatSync(join(board.dir, proposal)).isFile()).toBe(true);
    expect(run(board.dir, ['add-search', '--until', 'spec']).code).toBe(0);
  });

  it('names a planning document that is not UTF-8 once, at its line, with one plain next step', async () => {
    const spec = 'agentd/changes/add-search/spec.md';
    const board = await fakeBoard({ scenario: { by_hand: { tasks: [{ append: spec, bytes: [0xff, 0xfe, 0x0a] }] } } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'tasks']);
    expect(r.code).toBe(1);
    const bytes = readFileSync(join(board.dir, spec));
    const line = bytes.subarray(0, bytes.indexOf(0xff)).toString('latin1').split('\n').length;
    expect(r.events.at(-1)).toMatchObject({
      outcome: 'failed',
      message: `The spec of add-search cannot be read: ${spec}:${line}: the file holds bytes that are not UTF-8 text; agentboard will not rewrite it, so that nothing is silently replaced. The board writes over no file it cannot read, so the planner cannot submit the spec until a person fixes or replaces the file.`,
      next_steps: [`Fix ${spec}:${line}, or delete ${spec} to have the planner write the spec anew: git holds no other version of it to restore.`, 'agentboard run add-search   # then go on'],
    });
  });

  it('says once what also kept the run from cleaning up, when it is what ended the run', async () => {
    // The worker puts a link in place of tasks.md: the board reads the task list no more, to check the task or to release it.
    const tasks = 'agentd/changes/add-search/tasks.md';
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle'] }, by_hand: { T1: [{ symlink: tasks }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const end = r.events.at(-1);
    const said = `${tasks} is a symbolic link; agentboard only reads and writes plain files and folders inside agentd/, so it did not touch it.`;
    expect(end.message).toBe(`${said} Cleaning up failed for the same reason.`);
    expect(end.next_steps).toEqual([`Replace ${tasks} with a plain file (git checkout -- ${tasks} restores a committed one), or remove it.`]);
  });

  it('merges no task branch that changes agentd/config.yaml: a person does', async () => {
    // The agent changes its worktree's copy of config.yaml; its branch carries the change.
    let config = '';
    const { board, r, head } = await mergeOfBranchChanging('agentd/config.yaml', (text) => `${(config = text)}require_approval: []`);
    const branch = 'agentboard/add-search/T1';
    expect(r.events.at(-1)).toMatchObject({
      outcome: 'failed',
      message: `${branch} (add-search/T1) changes agentd/config.yaml, which decides the agents, the commands the run starts and what needs a person's approval; no agent may change it, so the run merges the branch only once a person has: nothing of it, and no branch after it, was merged.`,
      next_steps: [
        `git diff HEAD...${branch} -- agentd/config.yaml   # what it changes`,
        `git merge ${branch}   # if you keep its change`,
        expect.stringMatching(/^git -C .+\/add-search\/T1 restore --source=[0-9a-f]{40} --staged --worktree -- agentd\/config\.yaml && git -C .+ commit -q -m "Leave the board's files as they are"   # or take its change of it out of the branch; the rest of its work stays$/),
        'agentboard run add-search --merge   # then merge the rest',
      ],
    });
    expect(git(board.dir, ['rev-parse', 'HEAD'])).toBe(head);
    expect(readFileSync(join(board.dir, 'agentd/config.yaml'), 'utf8')).toBe(config);
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
      ['task done', 'agentboard_complete_task', false, 'add-search/T99', 'TASK_NOT_YOURS'],
      ['task done', 'agentboard_complete_task', true, 'add-search/T1', null],
    ]);
    expect(r.events.filter((e) => e.type === 'tool.called' && e.ok === false).map((e) => e.code)).toContain('TASK_NOT_YOURS');
  });

  it('refuses a worker\'s CLI command that its role does not have: no task added, the refusal recorded with its calls, and the run hands out nothing more', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['add_task_cli'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    const [runId] = runIds(board.dir);
    const added = JSON.parse(readFileSync(join(board.state, 'cli-fake-w1-T1.json'), 'utf8'));
    expect(added.status).toBe(1);
    const error = JSON.parse(added.stdout).error;
    expect(error).toMatchObject({ code: 'ROLE_REFUSED', message: `fake-w1 is a worker of agentboard run ${runId} (AGENTBOARD_ROLE), and \`agentboard task add\` is not a worker's command: nothing was changed.` });
    expect(error.next_step).toMatch(/^A worker changes the board with agentboard next, agentboard task done, agentboard task progress, .+; for anything else, ask a person with `agentboard ask/);
    expect(error.next_step).not.toContain('task add');
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status])).toEqual([['add-search/T1', 'done']]);
    expect(r.events.filter((e) => e.type === 'task.claimed').map((e) => e.task_id)).toEqual(['add-search/T1']);
    expect(r.events.filter((e) => e.type === 'tool.called' && !e.ok).map((e) => [e.tool, e.code])).toEqual([['agentboard_add_task', 'ROLE_REFUSED']]);
    const calls = readFileSync(join(board.dir, 'agentd/.runtime/runs', runId!, '001.calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls[0]).toMatchObject({ command: 'task add', tool: 'agentboard_add_task', ok: false, code: 'ROLE_REFUSED' });
    // What the role has, and reads, are the agent's as before.
    const env = { AGENTBOARD_RUN_ID: runId!, AGENTBOARD_AGENT_ID: 'fake-w1', AGENTBOARD_ROLE: 'worker' };
    expect((await cli(board.dir, ['task', 'list', '--json'], { env })).code).toBe(0);
    expect((await cli(board.dir, ['task', 'note', 'add-search/T1', 'A note.', '--json'], { env })).code).toBe(0);
    expect((await cli(board.dir, ['task', 'rm', 'add-search/T1', '--json'], { env })).json.error.code).toBe('ROLE_REFUSED');
    expect((await cli(board.dir, ['next', '--json'], { env: { ...env, AGENTBOARD_AGENT_ID: 'fake-planner', AGENTBOARD_ROLE: 'planner' } })).json.error.code).toBe('ROLE_REFUSED');
  });

  it('starts no agent on a task whose dependency\'s turn ended by stopping the run (its work left off its branch): the task goes back, its worktree not made', async () => {
    // T1's worker finishes on the board, then goes on a while on a branch of its own; T2's is quick, and T3 waits on both.
    const board = await fakeBoard({ scenario: { implementation: { T1: ['work_elsewhere'], '*': ['work'] }, linger: { T1: 2000 } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank them' }, { title: 'Show them', depends: ['T1', 'T2'] }]);
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the plan']);
    const r = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '2']);
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'worktree.off_branch').map((e) => e.task_id)).toEqual(['add-search/T1']);
    expect(r.events.filter((e) => e.type === 'task.claimed').map((e) => e.task_id).sort()).toEqual(['add-search/T1', 'add-search/T2']);
    expect(r.events.filter((e) => e.type === 'invocation.started').map((e) => e.task_id).sort()).toEqual(['add-search/T1', 'add-search/T2']);
    const t3 = (await ok(board.dir, ['task', 'show', 'add-search/T3'])).task;
    expect([t3.status, t3.assignee]).toEqual(['todo', null]);
    expect(existsSync(join(board.dir, '..', 'repo.agentboard-worktrees', 'add-search', 'T3'))).toBe(false);
  });

  it('stops the run when a worker leaves its worktree on a branch of its own: its commits kept there, said on the task, and the steps given take them onto the task\'s branch', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['work_elsewhere'] }, review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the plan']);
    const r = run(board.dir, ['add-search', '--merge']);
    expect(r.code).toBe(1);
    const branch = 'agentboard/add-search/T1';
    const worktree = join(board.dir, '..', 'repo.agentboard-worktrees', 'add-search', 'T1');
    const commit = git(board.dir, ['rev-parse', 'my-own-branch']).trim();
    const said = `fake-w1 left its worktree of add-search/T1 on branch my-own-branch, not on the task's branch ${branch}, with 1 commit that ${branch} lacks. The run merges and reviews ${branch} only, so that work would be left out: agentboard moves, commits and deletes nothing there, starts no other agent and stops for a person, who takes the work onto ${branch}.`;
    expect(r.events.filter((e) => e.type === 'worktree.off_branch')).toEqual([expect.objectContaining({ agent_id: 'fake-w1', task_id: 'add-search/T1', branch, head: 'my-own-branch', commits: [commit], message: said })]);
    expect(r.events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'failed',
      message: said,
      next_steps: [`git -C ${worktree} log --oneline ${branch}..${commit}   # the work not on the task's branch`, `git -C ${worktree} switch ${branch} && git -C ${worktree} merge ${commit}   # take it onto the task's branch`, 'agentboard run add-search   # then go on'],
    });
    expect(r.events.some((e) => e.type === 'merge.done' || e.phase === 'review')).toBe(false);
    expect(runRecord(board.dir, runIds(board.dir)[0]!).message).toBe(said);
    expect((await ok(board.dir, ['task', 'show', 'add-search/T1'])).task.notes.at(-1)).toMatchObject({ author: 'human:tester', text: said });
    // Nothing was moved: the agent's branch holds its work, the task's does not.
    expect(git(board.dir, ['show', 'my-own-branch:T1.txt'])).toBe('T1 done by fake-w1\n');
    expect(git(worktree, ['symbolic-ref', '--short', 'HEAD']).trim()).toBe('my-own-branch');

    // As advised: the work taken onto the task's branch, the next run merges it.
    expect(shellSteps(board.dir, r.events.at(-1).next_steps.slice(0, 2))).toEqual([0, 0]);
    const again = run(board.dir, ['add-search', '--merge']);
    expect(again.code, JSON.stringify(again.events.at(-1))).toBe(0);
    expect(again.events.filter((e) => e.type === 'merge.done').map((e) => e.branch)).toEqual([branch]);
    expect(readFileSync(join(board.dir, 'T1.txt'), 'utf8')).toBe('T1 done by fake-w1\n');
  });

  it('run again on a worktree left on a detached HEAD commits nothing there and stops again, until a person takes the work onto the task\'s branch', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['detach_uncommitted'] }, review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the plan']);
    const branch = 'agentboard/add-search/T1';
    const worktree = join(board.dir, '..', 'repo.agentboard-worktrees', 'add-search', 'T1');
    const first = run(board.dir, ['add-search']);
    expect(first.code).toBe(1);
    expect(first.events.filter((e) => e.type === 'worktree.off_branch')).toHaveLength(1);
    const head = git(worktree, ['rev-parse', 'HEAD']).trim();
    const tip = git(board.dir, ['rev-parse', branch]).trim();

    const again = run(board.dir, ['add-search']);
    expect(again.code).toBe(1);
    const said = `The worktree of add-search/T1 is on a detached HEAD (${head.slice(0, 12)}), not on the task's branch ${branch}. The run merges and reviews ${branch} only, so that work would be left out: agentboard moves, commits and deletes nothing there, starts no other agent and stops for a person, who takes the work onto ${branch}.`;
    expect(again.events.filter((e) => e.type === 'worktree.off_branch')).toEqual([expect.objectContaining({ task_id: 'add-search/T1', branch, head: null, commits: [], message: said })]);
    expect(again.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed', message: said, next_steps: [`git -C ${worktree} switch ${branch}   # back onto the task's branch`, 'agentboard run add-search   # then go on'] });
    expect(again.events.some((e) => e.type === 'invocation.started' || (e.type === 'notice' && e.message.startsWith('Committed')))).toBe(false);
    // Nothing there was committed or moved: the work is still uncommitted on the detached HEAD, the task's branch as it was.
    expect(git(worktree, ['rev-parse', 'HEAD']).trim()).toBe(head);
    expect(git(worktree, ['status', '--porcelain'])).toBe('?? T1.txt\n');
    expect(git(board.dir, ['rev-parse', branch]).trim()).toBe(tip);

    // As advised: back on the task's branch, the next run commits what was left there and goes on to the review.
    expect(shellSteps(board.dir, again.events.at(-1).next_steps.slice(0, 1))).toEqual([0]);
    const last = run(board.dir, ['add-search']);
    expect(last.code, JSON.stringify(last.events.at(-1))).toBe(0);
    expect(last.events.at(-1)).toMatchObject({ outcome: 'finished' });
    expect(git(board.dir, ['show', `${branch}:T1.txt`])).toBe('T1 done by fake-w1\n');
  });

  it('a worker that renames its task\'s branch stops the run with the commits counted and steps that work; the task is not reviewed without its branch', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['rename_branch'] }, review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the plan']);
    const branch = 'agentboard/add-search/T1';
    const worktree = join(board.dir, '..', 'repo.agentboard-worktrees', 'add-search', 'T1');
    const r = run(board.dir, ['add-search']);
    expect(r.code).toBe(1);
    const commit = git(board.dir, ['rev-parse', 'my-renamed-T1']).trim();
    const said = `fake-w1 left its worktree of add-search/T1 on branch my-renamed-T1, and the task's branch ${branch} is gone; the worktree holds 1 commit made since the task started. The run merges and reviews ${branch} only, so that work would be left out: agentboard moves, commits and deletes nothing there, starts no other agent and stops for a person, who takes the work onto ${branch}.`;
    expect(r.events.filter((e) => e.type === 'worktree.off_branch')).toEqual([expect.objectContaining({ task_id: 'add-search/T1', branch, head: 'my-renamed-T1', commits: [commit], message: said })]);
    expect(r.events.at(-1)).toMatchObject({ outcome: 'failed', message: said, next_steps: [`git -C ${worktree} switch -c ${branch}   # the task's branch again, with what the worktree holds`, 'agentboard run add-search   # then go on'] });
    // Run again as it is: it stops again, and no reviewer looks at a task without its branch.
    const again = run(board.dir, ['add-search']);
    expect(again.code).toBe(1);
    expect(again.events.filter((e) => e.type === 'worktree.off_branch').map((e) => e.commits)).toEqual([[commit]]);
    expect(again.events.some((e) => e.type === 'invocation.started')).toBe(false);
    // As advised: the branch is back, with the work.
    expect(shellSteps(board.dir, r.events.at(-1).next_steps.slice(0, 1))).toEqual([0]);
    const last = run(board.dir, ['add-search']);
    expect(last.code, JSON.stringify(last.events.at(-1))).toBe(0);
    expect(git(board.dir, ['show', `${branch}:T1.txt`])).toBe('T1 done by fake-w1\n');
  });

  it('stops the run when a worker commits on a branch of its own and goes back to the task\'s branch, naming the commits left out', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['switch_back'] }, review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the plan']);
    const branch = 'agentboard/add-search/T1';
    const worktree = join(board.dir, '..', 'repo.agentboard-worktrees', 'add-search', 'T1');
    const r = run(board.dir, ['add-search']);
    expect(r.code).toBe(1);
    const commit = git(board.dir, ['rev-parse', 'aside-T1']).trim();
    const said = `fake-w1 committed on branch aside-T1 in its worktree of add-search/T1 and went back to the task's branch ${branch}, which lacks that commit. The run merges and reviews ${branch} only, so that work would be left out: agentboard moves, commits and deletes nothing there, starts no other agent and stops for a person, who takes the work onto ${branch}.`;
    expect(r.events.filter((e) => e.type === 'worktree.off_branch')).toEqual([expect.objectContaining({ agent_id: 'fake-w1', task_id: 'add-search/T1', branch, head: 'aside-T1', commits: [commit], message: said })]);
    expect(r.events.at(-1)).toMatchObject({ outcome: 'failed', message: said, next_steps: [`git -C ${worktree} log --oneline ${branch}..aside-T1   # the work not on the task's branch`, `git -C ${worktree} merge aside-T1   # take it onto the task's branch`, 'agentboard run add-search   # then go on'] });
    expect(r.events.some((e) => e.phase === 'review')).toBe(false);
    expect((await ok(board.dir, ['task', 'show', 'add-search/T1'])).task.notes.at(-1)).toMatchObject({ text: said });
    expect(shellSteps(board.dir, r.events.at(-1).next_steps.slice(0, 2))).toEqual([0, 0]);
    const again = run(board.dir, ['add-search']);
    expect(again.code, JSON.stringify(again.events.at(-1))).toBe(0);
    expect(git(board.dir, ['show', `${branch}:T1.txt`])).toBe('T1 done by fake-w1\n');
  });

  it('does not review a done task whose branch is gone with its worktree', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['work'] }, review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the plan']);
    expect(run(board.dir, ['add-search', '--until', 'implementation']).code).toBe(0);
    const branch = 'agentboard/add-search/T1';
    git(board.dir, ['worktree', 'remove', '--force', join(board.dir, '..', 'repo.agentboard-worktrees', 'add-search', 'T1')]);
    git(board.dir, ['branch', '-D', branch]);
    const r = run(board.dir, ['add-search']);
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      outcome: 'failed',
      message: `The branch of add-search/T1 (${branch}, done by fake-w1) is gone. The run merges and reviews a task's work from its branch, so it merges nothing and starts no reviewer without it.`,
      next_steps: [`git branch ${branch} <commit>   # the commit with the work of add-search/T1 (\`git reflog\` shows where it was)`, 'agentboard run add-search   # then go on'],
    });
    expect(r.events.some((e) => e.type === 'invocation.started')).toBe(false);
  });

  it('gives the next attempt what the agent printed as plain text: no terminal escape sequence or control byte, U+2028/U+2029 as line ends', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'] }, say: 'plain \u001b[31mred\u001b[0m bell\u0007 nul\u0000 \u001b]0;a title\u0007title\rover\r\nwindows\ttab\nline\u2028separator\u2029paragraph\n' } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    const second = prompt(board.dir, runIds(board.dir)[0]!, 2);
    expect(second).toContain('The end of what you printed:\n\n```\nplain red bell? nul? title\nover\nwindows\ttab\nline\nseparator\nparagraph\n```');
    expect(second).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F\u2028\u2029]/);
  });

  it('records the calls to tools its MCP server does not serve with its other calls, refused', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['work'] }, unknown_tools: ['agentboard_add_task', 'agentboard_no_such_tool'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    const calls = readFileSync(join(board.dir, 'agentd/.runtime/runs', runIds(board.dir)[0]!, '001.calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls.map((c) => [c.tool, c.ok, c.code ?? null])).toEqual([
      ['agentboard_add_task', false, 'ROLE_REFUSED'],
      ['agentboard_no_such_tool', false, 'USAGE'],
      ['agentboard_report_progress', true, null],
      ['agentboard_add_note', true, null],
      ['agentboard_complete_task', true, null],
    ]);
    expect(calls[1]).toMatchObject({ message: 'There is no tool agentboard_no_such_tool.', next_step: 'List the tools (tools/list) and call one of them.' });
    expect(r.events.filter((e) => e.type === 'tool.called' && !e.ok).map((e) => [e.tool, e.code])).toEqual([
      ['agentboard_add_task', 'ROLE_REFUSED'],
      ['agentboard_no_such_tool', 'USAGE'],
    ]);
  });

  it('stops the run when the reviewer sets its verdict by hand: the change is not done, validate names the line, and archive refuses it', async () => {
    const reviewFile = 'agentd/changes/add-search/REVIEW.md';
    // The reviewer records NEEDS_FIX through agentboard, then makes it APPROVED in the file itself.
    const board = await fakeBoard({ scenario: { review: ['needs_fix'], by_hand: { review: [{ replace: reviewFile, from: '# Verdict: NEEDS_FIX', to: '# Verdict: APPROVED' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const r = run(board.dir, ['add-search']);
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'document.edited')).toEqual([expect.objectContaining({ role: 'reviewer', file: reviewFile })]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    const text = readFileSync(join(board.dir, reviewFile), 'utf8');
    const validate = await cli(board.dir, ['validate', 'add-search', '--json']);
    expect(validate.code).toBe(1);
    expect(validate.json.data.changes[0].findings.filter((f: any) => f.rule === 'review.verdict.by_hand').map((f: any) => f.line)).toEqual([text.split('\n').indexOf('# Verdict: APPROVED') + 1]);
    expect((await ok(board.dir, ['show', 'add-search'])).phase).not.toBe('done');
    const archive = await cli(board.dir, ['archive', 'add-search', '--json']);
    expect(archive.json.error.code).toBe('ARCHIVE_REFUSED');
    expect(existsSync(join(board.dir, 'agentd/changes/add-search'))).toBe(true);
  });

  it('stops the run when the reviewer writes its first review and sets the verdict by hand before the run has read its call (its calls read only when the turn ends)', async () => {
    const reviewFile = 'agentd/changes/add-search/REVIEW.md';
    const board = await fakeBoard({ scenario: { review: ['needs_fix'], by_hand: { review: [{ replace: reviewFile, from: '# Verdict: NEEDS_FIX', to: '# Verdict: APPROVED' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    // As where files cannot be watched: the run learns of the review written through the tool only after the edit.
    const r = run(board.dir, ['add-search'], { AGENTBOARD_TEST_UNWATCHED_CALLS: '1' });
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'document.edited')).toEqual([expect.objectContaining({ role: 'reviewer', file: reviewFile })]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    // The copy to compare with and put back is what agentboard wrote: the verdict recorded through the tool.
    const kept = r.events.at(-1).next_steps.find((s: string) => s.startsWith('cp '))!.split(' ')[1]!;
    expect(readFileSync(join(board.dir, kept), 'utf8')).toContain('# Verdict: NEEDS_FIX');
    expect((await ok(board.dir, ['show', 'add-search'])).phase).not.toBe('done');
  });

  it('stops the run when the planner writes the task list and marks a task done by hand before the run has read its call (its calls read only when the turn ends)', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    const board = await fakeBoard({ scenario: { by_hand: { tasks: [{ replace: tasksFile, from: 'status: todo', to: 'status: done' }] } } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'tasks'], { AGENTBOARD_TEST_UNWATCHED_CALLS: '1' });
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'document.edited')).toEqual([expect.objectContaining({ role: 'planner', file: tasksFile })]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    // The copy is the list agentboard wrote, rendered again from its ledger: the edit is all that differs.
    const kept = r.events.at(-1).next_steps.find((s: string) => s.startsWith('cp '))!.split(' ')[1]!;
    expect(readFileSync(join(board.dir, kept), 'utf8').replaceAll('status: todo', 'status: done')).toBe(readFileSync(join(board.dir, tasksFile), 'utf8'));
  });

  it('stops the run when a worker edits the task list by hand: nothing of the edit is taken, validate and status show it, and the way back works', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    // Its first turn does nothing through agentboard: it marks the other tasks done in the file itself.
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'], '*': ['work'] }, by_hand: { T1: [{ replace: tasksFile, from: 'status: todo', to: 'status: done' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }, { title: 'Show them' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const said = `${tasksFile} was edited by hand, not through agentboard, while fake-w1 worked on add-search/T1. Board documents change only through agentboard, which checks the rules and records who did what: the run takes nothing of this edit, starts no other agent and stops for a person, who keeps it or undoes it.`;
    expect(r.events.filter((e) => e.type === 'document.edited')).toEqual([expect.objectContaining({ agent_id: 'fake-w1', role: 'worker', task_id: 'add-search/T1', file: tasksFile, message: said })]);
    expect(agentInvocations(board)).toHaveLength(1);
    const [runId] = runIds(board.dir);
    const kept = `agentd/.runtime/runs/${runId}/tasks.md.agentboard`;
    const steps = [`diff -u ${kept} ${tasksFile}   # what changed, against what agentboard last wrote`, `cp ${kept} ${tasksFile}   # undo it`, 'agentboard run add-search   # then go on: an edit kept is taken as a person\'s'];
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed', message: said, next_steps: steps });
    // The copy is what agentboard last wrote: the edit is all that differs.
    const edited = readFileSync(join(board.dir, tasksFile), 'utf8');
    expect(readFileSync(join(board.dir, kept), 'utf8').replaceAll('status: todo', 'status: done')).toBe(edited);
    expect(edited.match(/status: done/g)).toHaveLength(2);

    // status and validate show the edit; validate names the tasks made done by it, and the command that does; the log says whose turn it was.
    expect((await ok(board.dir, ['status'])).hand_edited).toEqual([tasksFile]);
    const validate = await cli(board.dir, ['validate', 'add-search', '--json']);
    expect(validate.code).toBe(1);
    const findings = validate.json.data.changes[0].findings;
    expect(validate.json.data.hand_edited).toEqual([tasksFile]);
    expect(findings.filter((f: any) => f.rule === 'tasks.done.by_hand').map((f: any) => [f.level, f.line])).toEqual([
      ['error', edited.split('\n').indexOf('## T2: Rank the results') + 1],
      ['error', edited.split('\n').indexOf('## T3: Show them') + 1],
    ]);
    expect(findings.find((f: any) => f.rule === 'tasks.done.by_hand')).toMatchObject({
      message: "task T2 was made done by a hand edit of the file, where agentboard recorded it todo: a hand edit decides nothing, so the board goes on with todo (the tasks that depend on it wait), and agentboard's next write of the list puts todo back",
      fix: 'if it is done, a person marks it done with `agentboard task done add-search/T2 --as human:<your name>`; otherwise set its line back to "status: todo"',
    });
    const log = (await ok(board.dir, ['log', '--change', 'add-search'])).entries;
    expect(log[0]).toMatchObject({ actor: 'agentboard', action: 'file.edited', target: tasksFile, summary: expect.stringContaining('during the turn of fake-w1 on add-search/T1') });

    // As advised: undone, the next run goes on and every task is worked.
    expect(shellSteps(board.dir, steps.slice(0, 2))).toEqual([1, 0]);
    const again = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.events.filter((e) => e.type === 'task.done').map((e) => [e.task_id, e.agent_id])).toEqual([
      ['add-search/T1', 'fake-w1'],
      ['add-search/T2', 'fake-w1'],
      ['add-search/T3', 'fake-w1'],
    ]);
    expect((await ok(board.dir, ['status'])).hand_edited).toEqual([]);
  });

  it('keeps the byte order mark of a task list edited by hand during a turn: its copy to put back is what agentboard last wrote, byte for byte, and said so', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'], '*': ['work'] }, by_hand: { T1: [{ replace: tasksFile, from: 'status: todo', to: 'status: done' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    // Saved again by an editor that puts a byte order mark first: no edit, and what agentboard writes keeps it.
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(board.dir, tasksFile))]);
    writeFileSync(join(board.dir, tasksFile), marked);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const [runId] = runIds(board.dir);
    const kept = `agentd/.runtime/runs/${runId}/tasks.md.agentboard`;
    expect(r.events.at(-1).next_steps.slice(0, 2)).toEqual([`diff -u ${kept} ${tasksFile}   # what changed, against what agentboard last wrote`, `cp ${kept} ${tasksFile}   # undo it`]);
    // The copy is the file as agentboard last wrote it, mark and all: the edit is all that differs.
    const copy = readFileSync(join(board.dir, kept));
    expect(copy.subarray(0, 3).equals(marked.subarray(0, 3))).toBe(true);
    expect(copy.toString('utf8').replaceAll('status: todo', 'status: done')).toBe(readFileSync(join(board.dir, tasksFile), 'utf8'));
    expect(shellSteps(board.dir, r.events.at(-1).next_steps.slice(1, 2))).toEqual([0]);
    expect((await ok(board.dir, ['status'])).hand_edited).toEqual([]);
  });

  it('compares a document checked out with CRLF line ends to what agentboard last wrote as the same text, when an agent edits it by hand', async () => {
    const proposal = 'agentd/changes/add-search/proposal.md';
    const board = await fakeBoard();
    expect(run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'proposal']).code).toBe(0);
    // As a checkout with core.autocrlf leaves it: no edit, and nothing writes it before the planner's next turn.
    writeFileSync(join(board.dir, proposal), readFileSync(join(board.dir, proposal), 'utf8').replace(/\n/g, '\r\n'));
    setScenario(board, { by_hand: { spec: [{ replace: proposal, from: 'status: submitted', to: 'status: approved' }] } });
    const r = run(board.dir, ['add-search', '--until', 'spec']);
    expect(r.code).toBe(1);
    const [runId] = runIds(board.dir).slice(-1);
    const kept = `agentd/.runtime/runs/${runId}/proposal.md.agentboard`;
    expect(r.events.at(-1).next_steps.slice(0, 1)).toEqual([`diff -u ${kept} ${proposal}   # what changed, against what agentboard last wrote`]);
    expect(readFileSync(join(board.dir, kept), 'utf8').replace('status: submitted', 'status: approved')).toBe(readFileSync(join(board.dir, proposal), 'utf8'));
  });

  it('takes an edit of text made by hand during a turn as a person\'s: merged, said, and the run goes on', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    // During T1's first turn (which writes nothing) a title is edited in the file; during T2's, a
    // description, and the agent's own write of that turn merges it.
    const board = await fakeBoard({
      scenario: {
        implementation: { T1: ['idle', 'work'], '*': ['work'] },
        by_hand: { T1: [{ replace: tasksFile, from: '## T3: Show them', to: '## T3: Show them on one page' }], T2: [{ replace: tasksFile, from: 'Rank the results', to: 'Rank the results by date' }] },
      },
    });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }, { title: 'Show them' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.events.filter((e) => e.type === 'document.edited')).toEqual([]);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'notice', message: `${tasksFile} was edited by hand during the turn of fake-w1, in text only: taken as a person's edit (merged), as any write would.` }));
    expect(r.events.filter((e) => e.type === 'task.done').map((e) => e.task_id)).toEqual(['add-search/T1', 'add-search/T2', 'add-search/T3']);
    const text = readFileSync(join(board.dir, tasksFile), 'utf8');
    expect(text).toContain('## T3: Show them on one page');
    expect(text).toContain('## T2: Rank the results by date');
    expect((await ok(board.dir, ['status'])).hand_edited).toEqual([]);
  });

  it('merges no task branch that changes the board\'s documents under agentd/changes', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    const { board, r, head } = await mergeOfBranchChanging(tasksFile, (text) => text.replace('status: todo', 'status: done'));
    expect(r.events.at(-1)).toMatchObject({
      outcome: 'failed',
      message: `agentboard/add-search/T1 (add-search/T1) changes ${tasksFile}, which decides what the board's documents say (the tasks, their states and who did them); no agent may change it, so the run merges the branch only once a person has: nothing of it, and no branch after it, was merged.`,
    });
    expect(git(board.dir, ['rev-parse', 'HEAD'])).toBe(head);
    // The next steps work as written, from a subfolder too: the branch loses its change of the board's file, the run then merges the rest of it.
    const steps: string[] = r.events.at(-1).next_steps;
    expect(steps.some((s) => s.startsWith('git merge '))).toBe(false);
    const sub = join(board.dir, 'src');
    mkdirSync(sub);
    expect(shellSteps(sub, steps.slice(0, 2))).toEqual([0, 0]);
    expect(git(board.dir, ['diff', '--name-only', 'HEAD...agentboard/add-search/T1', '--', 'agentd'])).toBe('');
    setScenario(board, { review: ['approved'] });
    const again = run(sub, ['add-search', '--merge']);
    expect(again.code, JSON.stringify(again.events.at(-1))).toBe(0);
    expect(again.events.filter((e) => e.type === 'merge.done').map((e) => e.branch)).toEqual(['agentboard/add-search/T1']);
    expect(git(board.dir, ['diff', 'HEAD^1', 'HEAD', '--', 'agentd'])).toBe('');
  });

  it('stops at once when the task list no longer parses after a worker\'s turn: no attempt spent on it, the claim left, and the way back works', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    // During T1's first turn (which finishes nothing) a person adds a line above T2's YAML block: the file no longer parses.
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'], '*': ['work'] }, by_hand: { T1: [{ replace: tasksFile, from: '## T2: Rank the results\n', to: '## T2: Rank the results\n\nPerson: use ES modules here.\n' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    expect(agentInvocations(board)).toHaveLength(1);
    expect(r.events.some((e) => e.type === 'task.attempt_failed' || e.type === 'task.released')).toBe(false);
    const end = r.events.at(-1);
    expect(end.message).toMatch(new RegExp(`^${tasksFile} no longer parses \\(${tasksFile}:\\d+: .+\\): it was edited by hand while fake-w1 worked on add-search/T1\\.`));
    expect(end.message).not.toContain('Cleaning up failed');
    const [runId] = runIds(board.dir);
    const kept = `agentd/.runtime/runs/${runId}/tasks.md.agentboard`;
    expect(end.next_steps).toEqual([
      `diff -u ${kept} ${tasksFile}   # what changed, against what agentboard last wrote`,
      `cp ${kept} ${tasksFile}   # undo it (or fix the file by hand at the line named)`,
      "agentboard run add-search   # then go on: an edit kept is taken as a person's",
    ]);
    expect(shellSteps(board.dir, end.next_steps.slice(0, 2))).toEqual([1, 0]);
    // The claim was left as it was.
    expect((await ok(board.dir, ['task', 'show', 'add-search/T1'])).task).toMatchObject({ status: 'in_progress', assignee: 'fake-w1' });
    const again = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(again.code, again.stderr).toBe(0);
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => t.status)).toEqual(['done', 'done']);
  });

  it('stops before any agent when the task list has errors: the change is not taken as ready for review', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    const board = await fakeBoard({ scenario: {} });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    writeFileSync(join(board.dir, tasksFile), readFileSync(join(board.dir, tasksFile), 'utf8').replaceAll('priority: medium', 'priority: [medium'));
    expect((await ok(board.dir, ['list'])).changes[0]).toMatchObject({ phase: 'implementation', waiting_on: 'its task list file to be fixed: it has errors' });
    const r = run(board.dir, ['add-search']);
    expect(r.code).toBe(1);
    expect(agentInvocations(board)).toHaveLength(0);
    const end = r.events.at(-1);
    expect(end.message).toMatch(new RegExp(`^The task list of add-search has errors \\(${tasksFile}:\\d+: .+\\): none of its tasks is handed out until a person fixes the file\\.$`));
    expect(end.next_steps).toEqual([`agentboard validate add-search   # every problem, with its line; fix ${tasksFile} by hand`, 'agentboard run add-search   # then go on']);
  });

  it('takes back, in the next run, the claims a stopped run left even for workers the next run does not have', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    const scenario = { implementation: { T1: ['idle', 'work'], T2: ['idle', 'work'], '*': ['work'] }, by_hand: { T1: [{ replace: tasksFile, from: '## T3: Show them\n', to: '## T3: Show them\n\nPerson: use ES modules here.\n' }] } };
    // T2's first turn lasts until T1's has ended: no write of T2's races with the edit T1's agent
    // makes in place (a save that does not parse, landing on the file while a commit replaces it, is
    // kept among the conflicts with agentboard's text left in place, and the run has no edit to stop for).
    const board = await fakeBoard({ scenario: { ...scenario, linger: { T2: 3000 } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }, { title: 'Show them' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '2']);
    expect(r.code).toBe(1);
    setScenario(board, scenario);
    // T3's block no longer parses (it is left out of reads); the two claims are left as they are
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([
      ['add-search/T1', 'in_progress', 'fake-w1'],
      ['add-search/T2', 'in_progress', 'fake-w2'],
    ]);
    expect(shellSteps(board.dir, r.events.at(-1).next_steps.slice(1, 2))).toEqual([0]);
    const [first] = runIds(board.dir);
    // one worker now: the stopped run's claims (fake-w2's too) are released at the start, and every task is worked
    const again = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '1']);
    expect(again.code, again.stderr).toBe(0);
    const reason = expect.stringContaining(`run ${first} ended and left it claimed`);
    expect(again.events.filter((e) => e.type === 'task.released').map((e) => [e.task_id, e.reason])).toEqual([['add-search/T1', reason], ['add-search/T2', reason]]);
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.status, t.assignee])).toEqual([
      ['done', 'fake-w1'],
      ['done', 'fake-w1'],
      ['done', 'fake-w1'],
    ]);
  });

  it('stops for a person when the task list stops parsing while another task\'s worktree is made: that task\'s claim is left, not the run ended on an error', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    // T1's agent edits the list by hand and goes on for a while; T2's worktree is made meanwhile (a
    // hook of the repository waits for the edit), so T2's branch cannot be recorded, nor T2 released.
    const board = await fakeBoard({ scenario: { linger: { T1: 1500 }, implementation: { T1: ['idle', 'work'], '*': ['work'] }, by_hand: { T1: [{ replace: tasksFile, from: '## T3: Show them\n', to: '## T3: Show them\n\nPerson: use ES modules here.\n' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }, { title: 'Show them' }]);
    writeFileSync(join(board.dir, '.git/hooks/post-checkout'), `#!/bin/sh\ncase "$(git rev-parse --abbrev-ref HEAD)" in\n  */T2) for i in $(seq 1 200); do grep -q 'Person: use ES modules' '${join(board.dir, tasksFile)}' && exit 0; sleep 0.05; done ;;\nesac\nexit 0\n`, { mode: 0o755 });
    const r = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '2']);
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'notice').map((e) => e.message)).toContainEqual(expect.stringMatching(/^add-search\/T2 could not be released \(.+\); its claim stays, and the next run takes it back\.$/));
    const end = r.events.at(-1);
    expect(end.message).toMatch(/^agentd\/changes\/add-search\/tasks\.md no longer parses \(.+\): it was edited by hand while fake-w1 worked on add-search\/T1\./);
    // the edit shown, then undone: the claims are as the run left them
    expect(shellSteps(board.dir, end.next_steps.slice(0, 2))).toEqual([1, 0]);
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([
      ['add-search/T1', 'in_progress', 'fake-w1'],
      ['add-search/T2', 'in_progress', 'fake-w2'],
      ['add-search/T3', 'todo', null],
    ]);
  });

  it('gives next steps whose paths work from the subfolder the run was started in', async () => {
    const tasksFile = 'agentd/changes/add-search/tasks.md';
    const board = await fakeBoard({ scenario: { implementation: { T1: ['idle', 'work'], '*': ['work'] }, by_hand: { T1: [{ replace: tasksFile, from: 'status: todo', to: 'status: done' }] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    const sub = join(board.dir, 'src/lib');
    mkdirSync(sub, { recursive: true });
    const r = run(sub, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const steps = r.events.at(-1).next_steps;
    expect(steps[0]).toMatch(/^diff -u \.\.\/\.\.\/agentd\/\.runtime\/runs\/.+\/tasks\.md\.agentboard \.\.\/\.\.\/agentd\/changes\/add-search\/tasks\.md   #/);
    expect(shellSteps(sub, steps.slice(0, 2))).toEqual([1, 0]);
    expect(run(sub, ['add-search', '--until', 'implementation']).code).toBe(0);
  });

  it('releases at the end of a worker\'s turn a task it took that the run did not give it', async () => {
    const board = await fakeBoard({ scenario: { implementation: { T1: ['work_then_grab'], '*': ['work'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    const reason = 'fake-w1 took it during its turn on add-search/T1 of run ' + runIds(board.dir)[0] + ', which did not give it that task; released at the end of the turn';
    expect(r.events.filter((e) => e.type === 'task.released')).toEqual([expect.objectContaining({ agent_id: 'fake-w1', task_id: 'add-search/T2', reason })]);
    // Then handed out by the run, one task at a time.
    expect(r.events.filter((e) => e.type === 'task.claimed').map((e) => e.task_id)).toEqual(['add-search/T1', 'add-search/T2']);
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([
      ['add-search/T1', 'done', 'fake-w1'],
      ['add-search/T2', 'done', 'fake-w1'],
    ]);
    expect((await ok(board.dir, ['log', '--change', 'add-search'])).entries.filter((e: any) => e.action === 'task.claim').map((e: any) => e.target)).toEqual(['add-search/T2', 'add-search/T2', 'add-search/T1']);
  });

  it('names its workers for the change when their ids hold work in another change, so one id never holds two tasks', async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'other', [{ title: 'Elsewhere' }]);
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    await ok(board.dir, ['next', '--as', 'fake-w1', '--change', 'other']);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.events[0]).toMatchObject({ type: 'run.started', agents: { workers: ['fake-w1.add-search'] } });
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([
      ['add-search/T1', 'done', 'fake-w1.add-search'],
      ['other/T1', 'in_progress', 'fake-w1'],
    ]);
  });

  it('gives the workers of two runs of different changes started at the same instant ids of their own', async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'alpha', [{ title: 'First' }]);
    await changeWithTasks(board.dir, 'beta', [{ title: 'Second' }]);
    // alpha has chosen its worker ids and stops before it records its run; beta, started after, records its run and stops.
    const alpha = startRun(board.dir, ['alpha', '--until', 'implementation'], { AGENTBOARD_TEST_FAULT: 'stop:run:record' });
    await until('alpha to stop', () => processState(alpha.child.pid!) === 'T');
    const beta = startRun(board.dir, ['beta', '--until', 'implementation'], { AGENTBOARD_TEST_FAULT: 'stop:run:recorded' });
    await until('beta to stop', () => processState(beta.child.pid!) === 'T');
    alpha.child.kill('SIGCONT');
    expect(await alpha.done, alpha.stderr()).toBe(0);
    beta.child.kill('SIGCONT');
    expect(await beta.done, beta.stderr()).toBe(0);
    expect(beta.events[0]).toMatchObject({ type: 'run.started', agents: { workers: ['fake-w1'] } });
    expect(alpha.events[0]).toMatchObject({ type: 'run.started', agents: { workers: ['fake-w1.alpha'] } });
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([
      ['alpha/T1', 'done', 'fake-w1.alpha'],
      ['beta/T1', 'done', 'fake-w1'],
    ]);
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

  it('runs the planner again after a refused, failed or empty first proposal on a change the run creates, with the refusal fed back', async () => {
    for (const first of ['invalid', 'exit_silently', 'crash']) {
      const board = await fakeBoard({ scenario: { proposal: [first, 'valid'] } });
      const r = run(board.dir, ['greet', '--goal', 'Let people search the board', '--until', 'proposal']);
      expect(r.code, `${first}: ${r.stdout}`).toBe(0);
      expect(agentInvocations(board).map((i) => i.action)).toEqual([first, 'valid']);
      expect(r.events.filter((e) => e.type === 'phase.refused').map((e) => [e.attempt, e.reason])).toEqual([[1, first === 'crash' ? 'The proposal was not submitted. The agent exited with code 3.' : 'The proposal was not submitted.']]);
      expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
      if (first === 'invalid') {
        const [runId] = runIds(board.dir);
        expect(prompt(board.dir, runId!, 2)).toContain('agentboard_submit_proposal: INVALID_INPUT: Invalid input: why needs at least 50 characters (got 6).');
      }
      expect(await ok(board.dir, ['show', 'greet', 'proposal'])).toMatchObject({ status: 'submitted', revision: 1 });
    }
  });

  it('spells the references in everything a run says, in text and in --json, and in its records', async () => {
    const MARKS = /[\uFDD0\uFDD1]/;
    // A worker removes the change's folder: the board's refusal (with its next step) ends the run.
    const board = await fakeBoard({ scenario: { by_hand: { T1: [{ remove: 'agentd/changes/add-search' }] } } });
    const outputs: string[] = [];
    for (const json of [true, false]) {
      await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
      rmSync(board.state, { recursive: true, force: true });
      const r = cliProcess(board.dir, ['run', 'add-search', '--until', 'implementation', ...(json ? ['--json'] : [])]);
      expect(r.code).toBe(1);
      outputs.push(r.stdout + r.stderr);
      if (json) expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!).next_steps).toEqual(['List the changes with `agentboard list`, or create this one with `agentboard new add-search`.']);
      else expect(r.stdout).toContain('next: List the changes with `agentboard list`, or create this one with `agentboard new add-search`.');
    }
    // A new change whose planner never writes a valid proposal.
    const fresh = await fakeBoard({ scenario: { proposal: ['invalid'] } });
    for (const json of [true, false]) {
      const r = cliProcess(fresh.dir, ['run', 'greet', '--goal', 'Let people search the board', '--max-attempts', '2', ...(json ? ['--json'] : [])]);
      expect(r.code).toBe(1);
      outputs.push(r.stdout + r.stderr);
    }
    expect(outputs.filter((o) => MARKS.test(o))).toEqual([]);
    for (const dir of [board.dir, fresh.dir]) {
      for (const id of runIds(dir)) {
        for (const f of ['run.json', 'events.jsonl']) expect(readFileSync(join(dir, 'agentd/.runtime/runs', id, f), 'utf8')).not.toMatch(MARKS);
      }
    }
  });

  it('caps a transcript: its head and its tail kept, what lies between left out and counted', async () => {
    const board = await fakeBoard({ scenario: { chatter: 3_000_000 } });
    const r = run(board.dir, ['add-search', '--goal', 'Let people search the board', '--until', 'proposal']);
    expect(r.code).toBe(0);
    const [runId] = runIds(board.dir);
    const transcript = readFileSync(join(board.dir, 'agentd/.runtime/runs', runId!, '001.transcript.log'));
    const MiB = 1024 * 1024;
    const text = transcript.toString('latin1');
    const note = /\n\[agentboard: (\d+) bytes of output left out here; this transcript keeps the first (\d+) and the last (\d+) of (\d+) bytes\]\n/.exec(text)!;
    const [dropped, first, last, total] = note.slice(1).map(Number) as [number, number, number, number];
    expect([first, last]).toEqual([MiB, MiB]);
    expect(first + dropped + last).toBe(total);
    expect(total).toBeGreaterThan(3_000_000);
    expect(note.index).toBe(MiB);
    expect(transcript.length).toBe(MiB + note[0].length + MiB);
    expect(text.startsWith('chatter 0 ')).toBe(true);
    expect(transcript.subarray(-MiB).toString('utf8')).toContain('agentboard_submit_proposal → ok');
  });
});
