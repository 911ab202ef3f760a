/**
 * One operation, one commit: a process killed at every step of a commit leaves the operation wholly
 * on disk or wholly absent, and the next command finishes what was committed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, cliProcess, newBoard, NODE_ARGS, ok, read, saveByRename, saveRenamedOver, snapshot, tempDir, untilStopped } from '../helpers.js';

/** Every place a commit can be stopped, in the order it reaches them. */
const BEFORE_COMMIT = ['commit:temp', 'commit:staged', 'commit:verified'];
const AFTER_COMMIT = ['commit:journal', 'commit:apply:1', 'commit:apply:2', 'commit:activity', 'commit:done'];

/** Temp files or folders anywhere in the board: none may outlive the command after a crash. */
function temps(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (/\.tmp$/.test(e.name)) out.push(join(d, e.name));
      if (e.isDirectory()) walk(join(d, e.name));
    }
  };
  walk(join(dir, 'agentd'));
  return out;
}

async function board(): Promise<string> {
  const dir = await newBoard();
  await changeWithTasks(dir, 'crash', [{ title: 'One' }, { title: 'Two' }]);
  await ok(dir, ['next', '--as', 'victim']);
  return dir;
}

describe('a process killed at each step of a commit', () => {
  it.each([...BEFORE_COMMIT, ...AFTER_COMMIT])('at %s: the note is wholly there or wholly absent, and the next command repairs or rolls forward', async (point) => {
    const dir = await board();
    const killed = cliProcess(dir, ['task', 'note', 'crash/T1', 'A note worth keeping', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: point } });
    expect(killed.code).toBe(-1); // killed by SIGKILL
    const committed = AFTER_COMMIT.includes(point);
    expect(existsSync(join(dir, 'agentd/.runtime/journal.json'))).toBe(committed && point !== 'commit:done');
    // the next command that writes takes the lock, finishes or sweeps, and goes on
    const next = await cli(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the crash.', '--as', 'victim', '--json']);
    expect(next.code, next.stdout).toBe(0);
    expect(temps(dir)).toEqual([]);
    const task = (await ok(dir, ['task', 'show', 'crash/T1'])).task;
    expect(task.notes.map((n: any) => n.text)).toEqual(committed ? ['A note worth keeping'] : []);
    expect(task.progress).toBe(10);
    const log = (await ok(dir, ['log', '--limit', '500'])).entries.filter((e: any) => e.action === 'task.note');
    expect(log).toHaveLength(committed ? 1 : 0);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
    // what is on disk is what the ledger says agentboard wrote: nothing reads as a hand edit
    expect(read(dir, 'agentd/changes/crash/tasks.md')).toContain('After the crash.');
    expect((await ok(dir, ['status'])).problems).toEqual([]);
  });

  it.each(['commit:temp', 'commit:verified', 'commit:journal', 'commit:apply:1'])('at %s while creating a change: the folder appears whole or not at all', async (point) => {
    const dir = await newBoard();
    const killed = cliProcess(dir, ['new', 'fresh-change', '--as', 'claude'], { env: { AGENTBOARD_TEST_FAULT: point } });
    expect(killed.code).toBe(-1);
    await ok(dir, ['new', 'other-change', '--as', 'claude']);
    const committed = AFTER_COMMIT.includes(point);
    expect((await ok(dir, ['list'])).changes.map((c: any) => c.change_id)).toEqual(committed ? ['fresh-change', 'other-change'] : ['other-change']);
    expect(existsSync(join(dir, 'agentd/changes/fresh-change/proposal.md'))).toBe(committed);
    expect(temps(dir)).toEqual([]);
  });

  it.each(AFTER_COMMIT)('at %s of a claim: reads show the claim whole before any write rolls it forward, and write nothing', async (point) => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'claims', [{ title: 'One' }, { title: 'Two' }]);
    expect(cliProcess(dir, ['next', '--as', 'codex'], { env: { AGENTBOARD_TEST_FAULT: point } }).code).toBe(-1);
    const before = snapshot(dir);
    const task = (await ok(dir, ['task', 'show', 'claims/T1'])).task;
    expect(task).toMatchObject({ status: 'in_progress', assignee: 'codex' });
    expect((await ok(dir, ['task', 'list', '--change', 'claims'])).tasks.map((t: any) => t.status)).toEqual(['in_progress', 'todo']);
    expect((await ok(dir, ['show', 'claims', 'tasks'])).markdown).toContain('assignee: codex');
    expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
    expect((await ok(dir, ['log', '--limit', '500'])).entries.filter((e: any) => e.action === 'task.claim')).toHaveLength(1);
    const status = await ok(dir, ['status']);
    expect(status.problems).toEqual([]);
    expect(status.hand_edited, 'nothing reads as an edit by a person').toEqual([]);
    expect(snapshot(dir), 'reads write nothing').toEqual(before);
    // The next write rolls it forward: the same claim, once.
    expect((await ok(dir, ['next', '--as', 'codex'])).status).toBe('resumed');
    expect((await ok(dir, ['log', '--limit', '500'])).entries.filter((e: any) => e.action === 'task.claim')).toHaveLength(1);
  });

  it('after a power cut that kept a committed temp file from the disk: the operation is rolled back whole', async () => {
    const dir = await board();
    expect(cliProcess(dir, ['task', 'note', 'crash/T1', 'Lost with the power', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: 'commit:journal' } }).code).toBe(-1);
    // What a power cut before the commit's fsyncs ended can leave: the journal, and a temp file without its bytes.
    const journal = JSON.parse(read(dir, 'agentd/.runtime/journal.json'));
    const tasksTemp = journal.files.find((f: any) => f.target.endsWith('tasks.md')).temp;
    writeFileSync(join(dir, tasksTemp), '');
    // It never happened: reads show nothing of it, before and after the next write.
    expect((await ok(dir, ['task', 'show', 'crash/T1'])).task.notes).toEqual([]);
    expect((await ok(dir, ['log', '--limit', '500'])).entries.filter((e: any) => e.action === 'task.note')).toHaveLength(0);
    await ok(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the power cut.', '--as', 'victim']);
    expect(temps(dir)).toEqual([]);
    expect(existsSync(join(dir, 'agentd/.runtime/journal.json'))).toBe(false);
    const task = (await ok(dir, ['task', 'show', 'crash/T1'])).task;
    expect(task.notes).toEqual([]);
    expect(task.progress).toBe(10);
    expect((await ok(dir, ['log', '--limit', '500'])).entries.filter((e: any) => e.action === 'task.note')).toHaveLength(0);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
  });

  it('after a power cut that lost the last commit\'s log entries: its done journal writes them again, once', async () => {
    const dir = await board();
    await ok(dir, ['task', 'note', 'crash/T1', 'Kept through the power cut', '--as', 'victim']);
    const done = JSON.parse(read(dir, 'agentd/.runtime/journal.done.json'));
    // Its log entries were appended without waiting for the disk (the next commit makes them durable): cut them off.
    truncateSync(join(dir, 'agentd/.runtime/activity.jsonl'), done.activity.offset);
    await ok(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the power cut.', '--as', 'victim']);
    const log = (await ok(dir, ['log', '--limit', '500'])).entries;
    expect(log.filter((e: any) => e.action === 'task.note')).toHaveLength(1);
    expect(log.filter((e: any) => e.action === 'task.progress')).toHaveLength(1);
    expect((await ok(dir, ['task', 'show', 'crash/T1'])).task.notes.map((n: any) => n.text)).toEqual(['Kept through the power cut']);
  });

  it('at the renames of a claim: the claim, the session and the log entry land together', async () => {
    for (const point of ['commit:apply:1', 'commit:apply:2', 'commit:apply:3']) {
      const dir = await newBoard();
      await changeWithTasks(dir, 'claims', [{ title: 'One' }]);
      expect(cliProcess(dir, ['next', '--as', 'codex'], { env: { AGENTBOARD_TEST_FAULT: point } }).code).toBe(-1);
      const status = await ok(dir, ['next', '--as', 'codex']);
      expect(status.status).toBe('resumed');
      expect((await ok(dir, ['session', 'show', '--as', 'codex'])).status).toBe('working');
      expect((await ok(dir, ['log'])).entries.filter((e: any) => e.action === 'task.claim')).toHaveLength(1);
    }
  });
});

