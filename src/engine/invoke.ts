/**
 * One agent invocation: write its prompt and MCP configuration, start the CLI through execa with a
 * clean environment and stdin closed (or holding the prompt, for a CLI that reads it there), stream
 * its output to the (capped) transcript, reading usage as it comes, stop its whole process tree at
 * the timeout or on Ctrl-C, and record all of it.
 */
import { closeSync, mkdirSync, openSync, readSync, statSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { dirname, relative } from 'node:path';
import { execa } from 'execa';
import { nowIso, testHooks } from '../clock.js';
import { unlinkQuietly } from '../store/fs.js';
import { emptyUsage, invocationPaths, type CallRecord, type InvocationRecord, type Usage } from '../store/runs.js';
import { adapterFor } from './adapters/index.js';
import type { Launch } from './adapters/types.js';
import { agentEnv, contractEnv } from './agent-env.js';
import { emit, type RunContext } from './context.js';
import { sleep } from './gates.js';
import { checkDocs, checkGoverning, docsBeforeTurn, docsWritten, heldBy, releaseStrays } from './guard.js';
import type { RunPhase } from './events.js';
import { killGroup, stopProcessesOfRun } from './processes.js';
import { mask, runSecrets } from './secrets.js';
import type { AgentInstance } from './settings.js';
import { Transcript } from './transcript.js';
import { UsageReader } from './usage.js';

export interface InvokeRequest {
  agent: AgentInstance;
  phase: RunPhase;
  /** Board-wide <change_id>/<task_id>, for workers. */
  taskId: string | null;
  attempt: number;
  prompt: string;
  workdir: string;
  /** Values its prompt holds that the run's records must not (the review key): hidden like every secret of the run. */
  secrets?: string[];
}

export interface InvokeResult {
  record: InvocationRecord;
  /** Why the attempt failed as a process (exit code, timeout, signal), or null when it exited 0. */
  failure: string | null;
  /** What to do when the agent could not be started at all (not installed, an argument too long): trying again will not help. */
  fatal: string | null;
  interrupted: boolean;
  /** The end of what the agent printed, for its next attempt's prompt. */
  output: string;
  /** Every tool call its MCP server answered. */
  calls: CallRecord[];
}

const GRACE_MS = 3000;
/** After the agent exited, how long its pipes may stay quiet (held open by a process it left) before they are no longer read. */
const PIPE_GRACE_MS = 1000;
/** After the agent exited, the longest its pipes are still read while output keeps coming. */
const PIPE_MAX_MS = 5000;
const OUTPUT_TAIL = 4000;
/** The most bytes Linux takes in one argument of a command line (MAX_ARG_STRLEN, with its final NUL). */
const ARG_MAX_BYTES = 128 * 1024 - 1;

/** Why a command line cannot be started, found before trying: an argument longer than Linux takes. */
function tooLong(args: string[], command: string): string | null {
  const i = args.findIndex((a) => Buffer.byteLength(a) > ARG_MAX_BYTES);
  if (i < 0) return null;
  return `could not start \`${command}\`: its argument ${i + 1} is ${Math.ceil(Buffer.byteLength(args[i]!) / 1024)} KiB, and Linux takes at most 128 KiB in one argument`;
}

/** What to do about an agent that could not be started, by why. */
function startAdvice(agent: AgentInstance, changeId: string, code: string | undefined): string {
  const then = `then: agentboard run ${changeId}`;
  if (code === 'E2BIG') return `Give agents: ${agent.name} in agentd/config.yaml its prompt by file ({prompt_file}, or the file AGENTBOARD_PROMPT_FILE names) instead of {prompt} in its arguments, ${then}`;
  if (code === 'ENOENT') return `Install it, or fix agents: ${agent.name} in agentd/config.yaml, ${then}`;
  return `Check agents: ${agent.name} in agentd/config.yaml (the command must be an executable file; the error above says what failed), ${then}`;
}

/** Reads the lines appended to a calls file since the last read. */
class CallsTail {
  private offset = 0;
  private pending = '';
  private watcher: FSWatcher | null = null;
  readonly calls: CallRecord[] = [];

  constructor(
    private readonly path: string,
    private readonly onCall: (call: CallRecord) => void,
  ) {
    writeFileSync(path, '');
    if (testHooks()?.unwatchedCalls) return;
    try {
      this.watcher = watch(path, () => this.read());
    } catch {
      // no file watching here: the calls are still read when the invocation ends
    }
  }

  read(): void {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return;
    }
    if (size <= this.offset) return;
    const fd = openSync(this.path, 'r');
    const buf = Buffer.alloc(size - this.offset);
    try {
      readSync(fd, buf, 0, buf.length, this.offset);
    } finally {
      closeSync(fd);
    }
    this.offset = size;
    const lines = (this.pending + buf.toString('utf8')).split('\n');
    this.pending = lines.pop()!;
    for (const line of lines) {
      if (!line) continue;
      try {
        const call = JSON.parse(line) as CallRecord;
        this.calls.push(call);
        this.onCall(call);
      } catch {
        // a torn line cannot be a call
      }
    }
  }

  close(): CallRecord[] {
    this.watcher?.close();
    this.read();
    return this.calls;
  }
}

