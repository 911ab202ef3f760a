/**
 * The files that govern the board, which no agent of a run may change: agentd/config.yaml (the
 * agents, the commands they run, what needs a person's approval) and agentd/people.yaml (who is a
 * person). The run reads them as it starts and again after every agent's turn; a change stops the
 * run for a person, who keeps it or undoes it. The run writes neither file: it keeps the version
 * it started with in its records, for the person to compare and put back.
 */
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/fs.js';
import { parseConfig } from '../store/config.js';
import { parsePeople, PEOPLE_FILE } from '../store/people.js';
import { emit, stop, type RunContext } from './context.js';
import type { Role } from './events.js';

/** Each governing file: what it decides, and how it is read (a text that does not read throws, saying why and where). */
const GOVERNING: Record<string, { decides: string; read: (text: string, shown: string) => unknown }> = {
  'config.yaml': { decides: "the agents, the commands the run starts and what needs a person's approval", read: parseConfig },
  [PEOPLE_FILE]: { decides: 'who is a person, and so who may approve', read: parsePeople },
};

/** Why a governing file's new text does not read (its line and error); null when it reads, or is no file. */
function unreadableNow(name: string, now: Found, file: string): string | null {
  if (!Buffer.isBuffer(now)) return null;
  try {
    GOVERNING[name]!.read(now.toString('utf8'), file);
    return null;
  } catch (err) {
    return (err as Error).message.replace(/\.$/, '');
  }
}

/** The governing files' names in agentd/, with what each decides. */
export function governingFiles(): [string, string][] {
  return Object.entries(GOVERNING).map(([name, g]) => [name, g.decides]);
}

/** What stands at a governing file's place: its bytes, what else is there (a symbolic link, a folder…), or null: nothing. */
export type Found = Buffer | string | null;

function found(path: string): Found {
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) return null;
    if (st.isSymbolicLink()) return `a symbolic link (to ${readlinkSync(path)})`;
    if (st.isDirectory()) return 'a folder';
    return st.isFile() ? readFileSync(path) : 'something other than a file';
  } catch {
    return 'a file agentboard cannot read';
  }
}

function same(a: Found, b: Found): boolean {
  return Buffer.isBuffer(a) && Buffer.isBuffer(b) ? a.equals(b) : a === b;
}

/** The governing files as the run starts. */
export function readGoverning(boardDir: string): Map<string, Found> {
  return new Map(Object.keys(GOVERNING).map((name) => [name, found(join(boardDir, name))]));
}

/** What became of a governing file, in words: "changed", "was deleted", "was replaced by a folder"… */
function whatBecame(before: Found, now: Found): string {
  if (now === null) return 'was deleted';
  if (before === null) return typeof now === 'string' ? `was created as ${now}` : 'was created';
  return typeof now === 'string' ? `was replaced by ${now}` : 'changed';
}

/** The commands that show and undo the change of `file`; `kept`: the copy of the version the run started with, when it was a file. */
function undoing(file: string, before: Found, kept: string | null, now: Found): string[] {
  // What stands there now goes first: cp would write through a symbolic link, or into a folder.
  const remove = typeof now === 'string' ? `rm ${now === 'a folder' ? '-r ' : ''}${file}` : null;
  if (kept) return [...(Buffer.isBuffer(now) ? [`diff -u ${kept} ${file}   # what changed`] : []), `${remove ? `${remove} && ` : ''}cp ${kept} ${file}   # undo it`];
  return before === null && now !== null ? [`${remove ?? `rm ${file}`}   # undo it: it was not there when the run started`] : [];
}

/**
 * After an agent's turn: the governing files that changed since the run started (edited, deleted,
 * replaced by a link or a folder) are reported (once each, on the task the agent held too) and the
 * run is set to stop, with the commands that show and undo each change. From then on the run
 * keeps the settings it started with: it finishes (releases its claims, notes the task) even when
 * config.yaml no longer parses.
 */
export async function checkGoverning(ctx: RunContext, turn: { agent_id: string; role: Role; phase: string; task_id: string | null }): Promise<void> {
  const board = ctx.ops.board;
  const steps: string[] = [];
  const said: string[] = [];
  for (const [name, before] of ctx.governing) {
    const path = join(board.dir, name);
    const now = found(path);
    if (same(before, now)) continue;
    ctx.governing.delete(name);
    const file = board.rel(path);
    const kept = Buffer.isBuffer(before) ? join(ctx.recorder.dir, `${name}.before`) : null;
    if (kept) writeFileAtomic(kept, before as Buffer);
    if (name === 'config.yaml' && typeof before !== 'string') board.keepSettings(before === null ? null : before.toString('utf8'));
    steps.push(...undoing(file, before, kept && board.rel(kept), now));
    const broken = unreadableNow(name, now, file);
    const message = `${file} ${whatBecame(before, now)} ${turn.task_id ? `while ${turn.agent_id} worked on ${turn.task_id}` : `during the turn of ${turn.agent_id} (${turn.phase})`}${broken ? `, and no longer reads (${broken})` : ''}. It decides ${GOVERNING[name]!.decides}, and no agent may change it: the run starts no other agent and stops for a person, who keeps the change or undoes it.`;
    emit(ctx, { type: 'settings.changed', ...turn, file, message });
    said.push(message);
  }
  if (said.length === 0) return;
  ctx.halt ??= stop('failed', said.join(' '), [...steps, `agentboard run ${ctx.changeId}   # then go on, with the files as they are then`]);
  if (!turn.task_id) return;
  try {
    await ctx.ops.run('task.note', { agent_id: ctx.person, task_id: turn.task_id, text: said.join(' ') });
  } catch (err) {
    ctx.halt = stop(ctx.halt.outcome, `${ctx.halt.message} The note saying so on ${turn.task_id} could not be written: ${(err as Error).message}`, ctx.halt.next_steps);
  }
}
