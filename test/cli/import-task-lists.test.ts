/**
 * `agentboard import` on task lists as real repositories write them: ids with a letter after their
 * number (T105a), labels inside the bold with the id (**T033 [P]**), ids of capitals and dashes
 * (**T-NEW-A**), dependencies joined by "+" or "&"; items marked [-] or [~]; a task description
 * longer than the board allows; a title that says more than the list's name.
 * Sources are written in temp folders.
 */
import { describe, expect, it } from 'vitest';
import { ok, read } from '../helpers.js';
import { imported, report, row, SK_SPEC, source } from './import-helpers.js';

const warnings = (data: any, file: string) => report(data, file).findings.filter((f: any) => f.level !== 'info');
const taskList = async (board: string, change: string) => (await ok(board, ['task', 'list', '--change', change])).tasks;

describe('spec-kit task ids in bold with words after them (**T015 (partial) [P]**)', () => {
  it('are the ids, the labels are read and the words go on before the title, so no id is given that the list uses', async () => {
    const tasks = '# Tasks: Rooms\n\n## Phase 1\n\n- [ ] **T014 [P]** Build the index\n- [ ] **T015 (partial) [P]** Start the search box\n- [ ] **T060 partial [P]** Later piece (depends on T015)\n- [x] **T033[P]** Labels tight\n';
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'rooms').status).toBe('imported');
    const landed = await taskList(board, 'rooms');
    expect(landed.map((t: any) => [t.id, t.title, t.status, t.depends])).toEqual([
      ['T014', 'Build the index', 'todo', []],
      ['T015', '(partial) Start the search box', 'todo', []],
      ['T060', 'partial Later piece (depends on T015)', 'todo', ['T015']],
      ['T033', 'Labels tight', 'done', []],
    ]);
    expect(warnings(data, 'specs/001-rooms/tasks.md')).toEqual([]);
  });
});

