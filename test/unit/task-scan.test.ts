import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../src/domain/findings.js';
import { PRIORITIES, TASK_STATUSES, type Task } from '../../src/domain/model.js';
import { assembleTasksBody, parseTasksBody, renderTaskBlock, renderTasksPreamble } from '../../src/store/format-tasks.js';
import { scanTaskList, summarize, type TaskSummary } from '../../src/store/task-scan.js';
import { hostileText, rng } from '../random.js';

/** What the full parser says, in the scan's terms: the scan must say the same whenever it answers. */
function summaries(body: string): TaskSummary[] | 'broken' {
  const sink = new FindingSink('tasks.md');
  const parsed = parseTasksBody(body, sink);
  if (sink.findings.some((f) => f.level === 'error') || parsed.blocks.some((b) => b.task === null)) return 'broken';
  return parsed.blocks.map(({ task }) => summarize(task!));
}

function randomTask(r: ReturnType<typeof rng>, i: number): Task {
  const t: Task = {
    id: r.pick([`T${i}`, `${i}.1`, `task-${i}`]),
    title: hostileText(r, 1, 1).replace(/\n/g, ' ').replace(/[ \t]#+$/, '').trim() || `Task ${i}`,
    description: r.int(3) === 0 ? '' : hostileText(r, 1, 6),
    status: r.pick(TASK_STATUSES),
    priority: r.pick(PRIORITIES),
    depends: r.int(2) ? [] : [`T${r.int(i + 1)}`],
    skills: r.pick([[], ['ts'], ['a b', 'sql']]),
    requirements: r.int(2) ? [] : ['R1'],
    files: r.int(2) ? [] : [{ path: 'src/x.ts', action: r.pick(['create', 'modify', 'delete', 'rename'] as const) }],
    blockers: r.int(3) ? [] : [{ reason: hostileText(r, 1, 2), severity: r.pick(['low', 'medium', 'high'] as const), by: 'codex', at: '2026-11-22T01:00:00.000Z' }],
    feedback: [],
    notes: r.int(2) ? [] : [{ author: r.pick(['codex', 'human:Bo']), at: `2026-11-22T0${r.int(9)}:00:00.000Z`, text: hostileText(r, 1, 3) }],
  };
  if (r.int(3) === 0) t.group = r.pick(['1. Data Layer', 'Phase 3: User Story 1 - Book a room (Priority: P1) 🎯 MVP', 'setup', hostileText(r, 1, 1).replace(/\n/g, ' ')]);
  if (t.status !== 'todo' || r.int(2)) {
    t.assignee = r.pick(['codex', 'gemini-2']);
    t.claimed_at = '2026-11-22T02:00:00.000Z';
  }
  if (r.int(2)) {
    t.progress = r.int(101);
    t.progress_at = '2026-11-22T03:00:00.000Z';
    t.progress_message = hostileText(r, 1, 2);
  }
  if (t.status === 'in_review') {
    t.submitted_at = '2026-11-22T04:00:00.000Z';
    t.submission = hostileText(r, 1, 2);
  }
  return t;
}

describe('the quick scan of a task list', () => {
  it('agrees with the full parser on every list agentboard writes, hostile text included, or leaves it to the parser', () => {
    const r = rng(7);
    let answered = 0;
    let withoutFences = 0;
    for (let round = 0; round < 400; round++) {
      const tasks = Array.from({ length: 1 + r.int(8) }, (_, i) => randomTask(r, i + 1));
      const unique = tasks.filter((t, i) => tasks.findIndex((u) => u.id === t.id) === i);
      const { body } = assembleTasksBody('T', renderTasksPreamble('A list'), unique.map((t) => ({ id: t.id, task: t, raw: renderTaskBlock(t) })));
      const scanned = scanTaskList(body);
      const fences = body.split('\n').filter((l) => /^ {0,3}(?:`{3,}|~{3,})/.test(l)).length;
      if (fences === 2 * unique.length) withoutFences++;
      if (scanned === null) continue;
      answered++;
      expect(scanned, body).toEqual(summaries(body));
    }
    // every list without a code fence in its text is read by the scan; only fences send a list to the parser
    expect(withoutFences).toBeGreaterThan(50);
    expect(answered).toBe(withoutFences);
  });

  it('leaves every hand edit it does not recognise to the parser, and agrees on those it does', () => {
    const base = assembleTasksBody('T', renderTasksPreamble('A list'), [
      { id: 'T1', task: null, raw: renderTaskBlock({ id: 'T1', title: 'One', description: 'Text.', status: 'todo', priority: 'high', depends: [], skills: ['ts'], requirements: [], files: [], blockers: [], feedback: [], notes: [] }) },
      { id: 'T2', task: null, raw: renderTaskBlock({ id: 'T2', title: 'Two', description: '', status: 'in_progress', priority: 'low', depends: ['T1'], skills: [], requirements: [], files: [], blockers: [], feedback: [], notes: [], assignee: 'codex', claimed_at: '2026-11-22T02:00:00.000Z' }) },
    ]).body;
    const edits = [
      (b: string) => b.replace('status: todo', 'status: todo # comment'),
      (b: string) => b.replace('status: todo', 'status: doing'),
      (b: string) => b.replace('status: todo', 'status: pending'),
      (b: string) => b.replace('priority: high', 'priority: "high"'),
      (b: string) => b.replace('skills: [ts]', 'skills:\n  - ts'),
      (b: string) => b.replace('depends: [T1]', 'depends: T1'),
      (b: string) => b.replace('Text.', 'Text.\n\n```\n## T9: not a task\n```'),
      (b: string) => b.replace('## T2: Two', '## T2: Two ##'),
      (b: string) => b.replace('## T2: Two', '## T1: Two'),
      (b: string) => b.replace('```yaml\nstatus: in_progress', 'status: in_progress'),
      (b: string) => b.replace('priority: low', 'priority: low\nestimate: 3'),
      (b: string) => b.replace('assignee: codex', 'assignee: "codex"'),
      (b: string) => b.replace('assignee: codex', 'assignee:   codex'),
      (b: string) => b.replace('  ## T2', '## T2'),
      (b: string) => `${b}\n## T3: Three\n\nno yaml block\n`,
      (b: string) => b.replace('## T2: Two', '   ## T2: Two'),
      (b: string) => b.replace('claimed_at: 2026-11-22T02:00:00.000Z', 'claimed_at: 2026-11-22'),
    ];
    for (const edit of edits) {
      const body = edit(base);
      const scanned = scanTaskList(body);
      const full = summaries(body);
      if (scanned !== null) expect(scanned, body).toEqual(full);
    }
  });
});
