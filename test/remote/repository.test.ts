/**
 * A shared board in repositories as people keep them: hooks that refuse, a board ref someone
 * rewrote on the remote. Every refusal changes nothing, and nothing agreed on the remote is lost.
 */
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, NODE_ARGS, ok, snapshot, tempDir } from '../helpers.js';
import { addClone, boardWithRemote, cloneTree, commitCode, git, gitTry, remoteFile, sharedBoard } from './helpers.js';

function hook(dir: string, name: string, script: string): void {
  const path = join(dir, '.git', 'hooks', name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
}

describe('`agentboard remote publish` refused by git', () => {
  it('by a pre-commit hook says so and leaves the index as it was: nothing of the board staged, what the person staged still staged', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'hooks', [{ title: 'One' }]));
    const [a] = shared.clones as [string];
    await ok(a, ['next', '--as', 'walker']);
    commitCode(a, 'first\n');
    writeFileSync(join(a, 'code.txt'), 'staged by the person\n');
    git(a, ['add', 'code.txt']);
    hook(a, 'pre-commit', 'echo "lint failed: fix code.txt" >&2; exit 1');
    const status = git(a, ['status', '--porcelain']);
    const staged = git(a, ['diff', '--cached', '--name-only']);

    const r = await cli(a, ['remote', 'publish', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('GIT_FAILED');
    expect(r.json.error.message).toContain('lint failed: fix code.txt');
    expect(git(a, ['diff', '--cached', '--name-only'])).toBe(staged);
    expect(git(a, ['status', '--porcelain'])).toBe(status);
    expect(r.json.error.message).toContain('the index were not changed');
    expect(git(a, ['log', '--format=%s', '-1'])).toBe('code: first');
  });
});

describe("the clone's pre-push hook", () => {
  it("refusing every push (people's branches' gate), does not stop the board's writes", async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'gate', [{ title: 'One' }]));
    const [a] = shared.clones as [string];
    hook(a, 'pre-push', 'echo "run the tests first" >&2; exit 1');
    expect((await ok(a, ['next', '--as', 'walker'])).task.task_id).toBe('gate/T1');
    expect(git(shared.remote, ['show', 'refs/agentboard/board:changes/gate/tasks.md'])).toMatch(/assignee: walker/);
    expect(gitTry(a, ['push', 'origin', 'HEAD']).stderr).toContain('run the tests first');
  });
});

describe('a remote whose hook refuses every push under refs/agentboard/', () => {
  it('refuses writes, changing nothing, and lets a person stop sharing: remote disable turns it off in this clone', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'policy', [{ title: 'One' }]));
    const [a] = shared.clones as [string];
    await ok(a, ['next', '--as', 'alice']);
    writeFileSync(join(shared.remote, 'hooks', 'pre-receive'), '#!/bin/sh\nwhile read old new ref; do case "$ref" in refs/agentboard/*) echo "custom refs are not allowed here" >&2; exit 1;; esac; done\n', { mode: 0o755 });
    const r = await cli(a, ['task', 'note', 'policy/T1', 'Refused', '--as', 'alice', '--json']);
    expect(r.json.error.code).toBe('REMOTE_REFUSED');
    expect(r.json.error.message).toContain('custom refs are not allowed here');
    expect(r.json.error.next_step).toContain('or stop sharing it with `agentboard remote disable`');

    const off = await ok(a, ['remote', 'disable']);
    expect(off).toMatchObject({ changed: true, remote: 'origin', synced: false });
    expect(readFileSync(join(a, 'agentd/config.yaml'), 'utf8')).not.toMatch(/^remote:/m);
    await ok(a, ['task', 'note', 'policy/T1', 'Kept here', '--as', 'alice']);
    expect((await ok(a, ['task', 'show', 'policy/T1'])).task.notes.map((n: any) => n.text)).toEqual(['Kept here']);
  });
});

describe('a clone whose remote pushes elsewhere than it fetches from (remote.origin.pushurl: code pushed to a fork)', () => {
  it('pushes the board where it fetches it from, and its writes land at once', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'pushurl', [{ title: 'One' }, { title: 'Two' }]));
    const [a, b] = shared.clones as [string, string];
    const fork = join(shared.remote, '..', 'fork.git');
    git(shared.remote, ['init', '-q', '--bare', fork]);
    git(b, ['config', 'remote.origin.pushurl', fork]);
    expect((await ok(b, ['next', '--as', 'bob'])).task.task_id).toBe('pushurl/T1');
    expect(remoteFile(shared, 'changes/pushurl/tasks.md')).toMatch(/## T1: One[\s\S]*assignee: bob/);
    expect(git(fork, ['for-each-ref'])).toBe('');
    expect((await ok(a, ['next', '--as', 'alice'])).task.task_id).toBe('pushurl/T2');
  });
});

