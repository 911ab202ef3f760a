/**
 * A board on disk: where its files are, how to read them safely, and the one way to change them
 * (mutate: the board lock, recovery of an interrupted commit, a transaction, commit, and the merge
 * of any save a person made while agentboard wrote).
 */
import { closeSync, constants, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import { now as processNow } from '../clock.js';
import { AgentboardError, fail } from '../errors.js';
import { refTo, SAME_CALL } from '../domain/refs.js';
import { changeIdProblem } from '../domain/ids.js';
import { printable } from '../domain/text.js';
import { FindingSink, type Finding } from '../domain/findings.js';
import { DOC_FILES, DOC_TYPES, DOC_WORDS, type DocMeta, type DocType } from '../domain/model.js';
import type { RuntimeData } from '../domain/records.js';
import { expireInputs } from '../domain/sessions.js';
import { readActivity, type ActivityEntry } from './activity.js';
import { parseConfig, type Config } from './config.js';
import { parseDocText, unparsable, unreadableDoc, type DocFile } from './documents.js';
import { checkDirs, fsError, hasBom, isHardLinked, newToken, readBoardFile, relativePath, syncAll, TEMP_FILE, textOf, unlinkIfThere, unsafePath, writeFileAtomic, type FileRead } from './fs.js';
import { applyJournal, discardTemps, DONE_FILE, durableSet, heldBy, journalComplete, JOURNAL_FILE, keptSaveName, keptSavePath, KEPT_SAVE, linkInPlace, nextHeld, pendingCommit, readJournal, removeJournal, type Journal, type Pending } from './journal.js';
import { readMeta } from './doc-meta.js';
import { asRecorded, handDecision, handDecisionFindings, mayHoldDecision, missingTaskFinding, unrecordedDecision, withState, type HandDecision } from './decisions.js';
import { blobId, committedBlobs, committedFile, headCommit } from './git-head.js';
import { gitSync } from './git-sync.js';
import { STATE_BY_PERSON, type MergeConflict } from './merge.js';
import { baseItems, emptyLedger, headerEntry, META_ITEM, hashText, parseLedger, parseLedgerHeader, restoreDoc, type Ledger, type LedgerEntry, type LedgerHeader } from './ledger.js';
import { BOM, splitFrontmatter, withLf, withoutBom } from './markdown.js';
import { listOf, scanTaskList, SUMMARY_STATE, type TaskList } from './task-scan.js';
import { quickMeta, type HeadMeta } from './quick-meta.js';
import { refuseMergeConflict } from './conflict-markers.js';
import { CALLS_DIR } from './calls.js';
import { BoardLock, HOLDER_FILE, processRuns, type LockOptions } from './lock.js';
import { openRuntime } from './runtime.js';
import { parsePeople, PEOPLE_FILE } from './people.js';
import { lineOfPath } from './yaml-lite.js';
import type { PersonRecord } from '../domain/people.js';
import { LostLock, StaleRead, Transaction, type Publish, type Raced, type Reader, type RecordedConflict } from './transaction.js';
import { RemoteFiles } from './remote/state.js';
import { foldersOf, type Listing } from './remote/tree.js';
import type { SharedBoard } from './remote/shared.js';

export const BOARD_DIR = 'agentd';

/** The transaction of the batch a call runs in (Board.writeBatch), seen by its writes. */
const batchScope = new AsyncLocalStorage<Transaction>();

/** What became of one job of a batch. */
export type BatchOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The HEAD file of the git repository (or worktree) that holds `root`; null when none does. */
function gitHeadFile(root: string): string | null {
  const top = repositoryRootOf(root);
  if (top === null) return null;
  const dotGit = join(top, '.git');
  try {
    if (lstatSync(dotGit).isDirectory()) return join(dotGit, 'HEAD');
    // A worktree's (or a submodule's): "gitdir: <its folder in the main repository>".
    const linked = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
    return linked ? join(resolve(top, linked.trim()), 'HEAD') : null;
  } catch {
    return null;
  }
}

/** What HEAD names: the branch checked out (`refs/heads/main`), `detached`, or null when it cannot be read. */
function checkedOut(headFile: string | null): string | null {
  if (headFile === null) return null;
  try {
    const head = readFileSync(headFile, 'utf8').trim();
    return head.startsWith('ref: ') ? head.slice(5) : /^[0-9a-f]{40,64}$/.test(head) ? 'detached' : null;
  } catch {
    return null;
  }
}

/** The first line of a file; null when the file cannot be read. */
function readFirstLine(path: string, listed = false): string | null {
  if (!listed && !lstatSync(path, { throwIfNoEntry: false })) return null;
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    let start = Buffer.alloc(0);
    const buf = Buffer.allocUnsafe(8192);
    for (let at = 0; ; ) {
      const n = readSync(fd, buf, 0, buf.length, at);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) return Buffer.concat([start, buf.subarray(0, nl)]).toString('utf8');
      start = Buffer.concat([start, buf.subarray(0, n)]);
      at += n;
    }
    return start.toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Finds the repository root: `explicit` (the root or its agentd/ folder), else the nearest ancestor holding agentd/. */
export function findRoot(explicit: string | undefined, cwd = process.cwd()): string | null {
  const isBoard = (dir: string) => {
    try {
      return statSync(join(dir, BOARD_DIR)).isDirectory();
    } catch {
      return false;
    }
  };
  if (explicit !== undefined) {
    const dir = resolve(cwd, explicit);
    if (isBoard(dir)) return dir;
    if (basename(dir) === BOARD_DIR && isBoard(dirname(dir))) return dirname(dir);
    return null;
  }
  return nearest(cwd, isBoard);
}

/** The nearest of `dir` and the folders above it that `holds`, or null. */
function nearest(dir: string, holds: (dir: string) => boolean): string | null {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (holds(d)) return d;
    if (dirname(d) === d) return null;
  }
}

/** The top of the git working tree `dir` is in: the nearest folder holding .git (a worktree's is a file), or null. */
export function repositoryRootOf(dir: string): string | null {
  return nearest(dir, (d) => existsSync(join(d, '.git')));
}

/**
 * The board of the run that started this process, where the board found from `cwd` is only the copy
 * of agentd/ that the agent's worktree holds (the files of its task's branch): an agent `agentboard
 * run` started there (AGENTBOARD_AGENT_ID, with AGENTBOARD_WORKDIR its worktree) works on the run's
 * board, AGENTBOARD_ROOT. Null for every other process and folder (a board the agent makes
 * elsewhere, in its tests, say, stays that board).
 */
export function runBoardOf(cwd: string, env: Readonly<Record<string, string | undefined>>): string | null {
  const { AGENTBOARD_AGENT_ID: agent, AGENTBOARD_ROOT: root, AGENTBOARD_WORKDIR: workdir } = env;
  if (!agent || !root || !workdir) return null;
  const found = findRoot(undefined, cwd);
  if (found === null) return null;
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const board = findRoot(root);
  const here = real(found);
  return board !== null && here === real(workdir) && here !== real(board) ? board : null;
}

/**
 * The board of the repository's main worktree, when the board at `root` is the copy of agentd/ that
 * a linked git worktree holds (the files of that worktree's branch) and the main worktree holds a
 * board at the same place; else null. Read from the worktree's .git file and its commondir, with no
 * git started.
 */
export function mainWorktreeBoardOf(root: string): string | null {
  const top = repositoryRootOf(root);
  if (top === null) return null;
  try {
    const gitdir = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(readFileSync(join(top, '.git'), 'utf8'))?.[1];
    if (gitdir === undefined) return null; // .git is a folder: the main worktree (or a repository of its own)
    const worktreeGit = resolve(top, gitdir);
    const common = resolve(worktreeGit, readFileSync(join(worktreeGit, 'commondir'), 'utf8').trim());
    if (basename(common) !== '.git') return null; // a bare repository's worktrees have no main one
    const main = join(dirname(common), relative(top, root));
    return realpathSync(main) !== realpathSync(root) && findRoot(main) === main ? main : null;
  } catch {
    return null; // no commondir (a submodule's .git file), or a folder that cannot be read
  }
}

/**
 * agentd (the tool) keeps its board in a folder of the same name. One that holds agentd's
 * config.toml or .version and no config.yaml of agentboard's is agentd's, not converted yet.
 */
export function isAgentdBoard(boardDir: string): boolean {
  if (existsSync(join(boardDir, 'config.yaml'))) return false;
  return existsSync(join(boardDir, 'config.toml')) || existsSync(join(boardDir, '.version'));
}

/** Refuses to read agentd's board as agentboard's: its files would be a wall of findings, and the fix is one command. */
/**
 * Refuses a board folder that is a symbolic link (a link could lead the board's writes out of the
 * repository), saying how to use the board it leads to: from where it is, when its folder is named
 * agentd/, or moved in place of the link.
 */
export function refuseLinkedBoard(root: string): void {
  const dir = join(root, BOARD_DIR);
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) return;
  let target: string | null = null;
  try {
    target = realpathSync(dir);
  } catch {
    // a link that leads nowhere
  }
  const folder = target !== null && statSync(target).isDirectory();
  const message = `${dir} is a symbolic link${target !== null ? ` to ${target}` : ' that leads nowhere'}; agentboard reads and writes a board only in a plain ${BOARD_DIR}/ folder, so it did not touch it.`;
  if (!folder) fail('UNSAFE_PATH', message, `Remove the link (\`rm ${dir}\`), then restore ${BOARD_DIR}/ from git or make a board with \`agentboard init\`.`);
  const moveHere = `\`rm ${dir} && mv ${target} ${dir}\``;
  fail('UNSAFE_PATH', message, basename(target!) === BOARD_DIR ? `Use the board where it is with --root ${dirname(target!)}, or move it in place of the link: ${moveHere}.` : `Move the folder in place of the link: ${moveHere}.`);
}

export function refuseAgentdBoard(boardDir: string, shown: string): void {
  if (!isAgentdBoard(boardDir)) return;
  fail(
    'AGENTD_BOARD',
    `${shown}/ is a board of agentd (it has agentd's config.toml or .version and no config.yaml), not of agentboard, so agentboard does not read it.`,
    'Convert it with `agentboard import agentd` (its originals are kept under agentd/.imported/), or see first what it would do with `agentboard import agentd --dry-run`.',
  );
}

export interface ArchivedChange {
  change_id: string;
  date: string;
  folder: string;
}

/** A document as read: its parse, its text, and how it relates to what agentboard last wrote. */
export interface Loaded {
  doc: DocFile;
  text: string;
  identity: string;
  /** What the ledger holds of the file: read when the file is a task list (restored from it) or a person's edit (merged onto it). */
  entry: LedgerEntry | undefined;
  /** The file differs from what agentboard last wrote: a person edited it. */
  edited: boolean;
  /** The file starts with a byte order mark (not in `text`), which agentboard's writes of it keep. */
  bom: boolean;
}

/** A document's frontmatter, read without its body, and whether it differs from what agentboard last wrote. */
export interface DocHead {
  meta: HeadMeta;
  /** The identity of the file as read. */
  identity: string;
  edited: boolean;
}

/** A parse kept for as long as the file holds the same text and the ledger the same record of it. */
interface Kept<T> {
  text: string;
  written: string | undefined;
  value: T;
}

/** A frontmatter kept for as long as the file holds the same bytes (its text need not be decoded to tell) and the ledger the same record of it. */
interface KeptHead {
  bytes: Buffer;
  written: string | undefined;
  value: DocHead | null;
}

