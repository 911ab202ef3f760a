/**
 * When the file system says no (a full disk, a file size limit, no permission, a read-only mount,
 * a folder where a file belongs), the command fails with its own code, names the path, says what
 * to do, and changes nothing.
 */
import { execSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, NODE_ARGS, ok, snapshot, tempDir } from '../helpers.js';

async function bigBoard(): Promise<string> {
  const dir = await newBoard();
  await changeWithTasks(dir, 'big', Array.from({ length: 200 }, (_, i) => ({ title: `Task ${i + 1}`, description: 'Words that make the file long. '.repeat(4) })));
  await ok(dir, ['next', '--as', 'codex']);
  return dir;
}

describe('a write that cannot complete', () => {
  it('under a file size limit (ulimit -f): DISK_FULL, exit 1, every file as it was', async () => {
    const dir = await bigBoard();
    const before = snapshot(dir);
    // 16 KiB: less than tasks.md of 200 tasks, so its new version cannot be written whole
    const r = spawnSync('bash', ['-c', `ulimit -f 32; exec "${process.execPath}" ${NODE_ARGS.join(' ')} "${BIN}" task note big/T1 "a note" --as codex --json`], { cwd: dir, encoding: 'utf8', env: childEnv() });
    expect(r.status).toBe(1);
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe('DISK_FULL');
    expect(error.message).toContain('agentd/changes/big/tasks.md');
    expect(error.message).toContain('Nothing was changed');
    expect(snapshot(dir)).toEqual(before);
    // and once there is room again, the same command works
    expect((await ok(dir, ['task', 'note', 'big/T1', 'a note', '--as', 'codex'])).changed).toBe(true);
  });

  it.each([
    ['ENOSPC', 'tasks.md', 'DISK_FULL'],
    ['EACCES', 'tasks.md', 'PERMISSION_DENIED'],
    ['EROFS', 'ledger', 'READ_ONLY'],
    ['EACCES', 'activity.jsonl', 'PERMISSION_DENIED'],
    ['EIO', 'state.json', 'IO_ERROR'],
  ])('%s on %s: %s, and nothing changed', async (errno, part, code) => {
    const dir = await bigBoard();
    const before = snapshot(dir);
    const r = await cli(dir, ['next', '--as', 'gemini', '--json'], { env: { AGENTBOARD_TEST_FAULT: `errno:${errno}:${part}` } });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe(code);
    expect(r.json.error.message).toMatch(/agentd\//);
    expect(r.json.error.next_step.length).toBeGreaterThan(20);
    expect(snapshot(dir)).toEqual(before);
    expect((await ok(dir, ['next', '--as', 'gemini'])).status).toBe('assigned');
  });

  it('a full disk after the commit point (the log entry): the error says the change was made, and the next write finishes it', async () => {
    const dir = await bigBoard();
    // The first write of the log is the check before the commit; the second is the append after it.
    const r = await cli(dir, ['task', 'note', 'big/T1', 'a note', '--as', 'codex', '--json'], { env: { AGENTBOARD_TEST_FAULT: 'errno:ENOSPC:activity.jsonl@2' } });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('DISK_FULL');
    expect(r.json.error.message).toContain('agentd/.runtime/activity.jsonl');
    expect(r.json.error.message).not.toContain('Nothing was changed');
    expect(r.json.error.message).toContain('The change itself was made and is kept');
    expect(r.json.error.next_step).toContain("do not run `agentboard task note big/T1 'a note' --as codex` again");
    const notes = async () => (await ok(dir, ['task', 'show', 'big/T1'])).task.notes.map((n: any) => n.text);
    expect(await notes()).toEqual(['a note']);
    // once there is room, the next write finishes it: the log entry lands once, and the board is valid
    await ok(dir, ['task', 'note', 'big/T1', 'another', '--as', 'codex']);
    expect(await notes()).toEqual(['a note', 'another']);
    const summaries = (await ok(dir, ['log'])).entries.map((e: any) => e.summary);
    expect(summaries.filter((s: string) => s === 'note on big/T1: a note')).toHaveLength(1);
    expect(existsSync(join(dir, 'agentd/.runtime/journal.json'))).toBe(false);
    expect((await cli(dir, ['validate', '--all', '--json'])).code).toBe(0);
  });

  it('a log entry cut short by a file size limit leaves no torn line, and the next write finishes it', async () => {
    const dir = await newBoard();
    const log = join(dir, 'agentd/.runtime/activity.jsonl');
    // An entry of its own padded so that the log ends 16 bytes short of a KiB boundary: the next entry crosses it.
    const entry = (pad: number) => `${JSON.stringify({ at: '2026-01-01T00:00:00.000Z', actor: 'codex', action: 'task.note', target: 'x', summary: 'p'.repeat(pad) })}\n`;
    const size = readFileSync(log).length;
    const pad = (((1024 - 16 - ((size + entry(0).length) % 1024)) % 1024) + 1024) % 1024;
    appendFileSync(log, entry(pad < 100 ? pad + 1024 : pad));
    const before = readFileSync(log);
    const limit = Math.ceil(before.length / 1024);
    const r = spawnSync('bash', ['-c', `ulimit -f ${limit}; exec "${process.execPath}" ${NODE_ARGS.join(' ')} "${BIN}" session status working --message busy --as codex --json`], { cwd: dir, encoding: 'utf8', env: childEnv() });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).error.message).toContain('There is no room to write agentd/.runtime/activity.jsonl (file size limit reached). The change itself was made');
    expect(readFileSync(log).equals(before)).toBe(true);
    await ok(dir, ['session', 'status', 'working', '--message', 'again', '--as', 'codex']);
    const summaries = (await ok(dir, ['log'])).entries.map((e: any) => e.summary);
    expect(summaries.filter((s: string) => s.includes('busy'))).toHaveLength(1);
    expect((await cli(dir, ['validate', '--all', '--json'])).code).toBe(0);
  });

  it('a full disk when taking the board lock (no inode left for its name): the lock named as agentd/.runtime/lock, nothing left behind', async () => {
    const dir = await bigBoard();
    const before = snapshot(dir);
    const r = await cli(dir, ['task', 'note', 'big/T1', 'a note', '--as', 'codex', '--json'], { env: { AGENTBOARD_TEST_FAULT: 'errno:ENOSPC:.runtime/lock' } });
    expect(r.code).toBe(1);
    expect(r.json.error.message).toBe('There is no room to write agentd/.runtime/lock (the disk is full, or can hold no more files: `df -h` and `df -i` say which). Nothing was changed.');
    expect(snapshot(dir)).toEqual(before);
    expect((await ok(dir, ['task', 'note', 'big/T1', 'a note', '--as', 'codex'])).changed).toBe(true);
  });

  it('init on a disk that fills after config.yaml: says what was made, and init again makes the rest', async () => {
    const dir = tempDir();
    const r = await cli(dir, ['init', '--json'], { env: { AGENTBOARD_TEST_FAULT: 'errno:ENOSPC:.gitignore' } });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('DISK_FULL');
    expect(r.json.error.message).toBe('There is no room to write agentd/.gitignore (the disk is full, or can hold no more files: `df -h` and `df -i` say which). agentd/, agentd/changes/, agentd/config.yaml were made already, and running init again makes the rest.');
    expect((await ok(dir, ['init'])).created).toEqual(['agentd/.gitignore']);
    expect((await cli(dir, ['validate', '--all', '--json'])).code).toBe(0);
  });
});