describe('a write that leaves the runtime store as it was', () => {
  it('does not write state.json again: a claim and a completion by an agent already at work', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'steady', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    // The agent's first claim opens its session: state.json is written.
    await ok(dir, ['next', '--as', 'steady-agent']);
    await ok(dir, ['task', 'done', 'steady/T1', '--as', 'steady-agent']);
    const path = join(dir, 'agentd/.runtime/state.json');
    const before = { ino: statSync(path).ino, text: read(dir, 'agentd/.runtime/state.json') };
    // Working on: nothing of its session changes, and the file stays the one written (a write puts a new file in place).
    expect((await ok(dir, ['next', '--as', 'steady-agent'])).status).toBe('assigned');
    await ok(dir, ['task', 'done', 'steady/T2', '--as', 'steady-agent']);
    expect(statSync(path).ino).toBe(before.ino);
    expect(read(dir, 'agentd/.runtime/state.json')).toBe(before.text);
    // A write that changes the session writes it: the agent reports what it is doing.
    await ok(dir, ['session', 'status', 'working', '--as', 'steady-agent', '--message', 'On the third task now.']);
    expect(statSync(path).ino).not.toBe(before.ino);
    expect(JSON.parse(read(dir, 'agentd/.runtime/state.json')).sessions['steady-agent'].message).toBe('On the third task now.');
  });
});

