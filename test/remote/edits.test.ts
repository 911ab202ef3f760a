/**
 * People's files on a shared board: a person's edit is merged onto the shared board, never lost
 * by a sync; a snapshot a branch brings into agentd/ gives way to the shared board; documents
 * reach people's branches with `agentboard remote publish`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, cliProcess, ok, snapshot } from '../helpers.js';
import { activityOf, codeConflict, git, gitTry, remoteFile, sharedBoard, stoppedAt } from './helpers.js';

const tasksOf = (dir: string) => join(dir, 'agentd/changes/search/tasks.md');

async function twoClones() {
  const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }, { title: 'Query' }, { title: 'Rank' }]));
  await ok(shared.clones[1]!, ['status', '--sync']);
  return shared;
}

describe("a person's edit on a shared board", () => {
  it('survives a sync that changes the same file, and the next write merges it onto the shared board', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    writeFileSync(tasksOf(a), readFileSync(tasksOf(a), 'utf8').replace('## T2: Query', '## T2: Query in under 50 ms'));
    await ok(b, ['next', '--as', 'bob-agent']);

    const claim = await cli(a, ['next', '--as', 'alice-agent', '--json']);
    expect(claim.code, claim.stdout).toBe(0);
    expect(claim.json.notices.join(' ')).toMatch(/tasks\.md: edited by hand in this clone, and the shared board changed it too: the hand edit is kept, and the next write of the file merges it/);
    expect(claim.json.data.task).toMatchObject({ task_id: 'search/T2', title: 'Query in under 50 ms' });
    const shared_ = remoteFile(shared, 'changes/search/tasks.md');
    expect(shared_).toContain('## T2: Query in under 50 ms');
    expect(shared_).toMatch(/## T1: Index[\s\S]*assignee: bob-agent/);
    expect(shared_).toMatch(/## T2: Query in under 50 ms[\s\S]*assignee: alice-agent/);
    expect(readFileSync(tasksOf(a), 'utf8').trimEnd()).toBe(shared_);
    await ok(b, ['status', '--sync']);
    expect(readFileSync(tasksOf(b), 'utf8')).toBe(readFileSync(tasksOf(a), 'utf8'));
  });

  it('saved while a write is being pushed stays as the person left it, and the next write merges it onto the shared board', async () => {
    const shared = await twoClones();
    const [a] = shared.clones as [string, string];
    const claim = await stoppedAt(a, ['next', '--as', 'alice-agent', '--json'], 'remote:pushed');
    const saved = readFileSync(tasksOf(a), 'utf8').replace('## T3: Rank', '## T3: Rank by date');
    writeFileSync(tasksOf(a), saved);
    const { code, stdout } = await claim.go();
    expect(code, stdout).toBe(0);
    const r = JSON.parse(stdout);
    expect(r.data.task.task_id).toBe('search/T1');
    expect(r.notices.join(' ')).toMatch(/tasks\.md: edited by hand in this clone, and the shared board changed it too: the hand edit is kept/);
    expect(remoteFile(shared, 'changes/search/tasks.md')).toMatch(/## T1: Index[\s\S]*assignee: alice-agent[\s\S]*## T3: Rank\n/);
    expect(readFileSync(tasksOf(a), 'utf8')).toBe(saved);
    expect(existsSync(join(a, 'agentd/.runtime/remote/pending.json'))).toBe(false);

    expect((await ok(a, ['remote', 'sync'])).merged).toEqual(['agentd/changes/search/tasks.md']);
    const merged = remoteFile(shared, 'changes/search/tasks.md');
    expect(merged).toMatch(/## T1: Index[\s\S]*assignee: alice-agent[\s\S]*## T3: Rank by date/);
    expect(readFileSync(tasksOf(a), 'utf8').trimEnd()).toBe(merged);
  });

  it('is shared by `remote sync` in the name of the person who syncs: the shared board\'s commit and its activity name them', async () => {
    const shared = await twoClones();
    const [a] = shared.clones as [string, string];
    writeFileSync(tasksOf(a), readFileSync(tasksOf(a), 'utf8').replace('## T2: Query', '## T2: Query in under 50 ms'));
    expect((await ok(a, ['remote', 'sync'])).merged).toEqual(['agentd/changes/search/tasks.md']);
    expect(git(shared.remote, ['log', '-1', '--format=%an|%s', 'refs/agentboard/board'])).toBe('human:tester|human:tester: shared the hand edit of agentd/changes/search/tasks.md');
    expect(activityOf(a).at(-1)).toMatchObject({ actor: 'human:tester', action: 'file.share', target: 'agentd/changes/search/tasks.md' });
  });

  it('keeps the ids another clone retired meanwhile when the next write merges it: a deleted task\'s id is not given again', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    writeFileSync(tasksOf(a), readFileSync(tasksOf(a), 'utf8').replace('## T2: Query', '## T2: Query in under 50 ms'));
    // Meanwhile, on the other clone, a task comes and goes: clone a's ledger never saw it.
    expect((await ok(b, ['task', 'add', 'search', '--as', 'planner', '--title', 'Cache'])).task.task_id).toBe('search/T4');
    await ok(b, ['task', 'rm', 'search/T4', '--as', 'planner']);
    expect(remoteFile(shared, 'changes/search/tasks.md')).toMatch(/^retired: \[T4\]$/m);

    expect((await ok(a, ['task', 'add', 'search', '--as', 'planner', '--title', 'Suggest'])).task.task_id).toBe('search/T5');
    const merged = remoteFile(shared, 'changes/search/tasks.md');
    expect(merged).toMatch(/^retired: \[T4\]$/m);
    expect(merged).toMatch(/## T2: Query in under 50 ms[\s\S]*## T3: Rank[\s\S]*## T5: Suggest/);
    expect(readFileSync(tasksOf(a), 'utf8').trimEnd()).toBe(merged);
  });

  it('of a file nobody else changed stays until `agentboard remote sync` shares it', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    const proposal = join(a, 'agentd/changes/search/proposal.md');
    writeFileSync(proposal, readFileSync(proposal, 'utf8').replace('Add a board.', 'Add a board, with search.'));
    await ok(b, ['next', '--as', 'bob-agent']);
    await ok(a, ['status', '--sync']);
    expect(readFileSync(proposal, 'utf8')).toContain('Add a board, with search.');
    expect((await ok(a, ['remote', 'status'])).hand_edited).toEqual(['agentd/changes/search/proposal.md']);
    expect(remoteFile(shared, 'changes/search/proposal.md')).not.toContain('with search');

    const synced = await ok(a, ['remote', 'sync']);
    expect(synced.merged).toEqual(['agentd/changes/search/proposal.md']);
    expect(remoteFile(shared, 'changes/search/proposal.md')).toContain('Add a board, with search.');
    expect((await ok(a, ['remote', 'status'])).hand_edited).toEqual([]);
    await ok(b, ['status', '--sync']);
    expect(readFileSync(join(b, 'agentd/changes/search/proposal.md'), 'utf8')).toContain('Add a board, with search.');
  });

  it('writing a document the shared board does not hold yet (a design) is listed, and shared as written by `agentboard remote sync`', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    const design = '---\nid: search/design\nchange_id: search\ntype: design\nstatus: submitted\ncreated: 2026-11-23T05:05:08.436Z\nupdated: 2026-11-23T05:05:08.436Z\nauthor: alice\nrevision: 1\n---\n\n# Design\n\nOne index per shard.\n';
    writeFileSync(join(a, 'agentd/changes/search/design.md'), design);
    expect((await ok(a, ['remote', 'status'])).hand_edited).toEqual(['agentd/changes/search/design.md']);
    expect((await ok(a, ['status'])).hand_edited).toEqual(['agentd/changes/search/design.md']);

    expect((await ok(a, ['remote', 'sync'])).merged).toEqual(['agentd/changes/search/design.md']);
    expect(`${remoteFile(shared, 'changes/search/design.md')}\n`).toBe(design);
    expect(readFileSync(join(a, 'agentd/changes/search/design.md'), 'utf8')).toBe(design);
    expect((await ok(a, ['remote', 'status'])).hand_edited).toEqual([]);
    await ok(b, ['status', '--sync']);
    expect(readFileSync(join(b, 'agentd/changes/search/design.md'), 'utf8')).toBe(design);
    expect((await ok(b, ['remote', 'status'])).hand_edited).toEqual([]);
  });

  it('in a change another clone archived is kept aside and reported, never lost', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    writeFileSync(join(a, 'agentd/changes/search/sketch.txt'), 'my own sketch\n');
    writeFileSync(tasksOf(a), readFileSync(tasksOf(a), 'utf8').replace('## T3: Rank', '## T3: Rank by date'));
    for (const t of ['T1', 'T2', 'T3']) await ok(b, ['task', 'done', `search/${t}`, '--as', 'bob-agent']);
    await ok(b, ['review', 'search', '--as', 'reviewer', '--verdict', 'APPROVED', '--summary', 'Good.', '--notes', 'No additional notes.']);
    const archived = await ok(b, ['archive', 'search']);

    const r = await cli(a, ['list', '--archived', '--sync', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.data.changes.map((c: any) => [c.change_id, c.phase])).toEqual([['search', 'archived']]);
    expect(r.json.data.archived.map((x: any) => x.change_id)).toEqual(['search']);
    expect(existsSync(join(a, 'agentd/changes/search'))).toBe(false);
    expect(readFileSync(join(a, archived.archived_to, 'tasks.md'), 'utf8')).toContain('## T3: Rank\n');
    const said = r.json.notices.join(' ');
    expect(said).toMatch(/agentd\/changes\/search\/tasks\.md: your version differed from every synced one and the shared board removed it; your version is kept in agentd\/\.runtime\/remote\/kept\//);
    expect(said).toMatch(/agentd\/changes\/search\/sketch\.txt: your version differed from every synced one and the shared board removed its folder/);
    const kept = (await ok(a, ['remote', 'status'])).kept as string[];
    expect(kept).toHaveLength(2);
    expect(readFileSync(join(a, kept.find((k) => k.endsWith('sketch.txt'))!), 'utf8')).toBe('my own sketch\n');
    expect(readFileSync(join(a, kept.find((k) => k.endsWith('tasks.md'))!), 'utf8')).toContain('## T3: Rank by date');
  });
});

describe('a snapshot a branch brings into agentd/', () => {
  it('gives way to the shared board at the next sync, without being taken for an edit', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    const published = await ok(a, ['remote', 'publish']);
    expect(published).toMatchObject({ committed: true, branch: expect.any(String) });
    expect(git(a, ['show', '--stat', '--format=%s', 'HEAD'])).toContain('agentd/changes/search/tasks.md');
    expect(git(a, ['status', '--porcelain', '--', 'agentd/changes'])).toBe('');
    await ok(b, ['next', '--as', 'bob-agent']);
    await ok(a, ['status', '--sync']);
    expect(git(a, ['status', '--porcelain', '--', 'agentd/changes'])).toContain('tasks.md');
    // a person restores the branch's version (as a checkout of another branch would)
    git(a, ['checkout', 'HEAD', '--', 'agentd/changes']);
    const r = await cli(a, ['next', '--as', 'alice-agent', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.data.task.task_id).toBe('search/T2');
    expect((r.json.notices ?? []).join(' ')).not.toMatch(/edited/);
    expect(readFileSync(tasksOf(a), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
    expect((await ok(a, ['conflicts', 'list'])).conflicts).toEqual([]);
    const again = await ok(a, ['remote', 'publish', '--message', 'Board after two claims']);
    expect(again.committed).toBe(true);
    expect(git(a, ['log', '-1', '--format=%s'])).toBe('Board after two claims');
    expect((await ok(a, ['remote', 'publish'])).committed).toBe(false);
  });
});

describe('a board published into a branch, in another clone that shares it', () => {
  /** Clone a publishes the board into its branch and pushes it; clone b holds the same files untracked, written by its own sync. */
  async function published() {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['remote', 'publish']);
    git(a, ['push', '-q', 'origin', 'HEAD']);
    expect(git(b, ['status', '--porcelain', '--', 'agentd'])).toBe('?? agentd/changes/');
    return shared;
  }
  const boardFiles = (dir: string) => snapshot(join(dir, 'agentd/changes'));

  it('stops `git pull` on the untracked copies; `agentboard remote pull` takes the published commit and the board stays as shared', async () => {
    const shared = await published();
    const [a, b] = shared.clones as [string, string];
    const copies = git(b, ['ls-files', '--others', '--', 'agentd/changes']).split('\n');
    const pull = gitTry(b, ['pull', '-q']);
    expect(pull.code).not.toBe(0);
    expect(pull.stderr).toContain('untracked working tree files would be overwritten by merge');

    const r = await ok(b, ['remote', 'pull']);
    expect(r).toMatchObject({ before: git(a, ['rev-parse', 'HEAD~1']), after: git(a, ['rev-parse', 'HEAD']), made_way: copies, board_commit: git(shared.remote, ['rev-parse', 'refs/agentboard/board']) });
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(git(a, ['rev-parse', 'HEAD']));
    expect(git(b, ['status', '--porcelain', '--', 'agentd'])).toBe('');
    expect(boardFiles(b)).toEqual(boardFiles(a));

    // The board goes on from there; the next publish reaches b through tracked files changed by its sync.
    await ok(b, ['next', '--as', 'bob-agent']);
    expect(gitTry(b, ['status', '--porcelain', '--', 'agentd']).stdout).toBe(' M agentd/changes/search/tasks.md\n');
    await ok(a, ['next', '--as', 'alice-agent']);
    await ok(a, ['remote', 'publish']);
    git(a, ['push', '-q', 'origin', 'HEAD']);
    await ok(b, ['status', '--sync']);
    expect(gitTry(b, ['pull', '-q']).stderr).toContain('Your local changes to the following files would be overwritten by merge');
    const text = cliProcess(b, ['remote', 'pull']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Pulled \S+: [0-9a-f]{12} → [0-9a-f]{12}; 1 file of the board made way for git and came back from the shared board\. agentd\/ shows the shared board \(board commit [0-9a-f]{12}\)\.\n$/);
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(git(a, ['rev-parse', 'HEAD']));
    expect(git(b, ['status', '--porcelain', '--', 'agentd'])).toBe('');
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
    expect(remoteFile(shared, 'changes/search/tasks.md')).toMatch(/## T1: Index[\s\S]*assignee: bob-agent[\s\S]*## T2: Query[\s\S]*assignee: alice-agent/);
  });

  it("refuses while a copy holds a person's edit not shared yet, changing nothing; after `agentboard remote sync` it pulls and the edit stays", async () => {
    const shared = await published();
    const [a, b] = shared.clones as [string, string];
    const proposal = join(b, 'agentd/changes/search/proposal.md');
    writeFileSync(proposal, readFileSync(proposal, 'utf8').replace('Add a board.', 'Add a board, with search.'));
    const head = git(b, ['rev-parse', 'HEAD']);
    const before = boardFiles(b);

    const r = await cli(b, ['remote', 'pull', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({
      code: 'HAND_EDITED',
      message: 'agentd/changes/search/proposal.md differs from the shared board (edited here, not shared yet), and git may overwrite it; nothing was changed.',
      next_step: 'Share the edits with `agentboard remote sync` (a file it does not share, move out of agentd/), then try `agentboard remote pull` again.',
    });
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(head);
    expect(boardFiles(b)).toEqual(before);

    await ok(b, ['remote', 'sync']);
    await ok(b, ['remote', 'pull']);
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(git(a, ['rev-parse', 'HEAD']));
    expect(readFileSync(proposal, 'utf8')).toContain('Add a board, with search.');
    expect(remoteFile(shared, 'changes/search/proposal.md')).toContain('Add a board, with search.');
    expect(gitTry(b, ['status', '--porcelain', '--', 'agentd']).stdout).toBe(' M agentd/changes/search/proposal.md\n');
  });

  it('when git itself refuses, says why and leaves the board files and the branch as they were', async () => {
    const shared = await published();
    const b = shared.clones[1]!;
    git(b, ['switch', '-q', '-c', 'lonely']);
    const head = git(b, ['rev-parse', 'HEAD']);
    const before = boardFiles(b);
    const r = await cli(b, ['remote', 'pull', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('GIT_FAILED');
    expect(r.json.error.message).toMatch(/^git pull --quiet failed: There is no tracking information for the current branch\.\n[\s\S]*git branch --set-upstream-to=origin\/<branch> lonely; agentd\/ shows the shared board as before\.$/);
    expect(r.json.error.next_step).toBe('Fix what git says (git status shows the state), then try `agentboard remote pull` again.');
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(head);
    expect(boardFiles(b)).toEqual(before);
    expect(git(b, ['status', '--porcelain', '--', 'agentd'])).toBe('?? agentd/changes/');
  });

  it('stopped by a conflict in the code, leaves the merge to the person and agentd/ showing the shared board', async () => {
    const shared = await twoClones();
    const b = shared.clones[1]!;
    await codeConflict(shared, 'bob-agent', false);

    const r = await cli(b, ['remote', 'pull', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('GIT_FAILED');
    expect(r.json.error.message).toContain('Merge conflict in code.txt');
    expect(r.json.error.next_step).toBe("Settle the conflicts `git status` lists and `git add` them; then `git commit` finishes the merge (`git merge --abort` gives it up). The board's files need nothing: they show the shared board, and those git stopped on are staged.");
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
    expect(remoteFile(shared, 'changes/search/tasks.md')).toMatch(/## T1: Index[\s\S]*assignee: bob-agent/);

    writeFileSync(join(b, 'code.txt'), 'from both\n');
    git(b, ['add', 'code.txt']);
    git(b, ['commit', '-q', '--no-edit']);
    expect(gitTry(b, ['status', '--porcelain', '--', 'agentd']).stdout).toBe(' M agentd/changes/search/tasks.md\n');
    expect((await ok(b, ['next', '--as', 'carol-agent'])).task.task_id).toBe('search/T2');
    expect(remoteFile(shared, 'changes/search/tasks.md')).toMatch(/## T1: Index[\s\S]*assignee: bob-agent[\s\S]*## T2: Query[\s\S]*assignee: carol-agent/);
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
  });

  it('killed once the copies made way, leaves nothing lost: the next command puts the shared board back', async () => {
    const shared = await published();
    const [a, b] = shared.clones as [string, string];
    const before = boardFiles(b);
    const killed = cliProcess(b, ['remote', 'pull'], { env: { AGENTBOARD_TEST_FAULT: 'remote:aside' } });
    expect(killed.code).toBe(-1);
    expect(existsSync(tasksOf(b))).toBe(false);
    await ok(b, ['status', '--sync']);
    expect(boardFiles(b)).toEqual(before);
    const r = cliProcess(b, ['remote', 'pull']);
    expect(r.code, r.stderr).toBe(0);
    expect(git(b, ['rev-parse', 'HEAD'])).toBe(git(a, ['rev-parse', 'HEAD']));
    expect(boardFiles(b)).toEqual(before);
  });

  it('`agentboard remote switch` switches to a branch that holds the published board; an unknown branch changes nothing', async () => {
    const shared = await published();
    const [a, b] = shared.clones as [string, string];
    git(b, ['fetch', '-q']);
    const main = git(b, ['symbolic-ref', '--short', 'HEAD']);
    git(b, ['switch', '-q', '-c', 'topic']);
    git(b, ['branch', '-q', '-f', main, `origin/${main}`]);
    expect(gitTry(b, ['switch', '-q', main]).stderr).toContain('untracked working tree files would be overwritten by checkout');

    const before = boardFiles(b);
    const unknown = await cli(b, ['remote', 'switch', 'no-such-branch', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.json.error).toEqual({
      code: 'INVALID_INPUT',
      message: 'This repository has no branch "no-such-branch"; nothing was changed.',
      next_step: '`git branch -a` lists the branches (`git fetch` brings new ones); then run `agentboard remote switch` followed by the branch again.',
    });
    expect(git(b, ['symbolic-ref', '--short', 'HEAD'])).toBe('topic');
    expect(boardFiles(b)).toEqual(before);

    const r = await ok(b, ['remote', 'switch', main]);
    expect(r).toMatchObject({ branch: main, after: git(a, ['rev-parse', 'HEAD']) });
    expect(r.made_way).toContain('agentd/changes/search/tasks.md');
    expect(git(b, ['status', '--porcelain', '--', 'agentd'])).toBe('');
    expect(boardFiles(b)).toEqual(boardFiles(a));
  });
});

describe('a file that differs from the shared board only in its line ends or byte order mark', () => {
  const crlf = (text: string) => `\ufeff${text.replace(/\n/g, '\r\n')}`;

  it('saved by a Windows editor is no edit: a sync gives it the shared version, nothing is merged, and remote pull takes it for a copy', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    writeFileSync(tasksOf(a), crlf(readFileSync(tasksOf(a), 'utf8')));
    await ok(b, ['next', '--as', 'bob-agent']);

    const r = await cli(a, ['status', '--sync', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.notices.join(' ')).not.toMatch(/edited/);
    expect(readFileSync(tasksOf(a), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
    expect((await ok(a, ['remote', 'status'])).hand_edited).toEqual([]);
    const next = await cli(a, ['next', '--as', 'alice-agent', '--json']);
    expect(next.json.data.task.task_id).toBe('search/T2');
    expect(next.json.notices ?? []).toEqual([]);
    expect((await ok(a, ['conflicts', 'list'])).conflicts).toEqual([]);
    expect(activityOf(a).map((e) => e.action)).not.toContain('file.merge');

    // Saved again with Windows' line ends, the copy is still one: git pull may replace it.
    writeFileSync(tasksOf(a), crlf(readFileSync(tasksOf(a), 'utf8')));
    await ok(b, ['remote', 'publish']);
    git(b, ['push', '-q', 'origin', 'HEAD']);
    const pull = await cli(a, ['remote', 'pull', '--json']);
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.json.data.made_way).toContain('agentd/changes/search/tasks.md');
    expect(readFileSync(tasksOf(a), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
  });

  it.each([
    ['Windows line ends and a byte order mark', crlf, '\ufeff---\r\n', '\r\n'],
    ["an old Mac's lone CR line ends", (text: string) => text.replace(/\n/g, '\r'), '---\r', '\r'],
  ])('written to by agentboard stays so in this clone (%s), and is shared with LF line ends and without the mark', async (_, saved, start, end) => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    writeFileSync(tasksOf(a), saved(readFileSync(tasksOf(a), 'utf8')));
    expect((await ok(a, ['next', '--as', 'alice-agent'])).task.task_id).toBe('search/T1');
    const local = readFileSync(tasksOf(a), 'utf8');
    expect(local.startsWith(start)).toBe(true);
    expect(local).toContain(`assignee: alice-agent${end}`);
    const onRemote = remoteFile(shared, 'changes/search/tasks.md');
    expect(onRemote).not.toMatch(/\r|\ufeff/);
    expect(saved(`${onRemote}\n`)).toBe(local);
    expect((await ok(a, ['remote', 'status'])).hand_edited).toEqual([]);

    expect((await ok(b, ['next', '--as', 'bob-agent'])).task.task_id).toBe('search/T2');
    expect(readFileSync(tasksOf(b), 'utf8')).not.toMatch(/\r|\ufeff/);
    const r = await cli(a, ['status', '--sync', '--json']);
    expect(r.json.notices.join(' ')).not.toMatch(/edited|kept/);
    expect(readFileSync(tasksOf(a), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
    expect((await ok(a, ['conflicts', 'list'])).conflicts).toEqual([]);
  });

  it('checked out by git with core.autocrlf from an older publish gives way to the shared board', async () => {
    const shared = await twoClones();
    const [a, b] = shared.clones as [string, string];
    git(b, ['config', 'core.autocrlf', 'true']);
    await ok(a, ['remote', 'publish']);
    git(a, ['push', '-q', 'origin', 'HEAD']);
    await ok(a, ['next', '--as', 'alice-agent']);

    // git checks the published (older) board out with CRLF line ends; the shared board shows instead.
    const pull = await cli(b, ['remote', 'pull', '--json']);
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.json.notices ?? []).toEqual([]);
    expect(readFileSync(tasksOf(b), 'utf8').trimEnd()).toBe(remoteFile(shared, 'changes/search/tasks.md'));
    expect((await ok(b, ['task', 'show', 'search/T1'])).task).toMatchObject({ status: 'in_progress', assignee: 'alice-agent' });
    const next = await cli(b, ['next', '--as', 'bob-agent', '--json']);
    expect(next.json.data.task.task_id).toBe('search/T2');
    expect(next.json.notices ?? []).toEqual([]);
    expect((await ok(b, ['conflicts', 'list'])).conflicts).toEqual([]);
    expect((await ok(b, ['remote', 'status'])).kept).toEqual([]);
  });
});

describe('a document agentboard wrote in this clone that the shared board does not hold', () => {
  it('is no hand edit on a branch it came to with git switch, as on the branch it was written on', async () => {
    const shared = await twoClones();
    const b = shared.clones[1]!;
    // Written while this clone kept the board as its own; the clone then joins the shared board again.
    await ok(b, ['remote', 'disable']);
    await ok(b, ['review', 'search', '--as', 'reviewer', '--verdict', 'NEEDS_FIX', '--summary', 'Not yet.', '--notes', 'No additional notes.']);
    await ok(b, ['remote', 'enable']);
    expect((await ok(b, ['remote', 'status'])).hand_edited).toEqual([]);

    git(b, ['switch', '-q', '-c', 'topic']);
    expect((await ok(b, ['remote', 'status'])).hand_edited).toEqual([]);
    expect((await ok(b, ['status'])).hand_edited).toEqual([]);
    expect((await ok(b, ['remote', 'sync'])).merged).toEqual([]);
  });
});

describe('a hand edit that the same write settles', () => {
  it('is logged, committed and told without the conflict it no longer has', async () => {
    const shared = await twoClones();
    const a = shared.clones[0]!;
    await ok(a, ['next', '--as', 'alice-agent']);
    // The holder's person types the task done, then the holder makes it done.
    writeFileSync(tasksOf(a), readFileSync(tasksOf(a), 'utf8').replace('status: in_progress', 'status: done'));
    const done = await cli(a, ['task', 'done', 'search/T1', '--as', 'alice-agent', '--json']);
    expect(done.code, done.stdout).toBe(0);
    expect(done.json.notices ?? []).toEqual([]);
    expect((await ok(a, ['conflicts', 'list'])).conflicts).toEqual([]);
    const merge = activityOf(a).find((e) => e.action === 'file.merge');
    expect(merge?.summary).toBe('merged a hand edit of agentd/changes/search/tasks.md');
    expect(git(shared.remote, ['log', '-1', '--format=%B', 'refs/agentboard/board'])).toContain('agentboard: merged a hand edit of agentd/changes/search/tasks.md\n');
  });
});
