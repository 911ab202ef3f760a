/**
 * People's files on a shared board: a person's edit is merged onto the shared board, never lost
 * by a sync; a snapshot a branch brings into agentd/ gives way to the shared board; documents
 * reach people's branches with `agentboard remote publish`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, ok } from '../helpers.js';
import { git, remoteFile, sharedBoard, stoppedAt } from './helpers.js';

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
    expect(claim.json.notices.join(' ')).toMatch(/tasks\.md: you edited it and the shared board changed it too; your edit stays in the file and the next write merges it/);
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
    expect(r.notices.join(' ')).toMatch(/tasks\.md: you edited it and the shared board changed it too; your edit stays in the file/);
    expect(remoteFile(shared, 'changes/search/tasks.md')).toMatch(/## T1: Index[\s\S]*assignee: alice-agent[\s\S]*## T3: Rank\n/);
    expect(readFileSync(tasksOf(a), 'utf8')).toBe(saved);
    expect(existsSync(join(a, 'agentd/.runtime/remote/pending.json'))).toBe(false);

    expect((await ok(a, ['remote', 'sync'])).merged).toEqual(['agentd/changes/search/tasks.md']);
    const merged = remoteFile(shared, 'changes/search/tasks.md');
    expect(merged).toMatch(/## T1: Index[\s\S]*assignee: alice-agent[\s\S]*## T3: Rank by date/);
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
