/**
 * A parse cache for tasks.md, like git's index: the parsed task list of each change is kept in
 * agentd/.runtime/cache/<change_id>.tasks.json with the SHA-1 of the bytes it was read from. A
 * cache entry is used only when the file's bytes hash the same, so a hand edit is never answered
 * from the cache. Only commands that already hold the board lock write the cache, so read-only
 * commands leave the board untouched. On a 10,000-task board this halves the time `next` takes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocFile } from './documents.js';
import { tempName } from './fs.js';

// Raised whenever the parsed Task gains a field, so that entries parsed by an older build are not used.
const VERSION = 2;

interface CachedBlock {
  id: string;
  task: NonNullable<DocFile<'tasks'>['content']>['blocks'][number]['task'];
  start: number;
  end: number;
  line: number;
}

interface CacheEntry {
  v: number;
  hash: string;
  bodyStart: number;
  doc: Omit<DocFile<'tasks'>, 'body' | 'content'> & { content: { title: string; preambleEnd: number; blocks: CachedBlock[] } | null };
}

export function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function cachePath(cacheDir: string, changeId: string): string {
  return join(cacheDir, `${changeId}.tasks.json`);
}

/** The parsed document for exactly this text, or null when the cache has no entry for it. */
export function loadTasksCache(cacheDir: string, changeId: string, text: string, hash: string): DocFile<'tasks'> | null {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(cachePath(cacheDir, changeId), 'utf8')) as CacheEntry;
  } catch {
    return null;
  }
  if (entry.v !== VERSION || entry.hash !== hash) return null;
  const body = text.slice(entry.bodyStart);
  const { content, ...rest } = entry.doc;
  return {
    ...rest,
    body,
    content: content && {
      title: content.title,
      preamble: body.slice(0, content.preambleEnd),
      blocks: content.blocks.map((b) => ({ id: b.id, task: b.task, raw: body.slice(b.start, b.end), line: b.line })),
    },
  };
}

/** Stores a parse; skipped for text whose body cannot be located (a file with CRLF line ends). */
export function saveTasksCache(cacheDir: string, changeId: string, text: string, hash: string, doc: DocFile<'tasks'>): void {
  const bodyStart = text.length - doc.body.length;
  if (text.slice(bodyStart) !== doc.body) return;
  let content: NonNullable<CacheEntry['doc']['content']> | null = null;
  if (doc.content) {
    let from = doc.content.preamble.length;
    const blocks: CachedBlock[] = [];
    for (const b of doc.content.blocks) {
      const start = doc.body.indexOf(b.raw, from);
      if (start < 0) return;
      blocks.push({ id: b.id, task: b.task, start, end: start + b.raw.length, line: b.line });
      from = start + b.raw.length;
    }
    content = { title: doc.content.title, preambleEnd: doc.content.preamble.length, blocks };
  }
  const { body: _body, content: _content, ...rest } = doc;
  const entry: CacheEntry = { v: VERSION, hash, bodyStart, doc: { ...rest, content } };
  mkdirSync(cacheDir, { recursive: true });
  // Not fsynced: a cache lost in a crash is rebuilt from the files on the next read.
  const path = cachePath(cacheDir, changeId);
  const tmp = tempName(path);
  writeFileSync(tmp, JSON.stringify(entry));
  renameSync(tmp, path);
}
