/**
 * A board on disk: where its files are, how to read them, and the one way to change them (a
 * transaction inside the board lock that re-reads, writes atomically and logs who did what).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { nowIso } from '../clock.js';
import { AgentboardError, fail } from '../errors.js';
import { changeIdProblem } from '../domain/ids.js';
import { FindingSink } from '../domain/findings.js';
import { DOC_FILES, type DocMeta, type DocType } from '../domain/model.js';
import type { RuntimeData } from '../domain/records.js';
import { expireInputs } from '../domain/sessions.js';
import { appendActivity, readActivity, type ActivityEntry } from './activity.js';
import { loadConfig, type Config } from './config.js';
import { readMeta } from './doc-meta.js';
import { parseDocText, type DocFile } from './documents.js';
import { readTextFile, writeFileAtomic } from './fs.js';
import { BoardLock } from './lock.js';
import { splitFrontmatter } from './markdown.js';
import { openRuntime } from './runtime.js';
import { hashText, loadTasksCache, saveTasksCache } from './tasks-cache.js';

export const BOARD_DIR = 'agentd';

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
    if (basename(dir) === BOARD_DIR && existsSync(dir)) return dirname(dir);
    return null;
  }
  let dir = resolve(cwd);
  for (;;) {
    if (isBoard(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export interface ArchivedChange {
  change_id: string;
  date: string;
  folder: string;
}

export class Board {
  readonly dir: string;
  readonly changesDir: string;
  readonly archiveDir: string;
  readonly runtimeDir: string;
  private configCache: Config | null = null;
  /**
   * Parses to cache, collected inside mutate() and written only when the transaction succeeds:
   * a refused operation leaves every byte of the board as it was.
   */
  private pendingCache: Map<string, () => void> | null = null;

  constructor(readonly root: string) {
    this.dir = join(root, BOARD_DIR);
    this.changesDir = join(this.dir, 'changes');
    this.archiveDir = join(this.dir, 'archive');
    this.runtimeDir = join(this.dir, '.runtime');
  }

  static open(explicitRoot?: string): Board {
    const root = findRoot(explicitRoot);
    if (root === null) {
      fail(
        'BOARD_NOT_FOUND',
        explicitRoot !== undefined ? `No board (an agentd/ folder) is at ${explicitRoot}.` : 'No board (an agentd/ folder) was found in this folder or any folder above it.',
        'Run `agentboard init` in your repository root, or pass --root DIR.',
      );
    }
    return new Board(root);
  }

  /** A path relative to the repository root, with forward slashes, for messages and findings. */
  rel(path: string): string {
    return relative(this.root, path).split(sep).join('/');
  }

  get configPath(): string {
    return join(this.dir, 'config.yaml');
  }

  get config(): Config {
    this.configCache ??= loadConfig(this.configPath, this.rel(this.configPath));
    return this.configCache;
  }

  get activityPath(): string {
    return join(this.runtimeDir, 'activity.jsonl');
  }

  get runtimePath(): string {
    return join(this.runtimeDir, 'state.json');
  }

  changeDir(changeId: string): string {
    return join(this.changesDir, changeId);
  }

  docPath(changeId: string, type: DocType): string {
    return join(this.changesDir, changeId, DOC_FILES[type]);
  }

  /** Open changes, sorted by id. Folders whose names are not change ids are not changes. */
  changeIds(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.changesDir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && changeIdProblem(d.name) === null)
        .map((d) => d.name);
    } catch {
      return [];
    }
    return names.sort();
  }

  hasChange(changeId: string): boolean {
    try {
      return statSync(this.changeDir(changeId)).isDirectory();
    } catch {
      return false;
    }
  }

  archived(): ArchivedChange[] {
    let names: string[];
    try {
      names = readdirSync(this.archiveDir);
    } catch {
      return [];
    }
    const out: ArchivedChange[] = [];
    for (const name of names.sort()) {
      const m = /^(\d{4}-\d\d-\d\d)-(.+)$/.exec(name);
      if (m && changeIdProblem(m[2]!) === null) out.push({ change_id: m[2]!, date: m[1]!, folder: name });
    }
    return out;
  }

  get cacheDir(): string {
    return join(this.runtimeDir, 'cache');
  }

  /** A document of an open change, or null when the file does not exist. */
  readDoc<T extends DocType>(changeId: string, type: T): DocFile<T> | null {
    const path = this.docPath(changeId, type);
    const shown = this.rel(path);
    let text: string | null;
    try {
      text = readTextFile(path, shown);
    } catch (err) {
      if (err instanceof AgentboardError) {
        const doc = parseDocText(type, '', shown);
        doc.findings.length = 0;
        doc.findings.push({ level: 'error', file: shown, rule: 'file.unreadable', message: err.message, fix: err.nextStep });
        return doc;
      }
      throw err;
    }
    if (text === null) return null;
    if (type !== 'tasks') return parseDocText(type, text, shown);
    const hash = hashText(text);
    const cached = loadTasksCache(this.cacheDir, changeId, text, hash);
    if (cached) return cached as DocFile<T>;
    const doc = parseDocText('tasks', text, shown);
    if (this.pendingCache) this.pendingCache.set(changeId, () => saveTasksCache(this.cacheDir, changeId, text, hash, doc));
    return doc as DocFile<T>;
  }

  /** Only the frontmatter of a document (fast: the body is not parsed); null when absent or unreadable. */
  readDocMeta(changeId: string, type: DocType): DocMeta | null {
    const path = this.docPath(changeId, type);
    let text: string | null;
    try {
      text = readTextFile(path, this.rel(path));
    } catch (err) {
      if (err instanceof AgentboardError) return null;
      throw err;
    }
    const split = text === null ? null : splitFrontmatter(text.replace(/\r\n/g, '\n'));
    if (!split) return null;
    return readMeta(split.frontmatter, new FindingSink(this.rel(path)), type)?.meta ?? null;
  }

  /** The runtime data as it stands, with input requests past their deadline shown as timed out (nothing is written). */
  readRuntime(): RuntimeData {
    const data = openRuntime(this.runtimePath, this.rel(this.runtimePath)).data;
    expireInputs(data, nowIso());
    return data;
  }

  readActivity(): ActivityEntry[] {
    return readActivity(this.activityPath);
  }

  /** Runs fn as one critical section: every mutation of the board goes through here. */
  mutate<T>(fn: (tx: Transaction) => T): T {
    const lock = new BoardLock(this.runtimeDir);
    return lock.run(
      () => {
        const pending = new Map<string, () => void>();
        this.pendingCache = pending;
        try {
          const tx = new Transaction(this);
          const result = fn(tx);
          tx.commit();
          for (const [changeId, save] of pending) if (!tx.wrote(this.docPath(changeId, 'tasks'))) save();
          return result;
        } finally {
          this.pendingCache = null;
        }
      },
      { sweep: () => [this.cacheDir, ...this.changeIds().map((id) => this.changeDir(id))] },
    );
  }
}