describe('files and folders that are not what they should be', () => {
  it('tasks.md as a folder: named in the error and in validate, which does not crash', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'good', [{ title: 'One' }]);
    await changeWithTasks(dir, 'odd', [{ title: 'One' }]);
    rmSync(join(dir, 'agentd/changes/odd/tasks.md'));
    mkdirSync(join(dir, 'agentd/changes/odd/tasks.md'));
    const show = await cli(dir, ['task', 'show', 'odd/T1', '--json']);
    expect(show.json.error).toMatchObject({ code: 'NOT_A_FILE', message: expect.stringContaining('agentd/changes/odd/tasks.md is a folder') });
    const v = await cli(dir, ['validate', '--all', '--json']);
    expect(v.code).toBe(1);
    expect(v.json.data.changes.find((c: any) => c.change_id === 'odd').findings[0]).toMatchObject({ rule: 'file.unreadable', file: 'agentd/changes/odd/tasks.md' });
    // the rest of the board still works
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('good/T1');
    expect((await ok(dir, ['list'])).changes).toHaveLength(2);
    // its status is not known: said so, never shown as a blank template
    const shown = await ok(dir, ['show', 'odd']);
    expect(shown.documents).toEqual({ proposal: 'submitted', spec: 'submitted', tasks: 'unreadable', review: null });
    expect(shown.document_files.find((d: { document: string }) => d.document === 'tasks')).toMatchObject({ status: 'unreadable', unreadable: true });
    expect((await ok(dir, ['list'])).changes.find((c: { change_id: string }) => c.change_id === 'odd').documents.tasks).toBe('unreadable');
  });

  it('changes/ as a file: list says so instead of showing no changes', async () => {
    const dir = await newBoard();
    rmSync(join(dir, 'agentd/changes'), { recursive: true });
    writeFileSync(join(dir, 'agentd/changes'), 'oops');
    const r = await cli(dir, ['list', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'NOT_A_FOLDER', message: expect.stringContaining('agentd/changes') });
    const v = await cli(dir, ['validate', '--all', '--json']);
    expect(v.code).toBe(1);
    expect(v.json.data.findings[0]).toMatchObject({ file: 'agentd/changes', level: 'error' });
  });
});

