/**
 * The `import` command: the person first (an import acts for the person who runs it, and may run
 * where no board exists yet), then the import operation, then its report, as text or as JSON.
 */
import { resolve } from 'node:path';
import { execute } from '../ops/execute.js';
import { importBoard } from '../ops/import.js';
import { createContext } from '../ops/registry.js';
import { table } from '../render/text.js';
import { findRoot } from '../store/board.js';
import type { Io } from './main.js';
import { currentPerson } from './person.js';

interface ImportGlobals {
  root?: string;
  json?: boolean;
  as?: string;
}

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function runImport(io: Io, tool: string, path: string | undefined, opts: { dryRun?: boolean }, globals: ImportGlobals): Promise<number> {
  const root = globals.root !== undefined ? resolve(io.cwd, globals.root) : (findRoot(undefined, io.cwd) ?? resolve(io.cwd));
  const person = currentPerson(globals.as, 'Importing a board', io, root);
  const input: Record<string, unknown> = { agent_id: person, tool, dry_run: opts.dryRun === true };
  if (path !== undefined) input.path = path;
  const data = await execute(importBoard, createContext(root, io.cwd), input);
  if (globals.json) io.out(`${JSON.stringify({ ok: true, data })}\n`);
  else io.out(renderImport(data));
  return 0;
}

export function renderImport(data: Data): string {
  const changes = data.changes as Data[];
  const count = changes.filter((c) => c.status === 'imported').length;
  const from = `${data.tool} (${data.source === '.' ? 'this repository' : data.source})`;
  let out = count === 0 && changes.length > 0 ? `Nothing new from ${from}: its changes are on the board already.\n\n` : `${data.dry_run ? 'Would import' : 'Imported'} ${count} change${count === 1 ? '' : 's'} from ${from}${data.originals ? `; agentd's originals ${data.dry_run ? 'would be' : 'are'} kept in ${data.originals}` : ''}:\n\n`;
  if (changes.length === 0) out += '  no changes found\n';
  out += table(
    ['CHANGE', 'STATUS', 'PHASE', 'TASKS', 'VERDICT', 'FROM'],
    changes.map((c) => [c.change_id, c.status, c.archived_to ? `archived (${c.archived_to})` : c.phase, c.tasks.total ? `${c.tasks.done}/${c.tasks.total} done` : '-', c.verdict ?? '-', c.source]),
  );
  const notable = (data.files as Data[]).filter((f) => f.findings.some((x: Data) => x.level !== 'info'));
  out += `\nEvery source file and where it went (${(data.files as Data[]).length} files):\n`;
  for (const f of data.files as Data[]) out += `  ${f.file} → ${f.to.join(', ')}\n`;
  if (notable.length > 0) {
    out += '\nFindings:\n';
    for (const f of notable) {
      for (const x of f.findings as Data[]) if (x.level !== 'info') out += `  ${f.file}${x.line ? `:${x.line}` : ''}: ${x.level}: ${x.message} (fix: ${x.fix})\n`;
    }
  }
  out += `\n${data.dry_run ? 'Nothing was written. ' : ''}Where every line of every file went: --json (files[].lines).\n`;
  return out;
}