export async function invoke(ctx: RunContext, req: InvokeRequest): Promise<InvokeResult> {
  const { agent } = req;
  const n = ctx.recorder.nextInvocation();
  const paths = invocationPaths(ctx.recorder.dir, n);
  const rel = (p: string) => relative(ctx.root, p);
  // Every secret of the run, not only this agent's: any agent could come across the review key.
  const secrets = runSecrets(ctx, req.secrets);
  // The record of the prompt never holds a secret; an agent whose prompt holds one (the reviewer
  // its key) reads it from a file of its own, readable by this user only, removed when it is done.
  writeFileSync(paths.prompt, mask(req.prompt, secrets));
  const promptFile = secrets.some((s) => req.prompt.includes(s)) ? paths.agentPrompt : paths.prompt;
  if (promptFile !== paths.prompt) writeFileSync(promptFile, req.prompt, { mode: 0o600 });
  // The board's MCP server for this agent: bound to its id and role, recording every call for the run;
  // a worker's to its task, a planner's or reviewer's to the change and phase (its questions are keyed by them).
  const mcpServer = {
    command: process.execPath,
    args: [ctx.bin, 'mcp', '--root', ctx.root, '--as', agent.id, '--profile', agent.role, '--run', ctx.runId, '--invocation', String(n), ...(req.taskId ? ['--task', req.taskId] : ['--change', ctx.changeId, '--phase', req.phase])],
  };
  writeFileSync(paths.mcp, `${JSON.stringify({ mcpServers: { agentboard: mcpServer } }, null, 2)}\n`);
  const values: Record<string, string> = {
    prompt_file: promptFile,
    prompt: req.prompt,
    mcp_config: paths.mcp,
    agent_id: agent.id,
    role: agent.role,
    phase: req.phase,
    change_id: ctx.changeId,
    task_id: req.taskId ?? '',
    root: ctx.root,
    workdir: req.workdir,
  };
  const launch = adapterFor(agent.config)({
    agent,
    prompt: req.prompt,
    promptFile,
    mcpConfigFile: paths.mcp,
    mcpServer,
    filesBase: paths.record.replace(/\.json$/, ''),
    workdir: req.workdir,
    values,
  });
  for (const file of launch.files) {
    mkdirSync(dirname(file.path), { recursive: true, mode: 0o700 });
    writeFileSync(file.path, file.content, { mode: 0o600 });
  }
  const env = agentEnv(
    process.env,
    contractEnv({ promptFile, mcpConfig: paths.mcp, agentId: agent.id, role: agent.role, phase: req.phase, changeId: ctx.changeId, taskId: req.taskId ?? '', root: ctx.root, runId: ctx.runId, workdir: req.workdir, invocation: n }),
    launch.env,
    agent.config.env,
  );
  // A prompt given as an argument is recorded by its file, not in full.
  const argv = [launch.command, ...launch.args].map((a) => (a === req.prompt ? `<prompt: ${rel(paths.prompt)}>` : mask(a, secrets)));
  const record: InvocationRecord = {
    n,
    agent_id: agent.id,
    role: agent.role,
    phase: req.phase,
    task_id: req.taskId,
    attempt: req.attempt,
    argv,
    cwd: req.workdir,
    pid: null,
    started_at: nowIso(),
    ended_at: null,
    exit_code: null,
    signal: null,
    timed_out: false,
    duration_ms: null,
    usage: emptyUsage(),
    transcript: rel(paths.transcript),
    prompt_file: rel(paths.prompt),
    mcp_config: rel(paths.mcp),
    calls_file: rel(paths.calls),
  };
  const base = { agent_id: agent.id, role: agent.role, phase: req.phase, attempt: req.attempt };
  const docs = await docsBeforeTurn(ctx);
  const waiting = await heldBy(ctx, agent.id, 'blocked');
  emit(ctx, { type: 'invocation.started', ...base, invocation: n, task_id: req.taskId, argv, cwd: req.workdir });
  const tail = new CallsTail(paths.calls, (call) => {
    if (call.ok) docsWritten(ctx, docs);
    emit(ctx, { type: 'tool.called', ...base, invocation: n, tool: call.tool, ok: call.ok, ...(call.task_id ? { task_id: call.task_id } : {}), ...(call.message ? { message: call.message } : {}), ...(call.code ? { code: call.code } : {}) });
  });

  const started = Date.now();
  const long = tooLong(launch.args, launch.command);
  // An argument too long is not even tried (the spawn would fail with E2BIG): it is said why.
  if (long) writeFileSync(paths.transcript, '');
  const ran: Ran = long ? { exitCode: undefined, signal: undefined, startError: long, code: 'E2BIG', reason: null, output: '', usage: emptyUsage(), error: null } : await spawnAgent(ctx, launch, env, req.workdir, n, (pid) => {
    record.pid = pid;
    ctx.recorder.saveInvocation(paths.record, record);
  }, paths.transcript, secrets);
  const calls = tail.close();
  unlinkQuietly(paths.agentPrompt);

  const { reason } = ran;
  record.ended_at = nowIso();
  record.duration_ms = Date.now() - started;
  record.exit_code = ran.exitCode ?? null;
  record.signal = ran.signal ?? null;
  record.timed_out = reason === 'timeout';
  record.usage = ran.usage;
  ctx.recorder.saveInvocation(paths.record, record);
  ctx.recorder.addUsage(record.usage);

  let failure: string | null = null;
  if (reason === 'timeout') failure = `timed out after ${ctx.options.timeoutMinutes} min; its processes were stopped`;
  else if (reason === 'interrupted') failure = 'stopped: the run was interrupted';
  else if (ran.startError) failure = ran.startError;
  else if (ran.exitCode !== 0) failure = `${ran.signal ? `was killed by ${ran.signal}` : `exited with code ${ran.exitCode}`}${ran.error ? `; it said: ${ran.error}` : ''}`;
  emit(ctx, {
    type: 'invocation.finished',
    ...base,
    invocation: n,
    task_id: req.taskId,
    exit_code: record.exit_code,
    signal: record.signal,
    timed_out: record.timed_out,
    duration_ms: record.duration_ms,
    usage: record.usage,
    transcript: record.transcript,
    failure,
  });
  // The documents first: a note the settings' check writes would merge an edit by hand.
  await checkDocs(ctx, docs, { ...base, task_id: req.taskId });
  await checkGoverning(ctx, { ...base, task_id: req.taskId });
  if (!ctx.handEdited.has('tasks')) await releaseStrays(ctx, agent, req.phase, req.taskId, waiting);
  const fatal = ran.startError && !reason ? startAdvice(agent, ctx.changeId, ran.code) : null;
  await waitWhenTurnedAway(ctx, agent.id, req.attempt, failure !== null && !reason ? ran.error : null);
  return { record, failure, fatal, interrupted: reason === 'interrupted', output: ran.output.trim(), calls };
}

