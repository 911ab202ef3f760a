/**
 * The runtime store (agentd/.runtime/state.json): agents, sessions, input requests and reviewer key
 * hashes, through lowdb. lowdb reads and writes the whole file and knows nothing of other
 * processes, so it is only ever written inside the board lock, through an adapter that writes
 * atomically. Only what stays small lives here; the activity log is a separate append-only file.
 */
import { LowSync, type SyncAdapter } from 'lowdb';
import { fail } from '../errors.js';
import { emptyRuntime, type RuntimeData } from '../domain/records.js';
import { readTextFile, writeFileAtomic } from './fs.js';

class AtomicJsonFile implements SyncAdapter<RuntimeData> {
  constructor(
    private readonly path: string,
    private readonly shownAs: string,
  ) {}

  read(): RuntimeData | null {
    const text = readTextFile(this.path, this.shownAs);
    if (text === null) return null;
    try {
      const data = JSON.parse(text) as RuntimeData;
      if (data === null || typeof data !== 'object' || data.version !== 1) throw new Error('not a runtime store');
      return { ...emptyRuntime(), ...data };
    } catch {
      return fail('PARSE_ERROR', `${this.shownAs} is not a valid runtime store.`, `Move ${this.shownAs} aside; agentboard starts a fresh one (agents re-register, open input requests are lost).`);
    }
  }

  write(data: RuntimeData): void {
    writeFileAtomic(this.path, `${JSON.stringify(data, null, 2)}\n`);
  }
}

export function openRuntime(path: string, shownAs: string): LowSync<RuntimeData> {
  const db = new LowSync<RuntimeData>(new AtomicJsonFile(path, shownAs), emptyRuntime());
  db.read();
  return db;
}