export type { HeadMeta };

function fullMeta(text: string, shown: string, type: DocType): DocMeta | null {
  const split = splitFrontmatter(withLf(text));
  return split ? (readMeta(split.frontmatter, new FindingSink(shown), type)?.meta ?? null) : null;
}

const BACKSLASH = 0x5c;

/** The hash of a file's text (of its bytes: the same SHA-1), computed once per read content. */
function hashOf(read: FileRead): string {
  return (read.hash ??= hashText(read.bytes));
}

/**
 * Whether a file is what agentboard last wrote (`written`, the hash of its bytes): byte for byte, or
 * but for its line ends (CRLF, LF, a lone CR, or the CR CR LF of a CRLF file converted again) and
 * byte order mark. A checkout with git's core.autocrlf, or an editor that saves with Windows' line ends,
 * changes those alone, and that is no person's edit.
 */
function asWritten(read: FileRead, written: string): boolean {
  return hashOf(read) === written || (read.alike ??= alikeHashes(read.text)).includes(written);
}

/** Whether a file's text (after its byte order mark, if it has one) is what agentboard wrote (`written`), as asWritten tells. */
export function textAsWritten(text: string, written: string | undefined): boolean {
  return written !== undefined && (hashText(text) === written || alikeHashes(withoutBom(text)).includes(written));
}

/**
 * The hashes of a text with LF, CRLF and lone CR line ends, each with and without a byte order mark:
 * the ledger's by default, or `hash`'s (a shared board compares files with git's blob ids).
 */
export function alikeHashes(text: string, hash: (text: string) => string = hashText): string[] {
  const lf = withLf(text);
  const ends = [lf, lf.replace(/\n/g, '\r\n'), lf.replace(/\n/g, '\r')];
  return [...ends, ...ends.map((t) => BOM + t)].map(hash);
}

/** Each document's file name in lowercase, to tell a file named as one but for its case. */
const DOC_BY_LOWERCASE = new Map((Object.keys(DOC_FILES) as DocType[]).map((type) => [DOC_FILES[type].toLowerCase(), type]));

/**
 * The finding on a file named as a document but for its case (`file`; the document's own name is
 * `shown`): not read; with no document beside it, to be renamed; with one, to be merged into it,
 * since a checkout on a file system that ignores case (macOS, Windows) can hold only one of them.
 */
function misnamedFinding(shown: string, file: string, type: DocType, beside: boolean): Finding {
  const name = basename(shown);
  if (!beside) {
    return {
      level: 'error',
      file,
      rule: 'file.name_case',
      message: `${file} is not read: agentboard reads the ${DOC_WORDS[type]} of a change from ${name} only (file names differ by case here), so nothing it holds is shown or handed out, and a write of the ${DOC_WORDS[type]} is refused while it is there.`,
      fix: `Rename it: \`git mv ${file} ${shown}\` (or \`mv\` when it is not in git).`,
    };
  }
  return {
    level: 'error',
    file,
    rule: 'file.name_case',
    message: `${file} is not read: its name differs from ${shown} only by case, and agentboard reads ${name} alone; a checkout on a file system that ignores case (macOS, Windows) keeps only one of the two.`,
    fix: `Move what ${basename(file)} holds that ${name} lacks into ${shown} by hand, then remove it: \`git rm ${file}\` (or \`rm\` when it is not in git).`,
  };
}

/** Something a command should tell its caller besides its result: a merged edit, a recovered write. */
export interface Notice {
  /** 'replaced': a sync took a shared board that another history replaced (store/remote/shared.ts). */
  kind: 'merge_conflict' | 'recovered' | 'unreadable' | 'remote' | 'replaced' | 'worktree' | 'archived';
  message: string;
}

const MAX_ATTEMPTS = 8;

/** What a merge conflict says happened, for whoever made the write. */
function conflictWords(c: MergeConflict): string {
  if (c.item === META_ITEM && c.agentboard === null && typeof c.person === 'string') {
    return "a person's save could not be merged (it was half-written, or saved again at every try to merge it): the file keeps agentboard's text, and the save is recorded whole";
  }
  if (c.part === 'removed') return `${c.item} is missing from the file and was kept (remove a task with \`agentboard task rm\`)`;
  if (c.part === 'added') return `${c.item} was added by hand to a task list a person approved, whose plan no longer changes: it was left out, and what it held is recorded (a person adds a task with \`agentboard task add\`)`;
  const what = `${c.item === META_ITEM ? 'the frontmatter' : c.item}: the ${c.part} of a person's hand edit and agentboard's differ; ${c.kept === 'person' ? "the person's was kept" : "agentboard's was kept"} and both are recorded`;
  if (c.kept === 'person') return what;
  if (c.item === META_ITEM && (c.part === 'state' || c.agentboard !== null)) return `${what} (a hand edit decides nothing: a person approves or rejects a document with \`agentboard approve\` or \`agentboard reject\`, a reviewer records a verdict with \`agentboard review\`)`;
  if (c.part === 'state') return `${what} (a person puts a claimed task back with \`agentboard release\`, or changes its status with \`agentboard task update\`)`;
  return what;
}

/** What a transaction's merges could not reconcile (and the write did not settle), as notices for whoever made the write. */
export function conflictNotices(tx: Pick<Transaction, 'keptConflicts'>): Notice[] {
  return tx.keptConflicts().map((c) => ({ kind: 'merge_conflict' as const, message: `${c.file}: ${conflictWords(c)} (see \`agentboard status\`).` }));
}

export class Board implements Reader {
  readonly dir: string;
  readonly changesDir: string;
  readonly archiveDir: string;
  readonly runtimeDir: string;
  /** agentd/config.yaml: read by nearly every step of an operation (`config`). */
  readonly configPath: string;
  private readonly ledgerDir: string;
  readonly notices: Notice[] = [];
  /** Whether the board was found from the working folder (no --root, no run's board): then a linked worktree's copy is told apart at the first write. */
  foundByFolder = false;
  private worktreeTold = false;
  /** The agent of `agentboard run` this process works for, if any: its writes refuse to merge a hand edit (the run shows it to a person). */
  agentOfRun: string | null = null;
  private configCache: { text: string | null; config: Config } | null = null;
  /** Set by keepSettings(): config.yaml is read no more. */
  private settingsKept = false;
  private done: Journal | null = null;
  private sharedBoard: SharedBoard | null = null;
  /** On a shared board, when this clone first knew of each open question, by its own clock (store/remote/shared.ts): the expiry of questions goes by it too. */
  questionsSeen: (() => Record<string, number>) | null = null;
  /** The files and the folders (changes/<id>, archive/<folder>) of the shared board this clone last synced; null when not shared. */
  private sharedFolders: { files: Listing; folders: Set<string> } | null | undefined;
  /**
   * What was read of each file (null: it was not there) and in which generation (see begin()): a
   * file is read from disk once per generation, and bytes that did not change keep their text, so
   * that every parse kept of it stays good. Nothing is trusted by identity alone: a save in place
   * within one tick of the file system's clock keeps both size and mtime.
   */
  private readonly files = new Map<string, { read: FileRead | null; generation: number }>();
  private generation = 0;
  private pendingSeen: { generation: number; pending: Pending | null } | null = null;
  private readonly docCache = new Map<string, Kept<Loaded>>();
  /** Ledgers read; one written on another branch (what of it is carried here depends on the files) for its generation only. */
  private readonly ledgerCache = new Map<string, { text: string; branch: string | null; ledger: Ledger; generation?: number }>();
  /** HEAD of the git repository holding the board, found once (null: not in git). */
  private headFile: string | null | undefined;
  private branchSeen: { generation: number; branch: string | null } | undefined;
  private commitSeen: { generation: number; commit: string | null } | undefined;
  private idsSeen: { generation: number; ids: string[] } | undefined;
  /** The first line of each ledger, read once per generation (null: no ledger, or none that can be read). */
  private readonly ledgerLines = new Map<string, { generation: number; line: string | null }>();
  /** Ledger headers read in this generation. */
  private readonly headerCache = new Map<string, LedgerHeader>();
  private readonly paths = new Map<string, string>();
  private readonly listCache = new Map<string, Kept<TaskList | null>>();
  private readonly metaCache = new Map<string, KeptHead>();
  /** docHead's answers in this generation: a scan of the board asks for every document's head, call after call of a batch. */
  private readonly headsSeen = new Map<string, { generation: number; head: DocHead | null }>();
  /** The decisions a hand edit made in a document, per generation (they depend on the commit checked out too). */
  private readonly decisionCache = new Map<string, { generation: number; text: string; written: string; value: HandDecision | null }>();
  /** Documents as the commit checked out holds them, read with git once per generation when asked. */
  private readonly committedCache = new Map<string, { generation: number; doc: DocFile | null }>();
  private unsafeEntries: Finding[] = [];
  /** Change folders checked to be plain folders in this generation. */
  private readonly checkedDirs = new Set<string>();
  /** The names in folders of the board (those of changes and of ledgers), listed in this generation (null: the folder could not be listed). */
  private readonly listings = new Map<string, Set<string> | null>();

  /**
   * Starts a new generation: every operation and every write begins one, and whatever it reads is
   * read from disk again (and parsed again only if it changed), what it checks once (that folders
   * are plain folders, what the ledgers say) is checked again. A long-lived process (the MCP
   * server) so keeps what it parsed and still sees every change made by anyone.
   */
  begin(): void {
    this.generation++;
    this.checkedDirs.clear();
    this.listings.clear();
    this.headerCache.clear();
    this.sharedFolders = undefined;
  }

  /** Reads every file from disk again: the files changed under this process (a sync brought the shared board in). */
  reread(): void {
    this.begin();
  }

  /** A file as it is now, read once per generation; null when it is not there. Throws AgentboardError when it cannot be read. */
  private current(path: string, shown: string): FileRead | null {
    const known = this.files.get(path);
    if (known?.generation === this.generation) return known.read;
    const read = this.readFile(path, shown, known?.read ?? undefined);
    this.files.set(path, { read, generation: this.generation });
    return read;
  }

  /** A document's file as it is now (null when absent); throws AgentboardError when it cannot be read or holds an unresolved git merge conflict. */
  private docFile(path: string, shown: string): FileRead | null {
    const read = this.current(path, shown);
    if (read) refuseMergeConflict(read, shown);
    return read;
  }

  /**
   * A file as a committed write left it: from its temp file while that write is not in place yet
   * (pendingCommit: a process killed after committing, or applying its commit right now), else
   * from the file itself.
   */
  private readFile = (path: string, shown: string, previous?: FileRead): FileRead | null => this.readListed(path, (p, listed, twin) => readBoardFile(p, shown, previous, listed, twin));

  /**
   * `read` of a file as committed (asCommitted), told when its folder's listing names it (it is then
   * not looked for first), and not made at all when the listing does not.
   */
  private readListed<T>(path: string, read: (p: string, listed: boolean, twin?: string) => T | null): T | null {
    const listed = this.listed(path);
    let found: T | null = null;
    let linked = false;
    try {
      found = this.asCommitted(path, (p) => (p !== path ? read(p, false) : listed === false ? null : read(p, listed === true)));
    } catch (err) {
      if (!isHardLinked(err)) throw err;
      linked = true; // the commit's temp file linked in, and not yet unlinked: read below, with that name allowed
    }
    if (found !== null || !(linked || this.beingReplaced(path, listed))) return found;
    // A commit is putting its file in place of this one (Transaction's replaceHeld): the name is
    // missing for an instant, then the commit's temp file, which its journal names, is linked in
    // (the file has two names until that temp name goes). Read as the commit leaves it.
    const temp = pendingCommit(this.root, this.runtimeDir, (p) => this.rel(p))?.files.get(path);
    return (temp !== undefined ? read(temp, false, path) : null) ?? read(path, false, temp);
  }

