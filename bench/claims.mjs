// Claims under contention: N agents, half of them command lines (a process per command, as an agent
// with a shell runs agentboard) and half MCP clients of their own `agentboard mcp` server, each
// looping `next` + complete until the board is empty (the servers are started and connected before
// the clock runs). Reports claims per second and how long an agent waited for each claim (from its
// call to the answer), by kind; then checks the board: no task claimed twice, none lost, no call
// given up on the lock (BOARD_BUSY).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { benchBoard, TMP } from './board.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'agentboard.js');

function cliCall(dir, agent, args) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args, '--root', dir, '--as', agent, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', fail);
    child.on('close', () => {
      try {
        done(JSON.parse(out));
      } catch {
        fail(new Error(`agentboard ${args.join(' ')}: ${out}`));
      }
    });
  });
}

async function cliAgent(dir, agent, waits) {
  const claimed = [];
  let busy = 0;
  for (;;) {
    const t0 = performance.now();
    const r = await cliCall(dir, agent, ['next']);
    waits.push(performance.now() - t0);
    if (!r.ok) {
      if (r.error.code === 'BOARD_BUSY') busy++;
      else throw new Error(JSON.stringify(r.error));
      continue;
    }
    if (r.data.status !== 'assigned') break;
    claimed.push(r.data.task.task_id);
    const done = await cliCall(dir, agent, ['task', 'done', r.data.task.task_id]);
    if (!done.ok) throw new Error(JSON.stringify(done.error));
  }
  return { claimed, busy };
}

/** An MCP client of an `agentboard mcp` server of its own, connected (the server started) before the clock runs. */
async function mcpClient(dir, agent) {
  const client = new Client({ name: agent, version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--profile', 'worker'], stderr: 'ignore' }));
  return client;
}

async function mcpAgent(client, agent, waits) {
  const claimed = [];
  let busy = 0;
  try {
    for (;;) {
      const t0 = performance.now();
      const next = await client.callTool({ name: 'agentboard_get_next_task', arguments: { agent_id: agent } });
      waits.push(performance.now() - t0);
      if (next.isError) {
        if (next.content[0].text.includes('BOARD_BUSY')) busy++;
        else throw new Error(next.content[0].text);
        continue;
      }
      if (next.structuredContent.status !== 'assigned') break;
      claimed.push(next.structuredContent.task.task_id);
      const done = await client.callTool({ name: 'agentboard_complete_task', arguments: { agent_id: agent, task_id: next.structuredContent.task.task_id } });
      if (done.isError) throw new Error(done.content[0].text);
    }
  } finally {
    await client.close();
  }
  return { claimed, busy };
}

function percentiles(samples) {
  if (samples.length === 0) return null;
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { p50: at(50), p95: at(95), max: s[s.length - 1] };
}

/**
 * One round with `agents` agents on a fresh copy of a board of `tasks` tasks; returns the figures.
 * mix 'mixed': half CLI, half MCP; 'mcp': every agent an MCP client of its own server.
 */
export async function claimsRound(agents, tasks = 200, mix = 'mixed') {
  const source = await benchBoard(tasks / 100, 100);
  const dir = join(TMP, `claims-${mix}-${agents}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });
  const waits = { cli: [], mcp: [] };
  const isCli = (i) => mix === 'mixed' && i % 2 === 0;
  const clients = await Promise.all(Array.from({ length: agents }, (_, i) => (isCli(i) ? null : mcpClient(dir, `mcp-${i}`))));
  const t0 = performance.now();
  const results = await Promise.all(clients.map((client, i) => (isCli(i) ? cliAgent(dir, `cli-${i}`, waits.cli) : mcpAgent(client, `mcp-${i}`, waits.mcp))));
  const seconds = (performance.now() - t0) / 1000;
  const claimed = results.flatMap((r) => r.claimed);
  const check = spawnSync(process.execPath, [BIN, 'task', 'list', '--root', dir, '--json', '--limit', '500'], { encoding: 'utf8' });
  const onDisk = JSON.parse(check.stdout).data.tasks;
  const done = onDisk.filter((t) => t.status === 'done');
  rmSync(dir, { recursive: true, force: true });
  return {
    agents,
    mix,
    tasks,
    claims: claimed.length,
    seconds,
    doubleClaims: claimed.length - new Set(claimed).size,
    lost: claimed.filter((id) => !done.some((t) => t.task_id === id)).length + (tasks - done.length),
    busy: results.reduce((n, r) => n + r.busy, 0),
    cli: percentiles(waits.cli),
    mcp: percentiles(waits.mcp),
  };
}

export function reportClaims(rows) {
  const { tasks, mix } = rows[0];
  const who = mix === 'mcp' ? 'every agent an `agentboard mcp` server of its own' : 'half the agents a process per command (CLI), half an `agentboard mcp` server each';
  console.log(`\nClaims under contention: ${who}; every agent claims, then completes, until the ${tasks} tasks are gone`);
  console.log("wait = from an agent's `next` call to its answer, in ms");
  console.log(`${'agents'.padStart(6)} ${'claims/s'.padStart(9)}   ${'CLI wait p50 / p95 / max'.padEnd(26)} ${'MCP wait p50 / p95 / max'.padEnd(26)} double  lost  BOARD_BUSY`);
  const f = (w) => (w ? `${w.p50.toFixed(0)} / ${w.p95.toFixed(0)} / ${w.max.toFixed(0)}` : '-');
  for (const r of rows) {
    console.log(`${String(r.agents).padStart(6)} ${(r.claims / r.seconds).toFixed(1).padStart(9)}   ${f(r.cli).padEnd(26)} ${f(r.mcp).padEnd(26)} ${String(r.doubleClaims).padStart(6)} ${String(r.lost).padStart(5)} ${String(r.busy).padStart(11)}`);
  }
}
