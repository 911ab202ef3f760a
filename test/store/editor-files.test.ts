/**
 * What editors and git leave in a change's folder while a person works on its files: swap, backup
 * and lock files beside the documents, and a document put back by `git checkout --` while agents
 * write it. None is read as a board file, and no agent's acknowledged write is lost.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, NODE_ARGS, ok, read, ROOT, untilStopped } from '../helpers.js';

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=tester', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });

describe("an editor's files beside the board's documents", () => {
  it('are not read: vim swap, backup and 4913 probe files and emacs lock and autosave files leave validate green and agents working', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'edited', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const folder = join(dir, 'agentd/changes/edited');
    const tasks = read(dir, 'agentd/changes/edited/tasks.md');
    // A swap or backup holding another version of the list would hand out nothing if it were read.
    const leftovers: Record<string, string> = {
      '.tasks.md.swp': tasks.replaceAll('status: todo', 'status: done'),
      '.spec.md.swx': '\u0000\u0001b0VIM 9.0',
      'tasks.md~': tasks.replaceAll('status: todo', 'status: done'),
      '4913': '',
      '#tasks.md#': 'half a line',
      'spec.md.orig': '<<<<<<< HEAD\n',
    };
    for (const [name, text] of Object.entries(leftovers)) writeFileSync(join(folder, name), text);
    // emacs locks a file it edits with a link to nowhere
    symlinkSync('tester@host.4242:1700000000', join(folder, '.#tasks.md'));

    const v = await cli(dir, ['validate', '--all', '--json']);
    expect(v.code).toBe(0);
    expect(v.json.data.changes.flatMap((c: any) => c.findings)).toEqual([]);
    expect((await ok(dir, ['next', '--as', 'agent-1'])).task.task_id).toBe('edited/T1');
    await ok(dir, ['task', 'note', 'edited/T1', 'Kept.', '--as', 'agent-1']);
    await ok(dir, ['task', 'done', 'edited/T1', '--as', 'agent-1']);
    expect((await ok(dir, ['next', '--as', 'agent-2'])).task.task_id).toBe('edited/T2');
    expect((await ok(dir, ['task', 'list', '--change', 'edited'])).tasks.map((t: any) => [t.task_id, t.status])).toEqual([
      ['edited/T1', 'done'],
      ['edited/T2', 'in_progress'],
      ['edited/T3', 'todo'],
    ]);
    expect((await ok(dir, ['status'])).problems).toEqual([]);
    for (const [name, text] of Object.entries(leftovers)) expect(readFileSync(join(folder, name), 'utf8'), name).toBe(text);
    expect(readlinkSync(join(folder, '.#tasks.md'))).toBe('tester@host.4242:1700000000');
    expect(read(dir, 'agentd/changes/edited/tasks.md')).toContain('Kept.');
  });
});

function agent(dir: string, id: string, rounds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, join(ROOT, 'test/store/agent.mjs'), dir, id, String(rounds), '1']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`agent ${id} exited ${code}`))));
  });
}

describe('a task list put back with `git checkout --` while agents write it', () => {
  it("loses no agent's acknowledged note, claim or completion; what git put back is recorded as the person's", async () => {
    const dir = await newBoard();
    git(dir, 'init', '-q');
    await changeWithTasks(dir, 'edited', Array.from({ length: 6 }, (_, i) => ({ title: `Task ${i + 1}` })));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'board');
    let running = true;
    const agents = Promise.all([agent(dir, 'agent-1', 3), agent(dir, 'agent-2', 3)]).finally(() => (running = false));
    for (let k = 0; k < 200 && running; k++) {
      try {
        git(dir, 'checkout', '--', 'agentd/changes/edited/tasks.md');
      } catch (err) {
        // git removes the file and then creates it anew, refusing one that is there: an agent's commit
        // that put its own file in place in between makes this checkout fail, as a person would see it.
        if (!(err as Error).message.includes('File exists')) throw err;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const results = (await agents).flatMap((out) => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    // one more write after the last checkout, which merges it
    await ok(dir, ['task', 'add', 'edited', '--title', 'After', '--as', 'planner']);

    const claims = results.filter((r) => r.kind === 'claim').map((r) => r.task);
    expect(claims.length).toBeGreaterThan(0);
    expect(new Set(claims).size).toBe(claims.length);
    expect(results.filter((r) => r.kind === 'refused')).toEqual([]);
    for (const r of results) {
      const task = (await ok(dir, ['task', 'show', r.task])).task;
      if (r.kind === 'note') expect(task.notes.map((n: any) => n.text), `${r.text} on ${r.task}`).toContain(r.text);
      if (r.kind === 'done') expect(task.status, r.task).toBe('done');
    }
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
    // Each checkout that set a task back is the person's state, kept aside for a person to look at.
    const conflicts = join(dir, 'agentd/.runtime/conflicts.json');
    if (existsSync(conflicts)) for (const c of JSON.parse(readFileSync(conflicts, 'utf8'))) expect(c).toMatchObject({ file: 'agentd/changes/edited/tasks.md', kept: 'agentboard' });
  });
});

describe('a document git deletes and writes anew (checkout, restore, stash) while a write is being committed', () => {
  it('makes the write read the board again, never an internal error: the list is said to be gone, not still to write; back, the same write is done', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'edited', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'agent-1']);
    const path = join(dir, 'agentd/changes/edited/tasks.md');
    // The writer stops once its new files are written, before it looks at the ones it replaces.
    const writer = spawn(process.execPath, [...NODE_ARGS, BIN, 'task', 'note', 'edited/T1', 'Kept.', '--as', 'agent-1', '--json'], { cwd: dir, env: { ...childEnv(), AGENTBOARD_TEST_FAULT: 'stop:commit:staged' } });
    let out = '';
    writer.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => writer.on('exit', (code) => r(code)));
    expect(await untilStopped(writer.pid!)).toBe('T');
    // git's checkout: the file is gone, then written again
    renameSync(path, `${path}.aside`);
    process.kill(writer.pid!, 'SIGCONT');
    const code = await exited;
    renameSync(`${path}.aside`, path);
    // Read again, the list is not there: said so, with nothing written, never taken for a list still to write.
    const r = JSON.parse(out);
    expect(code).toBe(1);
    expect(r.error.code).toBe('TASK_NOT_FOUND');
    expect(r.error.message).toContain('agentd/changes/edited/tasks.md is gone');
    expect(r.error.next_step).toContain('the same call works in a moment');
    expect(r.error.next_step).toContain('Do not write the task list anew');
    await ok(dir, ['task', 'note', 'edited/T1', 'Kept.', '--as', 'agent-1']);
    expect((await ok(dir, ['task', 'show', 'edited/T1'])).task.notes.map((n: any) => n.text)).toEqual(['Kept.']);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
  });

  it('is named by next among the lists a person must mend, not taken for a board whose tasks are all done', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'edited', [{ title: 'One' }]);
    const path = join(dir, 'agentd/changes/edited/tasks.md');
    renameSync(path, `${path}.aside`);
    const next = await ok(dir, ['next', '--as', 'agent-1']);
    expect(next.status).toBe('nothing_available');
    expect(next.reasons.broken_task_lists).toEqual(['edited']);
    expect(next.message).not.toContain('every task on the board is done');
    renameSync(`${path}.aside`, path);
    expect((await ok(dir, ['next', '--as', 'agent-1'])).task.task_id).toBe('edited/T1');
  });
});
