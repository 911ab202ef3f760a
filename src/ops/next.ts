/**
 * `next`: one critical section that selects and claims. In order: the agent's own task in
 * progress (resume); else, when the agent's work awaits a person's review, say so and hand out
 * nothing new; else the document it revises; else a task of its own a person sent back; else a
 * rejected document to revise; else the best ready task, claimed; else "nothing available" with
 * the reasons counted.
 */
import * as z from 'zod';
import { parseTaskRef, taskRef } from '../domain/ids.js';
import { isReady, ownTaskInProgress, selectTask, type NothingReasons, type Selection, type WorkPool } from '../domain/next-task.js';
import { STAGES, type Stage, type TaskState } from '../domain/model.js';
import { clearSentBack, pendingSubmission, startWorking } from '../domain/sessions.js';
import { moveTask } from '../domain/task-moves.js';
import { renderDocFile, unparsable, type DocFile } from '../store/documents.js';
import type { HeadMeta } from '../store/board.js';
import type { TaskSummary } from '../store/task-scan.js';
import type { Transaction } from '../store/transaction.js';
import { docWord, SUBMIT_OP } from './doc-write.js';
import { defineOp } from './registry.js';
import { Actor, ChangeId, NoteOut, TaskOut } from './schemas.js';
import { earlierProblem, listProblem, requireChange, taskOut, tasksOf, workProblem, type FoundTask } from './view.js';
import { refTo } from '../domain/refs.js';

/** A task list only if it parses whole: agentboard hands out no task of a list it could not write. */
function readable(doc: DocFile<'tasks'> | null): DocFile<'tasks'> | null {
  return doc && !unparsable(doc) ? doc : null;
}

const NextOut = z.object({
  status: z.enum(['assigned', 'resumed', 'revise_document', 'awaiting_review', 'nothing_available']).describe(
    'assigned: a new task is yours; resumed: your task in progress; revise_document: a rejected document is yours to revise; awaiting_review: your submitted work waits for a person, nothing new is handed out; nothing_available: no work now.',
  ),
  message: z.string().describe('What to do now, in one or two sentences.'),
  task: TaskOut.nullable(),
  context: z
    .object({
      change_id: z.string(),
      change_title: z.string(),
      dependencies: z.array(z.object({ task_id: z.string(), title: z.string(), status: z.string() })),
      requirements: z.array(z.object({ id: z.string(), title: z.string(), text: z.string() })).describe('The spec requirements this task serves (all of them when the task names none).'),
      feedback: z.array(NoteOut).describe('Feedback from people who sent this work back earlier. Address it.'),
    })
    .nullable(),
  document: z
    .object({ change_id: z.string(), document: z.string(), file: z.string(), feedback: z.array(NoteOut), markdown: z.string() })
    .nullable()
    .describe('The rejected document to revise, with the feedback to address.'),
  awaiting_review: z.array(z.object({ kind: z.enum(['task', 'document', 'submission']), id: z.string(), since: z.string() })),
  reasons: z
    .object({
      waiting_on_dependencies: z.number().int(),
      held_by_others: z.number().int(),
      in_review: z.number().int(),
      blocked: z.number().int(),
      awaiting_approval: z.number().int(),
      waiting_on_documents: z.number().int().describe('Tasks of changes whose proposal, spec or task list was rejected, or whose proposal or spec cannot be read or awaits approval.'),
      broken_task_lists: z.array(z.string()).describe('Changes whose tasks.md has errors: none of their tasks is handed out until a person fixes the file.'),
    })
    .nullable()
    .describe('Why nothing was handed out: how many tasks wait on dependencies, are held by others, are in review, blocked, or in task lists awaiting approval.'),
});

type NextResult = z.input<typeof NextOut>;

const EMPTY: Omit<NextResult, 'status' | 'message'> = { task: null, context: null, document: null, awaiting_review: [], reasons: null };

interface BoardScan {
  /** Changes whose task list hands out work (submitted or approved), in board order. */
  lists: string[];
  /** Changes whose task list was sent back (rejected): none of its tasks is handed out until it is written again. */
  rejected: string[];
  /** Changes whose tasks.md is there but cannot be read as a task list (an editor's save cut short, an emptied file): nothing of it is handed out, and nobody is told the board is done. */
  unreadable: string[];
  docs: { changeId: string; type: Stage; meta: HeadMeta }[];
}

/**
 * What `next` needs of the board, read quickly: every document's frontmatter (store/quick-meta.ts).
 * The tasks of a list are summed up (store/task-scan.ts) when they are needed: those that may hold
 * the agent's own tasks at once, the others in board order until the best task there can be is
 * found; only the change a task is handed out from is read in full. With `only`, one change (a run
 * works one change; the rest of the board is not its business).
 */
