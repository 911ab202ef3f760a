/**
 * The `import` command: the person first (an import acts for the person who runs it, and may run
 * where no board exists yet), then the import operation, then its report, as text or as JSON.
 */
import { resolve } from 'node:path';
import { AgentboardError } from '../errors.js';
import { resolveRefsDeep, type Ref } from '../domain/refs.js';
import { spelledOf } from '../ops/catalog.js';
import { execute } from '../ops/execute.js';
import { importBoard, onBoardFile } from '../ops/import.js';
import { parseInput } from '../ops/input.js';
import { createContext } from '../ops/registry.js';
import { table } from '../render/text.js';
import { findRoot } from '../store/board.js';
import type { Io } from './main.js';
import { currentPerson } from './person.js';
import { spellInputError } from './field-names.js';

interface ImportGlobals {
  root?: string;
  json?: boolean;
  as?: string;
}

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The person a dry run stands for when none is named: it appears nowhere, since nothing is written. */
const DRY_RUN_PERSON = 'human:dry-run';

/**
 * Exit 0 when every change of the source is on the board as the board's rules want it (imported,
 * or there already); 1 when one was refused or landed with errors: the report says which and why.
 */
export async function runImport(io: Io, tool: string, path: string | undefined, opts: { dryRun?: boolean }, globals: ImportGlobals, spell: (r: Ref) => string): Promise<number> {
  const root = globals.root !== undefined ? resolve(io.cwd, globals.root) : (findRoot(undefined, io.cwd) ?? resolve(io.cwd));
  const given: Record<string, unknown> = { tool, dry_run: opts.dryRun === true };
  if (path !== undefined) given.path = path;
  const data = await asCommand(async () => {
    // Bad usage exits 2 whoever runs it: the input is checked before the person is asked for.
    parseInput(importBoard.input, { ...given, agent_id: 'human:usage-check' });
    // A dry run writes nothing and makes no one the author of anything: it needs no person present.
    const person = opts.dryRun ? (globals.as ?? DRY_RUN_PERSON) : currentPerson(globals.as, 'Importing a board', io, root);
    return resolveRefsDeep(await execute(importBoard, createContext(root, io.cwd), { ...given, agent_id: person }), spell) as Data;
  });
  if (globals.json) io.out(`${JSON.stringify({ ok: true, data })}\n`);
  else io.out(renderImport(data));
  return (data.changes as Data[]).some((c) => c.status === 'refused' || c.status === 'imported_with_errors') ? 1 : 0;
}

/** The import's refusals as the command line says them: its arguments by name, `agentboard import` to run again (not a call to send). */
async function asCommand<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof AgentboardError)) throw err;
    const spelled = spellInputError(spelledOf(importBoard), err.toJSON());
    throw new AgentboardError(spelled.code, spelled.message, spelled.next_step, spelled.details);
  }
}

export function renderImport(data: Data): string {
  const changes = data.changes as Data[];
  const count = changes.filter((c) => c.status === 'imported' || c.status === 'imported_with_errors').length;
  const from = `${data.tool} (${data.source === '.' ? 'this repository' : data.source})`;
  const some = (status: string) => changes.filter((c) => c.status === status).length;
  const also = [some('imported_with_errors') && `${some('imported_with_errors')} with errors`, some('refused') && `${some('refused')} refused`, some('not_in_source') && `${some('not_in_source')} on the board no longer in it`].filter(Boolean);
  // Run again, a source whose changes are on the board says so, refused ones or not.
  const unchanged = some('unchanged');
  const ofSource = changes.length - some('not_in_source');
  let out =
    unchanged > 0 && count === 0
      ? `Nothing new from ${from}: ${unchanged === ofSource ? 'its changes are' : `${unchanged} of its ${ofSource} changes are`} on the board already${also.length ? ` (${also.join(', ')})` : ''}.\n\n`
      : `${data.dry_run ? 'Would import' : 'Imported'} ${count} change${count === 1 ? '' : 's'} from ${from}${also.length ? ` (${also.join(', ')})` : ''}${data.originals ? `; agentd's originals ${data.dry_run ? 'would be' : 'are'} kept in ${data.originals}` : ''}:\n\n`;
  if (changes.length === 0) out += '  no changes found\n';
  out += table(
    ['CHANGE', 'STATUS', 'PHASE', 'TASKS', 'VERDICT', 'FROM'],
    changes.map((c) => [c.change_id, c.status.replace(/_/g, ' '), c.archived_to ? `archived (${c.archived_to})` : c.phase, c.tasks.total ? `${c.tasks.done}/${c.tasks.total} done` : '-', c.verdict ?? '-', c.source]),
  );
  const said = (x: Data) => x.level !== 'info';
  // What is said of a change's documents is on their source files; what is said of a change as a
  // whole (why it was refused, a source that moved on since it was imported) only on the change.
  const ofFiles = (data.files as Data[]).flatMap((f) => (f.findings as Data[]).filter(said).map((x): Data => ({ ...x, file: f.file })));
  const keyOf = (x: Data) => `${x.file}\0${x.line ?? ''}\0${x.message}`;
  const onFiles = new Set(ofFiles.map(keyOf));
  // A finding on a document as it landed is on its source file too, the board's file and line first.
  const copied = new Set(ofFiles.map((x) => x.message));
  const ofChanges = changes.flatMap((c) => (c.findings as Data[]).filter((x) => said(x) && !onFiles.has(keyOf(x)) && !copied.has(onBoardFile(x as never))));
  out += `\nEvery source file and where it went (${(data.files as Data[]).length} files):\n`;
  for (const f of data.files as Data[]) out += `  ${f.file} → ${f.to.join(', ')}\n`;
  if (ofChanges.length + ofFiles.length > 0) {
    out += '\nFindings:\n';
    for (const x of [...ofChanges, ...ofFiles]) out += `  ${x.file}${x.line ? `:${x.line}` : ''}: ${x.level}: ${x.message} (fix: ${x.fix})\n`;
  }
  out += `\n${data.dry_run ? 'Nothing was written. ' : ''}Where every line of every file went: --json (files[].lines).\n`;
  return out;
}