describe('spec-kit task ids with a letter after the number (T105a), labels inside the bold (**T033 [P]**), or of capitals and dashes (**T-NEW-A**)', () => {
  it('are the ids, the labels are read, dependencies joined by "+", "&" and "and" name them, and an item with no id gets a number no item gives', async () => {
    const tasks = [
      '# Tasks: Rooms',
      '',
      '## Phase 1: Setup',
      '',
      '- [x] T001 Create the project',
      '- [x] T001a Add the fixtures',
      '- [ ] Write the readme',
      '- [ ] **T002 [P]** Configure the linter',
      '- [ ] **T003 [P] [US1]** Add the booking form',
      '- [ ] **T-NEW-A** Check the form by hand',
      '- [ ] **T004** Wire the form (depends on T002 + T003 & T001a and T-NEW-A)',
      '- [ ] T3 Set up K8s',
      '- [ ] K8s manifests for the service',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', tasks: { total: 9, done: 2 }, findings: [] });
    // The items with no id are numbered past every id the list gives (T3 and T003 are both there, T004 too): no id is given twice, nothing depends on a task that is not there.
    expect(warnings(data, 'specs/001-rooms/tasks.md')).toEqual([
      {
        level: 'warning',
        line: 7,
        message: '2 items of the list give no id agentboard reads, unlike the others: they are T5 (line 7), T9 (line 13) on the board, numbers no item of the list gives',
        fix: 'nothing to do, or give each item an id of its own (T012, 1.2, T012a) in the source and import again',
      },
    ]);
    expect((await taskList(board, 'rooms')).map((t: any) => [t.id, t.title, t.depends])).toEqual([
      ['T001', 'Create the project', []],
      ['T001a', 'Add the fixtures', ['T001']],
      ['T5', 'Write the readme', ['T001a']],
      ['T002', 'Configure the linter', []],
      ['T003', 'Add the booking form', []],
      ['T-NEW-A', 'Check the form by hand', ['T5']],
      ['T004', 'Wire the form (depends on T002 + T003 & T001a and T-NEW-A)', ['T-NEW-A', 'T002', 'T003', 'T001a']],
      ['T3', 'Set up K8s', ['T004']],
      ['T9', 'K8s manifests for the service', ['T3']],
    ]);
    expect((await ok(board, ['task', 'show', 'rooms/T003'])).task.description).toBe('User story US1: Book');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('items marked [-] (cancelled or put off) or with another mark ([~], partly done)', () => {
  it('[-] items are not tasks, their lines kept with the list; a [~] item is to do, its mark named; a warning names each', async () => {
    const tasks = [
      '# Tasks: Rooms',
      '',
      '## Phase 1: Web',
      '',
      '- [x] T001 Create the project',
      '- [~] T002 Run the quickstart by hand',
      '- [ ] T003 Wire the form (depends on T002, T004)',
      '',
      '## Phase 2: Mobile',
      '',
      '- [-] T004 Scaffold the mobile app',
      '  - File: `apps/mobile/app.json` (CREATE)',
      '  - [ ] T004a Configure the bundle id',
      '- [-] Ship the mobile app',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', tasks: { total: 3, done: 1 }, findings: [] });
    expect(warnings(data, 'specs/001-rooms/tasks.md')).toEqual([
      {
        level: 'warning',
        line: 11,
        message: 'T004 (line 11), T004a (line 13), the item on line 14 are marked [-] (or nested under an item so marked), not to be done (cancelled or put off), so they are not tasks on the board and no agent is handed them: their lines stay in the text of the task list, as written',
        fix: 'nothing to do; to do one of them after all, add it to the list on the board (`agentboard task add`)',
      },
      {
        level: 'warning',
        line: 6,
        message: 'T002 (line 6) is marked [~], which agentboard does not read as done: it is to do on the board, the mark named at the top of its description',
        fix: 'check what of each is done: `agentboard task done` for one finished, `agentboard task rm` for one not to be done',
      },
      {
        level: 'warning',
        line: 7,
        message: 'task T003 depends on T004, which the list marks not to be done; left out of its dependencies',
        fix: 'nothing to do, or add the dependency back on the board if the task is added after all',
      },
    ]);
    expect((await taskList(board, 'rooms')).map((t: any) => [t.id, t.status, t.depends])).toEqual([
      ['T001', 'done', []],
      ['T002', 'todo', ['T001']],
      ['T003', 'todo', ['T002']],
    ]);
    expect((await ok(board, ['task', 'show', 'rooms/T002'])).task.description).toBe('The source marks this task [~], which agentboard does not read as done: see what of it is done before working on it.');
    expect(read(board, 'agentd/changes/rooms/tasks.md')).toContain('\n\\## Phase 2: Mobile\n\n- [-] T004 Scaffold the mobile app\n  - File: `apps/mobile/app.json` (CREATE)\n  - [ ] T004a Configure the bundle id\n- [-] Ship the mobile app\n');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a task whose description is longer than the 2,000 characters the board allows', () => {
  it('lands valid: the description keeps its start, cut after a sentence, and the rest is the task\'s first note, whole, with a warning', async () => {
    const steps = Array.from({ length: 30 }, (_, i) => `- Step ${i + 1}: move the booking rules of part ${i + 1} into the service, and check that the old path is gone.`);
    const tasks = `# Tasks: Rooms\n\n## Phase 1: Setup\n\n- [x] T001 Create the project\n- [ ] T002 Move the booking rules\n${steps.map((s) => `  ${s}`).join('\n')}\n`;
    const whole = steps.join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', tasks: { total: 2, done: 1 }, findings: [] });
    const task = (await ok(board, ['task', 'show', 'rooms/T002'])).task;
    expect(task.description.length).toBeLessThanOrEqual(2000);
    expect(task.description).toMatch(/old path is gone\.\n\n\(Continued in the task's first note\.\)$/);
    const head = task.description.replace(/\n\n\(Continued in the task's first note\.\)$/, '');
    expect(task.notes).toEqual([{ author: 'human:tester', at: expect.any(String), text: whole.slice(head.length + 1) }]);
    expect(`${head}\n${task.notes[0].text}`).toBe(whole);
    expect(warnings(data, 'specs/001-rooms/tasks.md')).toEqual([
      {
        level: 'warning',
        line: 6,
        message: `the description of task T002 has ${whole.length} characters, more than the 2000 agentboard allows; its first ${head.length} are the description and the rest is the task's first note`,
        fix: 'nothing to do, or shorten the description on the board',
      },
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a task list whose "# " title says more than its name ("# Implementation Tasks (Phase 2: Builds on add-zod-validation)")', () => {
  it('keeps the title line in the text of the list, as written; a title after "Tasks:" or "Tasks —" is the list\'s title', async () => {
    const PROPOSAL = '# Proposal\n\n## Why\n\nPeople lose their place in long lists of bookmarks, so the list should remember it.\n\n## What Changes\n\n- Keep the place.\n\n## Impact\n\n- Web client.\n';
    const DELTA = '## ADDED Requirements\n\n### Requirement: Export bookmarks\nThe system SHALL export every bookmark.\n\n#### Scenario: Export\n- **WHEN** they export them\n- **THEN** the file holds them\n';
    const TASKS = '\n\n## 1. Work\n- [x] 1.1 Do it\n- [ ] 1.2 Check it\n';
    const change = (id: string, title: string) => ({ [`openspec/changes/${id}/proposal.md`]: PROPOSAL, [`openspec/changes/${id}/specs/bookmarks/spec.md`]: DELTA, [`openspec/changes/${id}/tasks.md`]: `${title}${TASKS}` });
    const { board, code, data } = await imported('openspec', source({ ...change('phase-two', '# Implementation Tasks (Phase 2: Builds on add-zod-validation)'), ...change('show-cmd', '# Implementation Tasks — Add Interactive Show Command') }));
    expect(code).toBe(0);
    expect(row(data, 'phase-two')).toMatchObject({ status: 'imported', tasks: { total: 2, done: 1 }, findings: [] });
    expect(read(board, 'agentd/changes/phase-two/tasks.md')).toContain('\n# Tasks: phase-two\n\n\\# Implementation Tasks (Phase 2: Builds on add-zod-validation)\n\n## 1.1: Do it\n');
    expect(report(data, 'openspec/changes/phase-two/tasks.md').lines[0]).toEqual({ line: 1, text: '# Implementation Tasks (Phase 2: Builds on add-zod-validation)', to: 'the text of the task list, as written: it says more than a title' });
    expect(read(board, 'agentd/changes/show-cmd/tasks.md')).toContain('\n# Tasks: Add Interactive Show Command\n\n## 1.1: Do it\n');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('what a task line says of its dependencies beside their ids: a remark in parentheses, words after the ids, an HTML comment', () => {
  it('only the ids of a dependency phrase are dependencies; a "Depends" line that says more stays in the description, and one that names no task is said', async () => {
    const tasks = [
      '# Tasks: Rooms',
      '',
      '## Phase 1: Setup',
      '',
      '- [ ] T009 [P] Draft the schema',
      '- [ ] T010 [P] Make the schema',
      '- [ ] T011 [P] Make the API',
      '- [ ] T012 [P] Do x (depends on T010) <!-- was T009 -->',
      '- [ ] T013 [P] Do y <!-- (depends on T009) -->',
      '- [ ] T014 [P] Do z (depends on T010 for the schema)',
      '- [ ] T015 [P] Do w (depends on T010 (partly), T011)',
      '- [ ] T016 [P] Do v (depends on T011 — see the note)',
      '- [ ] T017 [P] Do u',
      '  - **Depends on**: T011 (understanding the API)',
      '- [ ] T018 [P] Do t',
      '  - Depends: T010 <!-- T009 -->',
      '- [ ] T019 [P] Check it all',
      '  - **Depends on**: all previous tasks',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', tasks: { total: 11, done: 0 }, findings: [] });
    expect((await taskList(board, 'rooms')).map((t: any) => [t.id, t.depends])).toEqual([
      ['T009', []],
      ['T010', []],
      ['T011', []],
      ['T012', ['T010']],
      ['T013', []],
      ['T014', ['T010']],
      ['T015', ['T010', 'T011']],
      ['T016', ['T011']],
      ['T017', ['T011']],
      ['T018', ['T010']],
      ['T019', []],
    ]);
    expect((await ok(board, ['task', 'show', 'rooms/T017'])).task.description).toBe('- **Depends on**: T011 (understanding the API)');
    expect((await ok(board, ['task', 'show', 'rooms/T018'])).task.description).toBe('- Depends: T010 <!-- T009 -->');
    expect((await ok(board, ['task', 'show', 'rooms/T019'])).task.description).toBe('- **Depends on**: all previous tasks');
    expect(warnings(data, 'specs/001-rooms/tasks.md')).toEqual([
      {
        level: 'warning',
        line: 18,
        message: 'task T019: its "Depends on" line names no task by its id (T012, 1.2), so no dependency was read from it; the line stays in the task\'s description',
        fix: 'add the dependencies it means on the board (`agentboard task update`), or name the tasks by their ids in the source and import again',
      },
    ]);
    const to = (line: number) => report(data, 'specs/001-rooms/tasks.md').lines.find((l: any) => l.line === line).to;
    expect([to(9), to(14), to(16)]).toEqual(['task T013 (parallel)', "task T017 depends on T011 (the line kept in its description: it says more)", "task T018 depends on T010 (the line kept in its description: it says more)"]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a task list kept in attachments/ because it cannot land (no proposal and spec before it)', () => {
  it('is not said to give ids on the board, rename a task or leave out a dependency: only why it is kept, and where', async () => {
    const tasks = [
      '# Tasks: Rooms',
      '',
      '## Phase 1: Setup',
      '',
      '- [ ] T006 Make the schema',
      '- [ ] T006 Make the API',
      '- [ ] Write the readme',
      '- [ ] T007 Wire it (depends on T099)',
      '',
    ].join('\n');
    const sk = await imported('spec-kit', source({ 'specs/001-rooms/tasks.md': tasks }));
    expect(sk.code).toBe(0);
    expect(row(sk.data, 'rooms')).toMatchObject({ status: 'imported', documents: [], attachments: ['attachments/tasks.md'], tasks: { total: 0, done: 0 } });
    expect(report(sk.data, 'specs/001-rooms/tasks.md')).toMatchObject({ to: ['attachments/tasks.md'], lines: [] });
    expect(report(sk.data, 'specs/001-rooms/tasks.md').findings.map((f: any) => f.message)).toEqual([
      'the change has no proposal and no spec, which come before its tasks, so no tasks.md was written: this file is kept as agentd/changes/rooms/attachments/tasks.md',
    ]);
    expect(read(sk.board, 'agentd/changes/rooms/attachments/tasks.md')).toBe(tasks);

    const os = await imported('openspec', source({ 'openspec/changes/rooms/tasks.md': tasks }));
    expect(os.code).toBe(0);
    expect(report(os.data, 'openspec/changes/rooms/tasks.md').findings.map((f: any) => f.message)).toEqual([
      'the change has no proposal and no spec, which come before its tasks, so no tasks.md was written: this file is kept as agentd/changes/rooms/attachments/tasks.md',
    ]);
  });
});
