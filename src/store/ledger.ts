/**
 * The ledger: what agentboard last wrote to each document of a change, like git's index.
 *
 * agentd/.runtime/ledger/<change_id>.json holds, per document file, the SHA-1 and identity (inode,
 * size, mtime) of the bytes agentboard wrote, the parse of those bytes, a version counting the
 * writes, and per item (a task, or a document's frontmatter) the history of its plan and state
 * fingerprints. Its first line is a small header (per file: hash, identity, version), so that
 * telling whether a file is still what agentboard wrote costs a few hundred bytes, not the parse. A file whose identity still matches is read from the ledger without parsing; a
 * file that differs was edited by a person and is merged onto (store/merge.ts). The ledger of a
 * file agentboard writes is written in the same commit as the file; a file agentboard has only
 * read is adopted (its ledger entry written alongside, as a cache that can be rebuilt).
 */
import { DOC_FILES, DOC_LOG_FIELDS, DOC_STATE_FIELDS, TASK_LOG_FIELDS, TASK_PLAN_FIELDS, TASK_STATE_FIELDS, type DocMeta, type DocType, type Task, type YamlComments } from '../domain/model.js';
import { renderDocFile, type DocFile } from './documents.js';
import { assembleTasksBody, GAP, renderTaskBlock, TAIL, type TaskBlock, type TasksBody } from './format-tasks.js';
import { fingerprints, type Entry, type History, type Item } from './merge.js';
import { sha1 } from './hash.js';
import { withoutBom } from './markdown.js';

const VERSION = 1;
const HISTORY_MAX = 32;
const TOMBSTONES_MAX = 500;

export const hashText = sha1;

/** A task list's blocks as offsets into the body, so the ledger does not hold the file's text twice. */
interface StoredBlock {
  id: string;
  task: Task | null;
  start: number;
  end: number;
  line: number;
}

type StoredDoc = Omit<DocFile, 'body' | 'content'> & {
  /** For task lists the body is the file's text from bodyStart; other documents keep their body. */
  body?: string;
  bodyStart?: number;
  content: unknown;
};

export interface LedgerEntry {
  hash: string;
  identity: string;
  version: number;
  doc: StoredDoc;
  history: Record<string, History>;
}

export interface Ledger {
  v: typeof VERSION;
  /**
   * The git branch checked out when it was written (`refs/heads/main`; see Board.branch): the
   * ledger says what agentboard wrote on that branch only. After a switch to another branch the
   * documents are that branch's, not a person's edits of these.
   */
  branch?: string;
  files: Record<string, LedgerEntry>;
}

export function emptyLedger(): Ledger {
  return { v: VERSION, files: {} };
}

/**
 * What a summing up of the board (status, list) needs of a proposal or a spec besides its
 * frontmatter: its title, and whether it reads whole without errors. Kept in the header, so that a
 * file as agentboard wrote it is summed up without parsing its body.
 */
export interface DocGist {
  title: string | null;
  clean: boolean;
}

/** What the first line of a ledger file says of each document file. */
export type LedgerHeader = Record<string, Pick<LedgerEntry, 'hash' | 'identity' | 'version'> & { gist?: DocGist }>;

const GIST_FILES = new Set<string>([DOC_FILES.proposal, DOC_FILES.spec]);

/** What the header says of a document file (`name`, as in DOC_FILES) of this entry. */
export function headerEntry(name: string, e: LedgerEntry): LedgerHeader[string] {
  const head = { hash: e.hash, identity: e.identity, version: e.version };
  if (!GIST_FILES.has(name)) return head;
  const content = e.doc.content as { title?: unknown } | null;
  const clean = content !== null && !e.doc.findings.some((f) => f.level === 'error');
  return { ...head, gist: { title: typeof content?.title === 'string' ? content.title : null, clean } };
}

/** The ledger's text, written on `branch` (null outside git). */
export function serializeLedger(ledger: Ledger, branch: string | null): string {
  const header: LedgerHeader = {};
  for (const [name, e] of Object.entries(ledger.files)) header[name] = headerEntry(name, e);
  const on = branch === null ? {} : { branch };
  return `${JSON.stringify({ v: VERSION, ...on, files: header })}\n${JSON.stringify({ ...ledger, branch: branch ?? undefined })}\n`;
}

/** Whether a ledger written on `written` speaks of the files on `branch`: the same branch, or either is not known. */
function sameBranch(written: unknown, branch: string | null): boolean {
  return written === undefined || branch === null || written === branch;
}

/** The header of a ledger file's text (its first line); null when it is not one; empty when it was written on another branch. */
export function parseLedgerHeader(firstLine: string, branch: string | null): LedgerHeader | null {
  try {
    const h = JSON.parse(firstLine) as { v: number; branch?: string; files: LedgerHeader };
    if (!(h && h.v === VERSION && typeof h.files === 'object' && h.files !== null)) return null;
    return sameBranch(h.branch, branch) ? h.files : {};
  } catch {
    return null;
  }
}

