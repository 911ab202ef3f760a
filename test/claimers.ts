/**
 * Claiming agents as real processes, for the races: a CLI agent (bench/claimer.mjs) and an agent
 * speaking MCP to its own `agentboard mcp`, each claiming and completing until nothing is left.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv, NODE_ARGS, ROOT } from './helpers.js';

export interface Claims {
  agent: string;
  claimed: string[];
  latencies: number[];
}

/** A CLI agent in a process of its own, claiming and completing until nothing is left (bench/claimer.mjs). */
export function cliClaimer(dir: string, agent: string): Promise<Claims> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, join(ROOT, 'bench', 'claimer.mjs'), dir, agent], { env: childEnv() });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${agent}: ${err}${out}`))));
  });
}

/** An agent speaking MCP to its own `agentboard mcp` process, claiming and completing until nothing is left. */
export async function mcpClaimer(dir: string, agent: string): Promise<Claims> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...NODE_ARGS, BIN, 'mcp', '--root', dir, '--profile', 'worker', '--as', agent], env: childEnv(), stderr: 'ignore' });
  const client = new Client({ name: agent, version: '1' });
  await client.connect(transport);
  const claimed: string[] = [];
  const latencies: number[] = [];
  type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  // The server bounds each call itself (the board lock's 120 s, a shared board's 120 s of retries);
  // the SDK's 60 s default would cut a call that is still waiting its turn behind a busy remote.
  const options = { timeout: 300_000 };
  try {
    for (;;) {
      const t0 = performance.now();
      const next = (await client.callTool({ name: 'agentboard_get_next_task', arguments: {} }, undefined, options)) as Result;
      if (next.isError) throw new Error(`${agent}: ${next.content[0]!.text}`);
      if (next.structuredContent.status !== 'assigned') break;
      latencies.push(performance.now() - t0);
      claimed.push(next.structuredContent.task.task_id);
      const done = (await client.callTool({ name: 'agentboard_complete_task', arguments: { task_id: next.structuredContent.task.task_id } }, undefined, options)) as Result;
      if (done.isError) throw new Error(`${agent}: ${done.content[0]!.text}`);
    }
  } finally {
    await client.close();
  }
  return { agent, claimed, latencies };
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
