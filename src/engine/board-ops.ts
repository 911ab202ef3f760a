/**
 * The board as the engine sees it: the same operations the CLI and the MCP server run, executed
 * in-process. The engine writes no board file itself; every change it makes is an operation,
 * made as the person who started the run, or as the agent a claim is for.
 */
import type { InputRecord } from '../domain/records.js';
import { AgentboardError } from '../errors.js';
import { execute } from '../ops/execute.js';
import { findOperation } from '../ops/index.js';
import { createContext, type Context } from '../ops/registry.js';

// Results are the operations' output shapes; the engine reads the fields it needs.
export type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A question about a phase of a change; one asked holding a task is that task's. */
function inPhase(i: InputRecord, changeId: string, phase: string): boolean {
  return i.task_id === undefined && i.change_id === changeId && i.phase === phase;
}

export class BoardOps {
  private readonly ctx: Context;
  /** The context of an MCP worker: `next` hands out tasks only, never a document to revise. */
  private readonly workerCtx: Context;

  constructor(
    root: string | undefined,
    readonly person: string,
  ) {
    this.ctx = createContext(root);
    this.workerCtx = { ...this.ctx, writesDocuments: [] };
  }

  get board() {
    return this.ctx.board();
  }

  run(name: string, input: Record<string, unknown>, ctx: Context = this.ctx): Promise<Data> {
    const op = findOperation(name);
    if (!op) throw new Error(`no operation ${name}`);
    return execute(op, ctx, input);
  }

  /** As run(), but null when the board answers with one of `codes`. */
  private async maybe(name: string, input: Record<string, unknown>, codes: string[]): Promise<Data | null> {
    try {
      return await this.run(name, input);
    } catch (err) {
      if (err instanceof AgentboardError && codes.includes(err.code)) return null;
      throw err;
    }
  }

  change(changeId: string): Promise<Data | null> {
    return this.maybe('change.show', { change_id: changeId }, ['CHANGE_NOT_FOUND']);
  }

  /** A document whole: its markdown, or (format "fields") its fields; null when there is none, or its file cannot be read, or is no plain file (validate says why). */
  document(changeId: string, document: string, format: 'markdown' | 'fields' = 'markdown'): Promise<Data | null> {
    return this.maybe('document.get', { change_id: changeId, document, format }, ['CHANGE_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'PARSE_ERROR', 'UNSAFE_PATH', 'NOT_A_FILE']);
  }

  /** The validator's report on the change; null while the change does not exist (a proposal not submitted yet). */
  validate(changeId: string): Promise<Data | null> {
    return this.maybe('change.validate', { change_id: changeId }, ['CHANGE_NOT_FOUND']);
  }

  /** Every task of the change in full (branch, review round, notes…), in the order of tasks.md. */
  async fullTasks(changeId: string): Promise<Data[]> {
    return (await this.document(changeId, 'tasks', 'fields'))?.content?.tasks ?? [];
  }

  task(taskId: string): Promise<Data | null> {
    return this.maybe('task.show', { task_id: taskId }, ['TASK_NOT_FOUND', 'CHANGE_NOT_FOUND']).then((r) => r?.task ?? null);
  }

  /** The same selection and claim as an agent's `next`, for this change only, claimed for `agentId`. */
  next(agentId: string, changeId: string): Promise<Data> {
    return this.run('task.next', { agent_id: agentId, change_id: changeId }, this.workerCtx);
  }

  release(taskId: string, reason: string): Promise<Data> {
    return this.run('task.release', { agent_id: this.person, task_id: taskId, reason });
  }

  recordBranch(taskId: string, branch: string): Promise<Data> {
    return this.run('task.update', { agent_id: this.person, task_id: taskId, branch });
  }

  addFixTask(changeId: string, task: { title: string; description: string; priority: string; review_round: number }): Promise<Data> {
    return this.run('task.add', { agent_id: this.person, change_id: changeId, ...task });
  }

  decideDocument(changeId: string, document: string, decision: 'approve' | 'reject', feedback?: string): Promise<Data> {
    return decision === 'approve'
      ? this.run('document.approve', { agent_id: this.person, change_id: changeId, document })
      : this.run('document.reject', { agent_id: this.person, change_id: changeId, document, feedback });
  }

  decideTask(taskId: string, decision: 'approve' | 'reject', feedback?: string): Promise<Data> {
    return decision === 'approve' ? this.run('task.approve', { agent_id: this.person, task_id: taskId }) : this.run('task.reject', { agent_id: this.person, task_id: taskId, feedback });
  }

  /** The question asked while the task was held that a person has not answered yet (its deadline not passed), whoever asked it, or null. */
  openQuestionOn(taskId: string): InputRecord | null {
    return this.openQuestion((i) => i.task_id === taskId);
  }

  /** The questions asked while a task was held, resolved (answered, or past their deadline: the default applies), oldest first. */
  answersFor(taskId: string): InputRecord[] {
    return this.answers((i) => i.task_id === taskId);
  }

  /** The question a run's planner or reviewer asked in a phase of a change (holding no task) that a person has not answered yet, whoever asked it, or null. */
  openQuestionIn(changeId: string, phase: string): InputRecord | null {
    return this.openQuestion((i) => inPhase(i, changeId, phase));
  }

  /** The questions asked in a phase of a change (as openQuestionIn), resolved, oldest first. */
  answersIn(changeId: string, phase: string): InputRecord[] {
    return this.answers((i) => inPhase(i, changeId, phase));
  }

  private openQuestion(about: (i: InputRecord) => boolean): InputRecord | null {
    return Object.values(this.board.readRuntime().inputs).find((i) => about(i) && i.status === 'open') ?? null;
  }

  private answers(about: (i: InputRecord) => boolean): InputRecord[] {
    return Object.values(this.board.readRuntime().inputs)
      .filter((i) => about(i) && i.status === 'resolved')
      .sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
  }

  async mintReviewKey(name: string): Promise<string> {
    return (await this.run('reviewer.add', { agent_id: this.person, name, rotate: true })).review_key;
  }

  revokeReviewKey(name: string): Promise<Data | null> {
    return this.maybe('reviewer.remove', { agent_id: this.person, name }, ['REVIEWER_NOT_FOUND']);
  }
}