/** The ledger of a ledger file's text; null when it is not one; empty when it was written on another branch. */
export function parseLedger(text: string, branch: string | null): Ledger | null {
  const nl = text.indexOf('\n');
  try {
    const l = JSON.parse(text.slice(nl + 1)) as Ledger;
    if (!(l && l.v === VERSION && typeof l.files === 'object' && l.files !== null)) return null;
    return sameBranch(l.branch, branch) ? l : emptyLedger();
  } catch {
    return null;
  }
}

function storeDoc(doc: DocFile, text: string): StoredDoc {
  const whole = { ...doc, content: doc.content };
  if (doc.type !== 'tasks' || doc.content === null) return whole;
  // A body that is not the file's text as it is (CRLF line ends, read as LF) is kept whole: a
  // ledger entry is the base every later merge of a person's save needs, whatever the line ends.
  const bodyStart = text.length - doc.body.length;
  if (text.slice(bodyStart) !== doc.body) return whole;
  const content = doc.content as NonNullable<DocFile<'tasks'>['content']>;
  let from = content.preamble.length;
  const blocks: StoredBlock[] = [];
  for (const b of content.blocks) {
    const start = doc.body.indexOf(b.raw, from);
    if (start < 0) return whole;
    blocks.push({ id: b.id, task: b.task, start, end: start + b.raw.length, line: b.line });
    from = start + b.raw.length;
  }
  const { body: _body, content: _content, ...rest } = doc;
  return { ...rest, bodyStart, content: { title: content.title, preamble: content.preamble, blocks } };
}

/** The parsed document of a ledger entry, given the file's text (whose hash or identity matched). */
export function restoreDoc<T extends DocType>(entry: LedgerEntry, text: string): DocFile<T> {
  const stored = entry.doc;
  if (stored.bodyStart === undefined) return structuredClone(stored) as unknown as DocFile<T>;
  const body = text.slice(stored.bodyStart);
  const content = stored.content as { title: string; preamble: string; blocks: StoredBlock[] } | null;
  // The blocks are taken one by one below: only the rest is cloned here.
  const { bodyStart: _start, content: _content, ...rest } = stored;
  return {
    ...structuredClone(rest),
    body,
    content: content && {
      title: content.title,
      preamble: content.preamble,
      ...spacedBlocks(body, content.preamble.length, content.blocks),
    },
  } as unknown as DocFile<T>;
}

/**
 * The text of the file a ledger entry was written as, rendered again from what the entry keeps (a
 * document's whole parse; a task list's preamble and tasks, as agentboard writes them), without the
 * file; null when the entry does not keep enough. The caller checks it against the entry's hash.
 */
export function writtenText(entry: LedgerEntry): string | null {
  const stored = entry.doc;
  let body = stored.body;
  if (body === undefined && stored.type === 'tasks' && stored.content) {
    const { title, preamble, blocks } = stored.content as { title: string; preamble: string; blocks: StoredBlock[] };
    if (blocks.some((b) => b.task === null)) return null;
    body = assembleTasksBody(title, preamble, blocks.map((b) => ({ id: b.id, task: b.task, raw: renderTaskBlock(b.task!) }))).body;
  }
  return body === undefined ? null : renderDocFile(stored.meta, stored.extra, body, stored.comments);
}

/** The blocks at their offsets in the body, with the text between them where it is not what agentboard writes. */
function spacedBlocks(body: string, after: number, stored: StoredBlock[]): Pick<TasksBody, 'blocks' | 'tail'> {
  const blocks = stored.map((b) => {
    const block: TaskBlock = { id: b.id, task: structuredClone(b.task), raw: body.slice(b.start, b.end), line: b.line };
    const gap = body.slice(after, b.start);
    if (gap !== GAP) block.gap = gap;
    after = b.end;
    return block;
  });
  const tail = body.slice(after);
  return tail === TAIL ? { blocks } : { blocks, tail };
}

/** The previous version's items, without the file's text: enough to merge onto. */
export function baseItems(entry: LedgerEntry): Map<string, Item> {
  const stored = entry.doc;
  const meta = stored.meta;
  if (stored.bodyStart !== undefined) {
    const content = stored.content as { preamble: string; blocks: StoredBlock[] } | null;
    const items = new Map<string, Item>([[META_ITEM, metaItem(meta, stored.extra, { preamble: content?.preamble ?? '' }, stored.comments)]]);
    for (const b of content?.blocks ?? []) if (b.task) items.set(b.id, taskItem(b.task));
    return items;
  }
  // Kept whole (every document but a task list in offsets): the document as it was written.
  return docItems(stored as unknown as DocFile);
}

export const META_ITEM = '#meta';

/** The id of every task the ledger remembers agentboard removing from the change's task list (their tombstones). */
export function taskIdsRemoved(ledger: Ledger): string[] {
  const history = ledger.files[DOC_FILES.tasks]?.history;
  if (!history) return [];
  // An entry's history is replaced, never changed in place (nextEntry): what one gave stands.
  let ids = removedIn.get(history);
  if (!ids) removedIn.set(history, (ids = Object.entries(history).flatMap(([key, h]) => (key !== META_ITEM && h[h.length - 1]?.[1] === '' ? [key] : []))));
  return ids;
}

const removedIn = new WeakMap<object, string[]>();