  /**
   * Whether a file found missing may be in the middle of a commit's replacing it: its folder's
   * listing named it (it went since), or holds it moved aside (`.<name>.held…`, replaceHeld).
   */
  private beingReplaced(path: string, listed: boolean | undefined): boolean {
    if (listed !== false) return listed === true;
    const aside = `.${basename(path)}.held`;
    for (const name of this.folderNames(dirname(path)) ?? []) if (name.startsWith(aside)) return true;
    return false;
  }

  /**
   * Whether the folder of a document or a ledger holds its name, by the folder's listing, made once
   * per generation: a scan of the board lists each change's folder once rather than look for each of
   * its documents (most changes lack some). Undefined for other files, and for a folder that could
   * not be listed: those are looked for one by one. What this process commits begins a generation.
   */
  private listed(path: string): boolean | undefined {
    const dir = dirname(path);
    if (dir !== this.ledgerDir && dirname(dir) !== this.changesDir) return undefined;
    return this.folderNames(dir)?.has(basename(path));
  }

  /** The names in a folder of the board, listed once per generation; null when it cannot be listed (not there, or not a folder: said where its files are read). */
  private folderNames(dir: string): Set<string> | null {
    let names = this.listings.get(dir);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(dir));
      } catch {
        names = null;
      }
      this.listings.set(dir, names);
    }
    return names;
  }

  /** `read` of the temp file a committed write not in place yet holds for `path`, when it is still there; else of `path`. */
  private asCommitted<T>(path: string, read: (p: string) => T | null): T | null {
    const temp = this.pending()?.files.get(path);
    return (temp !== undefined ? read(temp) : null) ?? read(path);
  }

  /**
   * The branch checked out in the git repository holding the board (`refs/heads/main`; `detached`
   * for a detached HEAD), read once per generation; null outside git. Ledgers are kept per branch.
   */
  branch(): string | null {
    if (this.headFile === undefined) this.headFile = gitHeadFile(this.root);
    if (this.branchSeen?.generation !== this.generation) this.branchSeen = { generation: this.generation, branch: checkedOut(this.headFile) };
    return this.branchSeen.branch;
  }

  /** The commit HEAD names (git-head.ts headCommit), read once per generation; null outside git or when its files do not tell. */
  private headCommit(): string | null {
    if (this.commitSeen?.generation !== this.generation) this.commitSeen = { generation: this.generation, commit: this.branch() !== null && this.headFile ? headCommit(this.headFile) : null };
    return this.commitSeen.commit;
  }

  /** The committed write not in place yet, looked for once per generation; null when there is none (always, holding the lock: recovery applied it). */
  private pending(): Pending | null {
    if (this.pendingSeen?.generation !== this.generation) this.pendingSeen = { generation: this.generation, pending: pendingCommit(this.root, this.runtimeDir, (p) => this.rel(p)) };
    return this.pendingSeen.pending;
  }

  /** Reads a document from disk again on its next read (one being written by an editor). */
  rereadDoc(changeId: string, type: DocType): void {
    this.files.delete(this.docPath(changeId, type));
    this.headsSeen.delete(this.docPath(changeId, type));
  }

  constructor(readonly root: string) {
    this.dir = join(root, BOARD_DIR);
    this.changesDir = join(this.dir, 'changes');
    this.archiveDir = join(this.dir, 'archive');
    this.runtimeDir = join(this.dir, '.runtime');
    this.ledgerDir = join(this.runtimeDir, 'ledger');
    this.configPath = join(this.dir, 'config.yaml');
  }

  get board(): Board {
    return this;
  }

  static open(explicitRoot?: string, cwd = process.cwd()): Board {
    const root = findRoot(explicitRoot, cwd);
    if (root === null) {
      // In a linked worktree whose branch holds no board, the main worktree's is the one meant.
      const top = explicitRoot === undefined ? repositoryRootOf(cwd) : null;
      const main = top === null ? null : mainWorktreeBoardOf(top);
      fail(
        'BOARD_NOT_FOUND',
        explicitRoot !== undefined ? `No board (an agentd/ folder) is at ${explicitRoot}.` : main !== null ? `No board (an agentd/ folder) was found in this folder or any folder above it: this git worktree's branch holds none, and the repository's main worktree has one, ${join(main, BOARD_DIR)}.` : 'No board (an agentd/ folder) was found in this folder or any folder above it.',
        main !== null ? `Pass --root ${main} to work on that board.` : 'Run `agentboard init` in your repository root, or pass --root DIR.',
      );
    }
    refuseLinkedBoard(root);
    const board = new Board(root);
    refuseAgentdBoard(board.dir, BOARD_DIR);
    return board;
  }

  /** A path relative to the repository root, with forward slashes, for messages and findings. */
  rel(path: string): string {
    return relativePath(this.root, path);
  }

  /** The settings, read again when config.yaml changed (checked once per operation: a long-lived MCP server follows a person's edit). */
  get config(): Config {
    return this.settings().config;
  }

  /**
   * The gates a person keeps that config.yaml opens against the commit checked out, as warnings:
   * an approval require_approval no longer asks for, self-review allowed. An edit not committed
   * takes effect for every agent at once, reviewed by no one: a person sees it here. Nothing
   * outside git, or where the file is as committed.
   */
  gatesOpened(): Finding[] {
    if (this.branch() === null) return [];
    const shown = `${BOARD_DIR}/config.yaml`;
    let before: Config;
    try {
      const committed = committedFile(this.root, this.rel(this.configPath));
      if (!('text' in committed) || committed.text === null || committed.text === this.settings().text) return [];
      before = parseConfig(committed.text, shown);
    } catch {
      return []; // no committed settings to compare with, or ones that do not read: nothing to say
    }
    const now = this.config;
    const out: Finding[] = [];
    const fix = 'commit the change if a person made it on purpose, or put the committed settings back with `git checkout -- agentd/config.yaml`';
    const dropped = before.require_approval.filter((p) => !now.require_approval.includes(p));
    if (dropped.length > 0) out.push({ level: 'warning', file: shown, rule: 'config.gates.opened', message: `require_approval no longer names ${dropped.join(', ')}, which the commit checked out does: this edit, not committed, lets the board go on without a person's approval of ${dropped.length === 1 ? 'it' : 'them'}, for every agent at once`, fix });
    if (!before.review.allow_self_review && now.review.allow_self_review) out.push({ level: 'warning', file: shown, rule: 'config.gates.opened', message: 'review: allow_self_review is true, where the commit checked out has it false: this edit, not committed, lets an agent review work it did itself', fix });
    return out;
  }

  /** The settings with the text they were read from. */
  private settings(): { text: string | null; config: Config } {
    if (this.settingsKept) return this.configCache!;
    const shown = `${BOARD_DIR}/config.yaml`;
    const text = this.current(this.configPath, shown)?.text ?? null;
    if (text === null) this.refuseMisnamed('config.yaml', 'its settings');
    if (this.configCache === null || this.configCache.text !== text) this.configCache = { text, config: parseConfig(text, shown) };
    return this.configCache;
  }

  /**
   * From now on, the settings of `text` (config.yaml's text, null: no file) whatever config.yaml
   * says: a run whose agent changed the file finishes (releases its claims, notes the task) with
   * the settings it started with, even when the file no longer parses. Throws when `text` does not parse.
   */
  keepSettings(text: string | null): void {
    this.configCache = { text, config: parseConfig(text, this.rel(this.configPath)) };
    this.settingsKept = true;
  }

  /** Where the setting at `path` (like ["run", "planner"]) is, as config errors name it: agentd/config.yaml:LINE, or the file alone. */
  settingAt(path: readonly PropertyKey[]): string {
    const shown = this.rel(this.configPath);
    const { text } = this.settings();
    const line = text ? lineOfPath(text, path) : undefined;
    return line ? `${shown}:${line}` : shown;
  }

  /**
   * The shared board when config.yaml names a remote (its code, and git, are loaded only then);
   * null for a board of this clone alone. `remote` names another one (agentboard remote enable).
   */
  async sharing(remote = this.config.remote): Promise<SharedBoard | null> {
    if (remote === undefined) return null;
    if (this.sharedBoard?.remote !== remote) {
      const { SharedBoard } = await import('./remote/shared.js');
      this.sharedBoard = new SharedBoard(this, remote);
    }
    return this.sharedBoard;
  }

  /** Of a shared board, the folders its last synced commit holds: a folder only this clone has is not part of the board. */
  private sharedFolderSet(): Set<string> | null {
    return this.sharedListing()?.folders ?? null;
  }

  private sharedListing(): { files: Listing; folders: Set<string> } | null {
    if (this.sharedFolders === undefined) {
      this.sharedFolders = null;
      if (this.config.remote !== undefined) {
        const synced = new RemoteFiles(this.runtimeDir, (p) => this.rel(p)).synced();
        if (synced?.remote === this.config.remote) this.sharedFolders = { files: synced.listing, folders: foldersOf(synced.listing) };
      } else if (new RemoteFiles(this.runtimeDir, (p) => this.rel(p)).hasSynced()) {
        const message = `This clone shares its board through a git remote, but agentd/config.yaml here names no remote (a branch from before the board was shared, say): reads show this clone's copy as it last synced it, and writes are refused until you switch back to a branch that shares the board or run ${refTo('remote.disable')}.`;
        if (!this.notices.some((n) => n.message === message)) this.notices.push({ kind: 'remote', message });
      }
    }
    return this.sharedFolders;
  }

  /**
   * A document a person wrote into a change of the shared board, which the board does not hold
   * yet (a design.md, say): agentboard never wrote it, on this branch or on another it came from
   * with a switch (recorded), and the next write that reads it (or `agentboard remote sync`)
   * shares it as it is.
   */
  unsharedDoc(changeId: string, type: DocType): boolean {
    const files = this.sharedListing()?.files;
    return files !== undefined && files[`changes/${changeId}/${DOC_FILES[type]}`] === undefined && this.recorded(changeId, type) === undefined;
  }

  get activityPath(): string {
    return join(this.runtimeDir, 'activity.jsonl');
  }

  get runtimePath(): string {
    return join(this.runtimeDir, 'state.json');
  }

  get conflictsPath(): string {
    return join(this.runtimeDir, 'conflicts.json');
  }

  ledgerPath(changeId: string): string {
    return join(this.ledgerDir, `${changeId}.json`);
  }

  changeDir(changeId: string): string {
    const key = `${changeId}/`;
    let path = this.paths.get(key);
    if (path === undefined) this.paths.set(key, (path = join(this.changesDir, changeId)));
    return path;
  }

  docPath(changeId: string, type: DocType): string {
    const key = `${changeId}/${type}`;
    let path = this.paths.get(key);
    if (path === undefined) this.paths.set(key, (path = join(this.changesDir, changeId, DOC_FILES[type])));
    return path;
  }

  /** Open changes, sorted by id. Names that are not change ids are not changes; links and files posing as changes are reported. */
  changeIds(): string[] {
    // Listed once per generation: a batch of calls asks for every one of them.
    if (this.idsSeen?.generation === this.generation) return [...this.idsSeen.ids];
    const shown = this.rel(this.changesDir);
    if (!this.plainDir(this.changesDir)) return [];
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(this.changesDir, { withFileTypes: true });
    } catch (err) {
      throw fsError(err, shown, 'read');
    }
    const ids: string[] = [];
    this.unsafeEntries = [];
    const shared = this.sharedFolderSet();
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const problem = changeIdProblem(e.name);
      if (problem !== null) {
        // A folder meant as a change, by a name that is not a change id: said, not skipped silently (a file, like a README, is let be).
        if (e.isDirectory()) {
          const message = `${shown}/${e.name} is not read as a change: ${problem}.`;
          this.unsafeEntries.push({ level: 'warning', file: `${shown}/${e.name}`, rule: 'change.id', message, fix: 'Rename the folder to a change id in lowercase kebab-case, 3 to 64 characters (like add-search), or move it out of agentd/changes/.' });
          this.leftOut(`${shown}/${e.name} is not a change id`);
        }
        continue;
      }
      if (shared && !shared.has(`changes/${e.name}`)) continue;
      if (e.isDirectory()) {
        ids.push(e.name);
        // A folder, not a link to one (the listing does not follow links): checked as plainDir would.
        this.checkedDirs.add(this.changeDir(e.name));
      }
      else {
        const what = e.isSymbolicLink() ? 'a symbolic link' : 'not a folder';
        const err = e.isSymbolicLink() ? unsafePath(`${shown}/${e.name}`, what) : new AgentboardError('NOT_A_FOLDER', `${shown}/${e.name} is ${what}, so it is not read as a change.`, `Replace it with a change folder or remove it.`);
        this.unsafeEntries.push({ level: 'error', file: `${shown}/${e.name}`, rule: 'file.unsafe', message: err.message, fix: err.nextStep });
        this.leftOut(`${shown}/${e.name} is ${what}`);
      }
    }
    this.idsSeen = { generation: this.generation, ids: ids.sort() };
    return [...ids];
  }

  /** Entries under agentd/changes/ that are not read because they are links or files (found by the last changeIds()). */
  get problems(): Finding[] {
    return this.unsafeEntries;
  }

  hasChange(changeId: string): boolean {
    const dir = this.changeDir(changeId);
    const shared = this.sharedFolderSet();
    if (shared && !shared.has(`changes/${changeId}`)) return false;
    if (this.checkedDirs.has(dir)) return true;
    try {
      if (!checkDirs(this.root, this.changesDir, (p) => this.rel(p))) return false;
      const st = lstatSync(dir);
      if (st.isSymbolicLink()) throw unsafePath(this.rel(dir), 'a symbolic link');
      if (!st.isDirectory()) throw new AgentboardError('NOT_A_FOLDER', `${this.rel(dir)} is a file, not a change folder.`, `Move ${this.rel(dir)} aside or restore the change from git.`);
      this.checkedDirs.add(dir);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw fsError(err, this.rel(dir), 'read');
    }
  }

  archived(): ArchivedChange[] {
    let names: string[];
    try {
      if (!checkDirs(this.root, this.archiveDir, (p) => this.rel(p))) return [];
      names = readdirSync(this.archiveDir);
    } catch (err) {
      throw fsError(err, this.rel(this.archiveDir), 'read');
    }
    const out: ArchivedChange[] = [];
    const shared = this.sharedFolderSet();
    for (const name of names.sort()) {
      if (shared && !shared.has(`archive/${name}`)) continue;
      const m = /^(\d{4}-\d\d-\d\d)-(.+)$/.exec(name);
      if (m && changeIdProblem(m[2]!) === null) out.push({ change_id: m[2]!, date: m[1]!, folder: name });
    }
    return out;
  }

  // ---- reading documents --------------------------------------------------------------------------

  /**
   * The ledger of a change (what agentboard last wrote to its documents); empty when there is none
   * or it cannot be read. A ledger written on another branch holds here the entries of the files
   * that came with the switch (carriedOver): agentboard's next write keeps them on this branch.
   */
  ledgerOf(changeId: string): Ledger {
    const path = this.ledgerPath(changeId);
    let read: FileRead | null;
    try {
      if (!this.plainDir(dirname(path))) return emptyLedger();
      read = this.current(path, this.rel(path));
    } catch {
      return emptyLedger(); // an unreadable ledger is a lost cache: files are then read as they are
    }
    if (read === null) return emptyLedger();
    const branch = this.branch();
    const cached = this.ledgerCache.get(changeId);
    if (cached?.text === read.text && cached.branch === branch && (cached.generation ?? this.generation) === this.generation) return cached.ledger;
    const whole = parseLedger(read.text, null) ?? emptyLedger();
    const here = branch === null || whole.branch === undefined || whole.branch === branch;
    const ledger = here ? whole : this.carriedOver(changeId, whole);
    this.ledgerCache.set(changeId, { text: read.text, branch, ledger, ...(here ? {} : { generation: this.generation }) });
    return ledger;
  }

  /**
   * The entries of a ledger written on another branch (a `git switch` with the board's work not
   * committed) for the files still agentboard's own here: byte for byte what it wrote, or edited
   * since where git left the file as it was (the two branches' commits hold the same version of
   * it: git carried the work over, and a person edited that). A file git checked out anew is the
   * other branch's, judged against the commit (unrecordedDecision).
   */
  private carriedOver(changeId: string, whole: Ledger): Ledger {
    const files: Ledger['files'] = {};
    for (const type of DOC_TYPES) {
      const entry = whole.files[DOC_FILES[type]];
      const path = this.docPath(changeId, type);
      let read: FileRead | null;
      try {
        read = entry && this.checkedDir(changeId) ? this.current(path, this.rel(path)) : null;
      } catch {
        read = null; // reported where the file is read
      }
      if (entry && read && (asWritten(read, entry.hash) || this.sameInCommits(whole.branch!, this.rel(path)))) files[DOC_FILES[type]] = entry;
    }
    return { ...whole, files };
  }

  /** Whether the tip of `branch` (a ref, `refs/heads/main`) and HEAD hold the same version of the file at `shown` (or neither holds it). */
  private sameInCommits(branch: string, shown: string): boolean {
    if (!branch.startsWith('refs/')) return false; // a detached HEAD's commit is not known
    return gitSync(['diff', '--quiet', branch, 'HEAD', '--', shown], { cwd: this.root, env: { ...process.env, LC_ALL: 'C' }, timeoutMs: 10_000 }).code === 0;
  }

  /** What the ledger's first line says of each document of a change (empty when there is no ledger). */
  ledgerHeader(changeId: string): LedgerHeader {
    let header = this.headerCache.get(changeId);
    if (header) return header;
    const path = this.ledgerPath(changeId);
    const known = this.files.get(path);
    const full = this.ledgerCache.get(changeId);
    header = {};
    if (known?.generation === this.generation && known.read && full?.text === known.read.text && full.branch === this.branch()) {
      for (const [name, e] of Object.entries(full.ledger.files)) header[name] = headerEntry(name, e);
    } else {
      const line = this.ledgerLine(changeId);
      header = (line !== null && parseLedgerHeader(line, this.branch())) || {};
    }
    this.headerCache.set(changeId, header);
    return header;
  }

  /** The first line of a change's ledger (its header), read once per generation; null when there is none that can be read. */
  private ledgerLine(changeId: string): string | null {
    let kept = this.ledgerLines.get(changeId);
    if (kept?.generation !== this.generation) {
      let line: string | null = null;
      const path = this.ledgerPath(changeId);
      try {
        if (this.plainDir(dirname(path))) line = this.readListed(path, readFirstLine);
      } catch {
        // an unreadable ledger is a lost cache
      }
      this.ledgerLines.set(changeId, (kept = { generation: this.generation, line }));
    }
    return kept.line;
  }

  /** The hash of a document as agentboard last wrote it, by the ledger's header. */
  private written(changeId: string, type: DocType): string | undefined {
    return this.ledgerHeader(changeId)[DOC_FILES[type]]?.hash;
  }

  /** The hash of a document as agentboard last wrote it on this branch, or on another from which it came with a switch (carriedOver). */
  private recorded(changeId: string, type: DocType): string | undefined {
    const written = this.written(changeId, type);
    // The whole ledger is read only when its header names the file and it was written on another branch.
    if (written !== undefined || this.writtenOnAnyBranch(changeId, type) === undefined) return written;
    return this.ledgerOf(changeId).files[DOC_FILES[type]]?.hash;
  }

  /**
   * A task list read quickly (frontmatter and task summaries), as it is on disk; null when the
   * change has none. A list in a shape the quick scan does not know is read by the full parser.
   * Throws AgentboardError when it cannot be read at all.
   */
  taskList(changeId: string): TaskList | null {
    try {
      const list = this.readTaskList(changeId);
      if (list?.broken) this.listWithErrors(changeId);
      const hand = list && (list.edited || this.unrecorded(changeId, 'tasks')) ? this.handDecision(changeId, 'tasks') : null;
      if (list && hand) {
        const left = new Set(hand.added?.map((a) => a.id));
        const recorded = new Map([...(hand.done ?? []), ...(hand.released ?? [])].map((d) => [d.id, d.recorded]));
        const depends = new Map(hand.depends?.map((d) => [d.id, d.recorded]));
        const tasks = list.tasks
          .filter((t) => !left.has(t.id))
          .map((t) => (recorded.has(t.id) ? withState(t, recorded.get(t.id)!, SUMMARY_STATE) : t))
          .map((t) => (depends.has(t.id) ? { ...t, depends: depends.get(t.id)! } : t));
        // Tasks taken out of a list agentboard never wrote here are put back by a write's full read of it, as a merged hand edit's are.
        return { ...list, meta: hand.status ? { ...list.meta, status: hand.status.recorded } : list.meta, tasks, edited: list.edited || hand.missing !== undefined };
      }
      return list;
    } catch (err) {
      if (err instanceof AgentboardError) return this.leftOut(err);
      throw err;
    }
  }

  private readTaskList(changeId: string): TaskList | null {
    const path = this.docPath(changeId, 'tasks');
    if (!this.checkedDir(changeId)) return null;
    const read = this.docFile(path, this.rel(path));
    if (!read) return null;
    const written = this.recorded(changeId, 'tasks');
    const kept = this.listCache.get(path);
    if (kept && kept.text === read.text && kept.written === written) return kept.value;
    const full = this.docCache.get(path);
    let list: TaskList | null;
    if (full && full.text === read.text && full.written === written) list = listOf(full.value.doc as DocFile<'tasks'>, full.value.edited);
    else {
      const front = read.text.includes('\r') ? null : quickMeta(read.text, 'tasks');
      const tasks = front && scanTaskList(read.text.slice(front.bodyStart));
      // A task with the id of a deleted one makes the list one with errors: the full read says so.
      if (front && tasks && !tasks.some((t) => front.meta.retired?.includes(t.id))) list = { meta: front.meta, tasks, edited: written !== undefined && !asWritten(read, written), broken: false };
      else {
        const loaded = this.load(changeId, 'tasks');
        list = loaded && listOf(loaded.doc as DocFile<'tasks'>, loaded.edited);
      }
    }
    this.listCache.set(path, { text: read.text, written, value: list });
    return list;
  }

  /**
   * Whether a document's text may name `word`: it holds it as it is, or holds a backslash (a quoted
   * YAML value may spell any character with an escape). False when the file is not there.
   */
  names(changeId: string, type: DocType, word: string): boolean {
    const path = this.docPath(changeId, type);
    const bytes = this.checkedDir(changeId) ? this.current(path, this.rel(path))?.bytes : undefined;
    // In the bytes: the same as in the text (UTF-8), without decoding it.
    return bytes !== undefined && (bytes.includes(word) || bytes.includes(BACKSLASH));
  }

  /**
   * A proposal or a spec summed up without parsing its body (status, list): its frontmatter and its
   * title, with no errors. Only of a file exactly as agentboard last wrote it, which the ledger's
   * header sums up as reading whole; undefined for any other (absent, unreadable, edited by hand,
   * written with errors, or by a version that kept no gist): read that one in full.
   */
  docGist(changeId: string, type: 'proposal' | 'spec'): { meta: HeadMeta; title: string | null } | undefined {
    const written = this.ledgerHeader(changeId)[DOC_FILES[type]];
    if (!written?.gist?.clean) return undefined;
    const path = this.docPath(changeId, type);
    try {
      const read = this.checkedDir(changeId) ? this.docFile(path, this.rel(path)) : null;
      const meta = read && asWritten(read, written.hash) ? quickMeta(read.head(), type)?.meta : undefined;
      return meta && { meta, title: written.gist.title };
    } catch (err) {
      // Said by the full read, which the caller makes.
      if (err instanceof AgentboardError) return undefined;
      throw err;
    }
  }

  /** Only the frontmatter of a document, as it is on disk; null when absent or unreadable (reported where the file is read). */
  docMeta(changeId: string, type: DocType): HeadMeta | null {
    return this.docHead(changeId, type)?.meta ?? null;
  }

  /**
   * A document's frontmatter, read without parsing its body, and whether a person edited the file
   * since agentboard wrote it. A status a hand edit set is not taken: the head has the one agentboard
   * recorded (store/decisions.ts).
   */
  docHead(changeId: string, type: DocType): DocHead | null {
    const path = this.docPath(changeId, type);
    const seen = this.headsSeen.get(path);
    if (seen?.generation === this.generation) return seen.head;
    const read = this.headAsRead(changeId, type);
    const status = read && (read.edited || this.unrecorded(changeId, type)) ? this.handDecision(changeId, type)?.status : undefined;
    const head = read && status ? { ...read, meta: { ...read.meta, status: status.recorded } } : read;
    this.headsSeen.set(path, { generation: this.generation, head });
    return head;
  }

  /** A document's frontmatter as the file has it. */
  private headAsRead(changeId: string, type: DocType): DocHead | null {
    const path = this.docPath(changeId, type);
    const shown = this.rel(path);
    try {
      if (!this.checkedDir(changeId)) return null;
      const read = this.docFile(path, shown);
      if (!read) return null;
      const written = this.recorded(changeId, type);
      const kept = this.metaCache.get(path);
      if (kept && (kept.bytes === read.bytes || kept.bytes.equals(read.bytes)) && kept.written === written) {
        if (kept.value) kept.value.identity = read.identity;
        return kept.value;
      }
      const full = this.docCache.get(path);
      let head: DocHead | null;
      if (full && full.text === read.text && full.written === written) head = full.value.doc.content === null ? null : { meta: full.value.doc.meta, identity: read.identity, edited: full.value.edited };
      else {
        // Only the frontmatter is decoded, unless it is not in agentboard's own shape.
        const meta = quickMeta(read.head(), type)?.meta ?? fullMeta(read.text, shown, type);
        head = meta && { meta, identity: read.identity, edited: written !== undefined && !asWritten(read, written) };
      }
      this.metaCache.set(path, { bytes: read.bytes, written, value: head });
      return head;
    } catch (err) {
      if (err instanceof AgentboardError) return this.leftOut(err);
      throw err;
    }
  }

  /** A task list read in full with errors in some of its tasks (one that cannot be read at all is reported where it is read). */
  private sayErrors(changeId: string, type: DocType, doc: DocFile): void {
    if (type === 'tasks' && doc.content !== null && unparsable(doc)) this.listWithErrors(changeId);
  }

  /** A task list that cannot be read at all, read by a command that lists tasks: that its tasks are left out is said, with its first error. */
  tellUnreadableList(changeId: string, doc: DocFile): void {
    if (doc.content !== null) return;
    const error = doc.findings.find((f) => f.level === 'error');
    const why = error ? ` (${error.line !== undefined ? `line ${error.line}: ` : ''}${error.message.replace(/^\S+:\d+: /, '').replace(/\.$/, '')})` : '';
    this.sayUnreadable(`${this.rel(this.docPath(changeId, 'tasks'))} cannot be read${why}, so none of its tasks is listed (\`agentboard validate ${changeId}\` lists every problem, with its line).`);
  }

  /** A task list read with errors: the tasks it cannot read are left out of what the command shows, and that is said. */
  private listWithErrors(changeId: string): void {
    this.sayUnreadable(`${this.rel(this.docPath(changeId, 'tasks'))} has errors: what cannot be read of it is left out (\`agentboard validate ${changeId}\` lists every problem, with its line).`);
  }

  /** A file a quick read had to leave out: said, so that nothing is skipped silently. */
  private leftOut(problem: AgentboardError | string): null {
    const said = typeof problem === 'string' ? problem : problem.message.replace(/;.*$|\.$/, '');
    this.sayUnreadable(`${said}; it was left out (\`agentboard validate\` lists every problem).`);
    return null;
  }

  /** Something a read could not read, said once per command. */
  private sayUnreadable(message: string): void {
    if (!this.notices.some((n) => n.message === message)) this.notices.push({ kind: 'unreadable', message });
  }

  /** Whether a change's folder is a plain folder in plain folders. */
  private checkedDir(changeId: string): boolean {
    return this.plainDir(this.changeDir(changeId));
  }

  /**
   * Whether a folder of the board exists as a plain folder in plain folders (false when it does
   * not exist; UNSAFE_PATH or NOT_A_FOLDER when a link or a file stands in the way). Checked once
   * per command, and once per write.
   */
  plainDir(dir: string): boolean {
    if (this.checkedDirs.has(dir)) return true;
    // Below a folder checked already, only the rest of the way is looked at.
    const parent = dirname(dir);
    const ok = checkDirs(this.checkedDirs.has(parent) ? parent : this.root, dir, (p) => this.rel(p));
    if (ok) this.checkedDirs.add(dir);
    return ok;
  }

  /**
   * A document of an open change, checked to be a plain file in a plain folder, or null when it
   * does not exist. Throws AgentboardError when it cannot be read at all.
   */
  load(changeId: string, type: DocType): Loaded | null {
    const path = this.docPath(changeId, type);
    const shown = this.rel(path);
    if (!this.checkedDir(changeId)) return null;
    const read = this.docFile(path, shown);
    if (!read) return null;
    const written = this.recorded(changeId, type);
    const kept = this.docCache.get(path);
    if (kept && kept.text === read.text && kept.written === written) {
      kept.value.identity = read.identity;
      kept.value.bom = read.bom;
      this.sayErrors(changeId, type, kept.value.doc);
      return kept.value;
    }
    // By content, not by identity: a save in place within the file system's timestamp tick can keep size and mtime.
    const hash = written === undefined ? undefined : hashOf(read);
    let entry: LedgerEntry | undefined;
    // The whole ledger is read only for what needs it: a task list it saves parsing, a person's edit to merge onto it.
    if (written !== undefined && (type === 'tasks' || written !== hash)) entry = this.ledgerOf(changeId).files[DOC_FILES[type]];
    const recorded = entry?.hash ?? written;
    const edited = recorded !== undefined && !asWritten(read, recorded);
    // The ledger's offsets into the text hold for the very bytes it recorded: a file whose line ends differ is parsed.
    const doc = entry && entry.hash === hash ? restoreDoc(entry, read.text) : parseDocText(type, read.text, shown);
    const loaded: Loaded = { doc, text: read.text, identity: read.identity, entry, edited, bom: read.bom };
    this.docCache.set(path, { text: read.text, written, value: loaded });
    this.sayErrors(changeId, type, doc);
    return loaded;
  }

  /** A document of an archived change (agentd/archive/<folder>/), as it is on disk: history is read, never written. */
  readArchivedDoc<T extends DocType>(folder: string, type: T): DocFile<T> | null {
    const path = join(this.archiveDir, folder, DOC_FILES[type]);
    const shown = this.rel(path);
    try {
      if (!this.plainDir(dirname(path))) return null;
      const read = readBoardFile(path, shown);
      if (read) refuseMergeConflict(read, shown);
      return read ? (parseDocText(type, read.text, shown) as DocFile<T>) : null;
    } catch (err) {
      if (err instanceof AgentboardError) return unreadableDoc(type, shown, err);
      throw err;
    }
  }

  /**
   * A document as it is on disk (a person's edit not merged yet shows as the person wrote it), but
   * for the decisions a hand edit made: those are agentboard's, as it recorded them
   * (store/decisions.ts); null when absent.
   */
  readDoc<T extends DocType>(changeId: string, type: T): DocFile<T> | null {
    try {
      const loaded = this.load(changeId, type);
      const hand = loaded && (loaded.edited || this.unrecorded(changeId, type)) ? this.handDecision(changeId, type) : null;
      return (loaded && hand ? asRecorded(loaded.doc, hand) : (loaded?.doc ?? null)) as DocFile<T> | null;
    } catch (err) {
      if (err instanceof AgentboardError) return unreadableDoc(type, this.rel(this.docPath(changeId, type)), err);
      throw err;
    }
  }

  /** Documents a person edited since agentboard last wrote them, and that can be read (the next write merges them). */
  handEditedDocs(changeIds: string[] = this.changeIds()): { changeId: string; type: DocType }[] {
    const out: { changeId: string; type: DocType }[] = [];
    for (const changeId of changeIds) {
      for (const type of Object.keys(DOC_FILES) as DocType[]) {
        const path = this.docPath(changeId, type);
        try {
          const written = this.recorded(changeId, type);
          const unshared = this.unsharedDoc(changeId, type);
          const read = (written !== undefined || unshared) && this.checkedDir(changeId) ? this.docFile(path, this.rel(path)) : null;
          // One that cannot be read is no edit a write merges (a write refuses it until it is fixed): load throws, and it is reported where it is read.
          if (read && (written === undefined || unshared || !asWritten(read, written)) && this.load(changeId, type)?.doc.content) out.push({ changeId, type });
        } catch {
          // reported where the file is read
        }
      }
    }
    return out;
  }

  /**
   * The decisions a hand edit made in a document of an open change (a status, a review's verdict,
   * tasks added to an approved list) that agentboard did not record and git did not bring; null when
   * there are none. Costs nothing for a file that is as agentboard wrote it; for an edited one, the
   * ledger is read, and git only when a decision differs from the ledger's.
   */
  handDecision(changeId: string, type: DocType): HandDecision | null {
    if (this.unrecorded(changeId, type)) return this.unrecordedDecision(changeId, type);
    let loaded: Loaded | null;
    try {
      loaded = this.load(changeId, type);
    } catch {
      return null; // reported where the file is read
    }
    if (!loaded?.edited || !loaded.entry) return null;
    const path = this.docPath(changeId, type);
    const kept = this.decisionCache.get(path);
    if (kept && kept.generation === this.generation && kept.text === loaded.text && kept.written === loaded.entry.hash) return kept.value;
    const value = handDecision(loaded.doc, loaded.text, loaded.entry, () => this.committedDoc(changeId, type));
    this.decisionCache.set(path, { generation: this.generation, text: loaded.text, written: loaded.entry.hash, value });
    return value;
  }

  /** The decisions hand edits made in the documents of a change, as errors for validate and status. */
  decisionsByHand(changeId: string): Finding[] {
    const types = new Set([...this.handEditedDocs([changeId]).map((d) => d.type), ...DOC_TYPES.filter((type) => this.unrecorded(changeId, type))]);
    return [...types].flatMap((type) => {
      const hand = this.handDecision(changeId, type);
      return hand ? handDecisionFindings(this.rel(this.docPath(changeId, type)), changeId, type, hand) : [];
    });
  }

  /**
   * Whether a document (a design decides nothing) is one agentboard never wrote in this clone: its
   * change's ledger has no entry for it, on this branch or on another it came from with a switch
   * (carriedOver). Its decisions are checked against git; outside git nothing tells a file made by
   * hand from one whose ledger was lost, and it is taken as it is.
   */
  private unrecorded(changeId: string, type: DocType): boolean {
    return type !== 'design' && this.branch() !== null && this.recorded(changeId, type) === undefined;
  }

  /** The hash of a document in its change's ledger, whichever branch the ledger was written on (read once per generation). */
  private writtenOnAnyBranch(changeId: string, type: DocType): string | undefined {
    const line = this.ledgerLine(changeId);
    return (line !== null ? parseLedgerHeader(line, null) : null)?.[DOC_FILES[type]]?.hash;
  }

  /** Whether a document holds what may be a decision made by hand: a status a person gives, a review's verdict, a done task. */
  private holdsDecision(changeId: string, type: DocType): boolean {
    if (mayHoldDecision(type, this.headAsRead(changeId, type)?.meta.status)) return true;
    // A task list's done tasks are decisions too: looked for in its quick read.
    return type === 'tasks' && (this.readTaskList(changeId)?.tasks.some((t) => t.status === 'done') ?? false);
  }

  /**
   * The decisions of a document agentboard never wrote here that the commit checked out does not
   * hold (store/decisions.ts). A file byte for byte as HEAD has it came with git, told without
   * running git but once per commit (a fresh clone has no ledger at all).
   */
  private unrecordedDecision(changeId: string, type: DocType): HandDecision | null {
    const path = this.docPath(changeId, type);
    const shown = this.rel(path);
    let read: FileRead | null;
    try {
      read = this.checkedDir(changeId) ? this.current(path, shown) : null;
    } catch {
      return null; // reported where the file is read
    }
    if (!read) return null;
    const commit = this.headCommit();
    const kept = this.decisionCache.get(path);
    if (kept && kept.text === read.text && kept.written === `commit ${commit}` && (commit !== null || kept.generation === this.generation)) return kept.value;
    const blobs = committedBlobs(this.root, this.rel(this.changesDir), commit);
    // git cannot be run: what the commit holds is not known, and the file is taken as it is, as outside git.
    if (blobs === null) return null;
    const blob = blobs.get(shown);
    let value: HandDecision | null = null;
    // Not as the commit has it: a file the commit does not hold decides something only if it says so; one it holds, if it says otherwise.
    if (blob === undefined ? this.holdsDecision(changeId, type) : blob !== blobId(read.bytes, blob)) {
      let loaded: Loaded | null;
      try {
        loaded = this.load(changeId, type);
      } catch {
        return null; // reported where the file is read
      }
      value = loaded && unrecordedDecision(loaded.doc, loaded.text, blob === undefined ? null : this.committedDoc(changeId, type));
    }
    this.decisionCache.set(path, { generation: this.generation, text: read.text, written: `commit ${commit}`, value });
    return value;
  }

  /**
   * A document of an open change as the commit checked out (HEAD) holds it: what came with git (a
   * pull, a checkout). Null outside git, when the commit has no such file or it does not read.
   */
  committedDoc(changeId: string, type: DocType): DocFile | null {
    if (this.branch() === null) return null;
    const path = this.docPath(changeId, type);
    const known = this.committedCache.get(path);
    if (known?.generation === this.generation) return known.doc;
    let doc: DocFile | null = null;
    try {
      const shown = this.rel(path);
      // git that cannot say: nothing is known to have come with it.
      const committed = committedFile(this.root, shown);
      if ('text' in committed && committed.text !== null) {
        const parsed = parseDocText(type, committed.text, shown);
        if (parsed.content !== null) doc = parsed;
      }
    } catch {
      // git cannot be run: nothing is known to have come with it
    }
    this.committedCache.set(path, { generation: this.generation, doc });
    return doc;
  }

  /**
   * Files of a change folder named as a document but for the case of their letters (Tasks.md,
   * Proposal.md, review.md): what a person on a file system that ignores case, or another tool,
   * may make. File names are read as they are, so such a file is no document of the change.
   */
  misnamedDocs(changeId: string): { type: DocType; name: string }[] {
    const dir = this.changeDir(changeId);
    let names: Iterable<string>;
    try {
      names = (this.plainDir(dir) && this.folderNames(dir)) || [];
    } catch {
      return []; // an unreadable change folder is reported where its documents are read
    }
    const out: { type: DocType; name: string }[] = [];
    for (const name of names) {
      const type = DOC_BY_LOWERCASE.get(name.toLowerCase());
      if (!type || name === DOC_FILES[type]) continue;
      // On a file system that ignores case the two names are one file, read (and written) by its own name.
      const own = lstatSync(join(dir, DOC_FILES[type]), { throwIfNoEntry: false });
      const it = lstatSync(join(dir, name), { throwIfNoEntry: false });
      if (own && it && own.ino === it.ino && own.dev === it.dev) continue;
      out.push({ type, name });
    }
    return out;
  }

  /** The finding on a change's task list when it is gone (agentboard wrote it, no command removed it), else undefined. */
  goneTaskList(changeId: string): Finding | undefined {
    const file = this.rel(this.docPath(changeId, 'tasks'));
    return this.goneDocs(changeId).find((f) => f.rule === 'file.gone' && f.file === file);
  }

  /**
   * Documents of a change that agentboard wrote (its ledger says so) and that are gone, removed
   * outside agentboard: no command removes a document of an open change, so what it held (tasks,
   * claims, notes) is lost to every reader until the file is restored. Reported, never ignored; so
   * is a file named as a document but for the case of its letters (misnamedDocs), which is not read.
   */
  goneDocs(changeId: string): Finding[] {
    if (!this.checkedDir(changeId)) return [];
    const header = this.ledgerHeader(changeId);
    const out: Finding[] = [];
    const misnamed = this.misnamedDocs(changeId);
    for (const type of Object.keys(DOC_FILES) as DocType[]) {
      const written = header[DOC_FILES[type]];
      const variants = misnamed.filter((m) => m.type === type);
      if (!written && variants.length === 0) continue;
      const path = this.docPath(changeId, type);
      const shown = this.rel(path);
      // The read the command made already, once per generation: there, or not there.
      let there: boolean;
      try {
        there = this.current(path, shown) !== null;
      } catch (err) {
        if (!(err instanceof AgentboardError)) throw err;
        there = true; // there, but unreadable: reported where it is read
      }
      for (const { name } of variants) out.push(misnamedFinding(shown, `${this.rel(this.changeDir(changeId))}/${name}`, type, there));
      if (there || variants.length > 0 || !written) continue;
      out.push({
        level: 'error',
        file: shown,
        rule: 'file.gone',
        message: `${shown} is gone: agentboard last wrote it (version ${written.version}) and no command removed it, so nothing it held (tasks, claims, notes) is shown or handed out.`,
        fix: `Restore it: \`git checkout -- ${shown}\` when it is committed, else from your editor's history or a backup. Writing the document anew replaces it for good.`,
      });
    }
    return out;
  }

  /**
   * Changes whose folder is gone though agentboard wrote their documents (a ledger for this branch
   * says so) and no command archived them: no command removes an open change, so a folder deleted
   * outside agentboard takes its tasks, claims and notes out of every read. Reported, never ignored.
   */
  goneChanges(): Finding[] {
    const dir = dirname(this.ledgerPath('x'));
    let names: string[];
    let here: Set<string>;
    let archived: Set<string>;
    try {
      names = this.plainDir(dir) ? readdirSync(dir) : [];
      here = new Set(this.changeIds());
      archived = new Set(this.archived().map((a) => a.change_id));
    } catch {
      return []; // an unreadable ledger folder is a lost cache; unreadable change folders are reported where they are read
    }
    const out: Finding[] = [];
    for (const name of names) {
      const changeId = name.endsWith('.json') ? name.slice(0, -5) : '';
      if (changeIdProblem(changeId) !== null || here.has(changeId) || archived.has(changeId)) continue;
      const written = Object.keys(this.ledgerHeader(changeId));
      if (written.length === 0) continue;
      const shown = this.rel(this.changeDir(changeId));
      out.push({
        level: 'error',
        file: shown,
        rule: 'change.gone',
        message: `${shown}/ is gone: agentboard wrote its documents (${written.join(', ')}) and no command archived or removed it, so nothing it held (tasks, claims, notes) is shown or handed out.`,
        fix: `Restore it: \`git checkout -- ${shown}\` when it is committed, else from a backup. If it was removed on purpose, forget it: \`rm ${this.rel(this.ledgerPath(changeId))}\`.`,
      });
    }
    return out;
  }

  /**
   * Each task of the change made done by a person's edit that a merge took, with nobody recorded as
   * doing it, as an error for validate: agentboard never completes a task without saying who. (A
   * save that makes a task done is not taken, store/decisions.ts; a task list git brought, or one
   * merged before that rule, can hold such a task all the same.)
   */
  doneByHand(changeId: string): Finding[] {
    const out: Finding[] = [];
    const doc = this.readDoc(changeId, 'tasks');
    const entry = this.ledgerOf(changeId).files[DOC_FILES.tasks];
    if (!doc?.content || !entry) return out;
    for (const block of doc.content.blocks) {
      const task = block.task;
      if (!task || task.status !== 'done' || task.assignee) continue;
      const history = entry.history[task.id];
      if (((history?.[history.length - 1]?.[3] ?? 0) & STATE_BY_PERSON) === 0) continue;
      const ref = `${changeId}/${task.id}`;
      out.push({
        level: 'error',
        file: this.rel(this.docPath(changeId, 'tasks')),
        line: block.line + doc.bodyLine - 1,
        rule: 'tasks.done.by_hand',
        message: `task ${task.id} was made done by a hand edit of the file, and nobody is recorded as doing it (it has no assignee)`,
        fix: `a person sets it back with \`agentboard task update ${ref} --status todo --as human:<your name>\`; if someone did it, they then mark it done with \`agentboard task done ${ref} --as <their id>\``,
      });
    }
    return out;
  }

  /**
   * Tasks agentboard wrote that a person's edit of the list took out without retiring their ids (or
   * that no longer read as tasks, like a heading at another level): the next write puts them back.
   */
  missingByHand(changeId: string): Finding[] {
    const file = this.rel(this.docPath(changeId, 'tasks'));
    // A list agentboard never wrote here: its tasks are those the commit checked out holds.
    if (this.unrecorded(changeId, 'tasks')) return (this.handDecision(changeId, 'tasks')?.missing ?? []).map((id) => missingTaskFinding(file, changeId, id));
    if (!this.handEditedDocs([changeId]).some((d) => d.type === 'tasks')) return [];
    const doc = this.readDoc(changeId, 'tasks');
    const entry = this.ledgerOf(changeId).files[DOC_FILES.tasks];
    if (!doc?.content || !entry) return [];
    const here = new Set([...doc.content.blocks.map((b) => b.id), ...(doc.meta.retired ?? [])]);
    return [...baseItems(entry).keys()].filter((id) => id !== META_ITEM && !here.has(id)).map((id) => missingTaskFinding(file, changeId, id));
  }

  /** The documents a person edited since agentboard last wrote them, as paths. */
  handEdited(): string[] {
    return this.handEditedDocs().map((d) => this.rel(this.docPath(d.changeId, d.type)));
  }

  /** What a commit wrote (its ledger remembered first), so that this process reads it back without parsing it. */
  remember(changeId: string, type: DocType, doc: DocFile, text: string, identity: string, bom: boolean): void {
    const entry = this.ledgerCache.get(changeId)?.ledger.files[DOC_FILES[type]];
    this.headsSeen.delete(this.docPath(changeId, type));
    this.docCache.set(this.docPath(changeId, type), { text, written: entry?.hash, value: { doc, text, identity, entry, edited: false, bom } });
  }

  /** A ledger a commit wrote, as `text`. */
  rememberLedger(changeId: string, ledger: Ledger, text: string): void {
    this.headerCache.delete(changeId);
    this.ledgerLines.delete(changeId);
    for (const type of DOC_TYPES) this.headsSeen.delete(this.docPath(changeId, type));
    this.ledgerCache.set(changeId, { text, branch: this.branch(), ledger });
  }

  /** The runtime data as it stands; questions past their deadline by this process's clock show as timed out (nothing is written). */
  readRuntime(): RuntimeData {
    this.plainDir(this.runtimeDir);
    const data = openRuntime(this.runtimePath, this.rel(this.runtimePath), null, this.readFile).data;
    expireInputs(data, processNow().toISOString());
    return data;
  }

  readActivity(): ActivityEntry[] {
    this.plainDir(this.runtimeDir);
    const pending = this.pending()?.activity;
    return readActivity(this.activityPath, this.rel(this.activityPath), pending?.path === this.activityPath ? pending : null);
  }

  /** The people who may act with a person's key (agentd/people.yaml); none when the file is absent. */
  readPeople(): PersonRecord[] {
    return this.peopleFile().people;
  }

  /** agentd/people.yaml as read (null: absent, and no file named as it but for its case, see refuseMisnamed) and the people it holds. */
  private peopleFile(): { shown: string; read: FileRead | null; people: PersonRecord[] } {
    const path = join(this.dir, PEOPLE_FILE);
    const shown = this.rel(path);
    const read = this.readFile(path, shown);
    if (!read) this.refuseMisnamed(PEOPLE_FILE, "the people who may act with a person's key");
    return { shown, read, people: read ? parsePeople(read.text, shown) : [] };
  }

  /** Refuses, as a read of the settings would, when config.yaml is absent and a file named as it but for its case stands in its place. */
  refuseMisnamedConfig(): void {
    if (!existsSync(this.configPath)) this.refuseMisnamed('config.yaml', 'its settings');
  }

  /**
   * Refuses to go on without a board file (`name`, absent) when agentd/ holds one named as it but
   * for its case or a .yml for its .yaml (Config.yaml, people.yml): what that one says would
   * silently not apply.
   */
  private refuseMisnamed(name: string, holds: string): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return; // an unreadable board folder is reported where its files are read
    }
    const found = names.find((n) => n !== name && n.toLowerCase().replace(/\.yml$/, '.yaml') === name);
    if (found === undefined) return;
    const [file, wanted] = [this.rel(join(this.dir, found)), this.rel(join(this.dir, name))];
    fail('CONFIG_INVALID', `${file} is not read: agentboard reads ${holds} from ${wanted} only, by that exact name, so nothing ${found} says applies.`, `Rename it: \`git mv ${file} ${wanted}\` (or \`mv\` when it is not in git).`);
  }

  /**
   * The people whose keys are taken: in git, agentd/people.yaml as the commit checked out holds it
   * (adding a person is a change reviewed and committed like any other, so an entry only in the
   * working file, written by hand or by a `person key` not committed yet, is not taken), with the
   * entries the working file adds (`uncommitted`); outside git or where git is not installed, the
   * file as it is. In a repository git will not read (a broken GIT_DIR or configuration), no key is
   * taken (PERSON_KEY_INVALID).
   */
  committedPeople(): { people: PersonRecord[]; uncommitted: PersonRecord[] } {
    const { shown, read, people: here } = this.peopleFile();
    if (this.branch() === null) return { people: here, uncommitted: [] };
    const committed = committedFile(this.root, shown);
    if ('unknown' in committed) {
      // Where git is not installed, nothing tells what is committed, and the file is taken as it is.
      if (committed.missing) return { people: here, uncommitted: [] };
      fail('PERSON_KEY_INVALID', `A person's key is checked against agentd/people.yaml as the commit checked out holds it, and git could not read the repository: ${printable(committed.unknown, 200)}.`, 'Fix git for this repository (GIT_DIR, its configuration), then run the command again; or run it at a terminal without a key.');
    }
    // Not in the commit, or no commit yet: nobody's key is committed.
    const people = committed.text === null ? [] : committed.text === read?.text ? here : parsePeople(committed.text, `${shown} (as the commit checked out holds it)`);
    const uncommitted = here.filter((p) => !people.some((c) => c.name === p.name && c.key_sha256 === p.key_sha256));
    return { people, uncommitted };
  }

  /** Merges agentboard kept from both sides because a person's edit and an agent's work disagreed. */
  readConflicts(): RecordedConflict[] {
    this.plainDir(this.runtimeDir);
    const read = this.readFile(this.conflictsPath, this.rel(this.conflictsPath));
    if (!read) return [];
    try {
      const list = JSON.parse(read.text) as RecordedConflict[];
      return Array.isArray(list) ? list : [];
    } catch {
      return [];
    }
  }

  // ---- writing ------------------------------------------------------------------------------------

  /**
   * Runs fn as one critical section: every mutation of the board goes through here. fn reads and
   * stages through the transaction only, so that it can run again when a person's save lands
   * between its read and its commit (and, on a shared board, when another clone wrote first).
   */
  async mutate<T>(fn: (tx: Transaction) => T): Promise<T> {
    // A call run as part of a batch (writeBatch) writes with the batch.
    this.tellWorktreeCopy();
    const batch = batchScope.getStore();
    if (batch?.board === this) return fn(batch);
    const shared = await this.sharingToWrite();
    return this.locked((lock) => (shared ? shared.write(lock, fn) : this.write(lock, fn)));
  }

  /**
   * The main worktree's board, when this one is a linked worktree's copy of agentd/ apart from it;
   * null else, and for a shared board, whose writes go through its remote whichever worktree makes them.
   */
  mainBoardApart(): string | null {
    return this.config.remote !== undefined ? null : mainWorktreeBoardOf(this.root);
  }

  /**
   * Says once, at the first write, that the board found from the working folder is a linked
   * worktree's copy of agentd/ while the main worktree has its own: the two hand out the same tasks
   * without either seeing the other's claims.
   */
  private tellWorktreeCopy(): void {
    if (!this.foundByFolder || this.worktreeTold) return;
    this.worktreeTold = true;
    const main = this.mainBoardApart();
    if (main === null) return;
    this.notices.push({
      kind: 'worktree',
      message: `This board is the copy of agentd/ in the git worktree ${this.root} (its branch's files), and the repository's main worktree has its own, ${join(main, BOARD_DIR)}: what is written here (a claim, say) is not seen there, nor what is written there here, so one task can go to two agents. To work on the main board, pass --root ${main} (in an MCP client's settings too).`,
    });
  }

  /**
   * The shared board a write goes to (null: this clone's own). A clone that shares the board, on a
   * branch whose config.yaml names no remote (one from before sharing), is refused: the write would
   * miss the shared board (store/remote/unshared.ts).
   */
  private async sharingToWrite(): Promise<SharedBoard | null> {
    if (this.config.remote === undefined && new RemoteFiles(this.runtimeDir, (p) => this.rel(p)).hasSynced()) (await import('./remote/unshared.js')).refuseUnshared(this);
    return this.sharing();
  }

  /** Runs fn holding the board lock, after recovering an interrupted commit. */
  async locked<T>(fn: (lock: BoardLock) => T): Promise<T> {
    return (await this.lockedUnless(undefined, fn)) as T;
  }

  /**
   * Runs fn holding the board lock, after recovering an interrupted commit; with `answered`, gives
   * null instead as soon as another process has answered for this one (a queued call carried out
   * by the holder of the lock), whether that is seen while waiting or once the lock is taken.
   */
  async lockedUnless<T>(answered: LockOptions['answered'], fn: (lock: BoardLock) => T | Promise<T>, options: Pick<LockOptions, 'timeoutMs' | 'signal'> = {}): Promise<T | null> {
    for (let lockAttempt = 1; ; lockAttempt++) {
      const acquired = await BoardLock.acquire(this.runtimeDir, { shown: this.rel(join(this.runtimeDir, 'lock')), answered, timeoutMs: options.timeoutMs, signal: options.signal });
      if (acquired === null) return null;
      const { lock, reaped } = acquired;
      this.begin();
      try {
        this.recover(reaped !== null, lock);
        if (answered?.check()) return null;
        return await fn(lock);
      } catch (err) {
        if (err instanceof LostLock && lockAttempt < 3) continue;
        if (err instanceof LostLock) fail('BOARD_CHANGED', 'The board lock was taken over while this process was stopped; nothing was written.', `Try ${SAME_CALL} again.`);
        throw err;
      } finally {
        lock.release();
      }
    }
  }

  /**
   * One write, the lock held: fn in a transaction, committed whole. `publish` (a shared board)
   * gets each commit's journal before anything local is written.
   */
  write<T>(lock: BoardLock, fn: (tx: Transaction) => T, publish?: (tx: Transaction) => Publish): T {
    for (let attempt = 1; ; attempt++) {
      const tx = new Transaction(this, lock);
      const result = fn(tx);
      if (this.committed(lock, tx, attempt, publish?.(tx))) return result;
    }
  }

  /**
   * Several calls written as one commit (one round of fsyncs for all), the lock held: each job runs
   * in turn in one transaction, its writes (through mutate) seeing those of the jobs before it;
   * when they are done, `more` may add jobs (calls that came meanwhile, or that it waited for), until it has none. A job
   * that fails leaves nothing: the batch runs again without it, and its error is its outcome.
   * `finish` stages what goes with the outcomes (the answers to queued calls) before the commit.
   * On a shared board the batch is one push (SharedBoard.writeBatch).
   */
  async writeBatch<T>(lock: BoardLock, jobs: (() => Promise<T>)[], more: () => Promise<(() => Promise<T>)[]>, finish: (tx: Transaction, outcomes: BatchOutcome<T>[]) => void): Promise<BatchOutcome<T>[]> {
    const shared = await this.sharingToWrite();
    if (!shared) return this.batchOnce(lock, jobs, more, finish);
    let last: BatchOutcome<T>[] | undefined;
    const seen = (tx: Transaction, outcomes: BatchOutcome<T>[]) => {
      last = outcomes;
      finish(tx, outcomes);
    };
    return shared.writeBatch(
      (publish) => this.batchOnce(lock, jobs, more, seen, publish),
      () => last,
      // Pushed, and pulled back, but not committed here (a person saved meanwhile): the answers go alone.
      (outcomes) => this.write(lock, (tx) => finish(tx, outcomes)),
    );
  }

  /** The batch of writeBatch, committed (after `publish`, on a shared board): its outcomes. */
  private async batchOnce<T>(lock: BoardLock, jobs: (() => Promise<T>)[], more: () => Promise<(() => Promise<T>)[]>, finish: (tx: Transaction, outcomes: BatchOutcome<T>[]) => void, publish?: (tx: Transaction) => Publish): Promise<BatchOutcome<T>[]> {
    for (let attempt = 1; ; attempt++) {
      const failed = new Map<number, unknown>();
      let tx = new Transaction(this, lock);
      let outcomes: BatchOutcome<T>[] = [];
      for (let i = 0; ; i++) {
        if (i === jobs.length) jobs.push(...(await more()));
        if (i === jobs.length) break;
        if (failed.has(i)) {
          outcomes.push({ ok: false, error: failed.get(i) });
          continue;
        }
        try {
          outcomes.push({ ok: true, value: await batchScope.run(tx, jobs[i]!) });
        } catch (err) {
          // What the failed job staged goes with its transaction: the jobs before it run again in a new one.
          failed.set(i, err);
          tx = new Transaction(this, lock);
          outcomes = [];
          i = -1;
        }
      }
      finish(tx, outcomes);
      if (this.committed(lock, tx, attempt, publish?.(tx))) return outcomes;
    }
  }

  /** Commits a write's transaction; false when a file changed while it ran and it must run again. */
  private committed(lock: BoardLock, tx: Transaction, attempt: number, publish?: Publish): boolean {
    let raced: Raced[];
    try {
      raced = tx.commit({ overLateSaves: attempt === MAX_ATTEMPTS, publish });
    } catch (err) {
      if (err instanceof StaleRead && attempt < MAX_ATTEMPTS) {
        this.begin(); // a file changed while the operation ran: read the board from disk again
        return false;
      }
      if (err instanceof StaleRead) {
        fail('BOARD_CHANGED', `A file of the board kept changing while agentboard wrote (${err.message}); nothing was written.`, `Finish saving the file in your editor, then try ${SAME_CALL} again.`);
      }
      throw err;
    }
    this.notice(tx);
    if (raced.length > 0) {
      if (publish) this.putBack(raced);
      else this.mergeRaced(lock, raced);
    }
    return true;
  }

  private notice(tx: Transaction): void {
    this.notices.push(...conflictNotices(tx));
  }

  /** A person saved in place while a commit replaced the file: merge their bytes onto what was committed. */
  private mergeRaced(lock: BoardLock, raced: Raced[]): void {
    // One save at a time, oldest first (two saves of one document merged in one transaction would
    // keep only the second). The person may have saved again meanwhile, from the file as
    // agentboard's commit left it, so without the raced save: that newer save, on disk, is kept
    // aside and merged after the raced one, as the person's later word (it takes the raced save
    // back where it lacks it). Saves that race with these commits wait their turn; a few rounds at most.
    const waiting = [...raced];
    for (let round = 0; round < MAX_ATTEMPTS + raced.length && waiting.length > 0; round++) {
      const r = waiting[0]!;
      try {
        const newer = this.keepNewerSave(r);
        if (newer) waiting.push(newer);
        const tx = new Transaction(this, lock);
        tx.mergeRaced(r);
        waiting.push(...tx.commit());
        this.notice(tx);
        waiting.shift();
      } catch (err) {
        if (!(err instanceof StaleRead)) throw err;
        this.begin(); // saved yet again while merging: read the board again, and merge once more
      }
    }
    if (waiting.length === 0) return;
    // Saved again and again while merging: what is still to merge is kept whole among the conflicts.
    const tx = new Transaction(this, lock);
    for (const r of waiting) tx.keepSave(r);
    tx.commit();
    this.notice(tx);
  }

  /**
   * The person's edit of a raced save's document on disk, made after the raced save: kept under a
   * name of its own (a kept save, which the sweep merges should this process be killed) to be merged
   * after it; null when the file is as agentboard wrote it.
   */
  private keepNewerSave(r: Raced): Raced | null {
    const loaded = this.load(r.changeId, r.type);
    if (!loaded?.edited) return null;
    const path = this.docPath(r.changeId, r.type);
    const kept = keptSavePath(path, newToken());
    writeFileAtomic(kept, (loaded.bom ? BOM : '') + loaded.text, this.rel(kept));
    return { changeId: r.changeId, type: r.type, text: loaded.text, bom: loaded.bom, kept };
  }

  /**
   * On a shared board, a person's save that raced with a commit goes back in place as their edit:
   * the next write merges it onto the shared board (a merge here would be a second push).
   */
  private putBack(raced: Raced[]): void {
    for (const r of raced) {
      const path = this.docPath(r.changeId, r.type);
      writeFileAtomic(path, (r.bom ? BOM : '') + r.text, this.rel(path));
      if (r.kept) unlinkIfThere(r.kept);
      this.notices.push({ kind: 'merge_conflict', message: `${this.rel(path)}: your save landed while agentboard wrote it; it is kept as your edit, and the next write merges it.` });
    }
    this.reread();
  }

  /**
   * Rolls an interrupted commit forward (or back, when a power cut kept its files from the disk),
   * or sweeps what an uncommitted one left behind; takes up the done journal of the last commit,
   * redoing whatever of it a power cut undid, for the next commit to make durable.
   */
  private recover(reaped: boolean, lock: BoardLock): void {
    const rel = (p: string) => this.rel(p);
    const done = readJournal(this.runtimeDir, rel, DONE_FILE);
    if (done) {
      applyJournal(this.root, done, rel, { done: true });
      // A holder killed after its commit, before it looked at what it had moved aside, left it there.
      if (reaped) this.keepSavesAside(done);
    }
    this.done = done;
    const journal = readJournal(this.runtimeDir, rel);
    if (journal) {
      if (journalComplete(this.root, journal)) {
        // Each document is put in place as the commit would have (never renamed over: a person may have
        // saved since its process was killed), and whatever differs from the file it checked is merged.
        // What is moved aside is named with the commit's token, after what its process left there: a
        // recovery killed in turn leaves them for the next one.
        applyJournal(this.root, journal, rel, {
          replace: (temp, target, file) => {
            if (file.replaces === undefined) return false;
            linkInPlace(temp, target, journal.token, nextHeld(target, journal.token));
            return true;
          },
        });
        this.keepSavesAside(journal);
        const sets = [journal, ...(done ? [done] : [])].map((j) => durableSet(this.root, j));
        syncAll(sets.flatMap((d) => d.files), sets.flatMap((d) => d.dirs), rel);
        removeJournal(this.runtimeDir, JOURNAL_FILE);
        if (done) this.settled(done);
        this.notices.push({ kind: 'recovered', message: 'Completed a write that an interrupted agentboard process had committed.' });
      } else {
        discardTemps(this.root, journal);
        removeJournal(this.runtimeDir, JOURNAL_FILE);
      }
    }
    // The saves kept aside (by this recovery, by a killed process's commit or recovery) are merged.
    const raced = reaped || journal ? this.sweep() : [];
    if (raced.length > 0) this.mergeRaced(lock, raced);
  }

  /**
   * Of the files a commit's process, and its recoveries, moved aside from its documents and left
   * there, those that are a person's save are kept under a name of their own (keptSaveName) for the
   * sweep to merge; the file the commit checked and the commit's own are removed.
   */
  private keepSavesAside(journal: Journal): void {
    for (const file of journal.files) {
      if (file.replaces === undefined) continue;
      const target = join(this.root, file.target);
      for (const name of heldBy(target, journal.token)) {
        try {
          const bytes = readBoardFile(name, this.rel(name))?.bytes;
          const hash = bytes && hashText(bytes);
          if (bytes && hash !== file.replaces && hash !== file.hash) {
            renameSync(name, keptSaveName(name));
            continue;
          }
        } catch {
          // not a file agentboard can read: left to the sweep
        }
        unlinkIfThere(name);
      }
    }
  }

  /** A person's save kept in a change's folder (`name`, KEPT_SAVE) until a commit merges it. */
  private keptSave(dir: string, name: string): (Raced & { at: number }) | null {
    const type = DOC_TYPES.find((t) => DOC_FILES[t] === KEPT_SAVE.exec(name)?.[1]);
    const path = join(dir, name);
    const read = type ? readBoardFile(path, this.rel(path)) : null;
    if (!type || !read) return null;
    return { changeId: basename(dir), type, text: textOf(read.bytes), bom: hasBom(read.bytes), kept: path, at: lstatSync(path).mtimeMs };
  }

  /** The done journal of the last commit, whose renames and log entries the next commit makes durable (null: none). */
  get doneJournal(): Journal | null {
    return this.done;
  }

  /** Makes the done journal's renames and log entries durable at once, and removes it. */
  settleDone(): void {
    if (!this.done) return;
    const durable = durableSet(this.root, this.done);
    syncAll(durable.files, durable.dirs, (p) => this.rel(p));
    this.settled(this.done);
  }

  /** The done journal's renames and log entries are durable now: it goes. */
  settled(journal: Journal): void {
    if (this.done !== journal) return;
    removeJournal(this.runtimeDir, DONE_FILE);
    this.done = null;
  }

  /** A commit applied its journal, now the done journal. */
  applied(journal: Journal): void {
    this.done = journal;
  }

  /**
   * Removes temp files and folders (only the lock holder writes them, and this process holds the
   * lock) and the holder files of waiters that died.
   */
  private sweep(): Raced[] {
    const kept: (Raced & { at: number })[] = [];
    // agentd/ itself too: config.yaml, people.yaml and .gitignore are written there.
    const dirs = [this.dir, this.runtimeDir, dirname(this.ledgerPath('x')), join(this.runtimeDir, 'remote'), join(this.runtimeDir, CALLS_DIR), this.changesDir, this.archiveDir];
    try {
      for (const id of this.changeIds()) dirs.push(this.changeDir(id));
    } catch {
      // an unreadable changes folder is reported by the commands that need it
    }
    for (const dir of dirs) {
      let names: string[];
      try {
        if (!this.plainDir(dir)) continue;
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        const holder = HOLDER_FILE.exec(name);
        if (TEMP_FILE.test(name) || (holder && dir === this.runtimeDir && !processRuns(Number(holder[1])))) rmSync(join(dir, name), { recursive: true, force: true });
        else if (KEPT_SAVE.test(name) && dirname(dir) === this.changesDir) {
          try {
            const save = this.keptSave(dir, name);
            if (save) kept.push(save);
          } catch {
            // one that cannot be read stays where it is, for a person to look at
          }
        }
      }
    }
    // Oldest first: each newer save is the person's word after the older.
    return kept.sort((a, b) => a.at - b.at).map(({ at: _at, ...save }) => save);
  }
}
