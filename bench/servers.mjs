// The 8 MCP servers alone, for A/B comparisons of builds: N `agentboard mcp` servers (started and
// connected before the clock runs), each with its own MCP client claiming and completing until the
// 400 tasks of a 4 × 100 board are gone. Prints claims/s, the wall time, and the CPU time the
// servers and this driver took meanwhile (from /proc), then each server's.
//
//   node bench/servers.mjs [agents=8]            # this build
//   BIN=/other/build/bin/agentboard.js node bench/servers.mjs   # another build
//   node bench/servers.mjs 8 --against /other/build/bin/agentboard.js --rounds 8
//                                                # A/B: this build and the other, alternately, each
//                                                # round on a fresh copy; then the mean, median, range
//                                                # of each and the rounds this build was ahead in
//   FLAGS="--maglev" node bench/servers.mjs      # node flags for the servers
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { benchBoard, TMP } from './board.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const against = option('--against');
const rounds = Number(option('--rounds') ?? (against ? 8 : 1));
const agents = Number(args[0] ?? 8);
const bin = process.env.BIN ?? join(resolve(import.meta.dirname, '..'), 'bin', 'agentboard.js');
const flags = process.env.FLAGS ? process.env.FLAGS.split(' ') : [];
const source = await benchBoard(4, 100);

const builds = against ? [bin, resolve(against)] : [bin];
const rates = builds.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (const [i, b] of builds.entries()) {
    if (builds.length > 1) process.stdout.write(`${i === 0 ? 'this build ' : 'the other  '} `);
    rates[i].push(await once(b));
  }
}
if (rounds > 1 || against) {
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const median = (xs) => (sorted(xs)[(xs.length - 1) >> 1] + sorted(xs)[xs.length >> 1]) / 2;
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  builds.forEach((b, i) => console.log(`${b}: claims/s mean ${mean(rates[i]).toFixed(1)}, median ${median(rates[i]).toFixed(1)}, ${Math.min(...rates[i]).toFixed(1)} to ${Math.max(...rates[i]).toFixed(1)} (${rounds} rounds)`));
  if (against) console.log(`this build ahead in ${rates[0].filter((r, k) => r > rates[1][k]).length} of ${rounds} rounds`);
}

/** One run of the given build on a fresh copy of the board: its claims/s. */
async function once(bin) {
  const dir = join(TMP, 'servers');
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });

  const clients = [];
  for (let i = 0; i < agents; i++) {
    const client = new Client({ name: `bench-${i}`, version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...flags, bin, 'mcp', '--root', dir, '--profile', 'worker'], stderr: 'ignore' }));
    clients.push(client);
  }

  /** CPU time (ms, user and system) of each of this process's children, from /proc. */
  function childrenCpu() {
    const out = new Map();
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(f[1]) === process.pid) out.set(d, [Number(f[11]) * 10, Number(f[12]) * 10]);
      } catch {
        // gone
      }
    }
    return out;
  }

  const serversCpu = () => [...childrenCpu().values()].reduce((sum, [user, sys]) => sum + user + sys, 0);

  const each0 = childrenCpu();
  const cpu0 = serversCpu();
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  let claims = 0;
  await Promise.all(
    clients.map(async (client, i) => {
      for (;;) {
        const next = await client.callTool({ name: 'agentboard_get_next_task', arguments: { agent_id: `agent-${i}` } });
        if (next.isError) throw new Error(next.content[0].text);
        if (next.structuredContent.status !== 'assigned') break;
        const done = await client.callTool({ name: 'agentboard_complete_task', arguments: { agent_id: `agent-${i}`, task_id: next.structuredContent.task.task_id } });
        if (done.isError) throw new Error(done.content[0].text);
        claims++;
      }
    }),
  );
  const wall = performance.now() - t0;
  const own = process.cpuUsage(own0);
  console.log(`${agents} agents  ${claims} claims  ${(claims / (wall / 1000)).toFixed(1)} claims/s  wall ${wall.toFixed(0)} ms  servers CPU ${serversCpu() - cpu0} ms  driver CPU ${((own.user + own.system) / 1000).toFixed(0)} ms`);
  // Per server, busiest first (user/system ms): the one holding the lock serves the others.
  const each = [...childrenCpu()].map(([pid, [user, sys]]) => [user - (each0.get(pid)?.[0] ?? 0), sys - (each0.get(pid)?.[1] ?? 0)]);
  console.log(`per server CPU (user/sys ms): ${each.sort((a, b) => b[0] + b[1] - a[0] - a[1]).map(([u, s]) => `${u}/${s}`).join(' ')}`);
  await Promise.all(clients.map((c) => c.close()));
  return claims / (wall / 1000);
}
