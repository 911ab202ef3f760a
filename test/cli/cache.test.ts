import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, newBoard, ok, read, write } from '../helpers.js';

describe('the tasks.md parse cache', () => {
  it('never answers for a file a person changed, even to the same length', () => {
    const dir = newBoard();
    changeWithTasks(dir, 'cached', [{ title: 'Alpha' }, { title: 'Bravo', depends: ['T1'] }]);
    ok(dir, ['next', '--as', 'codex']);
    // a command that reads the list under the lock without changing it fills the cache
    expect(ok(dir, ['next', '--as', 'gemini']).status).toBe('nothing_available');
    expect(existsSync(join(dir, 'agentd/.runtime/cache/cached.tasks.json'))).toBe(true);
    const path = 'agentd/changes/cached/tasks.md';
    const text = read(dir, path);
    // same byte length, different content
    write(dir, path, text.replace('## T2: Bravo', '## T2: Delta'));
    expect(read(dir, path).length).toBe(text.length);
    expect(ok(dir, ['task', 'show', 'cached/T2']).task.title).toBe('Delta');
    ok(dir, ['task', 'done', 'cached/T1', '--as', 'codex']);
    expect(ok(dir, ['next', '--as', 'gemini']).task.title).toBe('Delta');
  });
});
