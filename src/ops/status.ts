/** Board status (seed 004's project metrics, and what waits on people) and the activity log. */
import * as z from 'zod';
import { nowIso } from '../clock.js';
import { taskRef } from '../domain/ids.js';
import { printable } from '../domain/text.js';
import { isReady } from '../domain/next-task.js';
import { lastActivity } from '../domain/claims.js';
import { isHeld, type Task, type TaskStatus } from '../domain/model.js';
import { ConflictOut } from './conflicts.js';
import { defineOp } from './registry.js';
import { Actor, ArchivedLeftOut, ChangeId, chars, checked, FindingOut, Phase } from './schemas.js';
import { page, Page, pageInput } from './pages.js';
import { archivedLeftOut, changeTitle, loadSummed, openForWork, phaseOf, tasksOf } from './view.js';
import { summarize } from '../store/task-scan.js';
import { basename } from 'node:path';
import { listRuns, runState, type RunRecord } from '../store/runs.js';
import { refTo } from '../domain/refs.js';

const Counts = z.object({
  total: z.number().int(),
  todo: z.number().int(),
  in_progress: z.number().int(),
  blocked: z.number().int(),
  in_review: z.number().int(),
  done: z.number().int(),
  ready: z.number().int(),
  urgent: z.number().int(),
  completion_percentage: z.number().int(),
});
type CountsIn = z.input<typeof Counts>;

function emptyCounts(): CountsIn {
  return { total: 0, todo: 0, in_progress: 0, blocked: 0, in_review: 0, done: 0, ready: 0, urgent: 0, completion_percentage: 0 };
}

function count(c: CountsIn, task: Pick<Task, 'status' | 'priority'>, ready: boolean): void {
  c.total++;
  c[task.status as TaskStatus]++;
  if (ready) c.ready++;
  if (task.priority === 'urgent' && task.status !== 'done') c.urgent++;
  c.completion_percentage = Math.round((c.done / c.total) * 100);
}

