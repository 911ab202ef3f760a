/**
 * A shared board in repositories as people keep them: hooks that refuse, a board ref someone
 * rewrote on the remote. Every refusal changes nothing, and nothing agreed on the remote is lost.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, ok } from '../helpers.js';
import { commitCode, git, sharedBoard } from './helpers.js';

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