describe('a board ref rewritten on the remote', () => {
  it('moved back to an older commit (a force-push): the next write puts back the claims it lost, and no task is handed out twice', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'rewind', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]));
    const [a, b] = shared.clones as [string, string];
    const before = git(shared.remote, ['rev-parse', 'refs/agentboard/board']);
    expect((await ok(a, ['next', '--as', 'alice'])).task.task_id).toBe('rewind/T1');
    expect((await ok(b, ['next', '--as', 'bob'])).task.task_id).toBe('rewind/T2');
    git(shared.remote, ['update-ref', 'refs/agentboard/board', before]);

    const r = await cli(b, ['next', '--as', 'carol', '--json']);
    expect(r.json.data.task.task_id).toBe('rewind/T3');
    expect(r.json.notices.join(' ')).toMatch(/moved back to an older commit .* missing 2 writes; this clone had them and put them back/);
    const tasks = git(shared.remote, ['show', 'refs/agentboard/board:changes/rewind/tasks.md']);
    expect(tasks).toMatch(/## T1: One[\s\S]*assignee: alice[\s\S]*## T2: Two[\s\S]*assignee: bob[\s\S]*## T3: Three[\s\S]*assignee: carol/);
    // the clone that wrote before the rewind sees every claim, its own too
    const list = await ok(a, ['task', 'list', '--sync']);
    expect(list.tasks.map((t: any) => [t.task_id, t.assignee])).toEqual([
      ['rewind/T1', 'alice'],
      ['rewind/T2', 'bob'],
      ['rewind/T3', 'carol'],
    ]);
    expect((await cli(a, ['validate', '--all'])).code).toBe(0);
  });

  it('to another history: the clone takes the remote board, says what it lost, and keeps its last commit under a ref', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'rewrite', [{ title: 'One' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['next', '--as', 'alice']);
    await ok(a, ['task', 'note', 'rewrite/T1', 'First note', '--as', 'alice']);
    const mine = git(shared.remote, ['rev-parse', 'refs/agentboard/board']);
    // another history: the board's first commit made again, by another clone that shared it anew
    const tree = git(shared.remote, ['rev-parse', 'refs/agentboard/board~3^{tree}']);
    const other = git(b, ['commit-tree', tree, '-m', 'agentboard: the board is shared']);
    git(b, ['push', '-q', '--force', 'origin', `${other}:refs/agentboard/board`]);

    const r = await cli(a, ['status', '--sync', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.notices.join(' ')).toContain('was rewritten (force-pushed)');
    expect(git(a, ['rev-parse', 'refs/agentboard/rewritten/origin'])).toBe(mine);
    expect(git(a, ['show', 'refs/agentboard/rewritten/origin:changes/rewrite/tasks.md'])).toContain('First note');
  });
});

/** An agent's next task through its MCP server: the result, and the notices said beside it. */
async function mcpNext(dir: string, agent: string): Promise<{ result: any; notes: string[] }> {
  const client = new Client({ name: agent, version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...NODE_ARGS, BIN, 'mcp', '--root', dir, '--as', agent], env: childEnv(), stderr: 'ignore' }));
  try {
    const r = (await client.callTool({ name: 'agentboard_get_next_task', arguments: {} })) as { content: { text: string }[]; structuredContent: any };
    return { result: r.structuredContent, notes: r.content.slice(1).map((c) => c.text) };
  } finally {
    await client.close();
  }
}

