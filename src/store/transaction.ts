/**
 * One operation's view of the board and its writes: the only way anything under agentd/ changes.
 *
 * Inside the board lock, an operation reads through the transaction (fresh, and merged with what
 * agentboard last wrote when a person edited a file meanwhile) and stages its changes: documents,
 * task blocks, new changes, an archive move, the runtime store and its activity entries. Nothing
 * touches the board until commit(), which writes every new file whole to a temp file, checks that
 * the lock is still held and that no file it read has changed since (a person's save in between
 * sends the operation round again on the new text), writes the journal, and applies it. Either all
 * of an operation is on disk afterwards, or none of it, whatever happens to the process.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { faultPoint, sleepSync } from '../clock.js';
import { AgentboardError, fail } from '../errors.js';
import { DOC_FILES, DOC_WORDS, type DocMeta, type DocType, type Task } from '../domain/model.js';
import type { RuntimeData } from '../domain/records.js';
import { expireInputs } from '../domain/sessions.js';
import { activityEnd, formatEntries, type ActivityEntry } from './activity.js';
import type { Board, HeadMeta, Loaded } from './board.js';
import { listOf, type TaskList } from './task-scan.js';
import { emitMeta, metaFields } from './doc-meta.js';
import { BOM, joinFrontmatter, withLineEndsOf } from './markdown.js';
import { checkDoc, parseDocText, requirementIdsOf, renderBody, renderDocFile, unparsable, unreadableDoc, type DocContent, type DocFile } from './documents.js';
import { renderProposalBody } from './format-proposal.js';
import { assembleTasksBody, renderTaskBlock, renderTasksPreamble, tasksTitle, updatedTaskBlock, type TaskBlock } from './format-tasks.js';
import { appendFile, checkDirs, currentIdentity, fileMode, fsError, hasBom, identityOf, newToken, readAll, readBoardFile, syncAll, tempPath, textOf, unlinkQuietly, writeNewFile, type FileRead } from './fs.js';
import { applyJournal, discardTemps, durableSet, JOURNAL_FILE, keptSaveName, linkInPlace, markDone, removeJournal, writeJournal, type Journal } from './journal.js';
import { sha1 } from './hash.js';
import { baseItems, docItems, hashText, itemMeta, itemTask, META_ITEM, nextEntry, serializeLedger, taskIdsRemoved, taskItem, type Ledger } from './ledger.js';
import type { BoardLock } from './lock.js';
import { fingerprints, mergeItems, PLAN_BY_PERSON, sameValue, STATE_BY_PERSON, tookState, type Item, type MergeConflict } from './merge.js';
import { changedByPerson, editedParts, mergeBody, mergeTask, mergeTaskList, sameTask } from './write-merge.js';
import { rewriteYamlFields } from './yaml-fields.js';
import type { Finding } from '../domain/findings.js';
import { asRecorded, latestVerdict, type HandDecision } from './decisions.js';
import { openRuntime } from './runtime.js';
import { openWriters } from './writers.js';
import { refTo, SAME_CALL } from '../domain/refs.js';
import { printable } from '../domain/text.js';
import { compareTaskIds } from '../domain/ids.js';

const WRITER_WAIT_MS = 10_000;

/** What a document is written from: its content, or for a task list its title, tasks and the text that goes with the list. */
export type DocInput = Omit<DocContent, 'tasks'> & { tasks: { title: string; tasks: Task[]; intro?: string } };

/** The body agentboard writes for a document's content (a task list's from its title, tasks and intro). */
export function renderInput<T extends DocType>(type: T, content: DocInput[T]): string {
  if (type === 'tasks') {
    const { title, tasks, intro } = content as DocInput['tasks'];
    const preamble = renderTasksPreamble(title, intro);
    return assembleTasksBody(title, preamble, tasks.map((t) => ({ id: t.id, task: t, raw: renderTaskBlock(t) }))).body;
  }
  return renderBody(type, content as unknown as DocContent[T]);
}

/** The tasks of a task list's ledger items: agentboard's last write of them. */
function baseTasks(items: Map<string, Item>): Map<string, Task> {
  return new Map([...items].filter(([key]) => key !== META_ITEM).map(([key, item]) => [key, itemTask(key, item)]));
}

/**
 * The frontmatter `now` (as agentboard writes it), keeping the text of `written` (the file's, which
 * agentboard writes as `was`) where the write changes nothing: unchanged, all of it; otherwise each
 * line this write leaves as it was keeps a person's trailing spaces. When lines come or go, `now`.
 */
function keptLines(written: string, was: string, now: string): string {
  if (was === now) return written;
  const [w, a, b] = [written.split('\n'), was.split('\n'), now.split('\n')];
  if (w.length !== a.length || a.length !== b.length) return now;
  return b.map((line, i) => (line === a[i] && w[i]!.trimEnd() === line ? w[i] : line)).join('\n');
}

/**
 * A document whose frontmatter a person wrote in a shape of their own (keys in another order,
 * quoted, commented), as read (`asRead`), written with that frontmatter as it is but for the lines
 * of the fields the write changes (store/yaml-fields.ts); null for one in agentboard's own shape,
 * or when the result would not read back as `whole` (the document as agentboard writes it) does.
 */
function keptFrontmatter(type: DocType, file: string, asRead: DocFile | null, meta: DocMeta, extra: DocFile['extra'], body: string, whole: string): string | null {
  if (asRead?.frontmatter === undefined || asRead.content === null) return null;
  const yaml = rewriteYamlFields(asRead.frontmatter.replace(/\n$/, '').split('\n'), metaFields(asRead.meta, asRead.extra), metaFields(meta, extra), asRead.comments?.inline);
  if (!yaml) return null;
  const text = joinFrontmatter(`${yaml.join('\n')}\n`, body);
  const [kept, written] = [parseDocText(type, text, file), parseDocText(type, whole, file)];
  return sameValue({ meta: kept.meta, extra: kept.extra }, { meta: written.meta, extra: written.extra }) ? text : null;
}

/** A file changed between this transaction's read and its commit: run the operation again on the new text. */
export class StaleRead extends Error {}

/** A file a commit replaces, held open so that a save landing in place on its old version is found. */
interface Watched {
  fd: number;
  identity: string;
  /** The hash of the bytes the operation read. */
  hash: string;
  changeId: string;
  type: DocType;
}

/**
 * A commit that failed after its journal was made durable: what it changes is committed (readers
 * see it already) and the next command's recovery finishes it. Said so, for a caller that would
 * otherwise run it again and make its change twice (a second note, a second task).
 */
function madeButUnfinished(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (!(err instanceof AgentboardError) && code === undefined) return err;
  const e = fsError(err, 'a file of the board', 'write');
  const fix = e.code === 'DISK_FULL' ? 'Free some disk space' : e.nextStep.replace(/,? then try .* again\.$/, '').replace(/\.$/, '');
  return new AgentboardError(
    e.code,
    `${e.message.replace(' Nothing was changed.', '')} The change itself was made and is kept (the board shows it): the next command that writes to the board finishes writing it.`,
    `${fix}; do not run ${SAME_CALL} again: its change is already made.`,
  );
}

/** Puts a commit's temp file in place of a watched document, never over it (journal.ts linkInPlace): what was moved aside is looked at after the commit (replacedSaves). */
function replaceHeld(temp: string, target: string, watched: Map<string, Watched>, held: Map<string, string[]>, token: string): boolean {
  if (!watched.has(target)) return false;
  held.set(target, [...(held.get(target) ?? []), ...linkInPlace(temp, target, token)]);
  return true;
}

/** Saves that replaced a document between the commit's last check and its rename, read back from where they were moved aside, oldest first. */
function replacedSaves(held: Map<string, string[]>, watched: Map<string, Watched>): Raced[] {
  const out: Raced[] = [];
  for (const [path, names] of held) {
    const w = watched.get(path)!;
    for (const name of names) {
      try {
        const st = lstatSync(name);
        if (st.ino === fstatSync(w.fd).ino) continue;
        const saved = savedAs(w.changeId, w.type, readFileSync(name));
        // Kept on disk under a name of its own until the merge is committed.
        const kept = keptSaveName(name);
        renameSync(name, kept);
        out.push({ ...saved, kept });
      } catch {
        // gone: nothing to merge
      }
    }
  }
  return out;
}

/** The lock was taken over while this process was stopped: nothing was written. */
export class LostLock extends Error {}
/**
 * A shared board's write reached the remote, and then a person's save landed on a file it was about
 * to replace: the write is done (it is on the remote); the working tree is brought to it by a sync,
 * which keeps the person's save as their edit.
 */
export class PublishedThenChanged extends Error {}

/**
 * Publishes a commit's changes before anything local is written (a shared board pushes them to its
 * remote); it may add its own bookkeeping to the journal. Throwing leaves the board as it was.
 */
export type Publish = (journal: Journal) => void;