function scan(tx: Transaction, only?: string): BoardScan {
  const out: BoardScan = { lists: [], rejected: [], unreadable: [], docs: [] };
  if (only !== undefined) requireChange(tx, only);
  for (const changeId of only !== undefined ? [only] : tx.changeIds()) {
    for (const type of STAGES) {
      const meta = tx.docMeta(changeId, type);
      if (meta) out.docs.push({ changeId, type, meta });
      if (type === 'tasks' && (meta?.status === 'submitted' || meta?.status === 'approved')) out.lists.push(changeId);
      else if (type === 'tasks' && meta?.status === 'rejected') out.rejected.push(changeId);
      else if (type === 'tasks' && !meta && tx.readDoc(changeId, 'tasks') !== null) out.unreadable.push(changeId);
    }
  }
  return out;
}

/** The work pools of these lists, each read when reached; `broken` gets the lists with errors (none of their tasks is handed out). */
function* poolsOf(tx: Transaction, lists: string[], broken: string[] = []): Generator<WorkPool<TaskSummary>> {
  for (const changeId of lists) {
    const list = tx.taskList(changeId);
    if (!list) continue;
    if (list.broken) broken.push(changeId);
    else {
      const own = listProblem(tx, list);
      const earlier = own === null ? earlierProblem(tx, changeId) : null;
      // A list sent back is being revised: its tasks wait on it as on a rejected spec.
      yield { changeId, tasks: list.tasks, open: own === null && earlier === null, waitsOnDocuments: earlier !== null || list.meta.status === 'rejected' };
    }
  }
}

/** What an agent needs to start on a task: its change, its dependencies, the requirements it serves, feedback to address. */
function context(tx: Transaction, task: FoundTask): NonNullable<NextResult['context']> {
  const { changeId, byId } = task;
  const spec = tx.readDoc(changeId, 'spec')?.content;
  // The proposal's title is in its body ("# Proposal: …"): its gist has it, else it is read in full.
  const gist = tx.docGist(changeId, 'proposal');
  const title = gist !== undefined ? gist.title : ((tx.readDoc(changeId, 'proposal')?.content as { title?: string } | null | undefined)?.title ?? null);
  const requirements = (spec?.requirements ?? []).filter((r) => task.task.requirements.length === 0 || task.task.requirements.includes(r.id));
  return {
    change_id: changeId,
    // As `show` names the change (changeTitle): the proposal's title, or the change's id.
    change_title: title || changeId,
    dependencies: task.task.depends.map((d) => ({ task_id: taskRef(changeId, d), title: byId.get(d)?.title ?? '(missing)', status: byId.get(d)?.status ?? 'missing' })),
    requirements: requirements.map((r) => ({ id: r.id, title: r.title, text: r.text })),
    feedback: task.task.feedback,
  };
}

/** A task the quick scan chose, read in full; null when the full read disagrees (a broken or changed block). */
function confirm(tx: Transaction, changeId: string, id: string, check: (found: FoundTask) => boolean): FoundTask | null {
  const doc = tx.readDoc(changeId, 'tasks');
  if (!doc || unparsable(doc)) return null;
  const block = doc.content!.blocks.find((b) => b.id === id);
  if (!block?.task) return null;
  const found: FoundTask = { changeId, doc, block, task: block.task, byId: new Map(tasksOf(doc).map((t) => [t.id, t])) };
  return check(found) ? found : null;
}

function claimDocument(tx: Transaction, changeId: string, type: Stage, agentId: string): DocFile {
  const doc = tx.readDoc(changeId, type)!;
  const claimed = tx.putMeta(changeId, type, { ...doc.meta, assignee: agentId, claimed_at: tx.now });
  tx.log(agentId, 'document.claim', `${changeId}/${type}`, `took up the rejected ${docWord(type)} of ${changeId} to revise it`, changeId);
  return claimed;
}

function revise(changeId: string, type: Stage, doc: DocFile, resumed: boolean): NextResult {
  return {
    ...EMPTY,
    status: 'revise_document',
    message: `${resumed ? 'You are revising' : 'Revise'} the rejected ${docWord(type)} of ${changeId}. Address the feedback, then resubmit it with ${refTo(SUBMIT_OP[type], { change_id: changeId })}.`,
    document: { change_id: changeId, document: type, file: doc.file, feedback: doc.meta.feedback, markdown: renderDocFile(doc.meta, doc.extra, doc.body, doc.comments) },
  };
}