describe('a board ref force-pushed with another history', () => {
  it('is not "every task done" to an agent; the notice gives the commands that put the board back, and the board put back is said to be back', async () => {
    const shared = await sharedBoard(3, async (first) => changeWithTasks(first, 'notes', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]));
    const [a, b, c] = shared.clones as [string, string, string];
    expect((await ok(a, ['next', '--as', 'alice'])).task.task_id).toBe('notes/T1');
    await ok(c, ['status', '--sync']);
    const before = git(shared.remote, ['rev-parse', 'refs/agentboard/board']);
    // Unrelated history: an empty commit of its own, force-pushed over the board.
    const empty = git(b, ['hash-object', '-t', 'tree', '-w', '/dev/null']);
    const other = git(b, ['commit-tree', empty, '-m', 'unrelated']);
    git(b, ['push', '-q', '--force', 'origin', `${other}:refs/agentboard/board`]);

    // The agent whose sync took the empty board is not told its work is over.
    const told = await mcpNext(c, 'carol');
    expect(told.result.status).toBe('nothing_available');
    expect(told.result.message).toMatch(/the shared board was just replaced by another history \(force-pushed\).* A person must decide whether to put the old board back or keep this one/);
    expect(told.result.message).not.toContain('every task');
    const restore = 'git push --force origin refs/agentboard/rewritten/origin:refs/agentboard/board && agentboard remote sync';
    expect(told.notes.join(' ')).toContain(restore);

    // The person follows the notice, in a clone that synced the board.
    const r = await cli(a, ['status', '--sync', '--json']);
    expect(r.json.notices.join(' ')).toContain(`A person decides which board is the shared one: to put this clone's back, run \`${restore}\``);
    const [push, sync] = restore.split(' && ');
    git(a, push!.split(' ').slice(1));
    expect(git(shared.remote, ['rev-parse', 'refs/agentboard/board'])).toBe(before);
    const back = await cli(a, sync!.split(' ').slice(1).concat('--json'));
    expect(back.code, back.stdout).toBe(0);
    expect(back.json.notices.join(' ')).toContain('was put back to the one this clone kept when it was rewritten');
    expect(back.json.notices.join(' ')).not.toContain('force-pushed');

    // Every clone takes the board back at its next sync, and the work goes on where it was.
    const next = await cli(c, ['next', '--as', 'carol', '--json']);
    expect(next.json.data.task.task_id).toBe('notes/T2');
    expect(next.json.notices.join(' ')).toContain('was put back');
    // What the remote held meanwhile is what is kept now, not offered as a board to put back.
    expect(git(c, ['rev-parse', 'refs/agentboard/rewritten/origin'])).toBe(other);
    const list = await ok(b, ['task', 'list', '--sync']);
    expect(list.tasks.map((t: any) => [t.task_id, t.assignee ?? null])).toEqual([
      ['notes/T1', 'alice'],
      ['notes/T2', 'carol'],
      ['notes/T3', null],
    ]);
  });
});

describe('a board ref rewritten to another history with a longer activity log', () => {
  it('gives the clone the remote board\'s log as it is, not its own log with the end of the other spliced on', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'splice', [{ title: 'One' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['next', '--as', 'alice']);
    await ok(b, ['status', '--sync']);
    const tree = git(shared.remote, ['rev-parse', 'refs/agentboard/board~2^{tree}']);
    const other = git(b, ['commit-tree', tree, '-m', 'agentboard: the board is shared']);
    git(b, ['push', '-q', '--force', 'origin', `${other}:refs/agentboard/board`]);
    // b takes the other history and writes on it, more than a had written
    for (const text of ['one', 'two', 'three']) await ok(b, ['task', 'note', 'splice/T1', `Note ${text}`, '--as', 'bob']);

    await ok(a, ['status', '--sync']);
    const local = readFileSync(join(a, 'agentd/.runtime/activity.jsonl'), 'utf8');
    expect(local).toBe(readFileSync(join(b, 'agentd/.runtime/activity.jsonl'), 'utf8'));
    expect(local.split('\n').filter(Boolean).every((l) => JSON.parse(l))).toBe(true);
    expect(local).not.toContain('alice');
  });
});

