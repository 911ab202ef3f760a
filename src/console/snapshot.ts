/**
 * What the console shows (cards.ts), read from the board. The console reads it again on every
 * change on disk, so reading it again must cost little when little changed: only what the watcher
 * saw change is read, the Board re-reads only files whose identity changed, and the cards of a
 * change are made again only when one of its files did.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { nowIso } from '../clock.js';
import { lastActivity } from '../domain/claims.js';
import { isHuman, taskRef } from '../domain/ids.js';
import { DOC_TYPES, isHeld, type BlockerSeverity, type DocType, type Task } from '../domain/model.js';
import { derivePhase } from '../domain/phase.js';
import { isReady } from '../domain/next-task.js';
import type { RuntimeData } from '../domain/records.js';
import type { Board, DocHead } from '../store/board.js';
import type { DocFile } from '../store/documents.js';
import { listRuns, readInvocations, runState, type RunRecord } from '../store/runs.js';
import type { TaskSummary } from '../store/task-scan.js';
import { changeTitle, openForWork, tasksOf } from '../ops/view.js';
import type { AgentCard, ChangeCard, ConsoleSnapshot, RunSeat, TaskCard, WaitingItem } from './cards.js';

const SEVERITY_RANK: Record<BlockerSeverity, number> = { high: 0, medium: 1, low: 2 };

/**
 * A card from the quick read of a task list (what a card shows of most tasks), completed from the
 * full read where the quick one leaves things out: blockers and the last progress message.
 */
function taskCard(changeId: string, t: TaskSummary, byId: Map<string, TaskSummary>, full: Task | undefined, open: boolean): TaskCard {
  return {
    task_id: taskRef(changeId, t.id),
    change_id: changeId,
    id: t.id,
    title: t.title,
    status: t.status,
    priority: t.priority,
    assignee: t.assignee ?? null,
    progress: t.progress ?? null,
    progress_message: full?.progress_message ?? null,
    progress_at: t.progress_at ?? null,
    claimed_at: t.claimed_at ?? null,
    last_activity: isHeld(t) ? lastActivity(t.claimed_at, t.progress_at, t.assignee && t.noted[t.assignee] ? [t.noted[t.assignee]!] : []) : null,
    submitted_at: t.submitted_at ?? null,
    submission: t.submission ?? null,
    depends: t.depends,
    ready: open && isReady(t, byId),
    blockers: (full?.blockers ?? [])
      .filter((b) => !b.resolved_at)
      .map((b) => ({ severity: b.severity, reason: b.reason, by: b.by, at: b.at }))
      .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]),
  };
}

type Heads = Record<DocType, DocHead | null>;

/** Errors met reading documents, with file and line. */
function problemsOf(docs: (DocFile | null)[]): ChangeCard['problems'] {
  return docs.flatMap((doc) => (doc ? doc.findings.filter((f) => f.level === 'error').map((f) => ({ file: f.file, ...(f.line ? { line: f.line } : {}), message: f.message })) : []));
}

interface Made {
  /** The identity of each document file and the approval setting the cards were made from. */
  key: string;
  change: ChangeCard;
  tasks: TaskCard[];
  /** Its tasks someone holds or that wait on a person: what agents and the waiting list are made from. */
  active: TaskCard[];
}

/** What changed on disk since the last read, as the watcher saw it; a read of everything when in doubt. */
export interface Dirty {
  all?: boolean;
  /** The list of changes (a change folder made or removed). */
  list?: boolean;
  /** Change folders in which a file changed. */
  changes?: ReadonlySet<string>;
  /** The runtime store and the records of runs. */
  runtime?: boolean;
}

export const EVERYTHING: Dirty = { all: true };

interface RunsRead {
  seats: Map<string, RunSeat>;
  deadClaims: Map<string, string>;
}

/**
 * Reads snapshots of one board for one console. A read re-reads only what the watcher says changed
 * (and, of that, only files whose identity changed); what did not change is not made again, and
 * moving the clock on (retime) reads nothing at all.
 */
