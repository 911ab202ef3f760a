import { describe, expect, it } from 'vitest';
import { AgentboardError } from '../../src/errors.js';
import { FindingSink } from '../../src/domain/findings.js';
import { changeIdProblem, parseTaskRef, REQUIREMENT_ID_PATTERN } from '../../src/domain/ids.js';
import { DOCUMENT_MOVES, movesFrom, SESSION_MOVES, SESSION_STATUSES } from '../../src/domain/lifecycle.js';
import type { Task } from '../../src/domain/model.js';
import { ownTaskInProgress, selectTask, type WorkPool } from '../../src/domain/next-task.js';
import { derivePhase } from '../../src/domain/phase.js';
import { emptyRuntime } from '../../src/domain/records.js';
import { dependencyCycles, specRules } from '../../src/domain/rules.js';
import { expireInputs, moveSession } from '../../src/domain/sessions.js';
import { moveTask } from '../../src/domain/task-moves.js';
import { rng } from '../random.js';

function task(id: string, extra: Partial<Task> = {}): Task {
  return { id, title: id, description: '', status: 'todo', priority: 'medium', depends: [], skills: [], requirements: [], files: [], blockers: [], feedback: [], notes: [], ...extra };
}

describe('change ids', () => {
  it.each(['..', '../x', 'a/b', 'a\\b', 'Upper-case', 'has space', '', 'ab', 'x'.repeat(65), '-lead', 'trail-', 'dou--ble'])('refuses %j', (id) => {
    expect(changeIdProblem(id)).not.toBeNull();
  });
  it.each(['add-auth', 'fix-workflow-bugs', 'v2-api', 'abc'])('accepts %j', (id) => {
    expect(changeIdProblem(id)).toBeNull();
  });
  it('parses board-wide task ids', async () => {
    expect(parseTaskRef('fix-workflow-bugs/T2')).toEqual({ changeId: 'fix-workflow-bugs', taskId: 'T2' });
    expect(typeof parseTaskRef('T2')).toBe('string');
    expect(typeof parseTaskRef('../T2')).toBe('string');
  });
});

describe('document lifecycle (seed 000)', () => {
  it('lets agents submit templates and rejected documents, never approve', async () => {
    expect(movesFrom(DOCUMENT_MOVES, 'template', 'agent')).toEqual(['submitted']);
    expect(movesFrom(DOCUMENT_MOVES, 'rejected', 'agent')).toEqual(['submitted']);
    expect(movesFrom(DOCUMENT_MOVES, 'submitted', 'agent')).toEqual([]);
    expect(movesFrom(DOCUMENT_MOVES, 'submitted', 'reviewer')).toEqual(['submitted']);
    expect(movesFrom(DOCUMENT_MOVES, 'submitted', 'human').sort()).toEqual(['approved', 'rejected', 'submitted']);
    expect(movesFrom(DOCUMENT_MOVES, 'approved', 'human')).toEqual([]);
  });
});

describe('task moves', () => {
  it('records the claim, and refuses what the table does not allow with the allowed moves', async () => {
    const t = task('T1');
    moveTask(t, 'c/T1', 'in_progress', 'codex', 'agent', 'now');
    expect(t).toMatchObject({ status: 'in_progress', assignee: 'codex', claimed_at: 'now' });
    try {
      moveTask(t, 'c/T1', 'todo', 'codex', 'agent', 'now');
      expect.unreachable();
    } catch (err) {
      expect((err as AgentboardError).code).toBe('INVALID_TRANSITION');
      expect((err as AgentboardError).nextStep).toContain('done');
    }
    moveTask(t, 'c/T1', 'todo', 'human:ann', 'human', 'later');
    expect(t.assignee).toBeUndefined();
    expect(t.status).toBe('todo');
  });
});