describe('a remote that holds no board', () => {
  it('deleted there, gets none by itself: a person puts a clone\'s copy back, a clone that synced later adds its writes, and no task is handed out twice', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'gone', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['status', '--sync']);
    expect((await ok(b, ['next', '--as', 'bob'])).task.task_id).toBe('gone/T1');
    // Deleted (a mirror push from a clone without it, a repository moved to a host that kept only its branches).
    git(shared.remote, ['update-ref', '-d', 'refs/agentboard/board']);
    const missing = () => gitTry(shared.remote, ['rev-parse', '--verify', '-q', 'refs/agentboard/board']).code !== 0;

    // A clone that never synced has no copy: it puts nothing there, reads answer from what it has.
    const fresh = addClone(shared);
    // What the clone keeps of its sync (agentd/.runtime/remote/: when the remote last answered) aside.
    const board = () => Object.fromEntries(Object.entries(snapshot(join(fresh, 'agentd'))).filter(([p]) => !p.startsWith('.runtime/')));
    const before = board();
    const r = await cli(fresh, ['next', '--as', 'carol', '--json']);
    expect(r.json.error.code).toBe('REMOTE_NO_BOARD');
    expect(r.json.error.message).toMatch(/^The remote "origin" holds no shared board \(refs\/agentboard\/board\)/);
    expect(r.json.error.next_step).toContain('`agentboard remote sync` in the clone that synced it last');
    expect(board()).toEqual(before);
    const read = await cli(fresh, ['list', '--sync', '--json']);
    expect(read.code).toBe(0);
    expect(read.json.notices.join(' ')).toMatch(/Could not sync with "origin": The remote "origin" holds no shared board\. A person puts the board back/);
    // Not even at a person's remote sync: that puts back a copy, which this clone does not have.
    expect((await cli(fresh, ['remote', 'sync', '--json'])).json.error.code).toBe('REMOTE_NO_BOARD');
    // Nor does a clone that synced before another wrote: its agents' writes wait for a person.
    expect((await cli(a, ['next', '--as', 'alice', '--json'])).json.error.code).toBe('REMOTE_NO_BOARD');
    expect(missing()).toBe(true);

    const back = await cli(a, ['remote', 'sync', '--json']);
    expect(back.code, back.stdout).toBe(0);
    expect(back.json.notices.join(' ')).toContain('held no shared board; this clone put its copy back');
    // b synced later: its next write puts back the claim the copy lacked, then claims on top of it.
    expect((await ok(b, ['next', '--as', 'bert'])).task.task_id).toBe('gone/T2');
    expect((await ok(fresh, ['next', '--as', 'carol'])).task.task_id).toBe('gone/T3');
    expect(remoteFile(shared, 'changes/gone/tasks.md')).toMatch(/## T1: One[\s\S]*assignee: bob[\s\S]*## T2: Two[\s\S]*assignee: bert[\s\S]*## T3: Three[\s\S]*assignee: carol/);
  });

  it('put back from a clone that had not synced the last writes, then written on: the later clone merges its writes in, says the claim the board gave away again, and strands nothing', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'fork', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['status', '--sync']);
    // b writes after a's last sync
    const bobs = (await ok(b, ['next', '--as', 'bob'])).task;
    await ok(b, ['task', 'note', 'fork/T1', 'Bob started', '--as', 'bob']);
    expect((await ok(b, ['next', '--as', 'bert'])).task.task_id).toBe('fork/T2');
    await ok(b, ['task', 'add', 'fork', '--title', 'Four', '--as', 'bob']);
    const later = git(shared.remote, ['rev-parse', 'refs/agentboard/board']);
    git(shared.remote, ['update-ref', '-d', 'refs/agentboard/board']);
    // a person puts a's older copy back, and a's agents write on it before b syncs again
    expect((await cli(a, ['remote', 'sync', '--json'])).json.notices.join(' ')).toContain('this clone put its copy back');
    const alices = (await ok(a, ['next', '--as', 'alice'])).task;
    expect(alices.task_id).toBe('fork/T1');
    await ok(a, ['task', 'note', 'fork/T1', 'Alice started', '--as', 'alice']);

    const r = await cli(b, ['status', '--sync', '--json']);
    expect(r.code, r.stdout).toBe(0);
    const said = r.json.notices.join('\n');
    expect(said).toMatch(/had been moved back to an older copy .* and written on since; 4 writes of this clone's copy it lacked are merged onto it/);
    expect(said).toContain(`bob's claim of fork/T1 (claimed ${bobs.claimed_at}) was dropped: alice holds it on the shared board (claimed ${alices.claimed_at}); the board's activity log records it.`);
    expect(said).not.toContain('rewritten');
    // b's log is in the board's: no copy of it is kept aside
    expect(said).not.toContain("activity log is not the shared board's");
    expect(gitTry(b, ['rev-parse', '--verify', '-q', 'refs/agentboard/rewritten/origin']).code).not.toBe(0);
    // every write of b's is on the remote's board, in its history and in the board itself
    const head = git(shared.remote, ['rev-parse', 'refs/agentboard/board']);
    expect(gitTry(shared.remote, ['merge-base', '--is-ancestor', later, head]).code).toBe(0);
    const tasks = remoteFile(shared, 'changes/fork/tasks.md');
    expect(tasks).toMatch(/## T1: One[\s\S]*assignee: alice[\s\S]*Bob started[\s\S]*Alice started[\s\S]*## T2: Two[\s\S]*assignee: bert[\s\S]*## T3: Three[\s\S]*## T4: Four/);
    const log = remoteFile(shared, 'runtime/activity/000001.jsonl').split('\n').map((l) => JSON.parse(l));
    expect(log.filter((e) => e.action === 'task.claim').map((e) => [e.actor, e.target])).toEqual([
      ['alice', 'fork/T1'],
      ['bob', 'fork/T1'],
      ['bert', 'fork/T2'],
    ]);
    expect(log.filter((e) => e.action === 'task.claim_dropped').map((e) => e.summary)).toEqual([expect.stringContaining("bob's claim of fork/T1")]);
    // both clones show the same board as the remote, and a's next write goes on from it
    expect((await ok(a, ['next', '--as', 'carol'])).task.task_id).toBe('fork/T3');
    await ok(b, ['status', '--sync']);
    expect(cloneTree(b)).toEqual(cloneTree(a));
    expect(readFileSync(join(b, 'agentd/.runtime/activity.jsonl'), 'utf8')).toBe(readFileSync(join(a, 'agentd/.runtime/activity.jsonl'), 'utf8'));
    expect((await cli(b, ['validate', '--all'])).code).toBe(0);
  });

  it('in a clone whose "origin" is a fork while another remote holds the board: says so, and remote enable puts no second board on the fork', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'forked', [{ title: 'One' }]));
    await ok(shared.clones[0]!, ['next', '--as', 'alice']);
    // a fork keeps the branches (config.yaml says `remote: origin`), not refs/agentboard/
    const fork = join(shared.remote, '..', 'fork.git');
    git(shared.remote, ['clone', '-q', '--bare', shared.remote, fork]);
    git(fork, ['update-ref', '-d', 'refs/agentboard/board']);
    const b = join(shared.remote, '..', 'clone-of-fork');
    git(join(shared.remote, '..'), ['clone', '-q', fork, b]);
    git(b, ['remote', 'add', 'upstream', shared.remote]);
    const rename = '"origin" here may not be the repository the other clones share the board through: this clone\'s remote "upstream" holds a shared board. If it is that repository, give it the name the other clones use (`git remote rename origin <another name>`, then `git remote rename upstream origin`)';

    const r = await cli(b, ['next', '--as', 'bob', '--json']);
    expect(r.json.error.code).toBe('REMOTE_NO_BOARD');
    expect(r.json.error.next_step).toMatch(new RegExp(`^${rename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\. Otherwise a person puts the board back`));
    const enable = await cli(b, ['remote', 'enable', '--json']);
    expect(enable.code).toBe(1);
    expect(enable.json.error.code).toBe('REMOTE_NO_BOARD');
    expect(enable.json.error.next_step).toContain(rename);
    expect(gitTry(fork, ['rev-parse', '--verify', '-q', 'refs/agentboard/board']).code).not.toBe(0);

    git(b, ['remote', 'rename', 'origin', 'fork']);
    git(b, ['remote', 'rename', 'upstream', 'origin']);
    expect((await ok(b, ['task', 'show', 'forked/T1', '--sync'])).task.assignee).toBe('alice');
  });

  it('because the board was never shared there (config.yaml given the remote by hand): remote enable shares this clone\'s board', async () => {
    const { remote, clones } = await boardWithRemote();
    const [a] = clones as [string];
    await changeWithTasks(a, 'hand', [{ title: 'One' }]);
    appendFileSync(join(a, 'agentd/config.yaml'), 'remote: origin\n');
    const r = await cli(a, ['next', '--as', 'alice', '--json']);
    expect(r.json.error.code).toBe('REMOTE_NO_BOARD');
    expect(r.json.error.next_step).toContain('when the board was never shared (agentd/config.yaml was given the remote by hand), shares this clone\'s board with `agentboard remote enable` here');
    expect(await ok(a, ['remote', 'enable'])).toMatchObject({ changed: false, joined: false });
    expect(git(remote, ['show', 'refs/agentboard/board:changes/hand/tasks.md'])).toContain('## T1: One');
    expect((await ok(a, ['next', '--as', 'alice'])).task.task_id).toBe('hand/T1');
  });
});

