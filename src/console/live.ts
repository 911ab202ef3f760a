/**
 * The board behind the console: a snapshot kept up to date from the file watcher, and the person's
 * acts run as operations of the registry with the person as the actor, exactly as the CLI runs them.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { now } from '../clock.js';
import { AgentboardError, toPayload } from '../errors.js';
import type { Finding } from '../domain/findings.js';
import { hasUnsafeText, printable } from '../domain/text.js';
import { findOperation } from '../ops/index.js';
import { execute } from '../ops/execute.js';
import { syncCopy } from '../ops/shared-run.js';
import type { Context } from '../ops/registry.js';
import { renderResult } from '../render/text.js';
import { forPerson } from '../render/person-refs.js';
import { previewLines } from '../render/preview.js';
import type { ConsoleSnapshot } from './cards.js';
import { EVERYTHING, SnapshotReader, type Dirty } from './snapshot.js';
import type { ActionResult, ConsoleAction, ConsoleSource, Read, TaskDetail } from './source.js';
import { BoardWatcher, boardFolders } from './watch.js';

/**
 * How often the clock moves the screen on (ages and countdowns, shown to the minute; stale claims),
 * reading nothing: each move redraws the screen, which is most of what an idle console costs.
 */
const TICK_MS = 30_000;
/**
 * How often, while the screen shows a run under way, the console checks that the run's process
 * still runs: a run killed with kill -9 writes no file, so the watcher would not tell.
 */
const LIVENESS_MS = 3_000;
/** Every so many ticks the whole board is read again, in case a change on disk went unnoticed (a file system without events). */
const TICKS_PER_READ = 2;
/**
 * How often the console fetches a shared board (docs/shared-boards.md): what other clones did
 * reaches this clone's copy, and the file watcher brings it to the screen.
 */
const SYNC_MS = 10_000;

/** References to operations, spelled as the commands the person at the keyboard would type. */
const spell: (text: string) => string = forPerson;

function refusal(err: unknown): { ok: false; code: string; message: string; next_step: string } {
  const p = toPayload(err);
  // The person acted with a key, not a command to run again.
  const next = err instanceof AgentboardError ? p.next_step : 'Try it again; if it fails again, report it with what you did.';
  return { ok: false, code: p.code, message: spell(p.message), next_step: spell(next) };
}

/** The operation and its input for each act; the person is the actor of every one. */
function operationFor(action: ConsoleAction, person: string): { op: string; input: Record<string, unknown> } {
  switch (action.type) {
    case 'approve_document':
      return { op: 'document.approve', input: { agent_id: person, change_id: action.change_id, document: action.document } };
    case 'reject_document':
      return { op: 'document.reject', input: { agent_id: person, change_id: action.change_id, document: action.document, feedback: action.feedback } };
    case 'approve_task':
      return { op: 'task.approve', input: { agent_id: person, task_id: action.task_id } };
    case 'reject_task':
      return { op: 'task.reject', input: { agent_id: person, task_id: action.task_id, feedback: action.feedback } };
    case 'answer':
      return { op: 'input.answer', input: { agent_id: person, input_id: action.input_id, answer: action.answer } };
    case 'release_task':
      return { op: 'task.release', input: { agent_id: person, task_id: action.task_id } };
  }
}

/** What the person is told an act did, in the words the CLI uses where it has them. */
function doneMessage(action: ConsoleAction, op: string, data: Record<string, unknown>): string {
  switch (action.type) {
    case 'approve_task':
      return `Approved ${action.task_id}: it is done.`;
    case 'reject_task':
      return `Sent ${action.task_id} back to the pool with your feedback.`;
    case 'release_task':
      return data.released_from ? `Released ${action.task_id} from ${String(data.released_from)}; it is back in the pool.` : `Nobody holds ${action.task_id}; nothing changed.`;
    default:
      return renderResult(op, data).trim().split('\n')[0]!;
  }
}

const shownAs = new WeakMap<object, unknown>();

/**
 * What the board holds, as the screen may show it: every character that could drive the terminal
 * or make text display in another order than it reads (a hand edit can put one in a file: an
 * escape sequence in a title would change the terminal's colours or its title) shown as "?", as
 * the CLI's messages show it. An object already seen is not looked at again: the snapshots share
 * the cards of what did not change.
 */
