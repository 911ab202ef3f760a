/** Reading documents, and the human decisions on them: approve, reject, send to reviewers, release. */
import { join } from 'node:path';
import * as z from 'zod';
import { fail } from '../errors.js';
import { LIMITS } from '../domain/limits.js';
import { DOC_TYPES, type DocMeta, type DocType, type Task } from '../domain/model.js';
import { checkDoc, renderDocFile, type DocFile } from '../store/documents.js';
import { readTextFile } from '../store/fs.js';
import { withLineEndsOf } from '../store/markdown.js';
import type { Transaction } from '../store/transaction.js';
import { docWord } from './doc-write.js';
import { defineOp, requireHuman } from './registry.js';
import { Actor, ArchivedLeftOut, ChangeId, DocState, DocStatus, DocType as DocTypeSchema, FindingOut, NoteOut, stateOf, text } from './schemas.js';
import { page, Page, pageInput, pageOf } from './pages.js';
import { archivedLeftOut, changeToRead, loadChangeToRead, openForWork, readDocOf, requireChange, taskOut, tasksOf } from './view.js';
import { refTo } from '../domain/refs.js';

const FORMATS = ['markdown', 'fields'] as const;

const DocOut = z.object({
  change_id: z.string(),
  document: DocTypeSchema,
  file: z.string(),
  status: DocStatus,
  author: z.string(),
  created: z.string(),
  updated: z.string(),
  revision: z.number().int(),
  review_requested_by: z.string().nullable(),
  corrected_by: z.string().nullable(),
  decided_by: z.string().nullable(),
  notes: z.array(NoteOut),
  feedback: z.array(NoteOut).describe('Feedback from people who rejected earlier versions, oldest first. Address it when you revise.'),
  format: z.enum(FORMATS),
  content: z.record(z.string(), z.unknown()).nullable().describe('format "fields": the document as fields, its list (tasks, rounds or requirements) one page of it.'),
  markdown: z.string().nullable().describe('format "markdown": the file as on disk, one page of its lines.'),
  findings: z.array(FindingOut),
  archived: z.boolean().describe('The change is archived: read-only.'),
  ...Page,
});

/** A document whose file cannot be read is not shown as one: what it holds is not known (its findings say why). */
function refuseUnreadable(doc: DocFile, changeId: string): void {
  if (doc.content !== null) return;
  if (doc.error) throw doc.error; // a file that cannot be read at all: its error names the file, the line and the way out
  const f = doc.findings.find((x) => x.level === 'error');
  fail('PARSE_ERROR', `${doc.file}${f?.line ? `:${f.line}` : ''}: ${f?.message ?? 'the file cannot be read'}; it is not shown until it is fixed.`, `Fix ${doc.file} by hand (${f?.fix ?? 'restore it from git'}); ${refTo('change.validate', { change_id: changeId })} lists every problem with its line.`);
}

/** The list of a document's fields that is read in pages, when it has one. */
const LISTS: Partial<Record<DocType, string>> = { tasks: 'tasks', review: 'rounds', spec: 'requirements' };
/** A document's list as its cursor names it: not the list of another tool (list_tasks' tasks). */
const listOfDocument = (list: string) => `${list} of the document`;

/** `open`: whether the change hands out its tasks now (view.ts openForWork). */
function contentOf(changeId: string, doc: DocFile, open: boolean): Record<string, unknown> {
  if (doc.content === null) return {};
  switch (doc.type) {
    case 'tasks': {
      const tasks = tasksOf(doc as DocFile<'tasks'>);
      const byId = new Map<string, Task>(tasks.map((t) => [t.id, t]));
      return { title: (doc as DocFile<'tasks'>).content!.title, tasks: tasks.map((t) => taskOut(changeId, t, byId, open)) };
    }
    case 'review':
      return { rounds: doc.content };
    default:
      return doc.content as unknown as Record<string, unknown>;
  }
}

/**
 * The lines of a text, each with its line end, as markdown is paged: a line longer than
 * LIMITS.linePartMax characters comes in parts of at most that many (never between the two halves
 * of a surrogate pair), so that a page of one line always fits a tool result and the cursor goes on
 * inside the line. Joined, the lines are the text.
 */
function linesOf(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const max = LIMITS.linePartMax;
  if (lines.every((line) => line.length <= max)) return lines;
  return lines.flatMap((line) => {
    const parts: string[] = [];
    for (let at = 0; at < line.length; ) {
      let end = Math.min(line.length, at + max);
      if (end < line.length && /[\uDC00-\uDFFF]/.test(line[end]!)) end--;
      parts.push(line.slice(at, end));
      at = end;
    }
    return parts;
  });
}

