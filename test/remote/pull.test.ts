/**
 * `agentboard remote pull` when git does not simply succeed: a merge or a rebase stopped on a
 * conflict (in the board's files or in the code), staged copies of the board, a pull killed while
 * git ran, and git's own words in the errors. agentd/ shows the shared board in every case, agents
 * keep working, and plain git finishes what git started, as the message says.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, cliProcess, ok } from '../helpers.js';
import { codeConflict, commitCode, git, gitTry, remoteFile, sharedBoard } from './helpers.js';

const tasksOf = (dir: string) => join(dir, 'agentd/changes/search/tasks.md');
const sharedTasks = (shared: { remote: string; clones: string[] }) => remoteFile(shared, 'changes/search/tasks.md');

async function twoClones() {
  const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }, { title: 'Query' }, { title: 'Rank' }, { title: 'Cache' }]));
  await ok(shared.clones[1]!, ['status', '--sync']);
  return shared;
}

/** Both clones published the board into their branch after a claim each; a pushed, b did not: b's pull meets the same files added on both sides. */
async function bothPublished(rebase: boolean) {
  const shared = await twoClones();
  const [a, b] = shared.clones as [string, string];
  await ok(a, ['next', '--as', 'alice-agent']);
  await ok(a, ['remote', 'publish']);
  git(a, ['push', '-q', 'origin', 'HEAD']);
  await ok(b, ['next', '--as', 'bob-agent']);
  await ok(b, ['remote', 'publish']);
  git(b, ['config', 'pull.rebase', String(rebase)]);
  return shared;
}

/** Whether git waits for a person to finish a merge or a rebase. */
function midway(dir: string): boolean {
  return gitTry(dir, ['rev-parse', '-q', '--verify', 'MERGE_HEAD']).code === 0 || existsSync(join(dir, '.git/rebase-merge')) || existsSync(join(dir, '.git/rebase-apply'));
}