/** A task's claim as a write found it, before changing the task. */
export interface TouchedClaim {
  task_id: string;
  assignee: string | null;
  claimed_at: string | null;
}

interface ReadRecord {
  identity: string | null;
  text: string | null;
  /** The file started with a byte order mark (not in `text`): a write of it keeps one. */
  bom: boolean;
}

interface Staged {
  path: string;
  text: string;
  /** Written with a byte order mark first: the file had one. */
  bom?: boolean;
  /** Bytes to write as they are (an attachment), instead of the text. */
  bytes?: Buffer;
  /** Set for a document: its ledger entry is written in the same commit. */
  doc?: { changeId: string; type: DocType; parsed: DocFile; untouched?: Set<string> };
  /** A hand-edited document that merged to exactly what the person wrote: only its ledger entry is written. */
  adoptOnly?: string;
  /** Read only by processes running now (an answer to a queued call): put in place with the commit, not made durable. */
  volatile?: true;
}

/** A person's save that landed on a file while agentboard was replacing it: to be merged right after. */
export interface Raced {
  changeId: string;
  type: DocType;
  text: string;
  /** The save starts with a byte order mark (not in `text`). */
  bom: boolean;
  /** The file that keeps the save until the commit that merges it removes it (journal.ts keptSaveName): a process killed before then leaves it to the next write. */
  kept?: string;
}

/** A person's save, from its bytes. */
function savedAs(changeId: string, type: DocType, bytes: Buffer): Raced {
  return { changeId, type, text: textOf(bytes), bom: hasBom(bytes) };
}

/** What is written of a staged file: its text, after the byte order mark the file had. */
function fileText(s: Staged): string {
  return s.bom ? BOM + s.text : s.text;
}

/** What a board read gives, whether from the board itself or from inside a transaction. */
export interface Reader {
  readonly board: Board;
  changeIds(): string[];
  hasChange(changeId: string): boolean;
  readDoc<T extends DocType>(changeId: string, type: T): DocFile<T> | null;
  /** A task list read quickly (store/task-scan.ts); null when absent or unreadable. */
  taskList(changeId: string): TaskList | null;
  /** A document's frontmatter (without its logs); null when absent or unreadable. */
  docMeta(changeId: string, type: DocType): HeadMeta | null;
  /** A proposal or a spec summed up without its body (Board.docGist); undefined: read it in full. */
  docGist(changeId: string, type: 'proposal' | 'spec'): { meta: HeadMeta; title: string | null } | undefined;
}

/**
 * An agent of `agentboard run` writes nothing over a document whose file was changed outside
 * agentboard in what only operations may change (a status, a holder, a task taken out): merged, the
 * change would pass the claim rules unchecked; left as it is, the run shows it to a person when the
 * agent's turn ends (engine/guard.ts). An edit of text is merged, as a person's.
 */
function refuseHandEdit(shown: string): never {
  fail(
    'HAND_EDITED',
    `${shown} was changed outside agentboard (its file edited, not through a tool) in what only agentboard's operations change (a status, who holds a task, a task taken out); an agent of agentboard run writes nothing over such a change, so nothing was changed. The run shows the change to a person when this turn ends.`,
    'Change board documents only through the tools, never by editing their files; end your turn now.',
  );
}

/** The task lists a transaction read or staged, summed up (Transaction.taskList). */
const listsSeen = new WeakMap<DocFile<'tasks'>, TaskList | null>();

export class Transaction implements Reader {
  /** The board's time of this write (the file system's clock, via the lock), as ISO 8601. */
  readonly now: string;
  readonly conflicts: MergeConflict[] = [];
  private runtimeDb: ReturnType<typeof openRuntime> | null = null;
  private runtimeText: string | null = null;
  private runtimeDirty = false;
  private expired: string[] = [];
  private readonly reads = new Map<string, ReadRecord>();
  /** Per document merged from a person's edit: which parts of which items the person decided. */
  private readonly byPerson = new Map<string, Map<string, number>>();
  /** Documents whose merged hand edit changed what only operations may change (merge.ts tookState), or made a decision the merge did not take. */
  private readonly stateByHand = new Set<string>();
  /**
   * Per document a person edited: agentboard's last write of it (the ledger's items) and the
   * document as read, their edit merged onto it. `pending` until a write of this transaction has
   * merged its own version with the edit (write-merge.ts); later writes start from that one.
   */
  private readonly handEdits = new Map<string, { base: Map<string, Item>; read: DocFile; pending: boolean }>();
  /** Per document merged from a person's edit: the decisions of the edit the merge did not take. */
  private readonly refused = new Map<string, MergeConflict[]>();
  private readonly seen = new Map<string, DocFile | null>();
  private readonly staged = new Map<string, Staged>();
  /** The folders of the board ensureDir found plain (or made) in this commit. */
  private readonly dirsChecked = new Set<string>();
  private readonly newChanges = new Set<string>();
  private readonly archives: { changeId: string; folder: string }[] = [];
  private readonly asides: { from: string; to: string }[] = [];
  private readonly entries: ActivityEntry[] = [];
  /** The activity entry of each merged hand edit, with the conflicts the merge found: counted when committed (mergeSummary). */
  private readonly merges: { entry: ActivityEntry; conflicts: MergeConflict[] }[] = [];
  private readonly claims = new Map<string, TouchedClaim>();
  private readonly removals: string[] = [];
  /** Called once the commit's files are in place (whenApplied). */
  private readonly appliedHooks: (() => void)[] = [];

  constructor(
    readonly board: Board,
    private readonly lock: BoardLock,
  ) {
    this.now = new Date(lock.time).toISOString();
  }

  // ---- reading ------------------------------------------------------------------------------------

  changeIds(): string[] {
    const ids = new Set(this.board.changeIds());
    for (const id of this.newChanges) ids.add(id);
    for (const a of this.archives) ids.delete(a.changeId);
    return [...ids].sort();
  }

  hasChange(changeId: string): boolean {
    if (this.archives.some((a) => a.changeId === changeId)) return false;
    return this.newChanges.has(changeId) || this.board.hasChange(changeId);
  }

  readDoc<T extends DocType>(changeId: string, type: T): DocFile<T> | null {
    const path = this.board.docPath(changeId, type);
    if (this.seen.has(path)) return this.seen.get(path) as DocFile<T> | null;
    let doc: DocFile | null = null;
    if (!this.newChanges.has(changeId)) {
      let loaded: Loaded | null = null;
      try {
        loaded = this.board.load(changeId, type);
      } catch (err) {
        if (!(err instanceof AgentboardError)) throw err;
        doc = unreadableDoc(type, this.board.rel(path), err);
        this.seen.set(path, doc);
        return doc as DocFile<T>;
      }
      if (loaded?.edited) loaded = this.whenWritten(changeId, type, loaded);
      this.reads.set(path, { identity: loaded?.identity ?? null, text: loaded?.text ?? null, bom: loaded?.bom ?? false });
      doc = loaded?.doc ?? null;
      if (loaded?.edited && doc && !unparsable(doc)) {
        doc = this.mergeEdited(changeId, type, loaded.doc, loaded.text, loaded.bom, loaded.entry!);
        if (this.board.agentOfRun && this.stateByHand.has(path)) refuseHandEdit(this.board.rel(path));
      }
      else if (loaded && doc && !unparsable(doc) && this.board.unsharedDoc(changeId, type)) this.adopt(path, changeId, type, doc, loaded.text, loaded.bom);
      else if (loaded && doc && !unparsable(doc) && !loaded.entry) {
        const hand = this.board.handDecision(changeId, type);
        if (hand?.unrecorded) doc = this.takeUnrecorded(changeId, path, doc, hand);
      }
    }
    this.seen.set(path, doc);
    return doc as DocFile<T> | null;
  }

  /**
   * A document agentboard never wrote here, with the decisions made by hand in it (store/decisions.ts)
   * as the board goes on with them; what the file says instead is kept as a merge conflict, as a
   * merged hand edit's decisions are, since the next write of the file leaves them out.
   */
  private takeUnrecorded(changeId: string, path: string, doc: DocFile, hand: HandDecision): DocFile {
    const file = this.board.rel(path);
    const items = docItems(doc);
    const meta = items.get(META_ITEM)!;
    const refused: MergeConflict[] = [];
    if (hand.status) refused.push({ file, item: META_ITEM, part: 'state', kept: 'agentboard', agentboard: { ...meta.state, status: hand.status.recorded }, person: meta.state });
    if (hand.verdict) refused.push({ file, item: META_ITEM, part: 'plan', kept: 'agentboard', agentboard: null, person: meta.plan });
    for (const added of hand.added ?? []) refused.push({ file, item: added.id, part: 'added', kept: 'agentboard', agentboard: null, person: items.get(added.id) });
    for (const done of hand.done ?? []) refused.push({ file, item: done.id, part: 'state', kept: 'agentboard', agentboard: done.recorded, person: items.get(done.id)!.state });
    for (const d of hand.depends ?? []) refused.push({ file, item: d.id, part: 'plan', kept: 'agentboard', agentboard: { depends: d.recorded }, person: { depends: d.file } });
    this.conflicts.push(...refused);
    this.refused.set(path, refused);
    // Written again, the file says what the board goes on with: the tasks set back are rendered
    // anew, and the frontmatter is agentboard's (a person's text of it would keep the status).
    const recorded = asRecorded(doc, hand);
    const back = new Set([...(hand.done ?? []), ...(hand.depends ?? [])].map((d) => d.id));
    if (recorded.type === 'tasks' && back.size > 0) {
      const content = recorded.content as NonNullable<DocFile<'tasks'>['content']>;
      recorded.content = { ...content, blocks: content.blocks.map((b) => (b.task && back.has(b.id) ? { ...b, raw: renderTaskBlock(b.task) } : b)) } as typeof recorded.content;
    }
    if (recorded.type === 'tasks' && hand.missing) recorded.content = this.putBack(changeId, file, recorded.content as NonNullable<DocFile<'tasks'>['content']>, hand.missing) as typeof recorded.content;
    if (hand.status) delete recorded.frontmatter;
    return recorded;
  }

