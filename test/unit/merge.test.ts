import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/domain/model.js';
import { META_ITEM, metaItem, taskItem } from '../../src/store/ledger.js';
import { fingerprints, mergeItems, type History, type Item } from '../../src/store/merge.js';
import { merge3 } from '../../src/store/diff3.js';
import { mergeBody, mergeTask, mergeTaskList } from '../../src/store/write-merge.js';

function task(id: string, extra: Partial<Task> = {}): Task {
  return { id, title: `Task ${id}`, description: 'Do it.', status: 'todo', priority: 'medium', depends: [], skills: [], requirements: [], files: [], blockers: [], feedback: [], notes: [], ...extra };
}

/** A ledger built by writing these versions in turn: the history every item gets. */
function written(versions: Task[][]): { base: Map<string, Item>; history: Record<string, History>; version: number } {
  const history: Record<string, History> = {};
  versions.forEach((tasks, i) => {
    for (const t of tasks) {
      const [p, s] = fingerprints(taskItem(t));
      const h = (history[t.id] ??= []);
      const last = h[h.length - 1];
      if (!last || last[1] !== p || last[2] !== s) h.push([i + 1, p, s]);
    }
  });
  const last = versions[versions.length - 1]!;
  return { base: new Map(last.map((t) => [t.id, taskItem(t)])), history, version: versions.length };
}

function person(tasks: Task[]): Map<string, Item> {
  return new Map(tasks.map((t) => [t.id, taskItem(t)]));
}

const claimed = (id: string, by: string, extra: Partial<Task> = {}) => task(id, { status: 'in_progress', assignee: by, claimed_at: '2026-11-22T10:00:00.000Z', ...extra });

