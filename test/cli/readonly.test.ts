import { utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, snapshot } from '../helpers.js';

describe('read-only commands', () => {
  it('leave the board byte-for-byte unchanged', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'read-only', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }]);
    await ok(dir, ['agent', 'register', '--as', 'codex', '--name', 'Codex', '--role', 'dev']);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'progress', 'read-only/T1', '--as', 'codex', '--percent', '10', '--message', 'started']);
    await ok(dir, ['ask', '--as', 'codex', '--question', 'Which?', '--default-action', 'the first', '--timeout-minutes', '1']);
    const before = snapshot(dir);
    const commands = [
      ['status'],
      ['list'],
      ['list', '--archived'],
      ['show', 'read-only'],
      ['show', 'read-only', 'proposal'],
      ['show', 'read-only', 'spec'],
      ['show', 'read-only', 'tasks'],
      ['docs'],
      ['validate'],
      ['validate', 'read-only', '--strict'],
      ['task', 'list'],
      ['task', 'list', '--status', 'pending'],
      ['task', 'show', 'read-only/T1'],
      ['agent', 'list'],
      ['agent', 'show', 'codex'],
      ['session', 'show', '--as', 'codex'],
      ['inputs'],
      ['log'],
    ];
    for (const args of commands) {
      for (const json of [[], ['--json']]) {
        const r = await cli(dir, [...args, ...json]);
        expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      }
    }
    // even once the question's deadline has passed: reads show the timeout, nothing is written
    const later = { AGENTBOARD_TEST_NOW: new Date(Date.now() + 5 * 60_000).toISOString() };
    const state = await cli(dir, ['session', 'show', '--as', 'codex', '--json'], { env: later });
    expect(state.json.data.status).toBe('working');
    expect(state.json.data.resolutions[0].resolution).toMatchObject({ type: 'timeout', value: 'the first' });
    expect((await cli(dir, ['status'], { env: later })).code).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('--json', () => {
  it('prints exactly one JSON document on success and on failure', async () => {
    const dir = await newBoard();
    const good = await cli(dir, ['list', '--json']);
    expect(good.code).toBe(0);
    expect(Object.keys(good.json)).toEqual(['ok', 'data']);
    const bad = await cli(dir, ['show', 'missing-change', '--json']);
    expect(bad.code).toBe(1);
    expect(bad.json).toEqual({ ok: false, error: { code: 'CHANGE_NOT_FOUND', message: expect.any(String), next_step: expect.stringContaining('agentboard') } });
    expect(bad.stderr).toBe('');
  });
});

describe('the board lock', () => {
  it('is taken over when the process holding it is dead', async () => {
    const dir = await newBoard();
    // a holder that died: a pid that cannot be running
    writeFileSync(join(dir, 'agentd/.runtime/lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), token: 'dead-1', at: Date.now() }));
    writeFileSync(join(dir, 'agentd/changes/.proposal.md.4194999.deadbeef.tmp'), 'half a file');
    const r = await cli(dir, ['new', 'after-crash', '--as', 'claude', '--json']);
    expect(r.code).toBe(0);
    expect(snapshot(dir)['agentd/.runtime/lock']).toBeUndefined();
  });

  it('is taken over when a holder this host cannot check is older than a minute by the file system\'s clock', async () => {
    const dir = await newBoard();
    const lock = join(dir, 'agentd/.runtime/lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'other-host', token: 'old-1' }));
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    expect((await cli(dir, ['new', 'after-stale', '--as', 'claude'])).code).toBe(0);
  });
});