  /**
   * A task list's blocks with the tasks a hand edit took out (`missing`) put back as the commit
   * checked out holds them, each after the task before it there, as a merged hand edit keeps the
   * tasks agentboard wrote (store/merge.ts); each is recorded as a conflict, as there.
   */
  private putBack(changeId: string, file: string, content: NonNullable<DocFile<'tasks'>['content']>, missing: string[]): NonNullable<DocFile<'tasks'>['content']> {
    const committed = (this.board.committedDoc(changeId, 'tasks') as DocFile<'tasks'> | null)?.content?.blocks ?? [];
    const blocks = [...content.blocks];
    for (const id of missing) {
      const at = committed.findIndex((b) => b.id === id);
      const block = committed[at];
      if (!block?.task) continue;
      this.conflicts.push({ file, item: id, part: 'removed', kept: 'agentboard', agentboard: taskItem(block.task).plan, person: null });
      const before = committed.slice(0, at).reverse().find((b) => blocks.some((x) => x.id === b.id));
      blocks.splice(before ? blocks.findIndex((x) => x.id === before.id) + 1 : 0, 0, { id, task: block.task, raw: renderTaskBlock(block.task), line: block.line });
    }
    return { ...content, blocks };
  }

  /** Whether reading the document merged a hand edit that changed what only operations may change (a status, a holder, a task taken out), or a decision it did not take. */
  handEditChangedState(changeId: string, type: DocType): boolean {
    return this.stateByHand.has(this.board.docPath(changeId, type));
  }

  /** The decisions a hand edit of the document made that reading it did not take (a status, a review's verdict, a task added to an approved list). */
  refusedDecisions(changeId: string, type: DocType): readonly MergeConflict[] {
    return this.refused.get(this.board.docPath(changeId, type)) ?? [];
  }

  /** A task list read quickly; a file a person edited is read in full and merged first. */
  taskList(changeId: string): TaskList | null {
    const path = this.board.docPath(changeId, 'tasks');
    if (this.seen.has(path) || this.newChanges.has(changeId)) {
      const doc = this.seen.get(path) as DocFile<'tasks'> | undefined;
      if (!doc) return null;
      // Summed up once per version of the list: a write stages a new one, and each call of a batch asks again.
      let list = listsSeen.get(doc);
      if (list === undefined) listsSeen.set(doc, (list = listOf(doc, false)));
      return list;
    }
    let list: TaskList | null;
    try {
      list = this.board.taskList(changeId);
    } catch (err) {
      if (err instanceof AgentboardError) return null;
      throw err;
    }
    if (!list?.edited) return list;
    const doc = this.readDoc(changeId, 'tasks');
    return doc ? listOf(doc, false) : null;
  }

  /**
   * Whether the task list of a change may hold tasks of `actor`: false only when it cannot (a list
   * as it is on disk whose text does not even name the actor), so that a caller looking for the
   * actor's tasks need not sum up the others.
   */
  mayHold(changeId: string, actor: string): boolean {
    const path = this.board.docPath(changeId, 'tasks');
    if (this.seen.has(path) || this.newChanges.has(changeId)) return true;
    try {
      return this.board.docHead(changeId, 'tasks')?.edited !== false || this.board.names(changeId, 'tasks', actor);
    } catch (err) {
      if (err instanceof AgentboardError) return true;
      throw err;
    }
  }

  /** A document's frontmatter; a file a person edited is read in full and merged first. */
  docGist(changeId: string, type: 'proposal' | 'spec'): { meta: HeadMeta; title: string | null } | undefined {
    // What this transaction read or wrote is its own: read in full.
    if (this.seen.has(this.board.docPath(changeId, type)) || this.newChanges.has(changeId)) return undefined;
    return this.board.docGist(changeId, type);
  }

  docMeta(changeId: string, type: DocType): HeadMeta | null {
    const path = this.board.docPath(changeId, type);
    if (this.seen.has(path) || this.newChanges.has(changeId)) {
      const doc = this.seen.get(path);
      return doc && doc.content !== null ? doc.meta : null;
    }
    const head = this.board.docHead(changeId, type);
    if (head && !head.edited) return head.meta;
    // Edited by a person, or no frontmatter to read (an editor may be half-way through a save): read in full, once the editor is done.
    const doc = this.readDoc(changeId, type);
    return doc && doc.content !== null ? doc.meta : null;
  }

  /**
   * The ids of the tasks deleted from a change's task list, which are never given to another task:
   * those its frontmatter names (they travel with it in git), and those this clone's ledger
   * remembers agentboard removing.
   */
  retiredTaskIds(changeId: string): Set<string> {
    return new Set([...(this.readDoc(changeId, 'tasks')?.meta.retired ?? []), ...taskIdsRemoved(this.board.ledgerOf(changeId))]);
  }

  /**
   * The runtime data as of this write. Loading it applies the deadlines that have passed by the
   * board's clock: questions nobody answered in time resolve to their default action, and that
   * resolution is written with this commit.
   */
  get runtime(): RuntimeData {
    if (this.runtimeDb === null) {
      const path = this.board.runtimePath;
      this.recordRead(path);
      this.runtimeDb = openRuntime(path, this.board.rel(path), (text) => (this.runtimeText = text));
      this.expired = expireInputs(this.runtimeDb.data, this.now, this.board.questionsSeen?.());
      for (const id of this.expired) {
        const input = this.runtimeDb.data.inputs[id]!;
        this.log('agentboard', 'input.expire', id, `input request ${id} of ${input.agent_id} timed out; default action applies: ${input.default_action}`);
        this.runtimeDirty = true;
      }
    }
    return this.runtimeDb.data;
  }

  /** Ids of the input requests that timed out when the runtime was loaded in this transaction. */
  get expiredInputs(): string[] {
    void this.runtime;
    return this.expired;
  }

  // ---- merging a person's edit -------------------------------------------------------------------

  /** A person's edit is merged only once their editor has finished writing the file (see store/writers.ts). */
  private whenWritten(changeId: string, type: DocType, loaded: Loaded): Loaded | null {
    const path = this.board.docPath(changeId, type);
    const deadline = Date.now() + WRITER_WAIT_MS;
    let writers = openWriters(path);
    // Nobody writing it, and it parses: it is the person's finished save. (One that did not parse is
    // read once more below: the save may have ended between the read and this look.)
    if (writers.length === 0 && !unparsable(loaded.doc)) return loaded;
    for (; writers.length > 0; writers = openWriters(path)) {
      if (Date.now() > deadline) {
        fail('BOARD_CHANGED', `${this.board.rel(path)} is being written by another program (pid ${writers.join(', ')}); nothing was changed.`, `Let the editor finish saving, then try ${SAME_CALL} again.`);
      }
      sleepSync(50);
      this.board.rereadDoc(changeId, type);
      if (!this.board.load(changeId, type)?.edited) break;
    }
    // Read again once the editor is done: it may have written the rest after the last look.
    this.board.rereadDoc(changeId, type);
    return this.board.load(changeId, type);
  }

