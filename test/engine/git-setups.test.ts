/**
 * `agentboard run` on the git setups people have: each ends with the tasks' work on their branches,
 * or stops with what git said and the commands that go on, losing nothing.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cliProcess, ok } from '../helpers.js';
import { agentInvocations, fakeBoard, git, jsonLines, prompt, run, runIds, shellSteps, startRun, until } from './helpers.js';

const BRANCH = 'agentboard/add-search/T1';

/** A board whose change add-search has one task, T1, that the fake worker does (it writes work/T1.txt and finishes). */
async function oneTask(options: Parameters<typeof fakeBoard>[0] = {}) {
  const board = await fakeBoard({ scenario: { implementation: { '*': ['work'] } }, ...options });
  await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
  return board;
}

/** A hook of the repository that refuses, saying so. */
function refusingHook(dir: string, name: string): void {
  writeFileSync(join(dir, '.git/hooks', name), `#!/bin/sh\necho "${name} says no" >&2\nexit 1\n`);
  chmodSync(join(dir, '.git/hooks', name), 0o755);
}

function worktreeOf(board: { dir: string }): string {
  return join(board.dir, '..', `${board.dir.split('/').pop()}.agentboard-worktrees`, 'add-search', 'T1');
}

describe('agentboard run on the git setups people have', () => {
  it('commits the work where git has an email but may not guess a name (user.useConfigOnly), with the configured email', async () => {
    const board = await oneTask();
    git(board.dir, ['config', 'user.useConfigOnly', 'true']);
    git(board.dir, ['config', 'user.email', 'me@example.com']);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, JSON.stringify(r.events.at(-1))).toBe(0);
    expect(git(board.dir, ['show', `${BRANCH}:work/T1.txt`])).toBe('T1 done by fake-w1\n');
    expect(git(board.dir, ['log', '-1', '--format=%an <%ae> / %cn <%ce>', BRANCH]).trim()).toBe('fake-w1 <fake-w1@agents.agentboard.invalid> / tester <me@example.com>');
  });

  it('stops, with what git said and the command that commits it, when git refuses to commit what a worker left (commit.gpgsign without a usable key); the next run commits it once git can', async () => {
    const board = await oneTask();
    git(board.dir, ['config', 'commit.gpgsign', 'true']);
    git(board.dir, ['config', 'gpg.program', join(board.dir, '..', 'no-gpg')]);
    const start = git(board.dir, ['rev-parse', 'HEAD']).trim();
    const worktree = worktreeOf(board);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    const end = r.events.at(-1);
    expect(end).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    expect(end.message).toBe(
      `What fake-w1 left uncommitted in its worktree of add-search/T1 could not be committed on ${BRANCH}: git said "fatal: cannot run ${join(board.dir, '..', 'no-gpg')}: No such file or directory error: gpg failed to sign the data fatal: failed to write commit object". It is still there, uncommitted; the run reviews and merges ${BRANCH} only, so it starts no other agent and stops for a person.`,
    );
    expect(end.next_steps).toEqual([
      `git -C ${worktree} add -A && git -C ${worktree} commit --no-verify -m 'add-search/T1: Index the titles' --author 'fake-w1 <fake-w1@agents.agentboard.invalid>'   # commit it yourself once what git said is fixed`,
      'agentboard run add-search   # then go on (it commits what is left there itself, once git can)',
    ]);
    // Nothing lost: the work is in the worktree (added, not committed), the branch as it started.
    expect(git(worktree, ['status', '--porcelain'])).toBe('A  work/T1.txt\n');
    expect(git(board.dir, ['rev-parse', BRANCH]).trim()).toBe(start);

    // As advised, once git can commit: the next run commits it on the task's branch.
    git(board.dir, ['config', 'commit.gpgsign', 'false']);
    const again = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(again.code, JSON.stringify(again.events.at(-1))).toBe(0);
    expect(git(board.dir, ['show', `${BRANCH}:work/T1.txt`])).toBe('T1 done by fake-w1\n');
  });

  it('names every commit git refused in one run, each with its own command, when workers of several tasks left work git will not commit', async () => {
    // Both workers wait until both have started, so that both turns end with work that git refuses to commit.
    const board = await fakeBoard({ scenario: { implementation: { '*': ['work_on_go'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    git(board.dir, ['config', 'commit.gpgsign', 'true']);
    git(board.dir, ['config', 'gpg.program', join(board.dir, '..', 'no-gpg')]);
    const live = startRun(board.dir, ['add-search', '--until', 'implementation', '--workers', '2']);
    await until('both workers to start', () => ['fake-w1', 'fake-w2'].every((w) => existsSync(join(board.state, `waiting-${w}.json`))));
    writeFileSync(join(board.state, 'go'), '');
    expect(await live.done, live.stderr()).toBe(1);
    const end = live.events.at(-1);
    expect(end).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    const worked = Object.fromEntries(live.events.filter((e) => e.type === 'task.claimed').map((e) => [e.task_id, e.agent_id]));
    const gitSaid = `git said "fatal: cannot run ${join(board.dir, '..', 'no-gpg')}: No such file or directory error: gpg failed to sign the data fatal: failed to write commit object".`;
    const [first, second] = live.events.filter((e) => e.type === 'notice' && e.message.includes('could not be committed')).map((e) => e.message.match(/worktree of (\S+) /)[1]);
    expect([first, second].sort()).toEqual(['add-search/T1', 'add-search/T2']);
    const said = (ref: string) => `What ${worked[ref]} left uncommitted in its worktree of ${ref} could not be committed on agentboard/${ref}: ${gitSaid}`;
    expect(end.message).toBe(`${said(first)} ${said(second)} They are still there, uncommitted; the run reviews and merges the tasks' branches only, so it starts no other agent and stops for a person.`);
    const commit = (ref: string, title: string) => {
      const worktree = join(board.dir, '..', 'repo.agentboard-worktrees', ref);
      return `git -C ${worktree} add -A && git -C ${worktree} commit --no-verify -m '${ref}: ${title}' --author '${worked[ref]} <${worked[ref]}@agents.agentboard.invalid>'   # commit it yourself once what git said is fixed`;
    };
    const titles: Record<string, string> = { 'add-search/T1': 'Index the titles', 'add-search/T2': 'Rank the results' };
    expect(end.next_steps).toEqual([commit(first, titles[first]), commit(second, titles[second]), 'agentboard run add-search   # then go on (it commits what is left there itself, once git can)']);
    // As said: each command commits its task's work on its branch once git can.
    git(board.dir, ['config', 'commit.gpgsign', 'false']);
    expect(shellSteps(board.dir, end.next_steps.slice(0, 2))).toEqual([0, 0]);
    expect(git(board.dir, ['show', 'agentboard/add-search/T1:work/T1.txt'])).toMatch(/^T1 done by /);
    expect(git(board.dir, ['show', 'agentboard/add-search/T2:work/T2.txt'])).toMatch(/^T2 done by /);
  });

  it('commits, in a sparse checkout, what a worker wrote outside the folders checked out', async () => {
    const board = await oneTask();
    mkdirSync(join(board.dir, 'src'));
    writeFileSync(join(board.dir, 'src/index.js'), 'export {};\n');
    git(board.dir, ['add', 'src']);
    git(board.dir, ['commit', '-q', '-m', 'src']);
    git(board.dir, ['sparse-checkout', 'set', 'src', 'agentd']);
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, JSON.stringify(r.events.at(-1))).toBe(0);
    expect(git(board.dir, ['show', `${BRANCH}:work/T1.txt`])).toBe('T1 done by fake-w1\n');
  });

  it('commits a worker\'s work past a refusing pre-commit hook, and leaves no merge half done when a hook refuses the merge of --merge', async () => {
    const board = await oneTask();
    refusingHook(board.dir, 'pre-commit');
    refusingHook(board.dir, 'commit-msg');
    const head = git(board.dir, ['rev-parse', 'HEAD']).trim();
    const r = run(board.dir, ['add-search', '--merge']);
    expect(r.code).toBe(1);
    expect(git(board.dir, ['show', `${BRANCH}:work/T1.txt`])).toBe('T1 done by fake-w1\n');
    expect(r.events.at(-1).message).toBe(`Merging ${BRANCH} (add-search/T1) into the current branch failed: commit-msg says no; nothing of it was merged, and the branches after it were not merged either.`);
    // As said: nothing of it merged, and no merge in progress left for the person's next git command to trip on.
    expect(git(board.dir, ['rev-parse', 'HEAD']).trim()).toBe(head);
    expect(git(board.dir, ['status', '--porcelain', '--untracked-files=no'])).toBe('');
    expect(() => git(board.dir, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'])).toThrow();
  });

  it('says, with --merge on a detached HEAD, that the merges are on no branch, and how to keep them', async () => {
    const board = await oneTask({ scenario: { implementation: { '*': ['work'] }, review: ['approved'] } });
    git(board.dir, ['checkout', '-q', '--detach']);
    const r = run(board.dir, ['add-search', '--merge']);
    expect(r.code, JSON.stringify(r.events.at(-1))).toBe(0);
    expect(r.events.filter((e) => e.type === 'merge.done').map((e) => e.branch)).toEqual([BRANCH]);
    const notice = r.events.find((e) => e.type === 'notice' && e.message.startsWith('HEAD is detached'));
    expect(notice?.message).toMatch(/merged onto no branch.*git switch -c <branch>$/);
    // As said: the step keeps the merge on a branch.
    git(board.dir, ['switch', '-q', '-c', 'kept']);
    expect(git(board.dir, ['show', 'kept:work/T1.txt'])).toBe('T1 done by fake-w1\n');
  });

  it('works in the worktree git made when a post-checkout hook of the repository fails after making it, and says what the hook said', async () => {
    const board = await oneTask();
    refusingHook(board.dir, 'post-checkout');
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code, JSON.stringify(r.events.at(-1))).toBe(0);
    expect(r.events.filter((e) => e.type === 'notice').map((e) => e.message)).toContain('git made the worktree of add-search/T1, and a hook of the repository failed after it: post-checkout says no. The task is worked there all the same.');
    expect(git(board.dir, ['show', `${BRANCH}:work/T1.txt`])).toBe('T1 done by fake-w1\n');
  });

  it('starts a task from its dependencies\' work, merged past a commit-msg hook that refuses, even when one is finished on the board while its worker\'s turn goes on', async () => {
    // T1's agent finishes T1, then goes on a while; meanwhile T2 is done, and T3 (which needs both) is handed out.
    const board = await fakeBoard({ scenario: { implementation: { '*': ['work'] }, linger: { T1: 1000 } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Query the index' }, { title: 'Show the results', depends: ['T1', 'T2'] }]);
    refusingHook(board.dir, 'commit-msg');
    const r = run(board.dir, ['add-search', '--until', 'implementation', '--workers', '2']);
    expect(r.code, JSON.stringify(r.events.at(-1))).toBe(0);
    expect(r.events.filter((e) => e.type === 'notice')).toEqual([]);
    const t3 = 'agentboard/add-search/T3';
    expect(git(board.dir, ['show', `${t3}:work/T1.txt`])).toBe('T1 done by fake-w1\n');
    expect(git(board.dir, ['show', `${t3}:work/T2.txt`])).toBe('T2 done by fake-w2\n');
  });

  it('gives next steps that work in a shell where the repository\'s path holds spaces, quotes and letters beyond ASCII, and the agent\'s branch name is only a name there', async () => {
    const elsewhere = 'aside;touch${IFS}pwned';
    const board = await oneTask({ name: `it's "our" repö`, scenario: { implementation: { T1: ['switch_back'] }, elsewhere } });
    const r = run(board.dir, ['add-search', '--until', 'implementation']);
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'worktree.off_branch').map((e) => e.head)).toEqual([elsewhere]);
    const steps: string[] = r.events.at(-1).next_steps;
    expect(steps).toHaveLength(3);
    for (const step of steps.slice(0, 2)) {
      const shell = spawnSync('sh', ['-c', step.split('   #')[0]!], { cwd: board.dir, encoding: 'utf8' });
      expect(shell.status, `${step}\n${shell.stderr}`).toBe(0);
    }
    expect(existsSync(join(board.dir, 'pwned'))).toBe(false);
    expect(git(board.dir, ['show', `${BRANCH}:T1.txt`])).toBe('T1 done by fake-w1\n');
  });

  it('names paths in the words of its messages as a shell reads them back, where the repository\'s path holds spaces and quotes', async () => {
    const name = `it's "our" repö`;
    const quoted = (path: string) => `'${path.replace(/'/g, `'\\''`)}'`;
    // A file where the folder of worktrees belongs: refused, naming it.
    const board = await oneTask({ name, scenario: { implementation: { '*': ['work'] }, file: { T1: `../../../${name}/agentd/config.yaml` }, content: { T1: 'agents: {}' } } });
    const folder = join(board.dir, '..', `${name}.agentboard-worktrees`);
    writeFileSync(folder, 'not a folder\n');
    const refused = JSON.parse(run(board.dir, ['add-search']).stdout.trim()).error;
    expect(refused.message).toBe(`The tasks' worktrees go in ${quoted(folder)} (beside the repository, as run: worktrees: is not set), and it cannot be used: ${quoted(folder)} is a file, where a folder belongs.`);
    expect(refused.next_step).toBe(`Move ${quoted(folder)} aside, or set run: worktrees: in agentd/config.yaml to a folder outside the repository that you can write in; then run again (or run with --no-worktrees to share the working tree).`);
    rmSync(folder);
    // A change not committed: --merge is refused, naming it.
    writeFileSync(join(board.dir, 'notes of mine.txt'), 'mine\n');
    git(board.dir, ['add', 'notes of mine.txt']);
    const dirty = JSON.parse(run(board.dir, ['add-search', '--merge']).stdout.trim()).error;
    expect(dirty.message).toContain("its working tree has changes not committed ('notes of mine.txt').");
    git(board.dir, ['commit', '-q', '-m', 'notes']);
    // Run from the folder above, the agent rewriting the person's config.yaml: the commands that undo it work as written there.
    const above = join(board.dir, '..');
    const config = readFileSync(join(board.dir, 'agentd/config.yaml'), 'utf8');
    const r = cliProcess(above, ['run', 'add-search', '--until', 'implementation', '--json', '--root', board.dir]);
    expect(r.code, r.stderr).toBe(1);
    const end = jsonLines(r.stdout).at(-1);
    const steps: string[] = end.next_steps;
    const [runId] = runIds(board.dir);
    expect(steps[1]).toBe(`cp ${quoted(`${name}/agentd/.runtime/runs/${runId}/config.yaml.before`)} ${quoted(`${name}/agentd/config.yaml`)}   # undo it`);
    expect(shellSteps(above, steps.slice(0, 2))).toEqual([1, 0]);
    expect(readFileSync(join(board.dir, 'agentd/config.yaml'), 'utf8')).toBe(config);
  });

  /** A run with --merge whose worker's branch adds `file`: refused (exit 1), with its last event. */
  async function mergeRefused(file: string) {
    const board = await oneTask({ scenario: { implementation: { '*': ['work'] }, file: { T1: file } } });
    git(board.dir, ['add', '-A']);
    git(board.dir, ['commit', '-q', '-m', 'the plan']);
    const r = run(board.dir, ['add-search', '--merge']);
    expect(r.code).toBe(1);
    return { board, end: r.events.at(-1) };
  }

  it('names a file an agent added to the board on its branch, whatever its name, in --merge\'s next steps that work as written', async () => {
    const file = `agentd/changes/add-search/it's; touch pwned ü.md`;
    const { board, end } = await mergeRefused(file);
    expect(end.message).toMatch(new RegExp(`^${BRANCH} \\(add-search/T1\\) changes ${file.replace(/[.$]/g, '\\$&')}, which decides`));
    const identity = { GIT_AUTHOR_NAME: 'tester', GIT_AUTHOR_EMAIL: 'tester@example.com', GIT_COMMITTER_NAME: 'tester', GIT_COMMITTER_EMAIL: 'tester@example.com' };
    for (const step of end.next_steps.slice(0, 2) as string[]) {
      const shell = spawnSync('sh', ['-c', step.split('   #')[0]!], { cwd: board.dir, encoding: 'utf8', env: { ...process.env, ...identity } });
      expect(shell.status, `${step}\n${shell.stderr}`).toBe(0);
    }
    expect(existsSync(join(board.dir, 'pwned'))).toBe(false);
    // As advised: the branch no longer adds the file, the rest of its work stays.
    expect(git(board.dir, ['diff', '--name-only', `HEAD...${BRANCH}`])).toBe('');
  });

  it('merges no branch that changes the board\'s own prompts, which steer later runs: a person keeps the change or takes it out', async () => {
    const file = 'agentd/prompts/implementation.md';
    const { board, end } = await mergeRefused(file);
    expect(end.message).toBe(`${BRANCH} (add-search/T1) changes ${file}, which decides what the run tells each phase's agents (the board's own prompts); no agent may change it, so the run merges the branch only once a person has: nothing of it, and no branch after it, was merged.`);
    expect(end.next_steps[1]).toBe(`git merge ${BRANCH}   # if you keep its change`);
    expect(existsSync(join(board.dir, file))).toBe(false);
  });

  it('merges no branch that brings a file the working tree holds untracked or ignored (a person\'s own), naming it and how to go on', async () => {
    const board = await oneTask();
    // The person's own file where the worker writes its work, ignored in this checkout only.
    writeFileSync(join(board.dir, '.gitignore'), 'work/\n');
    mkdirSync(join(board.dir, 'work'), { recursive: true });
    writeFileSync(join(board.dir, 'work/T1.txt'), 'MY OWN NOTES\n');
    const r = run(board.dir, ['add-search', '--merge']);
    expect(r.code).toBe(1);
    const end = r.events.at(-1);
    expect(end.message).toBe(`${BRANCH} (add-search/T1) brings work/T1.txt, which is in the working tree but not in git (untracked or ignored): the merge would replace it, so nothing of the branch, and no branch after it, was merged.`);
    expect(readFileSync(join(board.dir, 'work/T1.txt'), 'utf8')).toBe('MY OWN NOTES\n');
    expect(git(board.dir, ['branch', '--merged', 'HEAD', '--list', BRANCH]).trim()).toBe('');
    // As advised: moved aside, the next --merge merges the branch.
    expect(shellSteps(board.dir, [end.next_steps[0]])).toEqual([0]);
    expect(readFileSync(join(board.dir, 'work/T1.txt.mine'), 'utf8')).toBe('MY OWN NOTES\n');
    const again = run(board.dir, ['add-search', '--merge']);
    expect(again.events.some((e: any) => e.type === 'merge.done' && e.task_id === 'add-search/T1')).toBe(true);
    expect(readFileSync(join(board.dir, 'work/T1.txt'), 'utf8')).toBe('T1 done by fake-w1\n');
  });
  it('neither merges nor reviews while a done task\'s branch is not in the repository (the task was worked in another clone), naming it, who did it and the commands that bring it; a task done without a branch is no matter', async () => {
    const board = await fakeBoard({ scenario: { implementation: { '*': ['work'] }, review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Rank the results' }]);
    // Done by hand: no branch recorded, no work to look for.
    await ok(board.dir, ['task', 'done', 'add-search/T2', '--as', 'outsider']);
    const origin = join(board.dir, '..', 'origin.git');
    git(board.dir, ['init', '-q', '--bare', origin]);
    git(board.dir, ['remote', 'add', 'origin', origin]);
    expect(run(board.dir, ['add-search', '--until', 'implementation']).code).toBe(0);
    // As a clone that did not do T1 has it: its branch on the remote, not here, where the board records its name all the same.
    git(board.dir, ['push', '-q', 'origin', BRANCH]);
    git(board.dir, ['worktree', 'remove', '--force', worktreeOf(board)]);
    git(board.dir, ['branch', '-D', BRANCH]);
    git(board.dir, ['update-ref', '-d', 'refs/agentboard/start/add-search/T1']);
    const head = git(board.dir, ['rev-parse', 'HEAD']);
    const r = run(board.dir, ['add-search', '--merge']);
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      outcome: 'failed',
      message: `add-search/T1 (${BRANCH}, done by fake-w1) was done in another clone, and its branch is not in this repository: a run pushes no task branch. The run merges and reviews a task's work from its branch, so it merges nothing and starts no reviewer without it.`,
      next_steps: [
        "git push origin 'refs/heads/agentboard/add-search/*:refs/heads/agentboard/add-search/*'   # in each clone where fake-w1 ran: it puts the change's task branches on origin",
        `git fetch origin ${BRANCH}:${BRANCH}   # then here`,
        'agentboard run add-search --merge   # then go on',
      ],
    });
    expect(r.events.some((e) => e.type === 'invocation.started' || e.type === 'merge.done')).toBe(false);
    expect(git(board.dir, ['rev-parse', 'HEAD'])).toBe(head);

    // As advised (pushed already): fetched here, the branch is merged and its work reviewed.
    expect(shellSteps(board.dir, [r.events.at(-1).next_steps[1]])).toEqual([0]);
    const again = run(board.dir, ['add-search', '--merge']);
    expect(again.code, JSON.stringify(again.events.at(-1))).toBe(0);
    expect(again.events.filter((e) => e.type === 'merge.done').map((e) => e.branch)).toEqual([BRANCH]);
    expect(readFileSync(join(board.dir, 'work/T1.txt'), 'utf8')).toBe('T1 done by fake-w1\n');
    expect(agentInvocations(board).map((i) => i.env.AGENTBOARD_PHASE)).toEqual(['implementation', 'review']);
    const review = prompt(board.dir, runIds(board.dir).at(-1)!, 1);
    // The diff is the task's own work, though it is merged by then; T2 is shown with no diff and no word of a branch.
    expect(review).toContain('+T1 done by fake-w1');
    expect(review).toMatch(/### add-search\/T2: Rank the results \(done, by outsider\)\n\n(?!```diff)/);
  });
  it('tells the reviewer of a run without worktrees that a task\'s work on its branch is not shown, rather than show the task as if it had none', async () => {
    const board = await oneTask({ scenario: { implementation: { '*': ['work'] }, review: ['approved'] } });
    expect(run(board.dir, ['add-search', '--until', 'implementation']).code).toBe(0);
    const r = run(board.dir, ['add-search', '--no-worktrees']);
    expect(r.code, JSON.stringify(r.events.at(-1))).toBe(0);
    const review = prompt(board.dir, runIds(board.dir).at(-1)!, 1);
    const t1 = review.slice(review.indexOf('### add-search/T1'), review.indexOf('## What to do'));
    expect(t1).toMatch(new RegExp(`^### add-search/T1: Index the titles \\(done, by fake-w1, branch ${BRANCH}\\)\n`));
    expect(t1.trim().split('\n').at(-1)).toBe('(Its work is not shown: this run works without worktrees, so it reads no branch.)');
  });
});
