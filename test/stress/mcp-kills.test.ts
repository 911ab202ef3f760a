/**
 * MCP servers that serve each other's queued calls, one killed with -9 and replaced every 50 to 300
 * ms for 15 s, each with three notes in flight: every note a server answered is in the task list
 * exactly once, every note in the file is in the log and the log's are in the file (the holder of
 * the lock dies mid-batch, and whoever takes the lock over carries each call out once).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, newBoard, NODE_ARGS, ok, read } from '../helpers.js';

interface Server {
  child: ChildProcess;
  agent: string;
}

describe('MCP servers killed with -9 at random while they serve each other', () => {
  it('answer every note once: each answered note is in the task list once, and the file and the log agree', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'storm', Array.from({ length: 8 }, (_, i) => ({ title: `Task ${i + 1}` })));
    const agents = ['m-0', 'm-1', 'm-2', 'm-3'];
    const tasks: string[] = [];
    for (const agent of agents) tasks.push((await ok(dir, ['next', '--as', agent])).task.task_id);
    const env = childEnv();
    const answered: string[] = [];
    let sent = 0;
    let stop = false;

    const start = (index: number): Server => {
      const agent = agents[index]!;
      const child = spawn(process.execPath, [...NODE_ARGS, BIN, 'mcp', '--root', dir, '--profile', 'worker'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
      const pending = new Map<number, (m: { result?: { isError?: boolean } } | null) => void>();
      let buffer = '';
      let id = 0;
      let dead = false;
      child.stdout!.on('data', (d: Buffer) => {
        buffer += d.toString('utf8');
        for (let n = buffer.indexOf('\n'); n >= 0; n = buffer.indexOf('\n')) {
          const line = buffer.slice(0, n);
          buffer = buffer.slice(n + 1);
          const m = JSON.parse(line) as { id?: number; result?: { isError?: boolean } };
          if (m.id !== undefined) pending.get(m.id)?.(m);
          if (m.id !== undefined) pending.delete(m.id);
        }
      });
      child.on('exit', () => {
        dead = true;
        for (const done of pending.values()) done(null);
        pending.clear();
      });
      child.stdin!.on('error', () => undefined);
      const request = (method: string, params: object) =>
        new Promise<{ result?: { isError?: boolean } } | null>((done) => {
          if (dead) return done(null);
          pending.set(++id, done);
          child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
        });
      void (async () => {
        await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'storm', version: '1' } });
        if (!dead) child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
        while (!dead && !stop) {
          await Promise.all(
            [0, 1, 2].map(async () => {
              const text = `note ${index}.${sent++}`;
              const m = await request('tools/call', { name: 'agentboard_add_note', arguments: { agent_id: agent, task_id: tasks[index], text } });
              if (m?.result && !m.result.isError) answered.push(text);
            }),
          );
        }
      })();
      return { child, agent };
    };

    const servers = agents.map((_, i) => start(i));
    let kills = 0;
    for (const until = Date.now() + 15_000; Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 250));
      const i = Math.floor(Math.random() * servers.length);
      servers[i]!.child.kill('SIGKILL');
      kills++;
      servers[i] = start(i);
    }
    stop = true;
    for (const s of servers) s.child.stdin!.end();
    await Promise.all(servers.map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.on('exit', r)))));
    // One more write recovers whatever the last killed holder left.
    await ok(dir, ['task', 'note', tasks[0]!, 'after the storm', '--as', 'm-0']);

    expect(kills).toBeGreaterThan(30);
    expect(answered.length).toBeGreaterThan(100);
    const file = read(dir, 'agentd/changes/storm/tasks.md');
    const inFile = [...file.matchAll(/^ {4}text: "?(note \d+\.\d+|after the storm)"?$/gm)].map((m) => m[1]!);
    const logged = read(dir, 'agentd/.runtime/activity.jsonl')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { action: string; summary: string })
      .filter((e) => e.action === 'task.note')
      .map((e) => e.summary.replace(/^note on [^:]+: /, ''));
    const counts = new Map<string, number>();
    for (const t of inFile) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    expect(answered.filter((t) => !counts.has(t))).toEqual([]);
    expect([...inFile].sort()).toEqual([...logged].sort());
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
  }, 180_000);
});
