/**
 * `agentboard import` on shapes the tools' templates do not show but boards made with them hold:
 * documents whose names differ in case (Tasks.md, SPEC.md), a spec-kit spec.md with sections named
 * as parts of the board's spec or of spec-kit's first template, a change that lands with no
 * document, run again, a file action in the past tense, a specs/ folder that is not spec-kit's, a
 * spec-kit spec written in Chinese or with questions left open, an agentd issue whose severity is
 * struck, task ids in bold, a file action that is none, a proposal whose parts have other names.
 * Sources are written in temp folders.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ok, read, showDocument, snapshot, tempDir } from '../helpers.js';
import { imported, PERSON, report, row, SK_SPEC, SK_TASKS, source } from './import-helpers.js';

const PROPOSAL = '# Proposal\n\n## Why\n\nPeople lose their place in long lists of bookmarks, so the list should remember it.\n\n## What Changes\n\n- Keep the place.\n\n## Impact\n\n- Web client.\n';
const DELTA = '## ADDED Requirements\n\n### Requirement: Export bookmarks\nThe system SHALL export every bookmark.\n\n#### Scenario: Export\n- **WHEN** they export them\n- **THEN** the file holds them\n';
const TASKS = '# Tasks\n\n## 1. Work\n- [x] 1.1 Do it\n- [ ] 1.2 Check it\n';
const AGENTD_PROPOSAL = '# Change: notes\n\n## Summary\n\nKeep notes.\n\n## Why\n\nPeople write notes on paper and lose them, so the app should keep their notes for them.\n\n## What Changes\n\n- Notes.\n\n## Impact\n\n- Storage.\n';
const AGENTD_SPEC = '# Specification: Notes\n\n## Overview\n\nPeople keep notes in the app, so that no note written there is ever lost.\n\n## Requirements\n\n### R1: Keep notes\n\nThe app MUST keep notes.\n\n## Acceptance Criteria\n\n### Scenario: Keep\n\n- **WHEN** a person writes a note\n- **THEN** it is kept\n';
const AGENTD_TASKS = '# Tasks\n\n## 1. Data Layer\n\n- [ ] 1.1 Store notes\n  - File: `src/notes.rs` (CREATE)\n';

describe('documents whose names differ in case (Tasks.md, SPEC.md)', () => {
  it('are read as the documents they are, from all three tools, and the report says so', async () => {
    const os = await imported('openspec', source({ 'openspec/changes/keep-place/Proposal.md': PROPOSAL, 'openspec/changes/keep-place/specs/bookmarks/SPEC.md': DELTA, 'openspec/changes/keep-place/Tasks.md': TASKS }));
    expect(os.code).toBe(0);
    expect(row(os.data, 'keep-place')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'], attachments: [], tasks: { total: 2, done: 1 } });
    expect(report(os.data, 'openspec/changes/keep-place/Tasks.md')).toMatchObject({ to: ['tasks.md'], findings: [{ level: 'info', message: 'read as tasks.md: its name differs from it in case alone', fix: 'nothing to do' }] });
    expect((await showDocument(os.board, 'keep-place', 'spec')).content.requirements.map((r: any) => r.id)).toEqual(['BOOKMARKS-R1']);

    const sk = await imported('spec-kit', source({ 'specs/001-rooms/Spec.md': SK_SPEC, 'specs/001-rooms/TASKS.md': SK_TASKS }));
    expect(sk.code).toBe(0);
    expect(row(sk.data, 'rooms')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'], attachments: [], tasks: { total: 2, done: 1 } });

    const ad = await imported('agentd', source({ 'agentd/config.toml': '', 'agentd/changes/notes/PROPOSAL.md': AGENTD_PROPOSAL, 'agentd/changes/notes/specs/notes.md': AGENTD_SPEC, 'agentd/changes/notes/Tasks.md': AGENTD_TASKS }));
    expect(ad.code).toBe(0);
    expect(row(ad.data, 'notes')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'], attachments: [], tasks: { total: 1, done: 0 } });

    for (const board of [os.board, sk.board, ad.board]) expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });

  it('beside the file of the exact name, the other is kept in attachments/ and a warning says why', async () => {
    const { code, data } = await imported('openspec', source({ 'openspec/changes/keep-place/proposal.md': PROPOSAL, 'openspec/changes/keep-place/specs/bookmarks/spec.md': DELTA, 'openspec/changes/keep-place/tasks.md': TASKS, 'openspec/changes/keep-place/TASKS.md': '- [ ] 9.9 Old list\n' }));
    expect(code).toBe(0);
    expect(row(data, 'keep-place')).toMatchObject({ documents: ['proposal.md', 'spec.md', 'tasks.md'], attachments: ['attachments/TASKS.md'], tasks: { total: 2, done: 1 } });
    expect(report(data, 'openspec/changes/keep-place/TASKS.md').findings).toEqual([
      expect.objectContaining({ level: 'warning', message: 'its name differs from tasks.md in case alone, and tasks.md is beside it: tasks.md is read as the document, this file is kept as it is' }),
    ]);
  });
});

describe('a spec-kit spec.md with sections named as parts of the board\'s spec (Overview, Data Model, Acceptance Criteria)', () => {
  it('each is that part, or kept under a heading of its own: the spec lands valid, nothing of it dropped', async () => {
    const spec = SK_SPEC.replace('## User Scenarios', '## Overview\n\nRooms are booked at the front desk today; people should book them themselves.\n\n## User Scenarios') +
      '\n## Data Model\n\n- **Booking**: a room, a person and a time.\n\n## Acceptance Criteria\n\n- [ ] A booking shows on the room\'s page.\n';
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', documents: ['proposal.md', 'spec.md'] });
    const content = (await showDocument(board, 'rooms', 'spec')).content;
    expect(content.overview).toBe('Rooms are booked at the front desk today; people should book them themselves.\n\n### User Story 1 - Book (Priority: P1)\n\nA person books a room.\n\n**Acceptance Scenarios**:');
    expect(content.data_model).toBe('- **Booking**: a room, a person and a time.');
    expect(content.sections.map((s: any) => [s.heading, s.text])).toEqual([
      ['', '**Input**: User description: "Let people book meeting rooms without asking the front desk."'],
      ['Acceptance Criteria (as written in spec-kit)', "- [ ] A booking shows on the room's page."],
    ]);
    expect(content.scenarios).toHaveLength(1);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe("a spec.md of spec-kit's first template (one \"### Primary User Story\", then \"### Acceptance Scenarios\")", () => {
  it('reads its acceptance scenarios, wrapped or not, so the spec lands valid, and its primary user story as what the change does', async () => {
    const spec = [
      '# Feature Specification: Rooms',
      '',
      '**Input**: User description: "Let people book meeting rooms without asking the front desk."',
      '',
      '## User Scenarios & Testing *(mandatory)*',
      '',
      '### Primary User Story',
      'A person books a free room for a meeting.',
      '',
      '### Acceptance Scenarios',
      '1. **Given** a free room, **When** a person books it,',
      '   **Then** it is booked.',
      '2. **Given** a booked room, **When** a person books it, **Then** they are told it is taken.',
      '',
      '### Edge Cases',
      '- What happens when two people book at once?',
      '',
      '## Requirements *(mandatory)*',
      '',
      '### Functional Requirements',
      '- **FR-001**: System MUST let people book rooms.',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', documents: ['proposal.md', 'spec.md'] });
    expect(report(data, 'specs/001-rooms/spec.md').findings.filter((f: any) => f.level !== 'info').map((f: any) => f.message)).toEqual([
      'spec-kit\'s spec.md has no Impact, which agentboard asks for; the proposal says "Not stated in spec-kit\'s spec.md."',
    ]);
    expect((await showDocument(board, 'rooms', 'proposal')).content.what_changes).toBe('- Primary User Story: A person books a free room for a meeting.');
    const content = (await showDocument(board, 'rooms', 'spec')).content;
    expect(content.scenarios.map((s: any) => [s.name, s.given, s.when, s.then])).toEqual([
      ['Acceptance scenario 1', 'a free room', 'a person books it', 'it is booked.'],
      ['Acceptance scenario 2', 'a booked room', 'a person books it', 'they are told it is taken.'],
    ]);
    expect(content.overview).toBe('### Primary User Story\nA person books a free room for a meeting.\n\n### Acceptance Scenarios\n\n### Edge Cases\n- What happens when two people book at once?');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec.md whose user stories stand under its title, with no "## User Scenarios" section', () => {
  it('reads them as its user scenarios: the stories make What Changes, their scenarios the spec\'s, and the spec lands valid', async () => {
    const spec = [
      '# Feature Specification: Rooms',
      '',
      '### User Story 1 - Book a room (Priority: P1)',
      '',
      'A person books a free room.',
      '',
      '1. **Given** a free room, **When** a person books it, **Then** it is booked.',
      '',
      '## Requirements',
      '',
      '- **FR-001**: System MUST let people book rooms.',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/20250101-120000-rooms/spec.md': spec }));
    expect(code).toBe(0);
    expect(report(data, 'specs/20250101-120000-rooms/spec.md').findings.filter((f: any) => f.level === 'error')).toEqual([]);
    expect(report(data, 'specs/20250101-120000-rooms/spec.md').findings).toContainEqual(expect.objectContaining({ level: 'info', line: 3, message: "the user stories under the title, with no section of their own, are read as spec-kit's User Scenarios" }));
    const changeId = row(data, 'rooms').change_id;
    expect((await showDocument(board, changeId, 'proposal')).content.what_changes).toBe('- User Story 1 - Book a room (P1)');
    expect((await showDocument(board, changeId, 'spec')).content.scenarios.map((s: any) => [s.name, s.given, s.when, s.then])).toEqual([['User Story 1, scenario 1: Book a room', 'a free room', 'a person books it', 'it is booked.']]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit task list in Spanish that names a dependency', () => {
  it('reads "(depende de T002)" as "(depends on T002)"', async () => {
    const spec = '# Especificación: Búsqueda\n\n**Entrada**: Descripción del usuario: "buscar mis reservas por fecha para encontrarlas sin recorrer la lista entera"\n\n## Escenarios de Usuario\n\n### Historia de Usuario 1 - Buscar (Prioridad: P1)\n\n1. **Dado** una reserva, **Cuando** la busco por su fecha, **Entonces** la veo.\n\n## Requisitos\n\n- **RF-001**: El sistema DEBE buscar reservas.\n';
    const tasks = '# Tareas: Búsqueda\n\n## Fase 1: Base\n\n- [ ] T001 Modelo\n- [ ] T002 [P] Índice\n- [ ] T003 [P] Vista de resultados (depende de T002)\n';
    const { board, code, data } = await imported('spec-kit', source({ 'specs/003-busqueda/spec.md': spec, 'specs/003-busqueda/tasks.md': tasks }));
    expect(code).toBe(0);
    const changeId = row(data, 'busqueda').change_id;
    expect((await ok(board, ['task', 'show', `${changeId}/T003`])).task.depends).toContain('T002');
  });
});

describe('an agentd spec whose Overview is shorter than the board asks for (agentd asks for none)', () => {
  it('lands valid, a sentence saying the source gives no more added, with a warning', async () => {
    const spec = AGENTD_SPEC.replace('People keep notes in the app, so that no note written there is ever lost.', 'Notes kept.');
    const { board, code, data } = await imported('agentd', source({ 'agentd/config.toml': '', 'agentd/changes/notes/proposal.md': AGENTD_PROPOSAL, 'agentd/changes/notes/specs/notes.md': spec, 'agentd/changes/notes/tasks.md': AGENTD_TASKS }));
    expect(code).toBe(0);
    expect(row(data, 'notes').status).toBe('imported');
    expect(report(data, 'agentd/changes/notes/specs/notes.md').findings).toContainEqual(expect.objectContaining({ level: 'warning', message: 'the Overview has 11 characters, fewer than the 50 agentboard asks for; a sentence saying the source gives no more was added' }));
    expect((await showDocument(board, 'notes', 'spec')).content.overview).toBe("Notes kept.\n\nagentd's spec says no more of what the change is.");
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a task list named in the singular (task.md)', () => {
  it('is read as tasks.md when the change has no tasks.md, and the report says so', async () => {
    const { code, data } = await imported('openspec', source({ 'openspec/changes/keep-place/proposal.md': PROPOSAL, 'openspec/changes/keep-place/specs/bookmarks/spec.md': DELTA, 'openspec/changes/keep-place/task.md': TASKS }));
    expect(code).toBe(0);
    expect(row(data, 'keep-place')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'], attachments: [], tasks: { total: 2, done: 1 } });
    expect(report(data, 'openspec/changes/keep-place/task.md')).toMatchObject({ to: ['tasks.md'], findings: [{ level: 'info', message: 'read as tasks.md: its name is the singular of it', fix: 'nothing to do' }] });
  });
});

describe('a change that lands with no document, its files kept in attachments/ only', () => {
  it('is on the board already when the import runs again: unchanged, exit 0, nothing written', async () => {
    const src = source({
      'openspec/changes/only-tasks/tasks.md': TASKS,
      'openspec/changes/only-notes/notes.md': '# Notes\n\nNothing planned yet.\n',
      'openspec/changes/archive/2025-12-08-old-notes/notes.md': '# Notes\n',
    });
    const first = await imported('openspec', src);
    expect(first.code).toBe(0);
    expect(first.data.changes.map((c: any) => [c.change_id, c.status, c.documents, c.attachments])).toEqual([
      ['old-notes', 'imported', [], ['attachments/notes.md']],
      ['only-notes', 'imported', [], ['attachments/notes.md']],
      ['only-tasks', 'imported', [], ['attachments/tasks.md']],
    ]);
    const before = snapshot(join(first.board, 'agentd'));
    const again = await cli(first.board, ['import', 'openspec', src, '--json'], PERSON);
    expect(again.code).toBe(0);
    expect(again.json.data.changes.map((c: any) => [c.change_id, c.status, c.phase])).toEqual([
      ['old-notes', 'unchanged', 'archived'],
      ['only-notes', 'unchanged', 'proposal'],
      ['only-tasks', 'unchanged', 'proposal'],
    ]);
    expect(snapshot(join(first.board, 'agentd'))).toEqual(before);
  });
});

describe('a file action in the past tense ("File: `a.rs` (MODIFIED)"), as agents write it when they tick a task off', () => {
  it('is the action: the task gets its file, and the change lands without errors', async () => {
    const tasks = '# Tasks\n\n## 1. Data Layer\n\n- [x] 1.1 Store notes\n  - File: `src/notes.rs` (MODIFIED)\n  - File: `src/store.rs` (CREATED)\n';
    const { board, code, data } = await imported('agentd', source({ 'agentd/config.toml': '', 'agentd/changes/notes/proposal.md': AGENTD_PROPOSAL, 'agentd/changes/notes/specs/notes.md': AGENTD_SPEC, 'agentd/changes/notes/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'notes')).toMatchObject({ status: 'imported', tasks: { total: 1, done: 1 } });
    expect((await ok(board, ['task', 'show', 'notes/1.1'])).task.files).toEqual([
      { path: 'src/notes.rs', action: 'modify' },
      { path: 'src/store.rs', action: 'create' },
    ]);
  });
});

describe('a specs/ folder that is not spec-kit\'s (no specs/001-name/ in it)', () => {
  it('is refused by name, with what to give instead, and nothing is written', async () => {
    const src = source({ 'specs/models/user_spec.rb': 'describe User do\nend\n', 'specs/README.md': '# Specs\n' });
    const board = tempDir('agentboard-board-');
    const r = await cli(board, ['import', 'spec-kit', src, '--json'], PERSON);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({
      code: 'IMPORT_REFUSED',
      message: 'specs/ in the repository given holds no feature of spec-kit (a folder like specs/001-name/), so there is nothing of spec-kit to import.',
      next_step: "Give as PATH the root of the repository whose specs/ holds spec-kit's features, or run it there.",
    });
    expect(readdirSync(board)).toEqual([]);
  });
});

describe("a feature's documents in a folder of specs/ not named like a feature (specs/user-profile/, specs/api/002-auth/)", () => {
  it('are named in the report with what to do, beside the features imported', async () => {
    const { code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/user-profile/spec.md': SK_SPEC, 'specs/api/002-auth/tasks.md': SK_TASKS, 'specs/README.md': '# Specs\n' }));
    expect(code).toBe(0);
    expect(data.changes.map((c: any) => c.change_id)).toEqual(['rooms']);
    expect(report(data, 'specs/user-profile/spec.md')).toMatchObject({
      to: ['left where it is (specs/user-profile/spec.md)'],
      findings: [{ level: 'warning', message: "specs/user-profile/ holds a feature's spec.md but is not a folder spec-kit names for a feature (specs/NNN-name/), so it is not imported", fix: 'to import it, make it specs/NNN-user-profile/ (NNN a number no other feature has) in the source, and import again' }],
    });
    expect(report(data, 'specs/api/002-auth/tasks.md').findings[0]).toMatchObject({ level: 'warning', fix: 'to import it, make it specs/NNN-auth/ (NNN a number no other feature has) in the source, and import again' });
    expect(report(data, 'specs/README.md').findings[0].level).toBe('info');
  });
});

describe("a spec-kit project that keeps its features in .specify/specs/ (as early ones do)", () => {
  it('is refused with where its features are and the PATH to give, and imports from that PATH', async () => {
    const src = source({ '.specify/memory/constitution.md': '# Constitution\n', '.specify/specs/001-rooms/spec.md': SK_SPEC, '.specify/specs/001-rooms/tasks.md': SK_TASKS });
    const board = tempDir('agentboard-board-');
    const r = await cli(board, ['import', 'spec-kit', src, '--json'], PERSON);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({
      code: 'IMPORT_REFUSED',
      message: 'There is no specs/ folder in the repository given: its features of spec-kit are in .specify/specs/.',
      next_step: 'Give its .specify folder as PATH: `agentboard import spec-kit .specify` in the root of the repository.',
    });
    expect(readdirSync(board)).toEqual([]);
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    for (const args of [['init', '-q'], ['add', '-A'], ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'specs']]) spawnSync('git', args, { cwd: src, env });
    const { board: imports, code, data } = await imported('spec-kit', join(src, '.specify'));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', phase: 'implementation', source: 'specs/001-rooms', tasks: { total: 2, done: 1 } });
    // Where the file is in the commit it names, so that `git show <commit>:<path>` finds it.
    const from = (await showDocument(imports, 'rooms', 'spec')).markdown;
    expect(from).toContain('  path: ".specify/specs/001-rooms/spec.md"\n');
    const commit = /commit: ([0-9a-f]{40})/.exec(from)![1];
    expect(spawnSync('git', ['show', `${commit}:.specify/specs/001-rooms/spec.md`], { cwd: src, encoding: 'utf8' }).stdout).toBe(SK_SPEC);
  });
});

describe('a spec-kit spec.md written in Chinese, headings and labels too', () => {
  it('is read by what its sections hold: stories, scenarios (给定 / 當 / 則, 假如 …), FR requirements and SC criteria', async () => {
    const spec = [
      '# 功能规格说明：会议室预订',
      '',
      '**功能分支**：`001-rooms`',
      '**输入**：用户描述 — 让员工无需前台即可自行预订会议室，并查看每个房间在本周每一天的空闲时间，以免两组人同时使用一个房间。',
      '',
      '## 用户场景与测试 *(必填)*',
      '',
      '### 用户故事 1 — 预订会议室（优先级：P1）',
      '',
      '员工选择空闲的会议室并预订。',
      '',
      '**验收场景**：',
      '',
      '1. **给定** 会议室空闲，**当** 员工预订，**那么** 预订成功。',
      '2. **給定** 會議室已被預訂，**當** 員工預訂，**則** 提示已被佔用。',
      '3. **假如** 员工已有一次预订，**当** 员工取消它，**那么** 房间重新空闲。',
      '',
      '## 需求 *(必填)*',
      '',
      '### 功能需求',
      '',
      '- **FR-001**：系统 MUST 允许员工预订空闲的会议室。',
      '',
      '## 成功标准 *(必填)*',
      '',
      '- **SC-001**：员工在 30 秒内完成一次预订。',
      '',
    ].join('\n');
    const tasks = '# 任务\n\n## 阶段 1：准备\n\n- [X] T001 [US1] 创建项目\n- [ ] T002 [US1] 实现预订表单\n';
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec, 'specs/001-rooms/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'] });
    expect(report(data, 'specs/001-rooms/spec.md').findings.map((f: any) => [f.level, f.line, f.message])).toEqual([
      ['info', 6, 'the section "用户场景与测试 *(必填)*" is read as spec-kit\'s User Scenarios, by what it holds'],
      ['info', 18, 'the section "需求 *(必填)*" is read as spec-kit\'s Requirements, by what it holds'],
      ['info', 24, 'the section "成功标准 *(必填)*" is read as spec-kit\'s Success Criteria, by what it holds'],
    ]);
    const proposal = (await showDocument(board, 'rooms', 'proposal')).content;
    expect([proposal.why, proposal.what_changes, proposal.impact]).toEqual(['用户描述 — 让员工无需前台即可自行预订会议室，并查看每个房间在本周每一天的空闲时间，以免两组人同时使用一个房间。', '- User Story 1 - 预订会议室 (P1)', '- **SC-001**：员工在 30 秒内完成一次预订。']);
    const content = (await showDocument(board, 'rooms', 'spec')).content;
    expect(content.requirements.map((r: any) => [r.id, r.text])).toEqual([['FR-001', '系统 MUST 允许员工预订空闲的会议室。']]);
    expect(content.scenarios.map((s: any) => [s.name, s.given, s.when, s.then])).toEqual([
      ['User Story 1, scenario 1: 预订会议室', '会议室空闲', '员工预订', '预订成功。'],
      ['User Story 1, scenario 2: 预订会议室', '會議室已被預訂', '員工預訂', '提示已被佔用。'],
      ['User Story 1, scenario 3: 预订会议室', '员工已有一次预订', '员工取消它', '房间重新空闲。'],
    ]);
    expect((await ok(board, ['task', 'show', 'rooms/T002'])).task.description).toBe('User story US1: 预订会议室');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md in Russian, its requirements in a table', () => {
  it('reads the steps (Дано / когда / тогда) and one requirement per row, the other cells kept with their headers', async () => {
    const spec = [
      '# Спецификация: восстановить проверки на Windows',
      '',
      '**Создано**: 2026-08-14',
      '',
      '## Пользовательские сценарии и проверка',
      '',
      '### Сценарий 1 — Проверки дают честный результат на Windows (P1)',
      '',
      'Сопровождающий запускает обязательные наборы тестов на Windows и получает честный результат.',
      '',
      '**Сценарии приёмки**:',
      '',
      '1. **Дано** Windows и Python 3.11+, **когда** запускается набор, **тогда** тесты не обращаются к `/dev/null`.',
      '',
      '## Требования',
      '',
      '| ID | Название | Требование | Приоритет |',
      '|----|----------|------------|-----------|',
      '| FR-001 | Платформенный null sink | Contract tests MUST use `os.devnull`. | High |',
      '| FR-002 | Проверка EUID | Import MUST NOT call `os.geteuid`. | |',
      '',
      '| Термин | Значение |',
      '|--------|----------|',
      '| sink | куда пишется вывод |',
      '',
    ].join('\n');
    const tasks = '# Tasks\n\n- [ ] T001 [US1] Заменить /dev/null\n';
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-gates/spec.md': spec, 'specs/001-gates/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'gates')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'] });
    const lines = report(data, 'specs/001-gates/spec.md').lines;
    expect(lines.filter((l: any) => l.line >= 17 && l.line <= 20).map((l: any) => l.to)).toEqual([
      'the requirements of spec.md (the header of their table)',
      'the requirements of spec.md (the header of their table)',
      'requirement FR-001 of spec.md',
      'requirement FR-002 of spec.md',
    ]);
    const content = (await showDocument(board, 'gates', 'spec')).content;
    expect(content.requirements.map((r: any) => [r.id, r.title, r.text])).toEqual([
      ['FR-001', 'Платформенный null sink', 'Contract tests MUST use `os.devnull`.\n(Приоритет: High)'],
      ['FR-002', 'Проверка EUID', 'Import MUST NOT call `os.geteuid`.'],
    ]);
    expect(content.scenarios.map((s: any) => [s.given, s.when, s.then])).toEqual([['Windows и Python 3.11+', 'запускается набор', 'тесты не обращаются к `/dev/null`.']]);
    // A table whose rows are not requirements stays as it is written.
    expect(JSON.stringify(content)).toContain('| sink | куда пишется вывод |');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

/** A spec-kit spec.md of one user story, in the language its request, story and steps are written in. */
function roomsSpec(input: string, story: string, steps: string, requirement = 'The system MUST let people book free rooms.'): string {
  return [
    '# Feature Specification: Rooms',
    '',
    input,
    '',
    '## User Scenarios & Testing *(mandatory)*',
    '',
    story,
    '',
    'People book a meeting room themselves, without asking the front desk, and see when each room is free.',
    '',
    steps,
    '',
    '## Requirements *(mandatory)*',
    '',
    `- **FR-001**: ${requirement}`,
    '',
  ].join('\n');
}