describe('the remote renamed in one clone (git remote rename)', () => {
  it('refuses writes, naming the remotes the clone has and how to give the name back; reads still answer', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'named', [{ title: 'One' }]));
    const [a] = shared.clones as [string];
    git(a, ['remote', 'rename', 'origin', 'upstream']);
    const r = await cli(a, ['next', '--as', 'alice', '--json']);
    expect(r.json.error).toEqual({
      code: 'REMOTE_NOT_FOUND',
      message: 'agentd/config.yaml shares this board through the git remote "origin", which this clone does not have (it has "upstream").',
      next_step: 'Give that name back to the remote the other clones share the board through (`git remote rename upstream origin`, when it is "upstream"), or add it with `git remote add origin` followed by the URL the other clones use, then try `agentboard next --as alice` again.',
    });
    const read = await cli(a, ['task', 'list', '--sync', '--json']);
    expect(read.code).toBe(0);
    expect(read.json.data.tasks.map((t: any) => t.task_id)).toEqual(['named/T1']);
    expect(read.json.notices.join(' ')).toContain('Could not sync with "origin": agentd/config.yaml shares this board through the git remote "origin", which this clone does not have');
    git(a, ['remote', 'rename', 'upstream', 'origin']);
    expect((await ok(a, ['next', '--as', 'alice'])).task.task_id).toBe('named/T1');
  });
});