describe('merging a person\'s edit with what agentboard wrote', () => {
  it('a stale buffer never undoes a claim or drops a note, and the person\'s typo fix is kept', () => {
    const v1 = [task('T1'), task('T2')];
    const v2 = [claimed('T1', 'codex'), task('T2')];
    const v3 = [claimed('T1', 'codex', { notes: [{ author: 'codex', at: '2026-11-22T10:05:00.000Z', text: 'Chose a file lock.' }] }), task('T2')];
    const ledger = written([v1, v2, v3]);
    // the person loaded v1 and fixed a typo in T2's description
    const edited = [task('T1'), task('T2', { description: 'Do it well.' })];
    const r = mergeItems({ file: 'tasks.md', ...ledger, person: person(edited) });
    expect(r.origin).toBe(1);
    const t1 = r.items.find((i) => i.key === 'T1')!.item;
    expect(t1.state).toMatchObject({ status: 'in_progress', assignee: 'codex' });
    expect(t1.logs.notes).toHaveLength(1);
    expect(r.items.find((i) => i.key === 'T2')!.item.plan.description).toBe('Do it well.');
    expect(r.conflicts).toEqual([]);
  });

  it('keeps each of several notes of one author at one time (calls carried out in one commit) word for word, the person\'s rewording of one in its place', () => {
    const at = '2026-11-22T10:05:00.000Z';
    const notes = ['batch 0', 'batch 1', 'batch 2'].map((text) => ({ author: 'codex', at, text }));
    const ledger = written([[task('T1'), task('T2')], [claimed('T1', 'codex', { notes }), task('T2')]]);
    // The person edits another task; their file holds the three notes as written.
    const other = mergeItems({ file: 'tasks.md', ...ledger, person: person([claimed('T1', 'codex', { notes }), task('T2', { description: 'Do it well.' })]) });
    expect(other.items.find((i) => i.key === 'T1')!.item.logs.notes!.map((n) => n.text)).toEqual(['batch 0', 'batch 1', 'batch 2']);
    // The person rewords the second: theirs is kept there, and the others stay.
    const reworded = notes.map((n, i) => (i === 1 ? { ...n, text: 'batch 1, reworded' } : n));
    const mine = mergeItems({ file: 'tasks.md', ...ledger, person: person([claimed('T1', 'codex', { notes: reworded }), task('T2')]) });
    expect(mine.items.find((i) => i.key === 'T1')!.item.logs.notes!.map((n) => n.text)).toEqual(['batch 0', 'batch 1, reworded', 'batch 2']);
  });

  it('keeps a claim a person undid by hand, and reports it: a save that only sets states back is no stale buffer', () => {
    const v1 = [task('T1'), task('T2')];
    const v2 = [claimed('T1', 'codex'), task('T2')];
    const ledger = written([v1, v2]);
    // the person removed codex's claim of T1 (status back to todo, assignee gone), nothing else
    const undone = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1'), task('T2')]) });
    expect(undone.items.find((i) => i.key === 'T1')!.item.state).toMatchObject({ status: 'in_progress', assignee: 'codex' });
    expect(undone.conflicts).toEqual([expect.objectContaining({ item: 'T1', part: 'state', kept: 'agentboard', agentboard: expect.objectContaining({ assignee: 'codex' }), person: expect.objectContaining({ status: 'todo' }) })]);
    // the same old state beside a note of the person's own: a stale buffer, kept silently
    const note = { author: 'human:dana', at: '2026-11-22T10:07:00.000Z', text: 'Looks good.' };
    const stale = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1'), task('T2', { notes: [note] })]) });
    expect(stale.items.find((i) => i.key === 'T1')!.item.state).toMatchObject({ assignee: 'codex' });
    expect(stale.conflicts).toEqual([]);
  });

  it('applies a person\'s own decision on a task\'s state when agents did not change it since', () => {
    const v1 = [claimed('T1', 'codex'), task('T2')];
    const ledger = written([v1]);
    const r = mergeItems({ file: 'tasks.md', ...ledger, tasks: true, person: person([claimed('T1', 'codex', { status: 'blocked' }), task('T2')]) });
    expect(r.items.find((i) => i.key === 'T1')!.item.state.status).toBe('blocked');
    expect(r.conflicts).toEqual([]);
  });

  it('never makes a task done for a save, a task the person added neither, unless git brought it', () => {
    const v1 = [claimed('T1', 'codex'), task('T2', { depends: ['T1'] })];
    const ledger = written([v1]);
    const edited = person([claimed('T1', 'codex', { status: 'done' }), task('T2', { depends: ['T1'] }), task('T3', { status: 'done', assignee: 'human:dana' })]);
    const r = mergeItems({ file: 'tasks.md', ...ledger, tasks: true, person: edited, committed: () => null });
    expect(r.items.find((i) => i.key === 'T1')!.item.state).toMatchObject({ status: 'in_progress', assignee: 'codex' });
    // the person's task is kept, to do: its text is theirs, its state the one a new task has
    const t3 = r.items.find((i) => i.key === 'T3')!;
    expect(t3.item.plan.title).toBe('Task T3');
    expect(t3.item.state).toMatchObject({ status: 'todo', assignee: null });
    expect(r.refused).toEqual([
      expect.objectContaining({ item: 'T1', part: 'state', kept: 'agentboard', person: expect.objectContaining({ status: 'done' }) }),
      expect.objectContaining({ item: 'T3', part: 'state', kept: 'agentboard', person: expect.objectContaining({ status: 'done', assignee: 'human:dana' }) }),
    ]);
    // the version the commit checked out holds them done: another clone's work, pulled
    const pulled = mergeItems({ file: 'tasks.md', ...ledger, tasks: true, person: edited, committed: () => edited });
    expect(pulled.items.filter((i) => i.item.state.status === 'done').map((i) => i.key)).toEqual(['T1', 'T3']);
    expect(pulled.refused).toEqual([]);
  });

  it('never takes a task from its holder for a save, however often the same save comes back', () => {
    const v1 = [task('T1'), task('T2')];
    const v2 = [claimed('T1', 'codex'), task('T2')];
    const v3 = [claimed('T1', 'codex'), claimed('T2', 'gemini')];
    const ledger = written([v1, v2, v3]);
    // loaded after the last write: T1 set to todo (its holder left as it was), or given to another agent
    for (const edit of [{ status: 'todo' as const }, { assignee: 'opus' }]) {
      const r = mergeItems({ file: 'tasks.md', ...ledger, person: person([claimed('T1', 'codex', edit), claimed('T2', 'gemini')]) });
      expect(r.origin).toBe(3);
      expect(r.items.find((i) => i.key === 'T1')!.item.state).toMatchObject({ status: 'in_progress', assignee: 'codex' });
      expect(r.conflicts).toEqual([expect.objectContaining({ item: 'T1', part: 'state', kept: 'agentboard', person: expect.objectContaining(edit) })]);
    }
  });

  it('keeps the agent\'s state and reports both values when both sides changed it', () => {
    const v1 = [task('T1'), task('T2')];
    const v2 = [claimed('T1', 'codex'), task('T2')];
    const ledger = written([v1, v2]);
    // from v1, the person assigned T1 to someone else by hand
    const r = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1', { status: 'in_progress', assignee: 'gemini' }), task('T2')]) });
    expect(r.items.find((i) => i.key === 'T1')!.item.state.assignee).toBe('codex');
    expect(r.conflicts).toEqual([expect.objectContaining({ item: 'T1', part: 'state', kept: 'agentboard', person: expect.objectContaining({ assignee: 'gemini' }) })]);
  });

  it('keeps the person\'s text and reports the agent\'s when both rewrote a title', () => {
    const v1 = [task('T1'), task('T2')];
    const v2 = [task('T1', { title: 'Planner title' }), task('T2')];
    const ledger = written([v1, v2]);
    const r = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1', { title: 'Person title' }), task('T2')]) });
    expect(r.items.find((i) => i.key === 'T1')!.item.plan.title).toBe('Person title');
    expect(r.conflicts).toEqual([expect.objectContaining({ item: 'T1', part: 'plan', kept: 'person', agentboard: expect.objectContaining({ title: 'Planner title' }) })]);
  });

  it('reports the task agentboard wrote when a person added one of the same id after loading the file', () => {
    const v1 = [task('T1'), task('T2')];
    // (as a real list's frontmatter does when a task is added, T1 tells the versions apart)
    const v2 = [claimed('T1', 'codex'), task('T2'), task('T3', { title: "Ana's extra task" })];
    const ledger = written([v1, v2]);
    // the person's buffer is v1 (T1 and T2 as they were then), and they added a T3 of their own
    const r = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1'), task('T2'), task('T3', { title: "Bob's extra task" })]) });
    expect(r.origin).toBe(1);
    expect(r.items.find((i) => i.key === 'T3')!.item.plan.title).toBe("Bob's extra task");
    expect(r.conflicts).toEqual([expect.objectContaining({ item: 'T3', part: 'plan', kept: 'person', agentboard: expect.objectContaining({ title: "Ana's extra task" }) })]);
    // the same edit from a buffer that had T3 already: the person's rewrite of it, nothing to report
    const later = mergeItems({ file: 'tasks.md', ...ledger, person: person([claimed('T1', 'codex'), task('T2', { description: 'Do it now.' }), task('T3', { title: "Bob's title" })]) });
    expect(later.origin).toBe(2);
    expect(later.conflicts).toEqual([]);
  });

  it('keeps a task the person\'s file lacks: silently when it was added after the buffer was loaded, reported otherwise', () => {
    const v1 = [task('T1'), task('T2')];
    const v2 = [task('T1'), task('T2'), task('T3')];
    const ledger = written([v1, v2]);
    const stale = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1'), task('T2')]) });
    expect(stale.items.map((i) => i.key)).toEqual(['T1', 'T2', 'T3']);
    expect(stale.conflicts).toEqual([]);
    // a half-saved file: everything after T1 is missing
    const half = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1')]) });
    expect(half.items.map((i) => i.key)).toEqual(['T1', 'T2', 'T3']);
    expect(half.conflicts.map((c) => [c.item, c.part])).toEqual([['T2', 'removed']]);
    // a file that says it removed T2 (its retired ids name it): T2 goes, and nothing is reported
    const retired = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1'), task('T3')]), dropped: new Set(['T2']) });
    expect(retired.items.map((i) => i.key)).toEqual(['T1', 'T3']);
    expect(retired.conflicts).toEqual([]);
  });

  it('takes a task the person added, in the person\'s order', () => {
    const ledger = written([[task('T1'), task('T2')]]);
    const r = mergeItems({ file: 'tasks.md', ...ledger, person: person([task('T1'), task('T9', { title: 'New by hand' }), task('T2')]) });
    expect(r.items.map((i) => i.key)).toEqual(['T1', 'T9', 'T2']);
    expect(r.items.find((i) => i.key === 'T9')!.same).toBe(true);
  });

  it('keeps both sides of a log and the person\'s wording of a shared entry', () => {
    const note = { author: 'codex', at: '2026-11-22T10:05:00.000Z', text: 'Chose a flie lock.' };
    const later = { author: 'codex', at: '2026-11-22T10:06:00.000Z', text: 'Tests pass.' };
    const ledger = written([[claimed('T1', 'codex', { notes: [note] })], [claimed('T1', 'codex', { notes: [note, later] })]]);
    const mine = { author: 'human:dana', at: '2026-11-22T10:07:00.000Z', text: 'Looks good.' };
    const r = mergeItems({ file: 'tasks.md', ...ledger, person: person([claimed('T1', 'codex', { notes: [{ ...note, text: 'Chose a file lock.' }, mine] })]) });
    expect(r.items[0]!.item.logs.notes!.map((n) => n.text)).toEqual(['Chose a file lock.', 'Tests pass.', 'Looks good.']);
  });

  it('changes nothing when the file is what agentboard wrote', () => {
    const ledger = written([[claimed('T1', 'codex'), task('T2')]]);
    const r = mergeItems({ file: 'tasks.md', ...ledger, person: person([claimed('T1', 'codex'), task('T2')]) });
    expect(r.items.every((i) => i.same)).toBe(true);
    expect(r.conflicts).toEqual([]);
  });

  it('never takes a decision from a save (a status, a task added to an approved list), unless git brought it', () => {
    const meta = (status: 'submitted' | 'approved') => metaItem({ id: 'c/tasks', change_id: 'c', type: 'tasks', status, created: 't0', updated: 't0', author: 'planner', revision: 1, notes: [], feedback: [] }, {}, { preamble: '' });
    const history: Record<string, History> = { [META_ITEM]: [[1, ...fingerprints(meta('submitted'))]], T1: [[1, ...fingerprints(taskItem(task('T1')))]] };
    const base = new Map([[META_ITEM, meta('submitted')], ['T1', taskItem(task('T1'))]]);
    const decisions = { key: META_ITEM, state: (state: Item['state']) => state.status };
    const approved = new Map([[META_ITEM, meta('approved')], ['T1', taskItem(task('T1'))]]);
    const forged = mergeItems({ file: 'tasks.md', version: 1, base, history, person: approved, decisions, committed: () => null });
    expect(forged.items.find((i) => i.key === META_ITEM)!.item.state.status).toBe('submitted');
    expect(forged.refused).toEqual([expect.objectContaining({ item: META_ITEM, part: 'state', kept: 'agentboard', person: expect.objectContaining({ status: 'approved' }) })]);
    expect(forged.conflicts).toEqual(forged.refused);
    // the version the commit checked out holds it: another clone's approval, pulled
    const pulled = mergeItems({ file: 'tasks.md', version: 1, base, history, person: approved, decisions, committed: () => approved });
    expect(pulled.items.find((i) => i.key === META_ITEM)!.item.state.status).toBe('approved');
    expect(pulled.refused).toEqual([]);

    // a task added to a list agentboard wrote as approved
    const list = new Map([[META_ITEM, meta('approved')], ['T1', taskItem(task('T1'))]]);
    const listHistory: Record<string, History> = { [META_ITEM]: [[1, ...fingerprints(meta('approved'))]], T1: history.T1! };
    const added = new Map([...list, ['T9', taskItem(task('T9', { priority: 'urgent' }))]]);
    const left = mergeItems({ file: 'tasks.md', version: 1, base: list, history: listHistory, person: added, decisions, closed: true, committed: () => null });
    expect(left.items.map((i) => i.key)).toEqual([META_ITEM, 'T1']);
    expect(left.refused).toEqual([expect.objectContaining({ item: 'T9', part: 'added', kept: 'agentboard', agentboard: null })]);
    const brought = mergeItems({ file: 'tasks.md', version: 1, base: list, history: listHistory, person: added, decisions, closed: true, committed: () => added });
    expect(brought.items.map((i) => i.key)).toEqual([META_ITEM, 'T1', 'T9']);
    expect(brought.refused).toEqual([]);
  });
});

