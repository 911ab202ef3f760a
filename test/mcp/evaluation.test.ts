import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/mcp/server.js';
import { FIXTURES, ROOT, snapshot, tempDir } from '../helpers.js';
import { connect } from './helpers.js';

const pairs = [...readFileSync(join(ROOT, 'evaluation.xml'), 'utf8').matchAll(/<question>\[(\w+)\] ([\s\S]*?)<\/question>\s*<answer>([\s\S]*?)<\/answer>/g)].map((m) => ({
  profile: m[1] as Profile,
  question: m[2]!,
  answer: m[3]!,
}));

type Call = (name: string, args?: object) => Promise<any>;

/** How an agent of the question's profile works out each answer, one tool call at a time. */
const solvers: ((call: Call) => Promise<string>)[] = [
  async (call) => {
    const { changes } = await call('agentboard_list_changes');
    for (const c of changes) {
      const spec = await call('agentboard_get_document', { change_id: c.change_id, document: 'spec', format: 'fields' }).catch(() => null);
      if (!spec?.content.requirements.some((r: any) => r.title === 'Rate limit per IP')) continue;
      const review = await call('agentboard_get_document', { change_id: c.change_id, document: 'review', format: 'fields' });
      const first = review.content.rounds.find((r: any) => r.round === 1);
      return `${first.verdict}/${first.issues.filter((i: any) => i.severity === 'High').length}`;
    }
    return '';
  },
  async (call) => {
    const tasks = await every(call, 'agentboard_list_tasks', { limit: 500 }, 'tasks');
    const rank = { low: 0, medium: 1, high: 2, urgent: 3 } as Record<string, number>;
    const top = tasks.filter((t: any) => t.status !== 'done').sort((a: any, b: any) => rank[b.priority]! - rank[a.priority]!)[0];
    const { task } = await call('agentboard_get_task', { task_id: top.task_id });
    return `${task.assignee}/${task.progress}`;
  },
  async (call) => {
    const tasks = await every(call, 'agentboard_list_tasks', { limit: 500 }, 'tasks');
    const holder = tasks.find((t: any) => t.title === 'Inverted index storage').assignee;
    const { inputs } = await call('agentboard_list_inputs', { asked_by: holder, status: 'all' });
    return inputs[0].resolution.value;
  },
  async (call) => {
    const { tasks } = await call('agentboard_list_tasks', { status: 'blocked' });
    const { task } = await call('agentboard_get_task', { task_id: tasks[0].task_id });
    return `${task.requirements[0]}/${task.blockers[0].severity}`;
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes', { phase: 'spec' });
    const doc = await call('agentboard_get_document', { change_id: changes[0].change_id, document: 'proposal' });
    return doc.feedback.length > 0 ? doc.author : '';
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes');
    const change = changes.find((c: any) => /search index/i.test(c.title)).change_id;
    const { tasks } = await call('agentboard_list_tasks', { change_id: change, status: 'todo' });
    return String(tasks.filter((t: any) => !t.ready).length);
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes', { phase: 'archived' });
    const change = changes.find((c: any) => /theme/i.test(c.title)).change_id;
    const { entries } = await call('agentboard_get_activity_log', { change_id: change, limit: 100 });
    return entries.find((e: any) => e.action === 'review.create').actor;
  },
  async (call) => {
    const { tasks } = await call('agentboard_list_tasks', { status: 'blocked' });
    return (await call('agentboard_get_agent_status', { agent_id: tasks[0].assignee })).role;
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes');
    const change = changes.find((c: any) => /login/i.test(c.title)).change_id;
    const spec = await call('agentboard_get_document', { change_id: change, document: 'spec', format: 'fields' });
    const requirement = spec.content.requirements.find((r: any) => /per account/i.test(r.title)).id;
    const tasks = await call('agentboard_get_document', { change_id: change, document: 'tasks', format: 'fields' });
    return tasks.content.tasks.find((t: any) => t.requirements.includes(requirement)).title;
  },
  async (call) => {
    const documents = await every(call, 'agentboard_list_documents', {}, 'documents');
    for (const d of documents) {
      const doc = await call('agentboard_get_document', { change_id: d.change_id, document: d.document });
      if (doc.feedback.length > 0) return `${doc.feedback[0].author}/${d.change_id}`;
    }
    return '';
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes', { phase: 'archived' });
    for (const c of changes) {
      const review = await call('agentboard_get_document', { change_id: c.change_id, document: 'review', format: 'fields' });
      if (review.total > 1) return `${c.change_id}/${review.content.rounds.find((r: any) => r.round === 1).verdict}`;
    }
    return '';
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes', { phase: 'archived' });
    for (const c of changes) {
      const review = await call('agentboard_get_document', { change_id: c.change_id, document: 'review', format: 'fields' });
      if (!review.content.rounds.some((r: any) => r.reviewer === 'critic')) continue;
      const { tasks } = await call('agentboard_list_tasks', { change_id: c.change_id });
      return tasks.map((t: any) => t.assignee).join(',');
    }
    return '';
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes');
    const change = changes.find((c: any) => /ledger/i.test(c.title));
    const tasks = await every(call, 'agentboard_list_tasks', { change_id: change.change_id, limit: 500 }, 'tasks');
    return `${tasks.length}/${tasks.find((t: any) => t.title === 'Migrate ledger batch 187 of 240').assignee}`;
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes');
    const change = changes.find((c: any) => /ledger/i.test(c.title)).change_id;
    const tasks = await every(call, 'agentboard_get_document', { change_id: change, document: 'tasks', format: 'fields' }, (d) => d.content.tasks);
    return String(tasks.filter((t: any) => t.requirements.includes('R2')).length);
  },
  async (call) => {
    const { task, dependencies } = await call('agentboard_get_task', { task_id: 'ledger-migration/T240' });
    expect(task.status).not.toBe('done');
    const waited = (await call('agentboard_get_task', { task_id: dependencies[0].task_id })).task;
    return `${waited.assignee}/${waited.progress}`;
  },
  async (call) => {
    const answered = (await every(call, 'agentboard_get_workflow_state', { agent_id: 'gemini', limit: 1 }, 'resolutions')).filter((r: any) => r.resolution.type === 'human');
    return answered.at(-1).resolution.value; // newest first: the first answered is last
  },
  async (call) => {
    const inputs = await every(call, 'agentboard_list_inputs', { status: 'resolved' }, 'inputs');
    const timedOut = inputs.find((i: any) => i.resolution.type === 'timeout');
    return `${(await call('agentboard_get_agent_status', { agent_id: timedOut.agent_id })).role}/${timedOut.resolution.value}`;
  },
  async (call) => {
    const { archived } = await call('agentboard_list_changes', { archived: true });
    const change = archived.find((a: any) => a.change_id === 'csv-import');
    const { entries } = await call('agentboard_get_activity_log', { change_id: 'csv-import' });
    return `${entries.find((e: any) => e.action === 'change.archive').actor}/${change.date}`;
  },
  async (call) => {
    const status = await call('agentboard_get_project_status');
    const archived = await every(call, 'agentboard_list_changes', { phase: 'archived' }, 'changes');
    return `${status.totals.done}/${archived.reduce((sum: number, c: any) => sum + c.tasks.done, 0)}`;
  },
  async (call) => {
    const { changes } = await call('agentboard_list_changes');
    const change = changes.find((c: any) => /ledger/i.test(c.title)).change_id;
    const pages = await every(call, 'agentboard_get_document', { change_id: change, document: 'tasks' }, (d) => [d.markdown]);
    return String(pages.join('').split('\n').length - 1);
  },
];

