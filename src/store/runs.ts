/**
 * The records of `agentboard run` under agentd/.runtime/runs/<run_id>/: run.json (the run),
 * events.jsonl (every event it emitted), and per agent invocation <n>.json with its prompt, MCP
 * configuration, transcript and the calls its MCP server answered (<n>.calls.jsonl, written by
 * that server). They are the run's own records, not board state: written atomically by the run,
 * read by `runs`, `status` and the next run of the same change.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nowIso } from '../clock.js';
import { AgentboardError, fail } from '../errors.js';
import { appendFile, ensureDir, writeFileAtomic } from './fs.js';
import { processAlive, type ProcessIdentity } from './lock.js';
import { printable } from '../domain/text.js';

export const RUN_OUTCOMES = ['finished', 'waiting_on_person', 'failed', 'interrupted', 'budget_exceeded'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export const RUN_ID_PATTERN = /^\d{8}-\d{9}-[0-9a-f]{4}$/;

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  /** Known only for CLIs that report it (Claude Code); null otherwise. */
  cost_usd: number | null;
}

/** The run's process (pid, host, and where the system tells, boot id, PID namespace and start time): see store/lock.ts. */
export interface RunRecord extends ProcessIdentity {
  run_id: string;
  change_id: string;
  /** The person the run acts for. */
  person: string;
  started_at: string;
  ended_at: string | null;
  /** null while the run is going. */
  outcome: RunOutcome | null;
  message: string | null;
  goal: string | null;
  /** The furthest phase the change reached while the run went. */
  phase: string;
  agents: { planner: string | null; reviewer: string | null; workers: string[] };
  options: Record<string, unknown>;
  /** Tasks this run claimed and has not seen finished or released: the next run releases them if this one dies. */
  claims: string[];
  invocations: number;
  usage: Usage;
}

export interface InvocationRecord {
  n: number;
  agent_id: string;
  role: 'planner' | 'worker' | 'reviewer';
  phase: string;
  task_id: string | null;
  attempt: number;
  /** The command line, with secrets (the review key) replaced by "***". */
  argv: string[];
  cwd: string;
  pid: number | null;
  started_at: string;
  ended_at: string | null;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number | null;
  usage: Usage;
  /** Paths relative to the repository root. */
  transcript: string;
  prompt_file: string;
  mcp_config: string;
  calls_file: string;
}

/** One tool call answered by a run's MCP server, as the engine reads it back. */
export interface CallRecord {
  at: string;
  /** The MCP tool (or, for an operation that is no tool, the operation). */
  tool: string;
  /** Made with the CLI: the command, like "task done" (absent for an MCP call). */
  command?: string;
  ok: boolean;
  code?: string;
  message?: string;
  next_step?: string;
  task_id?: string;
  percent?: number;
}

/**
 * A key in the shape agentboard makes them: a person's (`abpk_`, domain/people.ts) or a reviewer's
 * (`abrk_`, ops/reviewer-keys.ts), 24 random bytes in base64url.
 */
const KEY_SHAPE = /ab[pr]k_[A-Za-z0-9_-]{32}/g;

/** The text with every key in it replaced by "***": a call's record is read by any agent of the run. */
function withoutKeys(text: string): string {
  return text.replace(KEY_SHAPE, '***');
}

/** A call's record: its outcome, and the task, message and percent it gave (`error` with its texts as the caller was shown them), keys hidden. */
export function callRecord(tool: string, args: unknown, error: { code: string; message: string; next_step: string } | null): CallRecord {
  const a = (args !== null && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const entry: CallRecord = { at: nowIso(), tool, ok: error === null };
  if (typeof a.task_id === 'string') entry.task_id = withoutKeys(a.task_id);
  if (error) Object.assign(entry, { code: error.code, message: withoutKeys(error.message), next_step: withoutKeys(error.next_step) });
  else if (typeof a.message === 'string') entry.message = withoutKeys(a.message).slice(0, 300);
  if (typeof a.percent === 'number') entry.percent = a.percent;
  return entry;
}

/**
 * The calls file of the invocation of `agentboard run` that started this process (its
 * AGENTBOARD_RUN_ID and AGENTBOARD_INVOCATION), when that run is one of this board's: an agent's
 * commands are recorded with its MCP calls. Null for any other process.
 */
export function startedInvocationCalls(runtimeDir: string, env: Readonly<Record<string, string | undefined>>): string | null {
  const id = env.AGENTBOARD_RUN_ID ?? '';
  const n = Number(env.AGENTBOARD_INVOCATION);
  if (!env.AGENTBOARD_AGENT_ID || !RUN_ID_PATTERN.test(id) || !Number.isInteger(n) || n < 1) return null;
  const dir = join(runsDir(runtimeDir), id);
  return existsSync(dir) ? invocationPaths(dir, n).calls : null;
}

/** A count of tokens as a record may hold it: a whole number of zero or more, anything else 0. */
export function tokenCount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(Math.round(v), Number.MAX_SAFE_INTEGER) : 0;
}

