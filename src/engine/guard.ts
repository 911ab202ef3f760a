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
import { unparsable } from '../store/documents.js';
import { writtenText } from '../store/ledger.js';
import { textAsWritten } from '../store/board.js';
import { BOM } from '../store/markdown.js';
import { DOC_FILES, type DocType } from '../domain/model.js';
import { shellWord } from '../shell.js';
import { emit, fromCwd, stop, type RunContext } from './context.js';
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
function undoing(path: string, before: Found, keptPath: string | null, now: Found): string[] {
  const file = shellWord(path);
  const kept = keptPath && shellWord(keptPath);
  // What stands there now goes first: cp would write through a symbolic link, or into a folder.
  const remove = typeof now === 'string' ? `rm ${now === 'a folder' ? '-r ' : ''}${file}` : null;
  if (kept) return [...(Buffer.isBuffer(now) ? [`diff -u ${kept} ${file}   # what changed`] : []), `${remove ? `${remove} && ` : ''}cp ${kept} ${file}   # undo it`];
  return before === null && now !== null ? [`${remove ?? `rm ${file}`}   # undo it: it was not there when the run started`] : [];
}

/** An agent's turn the checks after it speak of. */
type Turn = { agent_id: string; role: Role; phase: string; task_id: string | null };

/** When in the turn a file changed: "while <agent> worked on <task>", or during its turn in a phase. */
function duringTurn(turn: Turn): string {
  return turn.task_id ? `while ${turn.agent_id} worked on ${turn.task_id}` : `during the turn of ${turn.agent_id} (${turn.phase})`;
}

/** Keeps in the run's records the copy of a document as agentboard wrote it (`<file>.agentboard`), to compare and put back; its path. */
function keepCopy(ctx: RunContext, type: DocType, text: string): string {
  const kept = join(ctx.recorder.dir, `${DOC_FILES[type]}.agentboard`);
  writeFileAtomic(kept, Buffer.from(text));
  return kept;
}

/**
 * After an agent's turn: the governing files that changed since the run started (edited, deleted,
 * replaced by a link or a folder) are reported (once each, on the task the agent held too) and the
 * run is set to stop, with the commands that show and undo each change. From then on the run
 * keeps the settings it started with: it finishes (releases its claims, notes the task) even when
 * config.yaml no longer parses.
 */
export async function checkGoverning(ctx: RunContext, turn: Turn): Promise<void> {
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
    steps.push(...undoing(fromCwd(path), before, kept && fromCwd(kept), now));
    const broken = unreadableNow(name, now, file);
    const message = `${file} ${whatBecame(before, now)} ${duringTurn(turn)}${broken ? `, and no longer reads (${broken})` : ''}. It decides ${GOVERNING[name]!.decides}, and no agent may change it: the run starts no other agent and stops for a person, who keeps the change or undoes it.`;
    emit(ctx, { type: 'settings.changed', ...turn, file, message });
    said.push(message);
  }
  if (said.length === 0) return;
  ctx.halt ??= stop('failed', said.join(' '), [...steps, `agentboard run ${ctx.changeId}   # then go on, with the files as they are then`]);
  if (!turn.task_id || ctx.handEdited.has('tasks')) return;
  try {
    await ctx.ops.run('task.note', { agent_id: ctx.person, task_id: turn.task_id, text: said.join(' ') });
  } catch (err) {
    ctx.halt = stop(ctx.halt.outcome, `${ctx.halt.message} The note saying so on ${turn.task_id} could not be written: ${(err as Error).message}`, ctx.halt.next_steps);
  }
}

/**
 * The documents of the run's change (proposal.md, spec.md, tasks.md, review.md) change only through
 * agentboard's operations, which check the rules and record who did what. A run's agents merge no
 * edit made to their files by hand that changes a state (store/transaction.ts refuses it; an edit of
 * text is a person's, merged); the run looks at them before and after every agent's turn: a
 * document whose state was changed by hand during the turn stops the run for a person, like a
 * governing file, with what agentboard last wrote kept to compare and put back.
 */
export interface DocsSeen {
  /** Per document: the text agentboard last wrote, as last seen (null: it was edited by hand then). */
  kept: Map<DocType, string | null>;
}

/**
 * The change's documents that read, with their text (after the byte order mark the file has, as the
 * ledger's hash and a copy put back take it) and whether they differ from what agentboard last wrote.
 */
function docsNow(ctx: RunContext): Map<DocType, { text: string; edited: boolean }> {
  const board = ctx.ops.board;
  board.begin();
  const out = new Map<DocType, { text: string; edited: boolean }>();
  for (const type of Object.keys(DOC_FILES) as DocType[]) {
    try {
      const loaded = board.load(ctx.changeId, type);
      // A file that does not read is no edit to take or undo here: the phase that needs it stops on it.
      if (loaded && !unparsable(loaded.doc)) out.set(type, { text: (loaded.bom ? BOM : '') + loaded.text, edited: loaded.edited });
    } catch {
      // reported where the file is read
    }
  }
  return out;
}

