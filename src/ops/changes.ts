/** The board and its changes: init, list, show, validate, archive. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as z from 'zod';
import { AgentboardError, fail } from '../errors.js';
import { FindingSink, type Finding } from '../domain/findings.js';
import { DOC_TYPES, STAGES, type Stage } from '../domain/model.js';
import { Board, BOARD_DIR, findRoot, mainWorktreeBoardOf, refuseAgentdBoard, refuseLinkedBoard, repositoryRootOf, type ArchivedChange } from '../store/board.js';
import type { Reader } from '../store/transaction.js';
import { BOARD_GITIGNORE, DEFAULT_CONFIG_TEXT, OLD_BOARD_GITIGNORE } from '../store/config.js';
import { MCP_CLIENTS, serverCommand, wireClients } from '../store/mcp-clients.js';
import { checkDirs, ensureDir, writeFileAtomic } from '../store/fs.js';
import { checkDoc, requirementIdsOf } from '../store/documents.js';
import { latestVerdict } from '../store/decisions.js';
import { docWord } from './doc-write.js';
import { conflictFindings } from './conflicts.js';
import { defineOp, PROFILES, requireHuman, type Context } from './registry.js';
import { Actor, ChangeId, DocState, FindingOut, Phase, stateOf } from './schemas.js';
import { LimitOrAll, page, Page, pageInput, pageOf } from './pages.js';
import { changeTitle, changeToRead, loadChange, loadChangeToRead, loadSummed, phaseOf, requireChange, tasksOf, type ChangeToRead, type LoadedChange, type SummedChange } from './view.js';
import type { TaskList } from '../store/task-scan.js';
import { refTo } from '../domain/refs.js';


export const initBoard = defineOp({
  name: 'board.init',
  summary: 'Create a board (agentd/) in this folder; running it again changes nothing',
  access: 'human',
  ownSync: true,
  input: z.strictObject({
    agent_id: Actor,
    mcp: z.array(z.enum(MCP_CLIENTS)).max(MCP_CLIENTS.length).default([]).describe('Also wire these MCP clients to agentboard mcp, each in its own configuration file.'),
    profile: z.enum(PROFILES).default('agent').describe('The tools the wired clients get (agentboard mcp --profile): agent (planning and work) unless given.'),
  }),
  output: z.object({
    root: z.string(),
    created: z.array(z.string()),
    updated: z.array(z.string()).describe('Files of the board brought up to date (a .gitignore an older init wrote).'),
    already_initialized: z.boolean(),
    mcp: z.array(z.object({ client: z.enum(MCP_CLIENTS), file: z.string(), result: z.enum(['created', 'added', 'unchanged', 'kept']) })),
    mcp_server: z
      .object({ command: z.string(), args: z.array(z.string()), on_path: z.boolean() })
      .nullable()
      .describe('How the wired clients start the server: agentboard when it is on the PATH, else node and the installed bin (null without --mcp).'),
    warning: z.string().nullable().describe('Said when the board is not at the top of its git repository (where commands find it, and how to have it at the top instead), or when --mcp wired the clients of a board above this folder.'),
  }),
  cli: { command: 'init' },
  async run(ctx, input) {
    requireHuman(input.agent_id, 'Creating a board');
    const { root, warning } = placeOfBoard(ctx, input.mcp.length > 0);
    refuseLinkedBoard(root);
    const board = new Board(root);
    refuseAgentdBoard(board.dir, BOARD_DIR);
    // A Config.yaml is a person's settings under the wrong name: a config.yaml made beside it would silently take their place.
    board.refuseMisnamedConfig();
    const server = serverCommand(ctx.env.PATH);
    // A client named twice (--mcp claude --mcp claude) is wired, and reported, once.
    const mcp = wireClients(root, [...new Set(input.mcp)], server, input.profile);
    const wanted: [string, string | null][] = [
      [board.dir, null],
      [board.changesDir, null],
      [board.configPath, DEFAULT_CONFIG_TEXT],
      [join(board.dir, '.gitignore'), BOARD_GITIGNORE],
    ];
    const created: string[] = [];
    const updated: string[] = [];
    for (const [path, content] of wanted) {
      if (content === null) {
        // Made one folder at a time, never through a link (a cloned repository's agentd/ may be one).
        if (checkDirs(root, path, (p) => board.rel(p))) continue;
        ensureDir(root, path, (p) => board.rel(p));
      } else if (existsSync(path)) {
        // A board's .gitignore as an older init wrote it, untouched since, lacks the line that keeps agentboard's files being written out of commits.
        if (content === BOARD_GITIGNORE && readFileSync(path, 'utf8') === OLD_BOARD_GITIGNORE) {
          writeMade(path, content, board.rel(path), created);
          updated.push(board.rel(path));
        }
        continue;
      } else writeMade(path, content, board.rel(path), created);
      created.push(board.rel(path) + (content === null ? '/' : ''));
    }
    const wired = mcp.filter((m) => m.result === 'created' || m.result === 'added').map((m) => m.file);
    if (created.length > 0 || wired.length > 0) {
      await board.mutate((tx) => tx.log(input.agent_id, 'board.init', BOARD_DIR, [created.length ? `created the board (${created.join(', ')})` : '', wired.length ? `wired MCP clients (${wired.join(', ')})` : ''].filter(Boolean).join('; ')));
    }
    const mcpServer = input.mcp.length > 0 ? { command: server.command, args: [...server.args, 'mcp'], on_path: server.args.length === 0 } : null;
    // Made in a linked worktree while the main worktree has a board: two boards that do not see each other's claims.
    const main = ctx.root === undefined && created.length > 0 ? mainWorktreeBoardOf(root) : null;
    const beside = main === null ? null : `This is a linked git worktree, and the repository's main worktree has a board, ${join(main, BOARD_DIR)}/: the board made here is this branch's own, and its tasks and claims are not that board's. To work on the main board from here, pass --root ${main} (and remove ${join(root, BOARD_DIR)}/ if it was made by mistake).`;
    return { root, created, updated, already_initialized: created.length === 0, mcp, mcp_server: mcpServer, warning: [warning, beside].filter(Boolean).join(' ') || null };
  },
});

/** Writes one of a new board's files; a failure says what of the board was made before it (init makes the rest when run again). */
function writeMade(path: string, content: string, shown: string, created: readonly string[]): void {
  try {
    writeFileAtomic(path, content, shown);
  } catch (err) {
    if (!(err instanceof AgentboardError) || created.length === 0) throw err;
    const made = `${created.join(', ')} ${created.length === 1 ? 'was' : 'were'} made already, and running init again makes the rest.`;
    throw new AgentboardError(err.code, err.message.replace('Nothing was changed.', made), err.nextStep);
  }
}