describe('next task selection', () => {
  const pool = (tasks: Task[], open = true): WorkPool => ({ changeId: 'c', tasks, open });

  it('gives the highest priority ready task, preferring the agent skills among equals', async () => {
    const pools = [pool([task('T1', { priority: 'low' }), task('T2', { priority: 'high' }), task('T3', { priority: 'high', skills: ['sql'] })])];
    expect(selectTask([], pools)).toMatchObject({ kind: 'claim', task: { id: 'T2' } });
    expect(selectTask(['SQL'], pools)).toMatchObject({ kind: 'claim', task: { id: 'T3' } });
  });

  it('skips held tasks and tasks waiting on dependencies, and counts why', async () => {
    const pools = [pool([task('T1', { status: 'in_progress', assignee: 'a' }), task('T2', { depends: ['T1'] }), task('T3', { status: 'in_review', assignee: 'b' }), task('T4', { status: 'blocked', assignee: 'c' })])];
    expect(selectTask([], pools)).toEqual({ kind: 'none', reasons: { held_by_others: 1, waiting_on_dependencies: 1, in_review: 1, blocked: 1, awaiting_approval: 0, waiting_on_documents: 0 } });
  });

  it('never hands out a task in progress, even one a hand edit left without an assignee', async () => {
    expect(selectTask([], [pool([task('T1', { status: 'in_progress' })])])).toMatchObject({ kind: 'none', reasons: { held_by_others: 1 } });
  });

  it('reads pools only until a task nothing can beat is found, and chooses what a look at every task would', async () => {
    const r = rng(5);
    const priorities = ['low', 'medium', 'high', 'urgent'] as const;
    for (let round = 0; round < 300; round++) {
      const pools = Array.from({ length: 1 + r.int(6) }, (_, p) =>
        ({ ...pool(Array.from({ length: 1 + r.int(5) }, (_, i) => task(`T${i + 1}`, { priority: r.pick(priorities), skills: r.int(2) ? ['sql'] : ['ts'], status: r.int(5) ? 'todo' : 'done', depends: r.int(4) ? [] : [`T${i}`] })), r.int(6) > 0), changeId: `c${p}` }),
      );
      const skills = r.pick([[], ['sql'], ['SQL', 'ts']]);
      // Every ready task, best first: highest priority, then most skills, then board order.
      const wanted = new Set(skills.map((s) => s.toLowerCase()));
      const ready = pools.flatMap((p, pi) => (p.open ? p.tasks.flatMap((t, ti) => (t.status === 'todo' && t.depends.every((d) => p.tasks.find((u) => u.id === d)?.status === 'done') ? [{ p, t, key: [-['low', 'medium', 'high', 'urgent'].indexOf(t.priority), -t.skills.filter((s) => wanted.has(s)).length, pi, ti] }] : [])) : []));
      ready.sort((a, b) => a.key.reduce((d, k, i) => d || k - b.key[i]!, 0));
      let read = 0;
      const lazily = (function* () {
        for (const p of pools) {
          read++;
          yield p;
        }
      })();
      const selection = selectTask(skills, lazily);
      if (ready.length === 0) expect(selection.kind).toBe('none');
      else expect(selection).toMatchObject({ kind: 'claim', changeId: ready[0]!.p.changeId, task: { id: ready[0]!.t.id } });
      const unbeatable = ready[0] && ready[0].t.priority === 'urgent' && ready[0].key[1] === -wanted.size;
      if (unbeatable) expect(read).toBe(pools.indexOf(ready[0]!.p) + 1);
      else expect(read).toBe(pools.length);
    }
  });

  it('does not hand out tasks of a list waiting for approval', async () => {
    expect(selectTask([], [pool([task('T1')], false)])).toMatchObject({ kind: 'none', reasons: { awaiting_approval: 1 } });
  });

  it('gives an agent its own task in progress back first', async () => {
    const pools = [pool([task('T1', { priority: 'urgent' }), task('T2', { status: 'in_progress', assignee: 'me' })])];
    expect(ownTaskInProgress('me', pools)?.task.id).toBe('T2');
    expect(ownTaskInProgress('other', pools)).toBeNull();
  });
});