export const nextTask = defineOp({
  name: 'task.next',
  summary: 'Get your next task: resume yours, or claim the best ready one',
  access: 'agent',
  input: z.strictObject({ agent_id: Actor, change_id: ChangeId.optional().describe('Only work of this change; else the whole board.') }),
  output: NextOut,
  cli: { command: 'next', flags: { change_id: 'change' } },
  tool: {
    name: 'agentboard_get_next_task',
    title: 'Get your next task',
    description:
      'Your next task, yours alone (or the one you hold), with its dependencies, requirements and feedback; ' +
      'nothing new while your submitted work awaits review; else why there is none. ' +
      `Report with ${refTo('task.progress')}, finish with ${refTo('task.done')} or ${refTo('session.submit')}.`,
    profiles: ['worker', 'agent'],
  },
  run(ctx, input) {
    const board = ctx.board();
    const agent = input.agent_id;
    if (ctx.assignment) return board.mutate((tx) => assigned(tx, agent, ctx.assignment!));
    return board.mutate((tx): NextResult => {
      const found = scan(tx, input.change_id);
      const required = board.config.require_approval as readonly string[];
      // The lists that may hold this agent's tasks (the others do not even name it).
      const ownPools = [...poolsOf(tx, found.lists.filter((id) => tx.mayHold(id, agent)))];

      const own = ownTaskInProgress(agent, ownPools);
      const mine = own && confirm(tx, own.pool.changeId, own.task.id, (f) => f.task.assignee === agent && f.task.status === 'in_progress');
      if (mine) {
        // Going on with its task is working: a session that had not started, or had completed, says so again.
        if (startWorking(tx.runtime, agent, tx.now)) tx.saveRuntime();
        return {
          ...EMPTY,
          status: 'resumed',
          message: `You already hold ${taskRef(mine.changeId, mine.task.id)}; carry on with it, report with ${refTo('task.progress', { task_id: taskRef(mine.changeId, mine.task.id) })}, and finish with ${refTo('task.done', { task_id: taskRef(mine.changeId, mine.task.id) })}.${alsoBlocked(ownPools, agent)}`,
          task: taskOut(mine.changeId, mine.task, mine.byId),
          context: context(tx, mine),
        };
      }

      const waiting: NextResult['awaiting_review'] = [];
      for (const pool of ownPools) {
        for (const t of pool.tasks) if (t.assignee === agent && t.status === 'in_review') waiting.push({ kind: 'task', id: taskRef(pool.changeId, t.id), since: t.submitted_at ?? '' });
      }
      for (const d of found.docs) {
        const blocking = d.meta.status === 'submitted' && d.meta.author === agent && (required.includes(d.type) || d.meta.review_requested_by !== undefined);
        if (blocking) waiting.push({ kind: 'document', id: `${d.changeId}/${d.type}`, since: d.meta.updated });
      }
      const submission = pendingSubmission(tx.runtime.sessions[agent]);
      // Work submitted without naming tasks (a pull request, say): only the agent can say the review is over.
      if (waiting.length === 0 && submission) waiting.push({ kind: 'submission', ...submission });
      if (waiting.length > 0) {
        const own = waiting.every((w) => w.kind === 'submission');
        return {
          ...EMPTY,
          status: 'awaiting_review',
          message: own
            ? `Your submitted work (${waiting[0]!.id}) is awaiting review. Nothing new is handed out meanwhile; when the review is over, report it with ${refTo('session.status', { status: 'working' })} (or completed) and call this again.`
            : `Your submitted work is awaiting review by a person: ${waiting.map((w) => w.id).join(', ')}. Nothing new is handed out until they decide; call this again later.`,
          awaiting_review: waiting,
        };
      }

      // A document the agent took up to revise is its work, whichever profile it asks through now
      // (it took it up through one that writes documents): one piece of work at a time.
      const revising = found.docs.find((d) => d.meta.status === 'rejected' && d.meta.assignee === agent);
      if (revising) return revise(revising.changeId, revising.type, tx.readDoc(revising.changeId, revising.type)!, true);
      // A task of its own that a person sent back comes to the agent before any other work when it
      // asks again: it did the work, and the feedback is for it. Others take it until then.
      const returned = sentBack(tx, agent, input.change_id);
      if (returned) return claim(tx, agent, returned, ownPools, true);
      const rejected = found.docs.filter((d) => d.meta.status === 'rejected' && (ctx.writesDocuments ?? STAGES).includes(d.type));
      const free = rejected.find((d) => !d.meta.assignee);
      if (free) {
        const doc = claimDocument(tx, free.changeId, free.type, agent);
        startWorking(tx.runtime, agent, tx.now, `revise ${free.changeId}/${free.type}`);
        tx.saveRuntime();
        return revise(free.changeId, free.type, doc, false);
      }

      const skills = tx.runtime.agents[agent]?.skills ?? [];
      const broken: string[] = [...found.unreadable];
      // The lists sent back are counted among the reasons only (their tasks are not handed out).
      const pooled = [...found.lists, ...found.rejected];
      let selection: Selection<TaskState> = selectTask<TaskState>(skills, poolsOf(tx, pooled, broken));
      let chosen = selection.kind === 'claim' ? confirm(tx, selection.changeId, selection.task.id, (f) => isReady(f.task, f.byId)) : null;
      if (selection.kind === 'claim' && !chosen) {
        // The quick read and the full one disagree (a block only the full parser sees as broken): choose from full reads.
        const pools = [...poolsOf(tx, pooled, broken)].map((p) => ({ ...p, tasks: tasksOf(readable(tx.readDoc(p.changeId, 'tasks'))) }));
        selection = selectTask(skills, pools);
        chosen = selection.kind === 'claim' ? confirm(tx, selection.changeId, selection.task.id, (f) => isReady(f.task, f.byId)) : null;
      }
      if (selection.kind === 'none' || !chosen) {
        const counted = selection.kind === 'none' ? selection.reasons : { waiting_on_dependencies: 0, held_by_others: 0, in_review: 0, blocked: 0, awaiting_approval: 0, waiting_on_documents: 0 };
        // A task list agentboard wrote and no command removed, gone (by hand, or for a moment while git writes it anew), is one a person must mend too.
        const listed = new Set([...found.docs.filter((d) => d.type === 'tasks').map((d) => d.changeId), ...found.unreadable]);
        const unlisted = (input.change_id !== undefined ? [input.change_id] : tx.changeIds()).filter((id) => !listed.has(id));
        const gone = unlisted.filter((id) => tx.board.goneTaskList(id) !== undefined);
        const reasons = { ...counted, broken_task_lists: [...new Set([...broken, ...gone])] };
        const blocked = blockedOf(ownPools, agent);
        // A board another history just replaced holds none of the work this agent knew of: not "all done", but a person's decision.
        const replaced = board.notices.some((n) => n.kind === 'replaced');
        return { ...EMPTY, status: 'nothing_available', message: replaced ? REPLACED : nothingMessage(reasons, blocked, input.change_id), reasons };
      }
      return claim(tx, agent, chosen, ownPools, false);
    });
  },
});