export const boardStatus = defineOp({
  name: 'board.status',
  summary: 'Project status: progress per change and agent, stale claims, what waits on people',
  access: 'read',
  input: z.strictObject({}),
  output: z.object({
    project: z.string(),
    totals: Counts,
    changes: z.array(z.object({ change_id: z.string(), title: z.string(), phase: Phase, waiting_on: z.string().nullable(), tasks: Counts })),
    agents: z.array(
      z.object({
        agent_id: z.string(),
        workflow_status: z.string().nullable(),
        current_tasks: z.array(z.string()),
        in_progress: z.number().int(),
        blocked: z.number().int(),
        in_review: z.number().int(),
        done: z.number().int(),
      }),
    ),
    stale_claims: z.array(
      z.object({
        task_id: z.string(),
        assignee: z.string(),
        claimed_at: z.string(),
        last_activity: z.string(),
        idle_minutes: z.number().int(),
        run_id: z.string().optional().describe('The agentboard run that claimed it and died; the next run of the change releases it.'),
      }),
    ),
    runs: z.array(z.object({ run_id: z.string(), change_id: z.string(), state: z.enum(['running', 'died']), pid: z.number().int(), started_at: z.string(), phase: z.string(), invocations: z.number().int() })).describe('agentboard runs that have not ended: running, or died without ending.'),
    costs: z.array(z.object({ change_id: z.string(), runs: z.number().int(), input_tokens: z.number().int(), output_tokens: z.number().int(), cost_usd: z.number().nullable() })).describe('What the runs of each change used; cost only where the agent CLI reports it.'),
    open_inputs: z.array(z.object({ input_id: z.string(), agent_id: z.string(), question: z.string(), default_action: z.string(), expires_at: z.string() })),
    awaiting_decision: z.array(z.object({ change_id: z.string(), document: z.string(), author: z.string(), updated: z.string(), blocking: z.boolean(), review_requested: z.boolean() })),
    tasks_in_review: z.array(z.object({ task_id: z.string(), assignee: z.string(), submitted_at: z.string(), summary: z.string().nullable() })),
    problems: z.array(FindingOut).describe('Files that cannot be read, and tasks a hand edit took out that the next write puts back; fix them by hand.'),
    hand_edited: z.array(z.string()).describe('Files a person edited since agentboard last wrote them; the next write merges them.'),
    conflicts: z.array(ConflictOut).describe("What merging a person's edit kept on both sides, for a person to look at."),
    ...ArchivedLeftOut,
  }),
  cli: { command: 'status' },
  tool: {
    name: 'agentboard_get_project_status',
    title: 'Get the project status',
    description:
      'The whole board: progress per change, what each agent holds, stale claims, and what waits on people.',
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx) {
    const board = ctx.board();
    const config = board.config;
    const now = nowIso();
    const runtime = board.readRuntime();
    const totals = emptyCounts();
    const changes = [];
    const agents = new Map<string, { agent_id: string; workflow_status: string | null; current_tasks: string[]; in_progress: number; blocked: number; in_review: number; done: number }>();
    const agentOf = (id: string) => {
      let a = agents.get(id);
      if (!a) agents.set(id, (a = { agent_id: id, workflow_status: runtime.sessions[id]?.status ?? null, current_tasks: [], in_progress: 0, blocked: 0, in_review: 0, done: 0 }));
      return a;
    };
    for (const id of Object.keys(runtime.agents)) agentOf(id);
    const stale = [];
    const awaiting = [];
    const inReview = [];
    const problems = [];
    const staleMs = config.stale_claim_minutes * 60_000;
    const runs = listRuns(board.runtimeDir).map((run) => ({ run, state: runState(run) }));
    const openRuns = runs.flatMap(({ run: r, state }) => (state === 'ended' ? [] : [{ run_id: r.run_id, change_id: r.change_id, state, pid: r.pid, started_at: r.started_at, phase: r.phase, invocations: r.invocations }]));
    // A claim of a run that died is stale at once: nobody will finish it until the next run releases it.
    const deadClaims = new Map(runs.filter((r) => r.state === 'died').flatMap(({ run }) => run.claims.map((c) => [c, run.run_id] as const)));
    for (const changeId of board.changeIds()) {
      // Task lists are read quickly (a summary of each task); only one the quick read could not take is read in full, for its findings.
      const { change, list } = loadSummed(board, changeId);
      const tasks = list?.tasks ?? tasksOf(change.tasks).map(summarize);
      const byId = new Map(tasks.map((t) => [t.id, t]));
      const counts = emptyCounts();
      const open = openForWork(board, changeId, list ?? change.tasks);
      for (const t of tasks) {
        const ready = open && isReady(t, byId);
        count(counts, t, ready);
        count(totals, t, ready);
        if (t.assignee) {
          const a = agentOf(t.assignee);
          if (t.status === 'in_progress') a.in_progress++;
          else if (t.status === 'blocked') a.blocked++;
          else if (t.status === 'in_review') a.in_review++;
          else if (t.status === 'done') a.done++;
          if (isHeld(t) && t.status !== 'in_review') a.current_tasks.push(taskRef(changeId, t.id));
        }
        if (t.status === 'in_progress' && t.assignee) {
          const last = lastActivity(t.claimed_at, t.progress_at, t.noted[t.assignee] === undefined ? [] : [t.noted[t.assignee]!]);
          const idle = Date.parse(now) - Date.parse(last);
          const ref = taskRef(changeId, t.id);
          const deadRun = deadClaims.get(ref);
          if (idle > staleMs || deadRun) stale.push({ task_id: ref, assignee: t.assignee, claimed_at: t.claimed_at ?? '', last_activity: last, idle_minutes: Math.floor(idle / 60_000), ...(deadRun ? { run_id: deadRun } : {}) });
        }
        if (t.status === 'in_review') inReview.push({ task_id: taskRef(changeId, t.id), assignee: t.assignee ?? '', submitted_at: t.submitted_at ?? '', summary: t.submission ?? null });
      }
      problems.push(...board.goneDocs(changeId), ...board.decisionsByHand(changeId), ...board.missingByHand(changeId));
      for (const type of ['proposal', 'spec', 'tasks', 'review'] as const) {
        const doc = type === 'tasks' && !change.tasks && list ? { meta: list.meta, findings: [] } : change[type];
        if (!doc) continue;
        problems.push(...doc.findings.filter((f) => f.level === 'error'));
        if (doc.meta.status === 'submitted') {
          awaiting.push({
            change_id: changeId,
            document: type,
            author: doc.meta.author,
            updated: doc.meta.updated,
            blocking: (config.require_approval as readonly string[]).includes(type),
            review_requested: doc.meta.review_requested_by !== undefined,
          });
        }
      }
      const info = phaseOf(board, change, list);
      changes.push({ change_id: changeId, title: changeTitle(change), phase: info.phase, waiting_on: info.waiting_on, tasks: counts });
    }
    const openInputs = Object.values(runtime.inputs)
      .filter((i) => i.status === 'open')
      .map((i) => ({ input_id: i.id, agent_id: i.agent_id, question: i.question, default_action: i.default_action, expires_at: i.expires_at }));
    return {
      project: config.project ?? basename(board.root),
      totals,
      changes,
      agents: [...agents.values()].sort((a, b) => a.agent_id.localeCompare(b.agent_id)),
      stale_claims: stale,
      open_inputs: openInputs,
      awaiting_decision: awaiting,
      tasks_in_review: inReview,
      problems: [...board.problems, ...board.goneChanges(), ...board.gatesOpened(), ...problems],
      hand_edited: board.handEdited(),
      conflicts: board.readConflicts(),
      runs: openRuns,
      costs: runCosts(runs.map((r) => r.run)),
      ...archivedLeftOut(board, undefined, (id) => refTo('change.show', { change_id: id })),
    };
  },
});

