/** What every part of a run shares: who runs what, the board, the records, the display, the stop signal. */
import { relative, sep } from 'node:path';
import { nowIso } from '../clock.js';
import { forPerson } from '../render/person-refs.js';
import type { RunOutcome } from '../store/runs.js';
import type { BoardOps } from './board-ops.js';
import type { EventBody, RunEvent, RunView } from './events.js';
import type { Git } from './git.js';
import type { Found } from './guard.js';
import type { DocType } from '../domain/model.js';
import type { RunRecorder } from './record.js';
import type { RunAgents, RunOptions } from './settings.js';
import { maskDeep, runSecrets } from './secrets.js';

export interface RunContext {
  runId: string;
  /** The repository root that holds agentd/. */
  root: string;
  changeId: string;
  /** The person the run acts for (human:<name>). */
  person: string;
  agents: RunAgents;
  options: RunOptions;
  ops: BoardOps;
  recorder: RunRecorder;
  view: RunView;
  /** Aborted on Ctrl-C or SIGTERM: every agent is stopped and the run ends interrupted. */
  signal: AbortSignal;
  /** The absolute path of bin/agentboard.js, which the agents' MCP servers run. */
  bin: string;
  /** Worktrees and branches per task; null with --no-worktrees or without git. */
  git: Git | null;
  /** On a shared board, this clone's tag, which ends the ids of its runs' agents (`claude-w1.3fa2`); null on a board not shared. */
  clone: string | null;
  goal: string | null;
  /** The review key made for this run's reviewer, revoked when the run ends. */
  reviewKey: { name: string; key: string } | null;
  /** The files that govern the board (guard.ts) as the run started, each until a change of it is reported. */
  governing: Map<string, Found>;
  /** The change's documents an agent edited by hand (guard.ts): the run merges nothing of them, and releases no claim of them. */
  handEdited: Set<DocType>;
  /** Set once an agent changed one of them: the run starts no agent after it, and ends so. */
  halt: Stop | null;
}

/** How a run ends. */
export interface Stop {
  outcome: RunOutcome;
  message: string;
  next_steps: string[];
}

export function stop(outcome: RunOutcome, message: string, next_steps: string[] = []): Stop {
  return { outcome, message, next_steps };
}

/**
 * Records and shows an event; its messages are the person's to read, so references in them are
 * spelled as commands. What an agent said in one (a tool call's message) has the run's secrets masked.
 */
export function emit(ctx: RunContext, body: EventBody): RunEvent {
  const event = maskDeep({ ...forPerson(body), at: nowIso(), run_id: ctx.runId }, runSecrets(ctx)) as RunEvent;
  ctx.recorder.event(event);
  ctx.view.show(event);
  return event;
}

/** True once the known cost of the run reaches --max-cost: no new invocation starts. */
export function budgetReached(ctx: RunContext): boolean {
  const max = ctx.options.maxCost;
  return max !== undefined && (ctx.recorder.run.usage.cost_usd ?? 0) >= max;
}

export function budgetStop(ctx: RunContext): Stop {
  const cost = ctx.recorder.run.usage.cost_usd ?? 0;
  return stop('budget_exceeded', `The run spent $${cost.toFixed(4)}, which reaches --max-cost $${ctx.options.maxCost}; no new agent was started.`, [
    `agentboard run ${ctx.changeId} --max-cost ${ctx.options.maxCost! * 2}   # go on with a larger budget, here twice this one`,
  ]);
}

/** The stop after Ctrl-C; `waiting` are the commands of a decision the change still waits for. */
export function interrupted(ctx: RunContext, waiting: string[] = []): Stop {
  return stop('interrupted', 'The run was interrupted; its agents were stopped and its claims released.', [...waiting, `agentboard run ${ctx.changeId}   # go on where it stopped`]);
}

/**
 * A path as a next step gives it to the person: relative to the folder they ran the command from
 * (a shell command, a git pathspec), so that it works as written from a subfolder too.
 */
export function fromCwd(path: string): string {
  return relative(process.cwd(), path).split(sep).join('/') || '.';
}