/**
 * Where init makes the board. --root names the place (a second board made on purpose, say; its
 * agentd/ folder names its root, as for every command). Otherwise this folder, refused when a
 * board above it in the same repository (or, outside git, anywhere above) already serves it: every
 * command run here uses that one. A board made below the top of its git repository is found only
 * from its own folder down, and init says so.
 */
function placeOfBoard(ctx: Context, wiresClients: boolean): { root: string; warning: string | null } {
  if (ctx.root !== undefined) {
    // The board goes into the folder --root names: init makes agentd/ there, never the folder itself.
    const st = statSync(ctx.root, { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      fail('NOT_A_FOLDER', `--root ${ctx.root} ${st ? 'is a file, not a folder' : 'does not exist'}, so no board was made there; nothing was changed.`, st ? 'Give --root the folder (your repository root) to make the board in.' : `Make the folder first (\`mkdir -p ${ctx.root}\`), or give --root an existing folder.`);
    }
    return { root: findRoot(ctx.root) ?? ctx.root, warning: null };
  }
  const here = resolve(ctx.cwd);
  const above = findRoot(undefined, here);
  const repository = repositoryRootOf(here);
  if (above !== null && above !== here && (repository === null || !relative(repository, above).startsWith('..'))) {
    // Wiring clients to the board that serves this folder: their files go beside it, where the clients are started.
    if (wiresClients) {
      return {
        root: above,
        warning: `A board already serves this folder: ${join(above, BOARD_DIR)}/; no second board was made, and the MCP clients were wired at its root (${above}): they read those files when started there.`,
      };
    }
    fail(
      'BOARD_EXISTS',
      `A board already serves this folder: ${join(above, BOARD_DIR)}/ (every command run in ${here} uses it); no second board was made.`,
      `Nothing needs making: commands run here use that board. To make a separate board for ${here} on purpose, run ${refTo('board.init')} with --root ${here}.`,
    );
  }
  if (repository === null || repository === here) return { root: here, warning: null };
  const clients = wiresClients ? '; the MCP clients read the files written here only when started in this folder' : '';
  return {
    root: here,
    warning: `${here} is not the top of its git repository (${repository}): commands find this board only when run in ${here} or a folder below it${clients}. To have the board at the top of the repository instead, remove ${join(here, BOARD_DIR)}/ and run ${refTo('board.init')} in ${repository}.`,
  };
}

const ChangeSummary = z.object({
  change_id: z.string(),
  title: z.string(),
  phase: Phase,
  waiting_on: z.string().nullable(),
  documents: z.object({ proposal: DocState, spec: DocState, tasks: DocState, review: DocState }),
  tasks: z.object({ total: z.number().int(), done: z.number().int() }),
  verdict: z.string().nullable(),
  archived: z.string().nullable().describe('Where an archived change is (read-only); null for an open one.'),
});

/** A change summed up; its tasks from `list` (a quick read of its task list) when given. */
function summarize(reader: Reader, change: SummedChange, archived: ArchivedChange | null = null, list: TaskList | null = null): z.input<typeof ChangeSummary> {
  const info = archived ? { phase: 'archived' as const, waiting_on: null } : phaseOf(reader, change, list);
  const tasks = list?.tasks ?? tasksOf(change.tasks);
  return {
    change_id: change.changeId,
    title: changeTitle(change),
    phase: info.phase,
    waiting_on: info.waiting_on,
    archived: archived ? `${BOARD_DIR}/archive/${archived.folder}` : null,
    documents: {
      proposal: stateOf(change.proposal),
      spec: stateOf(change.spec),
      tasks: list ? list.meta.status : stateOf(change.tasks),
      review: stateOf(change.review),
    },
    tasks: { total: tasks.length, done: tasks.filter((t) => t.status === 'done').length },
    verdict: change.review?.content?.[0]?.verdict ?? null,
  };
}

export const listChanges = defineOp({
  name: 'change.list',
  summary: 'List the changes with their phase and progress',
  access: 'read',
  input: z.strictObject({
    phase: Phase.optional().describe('Only changes in this phase ("archived": archived ones).'),
    archived: z.boolean().default(false).describe('Also list archived changes (read-only).'),
    ...pageInput('changes'),
  }),
  output: z.object({
    changes: z.array(ChangeSummary),
    archived: z.array(z.object({ change_id: z.string(), date: z.string(), folder: z.string() })),
    archived_count: z.number().int().describe('How many changes are archived (list them with archived: true or phase: "archived").'),
    ...Page,
  }),
  cli: { command: 'list' },
  tool: {
    name: 'agentboard_list_changes',
    title: 'List changes',
    description: 'List the changes: their phase, what each waits on, and task progress.',
    profiles: ['planner', 'reviewer', 'agent'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const archived = board.archived();
    const open = input.phase === 'archived' ? [] : board.changeIds().map((id) => {
      const { change, list } = loadSummed(board, id);
      return summarize(board, change, null, list);
    });
    const old = input.archived || input.phase === 'archived' ? archived.map((a) => summarize(board, loadChangeToRead(board, { changeId: a.change_id, archived: a }), a)) : [];
    const all = [...open, ...old];
    const filtered = input.phase ? all.filter((c) => c.phase === input.phase) : all;
    const result = page(ctx, 'changes', filtered, input, { archived: input.archived || input.phase === 'archived' ? archived : [], archived_count: archived.length }, (c) => c.change_id);
    // A filter that leaves nothing says so, rather than that there are no changes.
    if (input.phase && filtered.length === 0 && all.length > 0) result.notice ??= `No change is in phase ${input.phase}; ${all.length} ${all.length === 1 ? 'is' : 'are'} in other phases.`;
    return result;
  },
});

export const showChange = defineOp({
  name: 'change.show',
  summary: 'Show one change: phase, documents and tasks',
  access: 'read',
  input: z.strictObject({ change_id: ChangeId, ...pageInput('task ids') }),
  output: ChangeSummary.extend({
    document_files: z.array(z.object({ document: z.string(), file: z.string(), status: DocState.unwrap(), author: z.string(), updated: z.string(), revision: z.number().int(), unreadable: z.boolean().describe('The file cannot be read: status and author are not known.') })),
    task_ids: z.array(z.string()).describe('One page of the task ids.'),
    ...Page,
  }),
  cli: { command: 'show', args: ['change_id'] },
  tool: {
    name: 'agentboard_get_change',
    title: 'Get a change',
    description: `One change: its phase, what it waits on, its documents and a page of its task ids. Read a document with ${refTo('document.get')}.`,
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const toRead = changeToRead(board, input.change_id);
    const change = loadChangeToRead(board, toRead);
    const summary = {
      ...summarize(board, change, toRead.archived),
      document_files: DOC_TYPES.flatMap((type) => {
        const doc = change[type];
        return doc ? [{ document: type, file: doc.file, status: stateOf(doc)!, author: doc.meta.author, updated: doc.meta.updated, revision: doc.meta.revision, unreadable: doc.content === null }] : [];
      }),
    };
    const ids = tasksOf(change.tasks).map((t) => `${input.change_id}/${t.id}`);
    return pageOf(ctx, 'task ids', ids, input, (task_ids, info) => ({ ...summary, task_ids, ...info }), (id) => id);
  },
});

/** Every finding for one change: the documents, their order, and what ties them together. */
export function changeFindings(change: LoadedChange): Finding[] {
  const findings: Finding[] = [];
  const requirementIds = requirementIdsOf(change.spec);
  let missingBefore: Stage | null = null;
  if (change.design) findings.push(...checkDoc(change.design, change.changeId));
  for (const type of STAGES) {
    const doc = change[type];
    if (!doc) {
      missingBefore ??= type;
      continue;
    }
    findings.push(...checkDoc(doc, change.changeId, { requirementIds }));
    if (missingBefore && doc.meta.status !== 'template') {
      new FindingSink(doc.file, 0, findings).error('pipeline.order', `${doc.file.split('/').pop()} exists but the ${docWord(missingBefore)} before it does not`, `write the ${missingBefore} first; a change runs proposal → spec → tasks → review`);
    }
  }
  return findings;
}

export const validateChanges = defineOp({
  name: 'change.validate',
  summary: 'Validate changes with the rules every write uses; exit 1 when invalid',
  access: 'read',
  input: z.strictObject({
    change_id: ChangeId.optional().describe('The change to validate; every open change when left out.'),
    all: z.boolean().default(false).describe('Validate every open change (the default when no change_id is given).'),
    strict: z.boolean().default(false).describe('Count warnings as failures.'),
    ...pageInput('findings', LimitOrAll),
  }),
  output: z.object({
    valid: z.boolean(),
    strict: z.boolean(),
    errors: z.number().int(),
    warnings: z.number().int(),
    checked: z.number().int().describe('How many changes were checked.'),
    changes: z.array(z.object({ change_id: z.string(), archived: z.boolean().describe('Archived: read-only.'), valid: z.boolean(), findings: z.array(FindingOut) })).describe('The changes checked, those with findings first; a page holds those of its findings, and of the changes with none, its share.'),
    findings: z.array(FindingOut).describe('Findings about the board itself (config.yaml).'),
    hand_edited: z.array(z.string()).describe('Documents of the changes checked edited by hand since agentboard last wrote them; the next write merges them.'),
    ...Page,
  }),
  cli: { command: 'validate', args: ['change_id?'], exitCode: (data) => ((data as { valid: boolean }).valid ? 0 : 1) },
  tool: {
    name: 'agentboard_validate_change',
    title: 'Validate a change',
    description:
      'Check a change (or all) against the rules every write applies; each finding has a file, line, rule, message and fix. Use it after hand edits or before asking for a review.',
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const boardFindings: Finding[] = [];
    try {
      void board.config;
    } catch (err) {
      if (!(err instanceof AgentboardError)) throw err;
      boardFindings.push({ level: 'error', file: board.rel(board.configPath), rule: 'config.invalid', message: err.message, fix: err.nextStep });
    }
    // One change may be an archived one, read where it is archived; every change means the open ones.
    const one = input.change_id ? changeToRead(board, input.change_id) : null;
    let toRead: ChangeToRead[] = [];
    try {
      toRead = one && !input.all ? [one] : board.changeIds().map((changeId) => ({ changeId, archived: null }));
    } catch (err) {
      if (!(err instanceof AgentboardError)) throw err;
      boardFindings.push({ level: 'error', file: board.rel(board.changesDir), rule: 'board.unreadable', message: err.message, fix: err.nextStep });
    }
    boardFindings.push(...board.problems, ...board.gatesOpened());
    if (!one || input.all) boardFindings.push(...board.goneChanges());
    // Archived changes are read-only, and checked one at a time: a board-wide check says it leaves them out.
    const archived = !one || input.all ? board.archived() : [];
    if (archived.length > 0) {
      const n = archived.length;
      board.notices.push({ kind: 'archived', message: `${n === 1 ? '1 archived change was' : `${n} archived changes were`} not checked (archived changes are read-only): check ${n === 1 ? 'it' : 'one'} with ${refTo('change.validate', { change_id: archived.at(-1)!.change_id })}.` });
    }
    const failing = (f: Finding) => f.level === 'error' || input.strict;
    const changes = toRead.map((change) => {
      const findings = [...changeFindings(loadChangeToRead(board, change)), ...(change.archived ? [] : [...board.goneDocs(change.changeId), ...board.decisionsByHand(change.changeId), ...board.doneByHand(change.changeId), ...board.missingByHand(change.changeId), ...conflictFindings(board, change.changeId)])];
      return { change_id: change.changeId, archived: change.archived !== null, valid: !findings.some(failing), findings };
    });
    // Those with findings first: a page holds them.
    const ordered = [...changes.filter((c) => c.findings.length > 0), ...changes.filter((c) => c.findings.length === 0)];
    // The rows paged: each finding, and each change with none (so that every change checked is on some page, however many there are).
    type Row = { change: string | null; f: Finding | null };
    const every: Row[] = [...boardFindings.map((f): Row => ({ change: null, f })), ...ordered.flatMap((c): Row[] => (c.findings.length > 0 ? c.findings.map((f) => ({ change: c.change_id, f })) : [{ change: c.change_id, f: null }]))];
    const summary = {
      valid: !every.some(({ f }) => f !== null && failing(f)),
      hand_edited: board.handEditedDocs(toRead.filter((c) => c.archived === null).map((c) => c.changeId)).map((d) => board.rel(board.docPath(d.changeId, d.type))),
      strict: input.strict,
      errors: every.filter(({ f }) => f?.level === 'error').length,
      warnings: every.filter(({ f }) => f?.level === 'warning').length,
      checked: changes.length,
    };
    // A page of the findings, the board's then each change's, and of the changes with none.
    return pageOf(ctx, 'findings', every, input, (slice, info) => ({
      ...summary,
      changes: ordered.filter((c) => slice.some((x) => x.change === c.change_id)).map((c) => ({ ...c, findings: slice.filter((x) => x.change === c.change_id && x.f !== null).map((x) => x.f!) })),
      findings: slice.filter((x) => x.change === null).map((x) => x.f!),
      ...info,
    }));
  },
});

export const archiveChange = defineOp({
  name: 'change.archive',
  summary: 'Archive a finished change (latest review APPROVED, every task done)',
  access: 'human',
  input: z.strictObject({ agent_id: Actor, change_id: ChangeId }),
  output: z.object({
    change_id: z.string(),
    archived_to: z.string(),
    worktrees_removed: z.array(z.string()).describe("The task worktrees `agentboard run` made for the change, removed (their branches stay)."),
    worktrees_kept: z.array(z.object({ path: z.string(), reason: z.string() })).describe('Task worktrees with work left in them, kept.'),
  }),
  cli: { command: 'archive', args: ['change_id'] },
  async run(ctx, input) {
    requireHuman(input.agent_id, 'Archiving a change');
    const board = ctx.board();
    const archived = await board.mutate((tx) => {
      requireChange(tx, input.change_id);
      const change = loadChange(tx, input.change_id);
      // A verdict set by a hand edit decides nothing (store/decisions.ts): reading the review kept agentboard's.
      const forged = tx.refusedDecisions(input.change_id, 'review').find((c) => c.part === 'plan');
      if (forged && change.review) {
        const now = latestVerdict(String((forged.person as { body?: unknown }).body ?? ''));
        const recorded = change.review.content?.[0]?.verdict;
        fail(
          'ARCHIVE_REFUSED',
          `Change ${input.change_id} cannot be archived: the verdict ${now ?? 'of its latest review'} in ${change.review.file} was set by a hand edit, where agentboard recorded ${recorded ?? 'no review round'}; a hand edit decides nothing.`,
          recorded
            ? `A reviewer records a new round with ${refTo('review.create', { change_id: input.change_id })}; until then set the heading back to "# Verdict: ${recorded}" (\`agentboard validate ${input.change_id}\` shows the line).`
            : `A reviewer records the review with ${refTo('review.create', { change_id: input.change_id })} (\`agentboard validate ${input.change_id}\` shows the line written by hand).`,
        );
      }
      // A review that cannot be read whole (an unknown verdict, a broken round) decides nothing: its problem is named.
      if (change.review?.error) throw change.review.error;
      const broken = change.review?.findings.find((f) => f.level === 'error');
      if (broken) {
        fail('ARCHIVE_REFUSED', `Change ${input.change_id} cannot be archived: its review cannot be read (${broken.file}${broken.line ? `:${broken.line}` : ''}: ${broken.message}).`, `Fix ${broken.file} (${broken.fix}); run ${refTo('change.validate', { change_id: input.change_id })} to see every problem.`);
      }
      const verdict = change.review?.content?.[0]?.verdict;
      const open = tasksOf(change.tasks).filter((t) => t.status !== 'done');
      if (!verdict) {
        // Said with where the change is, and what it waits on before a review can approve it.
        const { phase, waiting_on } = phaseOf(tx, change);
        const before = phase === 'review' ? '' : ` It is in its ${phase} phase, waiting on ${waiting_on ?? 'nothing'}, and a review comes once every task is done.`;
        fail('ARCHIVE_REFUSED', `Change ${input.change_id} cannot be archived: it has no review yet, and archiving takes a review whose verdict is APPROVED.${before}`, phase === 'review' ? `A reviewer records the review with ${refTo('review.create', { change_id: input.change_id })}.` : `See what it waits on with ${refTo('change.show', { change_id: input.change_id })}.`);
      }
      if (verdict !== 'APPROVED') {
        fail('ARCHIVE_REFUSED', `Change ${input.change_id} cannot be archived: its latest review says ${verdict}.`, `Fix the issues, then a reviewer records a new review round with ${refTo('review.create', { change_id: input.change_id })}.`);
      }
      if (open.length > 0) {
        fail('ARCHIVE_REFUSED', `Change ${input.change_id} cannot be archived: ${open.length} task${open.length === 1 ? ' is' : 's are'} not done (${open.slice(0, 5).map((t) => `${t.id} ${t.status}`).join(', ')}).`, `Finish or remove those tasks first (${refTo('task.list')}).`);
      }
      const folder = `${tx.now.slice(0, 10)}-${input.change_id}`;
      const target = join(board.archiveDir, folder);
      if (existsSync(target)) fail('ARCHIVE_REFUSED', `agentd/archive/${folder} already exists.`, 'Move or rename that archive folder first.');
      tx.archiveChange(input.change_id, folder);
      tx.log(input.agent_id, 'change.archive', input.change_id, `archived ${input.change_id} to agentd/archive/${folder}`, input.change_id);
      return { change_id: input.change_id, archived_to: board.rel(target) };
    });
    // git through the engine's runner (execa), loaded only now.
    const { removed, kept } = await (await import('../engine/git.js')).letGoOfWorktrees(board.root, input.change_id);
    return { ...archived, worktrees_removed: removed, worktrees_kept: kept };
  },
});

export const CHANGE_OPS = [initBoard, listChanges, showChange, validateChanges, archiveChange];