function runCosts(runs: RunRecord[]): { change_id: string; runs: number; input_tokens: number; output_tokens: number; cost_usd: number | null }[] {
  const byChange = new Map<string, { change_id: string; runs: number; input_tokens: number; output_tokens: number; cost_usd: number | null }>();
  for (const r of runs) {
    const c = byChange.get(r.change_id) ?? { change_id: r.change_id, runs: 0, input_tokens: 0, output_tokens: 0, cost_usd: null };
    c.runs++;
    c.input_tokens += r.usage.input_tokens;
    c.output_tokens += r.usage.output_tokens;
    if (r.usage.cost_usd !== null) c.cost_usd = (c.cost_usd ?? 0) + r.usage.cost_usd;
    byChange.set(r.change_id, c);
  }
  return [...byChange.values()].sort((a, b) => a.change_id.localeCompare(b.change_id));
}

const DURATION = /^(\d+)\s*([mhdw])$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Why a `since` value is not a time (null when it is one): an ISO date or time, or a duration back from now. */
function sinceProblem(value: string): string | null {
  if (value === '' || sinceTime(value) !== null) return null;
  if (DURATION.test(value.trim())) return `"${printable(value)}" reaches back further than a date can; give a shorter duration (30m, 2h, 7d) or an ISO date`;
  return `"${printable(value)}" is not a time: give an ISO date or time (2026-11-22, 2026-11-22T10:00:00Z) or a duration back from now (30m, 2h, 7d)`;
}

/** The time a `since` value names, or null when it names none (a duration back past the earliest date there is). */
function sinceTime(value: string): string | null {
  const d = DURATION.exec(value.trim());
  const time = new Date(d ? Date.parse(nowIso()) - Number(d[1]) * UNIT_MS[d[2]!]! : Date.parse(value));
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

export const activityLog = defineOp({
  name: 'log.list',
  summary: 'The activity log, newest first: who did what, when',
  access: 'read',
  input: z.strictObject({
    actor: Actor.optional().describe('Only entries by this agent or person.'),
    change_id: ChangeId.optional().describe('Only entries about this change.'),
    since: checked(chars(0, 40), sinceProblem).optional().describe('Only entries since: an ISO date or time, or a duration back from now like "2h" or "7d".'),
    ...pageInput('entries'),
  }),
  output: z.object({
    entries: z.array(z.object({ at: z.string(), actor: z.string(), action: z.string(), target: z.string(), change_id: z.string().optional(), summary: z.string() })),
    ...Page,
  }),
  cli: { command: 'log', flags: { change_id: 'change' } },
  tool: {
    name: 'agentboard_get_activity_log',
    title: 'Read the activity log',
    description: 'Read who did what and when, newest first, filtered by actor, change or time.',
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const since = input.since ? sinceTime(input.since) : null;
    const entries = ctx
      .board()
      .readActivity()
      .filter((e) => (!input.actor || e.actor === input.actor) && (!input.change_id || e.change_id === input.change_id) && (!since || e.at >= since))
      .reverse();
    return page(ctx, 'entries', entries, input, {}, (e) => JSON.stringify([e.at, e.actor, e.action, e.target, e.summary]));
  },
});

export const STATUS_OPS = [boardStatus, activityLog];