/** Runs the git commands a next step names between backquotes (those that finish: not the ones that give up). */
function runSteps(dir: string, nextStep: string): string[] {
  const commands = [...nextStep.matchAll(/`(git [^`]+)`/g)].map((m) => m[1]!).filter((c) => c !== 'git status' && c !== 'git add' && !c.endsWith('--abort'));
  for (const c of commands) {
    const args = c.split(' ').slice(1);
    const r = gitTry(dir, ['-c', 'core.editor=true', ...args]);
    expect(r.code, `${c}: ${r.stderr}`).toBe(0);
  }
  return commands;
}

/** Clone b holds the board tracked (a published it, b pulled it), and has claimed a task since. */
async function tracked() {
  const shared = await twoClones();
  const [a, b] = shared.clones as [string, string];
  await ok(a, ['remote', 'publish']);
  git(a, ['push', '-q', 'origin', 'HEAD']);
  await ok(b, ['remote', 'pull']);
  await ok(b, ['next', '--as', 'bob-agent']);
  return shared;
}

describe('`agentboard remote pull` stopped by a conflict', () => {
  for (const rebase of [false, true]) {
    it(`on the board's own files (pull.rebase ${rebase}): settles them to the shared board, agents keep working, and plain git finishes the ${rebase ? 'rebase' : 'merge'}`, async () => {
      const shared = await bothPublished(rebase);
      const [a, b] = shared.clones as [string, string];

      const r = await cli(b, ['remote', 'pull', '--json']);
      expect(r.code).toBe(1);
      expect(r.json.error.code).toBe('GIT_FAILED');
      expect(r.json.error.message).toMatch(/^git pull --quiet stopped half-way: [\s\S]*CONFLICT \(add\/add\): Merge conflict in agentd\/changes\/search\/tasks\.md[\s\S]*; agentd\/ shows the shared board\.$/);
      expect(r.json.error.next_step).not.toContain('remote pull');
      expect(r.json.error.next_step).toContain(rebase ? '`git rebase --continue`' : '`git commit`');
      const text = readFileSync(tasksOf(b), 'utf8');
      expect(text).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);
      expect(text.trimEnd()).toBe(sharedTasks(shared));
      expect(sharedTasks(shared)).toMatch(/## T1: Index[\s\S]*assignee: alice-agent[\s\S]*## T2: Query[\s\S]*assignee: bob-agent/);
      expect(git(b, ['ls-files', '--unmerged', '--', 'agentd'])).toBe('');
      expect((await ok(b, ['remote', 'status'])).hand_edited).toEqual([]);

      // Agents keep working meanwhile.
      expect((await ok(b, ['next', '--as', 'carol-agent'])).task.task_id).toBe('search/T3');
      await ok(b, ['task', 'note', 'search/T3', 'Started on it', '--as', 'carol-agent']);

      // Pulling again while git waits is refused, and says how to finish instead.
      const again = await cli(b, ['remote', 'pull', '--json']);
      expect(again.json.error).toMatchObject({ code: 'GIT_FAILED', message: `git is in the middle of a ${rebase ? 'rebase' : 'merge'} that stopped half-way (on a conflict, say); nothing was changed.`, next_step: r.json.error.next_step });
      // So is publishing, with the same steps: no commit can be made meanwhile.
      const publish = await cli(b, ['remote', 'publish', '--json']);
      expect(publish.json.error).toMatchObject({ code: 'GIT_FAILED', message: `git is in the middle of a ${rebase ? 'rebase' : 'merge'} that stopped half-way (on a conflict, say), so no commit can be made; nothing was changed.`, next_step: r.json.error.next_step });

      const ran = runSteps(b, r.json.error.next_step);
      expect(ran.at(-1)).toBe(rebase ? 'git rebase --continue' : 'git commit');
      expect(midway(b)).toBe(false);
      expect(git(b, ['merge-base', '--is-ancestor', git(a, ['rev-parse', 'HEAD']), 'HEAD'])).toBe('');
      expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(sharedTasks(shared));
      expect(sharedTasks(shared)).toMatch(/## T3: Rank[\s\S]*assignee: carol-agent[\s\S]*Started on it/);
      expect((await ok(b, ['remote', 'pull'])).after).toBe(git(b, ['rev-parse', 'HEAD']));
    });
  }

  it('on the code, with pull.rebase true: the rebase goes on with the commands the message gives, though agents wrote meanwhile', async () => {
    const shared = await twoClones();
    const b = shared.clones[1]!;
    await codeConflict(shared, 'bob-agent', true);

    const r = await cli(b, ['remote', 'pull', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.message).toContain('Merge conflict in code.txt');
    expect(r.json.error.message).toContain('hint: Resolve all conflicts manually');
    expect(r.json.error.next_step).toBe('Settle the conflicts `git status` lists and `git add` them, stage the board\'s files as agents left them with `git add -u -- agentd/changes`, then `git rebase --continue` goes on (`git rebase --abort` gives it up).');
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(sharedTasks(shared));

    writeFileSync(join(b, 'code.txt'), 'from both\n');
    git(b, ['add', 'code.txt']);
    await ok(b, ['next', '--as', 'carol-agent']);
    expect(gitTry(b, ['-c', 'core.editor=true', 'rebase', '--continue']).stdout).toContain('You must edit all merge conflicts');
    runSteps(b, r.json.error.next_step);
    expect(midway(b)).toBe(false);
    expect(readFileSync(join(b, 'code.txt'), 'utf8')).toBe('from both\n');
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(sharedTasks(shared));
    expect(sharedTasks(shared)).toMatch(/## T1: Index[\s\S]*assignee: bob-agent[\s\S]*## T2: Query[\s\S]*assignee: carol-agent/);
    const pulled = cliProcess(b, ['remote', 'pull']);
    expect(pulled.code, pulled.stderr).toBe(0);
  });
});

