/**
 * The console follows the disk: a write by another process, a person's save in an editor, a new
 * change, all show without a key pressed (bounded polls; how fast is measured in bench/). Reading
 * again makes nothing again for a change whose files did not change.
 */
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotReader } from '../../src/console/snapshot.js';
import { BoardWatcher } from '../../src/console/watch.js';
import { Board } from '../../src/store/board.js';
import { changeWithTasks, cliAsync, newBoard, ok } from '../helpers.js';
import { drawConsole, KEY, until, type Drawn } from './helpers.js';

let drawn: Drawn | null = null;
afterEach(() => {
  drawn?.close();
  drawn = null;
});

async function watchedBoard(): Promise<{ dir: string; c: Drawn }> {
  const dir = await newBoard();
  await changeWithTasks(dir, 'add-search', [
    { id: 'T1', title: 'Index the titles' },
    { id: 'T2', title: 'Search command' },
  ]);
  const c = (drawn = drawConsole(dir));
  c.live.start({ tickMs: 60_000 });
  return { dir, c };
}

describe('the console follows the board on disk', () => {
  it('shows what separate processes do: a claim, progress, a question', async () => {
    const { dir, c } = await watchedBoard();
    expect(c.frame()).toMatch(/TODO 2 +IN PROGRESS 0/);
    const agent = { env: {} };
    expect((await cliAsync(dir, ['session', 'status', 'working', '--as', 'codex', '--message', 'Starting'], agent)).code).toBe(0);
    expect((await cliAsync(dir, ['next', '--as', 'codex'], agent)).code).toBe(0);
    await until('the claim', () => /TODO 1 +IN PROGRESS 1/.test(c.frame()));
    expect((await cliAsync(dir, ['task', 'progress', 'add-search/T1', '--as', 'codex', '--percent', '80', '--message', 'Nearly there'], agent)).code).toBe(0);
    await until('the progress', () => c.frame().includes('▰▰▱ codex'));
    expect((await cliAsync(dir, ['ask', '--as', 'codex', '--question', 'Keep the old index?', '--option', 'yes', '--option', 'no', '--default-action', 'yes'], agent)).code).toBe(0);
    await until('the question', () => c.frame().includes('Waiting on you (4)'));
  });

  it('shows a person\'s save in an editor (a new file renamed over the old one)', async () => {
    const { dir, c } = await watchedBoard();
    const file = join(dir, 'agentd/changes/add-search/tasks.md');
    const text = readFileSync(file, 'utf8');
    writeFileSync(`${file}.swp`, text.replace('## T2: Search command', '## T2: Search by any word'));
    renameSync(`${file}.swp`, file);
    await until('the edited title', () => c.frame().includes('Search by a'));
  });

  it('follows a change created after it started', async () => {
    const { dir, c } = await watchedBoard();
    await changeWithTasks(dir, 'fix-login', [{ id: 'T1', title: 'Reset tokens expire' }]);
    await until('the new change', () => c.frame().includes('T1 fix-login'));
    // And its folder is watched from then on: a write there shows too.
    await ok(dir, ['task', 'progress', 'fix-login/T1', '--as', 'kimi', '--percent', '20', '--message', 'Started']);
    await until('progress in the new change', () => c.frame().includes('▰▱▱ kimi'));
  });
});

