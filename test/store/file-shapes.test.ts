/**
 * Board files as people's editors, tools and copies leave them: each is read as meant, or refused
 * with its file and line, and a write touches only the file it is about.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, read } from '../helpers.js';

describe('a change folder copied by hand, its frontmatter still naming the original change', () => {
  it('has its task writes land in its own tasks.md, never in the original change\'s', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'original', [{ title: 'One' }, { title: 'Two' }]);
    cpSync(join(dir, 'agentd/changes/original'), join(dir, 'agentd/changes/the-copy'), { recursive: true });
    const original = read(dir, 'agentd/changes/original/tasks.md');
    await ok(dir, ['next', '--change', 'the-copy', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'the-copy/T1', '--as', 'codex']);
    await ok(dir, ['task', 'note', 'the-copy/T2', 'Copied on purpose.', '--as', 'human:tester']);
    expect(read(dir, 'agentd/changes/original/tasks.md')).toBe(original);
    const copy = read(dir, 'agentd/changes/the-copy/tasks.md');
    expect(copy).toContain('status: done');
    expect(copy).toContain('Copied on purpose.');
    // the frontmatter is the person's to mend: validate names it
    const validate = await cli(dir, ['validate', 'the-copy']);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('agentd/changes/the-copy/tasks.md:2: error frontmatter.change_id');
  });
});
