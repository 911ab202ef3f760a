/** Document frontmatter: read into DocMeta with findings, written back in one stable key order. */
import type { FindingSink } from '../domain/findings.js';
import { DOC_STATUSES, DOC_TYPES, type DocMeta, type DocType, type ImportSource, type Note, type YamlComments } from '../domain/model.js';
import { emitYamlCommented, lineOfKey, parseYaml, yamlComments, YamlError, yamlInteger, type FlatMap, type Value, type YamlMap } from './yaml-lite.js';
import { printable } from '../domain/text.js';
import { taskIdProblem } from '../domain/ids.js';

/** The keys of agentboard's own frontmatter, in the order it writes them. */
export const KNOWN_KEYS = [
  'id',
  'change_id',
  'type',
  'status',
  'title',
  'created',
  'updated',
  'author',
  'revision',
  'assignee',
  'claimed_at',
  'review_requested_by',
  'review_requested_at',
  'corrected_by',
  'corrected_at',
  'decided_by',
  'decided_at',
  'imported_from',
  'retired',
  'notes',
  'feedback',
] as const;

export interface MetaWithExtra {
  meta: DocMeta;
  /** Keys a person added by hand; kept as they are when agentboard rewrites the frontmatter. */
  extra: YamlMap;
  /** A person's comments in the frontmatter, kept the same way. */
  comments?: YamlComments;
}

export function emitMeta(meta: DocMeta, extra: YamlMap = {}, comments?: YamlComments): string {
  return emitYamlCommented(metaFields(meta, extra), comments);
}

/** A document's frontmatter as the fields agentboard writes, in its order, a person's own keys (`extra`) after them. */
export function metaFields(meta: DocMeta, extra: YamlMap = {}): Record<string, Value | undefined> {
  const ordered: Record<string, Value | undefined> = {};
  for (const key of KNOWN_KEYS) {
    const value = meta[key];
    if (key === 'notes' || key === 'feedback') {
      const list = value as Note[];
      if (list.length > 0) ordered[key] = list.map((n) => ({ author: n.author, at: n.at, text: n.text }));
    } else if (key === 'imported_from') {
      const source = value as ImportSource | undefined;
      if (source) ordered[key] = source.commit ? { tool: source.tool, path: source.path, commit: source.commit } : { tool: source.tool, path: source.path };
    } else if (key === 'retired') {
      if (meta.retired?.length) ordered[key] = meta.retired;
    } else {
      ordered[key] = value as Value | undefined;
    }
  }
  for (const [key, value] of Object.entries(extra)) if (!(key in ordered)) ordered[key] = value;
  return ordered;
}

function str(map: YamlMap, key: string): string | undefined {
  const v = map[key];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : String(v);
}

export function readNotes(value: Value | undefined, key: string, sink: FindingSink, lineOf: (key: string) => number | undefined): Note[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'object' || v === null)) {
    sink.error('frontmatter.list', `"${key}" must be a list of entries with author, at and text`, `rewrite "${key}" as a YAML list of maps`, lineOf(key));
    return [];
  }
  return (value as FlatMap[]).map((n) => ({ author: String(n.author ?? ''), at: String(n.at ?? ''), text: String(n.text ?? '') }));
}

/** Reads frontmatter YAML (given with its 1-based starting line in the file). Returns null when unreadable. */
export function readMeta(yamlText: string, sink: FindingSink, expectedType?: DocType): MetaWithExtra | null {
  let map: YamlMap;
  try {
    map = parseYaml(yamlText);
  } catch (err) {
    if (err instanceof YamlError) {
      sink.error('frontmatter.yaml', `frontmatter is not valid YAML: ${err.message}`, 'fix the YAML between the two --- lines', err.line);
      return null;
    }
    throw err;
  }
  const line = (key: string) => lineOfKey(yamlText, key);
  for (const key of ['id', 'change_id', 'type', 'status'] as const) {
    if (map[key] === undefined || map[key] === null || map[key] === '') {
      sink.error('frontmatter.missing', `frontmatter has no "${key}"`, `add a "${key}:" line to the frontmatter`, 1);
    }
  }
  const type = str(map, 'type');
  if (type !== undefined && !(DOC_TYPES as readonly string[]).includes(type)) {
    sink.error('frontmatter.type', `unknown document type "${printable(type)}"`, `use one of: ${DOC_TYPES.join(', ')}`, line('type'));
  } else if (expectedType && type !== undefined && type !== expectedType) {
    sink.error('frontmatter.type', `this file must be of type "${expectedType}", not "${printable(type)}"`, `set "type: ${expectedType}"`, line('type'));
  }
  const status = str(map, 'status');
  // A status agentboard does not know cannot place the document in its lifecycle: the file is unreadable until it is fixed.
  const unknownStatus = status !== undefined && !(DOC_STATUSES as readonly string[]).includes(status);
  if (unknownStatus) sink.error('frontmatter.status', `unknown document status "${printable(status)}"`, `use one of: ${DOC_STATUSES.join(', ')}`, line('status'));
  const revisionRaw = yamlInteger(map.revision);
  const revision = typeof revisionRaw === 'number' && Number.isInteger(revisionRaw) && revisionRaw >= 0 ? revisionRaw : 0;
  if (revisionRaw !== undefined && revision !== revisionRaw) {
    sink.error('frontmatter.revision', '"revision" must be a whole number', 'set "revision:" to 0 or more', line('revision'));
  }
  const meta: DocMeta = {
    id: str(map, 'id') ?? '',
    change_id: str(map, 'change_id') ?? '',
    type: (type ?? expectedType ?? 'proposal') as DocType,
    status: (status ?? 'template') as DocMeta['status'],
    created: str(map, 'created') ?? '',
    updated: str(map, 'updated') ?? '',
    author: str(map, 'author') ?? '',
    revision,
    notes: readNotes(map.notes, 'notes', sink, line),
    feedback: readNotes(map.feedback, 'feedback', sink, line),
  };
  const source = map.imported_from;
  if (source !== undefined && source !== null) {
    const entry = typeof source === 'object' && !Array.isArray(source) ? (source as FlatMap) : null;
    if (!entry || typeof entry.tool !== 'string' || typeof entry.path !== 'string') {
      sink.error('frontmatter.imported_from', '"imported_from" must be a map with tool and path', 'write it as "imported_from:" with "  tool: …" and "  path: …" under it, or remove it', line('imported_from'));
    } else {
      meta.imported_from = { tool: entry.tool, path: entry.path };
      if (entry.commit !== undefined && entry.commit !== null) meta.imported_from.commit = String(entry.commit);
    }
  }
  const retired = map.retired;
  if (retired !== undefined && retired !== null) {
    const ids = Array.isArray(retired) ? retired.map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '')) : [];
    if (!Array.isArray(retired) || ids.some((id) => taskIdProblem(id) !== null)) {
      sink.error('frontmatter.retired', '"retired" must be a list of task ids, like [T3, T7]', 'write the ids of the tasks deleted from this list as "retired: [T3, T7]", or restore the line from git', line('retired'));
    } else if (ids.length > 0) meta.retired = ids;
  }
  for (const key of ['title', 'assignee', 'claimed_at', 'review_requested_by', 'review_requested_at', 'corrected_by', 'corrected_at', 'decided_by', 'decided_at'] as const) {
    const v = str(map, key);
    if (v !== undefined) meta[key] = v;
  }
  const extra: YamlMap = {};
  for (const [key, value] of Object.entries(map)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key)) extra[key] = value;
  }
  const comments = yamlComments(yamlText);
  return unknownStatus ? null : { meta, extra, ...(comments ? { comments } : {}) };
}