function pick(source: object, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = (source as Record<string, unknown>)[k] ?? null;
  return out;
}

export function taskItem(task: Task): Item {
  return {
    // A person's own fields and comments are plan too; a task without any keeps the fingerprint it always had.
    plan: { ...pick(task, TASK_PLAN_FIELDS), ...(task.extra ? { extra: task.extra } : {}), ...(task.comments ? { comments: task.comments } : {}) },
    state: pick(task, TASK_STATE_FIELDS),
    logs: pick(task, TASK_LOG_FIELDS) as Record<string, Entry[]>,
  };
}

export function itemTask(id: string, item: Item): Task {
  const task = { id } as Record<string, unknown>;
  for (const part of [item.plan, item.state, item.logs]) for (const [k, v] of Object.entries(part)) if (v !== null) task[k] = v;
  return task as unknown as Task;
}

/** A document's frontmatter and its text: the title, a person's own keys and the body (or a task list's preamble) are plan. */
export function metaItem(meta: DocMeta, extra: Record<string, unknown>, text: { body?: string; preamble?: string }, comments?: YamlComments): Item {
  return {
    // Comments are plan too; a frontmatter without any keeps the fingerprint it always had.
    plan: { title: meta.title ?? null, id: meta.id, change_id: meta.change_id, type: meta.type, imported_from: meta.imported_from ?? null, extra, ...text, ...(comments ? { comments } : {}) },
    state: pick(meta, DOC_STATE_FIELDS),
    logs: pick(meta, DOC_LOG_FIELDS) as Record<string, Entry[]>,
  };
}

export function itemMeta(item: Item): DocMeta {
  const meta = { id: item.plan.id, change_id: item.plan.change_id, type: item.plan.type } as Record<string, unknown>;
  if (item.plan.title !== null && item.plan.title !== undefined) meta.title = item.plan.title;
  if (item.plan.imported_from !== null && item.plan.imported_from !== undefined) meta.imported_from = item.plan.imported_from;
  for (const [k, v] of Object.entries(item.state)) if (v !== null) meta[k] = v;
  for (const [k, v] of Object.entries(item.logs)) meta[k] = v ?? [];
  return meta as unknown as DocMeta;
}

/** The items of a parsed document: its frontmatter, and each readable task of a task list. */
export function docItems(doc: DocFile): Map<string, Item>;
/** The same keys, with the items `wanted` says no to left unmade (null). */
export function docItems(doc: DocFile, wanted: (key: string) => boolean): Map<string, Item | null>;
export function docItems(doc: DocFile, wanted: (key: string) => boolean = () => true): Map<string, Item | null> {
  if (doc.type === 'tasks') {
    const content = doc.content as DocFile<'tasks'>['content'];
    const items = new Map<string, Item | null>([[META_ITEM, metaItem(doc.meta, doc.extra, { preamble: content?.preamble ?? '' }, doc.comments)]]);
    for (const b of content?.blocks ?? []) if (b.task) items.set(b.id, wanted(b.id) ? taskItem(b.task) : null);
    return items;
  }
  return new Map([[META_ITEM, metaItem(doc.meta, doc.extra, { body: doc.body }, doc.comments)]]);
}

/**
 * The ledger entry after agentboard writes `doc` as `text` (or adopts a file it only read): the
 * version moves on, and every item whose plan or state changed gets a history entry. Items the
 * writer says it left `untouched` (in a document read as the previous entry has it) keep their
 * history without being fingerprinted again. `text` is the file's whole, with the byte order mark
 * it starts with, if any: the hash is of its bytes, the offsets kept into the text a read gives.
 */
export function nextEntry(previous: LedgerEntry | undefined, doc: DocFile, text: string, identity: string, byPerson: Map<string, number> = new Map(), untouched?: Set<string>): LedgerEntry {
  const stored = storeDoc(doc, withoutBom(text));
  const version = (previous?.version ?? 0) + 1;
  const history: Record<string, History> = { ...(previous?.history ?? {}) };
  const items = docItems(doc, (key) => !(untouched?.has(key) && history[key] !== undefined));
  for (const [key, item] of items) {
    if (item === null) continue;
    const h = history[key];
    const [p, s] = fingerprints(item);
    const last = h?.[h.length - 1];
    if (last && last[1] === p && last[2] === s) continue;
    const who = byPerson.get(key) ?? 0;
    const next = [...(h ?? []), (who ? [version, p, s, who] : [version, p, s]) as History[number]];
    history[key] = next.length > HISTORY_MAX ? next.slice(next.length - HISTORY_MAX) : next;
  }
  const gone = Object.keys(history).filter((key) => !items.has(key));
  for (const key of gone) {
    const h = history[key]!;
    if (h[h.length - 1]![1] !== '') history[key] = [...h, [version, '', ''] as History[number]].slice(-HISTORY_MAX);
  }
  // Past the limit the oldest tombstones go: the newest hold the highest task ids given, which keep an id from being given again.
  for (const key of gone.slice(0, Math.max(0, gone.length - TOMBSTONES_MAX))) delete history[key];
  return { hash: hashText(text), identity, version, doc: stored, history };
}