/** How the agent's process went: its exit, why the run stopped it (timeout, interrupted), what it printed. */
interface Ran {
  exitCode: number | undefined;
  signal: string | undefined;
  /** Why it could not be started at all; null once it started. */
  startError: string | null;
  code: string | undefined;
  reason: 'timeout' | 'interrupted' | null;
  /** The end of what it printed. */
  output: string;
  usage: Usage;
  /** The last error the CLI reported in its events (an API error, a rate limit), in its own words. */
  error: string | null;
}

/** What a model's API says when it turns a client away for a while: too many requests, overloaded, out of quota. */
const TURNED_AWAY = /\b(?:429|529)\b|rate[ _-]?limit|too many requests|overloaded|resource[ _]exhausted|quota/i;

/**
 * After a turn its model's API turned away (a rate limit, say), the next attempt waits a while
 * (30 s, then 60 s…), saying so: tried again at once, it would be turned away again, and every
 * attempt spent in a second. Ctrl-C ends the wait.
 */
async function waitWhenTurnedAway(ctx: RunContext, agentId: string, attempt: number, error: string | null): Promise<void> {
  if (error === null || !TURNED_AWAY.test(error) || attempt >= ctx.options.maxAttempts || ctx.signal.aborted) return;
  const ms = testHooks()?.rateLimitWaitMs ?? 30_000 * attempt;
  emit(ctx, { type: 'notice', message: `${agentId}'s model API turned it away (${error}); the next attempt waits ${Math.round(ms / 1000)} s.` });
  await sleep(ms, ctx.signal);
}