  /** Merges a person's edit (`personText`, after a byte order mark when `bom`) onto agentboard's last write of the file (`entry`). */
  private mergeEdited(changeId: string, type: DocType, person: DocFile, personText: string, bom: boolean, entry: NonNullable<Loaded['entry']>): DocFile {
    const path = this.board.docPath(changeId, type);
    const shown = this.board.rel(path);
    // A task the person's list lacks and retires was removed on purpose (by another clone, pulled with git, say): it goes.
    const dropped = new Set(person.meta.retired);
    const base = baseItems(entry);
    // A person's decisions are not taken from a save (store/decisions.ts), unless they came with git.
    const decisions = type === 'design' ? undefined : { key: META_ITEM, state: (state: Item['state']) => state.status, ...(type === 'review' ? { plan: (plan: Item['plan']) => latestVerdict(String(plan.body ?? '')) } : {}) };
    const committed = () => {
      const doc = this.board.committedDoc(changeId, type);
      return doc ? docItems(doc) : null;
    };
    const closed = type === 'tasks' && base.get(META_ITEM)?.state.status === 'approved';
    const result = mergeItems({ file: shown, version: entry.version, base, history: entry.history, person: docItems(person), dropped, decisions, closed, tasks: type === 'tasks', committed });
    this.conflicts.push(...result.conflicts);
    this.byPerson.set(path, new Map(result.items.filter((i) => i.byPerson !== 0).map((i) => [i.key, i.byPerson])));
    if (tookState(base, result.items) || result.refused.length > 0) this.stateByHand.add(path);
    if (result.refused.length > 0) this.refused.set(path, result.refused);
    const meta = result.items.find((i) => i.key === META_ITEM)!.item;
    let merged: { doc: DocFile; text: string };
    if (type === 'tasks') {
      // A task the merge left out (added by hand to an approved list) was never on the board: its id is not retired.
      const left = new Set(result.refused.filter((c) => c.part === 'added').map((c) => c.item));
      const content = person.content as NonNullable<DocFile<'tasks'>['content']>;
      if (left.size > 0) person = { ...person, content: { ...content, blocks: content.blocks.filter((b) => !left.has(b.id)) } };
      const blocks = (person.content as NonNullable<DocFile<'tasks'>['content']>).blocks;
      const byId = new Map(blocks.map((b) => [b.id, b]));
      const preamble = String(meta.plan.preamble ?? '');
      const written = entry.doc.meta.retired;
      merged = this.renderTaskList(
        changeId,
        person as DocFile<'tasks'>,
        written ? { ...itemMeta(meta), retired: written } : itemMeta(meta),
        meta.plan.extra as DocFile['extra'],
        meta.plan.comments as DocFile['comments'],
        preamble,
        result.items
          .filter((i) => i.key !== META_ITEM)
          .map(({ key, item, same }) => {
            const kept = byId.get(key);
            if (same && kept) return kept;
            const task = itemTask(key, item);
            return { id: key, task, raw: renderTaskBlock(task), ...(kept?.gap === undefined ? {} : { gap: kept.gap }) };
          }),
      );
    } else {
      const [merge, extra, body] = [itemMeta(meta), meta.plan.extra as DocFile['extra'], String(meta.plan.body ?? '')];
      const whole = renderDocFile(merge, extra, body, meta.plan.comments as DocFile['comments']);
      // The person's frontmatter stays as they wrote it, but for the fields the merge changes.
      const text = keptFrontmatter(type, shown, person, merge, extra, body, whole) ?? whole;
      merged = { doc: parseDocText(type, text, shown), text };
    }
    merged.text = withLineEndsOf(personText, merged.text);
    // Taken as it is when the file holds it: a save that raced with a commit is not in the file (the commit's text is), and is written.
    if (merged.text === personText && this.reads.get(path)?.text === personText) {
      this.adopt(path, changeId, type, person, personText, bom);
      this.handEdits.set(path, { base, read: person, pending: true });
      return person;
    }
    this.handEdits.set(path, { base, read: merged.doc, pending: true });
    this.staged.set(path, { path, text: merged.text, bom, doc: { changeId, type, parsed: merged.doc } });
    this.log('agentboard', 'file.merge', shown, mergeSummary(shown, result.conflicts.length), changeId);
    this.merges.push({ entry: this.entries[this.entries.length - 1]!, conflicts: result.conflicts });
    return merged.doc;
  }

  /** A person's document taken as it is: its ledger entry written (and, on a shared board, its bytes shared). */
  private adopt(path: string, changeId: string, type: DocType, doc: DocFile, text: string, bom: boolean): void {
    this.staged.set(path, { path, text, bom, doc: { changeId, type, parsed: doc }, adoptOnly: text });
  }

  /** Merges a person's save that raced with a commit (its bytes, as they were read back) onto what was committed. */
  mergeRaced(raced: Raced): void {
    const path = this.board.docPath(raced.changeId, raced.type);
    const current = this.board.load(raced.changeId, raced.type);
    if (!current?.entry) return;
    this.dropKept(raced);
    this.reads.set(path, { identity: current.identity, text: current.text, bom: current.bom });
    const person = parseDocText(raced.type, raced.text, this.board.rel(path));
    if (unparsable(person)) {
      // A half-written save: keep agentboard's text in place, and the person's bytes as a conflict to look at.
      this.keepSave(raced);
      return;
    }
    this.seen.set(path, this.mergeEdited(raced.changeId, raced.type, person, raced.text, raced.bom, current.entry));
  }

  /** A person's save kept whole among the conflicts, for them to look at (agentboard's text stays in place). */
  keepSave(raced: Raced): void {
    this.dropKept(raced);
    this.conflicts.push({ file: this.board.rel(this.board.docPath(raced.changeId, raced.type)), item: META_ITEM, part: 'plan', kept: 'agentboard', agentboard: null, person: raced.text });
  }

  /** The file that kept a save goes with the commit that merges it (or keeps it among the conflicts). */
  private dropKept(raced: Raced): void {
    if (raced.kept && !this.removals.includes(raced.kept)) this.removals.push(raced.kept);
  }

  // ---- staging ------------------------------------------------------------------------------------

  /** Refuses the write when the document does not parse, naming its file, the line and the problem, and the way out. */
  refuseUnparsable(doc: DocFile | null): void {
    if (!doc) return;
    if (doc.error) throw doc.error;
    if (!unparsable(doc)) return;
    const f = doc.findings.find((x) => x.level === 'error');
    fail(
      'PARSE_ERROR',
      `${doc.file}${f?.line ? `:${f.line}` : ''}: ${f?.message ?? 'the file cannot be read'}; agentboard does not rewrite a file that does not parse, so nothing was changed.`,
      `Finish or fix the edit of ${doc.file} (${f?.fix ?? 'restore it from git'}), then try ${SAME_CALL} again.`,
    );
  }

  private stageDoc(changeId: string, type: DocType, doc: DocFile, text: string): void {
    const path = this.board.docPath(changeId, type);
    const read = this.reads.get(path);
    // A document's file made anew: not beside one named as it but for its case.
    if ((read?.text ?? null) === null) this.refuseMisnamed(changeId, type);
    this.staged.set(path, { path, text: withLineEndsOf(read?.text, text), bom: read?.bom, doc: { changeId, type, parsed: doc } });
    this.seen.set(path, doc);
  }

  /**
   * Writes a whole document (frontmatter and body). Returns it as it will be read back, and its text.
   * Over a person's edit not merged yet, the body is the three-way merge of agentboard's last write,
   * the person's and this one (write-merge.ts).
   */
  putDoc<T extends DocType>(changeId: string, type: T, meta: DocMeta, body: string): { doc: DocFile<T>; text: string } {
    const existing = this.readDoc(changeId, type);
    this.refuseUnparsable(existing);
    const hand = type === 'tasks' ? null : this.pendingHandEdit(changeId, type);
    if (!hand || !existing) return this.stageWhole(changeId, type, existing, meta, body);
    const base = String(hand.base.get(META_ITEM)?.plan.body ?? '');
    const merged = mergeBody(existing.file, base, existing.body, body);
    return this.stageWhole(changeId, type, existing, meta, merged.body, { meta, body, conflicts: merged.conflicts, edited: () => editedParts(base, existing.body) });
  }

  /** Writes a document from its content; the store renders the markdown. A task list is given as its title and tasks. */
  putDocument<T extends DocType>(changeId: string, type: T, meta: DocMeta, content: DocInput[T]): { doc: DocFile<T>; text: string } {
    if (type !== 'tasks') return this.putDoc(changeId, type, meta, renderInput(type, content));
    const list = content as DocInput['tasks'];
    const existing = this.readDoc(changeId, 'tasks');
    this.refuseUnparsable(existing);
    const written = this.retiring(changeId, existing, meta, list.tasks);
    const hand = this.pendingHandEdit(changeId, 'tasks');
    if (!hand || !existing?.content) return this.stageWhole(changeId, type, existing, written, renderInput(type, content));
    // Merged with the person's edit: task by task, and the list's title and intro line by line.
    const file = existing.file;
    const blocks = existing.content.blocks.filter((b) => b.task !== null);
    const base = baseTasks(hand.base);
    const tasks = mergeTaskList(file, base, blocks.map((b) => b.task!), list.tasks);
    const basePreamble = String(hand.base.get(META_ITEM)?.plan.preamble ?? '');
    const preamble = mergeBody(file, basePreamble, existing.content.preamble, renderTasksPreamble(list.title, list.intro), META_ITEM);
    const byId = new Map(blocks.map((b) => [b.id, b]));
    const merged = tasks.tasks.map((t) => {
      const kept = byId.get(t.id);
      // A task left as the person's file has it keeps its text as it is there.
      return kept && sameTask(kept.task!, t) ? kept : { id: t.id, task: t, raw: renderTaskBlock(t) };
    });
    const body = assembleTasksBody(tasksTitle(preamble.body), preamble.body, merged, existing.content.tail).body;
    const edited = () => [...(existing.content!.preamble === basePreamble ? [] : ['its title and intro']), ...blocks.filter((b) => changedByPerson(base.get(b.id), b.task!)).map((b) => b.id)];
    const conflicts = [...preamble.conflicts, ...tasks.conflicts];
    return this.stageWhole(changeId, type, existing, this.retiring(changeId, existing, meta, tasks.tasks), body, { meta: written, body: renderInput(type, content), conflicts, edited });
  }

