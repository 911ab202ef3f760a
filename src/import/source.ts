/** The files of a source repository an importer reads: listed once, read on demand. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface SourceTree {
  /** Every file under the folders read, relative to the root with "/", sorted. */
  readonly files: string[];
  bytes(path: string): Buffer;
  /** The file as text (line ends as LF); null when it is not UTF-8 text. */
  text(path: string): string | null;
}

const SKIPPED = new Set(['.git', 'node_modules']);

/** The files under `folders` (relative to `root`) that exist; links are not followed. */
export function readTree(root: string, folders: string[]): SourceTree {
  const files: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) files.push(relative(root, path).split(sep).join('/'));
    }
  };
  for (const f of folders) walk(join(root, f));
  files.sort();
  const cache = new Map<string, Buffer>();
  const bytes = (path: string) => {
    let b = cache.get(path);
    if (!b) cache.set(path, (b = readFileSync(join(root, path))));
    return b;
  };
  return {
    files,
    bytes,
    text(path) {
      const b = bytes(path);
      const text = b.toString('utf8');
      if (text.includes('\uFFFD') || text.includes('\u0000')) return null;
      return text.replace(/\r\n?/g, '\n');
    },
  };
}

/** A tree made of texts (for tests and for files already in memory). */
export function memoryTree(texts: Record<string, string>): SourceTree {
  const files = Object.keys(texts).sort();
  return { files, bytes: (p) => Buffer.from(texts[p] ?? '', 'utf8'), text: (p) => texts[p] ?? null };
}
