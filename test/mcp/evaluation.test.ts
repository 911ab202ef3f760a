import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, snapshot, tempDir } from '../helpers.js';
import { connect } from './helpers.js';

const pairs = [...readFileSync(join(ROOT, 'evaluation.xml'), 'utf8').matchAll(/<question>([\s\S]*?)<\/question>\s*<answer>([\s\S]*?)<\/answer>/g)].map((m) => ({ question: m[1]!, answer: m[2]! }));

describe('evaluation.xml, answered through real tool calls on the fixture board', () => {
  let call: Awaited<ReturnType<typeof connect>>['call'];
  let dir: string;
  let before: Record<string, string>;
  const calls: string[] = [];
  beforeAll(async () => {
    dir = join(tempDir(), 'board');
    cpSync(join(FIXTURES, 'eval-board'), dir, { recursive: true });
    before = snapshot(dir);
    const mcp = await connect(dir, 'all');
    call = async (name, args) => {
      calls.push(name);
      const r = await mcp.call(name, args);
      if (r.isError) throw new Error(`${name}: ${r.text}`);
      return r;
    };
  });

  const data = async (name: string, args: object = {}) => (await call(name, args)).data;

  /** How an agent would work out each answer, one tool call at a time. */
  const solvers: (() => Promise<string>)[] = [
    async () => {
      const { changes } = await data('agentboard_list_changes');
      for (const c of changes) {
        const spec = await data('agentboard_get_document', { change_id: c.change_id, document: 'spec' }).catch(() => null);
        if (!spec?.content.requirements.some((r: any) => r.title === 'Rate limit per IP')) continue;
        const review = await data('agentboard_get_document', { change_id: c.change_id, document: 'review' });
        const first = review.content.rounds.find((r: any) => r.round === 1);
        return `${first.verdict}/${first.issues.filter((i: any) => i.severity === 'High').length}`;
      }
      return '';
    },
    async () => {
      const { tasks } = await data('agentboard_list_tasks', { limit: 500 });
      const rank = { low: 0, medium: 1, high: 2, urgent: 3 } as Record<string, number>;
      const top = tasks.filter((t: any) => t.status !== 'done').sort((a: any, b: any) => rank[b.priority]! - rank[a.priority]!)[0];
      const task = (await data('agentboard_get_task', { task_id: top.task_id })).task;
      return `${task.assignee}/${task.progress}`;
    },
    async () => {
      const { tasks } = await data('agentboard_list_tasks', { limit: 500 });
      const holder = tasks.find((t: any) => t.title === 'Inverted index storage').assignee;
      const { inputs } = await data('agentboard_list_inputs', { agent_id: holder, status: 'all' });
      return inputs[0].resolution.value;
    },
    async () => {
      const { tasks } = await data('agentboard_list_tasks', { status: 'blocked' });
      const task = (await data('agentboard_get_task', { task_id: tasks[0].task_id })).task;
      return `${task.requirements[0]}/${task.blockers[0].severity}`;
    },
    async () => {
      const { changes } = await data('agentboard_list_changes', { phase: 'spec' });
      const doc = await data('agentboard_get_document', { change_id: changes[0].change_id, document: 'proposal' });
      return doc.feedback.length > 0 ? doc.author : '';
    },
    async () => {
      const { changes } = await data('agentboard_list_changes', { phase: 'implementation' });
      const { tasks } = await data('agentboard_list_tasks', { change_id: changes[0].change_id, status: 'todo' });
      return String(tasks.filter((t: any) => !t.ready).length);
    },
    async () => {
      const { archived } = await data('agentboard_list_changes', { archived: true });
      const { entries } = await data('agentboard_get_activity_log', { change_id: archived[0].change_id, limit: 100 });
      return entries.find((e: any) => e.action === 'review.create').actor;
    },
    async () => {
      const { tasks } = await data('agentboard_list_tasks', { status: 'blocked' });
      return (await data('agentboard_get_agent_status', { agent_id: tasks[0].assignee })).role;
    },
    async () => {
      const { changes } = await data('agentboard_list_changes');
      const change = changes.find((c: any) => /login/i.test(c.title)).change_id;
      const spec = await data('agentboard_get_document', { change_id: change, document: 'spec' });
      const requirement = spec.content.requirements.find((r: any) => /per account/i.test(r.title)).id;
      const tasks = await data('agentboard_get_document', { change_id: change, document: 'tasks' });
      return tasks.content.tasks.find((t: any) => t.requirements.includes(requirement)).title;
    },
    async () => {
      const { documents } = await data('agentboard_list_documents');
      for (const d of documents) {
        const doc = await data('agentboard_get_document', { change_id: d.change_id, document: d.document });
        if (doc.feedback.length > 0) return `${doc.feedback[0].author}/${d.change_id}`;
      }
      return '';
    },
  ];

  it('has ten questions', async () => {
    expect(pairs).toHaveLength(10);
    expect(solvers).toHaveLength(10);
  });

  pairs.forEach((pair, i) => {
    it(`question ${i + 1}: ${pair.question.slice(0, 60)}…`, async () => {
      const start = calls.length;
      expect(await solvers[i]!()).toBe(pair.answer);
      expect(calls.length - start, 'needs more than one tool call').toBeGreaterThan(1);
    });
  });

  it('changed nothing on the board', async () => {
    expect(snapshot(dir)).toEqual(before);
  });
});