/**
 * Before an agent's turn: the change's documents as agentboard last wrote them. An edit by hand made
 * before the turn (a person's, while nothing ran) is taken as the person's: merged now, and said.
 */
export async function docsBeforeTurn(ctx: RunContext): Promise<DocsSeen> {
  let now = docsNow(ctx);
  const edited = [...now].filter(([type, d]) => d.edited && !ctx.handEdited.has(type)).map(([type]) => type);
  if (edited.length > 0) {
    await ctx.ops.board.mutate((tx) => edited.forEach((type) => tx.readDoc(ctx.changeId, type)));
    const files = edited.map((type) => ctx.ops.board.rel(ctx.ops.board.docPath(ctx.changeId, type)));
    emit(ctx, { type: 'notice', message: `${files.join(' and ')} ${files.length === 1 ? 'was' : 'were'} edited by hand before this turn: taken as a person's edit (merged), as the next write would.` });
    now = docsNow(ctx);
  }
  return { kept: new Map([...now].map(([type, d]) => [type, d.edited ? null : d.text])) };
}

/** After each call of the agent: what agentboard wrote since is what it last wrote. */
export function docsWritten(ctx: RunContext, seen: DocsSeen): void {
  for (const [type, d] of docsNow(ctx)) if (!d.edited) seen.kept.set(type, d.text);
}

/** Thrown to leave a write that would have merged a hand edit of a state: nothing of it is written. */
const STATE_EDITED = Symbol('state edited by hand');

/**
 * Merges a hand edit of a document that changes only text (a person's, whoever is at work: a title,
 * a description, a note, a new plain task), as any write would; false, writing nothing, when the
 * edit changes what only operations may change (a status, a holder, a task taken out).
 */
async function mergeTextEdit(ctx: RunContext, type: DocType): Promise<boolean> {
  try {
    await ctx.ops.board.mutate((tx) => {
      tx.readDoc(ctx.changeId, type);
      if (tx.handEditChangedState(ctx.changeId, type)) throw STATE_EDITED;
    });
    return true;
  } catch (err) {
    if (err === STATE_EDITED) return false;
    throw err;
  }
}

/**
 * After an agent's turn: a document of the change edited by hand during it (its file no longer what
 * agentboard last wrote) is merged as a person's when the edit changes only text; one that changes a
 * status, a holder or takes a task out is reported, logged, and the run set to stop, with the
 * commands that show and undo the edit. The run's own writes merge no such edit after it (ctx.handEdited).
 */
export async function checkDocs(ctx: RunContext, seen: DocsSeen, turn: Turn): Promise<void> {
  const board = ctx.ops.board;
  const steps: string[] = [];
  const said: string[] = [];
  const merged: string[] = [];
  const now = docsNow(ctx);
  if (turn.phase === 'implementation' || turn.phase === 'review') said.push(...unparsableNow(ctx, seen, now, turn, steps));
  for (const [type, d] of now) {
    if (!d.edited || seen.kept.get(type) === null || ctx.handEdited.has(type)) continue;
    // A document the turn wrote and then edited by hand before the run saw its call: what agentboard wrote, by its ledger.
    const text = seen.kept.get(type) ?? lastWritten(ctx, type);
    if (text === null) continue;
    if (await mergeTextEdit(ctx, type)) {
      merged.push(board.rel(board.docPath(ctx.changeId, type)));
      continue;
    }
    ctx.handEdited.add(type);
    const file = board.rel(board.docPath(ctx.changeId, type));
    const kept = keepCopy(ctx, type, text);
    // A write of the turn the run did not see before the edit: its copy is of the version before that write.
    const last = textAsWritten(text, board.ledgerHeader(ctx.changeId)[DOC_FILES[type]]?.hash) ? 'what agentboard last wrote' : 'a version agentboard wrote before its last write of the turn';
    steps.push(...undoDocSteps(kept, board.docPath(ctx.changeId, type), last));
    const message = `${file} was edited by hand, not through agentboard, ${duringTurn(turn)}. Board documents change only through agentboard, which checks the rules and records who did what: the run takes nothing of this edit, starts no other agent and stops for a person, who keeps it or undoes it.`;
    emit(ctx, { type: 'document.edited', ...turn, file, message });
    await board.mutate((tx) => tx.log('agentboard', 'file.edited', file, `${file} edited by hand during the turn of ${turn.agent_id}${turn.task_id ? ` on ${turn.task_id}` : ''} (run ${ctx.runId}); the run stopped for a person`, ctx.changeId));
    said.push(message);
  }
  if (merged.length > 0) {
    emit(ctx, { type: 'notice', message: `${merged.join(' and ')} ${merged.length === 1 ? 'was' : 'were'} edited by hand during the turn of ${turn.agent_id}, in text only: taken as a person's edit (merged), as any write would.` });
    docsWritten(ctx, seen);
  }
  if (said.length === 0) return;
  ctx.halt ??= stop('failed', said.join(' '), [...steps, `agentboard run ${ctx.changeId}   # then go on: an edit kept is taken as a person's`]);
}