/** Claims the task chosen for the agent: in progress, its session working, logged. `again`: a task of its own a person sent back. */
function claim(tx: Transaction, agent: string, chosen: FoundTask, ownPools: readonly WorkPool<TaskSummary>[], again: boolean): NextResult {
  const task = structuredClone(chosen.task);
  const ref = taskRef(chosen.changeId, task.id);
  moveTask(task, ref, 'in_progress', agent, 'agent', tx.now);
  tx.putTasks(chosen.changeId, { replace: [task] });
  startWorking(tx.runtime, agent, tx.now, `claim ${ref}`);
  // Taken again, the task its session said was sent back is no longer news.
  clearSentBack(tx.runtime, agent, ref);
  tx.saveRuntime();
  tx.log(agent, 'task.claim', ref, `claimed ${ref}${again ? ' again, sent back to it' : ''}: ${task.title}`, chosen.changeId);
  const claimed: FoundTask = { ...chosen, task, byId: new Map(chosen.byId).set(task.id, task) };
  const given = again ? `${ref} is yours again: a person sent your work on it back (${task.title}); address their feedback.` : `${ref} is yours: ${task.title}.`;
  return {
    ...EMPTY,
    status: 'assigned',
    message: `${given} Report with ${refTo('task.progress', { task_id: ref })}, note decisions with ${refTo('task.note', { task_id: ref })}, and finish with ${refTo('task.done', { task_id: ref })} (or ${refTo('session.submit', { tasks: [ref] })} when a person must check it).${alsoBlocked(ownPools, agent)}`,
    task: taskOut(chosen.changeId, task, claimed.byId),
    context: context(tx, claimed),
  };
}

/**
 * A task the agent submitted last that a person has sent back since (with feedback) and nobody has
 * taken meanwhile: ready, in a change that hands out work (of `only`, when given); null when none.
 */
function sentBack(tx: Transaction, agent: string, only?: string): FoundTask | null {
  const review = tx.runtime.sessions[agent]?.review;
  for (const ref of review?.tasks ?? []) {
    const parsed = parseTaskRef(ref);
    if (typeof parsed === 'string' || (only !== undefined && parsed.changeId !== only) || !tx.hasChange(parsed.changeId)) continue;
    const back = confirm(tx, parsed.changeId, parsed.taskId, (f) => isReady(f.task, f.byId) && f.task.feedback.some((n) => n.at >= review!.submitted_at) && workProblem(tx, f.changeId, f.doc) === null);
    if (back) return back;
  }
  return null;
}

