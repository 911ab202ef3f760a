/**
 * The board lock cannot be stolen from a live holder, cannot wedge, and does not care what any one
 * process's clock says.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, cliAsync, newBoard, NODE_ARGS, ok, processState, tempDir, unreapedCli } from '../helpers.js';

const lockPath = (dir: string) => join(dir, 'agentd/.runtime/lock');

function holderPid(dir: string): number | null {
  try {
    return JSON.parse(readFileSync(lockPath(dir), 'utf8')).pid as number;
  } catch {
    return null;
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('a lock file holding garbage', () => {
  it('is taken over at once when it is older than the stale limit by the file system\'s clock', async () => {
    const dir = await newBoard();
    writeFileSync(lockPath(dir), '\u0000\u0001 not a lock');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lockPath(dir), old, old);
    expect((await ok(dir, ['new', 'after-garbage', '--as', 'claude'])).created).toBe(true);
  });

  it('is taken over once it gets that old, not before, and never wedges the board', async () => {
    const dir = await newBoard();
    writeFileSync(lockPath(dir), 'garbage');
    const r = await cliAsync(dir, ['new', 'waited', '--as', 'claude', '--json'], { env: { AGENTBOARD_TEST_STALE_MS: '1500' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.data.created).toBe(true);
  });
});

describe('a holder stopped with SIGSTOP past the stale limit, then continued', () => {
  it('keeps the lock (it is alive): nobody else claims meanwhile, and no task is handed out twice', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'paused', [{ title: 'Only one' }]);
    const env = { ...childEnv(), AGENTBOARD_TEST_STALE_MS: '300', AGENTBOARD_TEST_FAULT: 'stop:commit:staged' };
    const holder = spawn(process.execPath, [...NODE_ARGS, BIN, 'next', '--as', 'sleeper', '--json'], { cwd: dir, env });
    let holderOut = '';
    holder.stdout.on('data', (d) => (holderOut += d));
    const holderDone = new Promise<number | null>((r) => holder.on('exit', (code) => r(code)));
    // the holder stops itself inside its commit, holding the lock
    await until(() => holderPid(dir) === holder.pid && processState(holder.pid!) === 'T', 'the holder to stop');
    const waiter = cliAsync(dir, ['next', '--as', 'eager', '--json'], { env: { AGENTBOARD_TEST_STALE_MS: '300' } });
    let waiterDone = false;
    void waiter.then(() => (waiterDone = true));
    // well past the stale limit, the waiter still waits: the holder lives
    await new Promise((r) => setTimeout(r, 1500));
    expect(waiterDone).toBe(false);
    expect(holderPid(dir)).toBe(holder.pid);
    process.kill(holder.pid!, 'SIGCONT');
    expect(await holderDone).toBe(0);
    const w = await waiter;
    expect(JSON.parse(holderOut).data.status).toBe('assigned');
    expect(w.json.data.status).toBe('nothing_available');
    expect((await ok(dir, ['task', 'show', 'paused/T1'])).task.assignee).toBe('sleeper');
  });
});

describe('a holder killed while its parent does not reap it (a zombie)', () => {
  it('is gone: its lock is taken over at once, not waited for', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'zombie', [{ title: 'Only one' }]);
    const holder = await unreapedCli(dir, ['next', '--as', 'killed', '--json'], join(tempDir(), 'out'), { AGENTBOARD_TEST_FAULT: 'stop:commit:staged' });
    try {
      await until(() => holderPid(dir) === holder.pid && processState(holder.pid) === 'T', 'the holder to stop holding the lock');
      process.kill(holder.pid, 'SIGKILL');
      await until(() => processState(holder.pid) === 'Z', 'the holder to be a zombie');
      // A bound, not a timing assertion: a live holder would be waited for two minutes.
      const waiter = await Promise.race([cliAsync(dir, ['next', '--as', 'eager', '--json']), new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
      expect(waiter?.code, waiter?.stdout).toBe(0);
      expect(processState(holder.pid)).toBe('Z');
      expect(waiter!.json.data.status).toBe('assigned');
      expect((await ok(dir, ['task', 'show', 'zombie/T1'])).task.assignee).toBe('eager');
    } finally {
      holder.parent.kill('SIGKILL');
    }
  });
});

describe('a process whose clock is 31 minutes ahead', () => {
  it('expires nobody\'s question and stamps the board\'s time, not its own', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'skew', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'asker']);
    const asked = await ok(dir, ['ask', '--as', 'asker', '--question', 'Drop the users table?', '--default-action', 'yes', '--timeout-minutes', '30']);
    const ahead = { AGENTBOARD_TEST_SKEW_MS: String(31 * 60_000) };
    const claim = await cliAsync(dir, ['next', '--as', 'skewed', '--json'], { env: ahead });
    expect(claim.json.data.status).toBe('assigned');
    const claimedAt = Date.parse(claim.json.data.task.claimed_at);
    expect(claimedAt).toBeLessThan(Date.parse(asked.expires_at));
    const inputs = await ok(dir, ['inputs', '--status', 'all']);
    expect(inputs.inputs[0]).toMatchObject({ input_id: asked.input_id, status: 'open' });
    expect((await ok(dir, ['log'])).entries.some((e: any) => e.action === 'input.expire')).toBe(false);
  });
});

describe('sixteen processes racing for the lock', () => {
  it('all finish (no BOARD_BUSY), and each task goes to exactly one of them', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'race', Array.from({ length: 12 }, (_, i) => ({ title: `Task ${i + 1}` })));
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => cliAsync(dir, ['next', '--as', `agent-${i}`, '--json'])));
    for (const r of results) expect(r.code, r.stdout + r.stderr).toBe(0);
    const ids = results.filter((r) => r.json.data.status === 'assigned').map((r) => r.json.data.task.task_id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect((await cli(dir, ['validate'])).code).toBe(0);
  });
});

describe('a wait for the lock to change hands', () => {
  it('is woken by the lock file each time, and again after its folder is made anew', async () => {
    const { changeIn } = await import('../../src/store/lock.js');
    const dir = tempDir('agentboard-watch-');
    const watched = [{ dir, names: ['lock'] }];
    for (let round = 0; round < 3; round++) {
      const wait = changeIn(watched, 60_000);
      writeFileSync(join(dir, 'other'), String(round)); // not what is waited for
      writeFileSync(join(dir, 'lock'), String(round));
      expect(await wait.done).toBe('changed');
    }
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    // What the old watcher saw of the folder going arrives first (a pause, not a measure).
    await new Promise((r) => setTimeout(r, 100));
    const wait = changeIn(watched, 60_000);
    writeFileSync(join(dir, 'lock'), 'again');
    expect(await wait.done).toBe('changed');
    rmSync(dir, { recursive: true, force: true });
  }, 20_000);

  it('on the lock file itself: woken when it is written, removed or made, never by the other files of its folder', async () => {
    const { changeIn } = await import('../../src/store/lock.js');
    const dir = tempDir('agentboard-watch-');
    const lock = join(dir, 'lock');
    const watched = [{ file: lock }];
    writeFileSync(lock, 'holder');
    // A commit's journal and state beside the lock: the wait runs out its time instead.
    const quiet = changeIn(watched, 300);
    writeFileSync(join(dir, 'journal.json'), '{}');
    writeFileSync(join(dir, 'state.json'), '{}');
    rmSync(join(dir, 'journal.json'));
    expect(await quiet.done).toBe('timeout');
    // The holder writes it again (a commit that answered queued calls), then lets it go.
    let wait = changeIn(watched, 60_000);
    writeFileSync(lock, 'holder');
    expect(await wait.done).toBe('changed');
    wait = changeIn(watched, 60_000);
    rmSync(lock);
    expect(await wait.done).toBe('changed');
    // Not there: woken when it is made, not by another file.
    wait = changeIn(watched, 60_000);
    const other = changeIn(watched, 300);
    writeFileSync(join(dir, 'journal.json'), '{}');
    expect(await other.done).toBe('timeout');
    writeFileSync(lock, 'next holder');
    expect(await wait.done).toBe('changed');
    rmSync(dir, { recursive: true, force: true });
  }, 20_000);
});

describe('a holder renewing the lock for a further write', () => {
  it("stamps it with the file system's time again, and never writes to a lock taken over meanwhile", async () => {
    const { BoardLock } = await import('../../src/store/lock.js');
    const dir = await newBoard();
    const { lock } = await BoardLock.acquire(join(dir, 'agentd', '.runtime'), {});
    const taken = lock.time;
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath(dir), old, old);
    expect(lock.renew()).toBe(true);
    // The new stamp is the file's own mtime, which the write just set (the old one was a minute back).
    expect(lock.time).toBeGreaterThan(old.getTime());
    expect(lock.time).toBeGreaterThanOrEqual(taken);
    // Another process took the lock over (this one was judged gone): its file is left as it is.
    const theirs = JSON.stringify({ token: '1-aaaaaaaaaaaa', pid: 1, host: 'elsewhere' });
    rmSync(lockPath(dir));
    writeFileSync(lockPath(dir), theirs);
    utimesSync(lockPath(dir), old, old);
    const before = lock.time;
    expect(lock.renew()).toBe(false);
    expect(readFileSync(lockPath(dir), 'utf8')).toBe(theirs);
    expect(lock.time).toBe(before);
    expect(lock.confirm()).toBe(false);
  });
});

describe('the line of waiters', () => {
  const line = (runtime: string) => (existsSync(join(runtime, 'line')) ? readdirSync(join(runtime, 'line')) : []);

  it('gives the lock to whoever waited longest: a newcomer waits behind it', async () => {
    const { BoardLock } = await import('../../src/store/lock.js');
    const runtime = join(await newBoard(), 'agentd', '.runtime');
    const first = await BoardLock.acquire(runtime, {});
    const order: string[] = [];
    const waiter = BoardLock.acquire(runtime, { timeoutMs: 60_000 }).then((a) => (order.push('waiter'), a));
    await until(() => line(runtime).length === 1, 'the waiter to join the line');
    // The newcomer comes the moment the lock is free, before the waiter has even woken.
    first.lock.release();
    const newcomer = BoardLock.acquire(runtime, { timeoutMs: 60_000 }).then((a) => (order.push('newcomer'), a));
    const w = await waiter;
    expect(order).toEqual(['waiter']);
    expect(line(runtime)).toEqual([]); // it left the line with the lock
    w.lock.release();
    (await newcomer).lock.release();
    expect(order).toEqual(['waiter', 'newcomer']);
  });

  it('passes over a place not kept fresh and removes the place of a process that is gone', async () => {
    const { BoardLock } = await import('../../src/store/lock.js');
    const runtime = join(await newBoard(), 'agentd', '.runtime');
    mkdirSync(join(runtime, 'line'));
    const host = createHash('sha1').update(hostname()).digest('hex').slice(0, 8);
    const stopped = join(runtime, 'line', `000000001-${process.pid}-${host}-${process.pid}-aaaaaaaaaaaa`);
    writeFileSync(stopped, '');
    utimesSync(stopped, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.on('exit', r));
    const dead = join(runtime, 'line', `000000002-${gone.pid}-${host}-${gone.pid}-bbbbbbbbbbbb`);
    writeFileSync(dead, '');
    const got = await BoardLock.acquire(runtime, { timeoutMs: 5_000 });
    got.lock.release();
    expect(line(runtime)).toEqual([basename(stopped)]);
  });
});

describe('a line folder that is a link', () => {
  it('is not followed: no place is made or removed through it, and the lock is still taken', async () => {
    const { BoardLock } = await import('../../src/store/lock.js');
    const runtime = join(await newBoard(), 'agentd', '.runtime');
    const elsewhere = tempDir('agentboard-elsewhere-');
    const host = createHash('sha1').update(hostname()).digest('hex').slice(0, 8);
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.on('exit', r));
    const bait = `000000001-${gone.pid}-${host}-${gone.pid}-cccccccccccc`;
    writeFileSync(join(elsewhere, bait), 'not agentboard\'s');
    symlinkSync(elsewhere, join(runtime, 'line'));
    const first = await BoardLock.acquire(runtime, {});
    const waiter = BoardLock.acquire(runtime, { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 800)); // past the time a waiter joins the line
    first.lock.release();
    (await waiter).lock.release();
    expect(readdirSync(elsewhere)).toEqual([bait]);
    rmSync(elsewhere, { recursive: true, force: true });
  });
});
