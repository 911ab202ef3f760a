/**
 * 100 kill -9 trials at random moments of real writers: every operation is wholly on disk or
 * wholly absent (its note and its activity entry together), the board always validates, and the
 * next command always recovers.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, NODE_ARGS, ok } from '../helpers.js';

describe('100 writers killed at random moments', () => {
  it('leave every operation whole or absent', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'crash', Array.from({ length: 300 }, (_, i) => ({ title: `Task ${i + 1}`, description: 'Some words. '.repeat(30) })));
    await ok(dir, ['next', '--as', 'victim']);
    const env = childEnv();
    const lockHolder = () => {
      try {
        return JSON.parse(readFileSync(join(dir, 'agentd/.runtime/lock'), 'utf8')).pid as number;
      } catch {
        return null;
      }
    };
    let caughtInLock = 0;
    for (let trial = 0; trial < 100; trial++) {
      const writers = Array.from({ length: 4 }, (_, w) => spawn(process.execPath, [...NODE_ARGS, BIN, 'task', 'note', 'crash/T1', `note ${trial}.${w}`, '--as', 'victim', '--root', dir], { env }));
      const closed = writers.map((child) => new Promise((r) => child.on('close', r)));
      const pids = new Set(writers.map((c) => c.pid));
      const deadline = Date.now() + 30_000;
      while (!pids.has(lockHolder() ?? -1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 25)));
      for (const child of writers) child.kill('SIGSTOP');
      if (pids.has(lockHolder() ?? -1)) caughtInLock++;
      for (const child of writers) child.kill('SIGKILL');
      await Promise.all(closed);
      const after = await cli(dir, ['task', 'note', 'crash/T1', `after ${trial}`, '--as', 'victim', '--json']);
      expect(after.code, after.stdout + after.stderr).toBe(0);
      expect((await cli(dir, ['validate', 'crash'])).code).toBe(0);
    }
    expect(caughtInLock).toBeGreaterThan(10);
    const notes: string[] = (await ok(dir, ['task', 'show', 'crash/T1'])).task.notes.map((n: any) => n.text);
    const logged: string[] = (await ok(dir, ['log', '--limit', '500', '--change', 'crash'])).entries
      .filter((e: any) => e.action === 'task.note')
      .map((e: any) => e.summary.replace('note on crash/T1: ', ''));
    expect(notes.filter((n) => n.startsWith('after '))).toHaveLength(100);
    // each note is in the file exactly when its operation is in the log
    expect([...notes].sort()).toEqual([...logged].sort());
    for (const n of notes) expect(n).toMatch(/^(after \d+|note \d+\.\d)$/);
  });
});