/** The tasks an agent holds blocked, by their board-wide ids. */
function blockedOf(pools: readonly WorkPool<TaskSummary>[], agent: string): string[] {
  return pools.flatMap((p) => p.tasks.filter((t) => t.assignee === agent && t.status === 'blocked').map((t) => taskRef(p.changeId, t.id)));
}

/**
 * An agent works on one task at a time, and a task of its it reported blocked waits while it works
 * on another: said with each task it is given, with the way back to the blocked one, which it can
 * take up only between two tasks (once this one is done, before it asks for more).
 */
function alsoBlocked(pools: readonly WorkPool<TaskSummary>[], agent: string): string {
  const blocked = blockedOf(pools, agent);
  if (blocked.length === 0) return '';
  const [first] = blocked;
  return ` You also hold ${blocked.join(', ')}, blocked: once its blocker is resolved, finish this task, then clear it with ${refTo('task.unblock', { task_id: first })} before you ask for more work.`;
}

/**
 * `next` for an agent of `agentboard run`, which claimed one task for it: that task while the agent
 * holds it in progress, never another; else why not, and that the turn is over.
 */
function assigned(tx: Transaction, agent: string, ref: string): NextResult {
  const parsed = parseTaskRef(ref);
  const given = typeof parsed === 'string' ? null : confirm(tx, parsed.changeId, parsed.taskId, () => true);
  if (given && given.task.assignee === agent && given.task.status === 'in_progress') {
    return { ...EMPTY, status: 'resumed', message: `agentboard run gave you ${ref}: carry on with it, report with ${refTo('task.progress', { task_id: ref })}, and finish with ${refTo('task.done', { task_id: ref })}. It hands you no other task.`, task: taskOut(given.changeId, given.task, given.byId), context: context(tx, given) };
  }
  const state = given ? `${given.task.status}${given.task.assignee ? ` (${given.task.assignee})` : ''}` : 'not on the board';
  return { ...EMPTY, status: 'nothing_available', message: `agentboard run gave you ${ref}, which is ${state}; it hands you no other task, so end your turn.`, reasons: null };
}

const REPLACED =
  'No task is available: the shared board was just replaced by another history (force-pushed), and this clone now shows that board; the work on the board it replaced is not over. A person must decide whether to put the old board back or keep this one (this call\'s notice says how): tell a person, and call this again once they have.';

function nothingMessage(r: NothingReasons & { broken_task_lists: string[] }, ownBlocked: string[], changeId?: string): string {
  if (ownBlocked.length > 0) {
    const [first] = ownBlocked;
    return `No new task is available, and your task ${ownBlocked.join(', ')} is blocked. When the blocker is resolved, clear it with ${refTo('task.unblock', { task_id: first })} and carry on; if a person must decide, ask with ${refTo('input.ask')}.`;
  }
  const parts = [
    r.held_by_others && `${r.held_by_others} held by other agents`,
    r.waiting_on_dependencies && `${r.waiting_on_dependencies} waiting on dependencies`,
    r.in_review && `${r.in_review} in review`,
    r.blocked && `${r.blocked} blocked`,
    r.awaiting_approval && `${r.awaiting_approval} in task lists awaiting a person's approval`,
    r.waiting_on_documents && `${r.waiting_on_documents} in changes whose proposal, spec or task list must be revised, fixed or approved first`,
  ].filter(Boolean);
  const broken = r.broken_task_lists.length > 0 ? ` The task list of ${r.broken_task_lists.join(', ')} has errors, and none of its tasks is handed out until a person fixes it (they show with ${refTo('change.validate', { change_id: r.broken_task_lists[0] })}).` : '';
  // Asked of one change, the answer speaks of that change: the board's others may have work.
  const where = changeId === undefined ? '' : ` in ${changeId}`;
  const elsewhere = changeId === undefined ? '' : ' The board\'s other changes may have work: ask again for any change.';
  if (parts.length > 0) return `No task is available for you${where} now (${parts.join(', ')}). Call this again later.${broken}${elsewhere}`;
  if (broken) return `No task is available${where}.${broken}${elsewhere}`;
  return changeId === undefined ? 'No task is available: every task on the board is done or there are none yet.' : `No task is available in ${changeId}: every task of it is done, or it has no task list yet.${elsewhere}`;
}

export const NEXT_OPS = [nextTask];