describe('a person saving a document while a commit that replaces it waits to be finished', () => {
  it('killed once its journal is durable: the next write puts the commit in place without renaming over the save, and merges it', async () => {
    const dir = await board();
    const file = join(dir, 'agentd/changes/crash/tasks.md');
    const killed = cliProcess(dir, ['task', 'note', 'crash/T1', 'A note worth keeping', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: 'commit:journal' } });
    expect(killed.code).toBe(-1);
    // Long after, a person saves the list as it is on disk (without the note: the commit is not in place yet).
    saveRenamedOver(file, '## T2: Two', '## T2: Two, saved after the crash');
    await ok(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the crash.', '--as', 'victim']);
    const text = read(dir, 'agentd/changes/crash/tasks.md');
    for (const kept of ['A note worth keeping', '## T2: Two, saved after the crash\n', 'After the crash.']) expect(text).toContain(kept);
    expect(temps(dir)).toEqual([]);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
  });

  it('killed once the document is in place: a save over it since is the person\'s edit, and the rest of the commit (its log entry) is finished, not undone', async () => {
    const dir = await board();
    const file = join(dir, 'agentd/changes/crash/tasks.md');
    const killed = cliProcess(dir, ['task', 'note', 'crash/T1', 'A note worth keeping', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: 'commit:apply:1' } });
    expect(killed.code).toBe(-1);
    expect(read(dir, 'agentd/changes/crash/tasks.md')).toContain('A note worth keeping');
    saveRenamedOver(file, '## T2: Two', '## T2: Two, saved after the crash');
    await ok(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the crash.', '--as', 'victim']);
    const text = read(dir, 'agentd/changes/crash/tasks.md');
    expect(text.split('A note worth keeping').length).toBe(2);
    for (const kept of ['## T2: Two, saved after the crash\n', 'After the crash.']) expect(text).toContain(kept);
    const log = (await ok(dir, ['log', '--limit', '500'])).entries.filter((e: any) => e.action === 'task.note');
    expect(log).toHaveLength(1);
    expect(temps(dir)).toEqual([]);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
  });

  it('killed once its journal is durable, and the write that finishes it killed in turn with the save moved aside: the next write merges the save', async () => {
    const dir = await board();
    const file = join(dir, 'agentd/changes/crash/tasks.md');
    expect(cliProcess(dir, ['task', 'note', 'crash/T1', 'A note worth keeping', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: 'commit:journal' } }).code).toBe(-1);
    saveRenamedOver(file, '## T2: Two', '## T2: Two, saved after the crash');
    // The next write is killed as its recovery has moved the save aside.
    expect(cliProcess(dir, ['task', 'note', 'crash/T2', 'Lost with its process', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: 'commit:held' } }).code).toBe(-1);
    expect(readdirSync(join(dir, 'agentd/changes/crash')).filter((n) => n.includes('.held'))).toHaveLength(1);
    await ok(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the crashes.', '--as', 'victim']);
    const text = read(dir, 'agentd/changes/crash/tasks.md');
    for (const kept of ['A note worth keeping', '## T2: Two, saved after the crash\n', 'After the crashes.']) expect(text).toContain(kept);
    expect(temps(dir)).toEqual([]);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
  });

  it('killed after its commit, before the commit that merges the save it found aside: the save is kept on disk, and the next write merges it', async () => {
    const dir = await board();
    const file = join(dir, 'agentd/changes/crash/tasks.md');
    const folder = join(dir, 'agentd/changes/crash');
    // Stopped with the list moved aside, a person's save lands in its place; let go, the writer
    // commits (the save moved aside in turn) and is killed as it stages the merge of that save.
    const writer = spawn(process.execPath, [...NODE_ARGS, BIN, 'task', 'note', 'crash/T1', 'A note worth keeping', '--as', 'victim', '--json'], { cwd: dir, env: { ...childEnv(), AGENTBOARD_TEST_FAULT: 'stop:commit:held commit:staged@2' } });
    const exited = new Promise((r) => writer.on('exit', (_code, signal) => r(signal)));
    expect(await untilStopped(writer.pid!)).toBe('T');
    const aside = readdirSync(folder).find((n) => n.startsWith('.tasks.md.held0.'))!;
    saveByRename(file, readFileSync(join(folder, aside), 'utf8').replace('## T2: Two', '## T2: Two, saved as it committed'));
    process.kill(writer.pid!, 'SIGCONT');
    expect(await exited).toBe('SIGKILL');
    expect(read(dir, 'agentd/changes/crash/tasks.md')).toContain('A note worth keeping');
    // Kept under a name no sweep takes and git ignores: never committed to another clone.
    const kept = readdirSync(folder).filter((n) => n.includes('.saved'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^\.tasks\.md\.saved1\.\d+-[0-9a-f]{12}\.kept\.tmp$/);
    const repo = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: repo });
    mkdirSync(join(repo, 'agentd'));
    copyFileSync(join(dir, 'agentd/.gitignore'), join(repo, 'agentd/.gitignore'));
    expect(execFileSync('git', ['check-ignore', '--no-index', `agentd/changes/crash/${kept[0]}`], { cwd: repo, encoding: 'utf8' }).trim()).toBe(`agentd/changes/crash/${kept[0]}`);
    await ok(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the crash.', '--as', 'victim']);
    const text = read(dir, 'agentd/changes/crash/tasks.md');
    for (const kept of ['A note worth keeping', '## T2: Two, saved as it committed\n', 'After the crash.']) expect(text).toContain(kept);
    expect(readdirSync(folder).filter((n) => n.startsWith('.'))).toEqual([]);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
  });

  it('killed with the document moved aside: a save in its place since is moved aside by the next write in turn, and merged', async () => {
    const dir = await board();
    const file = join(dir, 'agentd/changes/crash/tasks.md');
    // The writer stops with the list moved aside, its own file not linked in yet; a person saves; the writer is killed.
    const writer = spawn(process.execPath, [...NODE_ARGS, BIN, 'task', 'note', 'crash/T1', 'A note worth keeping', '--as', 'victim', '--json'], { cwd: dir, env: { ...childEnv(), AGENTBOARD_TEST_FAULT: 'stop:commit:held' } });
    const exited = new Promise((r) => writer.on('exit', r));
    expect(await untilStopped(writer.pid!)).toBe('T');
    expect(existsSync(file)).toBe(false);
    const aside = readdirSync(join(dir, 'agentd/changes/crash')).find((n) => n.startsWith('.tasks.md.held0.'))!;
    saveByRename(file, readFileSync(join(dir, 'agentd/changes/crash', aside), 'utf8').replace('## T2: Two', '## T2: Two, saved meanwhile'));
    process.kill(writer.pid!, 'SIGKILL');
    await exited;
    await ok(dir, ['task', 'progress', 'crash/T1', '--percent', '10', '--message', 'After the crash.', '--as', 'victim']);
    const text = read(dir, 'agentd/changes/crash/tasks.md');
    for (const kept of ['A note worth keeping', '## T2: Two, saved meanwhile\n', 'After the crash.']) expect(text).toContain(kept);
    expect(temps(dir)).toEqual([]);
    expect((await cli(dir, ['validate', '--all'])).code).toBe(0);
  });
});
