/** Whole document files: frontmatter plus a typed body, read with findings and written back. */
import { describeUnsafe, unsafeLines } from '../domain/text.js';
import type { AgentboardError } from '../errors.js';
import { FindingSink, hasErrors, type Finding } from '../domain/findings.js';
import type { DocMeta, DocType, Design, Proposal, ReviewRound, Spec, Task, YamlComments } from '../domain/model.js';
import { metaRules, proposalRules, reviewRules, specRules, tasksRules } from '../domain/rules.js';
import { emitMeta, readMeta } from './doc-meta.js';
import { quickMeta } from './quick-meta.js';
import { parseDesignBody, renderDesignBody } from './format-design.js';
import { parseProposalBody, renderProposalBody, type ProposalLines } from './format-proposal.js';
import { parseReviewBody, renderReviewBody } from './format-review.js';
import { parseSpecBody, renderSpecBody, type SpecLines } from './format-spec.js';
import { parseTasksBody, serializeTasksBody, type TasksBody } from './format-tasks.js';
import { joinFrontmatter, opensFrontmatter, splitFrontmatter, withLf } from './markdown.js';
import type { YamlMap } from './yaml-lite.js';

export interface DocContent {
  proposal: Proposal;
  spec: Spec;
  tasks: TasksBody;
  review: ReviewRound[];
  design: Design;
}

export interface DocFile<T extends DocType = DocType> {
  type: T;
  /** Set when the file could not be read at all (a folder, a link, not UTF-8…): what to tell the caller. */
  error?: AgentboardError;
  /** Path relative to the repository root. */
  file: string;
  meta: DocMeta;
  extra: YamlMap;
  /** A person's comments in the frontmatter (store/yaml-lite.ts yamlComments). */
  comments?: YamlComments;
  /** The frontmatter's text as read, when it is not in the exact shape agentboard writes (kept by writes that do not change it). */
  frontmatter?: string;
  body: string;
  /** 1-based line of the first body line. */
  bodyLine: number;
  /** Null when the frontmatter cannot be read at all. */
  content: DocContent[T] | null;
  /** Where parts of the body stand, for rule findings. */
  where: { proposal?: ProposalLines; spec?: SpecLines };
  findings: Finding[];
}

/** Reads a document's text; structural problems become findings (errors carry file and line). */
export function parseDocText<T extends DocType>(type: T, text: string, file: string): DocFile<T> {
  const sink = new FindingSink(file);
  const normalized = withLf(text);
  const split = splitFrontmatter(normalized);
  const doc: DocFile<T> = {
    type,
    file,
    meta: emptyMeta(type),
    extra: {},
    body: split ? split.body : normalized,
    bodyLine: split ? split.bodyLine : 1,
    content: null,
    where: {},
    findings: sink.findings,
  };
  for (const u of unsafeLines(normalized)) {
    sink.error('text.unsafe_character', `the line holds ${describeUnsafe(u.char)} at column ${u.column}`, 'delete the character (an editor that shows invisible characters helps), or restore the line from git', u.line);
  }
  if (!split) {
    if (opensFrontmatter(normalized)) sink.error('frontmatter.missing', 'the frontmatter this --- line opens is never closed', 'add a --- line after its last line (before the first heading), or restore the file from git', 1);
    // An emptied file (a save cut short, another tool) is no document to recreate: what it held is to be restored.
    else if (normalized.trim() === '') sink.error('frontmatter.missing', 'the file is empty', `restore it from git (git checkout -- ${file}) or from your editor's history; writing the document anew would replace what it held`, 1);
    else sink.error('frontmatter.missing', 'the file does not start with YAML frontmatter between --- lines', 'restore the frontmatter from git, or recreate the document with agentboard', 1);
    return doc;
  }
  // Frontmatter in the exact shape agentboard writes is read by one match; anything else by the full reader, which reports what is wrong.
  const quick = quickMeta(normalized, type);
  const meta = quick ? { meta: quick.meta, extra: {} } : readMeta(split.frontmatter, sink.at(split.frontmatterLine - 1), type);
  if (!meta) return doc;
  doc.meta = meta.meta;
  doc.extra = meta.extra;
  if (meta.comments) doc.comments = meta.comments;
  if (!quick) doc.frontmatter = split.frontmatter;
  const body = sink.at(split.bodyLine - 1);
  doc.content = parseBody(type, split.body, body, doc) as DocContent[T];
  return doc;
}