describe('workflow sessions (seed 002)', () => {
  it('allows exactly the table', async () => {
    const allowed: Record<string, string[]> = {
      started: ['working'],
      working: ['awaiting_input', 'blocked', 'awaiting_review', 'completed'],
      awaiting_input: ['working'],
      blocked: ['working'],
      awaiting_review: ['working', 'completed'],
      completed: [],
    };
    expect(SESSION_MOVES).toEqual(allowed);
    for (const from of SESSION_STATUSES) {
      for (const to of SESSION_STATUSES) {
        if (from === to || (from === 'completed' && to === 'working')) continue;
        const data = emptyRuntime();
        data.sessions.a = { agent_id: 'a', number: 1, status: from, updated_at: 't', history: [] };
        const attempt = () => moveSession(data, 'a', to, 't');
        if (allowed[from]!.includes(to)) expect(attempt).not.toThrow();
        else expect(attempt).toThrow(AgentboardError);
      }
    }
  });

  it('opens a new session when a completed agent reports working', async () => {
    const data = emptyRuntime();
    moveSession(data, 'a', 'working', 't1');
    moveSession(data, 'a', 'completed', 't2');
    const s = moveSession(data, 'a', 'working', 't3');
    expect(s.number).toBe(2);
    expect(s.status).toBe('working');
  });

  it('resolves an unanswered question to its default action once its deadline has passed by the tolerance', async () => {
    const data = emptyRuntime();
    moveSession(data, 'a', 'working', 't');
    moveSession(data, 'a', 'awaiting_input', 't');
    data.inputs['input-1'] = { id: 'input-1', agent_id: 'a', question: 'q', options: [], default_action: 'go on', timeout_minutes: 1, created_at: '2026-01-01T00:00:00.000Z', expires_at: '2026-01-01T00:01:00.000Z', status: 'open' };
    data.sessions.a!.input_id = 'input-1';
    expect(expireInputs(data, '2026-01-01T00:00:59.000Z')).toEqual([]);
    expect(expireInputs(data, '2026-01-01T00:01:04.999Z')).toEqual([]);
    expect(expireInputs(data, '2026-01-01T00:01:05.000Z')).toEqual(['input-1']);
    expect(data.inputs['input-1']!.resolution).toEqual({ type: 'timeout', value: 'go on', by: 'agentboard', at: '2026-01-01T00:01:00.000Z' });
    expect(data.sessions.a!.status).toBe('working');
  });

  it('never expires a question that says it was asked in the future (a clock that runs ahead)', () => {
    const data = emptyRuntime();
    data.inputs['input-1'] = { id: 'input-1', agent_id: 'a', question: 'q', options: [], default_action: 'go on', timeout_minutes: 1, created_at: '2026-01-01T01:00:00.000Z', expires_at: '2026-01-01T00:01:00.000Z', status: 'open' };
    expect(expireInputs(data, '2026-01-01T00:30:00.000Z')).toEqual([]);
    expect(data.inputs['input-1']!.status).toBe('open');
  });
});