export class SnapshotReader {
  private readonly made = new Map<string, Made>();
  private ids: string[] = [];
  private problems: ConsoleSnapshot['problems'] = [];
  private scopeGone = false;
  private archived = 0;
  private runtime: RuntimeData | null = null;
  private runs: RunsRead = { seats: new Map(), deadClaims: new Map() };
  private joined: { made: Made[]; changes: ChangeCard[]; tasks: TaskCard[] } | null = null;
  /** The runs under way at the last read, whose records the console watches. */
  running: RunRecord[] = [];

  constructor(
    private readonly board: Board,
    readonly scope: string | null,
  ) {}

  /**
   * The cards of a change. Most of a board is read quickly: the documents' frontmatter and a scan
   * of each task list. In full are read only the proposal (its title), the review (its verdict and
   * issues), a task list with tasks held or blocked (their blockers and messages), and a file the
   * quick read cannot read (for its findings). Nothing is made again while the files' identities stay.
   */
  private change(changeId: string): Made {
    const board = this.board;
    const heads = Object.fromEntries(DOC_TYPES.map((t) => [t, board.docHead(changeId, t)])) as Heads;
    const key = [...DOC_TYPES.map((t) => heads[t]?.identity ?? '-'), board.config.require_approval.join(',')].join('|');
    const before = this.made.get(changeId);
    if (before && before.key === key) return before;
    // A file whose frontmatter cannot be read is read in full, for what is wrong with it.
    const broken = DOC_TYPES.filter((t) => heads[t] === null && existsSync(board.docPath(changeId, t))).map((t) => board.readDoc(changeId, t));
    const list = heads.tasks ? board.taskList(changeId) : null;
    const proposal = heads.proposal ? board.readDoc(changeId, 'proposal') : null;
    const review = heads.review ? board.readDoc(changeId, 'review') : null;
    const fullNeeded = heads.tasks !== null && (list === null || list.broken || list.tasks.some((t) => t.status === 'blocked' || t.status === 'in_progress'));
    const full = fullNeeded ? board.readDoc(changeId, 'tasks') : null;
    const summaries = list?.tasks ?? [];
    const byId = new Map(summaries.map((t) => [t.id, t]));
    const fullById = new Map(tasksOf(full).map((t) => [t.id, t]));
    const open = openForWork(board, changeId, list);
    const cards = summaries.map((t) => taskCard(changeId, t, byId, fullById.get(t.id), open));

    const counts = { total: cards.length, todo: 0, in_progress: 0, blocked: 0, in_review: 0, done: 0 };
    for (const t of cards) counts[t.status]++;
    const latest = review?.content?.[0];
    const approval = board.config.require_approval as readonly string[];
    // A file there whose frontmatter cannot be read waits to be fixed, not to be written.
    const unreadable = (t: DocType) => broken.some((d) => d?.type === t);
    const state = (t: DocType) => (heads[t] ? { status: heads[t]!.meta.status } : unreadable(t) ? { status: 'template' as const, unreadable: true } : null);
    const tasks = state('tasks');
    const info = derivePhase(
      {
        proposal: state('proposal'),
        spec: state('spec'),
        // Without a readable head there is no quick read of the list either: its tasks are none.
        tasks: tasks && { ...tasks, tasks: summaries, broken: list?.broken ?? false },
        review: heads.review ? { status: heads.review.meta.status, verdict: latest?.verdict ?? null } : null,
      },
      approval,
    );
    const change: ChangeCard = {
      change_id: changeId,
      title: changeTitle({ changeId, proposal, spec: null, tasks: null, review: null, design: null }),
      phase: info.phase,
      waiting_on: info.waiting_on,
      documents: DOC_TYPES.flatMap((type) => {
        const m = heads[type]?.meta;
        if (!m) return [];
        return [{ document: type, file: board.rel(board.docPath(changeId, type)), status: m.status, revision: m.revision, author: m.author, updated: m.updated, review_requested: m.review_requested_by !== undefined, blocking: approval.includes(type) }];
      }),
      tasks: counts,
      review: latest ? { round: latest.round, verdict: latest.verdict, reviewer: latest.reviewer, at: latest.at, summary: latest.summary, issues: latest.issues.map((i) => ({ severity: i.severity, title: i.title })) } : null,
      problems: problemsOf([...broken, proposal, review, full]),
    };
    const made = { key, change, tasks: cards, active: cards.filter((t) => t.status !== 'todo' && t.status !== 'done') };
    this.made.set(changeId, made);
    return made;
  }