/** A synced clone of a shared board whose remote is reached through an ssh of the test's (`script`, a shell script's body); its path. */
async function cloneOverSsh(change: string, name: string, script: string): Promise<{ b: string; ssh: string }> {
  const shared = await sharedBoard(2, async (first) => changeWithTasks(first, change, [{ title: 'One' }]));
  const [, b] = shared.clones as [string, string];
  await ok(b, ['status', '--sync']);
  const ssh = join(b, '..', name);
  writeFileSync(ssh, `#!/bin/sh\n${script}`);
  chmodSync(ssh, 0o755);
  git(b, ['remote', 'set-url', 'origin', 'ssh://git@example.invalid/board.git']);
  git(b, ['config', 'core.sshCommand', ssh]);
  return { b, ssh };
}

describe('a remote that asks for a passphrase on the terminal (ssh)', () => {
  it('fails at once with REMOTE_UNREACHABLE, changing nothing: nothing git starts can ask on the terminal, though there is one', async () => {
    const asked = join(tempDir(), 'asked');
    // an ssh whose key needs a passphrase: it asks on the terminal when it has one
    const { b } = await cloneOverSsh('keys', 'fake-ssh', `if (exec 3</dev/tty) 2>/dev/null; then printf 'Enter passphrase: ' >/dev/tty; touch '${asked}'; fi\necho 'git@example.invalid: Permission denied (publickey).' >&2\nexit 255\n`);
    const before = snapshot(join(b, 'agentd'));

    // at a terminal (script gives the command one)
    const command = [process.execPath, ...NODE_ARGS, BIN, 'next', '--as', 'walker', '--json'].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: b, env: childEnv(), encoding: 'utf8', timeout: 30_000 });
    expect(existsSync(asked)).toBe(false);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('"REMOTE_UNREACHABLE"');
    expect(r.stdout).toContain('ssh-agent');
    expect(snapshot(join(b, 'agentd'))).toEqual(before);
  });
});

describe('a remote that never answers (an ssh that hangs)', () => {
  it('fails with REMOTE_UNREACHABLE once git times out, and leaves nothing git started running', async () => {
    // an ssh that waits on a sleep of its own, each found by its command line
    const sleep = `sleep 300.${process.pid}${Date.now() % 1000}`;
    const { b, ssh } = await cloneOverSsh('hangs', 'hanging-ssh', `${sleep}\nexit 255\n`);
    const before = snapshot(join(b, 'agentd'));
    const r = await cli(b, ['next', '--as', 'walker', '--json'], { env: { AGENTBOARD_TEST_NETWORK_TIMEOUT_MS: '1500' } });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('REMOTE_UNREACHABLE');
    expect(snapshot(join(b, 'agentd'))).toEqual(before);
    // the ssh each timed-out git started is gone with it
    for (const pattern of [ssh, sleep]) expect(spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).stdout.trim(), pattern).toBe('');
  });
});