describe('rules', () => {
  it('finds dependency cycles', async () => {
    expect(dependencyCycles([task('A', { depends: ['B'] }), task('B', { depends: ['C'] }), task('C', { depends: ['A'] }), task('D')])).toEqual([['A', 'B', 'C']]);
  });

  it('reads MUST and SHALL in any case, warns on "should" alone, and refuses no normative word unless the text was imported', async () => {
    const spec = (text: string, delta?: 'REMOVED') => ({ title: 't', overview: 'o'.repeat(60), requirements: [{ id: 'R1', title: 't', text, ...(delta ? { delta } : {}) }], scenarios: [{ name: 's', when: 'w', then: 't' }] });
    const findings = (text: string, options: { imported?: boolean } = {}, delta?: 'REMOVED') => {
      const sink = new FindingSink('spec.md');
      specRules(spec(text, delta), sink, {}, options);
      return sink.findings.map((f) => `${f.level}:${f.rule}`);
    };
    expect(findings('It MUST work.')).toEqual([]);
    expect(findings('It shall work.')).toEqual([]);
    expect(findings('It must work.')).toEqual([]);
    expect(findings('It should work.')).toEqual(['warning:spec.requirement.normative_weak']);
    expect(findings('It works.')).toEqual(['error:spec.requirement.normative']);
    expect(findings('It works.', { imported: true })).toEqual(['warning:spec.requirement.normative']);
    expect(findings('**Reason**: no longer needed.', {}, 'REMOVED')).toEqual([]);
    // The same words in the languages specs are written in; a longer word that holds one is not it.
    for (const text of ['Le système DOIT garder les notes.', 'El sistema DEBE guardar las notas.', 'O sistema DEVERÁ guardar.', 'Das System MUSS die Notizen halten.', 'Il sistema DEVE salvare.', 'Система ДОЛЖНА хранить заметки.', 'Система повинна зберігати.', '系统必须保存笔记。', '系統必須支援匯出。', 'システムはメモを保存しなければならない。', '시스템은 메모를 저장해야 한다.']) {
      expect(findings(text), text).toEqual([]);
    }
    expect(findings('Mustard and debería are not it.')).toEqual(['error:spec.requirement.normative']);
  });

  it('asks a spec for a scenario unless every requirement of it is one the change removes or renames', async () => {
    const findings = (deltas: ('ADDED' | 'REMOVED' | 'RENAMED' | undefined)[]) => {
      const sink = new FindingSink('spec.md');
      const requirements = deltas.map((delta, i) => ({ id: `R${i + 1}`, title: 't', text: 'It MUST go.', ...(delta ? { delta } : {}) }));
      specRules({ title: 't', overview: 'o'.repeat(60), requirements, scenarios: [] }, sink);
      return sink.findings.map((f) => `${f.level}:${f.rule}`);
    };
    expect(findings(['REMOVED'])).toEqual([]);
    expect(findings(['REMOVED', 'RENAMED'])).toEqual([]);
    expect(findings(['REMOVED', 'ADDED'])).toEqual(['error:spec.scenarios.missing']);
    expect(findings([undefined])).toEqual(['error:spec.scenarios.missing']);
    expect(findings([])).toEqual(['error:spec.requirements.missing', 'error:spec.scenarios.missing']);
  });

  it('takes requirement ids with any short prefix', async () => {
    for (const id of ['R1', 'A1', 'FR-001', 'REQ-12', 'AUTH-R2', 'MS-R1', 'SEARCH-INDEX-R3']) expect(REQUIREMENT_ID_PATTERN.test(id)).toBe(true);
    for (const id of ['r1', 'Req', 'FR-', '1', '12', 'R1 ', 'a-b']) expect(REQUIREMENT_ID_PATTERN.test(id)).toBe(false);
  });

  it('derives the phase from the documents', async () => {
    const none = { proposal: null, spec: null, tasks: null, review: null };
    expect(derivePhase(none, []).phase).toBe('proposal');
    const sub = { status: 'submitted' as const };
    expect(derivePhase({ ...none, proposal: sub }, []).phase).toBe('spec');
    expect(derivePhase({ ...none, proposal: sub }, ['proposal'])).toEqual({ phase: 'proposal', waiting_on: 'a person to approve the proposal' });
    const tasks = { status: 'submitted' as const, tasks: [task('T1', { status: 'done' })] };
    expect(derivePhase({ proposal: sub, spec: sub, tasks, review: null }, []).phase).toBe('review');
    expect(derivePhase({ proposal: sub, spec: sub, tasks, review: { status: 'submitted', verdict: 'APPROVED' } }, []).phase).toBe('done');
  });
});

describe('references to operations in a value', () => {
  it('are spelled at any depth, in a copy of what holds them; the rest is the same value', async () => {
    const { refTo, resolveRefsDeep } = await import('../../src/domain/refs.js');
    const spell = (r: { ops: string[] }) => `<${r.ops[0]}>`;
    const quiet = { title: 'no reference', tags: ['a', 'b'], n: 3, none: null };
    const value = { message: `run ${refTo('task.next')}`, list: [quiet, { next: [refTo('task.done')] }], quiet };
    const out = resolveRefsDeep(value, spell);
    expect(out).toEqual({ message: 'run <task.next>', list: [quiet, { next: ['<task.done>'] }], quiet });
    // What held a reference is a copy: the value given is as it was.
    expect(value.message).toContain(refTo('task.next'));
    expect(out.list).not.toBe(value.list);
    expect(out.list[0]).toBe(quiet);
    expect(out.quiet).toBe(quiet);
    expect(resolveRefsDeep(quiet, spell)).toBe(quiet);
  });
});
