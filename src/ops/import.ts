/**
 * `agentboard import <agentd|openspec|spec-kit> [PATH]`: a board of another tool brought over in one
 * commit. The tool's reader (src/import/) turns its files into changes and a report per file; here
 * the changes land: documents submitted by the person importing (rejected where the source says
 * so), with where they came from in their frontmatter, the other files kept with their change,
 * finished changes in the archive. A change already on the board is left as it is, so a second
 * run changes nothing (but for one that landed short and was not worked on since, which lands again
 * once its source is fixed: landsAgain); one the source no longer holds is named in the report, and
 * left as it is too: the board is the record of its work. A dry run reads and reports only.
 *
 * agentd keeps its board in agentd/ as agentboard does: without PATH its folder is converted in
 * place, its originals set aside under agentd/.imported/ in the same commit.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import * as z from 'zod';
import { fail } from '../errors.js';
import { LIMITS } from '../domain/limits.js';
import { derivePhase } from '../domain/phase.js';
import { DOC_TYPES, STAGES, type DocMeta, type DocType, type ImportSource, type Note, type Phase } from '../domain/model.js';
import { BOARD_DIR, Board, findRoot, isAgentdBoard } from '../store/board.js';
import { BOARD_GITIGNORE, DEFAULT_CONFIG_TEXT } from '../store/config.js';
import { checkDoc, parseDocText, renderDocFile, requirementIdsOf } from '../store/documents.js';
import { readMeta } from '../store/doc-meta.js';
import { readBoardFile } from '../store/fs.js';
import { splitFrontmatter, withLf } from '../store/markdown.js';
import { renderInput, type DocInput, type Transaction } from '../store/transaction.js';
import { FindingSink } from '../domain/findings.js';
import { cutToWord } from '../import/documents.js';
import { refTo } from '../domain/refs.js';
import { readAgentd } from '../import/agentd.js';
import { IMPORT_TOOLS, type ImportedChange, type ImportedDoc, type ImportPlan, type ImportTool } from '../import/model.js';
import { readOpenSpec } from '../import/openspec.js';
import type { FileReport } from '../import/report.js';
import { isFeatureFolder, readSpecKit } from '../import/spec-kit.js';
import { readTree, sourceGit, type SourceTree } from '../import/source.js';
import { changeFindings } from './changes.js';
import { changeState, loadChangeToRead, type ChangeToRead } from './view.js';
import { defineOp, requireHuman } from './registry.js';
import { Actor, chars } from './schemas.js';

/** Where converting agentd/ in place keeps agentd's originals, inside agentd/. */
export const ASIDE = '.imported';

const ReportLineOut = z.object({ line: z.number().int(), text: z.string(), to: z.string() });
const SourceFindingOut = z.object({ level: z.enum(['error', 'warning', 'info']), line: z.number().int().optional(), message: z.string(), fix: z.string() });

const ImportOut = z.object({
  tool: z.enum(IMPORT_TOOLS),
  source: z.string().describe('The repository read, as given (".": this one).'),
  dry_run: z.boolean(),
  in_place: z.boolean().describe("agentd's own agentd/ converted where it is."),
  originals: z.string().nullable().describe('Where the originals were set aside, for an agentd/ converted in place.'),
  changes: z.array(
    z.object({
      change_id: z.string(),
      source: z.string(),
      status: z
        .enum(['imported', 'imported_with_errors', 'unchanged', 'refused', 'not_in_source'])
        .describe("imported (or would be, in a dry run); imported_with_errors: it landed, but a file of it could not be read as its document (it is kept in attachments/) or what landed breaks the board's rules: the findings of the change and of its files say what to fix; unchanged: already on the board from this source; refused: not imported, see its findings; not_in_source: on the board from an earlier import of this source, which no longer holds it (removed or renamed there): left on the board as it is."),
      phase: z.string().describe('The phase it lands at (or is at, when on the board already); "-" for a change refused that is not on the board.'),
      archived_to: z.string().nullable().describe('The archive folder it lands in (or is in); null for an open change or one refused.'),
      documents: z.array(z.string()),
      attachments: z.array(z.string()),
      tasks: z.object({ total: z.number().int(), done: z.number().int() }),
      verdict: z.string().nullable(),
      findings: z.array(SourceFindingOut.extend({ file: z.string() })),
    }),
  ),
  files: z.array(z.object({ file: z.string(), to: z.array(z.string()), lines: z.array(ReportLineOut), findings: z.array(SourceFindingOut) })),
});

type ImportResult = z.input<typeof ImportOut>;
type ChangeOut = ImportResult['changes'][number];