describe('a question that runs out of time', () => {
  it('keeps the cursor on the item it was on when the list changes above it, so that a key acts on what the person chose', async () => {
    const { dir, c } = await watchedBoard();
    const selected = () => c.frame().split('\n').find((l) => l.startsWith('› ')) ?? '';
    // The spec of add-search, under its proposal.
    await c.keys('3', 'j');
    expect(selected()).toContain('the spec of add-search');
    await ok(dir, ['approve', 'add-search', 'proposal', '--as', 'human:tester']);
    await until('the proposal decided', () => !c.frame().includes('the proposal of add-search'));
    expect(selected()).toContain('the spec of add-search');
    // A question comes in above it.
    expect((await cliAsync(dir, ['ask', '--as', 'kimi', '--question', 'REST or GraphQL?', '--default-action', 'REST'])).code).toBe(0);
    await until('the question', () => c.frame().includes('? input-1 from kimi'));
    expect(selected()).toContain('the spec of add-search');
    await c.keys('a');
    await until('the approval', () => c.frame().includes('✓ Approved the spec of add-search.'));
    expect((await ok(dir, ['docs'])).documents.filter((d: any) => d.status === 'submitted').map((d: any) => d.document)).toEqual(['tasks']);
  });

  it('leaves the screen when it does, not at the clock\'s next tick, and its open prompt says so until the person goes back', async () => {
    // The clock's tick is a minute away: only the question's own deadline moves the screen.
    const { dir, c } = await watchedBoard();
    // Asked 55 s ago with a minute to answer (in a process of its own, whose clock says so): it runs out of time five seconds from now.
    const asked = new Date(Date.now() - 55_000).toISOString();
    const ask = await cliAsync(dir, ['ask', '--as', 'kimi', '--question', 'REST or GraphQL?', '--option', 'REST', '--option', 'GraphQL', '--default-action', 'REST', '--timeout-minutes', '1'], { env: { AGENTBOARD_TEST_NOW: asked } });
    expect(ask.code).toBe(0);
    await until('the question', () => c.frame().includes('Waiting on you (4)'));
    await c.keys('3', KEY.enter);
    expect(c.frame()).toContain('kimi asks (input-1');
    await until('the question to run out of time', () => c.frame().includes('input-1 ran out of time: kimi goes on with its default action: REST'), 30_000);
    expect(c.frame()).not.toContain('kimi asks');
    expect(c.frame()).toContain('Waiting on you (3)');
    expect(c.frame()).not.toContain('input-1 from kimi');
    await c.keys(KEY.esc);
    await until('the prompt to go', () => !c.frame().includes('Nothing was sent.'));
    expect(c.frame().split('\n').at(-1)).toBe('✗ input-1 ran out of time: kimi goes on with its default action: REST');
  });
});

describe('a board that cannot be read', () => {
  it('keeps the last screen, says what is wrong, and recovers when the file is fixed', async () => {
    const { dir, c } = await watchedBoard();
    await ok(dir, ['session', 'status', 'working', '--as', 'codex', '--message', 'Starting']);
    const state = join(dir, 'agentd/.runtime/state.json');
    const before = readFileSync(state, 'utf8');
    writeFileSync(state, '{not json');
    await until('the warning', () => c.frame().split('\n').at(-1)!.startsWith('⚠ agentd/.runtime/state.json is not a valid runtime store.'));
    expect(c.frame()).toMatch(/TODO 2 +IN PROGRESS 0/);
    writeFileSync(state, before);
    await until('the warning gone', () => !c.frame().includes('⚠'));
  });

  it('says the board\'s folder is gone when it is moved away, takes only q meanwhile, and shows the board again when it is back', async () => {
    const { dir, c } = await watchedBoard();
    const footer = () => c.frame().trimEnd().split('\n').at(-1)!;
    await until('the board', () => /TODO 2 /.test(c.frame()));
    const board = join(dir, 'agentd');
    renameSync(board, join(dir, 'agentd-moved'));
    await until('the warning', () => c.frame().replace(/\s+/g, ' ').includes(`The board's folder is gone: ${board} was moved or deleted.`));
    expect(footer()).toBe('q quit');
    // The keys of the board wait for it: / opens no filter.
    await c.keys('/');
    expect(footer()).toBe('q quit');
    renameSync(join(dir, 'agentd-moved'), board);
    await until('the board back', () => /TODO 2 /.test(c.frame()));
    expect(c.frame()).not.toContain('is gone');
    expect(footer()).toContain('/ filter');
    await c.keys('q');
    expect(c.quits()).toBe(1);
  });

  it('shows the board again when its folder, deleted, is made again: a new folder, not the one it watched', async () => {
    const { dir, c } = await watchedBoard();
    await until('the board', () => /TODO 2 /.test(c.frame()));
    const board = join(dir, 'agentd');
    cpSync(board, join(dir, 'agentd-copy'), { recursive: true });
    rmSync(board, { recursive: true });
    await until('the warning', () => c.frame().includes("The board's folder is gone"));
    cpSync(join(dir, 'agentd-copy'), board, { recursive: true });
    await until('the board back', () => /TODO 2 /.test(c.frame()));
    // Followed again: an agent's write shows.
    await cliAsync(dir, ['next', '--as', 'kimi']);
    await until('the claim', () => /TODO 1 +IN PROGRESS 1/.test(c.frame()));
  });

  it('keeps a question open while the board\'s folder is gone, not taking it for answered elsewhere: it is answered once the folder is back', async () => {
    const { dir, c } = await watchedBoard();
    await ok(dir, ['ask', '--as', 'kimi', '--question', 'REST or GraphQL?', '--option', 'REST', '--option', 'GraphQL', '--default-action', 'REST']);
    await until('the question', () => c.frame().includes('Waiting on you (4)'));
    await c.keys('3', KEY.enter);
    expect(c.frame()).toContain('kimi asks (input-1');
    const board = join(dir, 'agentd');
    renameSync(board, join(dir, 'agentd-moved'));
    await until('the warning', () => c.frame().includes("The board's folder is gone"));
    expect(c.frame()).not.toContain('answered from elsewhere');
    renameSync(join(dir, 'agentd-moved'), board);
    await until('the board back', () => c.frame().includes('Waiting on you (4)'));
    expect(c.frame()).toContain('kimi asks (input-1');
    await c.keys('2');
    await until('the answer', () => c.frame().includes('✓ Answered input-1'));
    const { inputs } = await ok(dir, ['inputs', '--status', 'all']);
    expect(inputs.find((i: any) => i.input_id === 'input-1').resolution).toMatchObject({ value: 'GraphQL', by: 'human:tester' });
  });

  it('closes a question open while the board\'s folder is gone with Esc, and quits with q', async () => {
    const { dir, c } = await watchedBoard();
    const footer = () => c.frame().trimEnd().split('\n').at(-1)!;
    const board = join(dir, 'agentd');
    const away = async () => {
      renameSync(board, join(dir, 'agentd-moved'));
      await until('the warning', () => c.frame().includes("The board's folder is gone"));
    };
    await ok(dir, ['ask', '--as', 'kimi', '--question', 'REST or GraphQL?', '--option', 'REST', '--option', 'GraphQL', '--default-action', 'REST']);
    await until('the question', () => c.frame().includes('Waiting on you (4)'));
    await c.keys('3', KEY.enter);
    expect(c.frame()).toContain('kimi asks (input-1');
    await away();
    expect(footer()).toBe('Esc back · q quit');
    await c.keys(KEY.esc);
    expect(c.frame()).not.toContain('kimi asks (input-1');
    expect(footer()).toBe('q quit');
    // Back, the question is still there to open; gone again, q quits from its prompt.
    renameSync(join(dir, 'agentd-moved'), board);
    await until('the board back', () => c.frame().includes('Waiting on you (4)'));
    await c.keys(KEY.enter);
    expect(c.frame()).toContain('kimi asks (input-1');
    await away();
    await c.keys('q');
    expect(c.quits()).toBe(1);
    // Nothing was answered on the way.
    renameSync(join(dir, 'agentd-moved'), board);
    expect((await ok(dir, ['inputs'])).inputs.map((i: any) => i.status)).toEqual(['open']);
  });
});

