import { existsSync, utimesSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, newBoard, ok, read, write } from '../helpers.js';

describe('the ledger of what agentboard last wrote (also its parse cache)', () => {
  it('never answers for a file a person changed, even to the same length and mtime', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'cached', [{ title: 'Alpha' }, { title: 'Bravo', depends: ['T1'] }]);
    await ok(dir, ['next', '--as', 'codex']);
    expect(existsSync(join(dir, 'agentd/.runtime/ledger/cached.json'))).toBe(true);
    const path = 'agentd/changes/cached/tasks.md';
    const text = read(dir, path);
    const before = statSync(join(dir, path));
    // same byte length, different content, and the old mtime put back
    write(dir, path, text.replace('## T2: Bravo', '## T2: Delta'));
    utimesSync(join(dir, path), before.atime, before.mtime);
    expect(read(dir, path).length).toBe(text.length);
    expect((await ok(dir, ['task', 'show', 'cached/T2'])).task.title).toBe('Delta');
    await ok(dir, ['task', 'done', 'cached/T1', '--as', 'codex']);
    expect((await ok(dir, ['next', '--as', 'gemini'])).task.title).toBe('Delta');
  });
});