describe('a board file a plain `git pull` left with conflict markers', () => {
  it('is settled to the shared board by the next write, git\'s version kept; `git add` and `git commit` finish the merge', async () => {
    const shared = await bothPublished(false);
    const b = shared.clones[1]!;
    expect(gitTry(b, ['pull', '-q']).stdout).toContain('CONFLICT (add/add)');
    const marked = readFileSync(tasksOf(b), 'utf8');
    expect(marked).toContain('<<<<<<<');

    const r = await cli(b, ['next', '--as', 'carol-agent', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.data.task.task_id).toBe('search/T3');
    const said = r.json.notices.join(' ');
    expect(said).toMatch(/agentd\/changes\/search\/tasks\.md: git stopped on a conflict in it \(a merge or a rebase\); the shared board holds both sides' writes and shows instead; git's version is kept in (agentd\/\.runtime\/remote\/kept\/\S+\/changes\/search\/tasks\.md)\./);
    expect(readFileSync(join(b, said.match(/is kept in (\S+)\./)![1]!), 'utf8')).toBe(marked);
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(sharedTasks(shared));
    expect(sharedTasks(shared)).toMatch(/assignee: alice-agent[\s\S]*assignee: bob-agent[\s\S]*assignee: carol-agent/);
    expect((await ok(b, ['remote', 'status'])).hand_edited).toEqual([]);
    git(b, ['add', 'agentd/changes/search/tasks.md']);
    git(b, ['commit', '-q', '--no-edit']);
    expect(midway(b)).toBe(false);
  });
});

describe('`agentboard remote pull` and the index', () => {
  it('moves staged copies of the board out of git\'s way like unstaged ones, also when agents wrote since the git add', async () => {
    const shared = await tracked();
    const [a, b] = shared.clones as [string, string];
    git(b, ['add', '-A', 'agentd/changes']);
    await ok(b, ['next', '--as', 'carol-agent']);
    expect(git(b, ['status', '--porcelain', '--', 'agentd/changes'])).toBe('MM agentd/changes/search/tasks.md');
    await ok(a, ['next', '--as', 'alice-agent']);
    await ok(a, ['remote', 'publish']);
    git(a, ['push', '-q', 'origin', 'HEAD']);
    await ok(b, ['status', '--sync']);
    expect(gitTry(b, ['pull', '-q']).stderr).toContain('Your local changes to the following files would be overwritten by merge');

    const r = await ok(b, ['remote', 'pull']);
    expect(r).toMatchObject({ after: git(a, ['rev-parse', 'HEAD']), made_way: ['agentd/changes/search/tasks.md'] });
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(sharedTasks(shared));
    expect(sharedTasks(shared)).toMatch(/assignee: bob-agent[\s\S]*assignee: carol-agent[\s\S]*assignee: alice-agent/);
  });

  it("refuses a staged version that is a person's edit, changing nothing", async () => {
    const shared = await tracked();
    const b = shared.clones[1]!;
    const proposal = join(b, 'agentd/changes/search/proposal.md');
    const before = readFileSync(proposal, 'utf8');
    writeFileSync(proposal, before.replace('Add a board.', 'Add a board, staged.'));
    git(b, ['add', proposal]);
    writeFileSync(proposal, before);
    const head = git(b, ['rev-parse', 'HEAD']);
    const r = await cli(b, ['remote', 'pull', '--json']);
    expect(r.json.error).toEqual({
      code: 'HAND_EDITED',
      message: 'agentd/changes/search/proposal.md is staged (git add or git rm) in a version that differs from the shared board, and git may overwrite it; nothing was changed.',
      next_step: 'Commit what you staged, or unstage it with `git restore --staged` followed by the files (the working tree keeps them as they are); then try `agentboard remote pull` again.',
    });
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(b, ['show', ':agentd/changes/search/proposal.md'])).toContain('Add a board, staged.');
  });
});