function parseBody(type: DocType, body: string, sink: FindingSink, doc: DocFile): DocContent[DocType] {
  switch (type) {
    case 'proposal': {
      const { proposal, lines } = parseProposalBody(body, sink);
      doc.where.proposal = lines;
      return proposal;
    }
    case 'spec': {
      const { spec, lines } = parseSpecBody(body, sink);
      doc.where.spec = lines;
      return spec;
    }
    case 'tasks':
      return parseTasksBody(body, sink, doc.meta.retired);
    case 'review':
      return parseReviewBody(body, sink);
    case 'design':
      return parseDesignBody(body);
  }
}

function emptyMeta(type: DocType): DocMeta {
  return { id: '', change_id: '', type, status: 'template', created: '', updated: '', author: '', revision: 0, notes: [], feedback: [] };
}

/** A document that could not be read, standing in for it with the reason as its one finding. */
export function unreadableDoc<T extends DocType>(type: T, file: string, error: AgentboardError): DocFile<T> {
  const doc = parseDocText(type, '', file);
  doc.findings.length = 0;
  const line = (error.details as { line?: unknown } | undefined)?.line;
  doc.findings.push({ level: 'error', file, ...(typeof line === 'number' ? { line } : {}), rule: 'file.unreadable', message: error.message, fix: error.nextStep });
  doc.error = error;
  return doc;
}

/** True when the file did not parse: agentboard never rewrites such a file (a person's half-saved edit, say). */
export function unparsable(doc: DocFile): boolean {
  return doc.content === null || hasErrors(doc.findings);
}

/** The requirement ids tasks may refer to, or null when the change has no readable spec. */
export function requirementIdsOf(spec: DocFile<'spec'> | null): Set<string> | null {
  return spec?.content ? new Set(spec.content.requirements.map((r) => r.id)) : null;
}

/** The findings of reading a document plus those of applying the document rules to it. */
export function checkDoc(doc: DocFile, changeId: string, context: { requirementIds?: Set<string> | null } = {}): Finding[] {
  if (doc.content === null) return doc.findings;
  const findings = [...doc.findings];
  const sink = new FindingSink(doc.file, 0, findings);
  metaRules(doc.meta, changeId, doc.type, sink.at(1));
  if (doc.meta.status === 'template') return findings;
  const body = sink.at(doc.bodyLine - 1);
  switch (doc.type) {
    case 'proposal':
      proposalRules(doc.content as Proposal, body, doc.where.proposal);
      break;
    case 'spec':
      specRules(doc.content as Spec, body, doc.where.spec, { imported: doc.meta.imported_from !== undefined });
      break;
    case 'tasks': {
      const blocks = (doc.content as TasksBody).blocks.filter((b) => b.task !== null).map((b) => ({ task: b.task as Task, line: b.line }));
      if (blocks.length === 0 && (doc.content as TasksBody).blocks.length === 0) {
        body.error('tasks.missing', 'the task list has no tasks', 'add at least one "## T1: Title" task', 1);
      }
      const unreadable = (doc.content as TasksBody).blocks.flatMap((b) => (b.task === null ? [b.id] : []));
      tasksRules(blocks, context.requirementIds ?? null, body, unreadable);
      break;
    }
    case 'review':
      reviewRules(doc.content as ReviewRound[], body);
      break;
    case 'design':
      break;
  }
  return findings;
}

/** The body text for a content value, as agentboard writes it. */
export function renderBody<T extends DocType>(type: T, content: DocContent[T]): string {
  switch (type) {
    case 'proposal':
      return `\n${renderProposalBody(content as Proposal)}`;
    case 'spec':
      return `\n${renderSpecBody(content as Spec)}`;
    case 'tasks':
      return serializeTasksBody(content as TasksBody);
    case 'review':
      return `\n${renderReviewBody(content as ReviewRound[])}`;
    case 'design':
      return `\n${renderDesignBody(content as Design)}`;
  }
  throw new Error(`unknown document type ${String(type)}`);
}

export function renderDocFile(meta: DocMeta, extra: YamlMap, body: string, comments?: YamlComments): string {
  return joinFrontmatter(emitMeta(meta, extra, comments), body);
}
