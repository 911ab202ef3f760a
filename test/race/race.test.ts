import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, cli, cliAsync, newBoard, ok, read, ROOT } from '../helpers.js';

describe('eight agents call next at the same moment', () => {
  it('never hand one task to two of them, and the losers get a clear answer', async () => {
    for (let round = 0; round < 4; round++) {
      const dir = await newBoard();
      const tasks = 3 + round; // always fewer tasks than callers
      await changeWithTasks(dir, 'race', Array.from({ length: tasks }, (_, i) => ({ title: `Task ${i + 1}` })));
      const agents = Array.from({ length: 8 }, (_, i) => `agent-${i}`);
      const results = await Promise.all(agents.map((a) => cliAsync(dir, ['next', '--as', a, '--json'])));
      for (const r of results) expect(r.code, r.stdout + r.stderr).toBe(0);
      const assigned = results.filter((r) => r.json.data.status === 'assigned');
      const ids = assigned.map((r) => r.json.data.task.task_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(tasks);
      for (const r of results.filter((x) => x.json.data.status !== 'assigned')) {
        expect(r.json.data.status).toBe('nothing_available');
        expect(r.json.data.reasons.held_by_others).toBe(tasks);
        expect(r.json.data.message).toContain('held by other agents');
      }
      // the file agrees: every task held by exactly the agent that was told it has it
      const list = await ok(dir, ['task', 'list']);
      for (const r of assigned) {
        const t = list.tasks.find((x: any) => x.task_id === r.json.data.task.task_id);
        expect(t).toMatchObject({ status: 'in_progress', assignee: r.json.data.task.assignee });
      }
      expect((await cli(dir, ['validate'])).code).toBe(0);
    }
  });
});

describe('many processes change different tasks of one tasks.md at once', () => {
  it('lose no update', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'busy', Array.from({ length: 8 }, (_, i) => ({ title: `Task ${i + 1}` })));
    for (let i = 0; i < 8; i++) await ok(dir, ['next', '--as', `w${i}`]);
    const rounds = 6;
    const outputs = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const task = (await ok(dir, ['task', 'list', '--assignee', `w${i}`])).tasks[0].task_id;
        return new Promise<string>((done, fail) => {
          const child = spawn(process.execPath, [join(ROOT, 'test/race/worker.mjs'), dir, `w${i}`, task, String(rounds)]);
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (out += d));
          child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(out))));
        });
      }),
    );
    for (const out of outputs) {
      const lines = out.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines).toHaveLength(rounds);
      for (const l of lines) expect(l, JSON.stringify(l.error)).toMatchObject({ note: true, progress: true });
    }
    for (let i = 0; i < 8; i++) {
      const task = (await ok(dir, ['task', 'list', '--assignee', `w${i}`])).tasks[0];
      const full = (await ok(dir, ['task', 'show', task.task_id])).task;
      expect(full.notes.map((n: any) => n.text)).toEqual(Array.from({ length: rounds }, (_, k) => `w${i} note ${k}`));
      expect(full.progress).toBe(rounds - 1);
    }
    expect((await ok(dir, ['log', '--limit', '500'])).total).toBeGreaterThanOrEqual(8 * rounds * 2);
  });
});

describe('a process killed in the middle of a write', () => {
  it('leaves the old file or the new one, and the next command recovers the lock', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'crash', Array.from({ length: 600 }, (_, i) => ({ title: `Task ${i + 1}`, description: 'Some words. '.repeat(40) })));
    await ok(dir, ['next', '--as', 'victim']);
    const lockHolder = () => {
      try {
        return JSON.parse(readFileSync(join(dir, 'agentd/.runtime/lock'), 'utf8')).pid as number;
      } catch {
        return null;
      }
    };
    let caughtInLock = 0;
    let attempts = 0;
    for (let attempt = 0; attempt < 30 && caughtInLock < 3; attempt++) {
      attempts++;
      // Six writers queue for the lock; as soon as one holds it, wait a random moment more and kill it.
      const writers = Array.from({ length: 6 }, (_, w) => spawn(process.execPath, [BIN, 'task', 'note', 'crash/T1', `note ${attempt}.${w}`, '--as', 'victim', '--root', dir]));
      const closed = writers.map((child) => new Promise((r) => child.on('close', r)));
      const pids = new Set(writers.map((c) => c.pid));
      const deadline = Date.now() + 30_000;
      while (!pids.has(lockHolder() ?? -1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
      for (const child of writers) child.kill('SIGSTOP');
      const holder = lockHolder();
      for (const child of writers) child.kill('SIGKILL');
      await Promise.all(closed);
      if (holder !== null && pids.has(holder)) caughtInLock++;
      // whole: the file reads back and validates
      expect((await cli(dir, ['validate', 'crash'])).code).toBe(0);
      // and the next command recovers the lock a killed writer may have left
      const after = await cli(dir, ['task', 'note', 'crash/T1', `after ${attempt}`, '--as', 'victim', '--json']);
      expect(after.code, after.stdout + after.stderr).toBe(0);
    }
    expect(caughtInLock).toBeGreaterThan(0);
    // every command that finished kept its note; a killed one left no half of one
    const notes: string[] = (await ok(dir, ['task', 'show', 'crash/T1'])).task.notes.map((n: any) => n.text);
    expect(notes.filter((n) => n.startsWith('after '))).toHaveLength(attempts);
    for (const n of notes) expect(n).toMatch(/^(after \d+|note \d+\.\d)$/);
    expect(read(dir, 'agentd/changes/crash/tasks.md').endsWith('\n')).toBe(true);
  });
});
