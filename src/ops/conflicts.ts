/**
 * What merging people's edits could not reconcile: both values are kept (one in the file, the other
 * here) until a person has looked. status and validate show them; a person clears them. Beside
 * them, the board files a git merge (or rebase, cherry-pick, revert) left unresolved: unmerged in
 * git's index, or holding conflict markers. agentboard reads none of those until a person resolves
 * them, so they are listed with the git commands that finish the job.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { Finding } from '../domain/findings.js';
import type { Board } from '../store/board.js';
import { mergeConflict } from '../store/conflict-markers.js';
import { filesUnder, readBoardFile } from '../store/fs.js';
import { gitSync } from '../store/git-sync.js';
import type { RecordedConflict } from '../store/transaction.js';
import { page, Page, pageInput } from './pages.js';
import { defineOp, requireHuman } from './registry.js';
import { Actor, line } from './schemas.js';

export const ConflictOut = z.object({
  file: z.string(),
  item: z.string().describe('Task id; "#meta" (frontmatter, title, intro); or the heading of a part of a body merged line by line.'),
  part: z.enum(['plan', 'state', 'removed', 'added']).describe('"added": a task added by hand to an approved list, left out of the file.'),
  kept: z.enum(['agentboard', 'person']).describe('Whose value the file holds now.'),
  agentboard: z.unknown().describe("agentboard's values."),
  person: z.unknown().describe("The person's values."),
  at: z.string(),
});

const GIT_OPERATIONS = ['merge', 'rebase', 'cherry-pick', 'revert'] as const;
type GitOperation = (typeof GIT_OPERATIONS)[number];

export const GitConflictOut = z.object({
  file: z.string(),
  unmerged: z.boolean().describe("git's index holds it unmerged (git status: both modified, added or deleted)."),
  line: z.number().int().nullable().describe('The line of its first <<<<<<< marker; null when it holds none.'),
  end_line: z.number().int().nullable().describe('The line of the >>>>>>> marker that ends that conflict.'),
});
type GitConflict = z.infer<typeof GitConflictOut>;

/** The git state files that say an operation stopped half-way, by the operation. */
const MIDWAY: [GitOperation, string][] = [
  ['merge', 'MERGE_HEAD'],
  ['rebase', 'rebase-merge'],
  ['rebase', 'rebase-apply'],
  ['cherry-pick', 'CHERRY_PICK_HEAD'],
  ['revert', 'REVERT_HEAD'],
];

/**
 * What git says of the board's files: the operation that stopped half-way (null when none, or when
 * the board is not in a git repository, or git is not installed), and the board files its index
 * holds unmerged.
 */