function shown<T>(value: T): T {
  if (typeof value === 'string') return (hasUnsafeText(value) ? printable(value, Infinity) : value) as T;
  if (value === null || typeof value !== 'object') return value;
  const seen = shownAs.get(value);
  if (seen !== undefined) return seen as T;
  let changed = false;
  const each = (v: unknown) => {
    const out = shown(v);
    changed ||= out !== v;
    return out;
  };
  const copy = Array.isArray(value) ? value.map(each) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, each(v)]));
  const out = (changed ? copy : value) as T;
  shownAs.set(value, out);
  return out;
}

export type Opener = (file: string, tool: 'pager' | 'editor') => Promise<ActionResult>;

export class LiveBoard implements ConsoleSource {
  private snapshot: ConsoleSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly reader: SnapshotReader;
  private watcher: BoardWatcher | null = null;
  private tick: NodeJS.Timeout | null = null;
  private ticks = 0;
  private liveness: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  /** Set for when the first question shown runs out of time, so that it leaves the screen then. */
  private expiry: NodeJS.Timeout | null = null;
  /** Why the last fetch of a shared board failed; null once one succeeds. */
  private syncTrouble: string | null = null;
  /** Set by the command once the screen is up: opening a file needs the terminal. */
  opener: Opener = async () => ({ ok: false, code: 'USAGE', message: 'Files cannot be opened here.', next_step: 'Open the file from a shell.' });

  constructor(
    private readonly ctx: Context,
    readonly person: string,
    scope: string | null,
  ) {
    this.reader = new SnapshotReader(ctx.board(), scope);
    this.snapshot = shown(this.reader.read());
  }

  get = (): ConsoleSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Reads the board again, all of it or only what changed; a refusal (a damaged runtime store)
   * keeps the last snapshot on screen, with the reason.
   */
  refresh = (dirty: Dirty = EVERYTHING): void => {
    try {
      this.snapshot = shown(this.reader.read(dirty));
      if (this.syncTrouble) this.snapshot = { ...this.snapshot, trouble: this.syncTrouble };
    } catch (err) {
      if (!(err instanceof AgentboardError)) throw err;
      this.snapshot = { ...this.snapshot, trouble: spell(`${err.message} ${err.nextStep}`) };
    }
    this.watcher?.watchOnly(this.folders());
    this.checkRuns();
    this.notify();
  };

  /** Checks the runs shown under way while there are some (and the console follows the disk); one that died is read again. */
  private checkRuns(): void {
    const wanted = this.watcher !== null && this.reader.running.length > 0;
    if (wanted && !this.liveness) {
      this.liveness = setInterval(() => this.reader.runDied() && this.refresh({ runtime: true }), LIVENESS_MS);
      this.liveness.unref();
    } else if (!wanted && this.liveness) {
      clearInterval(this.liveness);
      this.liveness = null;
    }
  }

  private notify(): void {
    this.watchExpiry();
    for (const l of this.listeners) l();
  }

  /**
   * While the console follows the disk, moves the clock on when the first question shown runs out
   * of time: past its deadline it no longer waits on the person, and the tick may be half a minute away.
   */
  private watchExpiry(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
    if (this.watcher === null) return;
    const next = Math.min(...this.snapshot.waiting.flatMap((w) => (w.kind === 'question' ? [Date.parse(w.expires_at)] : [])));
    if (!Number.isFinite(next)) return;
    // Just past the deadline (a question is shown until it), and never past what a timer can wait.
    this.expiry = setTimeout(this.retime, Math.min(Math.max(0, next - now().getTime()) + 1, 2 ** 31 - 1));
    this.expiry.unref();
  }

  /** What the watcher's folders say changed: one change, the list of changes, the runtime, or (the board's own folder) anything. */
  private dirtyOf(folders: ReadonlySet<string>): Dirty {
    const board = this.ctx.board();
    const runs = join(board.runtimeDir, 'runs');
    const changes = new Set<string>();
    const dirty: Dirty = { changes };
    for (const dir of folders) {
      if (dir === board.changesDir) dirty.list = true;
      else if (dirname(dir) === board.changesDir) changes.add(basename(dir));
      else if (dir === board.runtimeDir || dir === runs || dirname(dir) === runs) dirty.runtime = true;
      else dirty.all = true;
    }
    return dirty;
  }

  /** The snapshot as of now, from what was read last. */
  private retime = (): void => {
    this.snapshot = shown(this.reader.retime());
    this.notify();
  };

  private onTick = (): void => {
    if (++this.ticks % TICKS_PER_READ === 0) return this.refresh();
    this.retime();
  };

