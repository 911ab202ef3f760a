/** Agents (seed 004): register, list, show; and the reviewer keys people hand to reviewer agents. */
import * as z from 'zod';
import { fail } from '../errors.js';
import { agentIdProblem, taskRef } from '../domain/ids.js';
import { isHeld } from '../domain/model.js';
import { sessionOf } from '../domain/sessions.js';
import type { RuntimeData } from '../domain/records.js';
import type { Board } from '../store/board.js';
import type { Reader } from '../store/transaction.js';
import { defineOp, requireHuman } from './registry.js';
import { newReviewKey, hashKey } from './reviewer-keys.js';
import { Actor, AgentId, chars, distinct, line } from './schemas.js';
import { page, Page, pageInput } from './pages.js';
import { tasksOf } from './view.js';
import { refTo } from '../domain/refs.js';

interface AgentWork {
  current: { task_id: string; title: string; assigned_at: string }[];
  completed: number;
  in_review: number;
  blocked: number;
}

/** What every agent holds and has finished, from the task lists (those of archived changes too). */
export function agentWork(reader: Reader): Map<string, AgentWork> {
  const out = new Map<string, AgentWork>();
  const of = (id: string) => {
    let w = out.get(id);
    if (!w) out.set(id, (w = { current: [], completed: 0, in_review: 0, blocked: 0 }));
    return w;
  };
  for (const changeId of reader.changeIds()) {
    for (const t of tasksOf(reader.readDoc(changeId, 'tasks'))) {
      if (!t.assignee) continue;
      const w = of(t.assignee);
      if (t.status === 'done') w.completed++;
      else if (t.status === 'in_review') w.in_review++;
      else if (t.status === 'blocked') w.blocked++;
      if (isHeld(t) && t.status !== 'in_review') w.current.push({ task_id: taskRef(changeId, t.id), title: t.title, assigned_at: t.claimed_at ?? '' });
    }
  }
  // Work finished in changes since archived is still the agent's.
  for (const a of reader.board.archived()) {
    for (const t of tasksOf(reader.board.readArchivedDoc(a.folder, 'tasks'))) if (t.assignee && t.status === 'done') of(t.assignee).completed++;
  }
  return out;
}

interface AgentView {
  runtime: RuntimeData;
  work: Map<string, AgentWork>;
  /** When each actor last appears in the activity log. */
  seen: Map<string, string>;
}

function agentView(board: Board): AgentView {
  const seen = new Map<string, string>();
  for (const e of board.readActivity()) seen.set(e.actor, e.at);
  return { runtime: board.readRuntime(), work: agentWork(board), seen };
}

const AgentOut = z.object({
  agent_id: z.string(),
  registered: z.boolean(),
  name: z.string().nullable(),
  role: z.string().nullable(),
  skills: z.array(z.string()),
  current_task: z.object({ task_id: z.string(), title: z.string(), assigned_at: z.string() }).nullable(),
  completed_tasks: z.number().int(),
  tasks_in_review: z.number().int(),
  last_seen: z.string().nullable(),
  workflow_status: z.string().nullable(),
});

function agentOut({ runtime, work, seen }: AgentView, id: string): z.input<typeof AgentOut> {
  const record = runtime.agents[id];
  const w = work.get(id);
  return {
    agent_id: id,
    registered: record !== undefined,
    name: record?.name ?? null,
    role: record?.role ?? null,
    skills: record?.skills ?? [],
    current_task: w?.current[0] ?? null,
    completed_tasks: w?.completed ?? 0,
    tasks_in_review: w?.in_review ?? 0,
    last_seen: seen.get(id) ?? null,
    workflow_status: runtime.sessions[id]?.status ?? null,
  };
}

export const registerAgent = defineOp({
  name: 'agent.register',
  summary: 'Register an agent with its name, role and skills',
  access: 'agent',
  input: z.strictObject({
    agent_id: AgentId,
    name: line(100).describe('Display name, like "Backend agent".'),
    role: line(100).describe('Role, like "Backend Developer".'),
    skills: distinct(z.array(line(50)).max(100)).optional().describe('Your skills, like ["sql"]: tasks needing them come to you first (left out: kept).'),
  }),
  output: z.object({ agent: AgentOut, updated: z.boolean().describe('True when the agent was already registered and its record was updated.') }),
  cli: { command: 'agent register' },
  tool: {
    name: 'agentboard_register_agent',
    title: 'Register yourself',
    description:
      `Optional: register once. Your skills help ${refTo('task.next')} match tasks to you.`,
    profiles: ['worker', 'planner', 'reviewer', 'agent'],
    idempotent: true,
    // Registering again replaces the name, role and skills given before.
    destructive: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    return board.mutate((tx) => {
      const previous = tx.runtime.agents[input.agent_id];
      // Registered again as it is: nothing to write (the tool says it is idempotent, and so it is).
      const same = previous && previous.name === input.name && previous.role === input.role && (input.skills === undefined || JSON.stringify(input.skills) === JSON.stringify(previous.skills));
      if (same && tx.runtime.sessions[input.agent_id]) return { agent: agentOut({ runtime: tx.runtime, work: agentWork(tx), seen: new Map([[input.agent_id, previous.updated_at]]) }, input.agent_id), updated: true };
      tx.runtime.agents[input.agent_id] = {
        id: input.agent_id,
        name: input.name,
        role: input.role,
        skills: input.skills ?? previous?.skills ?? [],
        registered_at: previous?.registered_at ?? tx.now,
        updated_at: tx.now,
      };
      sessionOf(tx.runtime, input.agent_id, tx.now);
      tx.saveRuntime();
      tx.log(input.agent_id, 'agent.register', input.agent_id, `${previous ? 'updated' : 'registered'} agent ${input.agent_id} (${input.role})`);
      // The runtime is written when the transaction commits; answer from what it will hold.
      const agent = agentOut({ runtime: tx.runtime, work: agentWork(tx), seen: new Map([[input.agent_id, tx.now]]) }, input.agent_id);
      return { agent, updated: previous !== undefined };
    });
  },
});