  private readList(): void {
    const board = this.board;
    this.problems = [];
    if (this.scope !== null) {
      this.scopeGone = !board.hasChange(this.scope);
      this.ids = this.scopeGone ? [] : [this.scope];
    } else {
      this.ids = board.changeIds();
      this.archived = board.archived().length;
      this.problems = [...board.problems, ...board.goneChanges()].map((f) => ({ file: f.file, message: f.message }));
    }
    for (const id of this.made.keys()) if (!this.ids.includes(id)) this.made.delete(id);
  }

  /** Runs still going name their agents and the invocation each is in; a run that died leaves claims nobody will finish. */
  private readRuns(): void {
    const runs = listRuns(this.board.runtimeDir).filter((r) => this.scope === null || r.change_id === this.scope);
    const seats = new Map<string, RunSeat>();
    const deadClaims = new Map<string, string>();
    this.running = [];
    for (const run of runs) {
      const state = runState(run);
      if (state === 'died') for (const c of run.claims) deadClaims.set(c, run.run_id);
      if (state !== 'running') continue;
      this.running.push(run);
      const roles: [string | null, string][] = [[run.agents.planner, 'planner'], [run.agents.reviewer, 'reviewer'], ...run.agents.workers.map((w) => [w, 'worker'] as [string, string])];
      for (const [id, role] of roles) if (id) seats.set(id, { run_id: run.run_id, role, invocation: 0, phase: run.phase, task_id: null, started_at: run.started_at });
      for (const inv of readInvocations(this.board.runtimeDir, run.run_id)) {
        if (inv.ended_at === null) seats.set(inv.agent_id, { run_id: run.run_id, role: inv.role, invocation: inv.n, phase: inv.phase, task_id: inv.task_id, started_at: inv.started_at });
      }
    }
    this.runs = { seats, deadClaims };
  }

  /**
   * Whether a run under way at the last read has died since (kill -9 writes no file to say so):
   * its process is checked as status checks it, and nothing is read.
   */
  runDied(): boolean {
    return this.running.some((r) => runState(r) === 'died');
  }

  /** Reads what changed on disk (everything, unless told what), and the snapshot as of `at`. */
  read(dirty: Dirty = EVERYTHING, at = nowIso()): ConsoleSnapshot {
    this.board.begin();
    const first = this.runtime === null;
    if (dirty.all || dirty.list || first) this.readList();
    for (const id of this.ids) if (dirty.all || first || !this.made.has(id) || dirty.changes?.has(id)) this.change(id);
    if (dirty.all || dirty.runtime || first) {
      this.runtime = this.board.readRuntime();
      this.readRuns();
    }
    return this.retime(at);
  }

