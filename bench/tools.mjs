// What the MCP server costs an agent's context: tools/list per profile, and the results of typical
// calls on a board with a change of 600 tasks. Tokens are estimated as characters / 4.
// Run: node bench/tools.mjs   (AGENTBOARD_BIN=<path to bin/agentboard.js> measures another build)
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { benchBoard, TMP } from './board.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = process.env.AGENTBOARD_BIN ?? join(ROOT, 'bin', 'agentboard.js');
/** Profiles to try; one the build does not have is left out of the table. */
const PROFILES = ['worker', 'planner', 'reviewer', 'agent', 'all'];

const tokens = (chars) => Math.round(chars / 4);

async function serve(dir, profile) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--profile', profile], stderr: 'ignore' }));
  return client;
}

async function listing(dir) {
  console.log('\nagentboard mcp tools/list, per profile (tokens ≈ characters / 4)');
  console.log(`${'profile'.padEnd(10)} ${'tools'.padStart(6)} ${'bytes'.padStart(8)} ${'≈ tokens'.padStart(9)}`);
  for (const profile of PROFILES) {
    let client;
    try {
      client = await serve(dir, profile);
    } catch {
      continue; // this build has no such profile
    }
    const result = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(result));
    console.log(`${profile.padEnd(10)} ${String(result.tools.length).padStart(6)} ${String(bytes).padStart(8)} ${String(tokens(bytes)).padStart(9)}`);
    await client.close();
  }
}

/** Typical calls, in the order an agent makes them (`held`: the task the last get_next_task gave). */
const CALLS = [
  ['worker', 'agentboard_get_next_task', () => ({ agent_id: 'bench-w' })],
  ['worker', 'agentboard_report_progress', (held) => ({ agent_id: 'bench-w', task_id: held, percent: 50, message: 'Half way.' })],
  ['worker', 'agentboard_update_status', () => ({ agent_id: 'bench-w', status: 'working', message: 'Half way through my task.' })],
  ['worker', 'agentboard_complete_task', (held) => ({ agent_id: 'bench-w', task_id: held })],
  ['worker', 'agentboard_get_next_task', () => ({ agent_id: 'bench-w' })],
  ['worker', 'agentboard_submit_for_review', (held) => ({ agent_id: 'bench-w', summary: 'Done, please check.', tasks: [held] })],
  ['worker', 'agentboard_get_workflow_state', () => ({ agent_id: 'bench-w' })],
  ['planner', 'agentboard_get_task', () => ({ task_id: 'change-0000/T3' })],
  ['planner', 'agentboard_list_tasks', () => ({ change_id: 'change-0000' })],
  ['planner', 'agentboard_list_tasks', () => ({ change_id: 'change-0000', limit: 500 })],
  ['planner', 'agentboard_get_change', () => ({ change_id: 'change-0000' })],
  ['planner', 'agentboard_get_document', () => ({ change_id: 'change-0000', document: 'tasks' })],
  ['planner', 'agentboard_get_project_status', () => ({})],
];

async function calls(source) {
  const dir = join(TMP, 'tools-copy');
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });
  console.log('\nResults of typical calls on a board with one change of 600 tasks (characters; tokens ≈ characters / 4)');
  console.log(`${'call'.padEnd(48)} ${'text'.padStart(8)} ${'structured'.padStart(11)} ${'≈ tokens'.padStart(9)}`);
  const clients = new Map();
  let held = null;
  for (const [profile, tool, argsOf] of CALLS) {
    if (!clients.has(profile)) clients.set(profile, await serve(dir, profile));
    const args = argsOf(held);
    const r = await clients.get(profile).callTool({ name: tool, arguments: args });
    held = r.structuredContent?.task?.task_id ?? held;
    const text = r.content.map((c) => c.text).join('\n').length;
    const structured = r.structuredContent ? JSON.stringify(r.structuredContent).length : 0;
    const label = `${tool.replace('agentboard_', '')} ${JSON.stringify(args).replace(/"agent_id":"bench-w",?/, '').replace(/"(change-0000\/)?/g, '')}`.slice(0, 48);
    console.log(`${label.padEnd(48)} ${String(text).padStart(8)} ${String(structured).padStart(11)} ${String(tokens(text + structured)).padStart(9)}${r.isError ? '  (error)' : ''}`);
  }
  for (const c of clients.values()) await c.close();
  rmSync(dir, { recursive: true, force: true });
}

export async function toolsBench() {
  const board = await benchBoard(1, 600);
  await listing(board);
  await calls(board);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await toolsBench();