  /**
   * Stages a whole document. `merge`, when the body was merged with a person's edit: the writer's
   * own version (meta and body), the conflicts and the parts the person's edit changed.
   */
  private stageWhole<T extends DocType>(changeId: string, type: T, existing: DocFile | null, meta: DocMeta, body: string, merge?: { meta: DocMeta; body: string; conflicts: MergeConflict[]; edited: () => string[] }): { doc: DocFile<T>; text: string } {
    const file = this.board.rel(this.board.docPath(changeId, type));
    const render = (m: DocMeta, b: string) => renderDocFile(m, existing?.extra ?? {}, b, existing?.comments);
    const whole = render(meta, body);
    const text = keptFrontmatter(type, file, existing, meta, existing?.extra ?? {}, body, whole) ?? whole;
    const doc = parseDocText(type, text, file);
    if (merge && body !== merge.body) this.refuseBrokenMerge(changeId, doc, parseDocText(type, render(merge.meta, merge.body), file), merge.edited);
    if (merge) this.conflicts.push(...merge.conflicts);
    this.stageDoc(changeId, type, doc, text);
    return { doc, text };
  }

  /** The person's edit of a document this write is the first of this transaction to merge with; null when there is none. */
  private pendingHandEdit(changeId: string, type: DocType): { base: Map<string, Item>; read: DocFile } | null {
    const hand = this.handEdits.get(this.board.docPath(changeId, type));
    if (!hand?.pending) return null;
    hand.pending = false;
    return hand;
  }

  /**
   * Refuses a write whose merge with a person's edit would break a rule the write alone keeps (two
   * requirements given one id, a dependency on a task the merge left out…): nothing is written.
   */
  private refuseBrokenMerge(changeId: string, merged: DocFile, writer: DocFile, edited: () => string[]): void {
    const requirementIds = merged.type === 'tasks' ? requirementIdsOf(this.readDoc(changeId, 'spec')) : null;
    const errors = (doc: DocFile) => checkDoc(doc, changeId, { requirementIds }).filter((f) => f.level === 'error');
    const key = (f: Finding) => `${f.rule}|${f.message.replace(/\d+/g, '#')}`;
    const found = errors(merged);
    if (found.length === 0) return;
    const own = new Set(errors(writer).map(key));
    const added = found.filter((f) => !own.has(key(f))).map(({ line: _line, ...f }) => f);
    if (added.length === 0) return;
    const parts = edited();
    fail(
      'VALIDATION_FAILED',
      `${merged.file} holds a person's edit that agentboard has not merged yet${parts.length ? ` (in ${parts.slice(0, 10).join(', ')})` : ''}, and this write joined with it would not be valid: ${added.slice(0, 10).map((f) => `${f.message} [${f.rule}]`).join('; ')}; nothing was changed.`,
      `Read ${merged.file} as the person left it (${refTo('document.get', { change_id: changeId, document: merged.type })}), take their edit into what you write, and try ${SAME_CALL} again; or ask a person to finish or undo their edit of the file.`,
      { findings: added },
    );
  }

  /**
   * Which parts of which items the person decided, as the ledger records them for a written
   * document: those this transaction's writes left as the person's merged edit had them.
   */
  private personParts(path: string, written: DocFile): Map<string, number> | undefined {
    const bits = this.byPerson.get(path);
    const read = this.handEdits.get(path)?.read;
    if (!bits || bits.size === 0 || !read || read === written) return bits;
    const before = docItems(read);
    const after = docItems(written);
    const out = new Map<string, number>();
    for (const [key, by] of bits) {
      const [p, a] = [before.get(key), after.get(key)];
      if (!p || !a) continue;
      const [pp, ps] = fingerprints(p);
      const [ap, as] = fingerprints(a);
      const kept = by & ((pp === ap ? PLAN_BY_PERSON : 0) | (ps === as ? STATE_BY_PERSON : 0));
      if (kept) out.set(key, kept);
    }
    return out;
  }

  /** Writes a document's frontmatter; its body stays byte for byte as it is. */
  putMeta<T extends DocType>(changeId: string, type: T, meta: DocMeta): DocFile<T> {
    if (type === 'tasks') return this.putTasks(changeId, { meta }).doc as DocFile<T>;
    const existing = this.readDoc(changeId, type);
    if (!existing) fail('DOCUMENT_NOT_FOUND', `Change ${changeId} has no ${DOC_FILES[type]}.`, `See the change with ${refTo(['change.show', 'change.list'], { change_id: changeId })}.`);
    return this.putDoc(changeId, type, meta, existing.body).doc;
  }

  /**
   * Refuses to make a document's file beside one named as it but for its case (Tasks.md for
   * tasks.md): the new file would silently take the place of what that one holds for every reader,
   * and a checkout on a file system that ignores case could keep only one of the two.
   */
  private refuseMisnamed(changeId: string, type: DocType): void {
    const misnamed = this.board.misnamedDocs(changeId).find((m) => m.type === type);
    if (!misnamed) return;
    const dir = this.board.rel(this.board.changeDir(changeId));
    const file = `${dir}/${misnamed.name}`;
    fail(
      'PARSE_ERROR',
      `${file} is named as the ${DOC_WORDS[type]} but for its case, and agentboard reads ${DOC_FILES[type]} only: it did not write ${DOC_FILES[type]} beside it, which would hide what ${misnamed.name} holds. Nothing was changed.`,
      `Rename it with \`git mv ${file} ${dir}/${DOC_FILES[type]}\` (or \`mv\` when it is not in git), then try ${SAME_CALL} again.`,
    );
  }

  /**
   * Writes a file of the board itself (agentd/people.yaml, agentd/config.yaml, agentd/.gitignore) as
   * part of this commit, with the byte order mark and line ends the file had, as a document's.
   * `text` may be an edit of the file's text as read (null: there is none).
   */
  putBoardFile(name: 'people.yaml' | 'config.yaml' | '.gitignore', text: string | ((current: string | null) => string)): void {
    const path = join(this.board.dir, name);
    this.recordRead(path);
    const read = this.reads.get(path)!;
    const written = typeof text === 'string' ? text : text(read.text);
    this.staged.set(path, { path, text: withLineEndsOf(read.text, written), bom: read.bom });
  }