describe('an agentd/ folder that is a symbolic link', () => {
  it('is refused with the ways to use the board it leads to, each of which works, and nothing is written', async () => {
    const kept = await newBoard();
    await changeWithTasks(kept, 'linked', [{ title: 'One' }]);
    const repo = tempDir();
    symlinkSync(join(kept, 'agentd'), join(repo, 'agentd'));
    const before = snapshot(kept);
    const link = join(repo, 'agentd');
    const target = realpathSync(join(kept, 'agentd'));
    for (const args of [['status'], ['task', 'note', 'linked/T1', 'A note.', '--as', 'human:tester'], ['init']]) {
      const r = await cli(repo, [...args, '--json']);
      expect(r.code).toBe(1);
      expect(r.json.error).toEqual({
        code: 'UNSAFE_PATH',
        message: `${link} is a symbolic link to ${target}; agentboard reads and writes a board only in a plain agentd/ folder, so it did not touch it.`,
        next_step: `Use the board where it is with --root ${dirname(target)}, or move it in place of the link: \`rm ${link} && mv ${target} ${link}\`.`,
      });
    }
    expect(snapshot(kept)).toEqual(before);
    expect((await ok(repo, ['task', 'list', '--root', dirname(target)])).tasks.map((t: any) => t.task_id)).toEqual(['linked/T1']);
    // a folder of another name, moved in place of the link
    const other = join(tempDir(), 'board-folder');
    renameSync(join(kept, 'agentd'), other);
    rmSync(link);
    symlinkSync(other, link);
    const step = (await cli(repo, ['status', '--json'])).json.error.next_step;
    expect(step).toBe(`Move the folder in place of the link: \`rm ${link} && mv ${realpathSync(other)} ${link}\`.`);
    execSync(/`([^`]*)`/.exec(step)![1]!);
    expect((await ok(repo, ['task', 'list'])).tasks.map((t: any) => t.task_id)).toEqual(['linked/T1']);
    // a link that leads nowhere
    const nowhere = tempDir();
    symlinkSync(join(nowhere, 'gone'), join(nowhere, 'agentd'));
    expect((await cli(nowhere, ['init', '--json'])).json.error.next_step).toBe(`Remove the link (\`rm ${join(nowhere, 'agentd')}\`), then restore agentd/ from git or make a board with \`agentboard init\`.`);
  });
});

describe('a folder under agentd/changes/ whose name is not a change id', () => {
  it('is not read as a change, and reads and validate say so (a file there, like a README, is let be)', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'real', [{ title: 'One' }]);
    mkdirSync(join(dir, 'agentd/changes/Bad_Name'));
    writeFileSync(join(dir, 'agentd/changes/Bad_Name/proposal.md'), '# Proposal\n');
    writeFileSync(join(dir, 'agentd/changes/README.md'), '# Our changes\n');
    const list = await cli(dir, ['list', '--json']);
    expect(list.json.data.changes.map((c: any) => c.change_id)).toEqual(['real']);
    expect(list.json.notices).toEqual(['agentd/changes/Bad_Name is not a change id; it was left out (`agentboard validate` lists every problem).']);
    const validate = await cli(dir, ['validate', '--all', '--json']);
    expect(validate.code).toBe(0);
    expect(validate.json.data.findings).toEqual([expect.objectContaining({ level: 'warning', file: 'agentd/changes/Bad_Name', rule: 'change.id' })]);
    expect((await cli(dir, ['validate', '--all', '--strict'])).code).toBe(1);
  });
});