describe('reading again', () => {
  it('makes nothing again for a change whose files did not change', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    await changeWithTasks(dir, 'fix-login', [{ id: 'T1', title: 'Reset tokens expire' }]);
    const reader = new SnapshotReader(Board.open(dir), null);
    const first = reader.read();
    await ok(dir, ['task', 'progress', 'fix-login/T1', '--as', 'kimi', '--percent', '20', '--message', 'Started']);
    const second = reader.read();
    expect(second.changes[0]).toBe(first.changes[0]);
    expect(second.tasks[0]).toBe(first.tasks[0]);
    expect(second.changes[1]).not.toBe(first.changes[1]);
    expect(second.tasks[1]).toMatchObject({ task_id: 'fix-login/T1', status: 'in_progress', progress: 20, assignee: 'kimi' });
  });

  it('shows a change whose task list an editor emptied as waiting for that file to be fixed', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    writeFileSync(join(dir, 'agentd/changes/add-search/tasks.md'), '');
    const change = new SnapshotReader(Board.open(dir), null).read().changes[0]!;
    expect(change.waiting_on).toBe('its task list file to be fixed: it cannot be read');
    expect(change.problems.length).toBeGreaterThan(0);
  });

  it('turns a burst of events into one refresh, soon after the burst', async () => {
    const dir = await newBoard();
    let refreshes = 0;
    const watcher = new BoardWatcher(() => refreshes++, { debounceMs: 30, maxWaitMs: 1000 });
    try {
      watcher.watchOnly([join(dir, 'agentd')]);
      for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'agentd', `note-${i}.txt`), 'x');
      await until('the refresh', () => refreshes > 0);
      // The lock and temp files of a write are noise: they bring no refresh of their own.
      const before = refreshes;
      writeFileSync(join(dir, 'agentd', 'lock'), 'x');
      writeFileSync(join(dir, 'agentd', '.tasks.md.123-0123456789ab.tmp'), 'x');
      writeFileSync(join(dir, 'agentd', 'marker.txt'), 'x');
      await until('the marker', () => refreshes > before);
      expect(refreshes).toBe(before + 1);
      expect(before).toBe(1);
    } finally {
      watcher.close();
    }
  });
});