describe('merging a whole write with a person\'s edit not merged yet', () => {
  const lines = (text: string) => text.split('\n');

  it('applies both sides\' changes to different lines, and keeps the person\'s lines where both changed the same ones', () => {
    const base = lines('# Spec\n\n### R1\n\nOld one.\n\n### R2\n\nOld two.\n');
    expect(merge3(base, lines('# Spec\n\n### R1\n\nPerson one.\n\n### R2\n\nOld two.\n'), lines('# Spec\n\n### R1\n\nOld one.\n\n### R2\n\nWriter two.\n'))).toEqual({
      lines: lines('# Spec\n\n### R1\n\nPerson one.\n\n### R2\n\nWriter two.\n'),
      conflicts: [],
    });
    const clash = merge3(base, lines('# Spec\n\n### R1\n\nPerson one.\n\n### R2\n\nOld two.\n'), lines('# Spec\n\n### R1\n\nWriter one.\n\n### R2\n\nOld two.\n'));
    expect(clash.lines.join('\n')).toContain('Person one.');
    expect(clash.conflicts).toEqual([{ at: 4, length: 1, mine: ['Person one.'], theirs: ['Writer one.'] }]);
    // the same change on both sides is no conflict; lines added at one place by both are
    expect(merge3(base, lines('x\n' + base.join('\n')), lines('x\n' + base.join('\n'))).conflicts).toEqual([]);
    expect(merge3(base, lines('x\n' + base.join('\n')), lines('y\n' + base.join('\n'))).conflicts).toHaveLength(1);
  });

  it('names a body\'s conflict by the heading of its part', () => {
    const base = '\n# Spec\n\n### R1: Claims\n\nOld.\n';
    const merged = mergeBody('spec.md', base, base.replace('Old.', 'Person.'), base.replace('Old.', 'Writer.'));
    expect(merged.body).toBe(base.replace('Old.', 'Person.'));
    expect(merged.conflicts).toEqual([{ file: 'spec.md', item: 'R1: Claims', part: 'plan', kept: 'person', agentboard: 'Writer.', person: 'Person.' }]);
  });

  it('merges a task field by field: the writer\'s where only it changed, the person\'s where only they did or both did (recorded)', () => {
    const base = task('T3', { description: 'Third.' });
    const person = task('T3', { description: 'Third, by hand.', priority: 'low' });
    // an edit made from the person's task (task update): it sets the title, the description and the priority
    const edited = mergeTask('tasks.md', base, person, { ...person, title: 'Renamed', description: 'Rewritten.', priority: 'high' }, 'person');
    expect(edited.task).toMatchObject({ title: 'Renamed', description: 'Third, by hand.', priority: 'low' });
    expect(edited.conflict).toEqual({ file: 'tasks.md', item: 'T3', part: 'plan', kept: 'person', agentboard: { description: 'Rewritten.', priority: 'high' }, person: { description: 'Third, by hand.', priority: 'low' } });
    // a list sent whole, made from the base: its unchanged task leaves the person's text
    const sent = mergeTaskList('tasks.md', new Map([['T3', base]]), [person], [task('T3', { description: 'Third.', title: 'Three' })]);
    expect(sent.tasks).toEqual([{ ...person, title: 'Three' }]);
    expect(sent.conflicts).toEqual([]);
  });
});