export class Transaction {
  readonly now = nowIso();
  private runtimeDb: ReturnType<typeof openRuntime> | null = null;
  private runtimeDirty = false;
  private expired: string[] = [];
  private readonly entries: ActivityEntry[] = [];
  private readonly written = new Set<string>();

  constructor(readonly board: Board) {}

  wrote(path: string): boolean {
    return this.written.has(path);
  }

  /** The runtime data, read fresh inside the lock; expired input requests are resolved and saved. */
  get runtime(): RuntimeData {
    if (this.runtimeDb === null) {
      this.runtimeDb = openRuntime(this.board.runtimePath, this.board.rel(this.board.runtimePath));
      this.expired = expireInputs(this.runtimeDb.data, this.now);
      for (const id of this.expired) {
        const input = this.runtimeDb.data.inputs[id]!;
        this.log('agentboard', 'input.expire', id, `input request ${id} of ${input.agent_id} timed out; default action applies: ${input.default_action}`);
        this.runtimeDirty = true;
      }
    }
    return this.runtimeDb.data;
  }

  /** Ids of the input requests that timed out when the runtime was opened in this transaction. */
  get expiredInputs(): string[] {
    void this.runtime;
    return this.expired;
  }

  saveRuntime(): void {
    void this.runtime;
    this.runtimeDirty = true;
  }

  writeFile(path: string, text: string): void {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, text);
    this.written.add(path);
  }

  move(from: string, to: string): void {
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  }

  log(actor: string, action: string, target: string, summary: string, changeId?: string): void {
    const entry: ActivityEntry = { at: this.now, actor, action, target, summary };
    if (changeId !== undefined) entry.change_id = changeId;
    this.entries.push(entry);
  }

  commit(): void {
    if (this.runtimeDirty && this.runtimeDb) {
      mkdirSync(this.board.runtimeDir, { recursive: true });
      this.runtimeDb.write();
    }
    if (this.entries.length > 0) {
      mkdirSync(this.board.runtimeDir, { recursive: true });
      appendActivity(this.board.activityPath, this.entries);
    }
  }
}