/** The text agentboard last wrote of a document, rebuilt from its ledger entry; null when the entry does not give it back exactly. */
function lastWritten(ctx: RunContext, type: DocType): string | null {
  const entry = ctx.ops.board.ledgerOf(ctx.changeId).files[DOC_FILES[type]];
  const text = entry ? writtenText(entry) : null;
  return text !== null && textAsWritten(text, entry!.hash) ? text : null;
}

/** The commands that show and undo a hand edit of a document, against `kept`: the copy of a version agentboard wrote (`last` says which). */
function undoDocSteps(kept: string, path: string, last: string, undo = 'undo it'): string[] {
  const [from, to] = [kept, path].map((p) => shellWord(fromCwd(p)));
  return [`diff -u ${from} ${to}   # what changed, against ${last}`, `cp ${from} ${to}   # ${undo}`];
}

/** Why a document's plain file no longer parses, at its line; null when it reads, or is gone or no plain file. */
function parseProblem(ctx: RunContext, type: DocType): string | null {
  const board = ctx.ops.board;
  const file = board.rel(board.docPath(ctx.changeId, type));
  try {
    const loaded = board.load(ctx.changeId, type);
    if (!loaded || !unparsable(loaded.doc)) return null;
    const first = loaded.doc.findings.find((f) => f.level === 'error');
    const where = first?.line ? `${file}:${first.line}` : file;
    return first?.message.startsWith(file) ? first.message : `${where}: ${first?.message ?? 'the file does not parse'}`;
  } catch {
    // No plain file (a link, a folder): what reads it next says so.
    return null;
  }
}

/**
 * After a worker's or the reviewer's turn: a document that parsed before the turn and no longer
 * does (a hand edit that broke it) is said, with its line and error, and the run set to stop: no
 * agent's call on it could go through, so no attempt is spent on it. Its claims are left as they
 * are (ctx.handEdited); what agentboard last wrote is kept to compare and put back.
 */
function unparsableNow(ctx: RunContext, seen: DocsSeen, now: Map<DocType, unknown>, turn: Turn, steps: string[]): string[] {
  const said: string[] = [];
  for (const [type, text] of seen.kept) {
    if (text === null || now.has(type) || ctx.handEdited.has(type)) continue;
    const problem = parseProblem(ctx, type);
    if (!problem) continue;
    ctx.handEdited.add(type);
    const path = ctx.ops.board.docPath(ctx.changeId, type);
    const file = ctx.ops.board.rel(path);
    const kept = keepCopy(ctx, type, text);
    steps.push(...undoDocSteps(kept, path, 'what agentboard last wrote', 'undo it (or fix the file by hand at the line named)'));
    const message = `${file} no longer parses (${problem.replace(/\.$/, '')}): it was edited by hand ${duringTurn(turn)}. agentboard reads and writes no document it cannot parse, so no agent's call on it can go through: the run starts no other agent and stops for a person, and leaves the claims as they are for the next run.`;
    emit(ctx, { type: 'document.edited', ...turn, file, message });
    said.push(message);
  }
  return said;
}

/** The tasks an agent holds in a state (before its turn, blocked: those it reported blocked in an earlier one, which wait for a person). */
export async function heldBy(ctx: RunContext, agentId: string, status: 'in_progress' | 'blocked'): Promise<Set<string>> {
  return new Set(((await ctx.ops.run('task.list', { assignee: agentId, status })).tasks as { task_id: string }[]).map((t) => t.task_id));
}

/**
 * After an agent's turn: tasks it took that the run did not give it (by `next`, or by working on
 * another task) are released, with the reason noted and said: an agent of a run works on its
 * assignment only, and no claim of its outlives the turn unseen. Tasks it held blocked before the
 * turn (`waiting`) are no such tasks: they wait for a person to clear the blocker.
 */
export async function releaseStrays(ctx: RunContext, agent: { id: string; role: Role }, phase: string, assignment: string | null, waiting: Set<string>): Promise<void> {
  for (const status of ['in_progress', 'blocked'] as const) {
    for (const task_id of [...(await heldBy(ctx, agent.id, status))].filter((id) => id !== assignment && !(status === 'blocked' && waiting.has(id)))) {
      const reason = `${agent.id} took it during its turn ${assignment ? `on ${assignment}` : `(${phase})`} of run ${ctx.runId}, which did not give it that task; released at the end of the turn`;
      await ctx.ops.release(task_id, reason);
      emit(ctx, { type: 'task.released', agent_id: agent.id, role: agent.role, phase, task_id, reason });
    }
  }
}
