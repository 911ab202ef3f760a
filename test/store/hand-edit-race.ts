/**
 * The hand-edit race: a person process saving stale buffers and half-finished files (person.mjs)
 * while agent processes claim, note and progress (agent.mjs), with the checks that nothing was lost.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { changeWithTasks, cli, newBoard, NODE_ARGS, ok, read, ROOT } from '../helpers.js';

function run(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, join(ROOT, 'test/store', script), ...args]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}: ${err}`))));
  });
}

export async function handEditRace(options: { tasks: number; agents: number; agentRounds: number; notesPerTask: number; personRounds: number }): Promise<{ merges: number; conflicts: number }> {
  const dir = await newBoard();
  await changeWithTasks(
    dir,
    'edited',
    Array.from({ length: options.tasks }, (_, i) => ({ title: `Task ${i + 1}`, description: `Description of task ${i + 1}.` })),
  );
  const file = join(dir, 'agentd/changes/edited/tasks.md');
  const stop = join(dir, 'agents-done');
  // The person saves for as long as the agents work, so every agent write can meet a save.
  const person = run('person.mjs', [file, String(options.personRounds), stop]);
  while (!existsSync(`${stop}.started`)) await new Promise((r) => setTimeout(r, 10));
  const agentOuts = await Promise.all(Array.from({ length: options.agents }, (_, i) => run('agent.mjs', [dir, `agent-${i}`, String(options.agentRounds), String(options.notesPerTask)])));
  writeFileSync(stop, '');
  const personOut = await person;
  // one more write after the person's last save, which merges it
  await ok(dir, ['task', 'add', 'edited', '--title', 'After the race', '--as', 'planner']);

  const results = agentOuts.flatMap((out) => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
  const claims = results.filter((r) => r.kind === 'claim').map((r) => r.task);
  expect(claims.length, JSON.stringify(results.filter((r) => r.kind !== "note" && r.kind !== "progress").slice(0, 20))).toBeGreaterThan(0);
  expect(new Set(claims).size).toBe(claims.length);

  const list = await ok(dir, ['task', 'list', '--change', 'edited', '--limit', '500']);
  const tasks = new Map<string, any>();
  for (const t of list.tasks) tasks.set(t.task_id, (await ok(dir, ['task', 'show', t.task_id])).task);
  for (const note of results.filter((r) => r.kind === 'note')) {
    expect(tasks.get(note.task).notes.map((n: any) => n.text), `${note.text} on ${note.task}`).toContain(note.text);
  }
  for (const done of results.filter((r) => r.kind === 'done')) expect(tasks.get(done.task).status).toBe('done');
  for (const task of tasks.values()) if (task.status === 'in_progress') expect(claims).toContain(task.task_id);

  const markers: { task: string; marker: string }[] = JSON.parse(personOut);
  const conflicts = existsSync(join(dir, 'agentd/.runtime/conflicts.json')) ? JSON.parse(read(dir, 'agentd/.runtime/conflicts.json')) : [];
  for (const { task, marker } of markers) {
    const kept = tasks.get(`edited/${task}`).description.includes(marker);
    const reported = JSON.stringify(conflicts).includes(marker);
    expect(kept || reported, `${marker} on ${task}`).toBe(true);
  }
  expect(tasks.size).toBe(options.tasks + 1);
  expect((await cli(dir, ['validate', 'edited'])).code).toBe(0);
  const merges = (await ok(dir, ['log', '--actor', 'agentboard', '--limit', '500'])).entries.filter((e: any) => e.action === 'file.merge').length;
  return { merges, conflicts: conflicts.length };
}