  /**
   * Keeps a file that goes with a change but is none of its documents (what an import brings
   * over: notes, state files, checklists) at `path` inside the change's folder, byte for byte. It
   * is written with the commit like a document, and has no ledger entry: agentboard never merges it.
   */
  putAttachment(changeId: string, path: string, bytes: Buffer): void {
    const parts = path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\')) || parts.length < 2) {
      fail('INVALID_INPUT', `"${printable(path)}" is not a path for an attachment of ${changeId}.`, 'Keep attachments in a folder of the change, with a relative path and no "..".');
    }
    const target = join(this.board.changeDir(changeId), ...parts);
    if (!this.newChanges.has(changeId)) this.recordRead(target);
    this.staged.set(target, { path: target, text: '', bytes });
  }

  /**
   * Moves an entry of the board folder aside (`from` and `to` relative to agentd/) before anything
   * else of this commit is put in place: converting a folder in place keeps its originals so.
   */
  setAside(from: string, to: string): void {
    this.asides.push({ from: this.board.rel(join(this.board.dir, from)), to: this.board.rel(join(this.board.dir, to)) });
  }

  /** A new change: its folder, and (given `blank`) a blank proposal to fill in. */
  createChange(changeId: string, blank?: { meta: DocMeta; title: string }): void {
    // An archived change keeps its id: history read by id has one meaning, and the archive one folder per id.
    const another = `Pick another change id, like ${changeId.length <= 62 ? `${changeId}-2` : 'a shorter one'}.`;
    const archived = this.board.archived().find((a) => a.change_id === changeId);
    if (archived) fail('CHANGE_EXISTS', `Change ${changeId} was archived (${this.board.rel(join(this.board.archiveDir, archived.folder))}); its id stays taken.`, another);
    // Made over a change open on the board (not set aside by this write), its documents would land beside the old ones' folder, not in it.
    const folder = this.board.rel(this.board.changeDir(changeId));
    if (!this.newChanges.has(changeId) && !this.asides.some((a) => a.from === folder) && this.board.hasChange(changeId)) fail('CHANGE_EXISTS', `Change ${changeId} exists already (${folder}).`, another);
    this.newChanges.add(changeId);
    if (blank) this.putDoc(changeId, 'proposal', blank.meta, `\n${renderProposalBody({ title: blank.title, why: '', what_changes: '', impact: '' }, true)}`);
  }

  /**
   * Changes some tasks of a task list (and optionally its frontmatter). Only the blocks of changed
   * tasks are rendered again; every other block keeps its text as it is in the file.
   */
  putTasks(changeId: string, change: { replace?: Task[]; add?: Task[]; remove?: string[]; meta?: DocMeta }): { doc: DocFile<'tasks'>; text: string } {
    const base = this.readDoc(changeId, 'tasks');
    if (!base) fail('PHASE_NOT_READY', `Change ${changeId} has no task list yet.`, `Write the task list first with ${refTo('tasks.create', { change_id: changeId })}.`);
    this.refuseUnparsable(base);
    const replace = new Map((change.replace ?? []).map((t) => [t.id, t]));
    const removed = new Set(change.remove ?? []);
    for (const b of base.content!.blocks) {
      const ref = `${changeId}/${b.id}`;
      if (b.task && (replace.has(b.id) || removed.has(b.id)) && !this.claims.has(ref)) this.claims.set(ref, { task_id: ref, assignee: b.task.assignee ?? null, claimed_at: b.task.claimed_at ?? null });
    }
    const blocksWith = (tasks: Map<string, Task>) => {
      const blocks: Omit<TaskBlock, 'line'>[] = (removed.size === 0 ? base.content!.blocks : base.content!.blocks.filter((b) => !removed.has(b.id)))
        .map((b) => {
          const t = tasks.get(b.id);
          return t ? { ...b, task: t, raw: updatedTaskBlock(b, t) } : b;
        });
      for (const t of change.add ?? []) blocks.push({ id: t.id, task: t, raw: renderTaskBlock(t) });
      return blocks;
    };
    const list = (tasks: Map<string, Task>) => this.renderTaskList(changeId, base, change.meta ?? base.meta, base.extra, base.comments, base.content!.preamble, blocksWith(tasks));
    const hand = this.pendingHandEdit(changeId, 'tasks');
    const written = hand && baseTasks(hand.base);
    const merged = written ? this.mergeTaskEdits(base, written, replace, removed) : null;
    const out = list(merged?.tasks ?? replace);
    if (merged?.changed) {
      const edited = () => base.content!.blocks.filter((b) => b.task && changedByPerson(written!.get(b.id), b.task)).map((b) => b.id);
      this.refuseBrokenMerge(changeId, out.doc, list(replace).doc, edited);
    }
    if (merged) this.conflicts.push(...merged.conflicts);
    const path = this.board.docPath(changeId, 'tasks');
    // The tasks no put of this operation touched, in a list read as agentboard wrote it: their ledger history stands as it is.
    const before = this.staged.get(path)?.doc?.untouched ?? (this.staged.has(path) || this.byPerson.has(path) ? undefined : new Set(base.content!.blocks.map((b) => b.id)));
    const untouched = before && new Set([...before].filter((id) => !replace.has(id) && !removed.has(id)));
    this.stageDoc(changeId, 'tasks', out.doc, out.text);
    if (untouched) this.staged.get(path)!.doc!.untouched = untouched;
    return out;
  }

  /**
   * Tasks an operation changes (`replace`, made from the task list as read) merged with the person's
   * edit of them not merged yet (write-merge.ts): a field the operation sets that the person changed
   * too keeps the person's value. A task the person changed that the operation removes (`agentboard
   * task rm`) goes, as the command says, with the person's version recorded as a conflict.
   */
  private mergeTaskEdits(list: DocFile<'tasks'>, base: Map<string, Task>, replace: Map<string, Task>, removed: Set<string>): { tasks: Map<string, Task>; conflicts: MergeConflict[]; changed: boolean } {
    const tasks = new Map<string, Task>();
    const conflicts: MergeConflict[] = [];
    let changed = false;
    for (const b of list.content!.blocks) {
      const t = replace.get(b.id);
      if (!b.task) {
        if (t) tasks.set(b.id, t);
        continue;
      }
      if (t) {
        const merged = mergeTask(list.file, base.get(b.id), b.task, t, 'person');
        if (merged.conflict) conflicts.push(merged.conflict);
        changed ||= !sameTask(merged.task, t);
        // A task that merges back to the person's own keeps its text as the file has it.
        if (!sameTask(merged.task, b.task)) tasks.set(b.id, merged.task);
      } else if (removed.has(b.id) && changedByPerson(base.get(b.id), b.task)) {
        conflicts.push({ file: list.file, item: b.id, part: 'plan', kept: 'agentboard', agentboard: null, person: taskItem(b.task).plan });
      }
    }
    return { tasks, conflicts, changed };
  }

  /**
   * `meta` of a task list written with `tasks` in place of `base`, naming every id the list retires:
   * the ids `meta` and `base` retire, those the ledger remembers agentboard removing, and those of
   * the tasks of `base` that the list no longer has. A list that never lost a task has none.
   */
  private retiring(changeId: string, base: DocFile<'tasks'> | null, meta: DocMeta, tasks: { id: string }[]): DocMeta {
    const before = base?.content?.blocks ?? [];
    // A list of the same tasks in the same order (a task changed, none taken out) lost none: no set of its ids is needed.
    const same = before.length === tasks.length && before.every((b, i) => b.id === tasks[i]!.id);
    const now = same ? null : new Set(tasks.map((t) => t.id));
    const gone = now === null ? [] : before.flatMap((b) => (now.has(b.id) ? [] : [b.id]));
    const retired = [...new Set([...(meta.retired ?? []), ...(base?.meta.retired ?? []), ...taskIdsRemoved(this.board.ledgerOf(changeId)), ...gone])];
    const { retired: _before, ...rest } = meta;
    return retired.length > 0 ? { ...rest, retired: retired.sort(compareTaskIds) } : rest;
  }

  /** A task list as text, and as read back: unchanged blocks keep their findings, moved to their new lines. */
  private renderTaskList(changeId: string, base: DocFile<'tasks'>, listMeta: DocMeta, extra: DocFile['extra'], comments: DocFile['comments'], preamble: string, blocks: Omit<TaskBlock, 'line'>[]): { doc: DocFile<'tasks'>; text: string } {
    const meta = this.retiring(changeId, base, listMeta, blocks);
    const { body, content } = assembleTasksBody(tasksTitle(preamble), preamble, blocks, base.content?.tail);
    const emitted = emitMeta(meta, extra, comments);
    const frontmatter = base.frontmatter === undefined ? emitted : keptLines(base.frontmatter, emitMeta(base.meta, base.extra, base.comments), emitted);
    const text = joinFrontmatter(frontmatter, body);
    const bodyLine = frontmatter.split('\n').length + 2;
    // A finding of a block that is written again as it was moves with it; one of a rewritten block goes.
    const oldStarts = (base.content?.blocks ?? []).map((o) => ({ start: o.line + base.bodyLine - 1, block: o }));
    const findings = base.findings.flatMap((f) => {
      if (f.line === undefined || f.line < base.bodyLine) return [];
      if (oldStarts.length === 0 || f.line < oldStarts[0]!.start) return [{ ...f, line: f.line - base.bodyLine + bodyLine }];
      let k = oldStarts.length - 1;
      while (oldStarts[k]!.start > f.line) k--;
      const { start, block } = oldStarts[k]!;
      const now = content.blocks.find((b) => b.id === block.id && b.raw === block.raw);
      return now ? [{ ...f, line: f.line - start + now.line + bodyLine - 1 }] : [];
    });
    const doc: DocFile<'tasks'> = { type: 'tasks', file: base.file, meta, extra, ...(comments ? { comments } : {}), ...(frontmatter === emitted ? {} : { frontmatter }), body, bodyLine, content, where: {}, findings };
    return { doc, text };
  }

  /**
   * A file of the runtime folder read only by agentboard processes running now (the answer to a
   * call another process queued): put in place with the commit, so that it is there exactly when
   * the call's writes are, but not made durable (after a power cut nobody waits for it).
   */
  putVolatile(path: string, text: string): void {
    this.staged.set(path, { path, text, volatile: true });
  }

  /**
   * Calls `hook` as soon as the commit's files are in place, before the commit's own reads and
   * checks after them: the holder of the lock wakes the callers whose answers the commit put in
   * place (ops/combine.ts), which then go on while it finishes.
   */
  whenApplied(hook: () => void): void {
    this.appliedHooks.push(hook);
  }

  /** Removes a file of the runtime folder with the commit (a queued call it carried out). */
  removeWith(path: string): void {
    this.removals.push(path);
  }

  archiveChange(changeId: string, folder: string): void {
    this.archives.push({ changeId, folder });
  }

  saveRuntime(): void {
    void this.runtime;
    this.runtimeDirty = true;
  }

  /** The claims of the tasks this write changes, as they were before it. */
  touchedClaims(): TouchedClaim[] {
    return [...this.claims.values()];
  }

  /** The activity entries this write logs. */
  get logged(): readonly ActivityEntry[] {
    return this.entries;
  }

  /** Logs an entry, stamped with the time of this write unless told `at` (when what it logs was written). */
  log(actor: string, action: string, target: string, summary: string, changeId?: string, at = this.now): void {
    const entry: ActivityEntry = { at, actor, action, target, summary };
    if (changeId !== undefined) entry.change_id = changeId;
    this.entries.push(entry);
  }

  // ---- commit -------------------------------------------------------------------------------------

  /**
   * Writes everything staged, all or nothing; `publish` gets the commit's journal first (a shared
   * board's push). Returns the saves of people that raced with it (to merge next). A document a
   * person saved since the operation read it is a StaleRead (read again and redo), unless
   * `overLateSaves`: then the commit goes ahead and their save comes back among the raced ones, so
   * that a person saving again and again cannot keep agents out for good.
   */
  commit(options: { overLateSaves?: boolean; publish?: Publish } = {}): Raced[] {
    const publish = options.publish;
    const board = this.board;
    const rel = (p: string) => board.rel(p);
    if (this.runtimeDirty && this.runtimeDb) {
      this.runtimeDb.write();
      if (this.runtimeText !== null) this.staged.set(board.runtimePath, { path: board.runtimePath, text: this.runtimeText });
    }
    if (this.conflicts.length > 0) {
      // A merge's line counts the conflicts that stay: the rest of this write may settle some (settled).
      const kept = new Set(this.keptConflicts());
      for (const m of this.merges) m.entry.summary = mergeSummary(m.entry.target, m.conflicts.filter((c) => kept.has(c)).length);
      this.stageConflicts(kept);
    }
    const writes = [...this.staged.values()];
    if (writes.length === 0 && this.entries.length === 0 && this.newChanges.size === 0 && this.archives.length === 0 && this.asides.length === 0 && this.removals.length === 0) return [];

    // Each commit's temp files carry a token of its own, not the lock's: a holder commits batch after
    // batch under one lock, and a temp file of its next commit under the last one's name would be put
    // in place by the replay of that commit's done journal, should the holder die before its journal.
    const token = newToken();
    const journal: Journal = { v: 1, token, dirs: [], files: [], moves: [], removes: [], activity: null };
    if (this.asides.length > 0) {
      journal.aside = this.asides;
      for (const a of this.asides) this.ensureDir(dirname(join(board.root, a.to)));
    }
    const watched = new Map<string, Watched>();
    const late: Raced[] | null = options.overLateSaves ? [] : null;
    const ledgers: { changeId: string; ledger: Ledger; text: string }[] = [];
    const identities = new Map<string, string>();
    // Everything written is made durable at once, after the journal is in place (see journal.ts).
    const durable = { files: [] as string[], dirs: [board.runtimeDir] };
    const writeTemp = (temp: string, data: string | Buffer, target: string, volatile = false) => {
      // A person's read-only or private file keeps its permissions; the runtime's files are agentboard's own, and looked at no more.
      const mode = target.startsWith(board.runtimeDir + sep) ? undefined : fileMode(target);
      const identity = writeNewFile(temp, data, rel(target), { sync: false, mode });
      if (volatile) return identity;
      durable.files.push(temp);
      durable.dirs.push(dirname(temp));
      return identity;
    };
    let journaled = false;
    try {
      for (const changeId of this.newChanges) {
        this.ensureDir(board.changesDir);
        const target = board.changeDir(changeId);
        const temp = tempPath(target, token);
        try {
          mkdirSync(temp);
        } catch (err) {
          throw fsError(err, rel(target), 'write');
        }
        journal.dirs.push({ target: rel(target), temp: rel(temp), hashes: {} });
        durable.dirs.push(board.changesDir, temp);
      }
      for (const s of writes) {
        // A person's edit adopted as it is needs no new bytes, except on a shared board: the remote must get them.
        if (s.adoptOnly !== undefined && !publish) {
          identities.set(s.path, this.reads.get(s.path)?.identity ?? '');
          continue;
        }
        const data = s.bytes ?? fileText(s);
        // A file of a new change is written into the change's folder while that is still built under its temp name.
        const newDir = journal.dirs.find((d) => s.path.startsWith(join(board.root, d.target) + sep));
        if (newDir) {
          const inside = relative(join(board.root, newDir.target), s.path);
          const temp = join(board.root, newDir.temp, inside);
          if (dirname(temp) !== join(board.root, newDir.temp)) mkdirSync(dirname(temp), { recursive: true });
          identities.set(s.path, writeTemp(temp, data, s.path));
          newDir.hashes![inside] = sha1(data);
        } else {
          this.ensureDir(dirname(s.path));
          const temp = tempPath(s.path, token);
          identities.set(s.path, writeTemp(temp, data, s.path, s.volatile));
          // A volatile file has no hash: a power cut that lost its bytes does not undo the commit.
          journal.files.push(s.volatile ? { target: rel(s.path), temp: rel(temp) } : { target: rel(s.path), temp: rel(temp), hash: sha1(data) });
        }
        faultPoint('commit:temp', s.path);
      }
      for (const [changeId, docs] of this.byChange(writes)) {
        // Entries are replaced, never changed in place (nextEntry): a copy of the list of files will do.
        const known = board.ledgerOf(changeId);
        const ledger: Ledger = { ...known, files: { ...known.files } };
        for (const s of docs) {
          ledger.files[DOC_FILES[s.doc!.type]] = nextEntry(ledger.files[DOC_FILES[s.doc!.type]], s.doc!.parsed, fileText(s), identities.get(s.path)!, this.personParts(s.path, s.doc!.parsed), s.doc!.untouched);
        }
        const path = board.ledgerPath(changeId);
        this.ensureDir(dirname(path));
        const temp = tempPath(path, token);
        const text = serializeLedger(ledger, board.branch());
        writeTemp(temp, text, path);
        journal.files.push({ target: rel(path), temp: rel(temp), hash: sha1(text) });
        ledgers.push({ changeId, ledger, text });
      }
      journal.removes.push(...this.removals.map(rel));
      for (const a of this.archives) {
        this.ensureDir(board.archiveDir);
        journal.moves.push({ from: rel(board.changeDir(a.changeId)), to: rel(join(board.archiveDir, a.folder)) });
        journal.removes.push(rel(board.ledgerPath(a.changeId)));
      }
      if (this.entries.length > 0) {
        const shown = rel(board.activityPath);
        // Whether the log can be appended to is known before the commit: afterwards there is no going back.
        appendFile(board.activityPath, '', shown);
        const end = activityEnd(board.activityPath, shown);
        journal.activity = { file: shown, offset: end.size, text: (end.torn ? '\n' : '') + formatEntries(this.entries) };
      }
      faultPoint('commit:staged');
      for (const s of writes) {
        const read = this.reads.get(s.path);
        if (!s.doc || !read?.identity) continue;
        let fd: number;
        try {
          fd = openSync(s.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        } catch (err) {
          // Gone since the operation read it: git (checkout, restore, stash) replaces a file by deleting it and writing it anew.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StaleRead(`${rel(s.path)} changed while the operation ran`);
          throw err;
        }
        watched.set(s.path, { fd, identity: read.identity, hash: hashText((read.bom ? BOM : '') + (read.text ?? '')), changeId: s.doc.changeId, type: s.doc.type });
        // Recovery of this commit by another process puts the file in place as this one would, and merges what differs from it.
        const entry = journal.files.find((f) => f.target === rel(s.path));
        if (entry) entry.replaces = watched.get(s.path)!.hash;
      }
      if (!this.lock.confirm()) throw new LostLock('the board lock was taken over');
      this.verify(writes, watched, late);
      faultPoint('commit:verified');
      if (publish) {
        publish(journal);
        try {
          this.verify(writes, watched, late);
        } catch (err) {
          throw err instanceof StaleRead ? new PublishedThenChanged(err.message) : err;
        }
      }
      writeJournal(board.runtimeDir, journal, rel);
      journaled = true;
      // One round of fsyncs: this commit's temp files, journal and folders, and the renames and
      // log entries of the commit before (its done journal), which can then go.
      const done = board.doneJournal;
      const before = done ? durableSet(board.root, done) : { files: [], dirs: [] };
      syncAll([...durable.files, join(board.runtimeDir, JOURNAL_FILE), ...before.files], [...durable.dirs, ...before.dirs], rel);
      if (done) board.settled(done);
      // Checked again after the fsyncs, which take a while: a person's save in place meanwhile makes
      // the operation run again on it (the journal goes, nothing was applied), rather than be written
      // over and merged back afterwards, while the file shows the commit without it. (A commit
      // already pushed to a shared board's remote goes on: its check is the one above.)
      if (!publish) this.verify(writes, watched, late);
    } catch (err) {
      for (const w of watched.values()) closeSync(w.fd);
      if (journaled) removeJournal(board.runtimeDir, JOURNAL_FILE);
      discardTemps(board.root, journal);
      throw err;
    }
    faultPoint('commit:journal');
    // An editor that saves by writing a new file and renaming it over the document, after the check
    // above, would lose its save to a rename of the commit's file over it: each document is moved
    // aside and the commit's file linked in instead (replaceHeld), and a save found aside is merged
    // next like one made in place.
    const held = new Map<string, string[]>();
    try {
      try {
        applyJournal(board.root, journal, rel, { replace: (temp, target) => replaceHeld(temp, target, watched, held, token) });
        markDone(board.runtimeDir);
      } catch (err) {
        throw madeButUnfinished(err);
      }
      for (const hook of this.appliedHooks) hook();
      board.applied(journal);
      // What the commit changed on disk is read from disk again (what it wrote is known by its text, see remember()).
      board.begin();
      for (const l of ledgers) board.rememberLedger(l.changeId, l.ledger, l.text);
      for (const s of writes) if (s.doc) board.remember(s.doc.changeId, s.doc.type, s.doc.parsed, s.text, identities.get(s.path)!, s.bom === true);
      // Every save the commit wrote over, oldest first, to be merged in turn: the one the last try
      // found and wrote over anyway (late), one made in place on the file it checked, and one renamed
      // over that file after the check (held). Each newer one is the person's word after the older.
      const raced: Raced[] = [];
      for (const r of [...(late ?? []), ...this.racedSaves(watched), ...replacedSaves(held, watched)]) {
        const before = raced.findLast((b) => b.changeId === r.changeId && b.type === r.type);
        if (before?.text !== r.text || before.bom !== r.bom) raced.push(r);
        else if (r.kept) unlinkQuietly(r.kept);
      }
      return raced;
    } finally {
      for (const w of watched.values()) closeSync(w.fd);
      for (const names of held.values()) for (const name of names) unlinkQuietly(name);
    }
  }

  private byChange(writes: Staged[]): Map<string, Staged[]> {
    const out = new Map<string, Staged[]>();
    for (const s of writes) {
      if (!s.doc || this.archives.some((a) => a.changeId === s.doc!.changeId)) continue;
      out.set(s.doc.changeId, [...(out.get(s.doc.changeId) ?? []), s]);
    }
    return out;
  }

  /**
   * Makes sure the folder a file of the commit goes in is a plain folder in plain folders, made when
   * missing. Looked at once per commit (a batch puts many files in a few folders): below a folder
   * looked at already, only the rest of the way.
   */
  private ensureDir(dir: string): void {
    if (this.dirsChecked.has(dir)) return;
    const show = (p: string) => this.board.rel(p);
    const parent = dirname(dir);
    const from = this.dirsChecked.has(parent) ? parent : this.board.root;
    if (!checkDirs(from, dir, show)) {
      try {
        mkdirSync(dir, { recursive: true });
      } catch (err) {
        throw fsError(err, this.board.rel(dir), 'write');
      }
      checkDirs(from, dir, show);
    }
    for (let d = dir; d.length > this.board.root.length && !this.dirsChecked.has(d); d = dirname(d)) this.dirsChecked.add(d);
  }

  /** Every file this commit replaces must still be what the operation read; a person's save in between means: read again. */
  private verify(writes: Staged[], watched: Map<string, Watched>, late: Raced[] | null): void {
    for (const s of writes) {
      const read = this.reads.get(s.path);
      if (!read) continue;
      const w = watched.get(s.path);
      const now = w ? identityOf(fstatSync(w.fd)) : null;
      const atPath = currentIdentity(s.path, this.board.rel(s.path));
      if (atPath === null && read.identity === null) continue;
      let current: FileRead | null = null;
      if (atPath !== null) {
        try {
          current = readBoardFile(s.path, this.board.rel(s.path));
        } catch {
          // unreadable for now (a save under way): changed
        }
      }
      // Compared by content too: a save in place within one tick of the file system's clock can keep size and mtime.
      if (current !== null && read.text !== null && (now === null || now === atPath) && current.text === read.text && current.bom === read.bom) continue;
      if (late && s.doc && current !== null) {
        // The person keeps saving: commit, then merge their save (the newest) as one that raced with the rename.
        const doc = s.doc;
        const seen = late.findIndex((l) => l.changeId === doc.changeId && l.type === doc.type);
        if (seen >= 0) late.splice(seen, 1);
        late.push(savedAs(doc.changeId, doc.type, current.bytes));
        continue;
      }
      throw new StaleRead(`${this.board.rel(s.path)} changed while the operation ran`);
    }
  }

  /**
   * Saves that landed in place on a file's old version while it was being replaced: their bytes are
   * still readable through the descriptor held on it, once the writer has finished.
   */
  private racedSaves(watched: Map<string, Watched>): Raced[] {
    const raced: Raced[] = [];
    for (const [path, w] of watched) {
      if (identityOf(fstatSync(w.fd)) === w.identity && hashText(readAll(w.fd)) === w.hash) continue;
      const deadline = Date.now() + WRITER_WAIT_MS;
      let last = '';
      // Finished: nobody has it open for writing, and it has stopped changing.
      while (Date.now() < deadline && (openWriters(path, true).length > 0 || last !== identityOf(fstatSync(w.fd)))) {
        last = identityOf(fstatSync(w.fd));
        sleepSync(50);
      }
      raced.push(savedAs(w.changeId, w.type, readAll(w.fd)));
    }
    return raced;
  }

  /** Clears recorded conflicts (of one file, or all); returns how many. */
  clearConflicts(file?: string): number {
    const existing = this.board.readConflicts();
    const kept = existing.filter((c) => file !== undefined && c.file !== file);
    if (kept.length === existing.length) return 0;
    this.recordRead(this.board.conflictsPath);
    this.staged.set(this.board.conflictsPath, { path: this.board.conflictsPath, text: `${JSON.stringify(kept, null, 2)}\n` });
    return existing.length - kept.length;
  }

  private recordRead(path: string): void {
    const read = readBoardFile(path, this.board.rel(path));
    this.reads.set(path, { identity: read?.identity ?? null, text: read?.text ?? null, bom: read?.bom ?? false });
  }

  /** The conflicts this write leaves for a person to look at: those its merges found, but those the write settles itself. */
  keptConflicts(): MergeConflict[] {
    if (this.conflicts.length === 0) return [];
    const written = new Map([...this.staged.values()].flatMap((s) => (s.doc ? [[this.board.rel(s.path), docItems(s.doc.parsed)] as const] : [])));
    return this.conflicts.filter((c) => !settled(c, written.get(c.file)));
  }

  private stageConflicts(kept: Set<MergeConflict>): void {
    const path = this.board.conflictsPath;
    this.recordRead(path);
    const existing = this.staged.has(path) ? (JSON.parse(this.staged.get(path)!.text) as RecordedConflict[]) : this.board.readConflicts();
    const at = this.now;
    const key = (c: MergeConflict) => JSON.stringify([c.file, c.item, c.part, c.person]);
    const known = new Set(existing.map(key));
    const added = [...kept].filter((c) => !known.has(key(c))).map((c) => ({ ...c, at }));
    if (added.length === 0) return;
    const all = [...existing, ...added].slice(-200);
    this.staged.set(path, { path, text: `${JSON.stringify(all, null, 2)}\n` });
  }
}