  private folders(): string[] {
    const board = this.ctx.board();
    // With the board's folder gone, its own watches went with it (one deleted and made again is a
    // new folder): the folder it was in, or the nearest one above that is left, says when it is back.
    if (this.snapshot.board_gone) {
      let dir = dirname(board.dir);
      while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
      return [dir];
    }
    return boardFolders(board, this.snapshot.changes.map((c) => c.change_id), this.reader.running.map((r) => r.run_id));
  }

  /**
   * Starts following the disk: the watcher, and the clock's tick; on a shared board, the remote
   * too (fetched at once, then every `syncMs`).
   */
  start(options: { debounceMs?: number; maxWaitMs?: number; tickMs?: number; syncMs?: number } = {}): void {
    this.watcher = new BoardWatcher((folders) => this.refresh(this.dirtyOf(folders)), options);
    this.watcher.watchOnly(this.folders());
    this.checkRuns();
    this.watchExpiry();
    this.tick = setInterval(this.onTick, options.tickMs ?? TICK_MS);
    this.tick.unref();
    if (this.ctx.board().config.remote !== undefined) {
      const every = options.syncMs ?? SYNC_MS;
      // The next fetch is timed from the end of the last one, until stop() clears the timer.
      const syncIn = (ms: number) => {
        this.syncTimer = setTimeout(() => void this.sync().then(() => this.syncTimer && syncIn(every)), ms);
        this.syncTimer.unref();
      };
      syncIn(0);
    }
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    this.checkRuns();
    this.watchExpiry();
    if (this.tick) clearInterval(this.tick);
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
  }

  /**
   * Fetches the shared board into this clone's copy (the watcher shows what changed). When the
   * remote cannot be reached, the screen says so and goes on showing this clone's copy.
   */
  private async sync(): Promise<void> {
    let trouble: string | null = null;
    try {
      await syncCopy(this.ctx);
    } catch (err) {
      // Whatever went wrong (the remote, git itself), the person's screen stays up and says it.
      const why = err instanceof Error ? err.message.split(' (')[0] : String(err);
      trouble = `Could not sync with "${this.ctx.board().config.remote}"; showing this clone's copy. ${why}`;
    } finally {
      this.ctx.takeNotices();
    }
    if (trouble === this.syncTrouble) return;
    this.syncTrouble = trouble;
    this.refresh({ changes: new Set() });
  }

  act = async (action: ConsoleAction): Promise<ActionResult> => {
    const { op: name, input } = operationFor(action, this.person);
    const op = findOperation(name)!;
    try {
      const data = await execute(op, this.ctx, input);
      this.ctx.takeNotices();
      return { ok: true, message: doneMessage(action, name, data) };
    } catch (err) {
      return refusal(err);
    } finally {
      // The watcher would bring it too; reading now shows the result with the message.
      this.refresh(this.dirtyAfter(action));
    }
  };

  /** What an act can have changed: the change it is about, and the runtime (sessions, questions). */
  private dirtyAfter(action: ConsoleAction): Dirty {
    const changeId = 'change_id' in action ? action.change_id : 'task_id' in action ? action.task_id.split('/')[0]! : null;
    return { runtime: true, changes: new Set(changeId ? [changeId] : []) };
  }

  task = async (taskId: string): Promise<Read<TaskDetail>> => {
    try {
      return { ok: true, data: shown((await execute(findOperation('task.show')!, this.ctx, { task_id: taskId })) as unknown as TaskDetail) };
    } catch (err) {
      return refusal(err);
    }
  };

  findings = async (changeId: string): Promise<Read<Finding[]>> => {
    try {
      const data = (await execute(findOperation('change.validate')!, this.ctx, { change_id: changeId })) as { changes: { findings: Finding[] }[] };
      return { ok: true, data: shown(data.changes.flatMap((c) => c.findings)) };
    } catch (err) {
      return refusal(err);
    }
  };

  preview = async (changeId: string, document: string): Promise<Read<string[]>> => {
    try {
      const data = (await execute(findOperation('document.get')!, this.ctx, { change_id: changeId, document })) as { markdown?: string };
      return { ok: true, data: shown(previewLines(data)) };
    } catch (err) {
      return refusal(err);
    }
  };

  open = (file: string, tool: 'pager' | 'editor'): Promise<ActionResult> => this.opener(file, tool);

  spell = spell;
}