export const importBoard = defineOp({
  name: 'board.import',
  summary: "Bring a board of agentd, OpenSpec or spec-kit over (a person's command)",
  access: 'human',
  ownSync: true,
  input: z.strictObject({
    agent_id: Actor,
    tool: z.enum(IMPORT_TOOLS).describe('The tool the board was made with: agentd, openspec or spec-kit.'),
    path: chars(1, 4096).optional().describe("The repository to read; this one when left out (agentd's own agentd/ is then converted in place)."),
    dry_run: z.boolean().default(false).describe('Report what would be imported and write nothing.'),
  }),
  output: ImportOut,
  // Its command line is its own (cli/import-command.ts): it finds its person before any board exists.
  cli: { command: 'import', args: ['tool', 'path?'] },
  async run(ctx, input) {
    requireHuman(input.agent_id, 'Importing a board');
    const target = ctx.root ?? findRoot(undefined, ctx.cwd) ?? resolve(ctx.cwd);
    const source = input.path === undefined ? target : sourceRoot(resolve(ctx.cwd, input.path), input.tool, input.path, ctx.cwd);
    const board = new Board(target);
    const unconverted = existsSync(board.dir) && isAgentdBoard(board.dir);
    const inPlace = input.tool === 'agentd' && source === target;
    const base = inPlace && !unconverted ? `${BOARD_DIR}/${ASIDE}` : BOARD_DIR;
    if (input.tool !== 'agentd' && unconverted) {
      fail('AGENTD_BOARD', `${BOARD_DIR}/ here is a board of agentd, not yet agentboard's, so nothing can be imported into it.`, 'Convert it first with `agentboard import agentd`, then import again.');
    }
    checkSource(source, input.tool, base, inPlace);
    const { plan, tree } = readPlan(source, input.tool, base);
    const git = gitSource(source);
    const earlier = existsSync(board.dir) && !(inPlace && unconverted) ? boardImports(board, input.tool) : [];
    keepBoardIds(earlier, plan.changes, git?.prefix ?? '');
    const now = new Date().toISOString();
    const kept = keptOfEachId(plan.changes);
    const twice: (() => void)[] = [];
    for (const change of plan.changes) {
      const winner = kept.get(change.id);
      if (change.refused || winner === change || winner === undefined) continue;
      // The board keeps one change per id: the others under it land too, each under an id of its own.
      const id = change.id;
      const said = () => `the source holds change ${id} more than once, and the board keeps one change per id (an archived change keeps its id): ${winner.source} is ${winner.id} on the board, this one ${change.id}`;
      const finding = landBeside(change, plan.changes, board, said);
      // Said again once every id is given: the one kept may itself land beside a change of the board's own.
      twice.push(() => (finding.message = said()));
    }
    // Changes the board holds from an earlier import that land again (landsAgain): written over, not made.
    const again = new Set<ImportedChange>();
    const outcomes = plan.changes.map((change): Outcome => {
      if (change.refused) return 'refused';
      const outcome = judge(board, change, input.tool, inPlace && unconverted, again);
      if (outcome !== 'refused') return outcome;
      // The board holds the id for a change of its own (not imported from here): this one lands beside it.
      landBeside(change, plan.changes, board, (was) => `change ${was} is on the board already, not imported from here (open or archived), and the board keeps one change per id: this one is ${change.id} on the board`);
      return judge(board, change, input.tool, inPlace && unconverted, again);
    });
    for (const again of twice) again();
    const gone = goneFromSource(earlier, plan.changes, source, git);
    const result: ImportResult = {
      tool: input.tool,
      source: input.path ?? '.',
      dry_run: input.dry_run,
      in_place: inPlace,
      originals: inPlace ? `${BOARD_DIR}/${ASIDE}/` : null,
      changes: [],
      files: plan.files,
    };
    const staged = plan.changes.map((change, i) => ({ change, status: outcomes[i]!, docs: outcomes[i] === 'imported' ? documentsOf(change, input.agent_id, now, input.tool, git) : [] }));
    for (const { change, status, docs } of staged) {
      if (status === 'unchanged') saidWhenLanded(change, plan.files);
      result.changes.push(summarize(change, status, docs, plan.files, board, input.tool));
      if (status === 'imported') continue;
      // What the source's lines would have become, had the change landed: none of it is on the board from this run.
      const why = status === 'unchanged' ? `not imported (${change.id} is on the board already, left as it is)` : 'not imported';
      for (const f of plan.files) {
        if (!f.file.startsWith(`${change.source}/`)) continue;
        f.to = f.to.map((t) => `${status === 'unchanged' ? 'already on the board' : 'not imported'}: ${t} of ${change.id}`);
        f.lines = f.lines.map((l) => ({ ...l, to: `${why}: read as ${l.to}` }));
      }
    }
    for (const g of gone) result.changes.push(goneRow(board, g));
    describeLeftFiles(plan.files, inPlace && unconverted);
    if (input.dry_run || (!staged.some((s) => s.status === 'imported') && !(inPlace && unconverted))) return result;

    await board.mutate((tx) => {
      if (inPlace && unconverted) setOriginalsAside(tx, board);
      if (!existsSync(board.configPath) || (inPlace && unconverted)) tx.putBoardFile('config.yaml', DEFAULT_CONFIG_TEXT);
      if (!existsSync(join(board.dir, '.gitignore')) || (inPlace && unconverted)) tx.putBoardFile('.gitignore', BOARD_GITIGNORE);
      let count = 0;
      for (const { change, status, docs } of staged) {
        if (status !== 'imported') continue;
        if (again.has(change)) dropAttachments(tx, board, change);
        else tx.createChange(change.id);
        for (const d of docs) tx.putDocument(change.id, d.type, d.meta, d.content as DocInput[typeof d.type]);
        for (const a of change.attachments) tx.putAttachment(change.id, a.path, tree.bytes(a.from));
        if (change.archived) tx.archiveChange(change.id, `${change.archived}-${change.id}`);
        count++;
      }
      tx.log(input.agent_id, 'board.import', input.tool, `imported ${count} change${count === 1 ? '' : 's'} from ${input.tool}${input.path ? ` (${input.path})` : ''}${inPlace && unconverted ? `; agentd's originals set aside in ${BOARD_DIR}/${ASIDE}/` : ''}`);
    });
    return result;
  },
});

/**
 * Of the source's changes under one id (open and archived, say), the one that keeps it (the others
 * land under ids of their own): the open one,
 * which is the work going on, else the one archived last; among equals, one whose folder is named
 * with the id over one whose name was made into it (`add-thing` over `Add_Thing`), then the first
 * in the source.
 */
function keptOfEachId(changes: ImportedChange[]): Map<string, ImportedChange> {
  const rank = (c: ImportedChange) => c.archived ?? '~'; // an open change ranks above every date
  const named = (c: ImportedChange) => basename(c.source) === c.id || basename(c.source).endsWith(`-${c.id}`);
  const kept = new Map<string, ImportedChange>();
  for (const c of changes) {
    const other = kept.get(c.id);
    if (c.refused) continue;
    if (other === undefined || rank(c) > rank(other) || (rank(c) === rank(other) && named(c) && !named(other))) kept.set(c.id, c);
  }
  return kept;
}

/** Gives a change of the source whose id is taken a free one, with a warning saying why (`said`, given its id before). */
function landBeside(change: ImportedChange, changes: ImportedChange[], board: Board, said: (was: string) => string): { message: string } {
  const was = change.id;
  change.id = freeId(was, changes, board);
  const finding = { level: 'warning' as const, message: said(was), fix: 'nothing to do; an import run again finds it under the same id' };
  (change.findings ??= []).push(finding);
  return finding;
}

/** A change id no change of the source or the board has: `id` with -2, -3… after it (cut after a whole word to fit the longest id). */
function freeId(id: string, changes: ImportedChange[], board: Board): string {
  const onBoard = existsSync(board.dir);
  const taken = (c: string) => changes.some((x) => x.id === c) || (onBoard && (board.hasChange(c) || board.archived().some((a) => a.change_id === c)));
  for (let n = 2; ; n++) {
    const tail = `-${n}`;
    const next = `${cutToWord(id, LIMITS.changeIdMax - tail.length)}${tail}`;
    if (!taken(next)) return next;
  }
}

/**
 * The repository a PATH names: the folder itself, or the one above when PATH is the tool's own
 * folder (or openspec/changes/). A folder inside that one (a change, a feature) is refused with the
 * root to give: an import reads a whole repository.
 */
function sourceRoot(path: string, tool: ImportTool, given: string, cwd: string): string {
  const own = tool === 'agentd' ? BOARD_DIR : tool === 'openspec' ? 'openspec' : 'specs';
  if (basename(path) === own && !existsSync(join(path, own))) return dirname(path);
  if (tool === 'openspec' && basename(path) === 'changes' && basename(dirname(path)) === own && !existsSync(join(path, own))) return dirname(dirname(path));
  if (!isDir(path) || existsSync(join(path, own))) return path;
  for (let inner = path, above = dirname(path); above !== inner; inner = above, above = dirname(above)) {
    const child = basename(inner);
    if (basename(above) !== own || !(tool === 'spec-kit' ? isFeatureFolder(child) : ['changes', 'archive'].includes(child))) continue;
    const root = relative(cwd, dirname(above)) || '.';
    fail('IMPORT_REFUSED', `${given} is a folder inside ${own}/ of a repository, and an import reads a whole repository.`, `Give the root of that repository as PATH: \`agentboard import ${tool} ${root}\`.`);
  }
  return path;
}

function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** The names in a folder; none when it cannot be read. */
function entries(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function checkSource(root: string, tool: ImportTool, base: string, inPlace: boolean): void {
  const where = inPlace ? 'this repository' : 'the repository given';
  const st = statSync(root, { throwIfNoEntry: false });
  if (!st?.isDirectory()) {
    fail('IMPORT_REFUSED', `${root} ${st ? 'is a file, not a folder' : 'does not exist'}, so there is no repository there to import from.`, `Give the root folder of the repository that holds the board of ${tool} as PATH.`);
  }
  if (tool === 'agentd') {
    if (!isDir(join(root, base))) {
      fail(
        'IMPORT_REFUSED',
        inPlace ? `${BOARD_DIR}/ here is not a board of agentd (it has no config.toml or .version), and no originals of one are kept in ${BOARD_DIR}/${ASIDE}/.` : `There is no ${BOARD_DIR}/ folder in ${where}.`,
        inPlace ? 'Give the path of a checkout that holds an agentd board: `agentboard import agentd` followed by that path.' : 'Give the root of a repository that holds an agentd/ folder.',
      );
    }
    return;
  }
  const folder = tool === 'openspec' ? 'openspec/changes' : 'specs';
  // Early spec-kit projects keep their features in .specify/specs/: that .specify/ is the root to read.
  if (tool === 'spec-kit' && !isDir(join(root, folder)) && holdsFeatures(join(root, '.specify', folder))) {
    fail('IMPORT_REFUSED', `There is no ${folder}/ folder in ${where}: its features of spec-kit are in .specify/${folder}/.`, 'Give its .specify folder as PATH: `agentboard import spec-kit .specify` in the root of the repository.');
  }
  if (!isDir(join(root, folder))) {
    fail('IMPORT_REFUSED', `There is no ${folder}/ folder in ${where}, so there is nothing of ${tool} to import.`, `Run it in the root of the repository that holds ${folder}/, or give that root as PATH.`);
  }
  // specs/ is a common name (tests, documents): it is spec-kit's when it holds a feature.
  if (tool === 'spec-kit' && !holdsFeatures(join(root, folder))) {
    fail('IMPORT_REFUSED', `specs/ in ${where} holds no feature of spec-kit (a folder like specs/001-name/), so there is nothing of spec-kit to import.`, "Give as PATH the root of the repository whose specs/ holds spec-kit's features, or run it there.");
  }
}

/** Whether a specs/ folder holds a feature of spec-kit (a folder like 001-name/). */
function holdsFeatures(specs: string): boolean {
  return entries(specs).some((name) => isFeatureFolder(name) && isDir(join(specs, name)));
}

const FOLDERS_READ: Record<ImportTool, (base: string) => string[]> = { agentd: (base) => [base], openspec: () => ['openspec'], 'spec-kit': () => ['specs', '.specify'] };

function readPlan(root: string, tool: ImportTool, base: string): { plan: ImportPlan; tree: SourceTree } {
  const tree = readTree(root, FOLDERS_READ[tool](base));
  const plan = tool === 'agentd' ? readAgentd(tree, base) : tool === 'openspec' ? readOpenSpec(tree) : readSpecKit(tree);
  for (const { path, why } of tree.skipped) {
    plan.files.push({
      file: path,
      to: [],
      lines: [],
      findings: [{ level: 'warning', message: `${why}: nothing of it was read, and nothing of it is on the board`, fix: 'copy what the board needs into the change by hand, as a file of its own' }],
    });
  }
  // A document that could not be read (no UTF-8 text, a merge conflict) was read as no document at all: said where.
  for (const report of plan.files) {
    const fault = report.file.endsWith('.md') && tree.files.includes(report.file) ? tree.fault(report.file) : null;
    if (fault) report.findings.push({ level: 'error', ...fault });
  }
  plan.files.sort((a, b) => (a.file < b.file ? -1 : 1));
  return { plan, tree };
}

/**
 * The commit the source repository is at, when it is a git repository with one, and where the
 * source is inside it ("docs/" for PATH docs): imported_from names each file as that commit holds it.
 */
function gitSource(root: string): { commit: string; prefix: string } | undefined {
  const head = sourceGit(root, ['rev-parse', '--verify', '-q', 'HEAD']);
  const commit = head.stdout.toString('utf8').trim();
  if (head.code !== 0 || !/^[0-9a-f]{40}$/.test(commit)) return undefined;
  const prefix = sourceGit(root, ['rev-parse', '--show-prefix']);
  return { commit, prefix: prefix.code === 0 ? prefix.stdout.toString('utf8').trim() : '' };
}

const DOC_FILES = ['proposal.md', 'spec.md', 'tasks.md', 'REVIEW.md', 'design.md'];

/** Where a document on the board was imported from, if it was. */
function importedFrom(path: string): ImportSource | undefined {
  const read = readBoardFile(path, path);
  const split = read && splitFrontmatter(read.text);
  return split ? readMeta(split.frontmatter, new FindingSink(''))?.meta.imported_from : undefined;
}

/** A change of the board imported before from a tool: where each of its documents came from. */
interface BoardImport {
  change: ChangeToRead;
  from: ImportSource[];
}

/** The changes of the board, open and archived, with a document imported from `tool`. */
function boardImports(board: Board, tool: ImportTool): BoardImport[] {
  const folders: ChangeToRead[] = [...board.changeIds().map((id) => ({ changeId: id, archived: null })), ...board.archived().map((a) => ({ changeId: a.change_id, archived: a }))];
  const out: BoardImport[] = [];
  for (const change of folders) {
    const folder = folderOf(board, change);
    const from = DOC_FILES.flatMap((f) => {
      const source = existsSync(join(folder, f)) ? importedFrom(join(folder, f)) : undefined;
      return source?.tool === tool ? [source] : [];
    });
    if (from.length > 0) out.push({ change, from });
  }
  return out;
}

/**
 * A change imported before keeps its id on the board when the id its source folder's name gives
 * is another now (an earlier import made café-menu into caf-menu, this one makes it cafe-menu):
 * a change of the source is the board's change whose documents came from its files, by the same tool.
 */
function keepBoardIds(earlier: BoardImport[], changes: ImportedChange[], prefix: string): void {
  const key = (path: string) => path.normalize('NFC');
  const ids = new Map<string, string>();
  for (const { change, from } of earlier) for (const f of from) ids.set(key(f.path), change.changeId);
  if (ids.size === 0) return;
  const taken = new Set(changes.map((c) => c.id));
  for (const change of changes) {
    if (change.refused) continue;
    const from = [change.proposal, change.spec, change.tasks, change.review, change.design].flatMap((d) => (d ? [d.from] : []));
    const id = from.map((f) => ids.get(key(prefix + f))).find((i) => i !== undefined);
    if (id === undefined || id === change.id || taken.has(id)) continue;
    taken.add(id);
    change.id = id;
  }
}

/** A change of the board imported before from this source, which no change of the source is now: the folder it came from. */
interface Gone {
  change: ChangeToRead;
  source: string;
}

/**
 * The changes of the board imported before from this source that no change of the source is now
 * (removed or renamed there since). One whose documents name a commit the source repository does
 * not hold came from another repository (or from outside the folder given), and is none of them.
 */
function goneFromSource(earlier: BoardImport[], changes: ImportedChange[], root: string, git: { commit: string; prefix: string } | undefined): Gone[] {
  const here = new Set(changes.filter((c) => !c.refused).map((c) => c.id));
  const held = new Map<string, boolean>();
  const holds = (commit: string) => {
    if (!held.has(commit)) held.set(commit, sourceGit(root, ['cat-file', '-e', `${commit}^{commit}`]).code === 0);
    return held.get(commit)!;
  };
  const prefix = git?.prefix ?? '';
  const out: Gone[] = [];
  for (const { change, from } of earlier) {
    if (here.has(change.changeId)) continue;
    if (from.some((f) => !f.path.startsWith(prefix) || (git && f.commit && !holds(f.commit)))) continue;
    out.push({ change, source: commonFolder(from.map((f) => f.path.slice(prefix.length))) });
  }
  return out;
}

/** The folder files stand in together (a spec of OpenSpec is named by its specs/ folder: the change's folder holds it). */
function commonFolder(paths: string[]): string {
  const parts = paths.map((p) => dirname(p).split('/'));
  let n = 0;
  while (parts.every((p) => n < p.length && p[n] === parts[0]![n])) n++;
  return parts[0]!.slice(0, n).join('/') || '.';
}

/** The row of a change the board holds from an earlier import of this source, which no longer holds it: as the board holds it. */
function goneRow(board: Board, gone: Gone): ChangeOut {
  const id = gone.change.changeId;
  const state = changeState(loadChangeToRead(board, gone.change));
  const tasks = state.tasks?.tasks ?? [];
  const archivedTo = gone.change.archived ? board.rel(folderOf(board, gone.change)) : null;
  const said = `change ${id} is on the board${archivedTo ? ` (archived in ${archivedTo})` : ''}, imported from ${gone.source}, which the source no longer holds (removed or renamed since): the board keeps it as it is`;
  return {
    change_id: id,
    source: gone.source,
    status: 'not_in_source',
    phase: archivedTo ? 'archived' : derivePhase(state, board.config.require_approval).phase,
    archived_to: archivedTo,
    documents: [],
    attachments: [],
    tasks: { total: tasks.length, done: tasks.filter((t) => t.status === 'done').length },
    verdict: state.review?.verdict ?? null,
    // An archived change is finished work: nothing is to be done of it.
    findings: [
      archivedTo
        ? { level: 'info', file: gone.source, message: said, fix: 'nothing to do' }
        : { level: 'warning', file: gone.source, message: said, fix: `nothing to do if its work goes on; if it was given up, see what is left of it with ${refTo('change.show', { change_id: id })}, and take out the tasks no one is to do with ${refTo('task.rm')}` },
    ],
  };
}

/** What becomes of a change before its documents are judged: imported_with_errors is told of an imported one afterwards. */
type Outcome = Exclude<ChangeOut['status'], 'imported_with_errors' | 'not_in_source'>;

/**
 * Whether a change lands: not when the board holds its id already, open or archived, whether or not
 * the source archived it since (then from this tool: unchanged; else refused, and the caller lands it
 * under another id). The board's change stays as it is: work done on it since the import is the board's.
 */
function judge(board: Board, change: ImportedChange, tool: ImportTool, converting: boolean, again: Set<ImportedChange>): Outcome {
  if (converting || !existsSync(board.dir)) return 'imported';
  const held = onTheBoard(board, change.id);
  if (held === null) return 'imported';
  const folder = folderOf(board, held);
  const docs = DOC_FILES.map((f) => join(folder, f)).filter((f) => existsSync(f));
  // A change that landed with no document, its files kept as they were, is the one that holds them.
  const fromHere = docs.length === 0 ? change.attachments.length > 0 && change.attachments.every((a) => existsSync(join(folder, a.path))) : docs.map((d) => importedFrom(d)?.tool).find((t) => t !== undefined) === tool;
  if (!fromHere) return 'refused';
  const why = held.archived ? null : landsAgain(board, change, tool);
  if (why === null) return 'unchanged';
  again.add(change);
  // Said as a warning: the text report shows it, as what landed before is replaced.
  (change.findings ??= []).push({ level: 'warning', message: `change ${change.id} is on the board already, imported from here, and ${why}: it lands again from the source as it is now, in place of what landed before`, fix: 'nothing to do' });
  return 'imported';
}

/**
 * Why a change the board holds from an earlier import lands again (null: it is left as it is): it
 * landed short (with errors, or without a document the source now gives), its source has changed
 * since, and nothing was done on it on the board (no document revised, decided or edited by hand,
 * no task worked on, nothing in the activity log). Work done on the board is never written over.
 */
function landsAgain(board: Board, change: ImportedChange, tool: ImportTool): string | null {
  const here = loadChangeToRead(board, { changeId: change.id, archived: null });
  const planned = documentsOf(change, '', '', tool, undefined);
  const present = DOC_TYPES.filter((type) => here[type] !== null);
  // What landed before is replaced whole: every document of it has one in the source now.
  if (present.some((type) => !planned.some((d) => d.type === type))) return null;
  const docs = present.map((type) => here[type]!);
  if (docs.some((d) => d.content === null || d.meta.imported_from?.tool !== tool || d.meta.revision !== 1 || d.meta.status === 'approved')) return null;
  if (board.handEditedDocs([change.id]).length > 0) return null;
  const tasks = (here.tasks?.content?.blocks ?? []).flatMap((b) => (b.task ? [b.task] : []));
  if (tasks.some((t) => (t.status !== 'todo' && t.status !== 'done') || t.assignee || t.claimed_at || t.progress !== undefined || t.blockers.length > 0 || t.feedback.length > 0)) return null;
  const missing = planned.filter((d) => here[d.type] === null).map((d) => fileName(d.type));
  const rejected = docs.filter((d) => d.meta.status === 'rejected').map((d) => fileName(d.meta.type));
  const errors = changeFindings(here).filter((f) => f.level === 'error').length;
  if (missing.length === 0 && rejected.length === 0 && errors === 0) return null;
  // The source as it is now differs from what landed (a review's time is the import's own: not compared).
  const differs = missing.length > 0 || planned.some((d) => d.type !== 'review' && withLf(here[d.type]!.body).trim() !== withLf(renderInput(d.type, d.content as never)).trim());
  if (!differs) return null;
  // Last, as it reads the whole log: only for a change that would otherwise land again.
  if (board.readActivity().some((e) => e.change_id === change.id || e.target === change.id || e.target.startsWith(`${change.id}/`))) return null;
  const short = [
    ...(errors > 0 ? [`it landed with ${errors} error${errors === 1 ? '' : 's'}`] : []),
    ...(missing.length > 0 ? [`it landed without ${missing.join(', ')}`] : []),
    ...(rejected.length > 0 ? [`its ${rejected.join(', ')} landed rejected`] : []),
  ];
  return `${short.join(' and ')}, nothing was done on it on the board since, and the source has changed`;
}

/** The board's change of an id, open or archived (the latest archive of it); null when the board has none. */
function onTheBoard(board: Board, id: string): ChangeToRead | null {
  if (board.hasChange(id)) return { changeId: id, archived: null };
  const archived = board.archived().findLast((a) => a.change_id === id);
  return archived ? { changeId: id, archived } : null;
}

/** Of a change landing again, the files kept with it before that the source no longer gives: they go with the commit. */
function dropAttachments(tx: Transaction, board: Board, change: ImportedChange): void {
  const folder = board.changeDir(change.id);
  const kept = new Set(change.attachments.map((a) => join(folder, ...a.path.split('/'))));
  const walk = (dir: string): string[] => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
  };
  for (const path of walk(join(folder, 'attachments'))) if (!kept.has(path)) tx.removeWith(path);
}

/** The folder of a change of the board, open or archived. */
function folderOf(board: Board, change: ChangeToRead): string {
  return change.archived ? join(board.archiveDir, change.archived.folder) : board.changeDir(change.changeId);
}

interface Planned {
  type: DocType;
  meta: DocMeta;
  content: DocInput[DocType];
  from: string;
}

/** The documents of a change as they land: submitted by the person, saying where they came from. */
function documentsOf(change: ImportedChange, person: string, now: string, tool: ImportTool, git: { commit: string; prefix: string } | undefined): Planned[] {
  const out: Planned[] = [];
  const add = <T extends DocType>(type: T, doc: ImportedDoc<unknown> | undefined, content: () => DocInput[T]) => {
    if (!doc) return;
    const path = `${git?.prefix ?? ''}${doc.from}`;
    const source: ImportSource = git ? { tool, path, commit: git.commit } : { tool, path };
    const notes: Note[] = [{ author: person, at: now, text: `Imported from ${tool}: ${path}.` }, ...(doc.notes ?? []).map((n) => ({ author: n.author, at: now, text: n.text }))];
    const meta: DocMeta = { id: `${change.id}/${type}`, change_id: change.id, type, status: 'submitted', created: now, updated: now, author: person, revision: 1, imported_from: source, notes, feedback: [] };
    if (doc.rejected) {
      meta.status = 'rejected';
      meta.feedback = [{ author: doc.rejected.author, at: now, text: doc.rejected.text }];
      meta.decided_by = person;
      meta.decided_at = now;
    }
    out.push({ type, meta, content: content(), from: doc.from });
  };
  add('proposal', change.proposal, () => change.proposal!.content);
  add('spec', change.spec, () => change.spec!.content);
  add('tasks', change.tasks, () => {
    const { content } = change.tasks!;
    // A note the import wrote (a long description's rest) is the person's, made now.
    const tasks = content.tasks.map((t) => ({ ...t, notes: t.notes.map((n) => ({ ...n, author: n.author || person, at: n.at || now })) }));
    return { ...content, title: content.title || change.proposal?.content.title || change.id, tasks };
  });
  add('review', change.review, () => change.review!.content.map((r) => ({ ...r, reviewer: r.reviewer || person, at: r.at || now })));
  add('design', change.design, () => change.design!.content);
  return out;
}

/** The change as it lands (or would): its phase, and what the board's rules say of its documents. */
function summarize(change: ImportedChange, status: Outcome, docs: Planned[], files: FileReport[], board: Board, tool: ImportTool): ChangeOut {
  const findings: ChangeOut['findings'] = [];
  const folder = change.archived ? `${BOARD_DIR}/archive/${change.archived}-${change.id}` : `${BOARD_DIR}/changes/${change.id}`;
  const parsed = new Map(docs.map((d) => [d.type, parseDocText(d.type, renderDocFile(d.meta, {}, renderInput(d.type, d.content)), `${folder}/${fileName(d.type)}`)]));
  const spec = parsed.get('spec') ?? null;
  for (const [type, doc] of parsed) {
    for (const f of checkDoc(doc, change.id, { requirementIds: type === 'tasks' ? requirementIdsOf(spec as never) : null })) {
      const finding = { level: f.level, message: `${f.message} (${f.rule})`, fix: f.fix, file: f.file, ...(f.line !== undefined ? { line: f.line } : {}) };
      findings.push(finding);
      const report = reportOf(change, type, doc, f.line, docs, files);
      report?.findings.push({ level: f.level, message: onBoardFile(finding), fix: f.fix });
    }
  }
  for (const f of change.findings ?? []) findings.push({ ...f, file: change.source });
  if (change.refused) findings.push({ level: 'error', ...change.refused, file: change.source });
  // A change the board holds already (left as it is) is told as it is there,
  // open or archived: its phase, tasks and verdict, which may have moved on since it was imported.
  const onBoard = status !== 'imported' && !change.refused && existsSync(board.dir) ? onTheBoard(board, change.id) : null;
  if (status === 'unchanged') findings.push({ ...alreadyOnBoard(change, onBoard !== null && !onBoard.archived), file: change.source });
  const here = onBoard ? loadChangeToRead(board, onBoard) : null;
  const hereState = here ? changeState(here) : null;
  const tasks = hereState ? (hereState.tasks?.tasks ?? []) : (change.tasks?.content.tasks ?? []);
  const hereTasks = (here?.tasks?.content?.blocks ?? []).flatMap((b) => (b.task ? [b.task] : []));
  const moved = here && status === 'unchanged' ? sourceMovedOn(change, hereTasks) : null;
  if (moved) findings.push({ ...moved, file: change.tasks?.from ?? change.source });
  // A document the board holds as it was imported (never revised there) that the source has since changed.
  for (const type of here && status === 'unchanged' ? (['proposal', 'spec', 'design'] as const) : []) {
    const source = change[type];
    const there = here![type];
    if (!source || !there?.content || there.meta.revision !== 1 || withLf(there.body).trim() === withLf(renderInput(type, source.content as never)).trim()) continue;
    findings.push({
      level: 'warning',
      file: source.from,
      message: `the source's ${fileName(type)} of ${change.id} differs from what was imported, and the board's change is left as it is, so none of that came over`,
      fix:
        type === 'design'
          ? `bring over what still applies by hand: the board's is ${board.rel(board.docPath(change.id, 'design'))}`
          : // --from reads agentboard's own layout (and agentd's): another tool's file is written anew on the board from what it says.
            `bring over what still applies on the board (an import leaves a change of the board as it is, but for one that landed short and was not worked on since): \`agentboard show ${change.id} ${type}\` shows the board's, and a planner writes the new one with \`agentboard ${type === 'proposal' ? 'propose' : 'spec'} ${change.id}\`${tool === 'agentd' ? ' --from and the file' : ', from what the source now says'}`,
    });
  }
  const state = (type: (typeof STAGES)[number]) => {
    const d = docs.find((x) => x.type === type);
    return d ? { status: d.meta.status } : null;
  };
  const verdict = hereState ? (hereState.review?.verdict ?? null) : (change.review?.content[0]?.verdict ?? null);
  let phase: Phase | '-' = 'archived';
  if (onBoard?.archived) phase = 'archived';
  else if (hereState) phase = derivePhase(hereState, board.config.require_approval).phase;
  else if (status === 'refused') phase = '-';
  else if (!change.archived) {
    phase = derivePhase(
      {
        proposal: state('proposal'),
        spec: state('spec'),
        tasks: state('tasks') ? { ...state('tasks')!, tasks } : null,
        review: state('review') ? { ...state('review')!, verdict } : null,
      },
      existsSync(board.configPath) ? board.config.require_approval : [],
    ).phase;
  }
  // Not all of it landed as written, or what landed breaks the board's rules: the row says so.
  const errors = status === 'imported' && (findings.some((f) => f.level === 'error') || files.some((f) => f.file.startsWith(`${change.source}/`) && f.findings.some((x) => x.level === 'error')));
  return {
    change_id: change.id,
    source: change.source,
    status: errors ? 'imported_with_errors' : status,
    phase,
    archived_to: onBoard !== null ? (onBoard.archived ? board.rel(folderOf(board, onBoard)) : null) : change.archived && status !== 'refused' ? folder : null,
    documents: (status === 'imported' ? docs.map((d) => fileName(d.type)) : []),
    attachments: change.attachments.map((a) => a.path),
    tasks: { total: tasks.length, done: tasks.filter((t) => t.status === 'done').length },
    verdict,
    findings,
  };
}

/**
 * What the source's task list holds that the board's copy does not, for a change left as it is:
 * tasks the board does not have (added in the source since the import, or taken out on the board),
 * and tasks done there but not on the board; null when none.
 */
function sourceMovedOn(change: ImportedChange, here: readonly { id: string; status: string }[]): { level: 'warning'; message: string; fix: string } | null {
  const source = change.tasks?.content.tasks ?? [];
  const onBoard = new Map(here.map((t) => [t.id, t]));
  const added = source.filter((t) => !onBoard.has(t.id)).map((t) => t.id);
  const done = source.filter((t) => t.status === 'done' && onBoard.has(t.id) && onBoard.get(t.id)!.status !== 'done').map((t) => t.id);
  if (added.length === 0 && done.length === 0) return null;
  const said = (ids: string[]) => `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}`;
  const parts = [added.length > 0 ? `${said(added)} ${added.length === 1 ? 'is' : 'are'} not on the board` : '', done.length > 0 ? `${said(done)} ${done.length === 1 ? 'is' : 'are'} done there, not on the board` : ''].filter(Boolean);
  return {
    level: 'warning',
    message: `the source's task list of ${change.id} differs from the board's: ${parts.join('; ')}; the board's change is left as it is, so none of that came over`,
    fix: `bring over what still applies on the board: \`agentboard task add ${change.id}\` for a new task, \`agentboard task done\` for one finished`,
  };
}

/**
 * A finding on a file of the board as the source file it came from says it: the board's file and
 * line first. The text report tells it there, once (not again among the change's findings).
 */
export function onBoardFile(finding: { file: string; line?: number; message: string }): string {
  return `${finding.file}${finding.line ? `:${finding.line}` : ''}: ${finding.message}`;
}

/**
 * A change on the board already: what reading it said, of it and of its files, was said when it
 * landed, and is not said again on every run; what differs since is (see summarize).
 */
function saidWhenLanded(change: ImportedChange, files: FileReport[]): void {
  delete change.findings;
  for (const f of files) if (f.file.startsWith(`${change.source}/`)) f.findings = [];
}

/** What the report says of a change the board holds already, imported from this tool before: left as it is. */
function alreadyOnBoard(change: ImportedChange, openHere: boolean): { level: 'info'; message: string; fix: string } {
  if (change.archived && openHere) {
    return { level: 'info', message: `change ${change.id} is on the board already, imported from here, and open there while the source archived it: left as it is, with the work done on the board`, fix: `archive it on the board once its review is approved and its tasks are done: \`agentboard archive ${change.id}\`` };
  }
  return { level: 'info', message: `change ${change.id} is on the board already, imported from here${openHere ? '' : ' (archived on the board)'}: left as it is`, fix: 'nothing to do' };
}

/** The source file a finding about a landed document is about: for a spec made of several files, the file of the requirement it is on. */
function reportOf(change: ImportedChange, type: DocType, doc: ReturnType<typeof parseDocText>, line: number | undefined, docs: Planned[], files: FileReport[]): FileReport | undefined {
  const from = docs.find((d) => d.type === type)!.from;
  const direct = files.find((r) => r.file === from);
  if (direct || type !== 'spec') return direct;
  const spec = doc.content as { requirements: { group?: string }[] } | null;
  const heads = doc.where.spec?.requirements ?? [];
  let group: string | undefined;
  heads.forEach((h, i) => {
    if (line !== undefined && doc.bodyLine - 1 + h <= line) group = spec?.requirements[i]?.group;
  });
  const prefix = `${change.source}/specs/${group ?? ''}`;
  return files.find((r) => group !== undefined && (r.file === `${prefix}.md` || r.file === `${prefix}/spec.md`)) ?? files.find((r) => r.file.startsWith(`${change.source}/specs/`));
}

function fileName(type: DocType): string {
  return { proposal: 'proposal.md', spec: 'spec.md', tasks: 'tasks.md', review: 'REVIEW.md', design: 'design.md' }[type];
}

/** Files no change took: where they are now. */
function describeLeftFiles(files: FileReport[], converting: boolean): void {
  for (const f of files) {
    if (f.to.length > 0) continue;
    f.to.push(converting && f.file.startsWith(`${BOARD_DIR}/`) ? `${BOARD_DIR}/${ASIDE}/${f.file.slice(BOARD_DIR.length + 1)} (set aside with agentd's originals)` : `left where it is (${f.file})`);
  }
}

/** Every entry of agentd/ that is agentd's goes to agentd/.imported/, keeping its path; the board's own files stay. */
function setOriginalsAside(tx: Transaction, board: Board): void {
  const own = new Set(['.runtime', ASIDE, 'people.yaml']);
  const aside = (from: string) => {
    // A move onto something that is there already would not happen, and the new board would land on agentd's files.
    if (existsSync(join(board.dir, ASIDE, from))) {
      fail('IMPORT_REFUSED', `${BOARD_DIR}/${ASIDE}/${from} exists already, so agentd's ${BOARD_DIR}/${from} cannot be set aside there; nothing was changed.`, `Move ${BOARD_DIR}/${ASIDE}/ away (it holds what an earlier conversion kept), then import again.`);
    }
    tx.setAside(from, `${ASIDE}/${from}`);
  };
  for (const name of readdirSync(board.dir)) {
    if (own.has(name)) continue;
    if ((name === 'changes' || name === 'archive') && isDir(join(board.dir, name))) {
      for (const entry of readdirSync(join(board.dir, name))) {
        if (entry.startsWith('.') && entry.endsWith('.tmp')) continue;
        aside(`${name}/${entry}`);
      }
      continue;
    }
    aside(name);
  }
}