export type RecordedConflict = MergeConflict & { at: string };

/** The activity line of a merged hand edit: with the conflicts it leaves for a person to see. */
function mergeSummary(shown: string, conflicts: number): string {
  return `merged a hand edit of ${shown}${conflicts ? ` (${conflicts} conflict${conflicts === 1 ? '' : 's'} kept for a person to see)` : ''}`;
}

/**
 * Whether a conflict where agentboard's value was kept over a person's edit is settled by the file
 * as the same write leaves it (`written`, its items; undefined when the write leaves it as it is):
 * it holds every value the edit changed, or lacks the item the edit took out. A person who types a
 * task done and then runs `agentboard task done` has lost nothing to look at.
 */
function settled(c: MergeConflict, written: Map<string, Item> | undefined): boolean {
  if (c.kept !== 'agentboard' || written === undefined) return false;
  const now = written.get(c.item);
  if (c.part === 'removed') return now === undefined;
  const isFields = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if ((c.part !== 'state' && c.part !== 'plan') || now === undefined || !isFields(c.person) || !isFields(c.agentboard)) return false;
  const recorded = c.agentboard;
  const values = now[c.part];
  return Object.entries(c.person).every(([field, value]) => sameValue(value, recorded[field]) || sameValue(value, values[field]));
}