/**
 * Starts the agent and waits for it: its output streamed to the transcript (usage read as it
 * comes), its whole process tree stopped at the timeout or on Ctrl-C.
 */
async function spawnAgent(ctx: RunContext, launch: Launch, env: NodeJS.ProcessEnv, workdir: string, n: number, onPid: (pid: number) => void, transcriptPath: string, secrets: string[]): Promise<Ran> {
  // One stop for every reason (timeout, Ctrl-C): execa cancels the agent, and its whole process
  // group is signalled with every process that left it, since execa's own timeout would reach only
  // the agent's first process.
  const stopper = new AbortController();
  const onInterrupt = () => stopper.abort('interrupted');
  ctx.signal.addEventListener('abort', onInterrupt, { once: true });
  if (ctx.signal.aborted) stopper.abort('interrupted');
  const timeoutMs = Math.round(ctx.options.timeoutMinutes * 60_000);
  const timer = setTimeout(() => stopper.abort('timeout'), timeoutMs);
  const usage = new UsageReader();
  let output = '';
  const transcript = new Transcript(transcriptPath, secrets);
  const subprocess = execa(launch.command, launch.args, {
    cwd: workdir,
    env,
    extendEnv: false,
    ...(launch.stdin === undefined ? { stdin: 'ignore' as const } : { input: launch.stdin }),
    all: true,
    buffer: false,
    reject: false,
    detached: true,
    cancelSignal: stopper.signal,
    forceKillAfterDelay: GRACE_MS,
  });
  const pid = subprocess.pid;
  // The agent's group, and what it started that left the group (found by its environment).
  const stop = (signal: NodeJS.Signals) => {
    killGroup(pid, signal);
    stopProcessesOfRun(signal, ctx.runId, n);
  };
  let forceKill: NodeJS.Timeout | undefined;
  const stopAll = () => {
    stop('SIGTERM');
    forceKill = setTimeout(() => stop('SIGKILL'), GRACE_MS);
  };
  stopper.signal.addEventListener('abort', stopAll, { once: true });
  if (pid !== undefined) onPid(pid);
  let received = 0;
  subprocess.stdout?.on('data', () => received++);
  subprocess.stderr?.on('data', () => received++);
  subprocess.stdout?.setEncoding('utf8');
  subprocess.stdout?.on('data', (chunk: string) => usage.push(chunk));
  subprocess.all?.setEncoding('utf8');
  // What it printed is kept masked for its next attempt's prompt too: the end of the raw output
  // could begin inside a key, a part that masking the prompt's record would not find.
  subprocess.all?.on('data', (chunk: string) => {
    output = (output + transcript.write(chunk)).slice(-OUTPUT_TAIL);
  });
  // The invocation ends when the agent exits: whatever it left running ends with it, and output
  // still held open by a process that escaped is read while it comes, then no longer waited for.
  await Promise.race([subprocess, new Promise((resolve) => subprocess.once('exit', resolve))]);
  stop('SIGKILL');
  const stopReading = readUntilQuiet(() => received, () => {
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
  });
  const result = await subprocess;
  stopReading();
  clearTimeout(timer);
  clearTimeout(forceKill);
  ctx.signal.removeEventListener('abort', onInterrupt);
  await transcript.end();

  const reason = stopper.signal.aborted ? (stopper.signal.reason as 'timeout' | 'interrupted') : null;
  const notStarted = result.failed && result.exitCode === undefined && !result.isCanceled && !result.signal;
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    startError: notStarted ? `could not start \`${launch.command}\`: ${result.originalMessage ?? result.shortMessage}` : null,
    code: (result as { code?: string }).code,
    reason,
    output,
    usage: usage.finish(),
    error: usage.error,
  };
}

/**
 * Calls `stop` once the pipes stayed quiet for PIPE_GRACE_MS (`received` counts what they gave), or
 * PIPE_MAX_MS after the agent exited. Quiet is judged after reading what is there: a run that did
 * not get the CPU for a while finds its timer due before it has read the agent's last words.
 */
function readUntilQuiet(received: () => number, stop: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let check: NodeJS.Immediate | undefined;
  const wait = () => {
    const seen = received();
    timer = setTimeout(() => (check = setImmediate(() => (received() === seen ? stop() : wait()))), PIPE_GRACE_MS);
  };
  wait();
  const cap = setTimeout(stop, PIPE_MAX_MS);
  return () => {
    clearTimeout(timer);
    clearImmediate(check);
    clearTimeout(cap);
  };
}