/** A cost as a record may hold it: dollars, zero or more, or null when none was reported (a negative one is none). */
export function costOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** The usage a record holds, read so that a record written wrong (or by hand) never breaks a read of the board. */
export function usageOf(u: unknown): Usage {
  const r = (u !== null && typeof u === 'object' ? u : {}) as Record<string, unknown>;
  return { input_tokens: tokenCount(r.input_tokens), output_tokens: tokenCount(r.output_tokens), cached_input_tokens: tokenCount(r.cached_input_tokens), cost_usd: costOf(r.cost_usd) };
}

export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cost_usd: null };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    cost_usd: a.cost_usd === null && b.cost_usd === null ? null : (a.cost_usd ?? 0) + (b.cost_usd ?? 0),
  };
}

export function runsDir(runtimeDir: string): string {
  return join(runtimeDir, 'runs');
}

export function runDir(runtimeDir: string, runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) fail('RUN_NOT_FOUND', `"${printable(runId)}" is not a run id.`, 'List the runs with `agentboard runs`.');
  return join(runsDir(runtimeDir), runId);
}

/**
 * Where an invocation's files go; the MCP server started for it writes the calls file. The prompt
 * file is the record, with secrets (the review key) masked; an agent whose prompt holds a secret
 * reads it from agentPrompt, which is removed when its invocation ends.
 */
export function invocationPaths(dir: string, n: number): { record: string; prompt: string; agentPrompt: string; mcp: string; transcript: string; calls: string } {
  const base = join(dir, String(n).padStart(3, '0'));
  return { record: `${base}.json`, prompt: `${base}.prompt.md`, agentPrompt: `${base}.agent-prompt.md`, mcp: `${base}.mcp.json`, transcript: `${base}.transcript.log`, calls: `${base}.calls.jsonl` };
}

export function writeJson(path: string, value: unknown): void {
  recording(() => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`));
}

export function appendJsonLine(path: string, value: unknown): void {
  recording(() => appendFile(path, `${JSON.stringify(value)}\n`, path));
}

/**
 * A run's record that cannot be written (a full disk) stops the run, whose agents may have written
 * to the board already: what they did is kept, and running the command again goes on from there.
 */
function recording(write: () => void): void {
  try {
    write();
  } catch (err) {
    if (!(err instanceof AgentboardError)) throw err;
    throw new AgentboardError(err.code, err.message.replace('Nothing was changed.', 'The run stopped here; what its agents did on the board is kept, and the same command goes on from there.'), err.nextStep);
  }
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

export function readJsonLines<T>(path: string): T[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // a line cut by a killed writer: the lines before it still count
    }
  }
  return out;
}

export function createRunDir(runtimeDir: string, runId: string): string {
  const dir = runDir(runtimeDir, runId);
  ensureDir(dirname(runtimeDir), dir, (p) => p);
  return dir;
}

/** Every run on the board, newest first. */
export function listRuns(runtimeDir: string): RunRecord[] {
  let names: string[];
  try {
    names = readdirSync(runsDir(runtimeDir)).filter((n) => RUN_ID_PATTERN.test(n));
  } catch {
    return [];
  }
  return names
    .sort()
    .reverse()
    .flatMap((n) => {
      const r = readJson<RunRecord>(join(runsDir(runtimeDir), n, 'run.json'));
      return r ? [{ ...r, usage: usageOf(r.usage) }] : [];
    });
}

/** A run's record; null when this board has no such run. */
export function findRun(runtimeDir: string, runId: string): RunRecord | null {
  const r = readJson<RunRecord>(join(runDir(runtimeDir, runId), 'run.json'));
  return r && { ...r, usage: usageOf(r.usage) };
}

export function readRun(runtimeDir: string, runId: string): RunRecord {
  const record = findRun(runtimeDir, runId);
  if (!record) fail('RUN_NOT_FOUND', `There is no run ${runId} on this board.`, 'List the runs with `agentboard runs`.');
  return record;
}

export function readInvocations(runtimeDir: string, runId: string): InvocationRecord[] {
  const dir = runDir(runtimeDir, runId);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^\d{3,}\.json$/.test(n));
  } catch {
    return [];
  }
  return names.sort().flatMap((n) => {
    const r = readJson<InvocationRecord>(join(dir, n));
    return r ? [{ ...r, usage: usageOf(r.usage) }] : [];
  });
}

/**
 * A run without an outcome whose process is provably gone died: kill -9, a crash, a reboot. Its
 * process is judged as the board lock's holder is (a reused pid or a zombie is not the run); a run
 * on another host counts as running.
 */
export function runState(run: RunRecord): 'running' | 'died' | 'ended' {
  if (run.outcome !== null) return 'ended';
  return processAlive(run) === false ? 'died' : 'running';
}
