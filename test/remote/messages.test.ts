/** What a shared board tells about its writes: the reason a remote's hook gives for refusing one. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, ok } from '../helpers.js';
import { remoteTree, sharedBoard } from './helpers.js';

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
});
