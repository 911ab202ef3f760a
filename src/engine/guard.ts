/**
 * The files that govern the board, which no agent of a run may change: agentd/config.yaml (the
 * agents, the commands they run, what needs a person's approval) and agentd/people.yaml (who is a
 * person). The run reads them as it starts and again after every agent's turn; a change stops the
 * run for a person, who keeps it or undoes it. The run writes neither file: it keeps the version
 * it started with in its records, for the person to compare and put back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/fs.js';
import { PEOPLE_FILE } from '../store/people.js';
import { emit, stop, type RunContext } from './context.js';
import type { Role } from './events.js';

const GOVERNING: Record<string, string> = {
  'config.yaml': "the agents, the commands the run starts and what needs a person's approval",
  [PEOPLE_FILE]: 'who is a person, and so who may approve',
};

/** The governing files' names in agentd/, with what each decides. */
export function governingFiles(): [string, string][] {
  return Object.entries(GOVERNING);
}

/** A file's bytes; null when it is not there (or is no file to read). */
function bytesOf(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** The governing files as the run starts. */
export function readGoverning(boardDir: string): Map<string, Buffer | null> {
  return new Map(Object.keys(GOVERNING).map((name) => [name, bytesOf(join(boardDir, name))]));
}

/**
 * After an agent's turn: the governing files that changed since the run started are reported
 * (once each, on the task the agent held too) and the run is set to stop, with the commands that
 * show and undo each change.
 */
export async function checkGoverning(ctx: RunContext, turn: { agent_id: string; role: Role; phase: string; task_id: string | null }): Promise<void> {
  const board = ctx.ops.board;
  const steps: string[] = [];
  const said: string[] = [];
  for (const [name, before] of ctx.governing) {
    const path = join(board.dir, name);
    const now = bytesOf(path);
    if (now === before || (now && before?.equals(now))) continue;
    ctx.governing.delete(name);
    const file = board.rel(path);
    const kept = join(ctx.recorder.dir, `${name}.before`);
    if (before) writeFileAtomic(kept, before);
    steps.push(...(before ? [`diff -u ${board.rel(kept)} ${file}   # what changed`, `cp ${board.rel(kept)} ${file}   # undo it`] : [`rm ${file}   # undo it: it was not there when the run started`]));
    const message = `${file} changed ${turn.task_id ? `while ${turn.agent_id} worked on ${turn.task_id}` : `during the turn of ${turn.agent_id} (${turn.phase})`}. It decides ${GOVERNING[name]}, and no agent may change it: the run starts no other agent and stops for a person, who keeps the change or undoes it.`;
    emit(ctx, { type: 'settings.changed', ...turn, file, message });
    said.push(message);
  }
  if (said.length === 0) return;
  if (turn.task_id) {
    try {
      await ctx.ops.run('task.note', { agent_id: ctx.person, task_id: turn.task_id, text: said.join(' ') });
    } catch {
      // The changed file may keep the board from writing (a config.yaml that no longer parses): the run's own records say it all the same.
    }
  }
  ctx.halt ??= stop('failed', said.join(' '), [...steps, `agentboard run ${ctx.changeId}   # then go on, with the files as they are then`]);
}