export const listAgents = defineOp({
  name: 'agent.list',
  summary: 'List registered agents and agents that hold or did work',
  access: 'read',
  input: z.strictObject({ ...pageInput('agents') }),
  output: z.object({ agents: z.array(AgentOut), ...Page }),
  cli: { command: 'agent list' },
  tool: {
    name: 'agentboard_list_agents',
    title: 'List agents',
    description: 'List the agents (registered, with a workflow status, or holding or done with tasks): current task, tasks done, last activity, workflow status.',
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const view = agentView(ctx.board());
    // An agent with a workflow status (it asked a question, reported blocked…) is one too, though it holds no task yet.
    const ids = new Set([...Object.keys(view.runtime.agents), ...Object.values(view.runtime.sessions).map((s) => s.agent_id), ...view.work.keys()]);
    const agents = [...ids].sort().map((id) => agentOut(view, id));
    return page(ctx, 'agents', agents, input, {}, (a) => a.agent_id);
  },
});

export const showAgent = defineOp({
  name: 'agent.show',
  summary: 'Show an agent: current task, completed count, last seen, workflow status',
  access: 'read',
  input: z.strictObject({ agent_id: Actor.describe('The agent to look up.') }),
  output: AgentOut,
  cli: { command: 'agent show', args: ['agent_id'] },
  tool: {
    name: 'agentboard_get_agent_status',
    title: 'Get an agent\'s status',
    description: 'Look up one agent: registration, current task, tasks done, last activity, workflow status.',
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const view = agentView(ctx.board());
    if (!view.runtime.agents[input.agent_id] && !view.work.has(input.agent_id) && !view.seen.has(input.agent_id)) {
      fail('AGENT_NOT_FOUND', `Agent ${input.agent_id} is not registered and has not acted on this board.`, `Register it with ${refTo('agent.register')}, or list agents with ${refTo('agent.list')}.`);
    }
    return agentOut(view, input.agent_id);
  },
});

export const addReviewer = defineOp({
  name: 'reviewer.add',
  summary: 'Make a review key for a reviewer agent; it is shown once (people only)',
  access: 'human',
  input: z.strictObject({
    agent_id: Actor,
    name: z
      .string()
      .check((c) => {
        const p = agentIdProblem(c.value);
        if (p) c.issues.push({ code: 'custom', message: p.replace('an agent id', 'a reviewer name').replace('agent id', 'reviewer name'), input: c.value });
      })
      .describe('A name for the reviewer, like "doc-reviewer".'),
    rotate: z.boolean().default(false).describe('Replace the key of an existing reviewer.'),
  }),
  output: z.object({ name: z.string(), review_key: z.string().describe('Shown once; agentboard keeps only its hash.'), rotated: z.boolean() }),
  cli: { command: 'reviewer add', args: ['name'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Making a review key');
    return ctx.board().mutate((tx) => {
      const existing = tx.runtime.reviewers[input.name];
      if (existing && !input.rotate) {
        fail('REVIEWER_EXISTS', `Reviewer ${input.name} already has a key (made ${existing.created_at}).`, 'Pick another name, or pass --rotate to replace its key (the old key stops working).');
      }
      const key = newReviewKey();
      tx.runtime.reviewers[input.name] = { name: input.name, key_hash: hashKey(key), created_at: tx.now, created_by: input.agent_id };
      tx.saveRuntime();
      tx.log(input.agent_id, existing ? 'reviewer.rotate' : 'reviewer.add', input.name, `${existing ? 'rotated the key of' : 'added'} reviewer ${input.name}`);
      return { name: input.name, review_key: key, rotated: existing !== undefined };
    });
  },
});

export const removeReviewer = defineOp({
  name: 'reviewer.remove',
  summary: 'Revoke a reviewer\'s review key (people only)',
  access: 'human',
  input: z.strictObject({ agent_id: Actor, name: chars(1, 64).describe('The reviewer whose key stops working.') }),
  output: z.object({ name: z.string(), removed: z.boolean() }),
  cli: { command: 'reviewer rm', args: ['name'] },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Revoking a review key');
    return ctx.board().mutate((tx) => {
      if (!tx.runtime.reviewers[input.name]) {
        fail('REVIEWER_NOT_FOUND', `There is no reviewer ${input.name} on this board.`, `Nothing to revoke; make a key with ${refTo('reviewer.add')}.`);
      }
      delete tx.runtime.reviewers[input.name];
      tx.saveRuntime();
      tx.log(input.agent_id, 'reviewer.remove', input.name, `revoked the key of reviewer ${input.name}`);
      return { name: input.name, removed: true };
    });
  },
});

export const AGENT_OPS = [registerAgent, listAgents, showAgent, addReviewer, removeReviewer];