/** The scenarios of a change's spec on the board: name, given, when, then. */
async function scenarios(board: string, id: string): Promise<string[][]> {
  return (await showDocument(board, id, 'spec')).content.scenarios.map((s: any) => [s.name, s.given, s.when, s.then]);
}

describe('a spec-kit spec.md written in Korean or Japanese', () => {
  it('has its request (입력), user stories ("사용자 스토리 1", words apart) and scenarios (주어진 상황 / 언제 / 그러면, 前提条件 / 操作 / 期待結果) read', async () => {
    const korean = roomsSpec('**입력**: 사용자 설명: "직원이 안내 데스크 없이 회의실을 예약할 수 있게 한다"', '### 사용자 스토리 1 - 회의실 예약 (우선순위: P1)', '1. **주어진 상황** 회의실이 비어 있음, **언제** 직원이 예약함, **그러면** 예약이 완료됨', '시스템은 회의실 예약을 MUST 허용한다.');
    const japanese = roomsSpec('**入力**: ユーザー説明: "社員が受付を通さずに会議室を予約できるようにする"', '### ユーザーストーリー 1 - 会議室の予約 (優先度: P1)', '1. **前提条件** 会議室が空いている、**操作** 社員が予約する、**期待結果** 予約が完了する', 'システムは会議室の予約を MUST 許可する。');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': korean, 'specs/002-heya/spec.md': japanese }));
    expect(code).toBe(0);
    for (const id of ['rooms', 'heya']) expect(row(data, id)).toMatchObject({ status: 'imported', phase: 'tasks', documents: ['proposal.md', 'spec.md'] });
    expect(await scenarios(board, 'rooms')).toEqual([['User Story 1, scenario 1: 회의실 예약', '회의실이 비어 있음', '직원이 예약함', '예약이 완료됨']]);
    expect(await scenarios(board, 'heya')).toEqual([['User Story 1, scenario 1: 会議室の予約', '会議室が空いている', '社員が予約する', '予約が完了する']]);
    const proposal = (await showDocument(board, 'rooms', 'proposal')).content;
    expect(proposal.why.split('\n')[0]).toBe('사용자 설명: "직원이 안내 데스크 없이 회의실을 예약할 수 있게 한다"');
    expect(proposal.what_changes).toBe('- User Story 1 - 회의실 예약 (P1)');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md written in Spanish, Portuguese or French', () => {
  it('has its request (Entrada, Entrée), user stories (Historia de Usuario 1, Récit utilisateur 1 – … (Priorité : P1)), scenarios (Dado / Cuando / Entonces …) and story labels of tasks ([HU1]) read', async () => {
    const { board, code, data } = await imported(
      'spec-kit',
      source({
        'specs/001-salas/spec.md': roomsSpec('**Entrada**: Descripción del usuario: "Reservar salas sin pasar por recepción"', '### Historia de Usuario 1 - Reservar una sala (Prioridad: P1)', '1. **Dado** que la sala A está libre, **Cuando** la reservo, **Entonces** la reserva queda registrada.'),
        'specs/001-salas/tasks.md': '# Tareas\n\n## Fase 1: Historia de Usuario 1\n\n- [X] T001 [P] [HU1] Crear el modelo de reserva\n- [ ] T002 [HU1] Crear el formulario de reserva\n',
        'specs/002-salas-pt/spec.md': roomsSpec('**Entrada**: Descrição do usuário: "Reservar salas sem passar pela recepção"', '### História de Usuário 1 - Reservar uma sala (Prioridade: P1)', '1. **Dado** uma sala livre, **Quando** a equipe a reserva, **Então** a reserva fica registrada, **E** aparece na agenda.'),
        'specs/003-salles/spec.md': roomsSpec("**Entrée** : Description utilisateur : « Réserver des salles sans passer par l'accueil »", '### Récit utilisateur 1 – Réserver une salle (Priorité : P1)', '1. **Étant donné** une salle libre, **quand** on la réserve, **alors** la réservation est enregistrée.'),
      }),
    );
    expect(code).toBe(0);
    expect(row(data, 'salas')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'], tasks: { total: 2, done: 1 } });
    for (const id of ['salas-pt', 'salles']) expect(row(data, id)).toMatchObject({ status: 'imported', phase: 'tasks', documents: ['proposal.md', 'spec.md'] });
    expect((await ok(board, ['task', 'show', 'salas/T001'])).task).toMatchObject({ title: 'Crear el modelo de reserva', description: 'User story HU1: Reservar una sala' });
    expect(await scenarios(board, 'salas')).toEqual([['User Story 1, scenario 1: Reservar una sala', 'que la sala A está libre', 'la reservo', 'la reserva queda registrada.']]);
    expect(await scenarios(board, 'salas-pt')).toEqual([['User Story 1, scenario 1: Reservar uma sala', 'uma sala livre', 'a equipe a reserva', 'a reserva fica registrada\nAND aparece na agenda.']]);
    expect(await scenarios(board, 'salles')).toEqual([['User Story 1, scenario 1: Réserver une salle', 'une salle libre', 'on la réserve', 'la réservation est enregistrée.']]);
    const proposal = (await showDocument(board, 'salles', 'proposal')).content;
    expect(proposal.why.split('\n')[0]).toBe("Description utilisateur : « Réserver des salles sans passer par l'accueil »");
    expect(proposal.what_changes).toBe('- User Story 1 - Réserver une salle (P1)');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md whose scenarios list their steps one a bullet, and whose requirements and criteria are RF-### and CE-###', () => {
  it('has each scenario read with all its steps, and the sections read by the ids they hold', async () => {
    const spec = [
      '# Especificación de Funcionalidad: Consultar registros',
      '',
      '## Escenarios de Usuario y Pruebas *(obligatorio)*',
      '',
      '### Historia de Usuario 1 - Consultar el historial propio (Prioridad: P1)',
      '',
      'El propietario consulta el historial de cobros de sus embarcaciones, y solo el de las suyas.',
      '',
      '**Escenarios de Aceptación**:',
      '',
      '1. **Escenario**: Consulta exitosa del historial propio.',
      '   - **Dado** que un propietario tiene reservas con cobros.',
      '   - **Cuando** el propietario solicita su historial.',
      '   - **Entonces** el sistema devuelve sus registros.',
      '   - **Y** ningún registro de otro propietario.',
      '2. **Escenario**: Sin registros.',
      '   - **Dado** que un propietario no tiene reservas.',
      '   - **Cuando** solicita su historial.',
      '   - **Entonces** el sistema devuelve un historial vacío.',
      '',
      '## Requisitos *(obligatorio)*',
      '',
      '- **RF-001**: El sistema MUST devolver solo los registros del propietario.',
      '',
      '## Criterios de Éxito *(obligatorio)*',
      '',
      '- **CE-001**: El 100% de las consultas devuelven solo registros propios.',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/012-consultar/spec.md': spec }));
    expect(code).toBe(0);
    expect(row(data, 'consultar')).toMatchObject({ status: 'imported', phase: 'tasks', documents: ['proposal.md', 'spec.md'] });
    expect(report(data, 'specs/012-consultar/spec.md').findings.filter((f: any) => f.level !== 'info')).toEqual([
      expect.objectContaining({ message: "spec-kit's spec.md has no Why, which agentboard asks for; the proposal says it is not stated" }),
    ]);
    const content = (await showDocument(board, 'consultar', 'spec')).content;
    expect(content.scenarios.map((s: any) => [s.name, s.given, s.when, s.then])).toEqual([
      ['User Story 1, scenario 1: Consultar el historial propio', 'que un propietario tiene reservas con cobros.', 'el propietario solicita su historial.', 'el sistema devuelve sus registros.\nAND ningún registro de otro propietario.'],
      ['User Story 1, scenario 2: Consultar el historial propio', 'que un propietario no tiene reservas.', 'solicita su historial.', 'el sistema devuelve un historial vacío.'],
    ]);
    expect(content.requirements.map((r: any) => r.id)).toEqual(['RF-001']);
    expect((await showDocument(board, 'consultar', 'proposal')).content.impact).toBe('- **CE-001**: El 100% de las consultas devuelven solo registros propios.');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md whose scenarios write each step on a line of its own ("**Given** …," then "**When** …," then "**Then** …")', () => {
  it('has each scenario read, numbered or not, CRLF lines too, and one warning for a scenario it cannot read, not one a line', async () => {
    const spec = [
      '# Feature Spec 001: Event Discovery',
      '',
      '**Input**: Let visitors find the events near them and see who goes, without making an account first.',
      '',
      '## User Scenarios & Testing',
      '',
      '### US-1: Browse Events Without Account (P0)',
      '',
      '**As** a visitor, **I want** to browse events, **So that** I can decide whether to attend.',
      '',
      '**Given** I open the events page with no session,',
      '**When** the page loads,',
      '**Then** I see a list of upcoming events sorted by date.',
      '',
      '**Given** my browser provides geolocation consent,',
      '**When** the page loads,',
      '**Then** events are filtered to my nearest city,',
      '**And** I can change the location.',
      '',
      '### US-2: Filter Events (P0)',
      '',
      '1. **Given** I am on the events page,',
      '**When** I select the category "Workshop",',
      '**Then** only workshops are shown.',
      '2. **Given** I select a date range,',
      '**Then** only events in that range appear.',
      '',
      '## Requirements',
      '',
      '- **FR-001**: The system MUST list upcoming events without a session.',
      '',
    ].join('\r\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-event-discovery/spec.md': spec }));
    expect(code).toBe(0);
    expect(row(data, 'event-discovery')).toMatchObject({ status: 'imported', phase: 'tasks', documents: ['proposal.md', 'spec.md'] });
    const content = (await showDocument(board, 'event-discovery', 'spec')).content;
    expect(content.scenarios.map((s: any) => [s.name, s.given, s.when, s.then])).toEqual([
      ['US-1: Browse Events Without Account (P0), scenario 1', 'I open the events page with no session', 'the page loads', 'I see a list of upcoming events sorted by date.'],
      ['US-1: Browse Events Without Account (P0), scenario 2', 'my browser provides geolocation consent', 'the page loads', 'events are filtered to my nearest city\nAND I can change the location.'],
      ['US-2: Filter Events (P0), scenario 1', 'I am on the events page', 'I select the category "Workshop"', 'only workshops are shown.'],
    ]);
    // The steps read are out of the overview; the scenario with no When stays there, said once at its first line.
    expect(content.overview).not.toContain('the page loads');
    expect(content.overview).toContain('2. **Given** I select a date range,\n**Then** only events in that range appear.');
    expect(report(data, 'specs/001-event-discovery/spec.md').findings.filter((f: any) => f.message.includes('acceptance scenario')).map((f: any) => [f.level, f.line])).toEqual([['warning', 25]]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md whose requirements are headings ("### FR-CLASS-001: Title"), or give their title in parentheses ("- **FR-023 (Expand Audio)**: …")', () => {
  it('has each read with its id and title, and names each line that starts with an id but is no requirement it reads', async () => {
    const spec = [
      '# Feature Specification: Classes',
      '',
      '**Input**: User description: "Let principals organise classes by educational level, and editors expand audio clips."',
      '',
      '## User Scenarios & Testing',
      '',
      '### User Story 1 - Create a class (Priority: P1)',
      '',
      'A principal sets up the classes of the school year, one for each grade.',
      '',
      '1. **Given** a principal, **When** they create a class for grade 3, **Then** it is listed under elementary school.',
      '',
      '## Functional Requirements',
      '',
      '### FR-CLASS-001: Educational Level Classification',
      'The system shall categorize classes into four educational levels:',
      '- Kindergarten',
      '- Elementary school',
      '',
      '### FR-CLASS-002 - Class Creation',
      '',
      'The system shall let principals create classes.',
      '',
      '### Audio',
      '',
      '- **FR-023 (Expand Audio)**: The editor MUST provide a command that expands a composite audio clip.',
      '- **FR-029** (`ConformSequence`): The system MUST provide a command that conforms a sequence.',
      '- **FR-1.1**: The system MUST probe media files natively.',
      '- FR-030 The system MUST keep the audio in sync.',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/003-classes/spec.md': spec }));
    expect(code).toBe(0);
    expect(row(data, 'classes')).toMatchObject({ status: 'imported', phase: 'tasks', documents: ['proposal.md', 'spec.md'] });
    const content = (await showDocument(board, 'classes', 'spec')).content;
    expect(content.requirements.map((r: any) => [r.id, r.title, r.text, r.group ?? null])).toEqual([
      ['FR-CLASS-001', 'Educational Level Classification', 'The system shall categorize classes into four educational levels:\n- Kindergarten\n- Elementary school', null],
      ['FR-CLASS-002', 'Class Creation', 'The system shall let principals create classes.', null],
      ['FR-023', 'Expand Audio', 'The editor MUST provide a command that expands a composite audio clip.', 'Audio'],
      ['FR-029', '`ConformSequence`', 'The system MUST provide a command that conforms a sequence.', 'Audio'],
    ]);
    expect(report(data, 'specs/003-classes/spec.md').findings.filter((f: any) => f.level === 'warning' && f.line).map((f: any) => [f.line, f.message])).toEqual([
      [28, expect.stringMatching(/^"FR-1\.1" cannot be the id of a requirement on the board .*, so this requirement stays as text in the section "Functional Requirements \(other text\)" of spec\.md$/)],
      [29, 'this line starts with the id FR-030 but is no requirement agentboard reads ("- **FR-001**: …", "- **FR-001 (Title)**: …" or a "### FR-001: Title" heading), so it stays as text in the section "Functional Requirements (other text)" of spec.md'],
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('an agentd issue settled since, its severity struck ("- **Severity**: ~~High~~ → Resolved")', () => {
  it('keeps its severity and says it is settled: a review lands with it, a challenge lands without errors', async () => {
    const issue = '### Issue: Greeting is not imported\n- **Severity**: ~~High~~ → Resolved\n- **Description**: The example did not import `greet`.\n';
    const review = `# Code Review Report: notes\n\n## Summary\nThe work is done.\n\n## Best Practices Issues\n${issue}\n## Verdict\n- [x] APPROVED - Ready to merge\n`;
    const challenge = `# Challenge Report: notes\n\n## Summary\nThe plan holds.\n\n## Internal Consistency Issues\n${issue}\n## Verdict\n- [x] APPROVED - Ready for implementation\n`;
    const tasks = AGENTD_TASKS.replace('- [ ]', '- [x]');
    const { board, code, data } = await imported('agentd', source({ 'agentd/config.toml': '', 'agentd/changes/notes/proposal.md': AGENTD_PROPOSAL, 'agentd/changes/notes/specs/notes.md': AGENTD_SPEC, 'agentd/changes/notes/tasks.md': tasks, 'agentd/changes/notes/REVIEW.md': review, 'agentd/changes/notes/CHALLENGE.md': challenge }));
    expect(code).toBe(0);
    expect(row(data, 'notes')).toMatchObject({ status: 'imported', verdict: 'APPROVED', documents: ['proposal.md', 'spec.md', 'tasks.md', 'REVIEW.md'] });
    for (const file of ['REVIEW.md', 'CHALLENGE.md']) expect(report(data, `agentd/changes/notes/${file}`).findings.filter((f: any) => f.level === 'error')).toEqual([]);
    const issues = (await showDocument(board, 'notes', 'review')).content.rounds[0].issues;
    expect(issues).toEqual([{ title: 'Greeting is not imported', severity: 'High', description: '- **Severity**: ~~High~~ → Resolved\n- **Description**: The example did not import `greet`.' }]);
  });
});

describe("an agentd change whose latest challenge asks for a revision, and whose STATE.yaml says agentd went on since", () => {
  it('lands with its spec as it was (the challenge a note) at the phase of its work; with STATE.yaml at drafting, the spec lands rejected', async () => {
    const challenge = '\n<review iteration="2" reviewer="codex" status="needs_revision">\n## Summary\nThe spec misses the deletion of notes.\n\n## Verdict\nneeds_revision\n</review>\n';
    const change = (id: string, phase: string) => ({
      [`agentd/changes/${id}/proposal.md`]: AGENTD_PROPOSAL + challenge,
      [`agentd/changes/${id}/specs/notes.md`]: AGENTD_SPEC,
      [`agentd/changes/${id}/tasks.md`]: AGENTD_TASKS,
      [`agentd/changes/${id}/STATE.yaml`]: `change_id: ${id}\nphase: ${phase}\niteration: 4\n`,
    });
    const { board, code, data } = await imported('agentd', source({ 'agentd/config.toml': '', ...change('went-on', 'implementing'), ...change('redrafting', 'drafting') }));
    expect(code).toBe(0);
    expect(row(data, 'went-on')).toMatchObject({ status: 'imported', phase: 'implementation' });
    expect(row(data, 'redrafting')).toMatchObject({ status: 'imported', phase: 'spec' });
    expect(report(data, 'agentd/changes/went-on/proposal.md').findings).toContainEqual({
      level: 'warning',
      message: 'the latest challenge (NEEDS_REVISION) asks for a revision, but agentd\'s STATE.yaml says the change went on to "implementing": the challenge is kept as a note, and nothing is rejected',
      fix: 'nothing to do, or reject the spec on the board if the revision is still wanted',
    });
    expect((await showDocument(board, 'went-on', 'spec')).status).toBe('submitted');
    const notes = (await showDocument(board, 'went-on', 'proposal')).notes.map((n: any) => n.text);
    expect(notes).toContainEqual(expect.stringContaining('Challenge of iteration 2 by codex: NEEDS_REVISION'));
    expect((await showDocument(board, 'redrafting', 'spec')).status).toBe('rejected');
  });
});

describe('task ids in bold ("- [x] **T001** [P] Title")', () => {
  it('are the ids, and the markers after them are read: [P] runs beside the others', async () => {
    const tasks = '# Tasks\n\n## Phase 3.1: Setup\n\n- [x] **T001** Create the project\n- [x] **T002** [P] Configure the linter\n- [ ] **T003** Add the booking form\n';
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': tasks }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', tasks: { total: 3, done: 2 } });
    const list = (await ok(board, ['task', 'list', '--change', 'rooms'])).tasks;
    expect(list.map((t: any) => [t.id, t.title, t.depends])).toEqual([
      ['T001', 'Create the project', []],
      ['T002', 'Configure the linter', []],
      ['T003', 'Add the booking form', ['T001']],
    ]);
  });
});

describe('a spec-kit spec.md that leaves questions open ("[NEEDS CLARIFICATION: …]")', () => {
  it('lands as written, and the report names each question at its line (not the template\'s own example)', async () => {
    const spec = SK_SPEC.replace('- **FR-001**: System MUST let people book rooms.', '- **FR-001**: System MUST let people book rooms for [NEEDS CLARIFICATION: how long at most?]\n- **FR-002**: Mark what is unclear with [NEEDS CLARIFICATION: specific question]');
    const { code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', documents: ['proposal.md', 'spec.md'] });
    expect(report(data, 'specs/001-rooms/spec.md').findings.filter((f: any) => f.message.includes('question'))).toEqual([
      { level: 'warning', line: 17, message: 'the spec leaves a question open: "how long at most?"; it stays as written', fix: 'answer it, and write the answer in place of the marker in the spec on the board' },
    ]);
  });
});

describe('a task\'s file with an action that is none ("(TEST)", "action: RUN")', () => {
  it('stays in the task\'s description, with a warning at its line; the change lands without errors', async () => {
    const checklist = '# Tasks\n\n## 1. Testing\n\n- [ ] 1.1 Test the parser\n  - File: `src/parser.rs` (TEST)\n';
    const blocks = '# Tasks\n\n## 1. Testing\n\n### Task 1.1: Run the tests\n\n```yaml\nid: 1.1\naction: RUN\nstatus: pending\nfile: tests/notes.py\n```\n\nRun them all.\n';
    for (const [tasks, line, description] of [
      [checklist, 6, '- File: `src/parser.rs` (TEST)'],
      [blocks, 9, 'Run them all.\n\nFile: tests/notes.py (RUN)'],
    ] as const) {
      const { board, code, data } = await imported('agentd', source({ 'agentd/config.toml': '', 'agentd/changes/notes/proposal.md': AGENTD_PROPOSAL, 'agentd/changes/notes/specs/notes.md': AGENTD_SPEC, 'agentd/changes/notes/tasks.md': tasks }));
      expect(code).toBe(0);
      expect(row(data, 'notes')).toMatchObject({ status: 'imported', tasks: { total: 1, done: 0 } });
      expect(report(data, 'agentd/changes/notes/tasks.md').findings.filter((f: any) => f.level !== 'info')).toEqual([
        expect.objectContaining({ level: 'warning', line, message: expect.stringMatching(/^task 1\.1: "(TEST|RUN)" is not a file action \(CREATE, MODIFY, DELETE or RENAME\); the line stays in the task's description$/) }),
      ]);
      const task = (await ok(board, ['task', 'show', 'notes/1.1'])).task;
      expect([task.files, task.description]).toEqual([[], description]);
    }
  });
});

describe('an OpenSpec proposal with no Why or What Changes, saying them under other names ("## Motivation", "## Summary")', () => {
  it('takes those sections as the parts, and the report says so at their lines', async () => {
    const proposal = '# Add tags\n\n## Summary\n- Let people tag bookmarks.\n\n## Motivation\nPeople keep hundreds of bookmarks and cannot find one again without a way to group them.\n\n## Out of Scope\n- Tag colours.\n\n## Impact\n- Web client.\n';
    const { board, code, data } = await imported('openspec', source({ 'openspec/changes/add-tags/proposal.md': proposal, 'openspec/changes/add-tags/specs/bookmarks/spec.md': DELTA }));
    expect(code).toBe(0);
    const file = report(data, 'openspec/changes/add-tags/proposal.md');
    expect(file.findings).toEqual([
      { level: 'info', message: 'the OpenSpec proposal has no Why section; its section "Motivation" is the Why of proposal.md', fix: 'nothing to do' },
      { level: 'info', message: 'the OpenSpec proposal has no What Changes section; its section "Summary" is the What Changes of proposal.md', fix: 'nothing to do' },
    ]);
    expect(file.lines.filter((l: any) => l.text.startsWith('## ')).map((l: any) => [l.line, l.to])).toEqual([
      [3, 'proposal.md: What Changes'],
      [6, 'proposal.md: Why'],
      [9, 'proposal.md: kept as the section "Out of Scope"'],
      [12, 'proposal.md: Impact'],
    ]);
    const shown = await showDocument(board, 'add-tags', 'proposal');
    expect([shown.content.why, shown.content.what_changes]).toEqual(['People keep hundreds of bookmarks and cannot find one again without a way to group them.', '- Let people tag bookmarks.']);
    expect(shown.content.sections).toEqual([{ heading: 'Out of Scope', text: '- Tag colours.', after: 'why' }]);
  });
});

describe('files whose lines end in CR CR LF (a CRLF file saved again by a tool that adds a CR) or a lone CR', () => {
  it('are read as the same documents as with LF: no blank line doubled, no carriage return kept', async () => {
    // The Why wraps onto a second line: read with a line end doubled, it would be two paragraphs.
    const proposal = PROPOSAL.replace('long lists of bookmarks, ', 'long lists of bookmarks,\n');
    const files = (end: string) => Object.fromEntries(Object.entries({ 'openspec/changes/keep-place/proposal.md': proposal, 'openspec/changes/keep-place/specs/bookmarks/spec.md': DELTA, 'openspec/changes/keep-place/tasks.md': TASKS }).map(([name, text]) => [name, text.replace(/\n/g, end)]));
    const lf = await imported('openspec', source(files('\n')));
    const expected = await Promise.all(['proposal', 'spec', 'tasks'].map(async (d) => (await showDocument(lf.board, 'keep-place', d)).content));
    for (const end of ['\r\r\n', '\r']) {
      const other = await imported('openspec', source(files(end)));
      expect(row(other.data, 'keep-place'), JSON.stringify(end)).toMatchObject({ status: 'imported', phase: 'implementation', tasks: { total: 2, done: 1 } });
      for (const [i, d] of ['proposal', 'spec', 'tasks'].entries()) expect((await showDocument(other.board, 'keep-place', d)).content, `${JSON.stringify(end)} ${d}`).toEqual(expected[i]);
    }
  });
});

describe('a spec-kit spec.md written in another language, its lines wrapped', () => {
  it('has the title after the localized "Feature Specification:", and joins wrapped Chinese or Japanese with no space', async () => {
    const wrapped = [
      '## 用户场景与测试',
      '',
      '### 用户故事 1 — 预订会议室（优先级：P1）',
      '',
      '员工选择空闲的会议室并预订，并查看每个房间在本周每一天的空闲时间，以免两组人同时使用一个房间。',
      '',
      '1. **给定** 会议室空闲，**当** 员工选择一个房间',
      '   并预订，**那么** 预订成功，',
      '   other text stays spaced.',
      '',
      '## 需求',
      '',
      '- **FR-001**：系统 MUST 允许员工预订空闲的',
      '  会议室。',
      '- **FR-002**：系统 MUST 在员工预订之前显示每个房间在本周每一天的空闲时间，以免两组人同时使用一个房间，也不必询问前台或翻看纸质登记簿，并在两次预订的时间冲突时立即提示员工另选一个时间或者另选一个空闲的房间。',
      '',
    ].join('\n');
    const specs: Record<string, string> = {
      'specs/001-rooms/spec.md': `# 功能规格说明：会议室预订\n\n${wrapped}`,
      'specs/002-salles/spec.md': `# Spécification de fonctionnalité : Réservation de salles\n\n${wrapped}`,
      'specs/003-heya/spec.md': `# 機能仕様書: 会議室の予約\n\n${wrapped}`,
      'specs/004-rooms-en/spec.md': `# Feature Specification: Room booking: the first part\n\n${wrapped}`,
      'specs/005-plain/spec.md': `# Inspect: rooms\n\n${wrapped}`,
      'specs/006-driven/spec.md': `# Spec-driven search: rooms\n\n${wrapped}`,
      'specs/007-funktion/spec.md': `# Funktionsspezifikation: Raumbuchung\n\n${wrapped}`,
      'specs/001-rooms/tasks.md': '# 任务：会议室预订\n\n- [ ] T001 创建项目\n',
      'specs/002-salles/tasks.md': '# Tâches : Réservation de salles\n\n- [ ] T001 Créer le projet\n',
    };
    const { board, code } = await imported('spec-kit', source(specs));
    expect(code).toBe(0);
    const titles: string[] = [];
    for (const id of ['rooms', 'salles', 'heya', 'rooms-en', 'plain', 'driven', 'funktion']) titles.push((await showDocument(board, id, 'spec')).content.title);
    expect(titles).toEqual(['会议室预订', 'Réservation de salles', '会議室の予約', 'Room booking: the first part', 'Inspect: rooms', 'Spec-driven search: rooms', 'Raumbuchung']);
    expect(read(board, 'agentd/changes/rooms/tasks.md')).toContain('\n# Tasks: 会议室预订\n');
    expect(read(board, 'agentd/changes/salles/tasks.md')).toContain('\n# Tasks: Réservation de salles\n');
    const content = (await showDocument(board, 'rooms', 'spec')).content;
    expect(content.scenarios.map((s: any) => [s.given, s.when, s.then])).toEqual([['会议室空闲', '员工选择一个房间并预订', '预订成功， other text stays spaced.']]);
    const [fr1, fr2] = content.requirements;
    expect(fr1.title).toBe('系统 MUST 允许员工预订空闲的会议室。');
    expect(fr2.title).toMatch(/^系统 MUST 在员工预订之前显示每个房间在本周每一天的空闲时间，.{20,}…$/u);
    expect([...fr2.title]).toHaveLength(80);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('folder names with accented letters, in either unicode form (NFC, or NFD as macOS writes them)', () => {
  it('give the same change id and requirement ids, the accents taken off, and a second import from the other form changes nothing', async () => {
    const files = (form: 'NFC' | 'NFD') => ({
      [`openspec/changes/${'café-menu'.normalize(form)}/proposal.md`]: PROPOSAL,
      [`openspec/changes/${'café-menu'.normalize(form)}/specs/${'réservation'.normalize(form)}/spec.md`]: DELTA,
    });
    const nfc = source(files('NFC'));
    const nfd = source(files('NFD'));
    expect(readdirSync(join(nfd, 'openspec/changes'))).toEqual(['café-menu'.normalize('NFD')]);
    const { board, code, data } = await imported('openspec', nfc);
    expect(code).toBe(0);
    expect(data.changes.map((c: any) => [c.change_id, c.status])).toEqual([['cafe-menu', 'imported']]);
    expect((await showDocument(board, 'cafe-menu', 'spec')).content.requirements.map((r: any) => r.id)).toEqual(['RESERVATION-R1']);
    const again = await cli(board, ['import', 'openspec', nfd, '--json'], PERSON);
    expect(again.code).toBe(0);
    expect(again.json.data.changes.map((c: any) => [c.change_id, c.status])).toEqual([['cafe-menu', 'unchanged']]);
    expect(readdirSync(join(board, 'agentd/changes'))).toEqual(['cafe-menu']);
  });

  it('find a change imported before under the id an earlier import gave it (caf-menu): unchanged, not landed again as cafe-menu', async () => {
    // A board as an earlier import left it: café-menu's folder made change caf-menu (its accented letter dropped).
    const src = source({ 'openspec/changes/caf-menu/proposal.md': PROPOSAL, 'openspec/changes/caf-menu/specs/menu/spec.md': DELTA });
    const { board } = await imported('openspec', src);
    for (const doc of ['proposal.md', 'spec.md']) {
      const file = join(board, 'agentd/changes/caf-menu', doc);
      writeFileSync(file, readFileSync(file, 'utf8').replace('openspec/changes/caf-menu/', `openspec/changes/${'café-menu'.normalize('NFD')}/`));
    }
    renameSync(join(src, 'openspec/changes/caf-menu'), join(src, 'openspec/changes/café-menu'));
    const before = snapshot(join(board, 'agentd'));
    const again = await cli(board, ['import', 'openspec', src, '--json'], PERSON);
    expect(again.code).toBe(0);
    expect(again.json.data.changes.map((c: any) => [c.change_id, c.status])).toEqual([['caf-menu', 'unchanged']]);
    expect(again.json.data.files.find((f: any) => f.file.endsWith('proposal.md')).to).toEqual(['already on the board: proposal.md of caf-menu']);
    expect(snapshot(join(board, 'agentd'))).toEqual(before);
  });
});

describe('a spec-kit spec with no **Input** line but a section that says why', () => {
  it('takes that section as the Why of the proposal, and says so', async () => {
    const spec = SK_SPEC.replace(
      '**Input**: User description: "Let people book meeting rooms without asking the front desk."\n',
      '## Why this spec exists\n\nPeople walk to the front desk to book a room and find it taken when they get there.\n',
    );
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec, 'specs/001-rooms/tasks.md': SK_TASKS }));
    expect(code).toBe(0);
    expect(row(data, 'rooms').status).toBe('imported');
    const proposal = (await ok(board, ['show', 'rooms', 'proposal', '--format', 'fields'])).content;
    expect(proposal.why).toBe('People walk to the front desk to book a room and find it taken when they get there.');
    expect(report(data, 'specs/001-rooms/spec.md').findings).toContainEqual(expect.objectContaining({ level: 'info', message: 'spec.md has no **Input** line (the user\'s request); its section "Why this spec exists" is the Why of proposal.md' }));
  });
});

describe('a spec-kit spec whose stories are under "## User Stories", with no scenario', () => {
  it('has its stories as the overview of its spec: the missing scenarios are its one error', async () => {
    const spec = SK_SPEC.replace('## User Scenarios & Testing\n', '## User Stories\n').replace('\n**Acceptance Scenarios**:\n\n1. **Given** a free room, **When** a person books it, **Then** it is booked.\n', '');
    const { board, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec, 'specs/001-rooms/tasks.md': SK_TASKS }));
    expect(row(data, 'rooms').status).toBe('imported_with_errors');
    const shown = (await ok(board, ['show', 'rooms', 'spec', '--format', 'fields'])).content;
    expect(shown.overview).toContain('A person books a room.');
    const errors = (await cli(board, ['validate', 'rooms', '--json'])).json.data.changes[0].findings.filter((f: any) => f.level === 'error');
    expect(errors.map((f: any) => f.rule)).toEqual(['spec.scenarios.missing']);
  });
});

describe('a spec-kit spec.md whose Given/When/Then scenarios stand under its own "## Acceptance Criteria" section, not under a user story', () => {
  it('reads them as the scenarios of its spec, the other lines of the section kept under its heading: the spec lands valid', async () => {
    const spec = [
      '# Feature Specification: Rooms',
      '',
      '**Input**: User description: "Let people book meeting rooms without asking the front desk."',
      '',
      '## User Scenarios & Testing',
      '',
      '### User Story 1 - Book (Priority: P1)',
      '',
      'A person books a room.',
      '',
      '## Requirements',
      '',
      '- **FR-001**: System MUST let people book rooms.',
      '',
      '## Acceptance Criteria',
      '',
      '1. **Given** a free room, **When** a person books it, **Then** it is booked.',
      '2. **Given** a booked room, **When** another person books it,',
      '   **Then** they are told it is taken.',
      '',
      "Bookings show on the room's page within a minute.",
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec, 'specs/001-rooms/tasks.md': SK_TASKS }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'], findings: [] });
    const content = (await showDocument(board, 'rooms', 'spec')).content;
    expect(content.scenarios.map((s: any) => [s.name, s.given, s.when, s.then])).toEqual([
      ['Acceptance scenario 1', 'a free room', 'a person books it', 'it is booked.'],
      ['Acceptance scenario 2', 'a booked room', 'another person books it', 'they are told it is taken.'],
    ]);
    expect(content.sections.map((s: any) => [s.heading, s.text])).toEqual([
      ['', '**Input**: User description: "Let people book meeting rooms without asking the front desk."'],
      ['Acceptance Criteria (as written in spec-kit)', "Bookings show on the room's page within a minute."],
    ]);
    expect(report(data, 'specs/001-rooms/spec.md').lines.filter((l: any) => l.line >= 15).sort((a: any, b: any) => a.line - b.line)).toEqual([
      { line: 15, text: '## Acceptance Criteria', to: 'spec.md: its scenarios under Acceptance Criteria, the rest kept as the section "Acceptance Criteria (as written in spec-kit)"' },
      { line: 17, text: '1. **Given** a free room, **When** a person books it, **Then** it is booked.', to: 'scenario "Acceptance scenario 1" of spec.md (Given, When, Then)' },
      { line: 18, text: '2. **Given** a booked room, **When** another person books it,', to: 'scenario "Acceptance scenario 2" of spec.md (Given, When, Then)' },
      { line: 19, text: '**Then** they are told it is taken.', to: 'scenario "Acceptance scenario 2" of spec.md (Given, When, Then)' },
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md whose requirements are headings of the level of its sections ("## FR-001: Title")', () => {
  it('has each read as a requirement, its text the lines under it and its scenarios linked to it; an id the board cannot take stays as a section, with a warning', async () => {
    const spec = [
      '# Feature Specification: Rooms',
      '',
      '**Input**: User description: "Let people book meeting rooms without asking the front desk."',
      '',
      '## User Scenarios & Testing',
      '',
      '### User Story 1 - Book (Priority: P1)',
      '',
      'A person books a room.',
      '',
      '1. **Given** a free room, **When** a person books it, **Then** it is booked.',
      '',
      '## FR-001: Book a room',
      '',
      'People MUST be able to book a free room.',
      '',
      '### Acceptance Scenarios',
      '',
      '1. **Given** a room booked by someone else, **When** a person books it, **Then** they are told it is taken.',
      '',
      '## FR-002 - Cancel a booking',
      'A person MUST be able to cancel a booking they made:',
      "- from the room's page",
      '',
      '## FR-1.1: Probe rooms',
      '',
      'The system MUST probe rooms.',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec, 'specs/001-rooms/tasks.md': SK_TASKS }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', phase: 'implementation', documents: ['proposal.md', 'spec.md', 'tasks.md'], attachments: [] });
    const content = (await showDocument(board, 'rooms', 'spec')).content;
    expect(content.requirements.map((r: any) => [r.id, r.title, r.text])).toEqual([
      ['FR-001', 'Book a room', 'People MUST be able to book a free room.'],
      ['FR-002', 'Cancel a booking', "A person MUST be able to cancel a booking they made:\n- from the room's page"],
    ]);
    expect(content.scenarios.map((s: any) => [s.name, s.requirement ?? null])).toEqual([
      ['User Story 1, scenario 1: Book', null],
      ['FR-001, Acceptance scenario 1', 'FR-001'],
    ]);
    expect(content.sections.map((s: any) => s.heading)).toEqual(['', 'FR-1.1: Probe rooms']);
    const log = report(data, 'specs/001-rooms/spec.md');
    expect(log.lines.filter((l: any) => l.line >= 13 && l.line <= 25).sort((a: any, b: any) => a.line - b.line).map((l: any) => [l.line, l.to])).toEqual([
      [13, 'requirement FR-001 of spec.md, the lines under it its text, its acceptance scenarios linked to it'],
      [19, 'scenario "FR-001, Acceptance scenario 1" of spec.md (Given, When, Then)'],
      [21, 'requirement FR-002 of spec.md, the lines under it its text'],
      [25, 'spec.md: kept as the section "FR-1.1: Probe rooms"'],
    ]);
    expect(log.findings.filter((f: any) => f.level === 'warning' && f.line).map((f: any) => [f.line, f.message])).toEqual([
      [25, expect.stringMatching(/^"FR-1\.1" cannot be the id of a requirement on the board .*, so this requirement stays as text in the section "FR-1\.1: Probe rooms" of spec\.md$/)],
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md with non-functional requirements in a section of their own ("## Non-Functional Requirements", NFR-001 ids)', () => {
  it('has them read as requirements, in the group of their heading, as under "## Requirements"', async () => {
    const spec = [
      '# Feature Specification: Rooms',
      '',
      '**Input**: User description: "Let people book meeting rooms without asking the front desk."',
      '',
      '## User Scenarios & Testing',
      '',
      '### User Story 1 - Book (Priority: P1)',
      '',
      'A person books a room.',
      '',
      '1. **Given** a free room, **When** a person books it, **Then** it is booked.',
      '',
      '## Requirements',
      '',
      '### Functional Requirements',
      '',
      '- **FR-001**: System MUST let people book rooms.',
      '',
      '### Non-Functional Requirements',
      '',
      '- **NFR-001**: Booking MUST answer within 200 ms.',
      '',
      '## Non-Functional Requirements *(optional)*',
      '',
      '- **NFR-002**: The page MUST load within one second.',
      '',
      '### NFR-3: Safety',
      '- No booking MUST ever be lost.',
      '',
      'Measured on the office network.',
      '',
    ].join('\n');
    const { board, code, data } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec, 'specs/001-rooms/tasks.md': SK_TASKS }));
    expect(code).toBe(0);
    expect(row(data, 'rooms')).toMatchObject({ status: 'imported', phase: 'implementation' });
    const content = (await showDocument(board, 'rooms', 'spec')).content;
    expect(content.requirements.map((r: any) => [r.id, r.title, r.text, r.group ?? null])).toEqual([
      ['FR-001', 'System MUST let people book rooms', 'System MUST let people book rooms.', null],
      ['NFR-001', 'Booking MUST answer within 200 ms', 'Booking MUST answer within 200 ms.', 'Non-Functional Requirements'],
      ['NFR-002', 'The page MUST load within one second', 'The page MUST load within one second.', 'Non-Functional Requirements *(optional)*'],
      ['NFR-3', 'Safety', '- No booking MUST ever be lost.\n\nMeasured on the office network.', 'Non-Functional Requirements *(optional)*'],
    ]);
    expect(content.sections.map((s: any) => s.heading)).toEqual(['']);
    expect(report(data, 'specs/001-rooms/spec.md').lines).toContainEqual({ line: 23, text: '## Non-Functional Requirements *(optional)*', to: 'the requirements of spec.md (their group)' });
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});
