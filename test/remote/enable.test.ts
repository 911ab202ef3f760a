/**
 * Turning sharing on and off: the board goes to refs/agentboard/board on the remote, the setting to
 * config.yaml (so every clone follows it), and a second enable changes nothing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, cliProcess, FIXTURES, newBoard, ok, snapshot, tempDir } from '../helpers.js';
import { addClone, boardWithRemote, cloneTree, git, remoteFile, remoteTree, sharedBoard } from './helpers.js';

describe('agentboard remote enable', () => {
  it('puts the board on the remote under refs/agentboard/board and the setting in config.yaml; a second enable changes nothing', async () => {
    const { remote, clones } = await boardWithRemote();
    const dir = clones[0]!;
    await changeWithTasks(dir, 'search', [{ title: 'Index' }, { title: 'Query' }]);
    await ok(dir, ['next', '--as', 'claude']);
    const before = readFileSync(join(dir, 'agentd/config.yaml'), 'utf8');

    const enabled = await ok(dir, ['remote', 'enable']);
    expect(enabled).toMatchObject({ remote: 'origin', changed: true, joined: false });
    const config = readFileSync(join(dir, 'agentd/config.yaml'), 'utf8');
    expect(config.startsWith(before)).toBe(true);
    expect(config).toMatch(/\nremote: origin\n$/);

    const tree = remoteTree({ remote, clones });
    expect(Object.keys(tree)).toEqual(expect.arrayContaining(['changes/search/proposal.md', 'changes/search/spec.md', 'changes/search/tasks.md', 'runtime/state.json', 'runtime/activity/000001.jsonl']));
    expect(Object.keys(tree).some((p) => p.includes('ledger') || p.includes('config.yaml') || p.includes('people.yaml'))).toBe(false);
    expect(remoteFile({ remote, clones }, 'changes/search/tasks.md')).toBe(readFileSync(join(dir, 'agentd/changes/search/tasks.md'), 'utf8').trimEnd());
    const log = remoteFile({ remote, clones }, 'runtime/activity/000001.jsonl');
    expect(log).toContain('"action":"task.claim"');
    expect(log).toContain('"action":"remote.enable"');

    const again = await ok(dir, ['remote', 'enable', 'origin']);
    expect(again).toMatchObject({ changed: false });
    expect(readFileSync(join(dir, 'agentd/config.yaml'), 'utf8')).toBe(config);
    expect(git(remote, ['rev-list', '--count', 'refs/agentboard/board'])).toBe('2');
  });

  it('is followed by every clone that has the setting, which shows the shared board after its first sync', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }]));
    const other = addClone(shared);
    const status = await ok(other, ['status', '--sync']);
    expect(status.changes.map((c: any) => c.change_id)).toEqual(['search']);
    expect((await ok(other, ['remote', 'enable'])).changed).toBe(false);
    const claimed = await ok(other, ['next', '--as', 'codex']);
    expect(claimed.task.task_id).toBe('search/T1');
    const first = await ok(shared.clones[0]!, ['task', 'show', 'search/T1', '--sync']);
    expect(first.task).toMatchObject({ status: 'in_progress', assignee: 'codex' });
  });

  it('shares an import like any write: the changes land on the remote in one commit, and every clone shows them', async () => {
    const shared = await sharedBoard(2);
    const [a, b] = shared.clones as [string, string];
    const before = git(shared.remote, ['rev-list', '--count', 'refs/agentboard/board']);
    const imported = await ok(a, ['import', 'openspec', join(FIXTURES, 'import', 'openspec')]);
    const landed = imported.changes.filter((c: any) => c.status === 'imported').map((c: any) => c.change_id);
    expect(landed.length).toBeGreaterThan(0);
    expect(Number(git(shared.remote, ['rev-list', '--count', 'refs/agentboard/board']))).toBe(Number(before) + 1);
    const folders = new Set(Object.keys(remoteTree(shared)).map((p) => p.split('/').slice(0, 2).join('/')));
    const onRemote = [...folders].filter((f) => f.startsWith('changes/') || f.startsWith('archive/')).map((f) => f.replace(/^changes\/|^archive\/\d{4}-\d\d-\d\d-/, ''));
    expect(onRemote.sort()).toEqual([...landed].sort());
    const seen = await ok(b, ['list', '--archived', '--sync']);
    expect(seen.changes.map((c: any) => c.change_id).sort()).toEqual([...landed].sort());
    expect(cloneTree(b)).toEqual(cloneTree(a));
  });

  it('in a clone that worked on a board of its own joins the shared board, keeping what it replaces aside and saying so', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }]));
    const other = addClone(shared);
    // this clone works alone for a while (its config did not say the board was shared yet)
    writeFileSync(join(other, 'agentd/config.yaml'), readFileSync(join(other, 'agentd/config.yaml'), 'utf8').replace(/^#.*shared by every clone.*\n^remote: origin\n/m, ''));
    await changeWithTasks(other, 'solo-work', [{ title: 'Mine' }]);
    await ok(other, ['next', '--as', 'loner']);
    const r = await cli(other, ['remote', 'enable', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.data).toMatchObject({ changed: true, joined: true, local_only: ['agentd/changes/solo-work/'] });
    const said = r.json.notices.join('\n');
    expect(said).toMatch(/agentd\/\.runtime\/activity\.jsonl: this clone's activity log is not the shared board's; your version is kept in agentd\/\.runtime\/remote\/kept\//);
    expect(said).toMatch(/agentd\/\.runtime\/state\.json: your version differed/);
    const list = await ok(other, ['list']);
    expect(list.changes.map((c: any) => c.change_id)).toEqual(['search']);
    const kept = (await ok(other, ['remote', 'status'])).kept as string[];
    expect(readFileSync(join(other, kept.find((k) => k.endsWith('local.jsonl'))!), 'utf8')).toContain('"actor":"loner"');
    expect(readFileSync(join(other, kept.find((k) => k.endsWith('state.json'))!), 'utf8')).toContain('"loner"');
    expect(readFileSync(join(other, 'agentd/.runtime/activity.jsonl'), 'utf8')).not.toContain('loner');
  });

  it('again after disable, with work of its own, says what it holds is merged without undoing the shared board’s claims', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }, { title: 'Query' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['status', '--sync']);
    await ok(b, ['remote', 'disable']);
    expect((await ok(b, ['next', '--as', 'loner'])).task.task_id).toBe('search/T1');
    expect((await ok(a, ['next', '--as', 'shared-agent'])).task.task_id).toBe('search/T1');

    const r = await cli(b, ['remote', 'enable', '--json']);
    expect(r.code, r.stdout).toBe(0);
    const said = r.json.notices.join('\n');
    expect(said).toContain("agentd/changes/search/tasks.md: this clone's version differs from the shared board's (written while this clone did not share the board, or edited by hand); it stays in the file and the next write merges it onto the shared version as a person's edit is, so that no claim or status the shared board holds is undone (`agentboard remote sync` does it now). This clone's version is kept in agentd/.runtime/remote/kept/");
    expect(said).not.toContain('edited by hand in this clone');
    expect((await ok(b, ['remote', 'sync'])).merged).toEqual(['agentd/changes/search/tasks.md']);
    expect((await ok(b, ['task', 'show', 'search/T1'])).task.assignee).toBe('shared-agent');
    expect(remoteFile(shared, 'changes/search/tasks.md')).toMatch(/## T1: Index[\s\S]*assignee: shared-agent[\s\S]*## T2: Query\n/);
  });

  it('again after disable, says which claims made meanwhile the shared board does not keep, logs it there, and keeps this clone’s version', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }, { title: 'Query' }, { title: 'Rank' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['status', '--sync']);
    await ok(b, ['remote', 'disable']);
    // while b does not share the board: a claim (with a note), a task finished, a task added
    const claimed = (await ok(b, ['next', '--as', 'loner'])).task;
    await ok(b, ['task', 'note', 'search/T1', 'Started on the index', '--as', 'loner']);
    await ok(b, ['next', '--as', 'finisher']);
    await ok(b, ['task', 'done', 'search/T2', '--as', 'finisher']);
    await ok(b, ['task', 'add', 'search', '--title', 'Local only', '--as', 'loner']);
    // meanwhile the shared board hands T1 to another agent
    const taken = (await ok(a, ['next', '--as', 'shared-agent'])).task;
    expect(taken.task_id).toBe('search/T1');

    const r = await cli(b, ['remote', 'enable', '--json']);
    expect(r.code, r.stdout).toBe(0);
    const said = r.json.notices.join('\n');
    const kept = /kept in (agentd\/\.runtime\/remote\/kept\/[^ ]+\/changes\/search\/tasks\.md)\./.exec(said)![1]!;
    expect(said).toContain(`agentd/changes/search/tasks.md: loner's claim of search/T1 (claimed ${claimed.claimed_at}), made while this clone did not share the board, was dropped: shared-agent holds it on the shared board (claimed ${taken.claimed_at}); the board's activity log records it, and this clone's version is kept in ${kept}.`);
    expect(said).toContain('what finisher wrote of search/T2 (done by finisher), made while this clone did not share the board, was dropped: the shared board has it todo, held by nobody');
    expect(said).toContain('what loner wrote of search/T4 (the task itself), made while this clone did not share the board, was dropped: the shared board does not have the task');
    expect(said).not.toContain('search/T3');
    // this clone's version, with every write it made, is kept
    const copy = readFileSync(join(b, kept), 'utf8');
    expect(copy).toMatch(/## T1: Index[\s\S]*assignee: loner[\s\S]*Started on the index/);
    expect(copy).toContain('## T4: Local only');

    // the shared board's activity log says it, with the enable that joined
    const log = remoteFile(shared, 'runtime/activity/000001.jsonl').split('\n').map((l) => JSON.parse(l));
    const dropped = log.filter((e) => e.action.endsWith('_dropped')).map((e) => [e.actor, e.action, e.target]);
    expect(dropped).toEqual([
      ['agentboard', 'task.claim_dropped', 'search/T1'],
      ['agentboard', 'task.write_dropped', 'search/T2'],
      ['agentboard', 'task.write_dropped', 'search/T4'],
    ]);
    expect(log.find((e) => e.action === 'task.claim_dropped').summary).toContain("loner's claim of search/T1");
    expect(log.find((e) => e.action === 'task.claim_dropped').summary).toContain('shared-agent holds it');
    expect(existsSync(join(b, 'agentd/.runtime/remote/dropped.json'))).toBe(false);

    // the merge keeps the shared board's claim, and the note
    await ok(b, ['remote', 'sync']);
    const t1 = (await ok(a, ['task', 'show', 'search/T1', '--sync'])).task;
    expect(t1.assignee).toBe('shared-agent');
    expect(t1.notes.map((n: any) => n.text)).toEqual(['Started on the index']);
    expect(remoteFile(shared, 'runtime/activity/000001.jsonl').split('_dropped').length).toBe(4);
  });

  it('is a person’s command, and refuses a board without git or without that remote, changing nothing', async () => {
    const plain = await newBoard();
    const before = snapshot(plain);
    let r = await cli(plain, ['remote', 'enable', '--json']);
    expect(r.json.error.code).toBe('NOT_A_GIT_REPOSITORY');
    expect(r.json.error.next_step).toMatch(/git init/);
    expect(snapshot(plain)).toEqual(before);

    const { clones } = await boardWithRemote();
    const dir = clones[0]!;
    const clean = snapshot(join(dir, 'agentd'));
    r = await cli(dir, ['remote', 'enable', 'upstream', '--json']);
    expect(r.json.error.code).toBe('REMOTE_NOT_FOUND');
    expect(r.json.error.next_step).toContain('git remote add upstream');
    r = await cli(dir, ['remote', 'enable', '--as', 'claude', '--json']);
    expect(r.json.error.code).toBe('HUMAN_ONLY');
    r = await cli(dir, ['remote', 'enable', '--json'], { env: { CLAUDECODE: '1' } });
    expect(r.json.error.code).toBe('AGENT_ENVIRONMENT');
    r = await cli(dir, ['remote', 'enable', 'no/such', '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe('INVALID_INPUT');
    expect(snapshot(join(dir, 'agentd'))).toEqual(clean);
  });

  it('disable makes the board this clone’s own again, as last synced; writes then touch no git', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'search', [{ title: 'Index' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['next', '--as', 'codex']);
    const off = await ok(a, ['remote', 'disable']);
    expect(off).toMatchObject({ changed: true, remote: 'origin', synced: true });
    expect(readFileSync(join(a, 'agentd/config.yaml'), 'utf8')).not.toMatch(/^remote:/m);
    expect((await ok(a, ['task', 'show', 'search/T1'])).task.assignee).toBe('codex');
    expect((await ok(a, ['remote', 'disable'])).changed).toBe(false);
    const head = git(shared.remote, ['rev-parse', 'refs/agentboard/board']);
    await ok(a, ['task', 'note', 'search/T1', 'Only on this clone now', '--as', 'codex']);
    expect(git(shared.remote, ['rev-parse', 'refs/agentboard/board'])).toBe(head);
    const r = await cli(a, ['list', '--json']);
    expect(r.json.notices).toBeUndefined();
  });

  it('names a commit step only when agentd/config.yaml differs from the committed version', async () => {
    const shared = await sharedBoard(1);
    const a = shared.clones[0]!;
    const off = await ok(a, ['remote', 'disable']);
    expect(off.next_step).toBe('Commit agentd/config.yaml (git add agentd/config.yaml && git commit) and push it: every clone that has it stops sharing the board (the board ref stays on the remote).');
    const on = await ok(a, ['remote', 'enable']);
    expect(on.changed).toBe(true);
    expect(git(a, ['status', '--porcelain', '--', 'agentd/config.yaml'])).toBe('');
    expect(on.next_step).toBe('agentd/config.yaml is as committed, so there is nothing to commit; push the branch if the other clones do not have that commit yet: every clone that has it shares the board.');
    expect((await ok(a, ['remote', 'enable'])).next_step).toBe(on.next_step);
  });
});

describe('a board that is not shared', () => {
  it('starts no git process on any command', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'search', [{ title: 'Index' }, { title: 'Query' }]);
    const bin = tempDir('agentboard-fake-git-');
    const calls = join(bin, 'calls');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$@" >> ${calls}\nexit 1\n`, { mode: 0o755 });
    const env = { PATH: `${bin}:${process.env.PATH}`, GIT_AUTHOR_NAME: 'x' };
    for (const args of [['list'], ['status'], ['next', '--as', 'claude'], ['task', 'note', 'search/T1', 'A note', '--as', 'claude'], ['task', 'done', 'search/T1', '--as', 'claude'], ['log'], ['validate'], ['status', '--sync']]) {
      const r = cliProcess(dir, [...args, '--json'], { env });
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    expect(() => readFileSync(calls, 'utf8')).toThrow();
  });
});