/** Every item of a list, page after page, following next_cursor. */
async function every(call: Call, tool: string, args: object, items: string | ((data: any) => unknown[])): Promise<any[]> {
  const take = typeof items === 'string' ? (d: any) => d[items] : items;
  const out: unknown[] = [];
  for (let data = await call(tool, args); ; data = await call(tool, { cursor: data.next_cursor })) {
    out.push(...take(data));
    if (!data.has_more) return out;
  }
}

describe('evaluation.xml, answered through real tool calls on the fixture board, each with its profile', () => {
  let dir: string;
  let before: Record<string, string>;
  const servers = new Map<Profile, Awaited<ReturnType<typeof connect>>>();
  beforeAll(async () => {
    dir = join(tempDir(), 'board');
    cpSync(join(FIXTURES, 'eval-board'), dir, { recursive: true });
    before = snapshot(dir);
    for (const profile of new Set(pairs.map((p) => p.profile))) servers.set(profile, await connect(dir, profile));
  });
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  it('has twenty questions, for several profiles, some on archived changes and some in pages', () => {
    expect(pairs).toHaveLength(20);
    expect(solvers).toHaveLength(20);
    expect(new Set(pairs.map((p) => p.profile))).toEqual(new Set(['worker', 'planner', 'reviewer']));
    expect(pairs.filter((p) => /archived/.test(p.question)).length).toBeGreaterThanOrEqual(5);
  });

  const tally = { pages: 0 };
  pairs.forEach((pair, i) => {
    it(`question ${i + 1} [${pair.profile}]: ${pair.question.slice(0, 60)}…`, async () => {
      const mcp = servers.get(pair.profile)!;
      const calls: string[] = [];
      const call: Call = async (name, args = {}) => {
        calls.push(name);
        if ('cursor' in args) tally.pages++;
        const r = await mcp.call(name, args);
        if (r.isError) throw new Error(`${name}: ${r.text}`);
        expect(r.text.length, `${name}: text within the limit`).toBeLessThanOrEqual(25_000);
        return r.data;
      };
      expect(await solvers[i]!(call)).toBe(pair.answer);
      expect(calls.length, 'needs more than one tool call').toBeGreaterThan(1);
    });
  });

  it('read more than one page along the way', () => {
    expect(tally.pages).toBeGreaterThan(10);
  });

  it('changed nothing on the board', () => {
    expect(snapshot(dir)).toEqual(before);
  });
});
