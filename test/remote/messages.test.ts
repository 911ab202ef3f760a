/**
 * What a shared board tells about its writes: the reason a remote's hook gives for refusing one,
 * and, for a note or a progress report made offline, the time it was written, kept when it is
 * pushed later.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, ok } from '../helpers.js';
import { git, remoteFile, remoteTree, sharedBoard } from './helpers.js';

describe('a shared board', () => {
  it("shows the reason the remote's hook gives when it refuses a write, cleaned and capped, and writes nothing", async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }]));
    const a = shared.clones[0]!;
    await ok(a, ['status', '--sync']);
    const before = remoteTree(shared);
    const details = Array.from({ length: 20 }, (_, i) => `echo "detail ${i + 1}" >&2`).join('\n');
    writeFileSync(join(shared.remote, 'hooks', 'pre-receive'), `#!/bin/sh\ncat > /dev/null\nprintf '\\033[31mBoard pushes need a ticket number\\033[0m\\a\\n' >&2\necho "   See POLICY.md   " >&2\n${details}\nexit 1\n`, { mode: 0o755 });

    const r = await cli(a, ['next', '--as', 'walker', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('REMOTE_REFUSED');
    const message: string = r.json.error.message;
    expect(message).toContain('pre-receive hook declined');
    expect(message).toContain('nothing was written');
    expect(message).toContain('Board pushes need a ticket number\n  See POLICY.md\n  detail 1\n');
    expect(message).toContain('detail 8');
    expect(message).not.toContain('detail 9');
    expect(message).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(remoteTree(shared)).toEqual(before);
    expect((await ok(a, ['task', 'show', 'trip/T1'])).task.assignee ?? null).toBeNull();
  });

  it('says at once when the remote turns pushes down while its board does not move (a lock file left on the server), instead of retrying for minutes', async () => {
    const shared = await sharedBoard(1, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }]));
    const a = shared.clones[0]!;
    await ok(a, ['status', '--sync']);
    const before = remoteTree(shared);
    const lock = join(shared.remote, 'refs', 'agentboard', 'board.lock');
    writeFileSync(lock, '');
    const r = await cli(a, ['next', '--as', 'walker', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('REMOTE_REFUSED');
    expect(r.json.error.message).toMatch(/^The remote "origin" turned the board's update down 3 times as if another clone had written first \(\[remote rejected\] \(failed to update ref\)\), but its board has not moved; nothing was written\. It said:\n {2}error: cannot lock ref 'refs\/agentboard\/board'/);
    expect(r.json.error.next_step).toContain('refs/agentboard/board.lock file a crashed git left on the server: remove it');
    expect(remoteTree(shared)).toEqual(before);
    rmSync(lock);
    expect((await ok(a, ['next', '--as', 'walker'])).task.task_id).toBe('trip/T1');
  });

  it('keeps the time a note and a progress report were written offline when they are pushed later', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['next', '--as', 'walker']);
    const written = new Date(Date.now() + 3600_000).toISOString();
    const pushed = new Date(Date.now() + 3 * 3600_000).toISOString();

    const away = `${shared.remote}.away`;
    renameSync(shared.remote, away);
    const note = await cli(a, ['task', 'note', 'trip/T1', 'Packed the tent', '--as', 'walker', '--json'], { env: { AGENTBOARD_TEST_NOW: written } });
    expect(note.code, note.stdout).toBe(0);
    expect(note.json.notices.join(' ')).toMatch(/queued \(1 waiting\)/);
    await ok(a, ['task', 'progress', 'trip/T1', '--percent', '40', '--message', 'Tent packed', '--as', 'walker'], { env: { AGENTBOARD_TEST_NOW: written } });
    renameSync(away, shared.remote);

    const sync = await ok(a, ['remote', 'sync'], { env: { AGENTBOARD_TEST_NOW: pushed } });
    expect(sync.replayed).toBe(2);
    const task = (await ok(b, ['task', 'show', 'trip/T1', '--sync'])).task;
    expect(task.notes.map((n: any) => [n.text, n.at])).toEqual([['Packed the tent', written]]);
    expect(task).toMatchObject({ progress: 40, progress_at: written });
    const tasksMd = remoteFile(shared, 'changes/trip/tasks.md');
    expect(tasksMd).toContain(written);
    expect(tasksMd).not.toContain(pushed);
    const log = remoteFile(shared, 'runtime/activity/000001.jsonl')
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.action === 'task.note' || e.action === 'task.progress');
    expect(log.map((e) => [e.action, e.at])).toEqual([
      ['task.note', written],
      ['task.progress', written],
    ]);
  });

  it('says so on both clones when the machines\' clocks differ: a write stamped later than this clone\'s clock, or one made since its last sync stamped long before it', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }, { title: 'Drive' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(b, ['status', '--sync']);
    await ok(a, ['next', '--as', 'walker']);
    // b's clock is three hours behind a's.
    const behind = { env: { AGENTBOARD_TEST_NOW: new Date(Date.now() - 3 * 3600_000).toISOString() } };
    const r = await cli(b, ['next', '--as', 'driver', '--json'], behind);
    expect(r.json.data.task.task_id).toBe('trip/T2');
    expect(r.json.notices).toEqual([expect.stringMatching(/^The shared board's last write, by another clone, is stamped 3 h later than this clone's clock says it is: the clocks of the machines that share the board differ\. Claims made on a machine whose clock is behind look stale/)]);
    // Each commit carries the time its write was made.
    expect(Number(git(shared.remote, ['log', '-1', '--format=%ct', 'refs/agentboard/board']))).toBe(Math.floor(Date.parse(behind.env.AGENTBOARD_TEST_NOW) / 1000));
    // Its own write fetched back says nothing.
    expect((await cli(b, ['task', 'list', '--sync', '--json'], behind)).json.notices).toHaveLength(1);
    // The clone whose clock is ahead sees a write made since its own, stamped three hours before it, and says so too.
    const ahead = (await cli(a, ['task', 'list', '--sync', '--json'])).json.notices;
    expect(ahead).toHaveLength(2);
    expect(ahead[0]).toMatch(/^The shared board's last write, by another clone, was made after this clone's previous sync but is stamped at least 3 h earlier than this clone's clock said then: .* this clone's runs ahead\. Claims made on a machine whose clock is behind look stale here/);
    // A write older than this clone's previous sync, and this clone's own, say nothing.
    expect((await cli(a, ['task', 'list', '--sync', '--json'])).json.notices).toHaveLength(1);
    await ok(a, ['task', 'note', 'trip/T1', 'Packed', '--as', 'walker']);
    expect((await cli(a, ['task', 'list', '--sync', '--json'])).json.notices).toHaveLength(1);
  });

  it('does not expire a question early on a clone whose clock is ahead of the asker\'s: its time runs from when that clone first saw it', async () => {
    const shared = await sharedBoard(2, async (first) => changeWithTasks(first, 'trip', [{ title: 'Pack' }, { title: 'Drive' }]));
    const [a, b] = shared.clones as [string, string];
    await ok(a, ['status', '--sync']);
    // b's clock is three hours behind a's: its question's deadline, half an hour on, is long past by a's clock.
    const start = Date.now();
    const behind = { env: { AGENTBOARD_TEST_NOW: new Date(start - 3 * 3600_000).toISOString() } };
    await ok(b, ['next', '--as', 'driver'], behind);
    const asked = await ok(b, ['ask', '--as', 'driver', '--question', 'Which road?', '--default-action', 'Take the coast road.', '--timeout-minutes', '30'], behind);

    const at = (minutes: number) => ({ env: { AGENTBOARD_TEST_NOW: new Date(start + minutes * 60_000).toISOString() } });
    const first = await cli(a, ['expire', '--json'], at(0));
    expect(first.json.data.expired).toEqual([]);
    // a's clock is ahead: b's writes came after a's previous sync, stamped hours before it; a says so too
    expect(first.json.notices).toContainEqual(expect.stringMatching(/^The shared board's last write, by another clone, was made after this clone's previous sync but is stamped at least 3 h earlier than this clone's clock said then: .* this clone's runs ahead\./));
    expect((await ok(a, ['next', '--as', 'walker'], at(1))).task.task_id).toBe('trip/T2');
    expect((await ok(a, ['expire'], at(25))).expired).toEqual([]);
    expect((await ok(b, ['session', 'show', '--as', 'driver', '--sync'], behind)).status).toBe('awaiting_input');
    // half an hour after a first saw it, by a's own clock, it is past
    expect((await ok(a, ['expire'], at(31))).expired.map((i: any) => i.input_id)).toEqual([asked.input_id]);
  });
});
