/**
 * The runtime store (agentd/.runtime/state.json): agents, sessions, input requests and reviewer key
 * hashes, through lowdb. Its adapter validates what it reads against the schema below (a file
 * damaged by hand or by another version is refused with what to do, never cast), and writes
 * through the transaction that holds the board lock, so state.json changes in the same commit as
 * the documents and the activity entry of the operation.
 */
import { LowSync, type SyncAdapter } from 'lowdb';
import * as z from 'zod';
import { fail } from '../errors.js';
import { SESSION_STATUSES } from '../domain/lifecycle.js';
import { emptyRuntime, type RuntimeData } from '../domain/records.js';
import { readBoardFile } from './fs.js';
import { once } from '../once.js';

/** The schema of state.json, built when a command first reads the file. */
const runtimeSchema = once(() => {
  const Agent = z.object({
    id: z.string(),
    name: z.string(),
    role: z.string(),
    skills: z.array(z.string()),
    registered_at: z.string(),
    updated_at: z.string(),
  });

  const Session = z.object({
    agent_id: z.string(),
    number: z.number().int(),
    status: z.enum(SESSION_STATUSES),
    message: z.string().optional(),
    phase: z.string().optional(),
    progress: z.string().optional(),
    reason: z.string().optional(),
    blockers: z.array(z.string()).optional(),
    review: z.object({ summary: z.string(), pr_url: z.string().optional(), notes: z.string().optional(), tasks: z.array(z.string()), submitted_at: z.string() }).optional(),
    input_id: z.string().optional(),
    updated_at: z.string(),
    history: z.array(z.object({ from: z.enum(SESSION_STATUSES).nullable(), to: z.enum(SESSION_STATUSES), at: z.string(), message: z.string().optional() })),
    history_dropped: z.number().int().nonnegative().optional(),
  });

  const Input = z.object({
    id: z.string(),
    agent_id: z.string(),
    question: z.string(),
    options: z.array(z.string()),
    default_action: z.string(),
    timeout_minutes: z.number().int(),
    created_at: z.string(),
    expires_at: z.string(),
    status: z.enum(['open', 'resolved']),
    resolution: z.object({ type: z.enum(['human', 'timeout']), value: z.string(), by: z.string(), at: z.string() }).optional(),
    task_id: z.string().optional(),
    change_id: z.string().optional(),
    phase: z.string().optional(),
  });

  const Reviewer = z.object({ name: z.string(), key_hash: z.string().regex(/^[0-9a-f]{64}$/), created_at: z.string(), created_by: z.string() });

  return z.object({
    version: z.literal(1),
    agents: z.record(z.string(), Agent).default({}),
    sessions: z.record(z.string(), Session).default({}),
    inputs: z.record(z.string(), Input).default({}),
    reviewers: z.record(z.string(), Reviewer).default({}),
    next_input: z.number().int().min(1).default(1),
  }) satisfies z.ZodType<RuntimeData, unknown>;
});

/** The text of the last runtime file read that was valid, and its data (as JSON). */
let lastValid: { text: string; data: string } | undefined;

class RuntimeFile implements SyncAdapter<RuntimeData> {
  /** The text read (null: no file), so that data written back unchanged is not written again. */
  private text: string | null = null;

  constructor(
    private readonly path: string,
    private readonly shown: string,
    private readonly stage: ((text: string) => void) | null,
    private readonly readFile: typeof readBoardFile,
  ) {}

  read(): RuntimeData | null {
    const file = this.readFile(this.path, this.shown);
    this.text = file?.text ?? null;
    if (file === null) return null;
    // The same bytes as the last file read valid: their data again, without checking them again (a
    // copy: whoever reads it may change it).
    if (lastValid?.text === file.text) return JSON.parse(lastValid.data) as RuntimeData;
    let raw: unknown;
    try {
      raw = JSON.parse(file.text);
    } catch {
      raw = undefined;
    }
    const parsed = runtimeSchema().safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')}: ${issue.message})` : '';
      fail('PARSE_ERROR', `${this.shown} is not a valid runtime store${where}.`, `Move ${this.shown} aside; agentboard starts a fresh one (agents re-register, open input requests are lost).`);
    }
    lastValid = { text: file.text, data: JSON.stringify(parsed.data) };
    return parsed.data as RuntimeData;
  }

  write(data: RuntimeData): void {
    if (!this.stage) throw new Error('the runtime store is written only inside a transaction');
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (text !== this.text) this.stage(text);
  }
}

/** The runtime data as stored; `stage` receives the new text when a transaction writes it (not when it is the text read); `readFile` reads the file (a reader's sees a pending commit). */
export function openRuntime(path: string, shown: string, stage: ((text: string) => void) | null = null, readFile = readBoardFile): LowSync<RuntimeData> {
  const db = new LowSync<RuntimeData>(new RuntimeFile(path, shown, stage, readFile), emptyRuntime());
  db.read();
  return db;
}
