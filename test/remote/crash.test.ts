/**
 * kill -9 around a shared board's push: the next command on that clone settles it. The write is
 * on the remote or it is not, never half, and the clone then shows exactly what the remote holds.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, cliProcess, NODE_ARGS, ok } from '../helpers.js';
import { activityOf, cloneTree, remoteFile, remoteTree, sharedBoard } from './helpers.js';

const notesOf = (text: string) => [...text.slice(text.indexOf('## T1')).matchAll(/text: (.+)/g)].map((m) => m[1]!.replace(/^"|"$/g, ''));

async function board() {
  const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'crash', [{ title: 'Survive' }]));
  const dir = shared.clones[0]!;
  await ok(dir, ['next', '--as', 'victim']);
  return { shared, dir };
}

/** The clone shows exactly the remote's board, and its log agrees with its notes. */
async function settled(shared: Awaited<ReturnType<typeof board>>['shared'], dir: string): Promise<string[]> {
  const tree = remoteTree(shared);
  for (const [path, blob] of Object.entries(cloneTree(dir))) expect(tree[path], path).toBe(blob);
  const notes = notesOf(remoteFile(shared, 'changes/crash/tasks.md'));
  const logged = activityOf(dir)
    .filter((e) => e.action === 'task.note')
    .map((e) => e.summary.replace('note on crash/T1: ', ''));
  expect(notes).toEqual(logged);
  expect((await cli(dir, ['validate'])).code).toBe(0);
  return notes;
}

describe('kill -9 of a shared write', () => {
  it('after its push landed: the next command finds it on the remote and shows it, once', async () => {
    const { shared, dir } = await board();
    const killed = cliProcess(dir, ['task', 'note', 'crash/T1', 'Landed before the kill', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: 'remote:pushed' } });
    expect(killed.code).toBe(-1);
    expect(notesOf(remoteFile(shared, 'changes/crash/tasks.md'))).toEqual(['Landed before the kill']);
    expect(readFileSync(join(dir, 'agentd/changes/crash/tasks.md'), 'utf8')).not.toContain('Landed before the kill');
    expect(existsSync(join(dir, 'agentd/.runtime/remote/pending.json'))).toBe(true);

    const next = await cli(dir, ['task', 'note', 'crash/T1', 'After the kill', '--as', 'victim', '--json']);
    expect(next.code, next.stdout).toBe(0);
    expect(next.json.notices.join(' ')).toMatch(/interrupted write \(note on crash\/T1: Landed before the kill\) had reached the shared board/);
    expect(existsSync(join(dir, 'agentd/.runtime/remote/pending.json'))).toBe(false);
    expect(await settled(shared, dir)).toEqual(['Landed before the kill', 'After the kill']);
  });

  it('before its push: the next command says it did not land, and nothing of it is anywhere', async () => {
    const { shared, dir } = await board();
    const killed = cliProcess(dir, ['task', 'note', 'crash/T1', 'Never pushed', '--as', 'victim'], { env: { AGENTBOARD_TEST_FAULT: 'remote:push' } });
    expect(killed.code).toBe(-1);
    const next = await cli(dir, ['task', 'show', 'crash/T1', '--sync', '--json']);
    expect(next.json.notices.join(' ')).toMatch(/had not reached the shared board; nothing of it was written/);
    expect(next.json.data.task.notes).toEqual([]);
    expect(await settled(shared, dir)).toEqual([]);
  });

  for (const outcome of ['lands', 'is refused'] as const) {
    it(`while git pushes (the push outlives the process and ${outcome}): the next command waits for it and tells`, async () => {
      const { shared, dir } = await board();
      const started = join(shared.remote, '..', 'push-started');
      const hook = join(shared.remote, 'hooks', 'pre-receive');
      // the first push is held for 2 s, then taken or refused; later pushes go through
      writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\n[ -e ${started} ] && exit 0\ntouch ${started}\nsleep 2\nexit ${outcome === 'lands' ? 0 : 1}\n`, { mode: 0o755 });
      const child = spawn(process.execPath, [...NODE_ARGS, BIN, 'task', 'note', 'crash/T1', 'Pushed while killed', '--as', 'victim'], { cwd: dir, env: childEnv() });
      const closed = new Promise((resolve) => child.on('close', resolve));
      const deadline = Date.now() + 30_000;
      while (!existsSync(started) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(started)).toBe(true);
      child.kill('SIGKILL');
      await closed;

      const next = await cli(dir, ['task', 'note', 'crash/T1', 'After the kill', '--as', 'victim', '--json']);
      expect(next.code, next.stdout).toBe(0);
      const said = next.json.notices.join(' ');
      if (outcome === 'lands') {
        expect(said).toMatch(/had reached the shared board/);
        expect(await settled(shared, dir)).toEqual(['Pushed while killed', 'After the kill']);
      } else {
        expect(said).toMatch(/had not reached the shared board/);
        expect(await settled(shared, dir)).toEqual(['After the kill']);
      }
    });
  }
});