  /** The snapshot as of `at` from what was read last: ages, countdowns and stale claims move with the clock. */
  retime(at = nowIso()): ConsoleSnapshot {
    const board = this.board;
    const made = this.ids.map((id) => this.made.get(id)!);
    // The 10,000 cards of a big board are joined again only when a change was made again.
    if (!this.joined || this.joined.made.length !== made.length || this.joined.made.some((m, i) => m !== made[i])) {
      this.joined = { made, changes: made.map((m) => m.change), tasks: made.flatMap((m) => m.tasks) };
    }
    const { changes, tasks } = this.joined;
    const active = made.flatMap((m) => m.active);
    const runtime = this.runtime!;
    const now = Date.parse(at);
    const staleMs = board.config.stale_claim_minutes * 60_000;
    const { seats, deadClaims } = this.runs;

    const waiting: WaitingItem[] = [];
    for (const i of Object.values(runtime.inputs)) {
      // Past its deadline a question resolves to its default on the next read: it no longer waits on anyone.
      if (i.status !== 'open' || Date.parse(i.expires_at) <= now) continue;
      waiting.push({ kind: 'question', key: `question:${i.id}`, input_id: i.id, agent_id: i.agent_id, question: i.question, options: i.options, default_action: i.default_action, expires_at: i.expires_at, created_at: i.created_at });
    }
    waiting.sort((a, b) => ((a as { expires_at: string }).expires_at < (b as { expires_at: string }).expires_at ? -1 : 1));
    const broken: WaitingItem[] = [];
    for (const c of changes) {
      for (const d of c.documents) if (d.status === 'submitted') waiting.push({ kind: 'document', key: `document:${c.change_id}/${d.document}`, change_id: c.change_id, ...d });
      const list = c.documents.find((d) => d.document === 'tasks')?.file;
      const first = list ? c.problems.find((p) => p.file === list) : undefined;
      if (list && first && c.phase === 'implementation') broken.push({ kind: 'broken', key: `broken:${c.change_id}`, change_id: c.change_id, file: list, line: first.line ?? null, message: first.message });
    }
    const tasksFile = (changeId: string) => this.made.get(changeId)?.change.documents.find((d) => d.document === 'tasks')?.file ?? '';
    const later: WaitingItem[] = [];
    for (const t of active) {
      if (t.status === 'in_review') waiting.push({ kind: 'review', key: `review:${t.task_id}`, task_id: t.task_id, title: t.title, assignee: t.assignee ?? '', submitted_at: t.submitted_at, submission: t.submission, file: tasksFile(t.change_id) });
      else if (t.status === 'blocked') later.push({ kind: 'blocked', key: `blocked:${t.task_id}`, task_id: t.task_id, title: t.title, assignee: t.assignee, blocker: t.blockers[0] ?? null, file: tasksFile(t.change_id) });
      else if (t.status === 'in_progress' && t.assignee && t.last_activity !== null) {
        const idle = now - Date.parse(t.last_activity);
        const deadRun = deadClaims.get(t.task_id) ?? null;
        if (idle > staleMs || deadRun) later.push({ kind: 'stale', key: `stale:${t.task_id}`, task_id: t.task_id, title: t.title, assignee: t.assignee, idle_minutes: Math.max(0, Math.floor(idle / 60_000)), run_id: deadRun, file: tasksFile(t.change_id) });
      }
    }
    const rank = (w: WaitingItem) => (w.kind === 'blocked' ? SEVERITY_RANK[w.blocker?.severity ?? 'low'] : 3);
    waiting.push(...later.sort((a, b) => rank(a) - rank(b)), ...broken);

    return {
      project: board.config.project ?? basename(board.root),
      scope: this.scope,
      scope_gone: this.scopeGone,
      archived: this.archived,
      at,
      changes,
      tasks,
      agents: agentCards(runtime, active, seats),
      waiting,
      problems: [...this.problems, ...changes.flatMap((c) => c.problems)],
      board_gone: existsSync(board.dir) ? null : board.dir,
      trouble: null,
    };
  }
}

function agentCards(runtime: RuntimeData, tasks: TaskCard[], seats: Map<string, RunSeat>): AgentCard[] {
  const ids = new Set([...Object.keys(runtime.agents), ...Object.keys(runtime.sessions), ...seats.keys()]);
  const holding = new Map<string, TaskCard>();
  const inReview = new Map<string, number>();
  for (const t of tasks) {
    if (!t.assignee || isHuman(t.assignee)) continue;
    if (t.status === 'in_review') inReview.set(t.assignee, (inReview.get(t.assignee) ?? 0) + 1);
    if (t.status !== 'in_progress' && t.status !== 'blocked') continue;
    ids.add(t.assignee);
    const held = holding.get(t.assignee);
    // An agent may hold a blocked task and one in progress: the one in progress is what it does now.
    if (!held || (held.status === 'blocked' && t.status === 'in_progress')) holding.set(t.assignee, t);
  }
  return [...ids].sort().map((id) => {
    const record = runtime.agents[id];
    const session = runtime.sessions[id];
    const task = holding.get(id) ?? null;
    const fromTask = task?.progress_message ? { message: task.progress_message, at: task.progress_at } : null;
    return {
      agent_id: id,
      name: record?.name ?? null,
      role: record?.role ?? null,
      status: session?.status ?? null,
      message: fromTask?.message ?? session?.message ?? null,
      message_at: fromTask ? fromTask.at : (session?.updated_at ?? null),
      task: task && { task_id: task.task_id, title: task.title, status: task.status, progress: task.progress },
      in_review: inReview.get(id) ?? 0,
      run: seats.get(id) ?? null,
    };
  });
}
