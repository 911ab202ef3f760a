/**
 * Tells the console when the board changed on disk: a write by any agentboard process, or a
 * person's save in an editor. The folders that hold board files are watched (every write replaces a
 * file by renaming over it, which a watch on the file itself would lose), nothing is polled, and a
 * burst of events becomes one refresh: the first event starts a short wait, further events extend it
 * up to a bound, so a steady stream of writes still shows several times a second.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { TEMP_FILE } from '../store/fs.js';
import { HOLDER_FILE } from '../store/lock.js';

export interface WatchOptions {
  /** Quiet time after the last event before refreshing (ms). */
  debounceMs?: number;
  /** Longest a refresh waits after the first event of a burst (ms). */
  maxWaitMs?: number;
}

/** Files whose changes show nothing: the lock taken and released around every write, temp files, the journal of a commit under way. */
function ignored(name: string | null): boolean {
  if (name === null) return false;
  const base = name.slice(name.lastIndexOf('/') + 1);
  return base === 'lock' || base === 'journal.json' || base === 'activity.jsonl' || HOLDER_FILE.test(base) || TEMP_FILE.test(base);
}

/**
 * Calls `onChange` with the folders in which something changed since its last call (folders it
 * watches; one whose events name no file is reported too, and the caller then reads it whole).
 */
export class BoardWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstAt = 0;
  private closed = false;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly onChange: (folders: ReadonlySet<string>) => void,
    options: WatchOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 30;
    this.maxWaitMs = options.maxWaitMs ?? 150;
  }

  /**
   * Watches exactly these folders from now on (those that do not exist yet are left out: the
   * folder above them is watched, and its event brings a refresh that asks again).
   */
  watchOnly(dirs: string[]): void {
    if (this.closed) return;
    const wanted = new Set(dirs);
    for (const [dir, w] of this.watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          if (!ignored(name === null ? null : String(name))) this.poke(dir);
        });
        // A watched folder that goes away (a change archived) errors on some systems: the next refresh drops it.
        w.on('error', () => {
          w.close();
          this.watchers.delete(dir);
          this.poke(dir);
        });
        this.watchers.set(dir, w);
      } catch {
        // gone already
      }
    }
  }

  get watching(): string[] {
    return [...this.watchers.keys()];
  }

  private poke(dir: string): void {
    if (this.closed) return;
    this.changed.add(dir);
    const now = Date.now();
    if (this.timer === null) this.firstAt = now;
    else clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstAt + this.maxWaitMs - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      const folders = new Set(this.changed);
      this.changed.clear();
      this.onChange(folders);
    }, wait);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}

/** The folders whose files the console shows: the board, its changes, the runtime, and the records of runs under way. */
export function boardFolders(board: { dir: string; changesDir: string; runtimeDir: string; changeDir(id: string): string }, changeIds: string[], runIds: string[]): string[] {
  const runs = join(board.runtimeDir, 'runs');
  return [board.dir, board.changesDir, board.runtimeDir, runs, ...changeIds.map((id) => board.changeDir(id)), ...runIds.map((id) => join(runs, id))];
}
