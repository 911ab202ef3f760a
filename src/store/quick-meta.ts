/**
 * A document's frontmatter read quickly: only in the exact shape agentboard writes it (doc-meta.ts
 * emitMeta: its keys in their order, values plain or JSON-quoted as the emitter writes them, a task
 * list's retired ids as a flow list, notes and feedback as lists of author, at and text). One
 * native match; anything else (a key a person added, a comment, another order, a value the emitter
 * would have quoted) is null, and the full reader (doc-meta.ts readMeta) reads the file. Whatever it
 * accepts, the full reader reads the same and finds nothing wrong with (test/unit/quick-meta.test.ts).
 */
import { hasUnsafeText } from '../domain/text.js';
import { DOC_STATUSES, type DocMeta, type DocType, type Note } from '../domain/model.js';
import { taskIdProblem } from '../domain/ids.js';
import { parseFlowList, readScalarString } from './yaml-lite.js';

/** The frontmatter of a document without its logs (notes and feedback), which a quick read leaves out. */
export type HeadMeta = Omit<DocMeta, 'notes' | 'feedback'>;

const LINE = '([^\\n]*)\\n';
/** The scalar keys, in the order emitMeta writes them (revision, a number, among them). */
const KEYS = ['id', 'change_id', 'type', 'status', 'title', 'created', 'updated', 'author', 'revision', 'assignee', 'claimed_at', 'review_requested_by', 'review_requested_at', 'corrected_by', 'corrected_at', 'decided_by', 'decided_at'] as const;
const REQUIRED = new Set<string>(['id', 'change_id', 'type', 'status']);
const LOG_ENTRY = '  - author: [^\\n]*\\n    at: [^\\n]*\\n    text: [^\\n]*\\n';
const FRONT = new RegExp(
  '^---\\n' +
    KEYS.map((key) => (key === 'revision' ? '(?:revision: (0|[1-9]\\d{0,8})\\n)?' : REQUIRED.has(key) ? `${key}: ${LINE}` : `(?:${key}: ${LINE})?`)).join('') +
    `(?:imported_from:\\n  tool: ${LINE}  path: ${LINE}(?:  commit: ${LINE})?)?` +
    '(?:retired: (\\[[^\\n]*\\])\\n)?' +
    `(?:notes:\\n((?:${LOG_ENTRY})+))?` +
    `(?:feedback:\\n((?:${LOG_ENTRY})+))?` +
    '---\\n',
);
const LOG = /^  - author: ([^\n]*)\n    at: ([^\n]*)\n    text: ([^\n]*)$/gm;

/** The entries of a log (notes or feedback) as written; null when a value is not one the emitter writes. */
function readLog(raw: string | undefined): Note[] | null {
  const out: Note[] = [];
  if (raw === undefined) return out;
  LOG.lastIndex = 0;
  for (let m = LOG.exec(raw); m !== null; m = LOG.exec(raw)) {
    const [author, at, text] = [readScalarString(m[1]!), readScalarString(m[2]!), readScalarString(m[3]!)];
    if (author === undefined || at === undefined || text === undefined) return null;
    out.push({ author, at, text });
  }
  return out;
}

/** The frontmatter at the start of `text` and where the body starts; null when it is not exactly in agentboard's shape. */
export function quickMeta(text: string, type: DocType): { meta: DocMeta; bodyStart: number } | null {
  const m = FRONT.exec(text);
  if (m === null || hasUnsafeText(m[0])) return null;
  const meta: Record<string, string | number | object> = { created: '', updated: '', author: '', revision: 0 };
  let at = 1;
  for (const key of KEYS) {
    const raw = m[at++];
    if (raw === undefined) continue;
    const value = key === 'revision' ? Number(raw) : readScalarString(raw);
    if (value === undefined) return null;
    meta[key] = value;
  }
  const [tool, path, commit] = [m[at], m[at + 1], m[at + 2]].map((raw) => (raw === undefined ? undefined : readScalarString(raw)));
  if (m[at] !== undefined) {
    if (tool === undefined || path === undefined || (m[at + 2] !== undefined && commit === undefined)) return null;
    meta.imported_from = commit === undefined ? { tool, path } : { tool, path, commit };
  }
  if (m[at + 3] !== undefined) {
    const retired = parseFlowList(m[at + 3]);
    if (retired === null || retired.some((id) => typeof id !== 'string' || taskIdProblem(id) !== null)) return null;
    if (retired.length > 0) meta.retired = retired as string[];
  }
  const notes = readLog(m[at + 4]);
  const feedback = readLog(m[at + 5]);
  if (notes === null || feedback === null) return null;
  meta.notes = notes;
  meta.feedback = feedback;
  if (meta.type !== type || !meta.id || !meta.change_id || !(DOC_STATUSES as readonly unknown[]).includes(meta.status)) return null;
  return { meta: meta as unknown as DocMeta, bodyStart: m[0].length };
}