describe('`agentboard remote pull` killed while git runs', () => {
  it('leaves a note the next read acts on: the shared board is put back, not shown as an older snapshot edited by hand', async () => {
    const shared = await tracked();
    const [a, b] = shared.clones as [string, string];
    commitCode(a, 'more\n');
    git(a, ['push', '-q', 'origin', 'HEAD']);

    const killed = cliProcess(b, ['remote', 'pull'], { env: { AGENTBOARD_TEST_FAULT: 'remote:aside' } });
    expect(killed.code).toBe(-1);
    expect(readFileSync(tasksOf(b), 'utf8')).not.toContain('bob-agent');
    // the git pull it started runs to its end on its own
    git(b, ['pull', '-q']);

    const read = await cli(b, ['task', 'show', 'search/T1', '--json']);
    expect(read.code, read.stdout).toBe(0);
    expect(read.json.data.task.assignee).toBe('bob-agent');
    expect(read.json.notices.join(' ')).toMatch(/A git pull that `agentboard remote pull` started \(\S+\) was interrupted with the board's files out of its way; agentd\/ shows the shared board again\./);
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(sharedTasks(shared));
    expect((await ok(b, ['remote', 'status'])).hand_edited).toEqual([]);
    expect(existsSync(join(b, 'agentd/.runtime/remote/aside.json'))).toBe(false);
  });

  it('and git stopped on the board\'s files: the next read settles them to the shared board, and git commit finishes the merge', async () => {
    const shared = await bothPublished(false);
    const b = shared.clones[1]!;

    expect(cliProcess(b, ['remote', 'pull'], { env: { AGENTBOARD_TEST_FAULT: 'remote:aside' } }).code).toBe(-1);
    expect(gitTry(b, ['pull', '-q']).stdout).toContain('CONFLICT (add/add)');
    expect(readFileSync(tasksOf(b), 'utf8')).toContain('<<<<<<<');

    const list = await ok(b, ['task', 'list']);
    expect(list.tasks.map((t: any) => [t.task_id, t.assignee])).toEqual([
      ['search/T1', 'alice-agent'],
      ['search/T2', 'bob-agent'],
      ['search/T3', null],
      ['search/T4', null],
    ]);
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(sharedTasks(shared));
    git(b, ['commit', '-q', '--no-edit']);
    expect(midway(b)).toBe(false);
  });
});

describe("git's words in a shared board's errors", () => {
  it('name the reason a remote cannot be reached, not the last line of git\'s advice', async () => {
    const shared = await twoClones();
    const a = shared.clones[0]!;
    git(a, ['remote', 'set-url', 'origin', join(shared.remote, '..', 'gone.git')]);
    const r = await cli(a, ['next', '--as', 'alice-agent', '--json']);
    expect(r.json.error.code).toBe('REMOTE_UNREACHABLE');
    expect(r.json.error.message).toBe(
      'The shared board\'s remote "origin" could not be reached ("origin" does not appear to be a git repository; Could not read from remote repository); a claim, a release or any other exclusive write must be agreed with the remote, so nothing was written.',
    );
  });

  it("keep git pull's hints, which name the choices", async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    commitCode(a, 'from a\n');
    git(a, ['push', '-q', 'origin', 'HEAD']);
    writeFileSync(join(b, 'other.txt'), 'from b\n');
    git(b, ['add', 'other.txt']);
    git(b, ['commit', '-q', '-m', 'other']);
    const r = await cli(b, ['remote', 'pull', '--json']);
    expect(r.json.error.code).toBe('GIT_FAILED');
    const message: string = r.json.error.message;
    expect(message).toContain('\n  hint:   git config pull.rebase false  # merge\n  hint:   git config pull.rebase true   # rebase\n');
    expect(message).toMatch(/\n  Need to specify how to reconcile divergent branches; agentd\/ shows the shared board as before\.$/);
    expect(message.length).toBeLessThan(2_200);
    expect(r.json.error.next_step).toBe('Fix what git says (git status shows the state), then try `agentboard remote pull` again.');
  });
});