export const getDocument = defineOp({
  name: 'document.get',
  summary: 'Show a document of a change',
  access: 'read',
  input: z.strictObject({
    change_id: ChangeId,
    document: DocTypeSchema,
    format: z.enum(FORMATS).default('markdown').describe('"markdown": the file; "fields": its fields.'),
    ...pageInput(['lines', 'items', ...Object.values(LISTS).map(listOfDocument)], z.number().int().min(1).max(LIMITS.documentPageMax).optional().describe(`Lines (markdown; a line over ${LIMITS.linePartMax.toLocaleString('en-US')} characters counts once per ${LIMITS.linePartMax.toLocaleString('en-US')}) or items (fields); all that fit if left out.`)),
  }),
  output: DocOut,
  cli: { command: 'show', args: ['change_id', 'document'] },
  tool: {
    name: 'agentboard_get_document',
    title: 'Read a document',
    description:
      "Read a change's document a page at a time: status, author, markdown or fields, and the feedback of a rejection (read it before revising).",
    profiles: ['planner', 'reviewer', 'agent'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const change = changeToRead(board, input.change_id);
    const doc = readDocOf(board, change, input.document);
    if (!doc) {
      fail('DOCUMENT_NOT_FOUND', `Change ${input.change_id} has no ${docWord(input.document)} yet.`, `See what the change waits on with ${refTo(['change.show', 'change.list'], { change_id: input.change_id })}.`);
    }
    if (doc.error) throw doc.error;
    refuseUnreadable(doc, input.change_id);
    const m = doc.meta;
    const head = {
      change_id: input.change_id,
      document: input.document,
      file: doc.file,
      status: m.status,
      author: m.author,
      created: m.created,
      updated: m.updated,
      revision: m.revision,
      review_requested_by: m.review_requested_by ?? null,
      corrected_by: m.corrected_by ?? null,
      decided_by: m.decided_by ?? null,
      notes: m.notes,
      feedback: m.feedback,
      format: input.format,
      findings: checkDoc(doc, input.change_id),
      archived: change.archived !== null,
    };
    // The file as it is, and beside it (a note, never in its text) that it no longer changes.
    if (change.archived !== null) board.notices.push({ kind: 'archived', message: `${input.change_id} is archived (${doc.file}): read-only.` });
    if (input.format === 'markdown') {
      // The file as it is: with its own line ends (CRLF, say), which the board reads past (an open change's text is the board's read of it already).
      const asRead = change.archived === null ? board.load(input.change_id, input.document)?.text : readTextFile(join(board.root, doc.file), doc.file);
      const lines = linesOf(withLineEndsOf(asRead, renderDocFile(m, doc.extra, doc.body, doc.comments)));
      return pageOf(ctx, 'lines', lines, input, (page, info) => ({ ...head, content: null, markdown: page.join(''), ...info }));
    }
    const content = contentOf(input.change_id, doc, doc.type === 'tasks' && change.archived === null && openForWork(board, input.change_id, doc));
    const list = LISTS[input.document];
    const items = list && Array.isArray(content[list]) ? (content[list] as unknown[]) : [];
    return pageOf(ctx, list ? listOfDocument(list) : 'items', items, input, (page, info) => ({ ...head, content: list ? { ...content, [list]: page } : content, markdown: null, ...info }));
  },
});

const DocSummary = z.object({
  change_id: z.string(),
  document: DocTypeSchema,
  file: z.string(),
  status: DocState.unwrap(),
  author: z.string(),
  updated: z.string(),
  revision: z.number().int(),
  review_requested: z.boolean().describe('A person sent it to reviewer agents.'),
  blocking: z.boolean().describe('The next phase waits for a person to approve it.'),
  unreadable: z.boolean().describe('The file cannot be read (validate says where): its status and author are not known.'),
});

export const listDocuments = defineOp({
  name: 'document.list',
  summary: 'List documents, board-wide or for one change',
  access: 'read',
  input: z.strictObject({
    change_id: ChangeId.optional().describe('Only this change.'),
    status: DocStatus.optional().describe('Only documents with this status.'),
    awaiting: z.enum(['decision', 'review']).optional().describe('"decision": submitted, not yet decided by a person; "review": sent by a person to reviewer agents.'),
    ...pageInput('documents'),
  }),
  output: z.object({ documents: z.array(DocSummary), archived: z.boolean().describe('The listed change is archived: read-only.'), ...ArchivedLeftOut, ...Page }),
  cli: { command: 'docs', args: ['change_id?'] },
  tool: {
    name: 'agentboard_list_documents',
    title: 'List documents',
    description:
      'List the documents of the board or of a change, with their status. Reviewer agents find those a person sent them with awaiting: "review".',
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const changes = input.change_id ? [changeToRead(board, input.change_id)] : board.changeIds().map((changeId) => ({ changeId, archived: null }));
    const required = board.config.require_approval as readonly string[];
    const docs: z.input<typeof DocSummary>[] = [];
    for (const toRead of changes) {
      const id = toRead.changeId;
      const change = loadChangeToRead(board, toRead);
      for (const type of DOC_TYPES) {
        const doc = change[type];
        if (!doc) continue;
        const m = doc.meta;
        const entry = {
          change_id: id,
          document: type,
          file: doc.file,
          status: stateOf(doc)!,
          author: m.author,
          updated: m.updated,
          revision: m.revision,
          review_requested: m.status === 'submitted' && m.review_requested_by !== undefined,
          blocking: m.status === 'submitted' && required.includes(type),
          unreadable: doc.content === null,
        };
        if (input.status && m.status !== input.status) continue;
        if (input.awaiting === 'decision' && m.status !== 'submitted') continue;
        if (input.awaiting === 'review' && !entry.review_requested) continue;
        docs.push(entry);
      }
    }
    const leftOut = archivedLeftOut(board, input.change_id, (id) => refTo('document.list', { change_id: id }));
    return page(ctx, 'documents', docs, input, { archived: input.change_id !== undefined && changes[0]!.archived !== null, ...leftOut }, (d) => `${d.change_id} ${d.document}`);
  },
});

const DecisionOut = z.object({ change_id: z.string(), document: DocTypeSchema, status: DocStatus, decided_by: z.string().nullable(), file: z.string() });

/** Loads a document for a person's decision; it must exist, be readable and be valid. */
function loadForDecision(tx: Transaction, changeId: string, type: DocType): DocFile {
  requireChange(tx, changeId);
  const doc = tx.readDoc(changeId, type);
  if (doc?.error) throw doc.error;
  if (!doc) fail('DOCUMENT_NOT_FOUND', `Change ${changeId} has no ${docWord(type)}.`, `See the change with ${refTo('change.show', { change_id: changeId })}.`);
  const broken = checkDoc(doc, changeId).find((f) => f.level === 'error');
  if (broken) {
    fail('PARSE_ERROR', `${broken.file}${broken.line ? `:${broken.line}` : ''}: ${broken.message}.`, `Fix ${broken.file} first (${broken.fix}); run ${refTo('change.validate', { change_id: changeId })} to see every problem.`);
  }
  return doc;
}

function requireSubmitted(doc: DocFile, verb: string): void {
  if (doc.meta.status === 'approved') fail('DOCUMENT_APPROVED', `This ${docWord(doc.type)} has already been approved.`, `Nothing to do; see what the change waits on with ${refTo('change.show', { change_id: doc.meta.change_id })}.`);
  if (doc.meta.status !== 'submitted') {
    fail('DOCUMENT_NOT_SUBMITTED', `Only a submitted ${docWord(doc.type)} can be ${verb}; this one is ${doc.meta.status}.`, `Wait until it is submitted again; see the change with ${refTo('change.show', { change_id: doc.meta.change_id })}.`);
  }
}

function rewriteMeta(tx: Transaction, changeId: string, doc: DocFile, meta: DocMeta): void {
  tx.putMeta(changeId, doc.type, { ...meta, updated: tx.now });
}

const DecisionInput = { agent_id: Actor, change_id: ChangeId, document: DocTypeSchema };

export const approveDocument = defineOp({
  name: 'document.approve',
  summary: 'Approve a submitted document (people only)',
  access: 'human',
  input: z.strictObject({ ...DecisionInput, note: text(1, LIMITS.noteMax).optional().describe('An optional remark kept with the document.') }),
  output: DecisionOut,
  cli: { command: 'approve', args: ['change_id', 'document'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Approving a document');
    const board = ctx.board();
    return board.mutate((tx) => {
      const doc = loadForDecision(tx, input.change_id, input.document);
      requireSubmitted(doc, 'approved');
      // A verdict written by hand is no reviewer's: approving the review would archive the change on it.
      const forged = input.document === 'review' ? board.decisionsByHand(input.change_id).find((f) => f.rule === 'review.verdict.by_hand') : undefined;
      if (forged) fail('VALIDATION_FAILED', `${forged.file}${forged.line ? `:${forged.line}` : ''}: ${forged.message}.`, `Nothing was approved: ${forged.fix}; then approve the review.`);
      const meta: DocMeta = { ...doc.meta, status: 'approved', decided_by: input.agent_id, decided_at: tx.now, notes: [...doc.meta.notes] };
      delete meta.review_requested_by;
      delete meta.review_requested_at;
      if (input.note) meta.notes.push({ author: input.agent_id, at: tx.now, text: input.note });
      rewriteMeta(tx, input.change_id, doc, meta);
      tx.log(input.agent_id, 'document.approve', `${input.change_id}/${input.document}`, `approved the ${docWord(input.document)} of ${input.change_id}`, input.change_id);
      return { change_id: input.change_id, document: input.document, status: meta.status, decided_by: input.agent_id, file: doc.file };
    });
  },
});

export const rejectDocument = defineOp({
  name: 'document.reject',
  summary: 'Reject a submitted document with feedback (people only); it returns to the pool',
  access: 'human',
  input: z.strictObject({ ...DecisionInput, feedback: text(1, LIMITS.noteMax).describe('What must change; it is kept in the document and shown to whoever revises it.') }),
  output: DecisionOut,
  cli: { command: 'reject', args: ['change_id', 'document'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Rejecting a document');
    return ctx.board().mutate((tx) => {
      const doc = loadForDecision(tx, input.change_id, input.document);
      requireSubmitted(doc, 'rejected');
      const meta: DocMeta = { ...doc.meta, status: 'rejected', decided_by: input.agent_id, decided_at: tx.now };
      meta.feedback = [...doc.meta.feedback, { author: input.agent_id, at: tx.now, text: input.feedback }];
      for (const key of ['review_requested_by', 'review_requested_at', 'assignee', 'claimed_at'] as const) delete meta[key];
      rewriteMeta(tx, input.change_id, doc, meta);
      tx.log(input.agent_id, 'document.reject', `${input.change_id}/${input.document}`, `rejected the ${docWord(input.document)} of ${input.change_id}: ${input.feedback.slice(0, 120)}`, input.change_id);
      return { change_id: input.change_id, document: input.document, status: meta.status, decided_by: input.agent_id, file: doc.file };
    });
  },
});

export const requestReview = defineOp({
  name: 'document.request_review',
  summary: 'Send a submitted document to reviewer agents (people only)',
  access: 'human',
  input: z.strictObject({ ...DecisionInput }),
  output: DecisionOut.extend({ review_requested_by: z.string() }),
  cli: { command: 'review-request', args: ['change_id', 'document'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Sending a document to reviewers');
    return ctx.board().mutate((tx) => {
      const doc = loadForDecision(tx, input.change_id, input.document);
      requireSubmitted(doc, 'sent to reviewers');
      const meta: DocMeta = { ...doc.meta, review_requested_by: input.agent_id, review_requested_at: tx.now };
      rewriteMeta(tx, input.change_id, doc, meta);
      tx.log(input.agent_id, 'document.request_review', `${input.change_id}/${input.document}`, `sent the ${docWord(input.document)} of ${input.change_id} to reviewer agents`, input.change_id);
      return { change_id: input.change_id, document: input.document, status: meta.status, decided_by: meta.decided_by ?? null, file: doc.file, review_requested_by: input.agent_id };
    });
  },
});

export const releaseDocument = defineOp({
  name: 'document.release',
  summary: 'Release a rejected document an agent took up to revise (people only)',
  access: 'human',
  input: z.strictObject({ ...DecisionInput }),
  output: DecisionOut.extend({ released_from: z.string().nullable() }),
  cli: { command: 'release', args: ['change_id', 'document'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Releasing a document');
    return ctx.board().mutate((tx) => {
      const doc = loadForDecision(tx, input.change_id, input.document);
      const holder = doc.meta.assignee ?? null;
      if (holder) {
        const meta: DocMeta = { ...doc.meta };
        delete meta.assignee;
        delete meta.claimed_at;
        rewriteMeta(tx, input.change_id, doc, meta);
        tx.log(input.agent_id, 'document.release', `${input.change_id}/${input.document}`, `released the ${docWord(input.document)} of ${input.change_id} from ${holder}`, input.change_id);
      }
      return { change_id: input.change_id, document: input.document, status: doc.meta.status, decided_by: doc.meta.decided_by ?? null, file: doc.file, released_from: holder };
    });
  },
});

export const DOCUMENT_OPS = [getDocument, listDocuments, approveDocument, rejectDocument, requestReview, releaseDocument];