function gitState(board: Board, env: Readonly<Record<string, string | undefined>>): { operation: GitOperation | null; unmerged: string[] } {
  const git = (args: string[]) => gitSync(args, { cwd: board.root, env: { ...env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' }, timeoutMs: 10_000 });
  const paths = git(['rev-parse', '--path-format=absolute', ...MIDWAY.flatMap(([, name]) => ['--git-path', name])]);
  if (paths.code !== 0) return { operation: null, unmerged: [] };
  const at = paths.stdout.toString('utf8').split('\n');
  const operation = MIDWAY.find((_, i) => at[i] && existsSync(at[i]!))?.[0] ?? null;
  const listed = git(['ls-files', '--unmerged', '-z', '--', board.rel(board.dir)]);
  if (listed.code !== 0) return { operation, unmerged: [] };
  // Each entry is "<mode> <object> <stage>\t<path>", one per stage.
  const unmerged = listed.stdout.toString('utf8').split('\0').flatMap((entry) => (entry.includes('\t') ? [entry.slice(entry.indexOf('\t') + 1)] : []));
  return { operation, unmerged: [...new Set(unmerged)] };
}

/** Where a board file holds an unresolved conflict (its markers); null when it holds none or cannot be read. */
function markersIn(path: string, shown: string): { start: number; end: number } | null {
  try {
    const read = readBoardFile(path, shown);
    return read && read.text.includes('<<<<<<< ') ? mergeConflict(read.text) : null;
  } catch {
    return null;
  }
}

/**
 * The board files a git merge left in conflict: those git's index holds unmerged, and those (outside
 * the archive and the runtime store) that hold conflict markers, whether git still says so or not.
 */
export function gitConflicts(board: Board, env: Readonly<Record<string, string | undefined>>): { operation: GitOperation | null; files: GitConflict[] } {
  const { operation, unmerged } = gitState(board, env);
  const shown = board.rel(board.dir);
  // Read only through plain folders (filesUnder follows no link); a file git names elsewhere is listed unread.
  const plain = new Set(filesUnder(board.dir).filter((f) => !f.startsWith('archive/')).map((f) => `${shown}/${f}`));
  const files: GitConflict[] = [];
  for (const file of [...new Set([...unmerged, ...plain])].sort()) {
    const markers = plain.has(file) ? markersIn(join(board.root, file), file) : null;
    const isUnmerged = unmerged.includes(file);
    if (markers || isUnmerged) files.push({ file, unmerged: isUnmerged, line: markers?.start ?? null, end_line: markers?.end ?? null });
  }
  return { operation, files };
}

/** What a person (or an agent that may) does about the files a git merge left in conflict. */
function gitNextStep(operation: GitOperation | null, files: GitConflict[]): string | null {
  if (files.length === 0) return null;
  const named = (fs: GitConflict[], many: string) => (fs.length === 1 ? fs[0]!.file : many);
  // A file git still holds unmerged may hold no markers: a sync of a shared board wrote the board over git's mix, a person resolved it, or one side deleted it.
  const marked = files.filter((f) => f.line !== null);
  const unmarked = files.filter((f) => f.line === null);
  const steps = [
    ...(marked.length > 0 ? [`Resolve ${named(marked, 'each file with markers')}: keep one side or both and remove the <<<<<<<, ======= and >>>>>>> lines, then git add ${named(marked, 'each')}`] : []),
    ...(unmarked.length > 0
      ? [`${named(unmarked, 'the files listed without a line')} ${unmarked.length === 1 ? 'holds' : 'hold'} no conflict markers (a sync of the shared board settles a board file so, or one side deleted it): once ${unmarked.length === 1 ? 'it is' : 'they are'} as ${unmarked.length === 1 ? 'it' : 'they'} should be, mark ${unmarked.length === 1 ? 'it' : 'each'} settled with git add ${named(unmarked, '<file>')} (git rm to delete it)`]
      : []),
  ];
  const finish =
    operation === 'merge'
      ? '; then finish the merge with git commit (or drop it with git merge --abort)'
      : operation === null
        ? ''
        : `; then go on with git ${operation} --continue (or drop it with git ${operation} --abort)`;
  const until = marked.length > 0 ? ` Until then agentboard neither reads nor writes ${marked.length === 1 ? 'it' : 'those with markers'}, and hands out no task of a task list in conflict.` : '';
  return `${steps.join('; ')}${finish}.${until}`;
}

export function describeConflict(c: RecordedConflict): string {
  if (c.part === 'removed') return `${c.item} is missing from the person's file but was kept (remove a task with \`agentboard task rm\`)`;
  if (c.part === 'added') return `${c.item} was added by hand to a task list a person approved and was left out of the file; what it held is recorded here (a person adds a task with \`agentboard task add\`)`;
  return `${c.item}: the person's ${c.part} and agentboard's differ; ${c.kept === 'person' ? "the person's" : "agentboard's"} is in the file, the other is recorded here`;
}

/** Conflicts as validate findings of the change they belong to (warnings: nothing is lost, a person should look). */
export function conflictFindings(board: Board, changeId: string): Finding[] {
  const prefix = `agentd/changes/${changeId}/`;
  return board
    .readConflicts()
    .filter((c) => c.file.startsWith(prefix))
    .map((c) => ({ level: 'warning', file: c.file, rule: 'merge.conflict', message: describeConflict(c), fix: 'look at both values with `agentboard conflicts list`, fix the file by hand if needed, then `agentboard conflicts clear`' }));
}

export const listConflicts = defineOp({
  name: 'conflict.list',
  summary: "Board files a git merge left unresolved, and what merging people's edits with agents' work kept on both sides",
  access: 'read',
  input: z.strictObject({ file: line(500).optional().describe('Only conflicts of this file (as agentd/changes/<change>/tasks.md).'), ...pageInput('conflicts') }),
  output: z.object({
    git_conflicts: z.array(GitConflictOut).describe('Board files a git merge, rebase, cherry-pick or revert left unresolved; agentboard reads none of them until they are resolved.'),
    git_operation: z.enum(GIT_OPERATIONS).nullable().describe('The git operation that stopped half-way; null when none did.'),
    next_step: z.string().nullable().describe('What to do about git_conflicts; null when there are none.'),
    conflicts: z.array(ConflictOut),
    hand_edited: z.array(z.string()).describe('Files a person edited since agentboard last wrote them; the next write merges them.'),
    ...Page,
  }),
  cli: { command: 'conflicts list' },
  tool: {
    name: 'agentboard_list_conflicts',
    title: 'List merge conflicts',
    description: "List board files a git merge left unresolved (with how to finish it), what agentboard kept of both sides where a person's hand edit disagreed with agents' work, and the hand-edited files the next write merges.",
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const conflicts = board.readConflicts().filter((c) => !input.file || c.file === input.file);
    const git = gitConflicts(board, ctx.env);
    const files = git.files.filter((f) => !input.file || f.file === input.file);
    const besides = { git_conflicts: files, git_operation: git.operation, next_step: gitNextStep(git.operation, files) };
    return { ...besides, ...page(ctx, 'conflicts', conflicts, input, besides), hand_edited: board.handEdited() };
  },
});

export const clearConflicts = defineOp({
  name: 'conflict.clear',
  summary: 'Clear recorded merge conflicts once a person has looked (people only)',
  access: 'human',
  input: z.strictObject({ agent_id: Actor, file: line(500).optional().describe('Only the conflicts of this file.') }),
  output: z.object({ cleared: z.number().int() }),
  cli: { command: 'conflicts clear' },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Clearing merge conflicts');
    return ctx.board().mutate((tx) => {
      const cleared = tx.clearConflicts(input.file);
      if (cleared > 0) tx.log(input.agent_id, 'conflict.clear', input.file ?? 'agentd', `cleared ${cleared} merge conflict${cleared === 1 ? '' : 's'}${input.file ? ` of ${input.file}` : ''}`);
      return { cleared };
    });
  },
});

export const CONFLICT_OPS = [listConflicts, clearConflicts];
