/**
 * `agentboard import` on boards made by each tool (test/fixtures/import/, see its README): every
 * non-empty line of every file it takes is on the board or named in the report, the board
 * validates, each change is at the phase its documents reach with its tasks, dependencies and
 * verdicts, a second run changes nothing and a dry run writes nothing. Fixtures are copied first:
 * importing writes.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, FIXTURES, newBoard, ok, read, snapshot, tempDir, WHY, write, showDocument } from '../helpers.js';
import { PERSON } from './import-helpers.js';

function copy(name: string): string {
  const dir = tempDir('agentboard-import-');
  cpSync(join(FIXTURES, 'import', name), dir, { recursive: true });
  return dir;
}

function git(dir: string): string {
  const run = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  run('init', '-q');
  run('add', '-A');
  run('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
  return run('rev-parse', 'HEAD').stdout.trim();
}

function files(dir: string, under: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(join(dir, under));
  return out.sort();
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\\(.)/g, '$1')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * Every non-empty line of every file the import took is on the new board (its words, in order, in
 * one of its files) or named, by its line, in the report. Returns the lines that are neither.
 */
function lost(source: string, board: string, data: any): string[] {
  const boardText = files(board, 'agentd')
    .filter((f) => !f.startsWith('agentd/.imported/') && !f.startsWith('agentd/.runtime/'))
    .map((f) => norm(readFileSync(join(board, f), 'utf8')))
    .join(' | ');
  const missing: string[] = [];
  for (const report of data.files) {
    if (report.to.some((t: string) => t.startsWith('left where it is') || t.includes('set aside with'))) continue;
    readFileSync(join(source, report.file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const n = norm(line);
        if (!n || boardText.includes(n) || report.lines.some((l: any) => l.line === i + 1)) return;
        missing.push(`${report.file}:${i + 1}: ${line}`);
      });
  }
  return missing;
}

async function tasksOf(dir: string, change: string): Promise<Record<string, { status: string; depends: string[] }>> {
  const list = await ok(dir, ['task', 'list', '--change', change, '--limit', '500']);
  return Object.fromEntries(list.tasks.map((t: any) => [t.id, { status: t.status, depends: t.depends }]));
}

describe('import openspec', () => {
  let dir: string;
  let source: string;
  let data: any;
  beforeAll(async () => {
    dir = copy('openspec');
    source = copy('openspec');
    data = await ok(dir, ['import', 'openspec'], PERSON);
  });

  it('lands each change at the phase its documents reach, with its tasks and their group order', async () => {
    expect(data.changes.map((c: any) => [c.change_id, c.status, c.phase, c.tasks, c.verdict, c.archived_to])).toEqual([
      ['add-bookmark-import', 'imported', 'implementation', { total: 9, done: 4 }, null, null],
      ['add-bookmark-basics', 'imported', 'archived', { total: 5, done: 5 }, null, 'agentd/archive/2026-11-22-add-bookmark-basics'],
    ]);
    const tasks = await tasksOf(dir, 'add-bookmark-import');
    expect(Object.entries(tasks).filter(([, t]) => t.status === 'done').map(([id]) => id)).toEqual(['1.1', '1.2', '2.1', '3.1']);
    expect(tasks['1.1']!.depends).toEqual([]);
    expect(tasks['2.3']!.depends).toEqual(['1.1', '1.2']);
    expect(tasks['3.1']!.depends).toEqual(['2.1', '2.2', '2.3', '2.4']);
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
    expect(readdirSync(join(dir, 'agentd/archive/2026-11-22-add-bookmark-basics')).sort()).toEqual(['attachments', 'proposal.md', 'spec.md', 'tasks.md']);
  });

  it('merges the capabilities into one spec: a section per capability and delta, prefixed ids, scenarios linked, design.md kept', async () => {
    const spec = (await showDocument(dir, 'add-bookmark-import', 'spec')).content;
    expect(spec.requirements.map((r: any) => [r.id, r.delta, r.group, r.title])).toEqual([
      ['BOOKMARKS-R1', 'ADDED', 'bookmarks', 'Import bookmarks from a browser export'],
      ['BOOKMARKS-R2', 'MODIFIED', 'bookmarks', 'Save a bookmark'],
      ['TAGS-R1', 'REMOVED', 'tags', 'Tag colors'],
      ['TAGS-R2', 'RENAMED', 'tags', 'Tag browsing'],
    ]);
    expect(spec.scenarios.map((s: any) => s.requirement)).toEqual(['BOOKMARKS-R1', 'BOOKMARKS-R1', 'BOOKMARKS-R1', 'BOOKMARKS-R2', 'BOOKMARKS-R2', 'BOOKMARKS-R2']);
    const design = await showDocument(dir, 'add-bookmark-import', 'design');
    expect(design.markdown).toContain('## Decisions\n\n### Parse the Netscape format with a streaming tokenizer');
    const proposal = await showDocument(dir, 'add-bookmark-import', 'proposal');
    expect(proposal.content.sections.map((s: any) => s.heading)).toEqual(['Capabilities']);
    expect(proposal.markdown).toMatch(/imported_from:\n {2}tool: openspec\n {2}path: openspec\/changes\/add-bookmark-import\/proposal\.md\n/);
  });

  it('keeps every line it took on the board or names it in the report, and names every file', async () => {
    expect(lost(source, dir, data)).toEqual([]);
    expect(data.files.map((f: any) => f.file)).toEqual(files(source, 'openspec'));
    const current = data.files.find((f: any) => f.file === 'openspec/specs/tags/spec.md');
    expect(current.to).toEqual(['left where it is (openspec/specs/tags/spec.md)']);
  });

  it('changes nothing when run again', async () => {
    const before = snapshot(join(dir, 'agentd'));
    const again = await ok(dir, ['import', 'openspec'], PERSON);
    expect(again.changes.map((c: any) => c.status)).toEqual(['unchanged', 'unchanged']);
    expect(again.changes.map((c: any) => c.phase)).toEqual(['implementation', 'archived']);
    expect(snapshot(join(dir, 'agentd'))).toEqual(before);
  });
});

describe('import spec-kit', () => {
  let dir: string;
  let data: any;
  beforeAll(async () => {
    dir = copy('spec-kit');
    data = await ok(dir, ['import', 'spec-kit'], PERSON);
  });

  it('names changes after their feature, phases are groups in order, [P] tasks run beside the others', async () => {
    expect(data.changes.map((c: any) => [c.change_id, c.phase, c.tasks])).toEqual([
      ['room-booking', 'implementation', { total: 30, done: 14 }],
      ['room-search', 'review', { total: 14, done: 14 }],
    ]);
    const t = await tasksOf(dir, 'room-booking');
    expect(t.T002!.depends).toEqual(['T001']);
    expect(t.T003!.depends).toEqual([]);
    expect(t.T005!.depends).toEqual(['T001', 'T002', 'T003']);
    expect(t.T007!.depends).toEqual(['T001', 'T002', 'T003', 'T004']);
    expect(t.T012!.depends).toEqual(['T004', 'T005', 'T006', 'T007', 'T011']);
    expect(t.T013!.depends).toEqual(['T004', 'T005', 'T006', 'T007', 'T012']);
    expect(t.T024!.depends).toEqual(['T016', 'T017', 'T018', 'T019', 'T020', 'T023', 'T012']);
    const task = (await ok(dir, ['task', 'show', 'room-booking/T012'])).task;
    expect(task.title).toBe('Implement BookingService.create with slot validation in src/harbor/services/booking_service.py (depends on T011)');
    expect(task.files).toEqual([]);
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
  });

  it('keeps the user story of each task ([US1]) as the first line of its description, with the story\'s title', async () => {
    const source = read(copy('spec-kit'), 'specs/001-room-booking/tasks.md');
    const labelled = [...source.matchAll(/^- \[[ xX]\] (T\d+) (?:\[P\] )?\[US(\d+)\] /gm)].map((m) => [m[1]!, m[2]!]);
    expect(labelled.length).toBeGreaterThan(10);
    const titles: Record<string, string> = { 1: 'Book a room for a time slot', 2: 'See and cancel my bookings', 3: 'Weekly recurring bookings' };
    const list = (await ok(dir, ['task', 'list', '--change', 'room-booking', '--limit', '500'])).tasks;
    for (const [id, n] of labelled) {
      const task = (await ok(dir, ['task', 'show', `room-booking/${id}`])).task;
      expect(task.description.split('\n\n')[0], id).toBe(`User story US${n}: ${titles[n]}`);
      expect(task.title, id).not.toContain('[US');
    }
    const unlabelled = list.map((t: any) => t.id).filter((id: string) => !labelled.some(([l]) => l === id));
    expect(unlabelled).toContain('T001');
    for (const id of unlabelled) expect((await ok(dir, ['task', 'show', `room-booking/${id}`])).task.description, id).not.toMatch(/^User story/);
    expect(read(dir, 'agentd/changes/room-booking/tasks.md')).toContain('User story US1: Book a room for a time slot');
    const line = data.files.find((f: any) => f.file === 'specs/001-room-booking/tasks.md').lines.find((l: any) => l.text.includes(' T012 '));
    expect(line.to).toBe('task T012 (done, user story US1, named in its description, depends on T011)');
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
  });

  it('reads user stories, FR requirements and acceptance scenarios; plan.md is the design; the rest is attached', async () => {
    const spec = (await showDocument(dir, 'room-booking', 'spec')).content;
    expect(spec.requirements.map((r: any) => r.id)).toEqual(['FR-001', 'FR-002', 'FR-003', 'FR-004', 'FR-005', 'FR-006', 'FR-007', 'FR-008', 'FR-009']);
    expect(spec.scenarios).toHaveLength(9);
    expect(spec.scenarios[1]).toMatchObject({ given: 'Ana holds "Lighthouse" from 10:00 to 11:00', when: 'Ben tries to book it from 10:30 to 11:30', then: 'Ben\'s request is refused with "room already booked" and no booking is created.' });
    const proposal = (await showDocument(dir, 'room-booking', 'proposal')).content;
    expect(proposal.why).toContain('Let employees book a meeting room');
    expect(proposal.impact).toContain('SC-002');
    expect((await showDocument(dir, 'room-booking', 'design')).content.title).toBe('Implementation Plan: Room Booking');
    const attached = files(join(dir, 'agentd/changes/room-booking'), 'attachments');
    expect(attached).toEqual(['attachments/checklists/requirements.md', 'attachments/contracts/bookings-api.md', 'attachments/data-model.md', 'attachments/quickstart.md', 'attachments/research.md']);
  });

  it('changes nothing when run again', async () => {
    const before = snapshot(join(dir, 'agentd'));
    const again = await ok(dir, ['import', 'spec-kit'], PERSON);
    expect(again.changes.map((c: any) => [c.status, c.phase])).toEqual([
      ['unchanged', 'implementation'],
      ['unchanged', 'review'],
    ]);
    expect(snapshot(join(dir, 'agentd'))).toEqual(before);
  });

  it('keeps every line it took on the board or names it in the report', async () => {
    expect(lost(copy('spec-kit'), dir, data)).toEqual([]);
    expect(data.files.map((f: any) => f.file)).toEqual([...files(copy('spec-kit'), '.specify'), ...files(copy('spec-kit'), 'specs')].sort());
  });
});

describe('import agentd', () => {
  let dir: string;
  let data: any;
  let commit: string;
  const source = copy('agentd');
  beforeAll(async () => {
    dir = copy('agentd');
    commit = git(dir);
  });

  it('meets an unconverted agentd/ board with one message that names the import', async () => {
    const r = await cli(dir, ['validate', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('AGENTD_BOARD');
    expect(r.json.error.next_step).toContain('agentboard import agentd');
    expect((await cli(dir, ['init', '--json'])).json.error.code).toBe('AGENTD_BOARD');
  });

  it('writes nothing on a dry run', async () => {
    const before = snapshot(dir);
    const dry = await ok(dir, ['import', 'agentd', '--dry-run'], PERSON);
    expect(dry.dry_run).toBe(true);
    expect(dry.changes.map((c: any) => c.status)).toEqual(['imported', 'imported', 'imported']);
    expect(snapshot(dir)).toEqual(before);
  });

  it('makes a dry run without a person present (no terminal, no key, an agent\'s environment), writing nothing; the import itself still wants one', async () => {
    const before = snapshot(dir);
    for (const env of [{ AGENTBOARD_PERSON_KEY: '' }, { AGENTBOARD_PERSON_KEY: '', CLAUDECODE: '1' }] as Record<string, string>[]) {
      const dry = await ok(dir, ['import', 'agentd', '--dry-run'], { interactive: false, env });
      expect(dry.changes.map((c: any) => c.status)).toEqual(['imported', 'imported', 'imported']);
      expect(JSON.stringify(dry)).not.toContain('dry-run');
    }
    const real = await cli(dir, ['import', 'agentd', '--json'], { interactive: false, env: { AGENTBOARD_PERSON_KEY: '' } });
    expect([real.code, real.json.error.code]).toEqual([1, 'PERSON_REQUIRED']);
    expect(snapshot(dir)).toEqual(before);
  });

  it('converts its agentd/ in place: the originals set aside, each change at its phase, verdicts and challenges kept', async () => {
    data = await ok(dir, ['import', 'agentd'], PERSON);
    expect(data.originals).toBe('agentd/.imported/');
    expect(data.changes.map((c: any) => [c.change_id, c.phase, c.tasks, c.verdict])).toEqual([
      ['init-note-storage', 'archived', { total: 6, done: 6 }, 'APPROVED'],
      ['add-search-index', 'spec', { total: 0, done: 0 }, null],
      ['tag-filters', 'implementation', { total: 9, done: 5 }, 'NEEDS_FIX'],
    ]);
    expect(read(dir, 'agentd/.imported/changes/tag-filters/tasks.md')).toBe(readFileSync(join(source, 'agentd/changes/tag-filters/tasks.md'), 'utf8'));
    expect(files(dir, 'agentd/.imported').length).toBe(files(source, 'agentd').length);
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);

    const t = await tasksOf(dir, 'tag-filters');
    expect(Object.entries(t).filter(([, x]) => x.status === 'done').map(([id]) => id)).toEqual(['1.1', '1.2', '2.1', '2.2', '3.1']);
    expect(Object.fromEntries(Object.entries(t).map(([id, x]) => [id, x.depends]))).toEqual({
      '1.1': [],
      '1.2': ['1.1'],
      '2.1': ['1.1', '1.2'],
      '2.2': ['1.1'],
      '2.3': ['2.2'],
      '3.1': ['2.1', '2.2'],
      '3.2': ['2.3'],
      '4.1': ['1.1', '2.3'],
      '4.2': ['3.1', '3.2'],
    });
    const review = (await showDocument(dir, 'tag-filters', 'review')).content.rounds[0];
    expect([review.verdict, review.round, review.issues.map((i: any) => i.severity)]).toEqual(['NEEDS_FIX', 1, ['High', 'High', 'High', 'Medium', 'Medium']]);

    const spec = await showDocument(dir, 'add-search-index', 'spec');
    expect(spec.status).toBe('rejected');
    expect(spec.feedback[0]).toMatchObject({ author: 'codex' });
    expect(spec.feedback[0].text).toContain('Deleted notes are never removed from the index');
    expect(spec.markdown).toContain(`commit: ${commit}`);
    expect((await showDocument(dir, 'tag-filters', 'spec')).content.requirements.map((r: any) => r.id)).toEqual(['TC-R1', 'TC-R2', 'TC-R3', 'TC-R4', 'TAG-MODEL-R1', 'TAG-MODEL-R2', 'TAG-MODEL-R3', 'TAG-MODEL-R4']);
    expect((await ok(dir, ['task', 'show', 'tag-filters/1.1'])).task.requirements).toEqual(['TAG-MODEL-R1']);
  });

  it('keeps every line of the changes on the board or names it in the report, and names every file', async () => {
    expect(lost(source, dir, data)).toEqual([]);
    expect(data.files.map((f: any) => f.file)).toEqual(files(source, 'agentd'));
    expect(data.files.find((f: any) => f.file === 'agentd/config.toml').to).toEqual(['agentd/.imported/config.toml (set aside with agentd\'s originals)']);
    const archived = join(dir, 'agentd/archive/2026-11-03-init-note-storage');
    expect(files(archived, 'attachments')).toEqual(['attachments/ARCHIVE_REVIEW.md', 'attachments/IMPLEMENTATION.md', 'attachments/STATE.yaml']);
  });

  it('changes nothing when run again', async () => {
    const before = snapshot(join(dir, 'agentd'));
    const again = await ok(dir, ['import', 'agentd'], PERSON);
    expect(again.changes.map((c: any) => [c.change_id, c.status, c.phase])).toEqual([
      ['init-note-storage', 'unchanged', 'archived'],
      ['add-search-index', 'unchanged', 'spec'],
      ['tag-filters', 'unchanged', 'implementation'],
    ]);
    const after = snapshot(join(dir, 'agentd'));
    for (const key of Object.keys(after)) if (key.startsWith('.runtime/')) delete after[key];
    for (const key of Object.keys(before)) if (key.startsWith('.runtime/')) delete before[key];
    expect(after).toEqual(before);
  });

  it('reads another checkout with PATH, into this board', async () => {
    const board = await newBoard();
    const r = await ok(board, ['import', 'agentd', copy('agentd')]);
    expect(r.in_place).toBe(false);
    expect(r.changes.map((c: any) => c.status)).toEqual(['imported', 'imported', 'imported']);
    expect((await ok(board, ['list'])).changes.map((c: any) => c.change_id)).toEqual(['add-search-index', 'tag-filters']);
  });
});

describe('a valid source lands as a valid board', () => {
  it('fills what the board requires and the source does not have (OpenSpec Impact, a spec-kit Why too short), saying so as a warning', async () => {
    const os = tempDir('agentboard-import-');
    mkdirSync(join(os, 'openspec/changes/add-export'), { recursive: true });
    write(os, 'openspec/changes/add-export/proposal.md', '# Proposal\n\n## Why\n\nPeople cannot export their bookmarks, so they are locked in today.\n\n## What Changes\n\n- Add an export.\n');
    const sk = tempDir('agentboard-import-');
    mkdirSync(join(sk, 'specs/001-rooms'), { recursive: true });
    write(sk, 'specs/001-rooms/spec.md', '# Feature Specification: Rooms\n\n**Input**: User description: "book rooms"\n\n## User Scenarios & Testing\n\n### User Story 1 - Book (Priority: P1)\n\nA person books a room.\n\n**Acceptance Scenarios**:\n\n1. **Given** a free room, **When** a person books it, **Then** it is booked.\n\n## Requirements\n\n- **FR-001**: System MUST let people book rooms.\n\n## Success Criteria\n\n- **SC-001**: A booking takes under a minute.\n');
    for (const [dir, tool, change, file, warning, text] of [
      [os, 'openspec', 'add-export', 'openspec/changes/add-export/proposal.md', 'the OpenSpec proposal has no Impact', '## Impact\n\nNot stated in the OpenSpec proposal.\n'],
      [sk, 'spec-kit', 'rooms', 'specs/001-rooms/spec.md', 'the Why has 30 characters, fewer than the 50', 'User description: "book rooms"\n\nSpec-kit\'s spec.md says no more of why the change is needed.\n'],
    ] as const) {
      const data = await ok(dir, ['import', tool], PERSON);
      expect(data.changes.map((c: any) => [c.change_id, c.status, c.findings]), tool).toEqual([[change, 'imported', []]]);
      expect(data.files.find((f: any) => f.file === file).findings, tool).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringContaining(warning) })]);
      expect(read(dir, `agentd/changes/${change}/proposal.md`), tool).toContain(text);
      expect((await ok(dir, ['validate', '--all'])).valid, tool).toBe(true);
    }
  });
});

describe('round trip of imported documents', () => {
  it('show of an imported document, fed back through --from, gives the same body and fields', async () => {
    const dir = copy('agentd');
    await ok(dir, ['import', 'agentd'], PERSON);
    const os = copy('openspec');
    await ok(os, ['import', 'openspec'], PERSON);
    const body = (md: string) => md.slice(md.indexOf('\n---\n') + 5);
    for (const [board, change] of [
      [dir, 'tag-filters'],
      [dir, 'add-search-index'],
      [os, 'add-bookmark-import'],
    ] as const) {
      const proposal = await showDocument(board, change, 'proposal');
      const spec = await showDocument(board, change, 'spec');
      await ok(board, ['propose', `${change}-trip`, '--as', 'planner', '--from', write(board, 'p.md', proposal.markdown), '--notes', 'Round trip.']);
      await ok(board, ['spec', `${change}-trip`, '--as', 'planner', '--from', write(board, 's.md', spec.markdown), '--notes', 'Round trip.']);
      const proposal2 = await showDocument(board, `${change}-trip`, 'proposal');
      const spec2 = await showDocument(board, `${change}-trip`, 'spec');
      expect(proposal2.content).toEqual({ ...proposal.content });
      expect(body(proposal2.markdown)).toBe(body(proposal.markdown));
      expect(spec2.content).toEqual(spec.content);
      expect(body(spec2.markdown)).toBe(body(spec.markdown));
    }
    const tasks = await showDocument(dir, 'tag-filters', 'tasks');
    await ok(dir, ['tasks', 'tag-filters-trip', '--as', 'planner', '--from', write(dir, 't.md', tasks.markdown), '--notes', 'Round trip.']);
    const tasks2 = await showDocument(dir, 'tag-filters-trip', 'tasks');
    const plan = (t: any) => ({ id: t.id, title: t.title, description: t.description, priority: t.priority, depends: t.depends, files: t.files, requirements: t.requirements, status: t.status });
    expect(tasks2.content.tasks.map(plan)).toEqual(tasks.content.tasks.map(plan));
    expect(read(dir, 'agentd/changes/tag-filters-trip/tasks.md')).toContain('group: "1. Data Layer"');
    const review = await showDocument(dir, 'tag-filters', 'review');
    await ok(dir, ['review', 'tag-filters-trip', '--as', 'reviewer-2', '--from', write(dir, 'r.md', review.markdown), '--notes', 'Round trip.']);
    const { reviewer: _a, at: _b, ...round } = review.content.rounds[0];
    const { reviewer: _c, at: _d, ...round2 } = (await showDocument(dir, 'tag-filters-trip', 'review')).content.rounds[0];
    expect(round2).toEqual(round);
  });
});

describe('import refusals', () => {
  it('says what is missing when the repository holds nothing of the tool', async () => {
    const dir = tempDir();
    const r = await cli(dir, ['import', 'openspec', '--json'], PERSON);
    expect(r.code).toBe(1);
    expect(r.json.error.message).toContain('There is no openspec/changes/ folder');
    const b = await cli(dir, ['import', 'agentd', '--json'], PERSON);
    expect(b.json.error.code).toBe('IMPORT_REFUSED');
  });

  it('says where a document holds bytes that are not UTF-8, and lands the change with errors', async () => {
    const dir = copy('spec-kit');
    const spec = join(dir, 'specs/002-room-search/spec.md');
    const lines = readFileSync(spec, 'utf8').split('\n');
    writeFileSync(spec, Buffer.concat([Buffer.from(`${lines.slice(0, 4).join('\n')}\nA line `), Buffer.from([0xff, 0xfe]), Buffer.from(`\n${lines.slice(4).join('\n')}`)]));
    const r = await cli(dir, ['import', 'spec-kit', '--dry-run', '--json'], PERSON);
    expect(r.code).toBe(1);
    const search = r.json.data.changes.find((c: any) => c.source === 'specs/002-room-search');
    expect(search.status).toBe('imported_with_errors');
    const report = r.json.data.files.find((f: any) => f.file === 'specs/002-room-search/spec.md');
    expect(report.findings).toContainEqual({ level: 'error', message: 'line 5 holds bytes that are not UTF-8 text, so nothing of this file was read as a document', fix: 'save the file as UTF-8 text and import again', line: 5 });
    expect(r.json.data.changes.find((c: any) => c.source === 'specs/001-room-booking').status).toBe('imported');
  });

  it('lands a change that landed short again once its source is fixed, unless work was done on it on the board', async () => {
    const dir = copy('spec-kit');
    git(dir);
    const spec = join(dir, 'specs/002-room-search/spec.md');
    const good = readFileSync(spec);
    const lines = good.toString('utf8').split('\n');
    writeFileSync(spec, Buffer.concat([Buffer.from(`${lines.slice(0, 4).join('\n')}\nA line `), Buffer.from([0xff, 0xfe]), Buffer.from(`\n${lines.slice(4).join('\n')}`)]));
    const first = await cli(dir, ['import', 'spec-kit', '--json'], PERSON);
    expect(first.code).toBe(1);
    const search = () => first.json.data.changes.find((c: any) => c.source === 'specs/002-room-search').change_id;
    const id = search();
    expect(existsSync(join(dir, `agentd/changes/${id}/spec.md`))).toBe(false);
    expect(existsSync(join(dir, `agentd/changes/${id}/attachments/spec.md`))).toBe(true);
    // The same broken source again: nothing changes.
    const board = snapshot(join(dir, 'agentd'));
    expect((await cli(dir, ['import', 'spec-kit', '--json'], PERSON)).json.data.changes.find((c: any) => c.change_id === id).status).toBe('unchanged');
    expect(snapshot(join(dir, 'agentd'))).toEqual(board);

    // Fixed: it lands again, whole, and says why; the file kept in its stead goes.
    writeFileSync(spec, good);
    const second = await cli(dir, ['import', 'spec-kit', '--json'], PERSON);
    expect(second.code).toBe(0);
    const again = second.json.data.changes.find((c: any) => c.change_id === id);
    expect(again.status).toBe('imported');
    expect(again.findings).toContainEqual(expect.objectContaining({ level: 'warning', message: `change ${id} is on the board already, imported from here, and it landed without proposal.md, spec.md, tasks.md, nothing was done on it on the board since, and the source has changed: it lands again from the source as it is now, in place of what landed before` }));
    expect(existsSync(join(dir, `agentd/changes/${id}/spec.md`))).toBe(true);
    expect(existsSync(join(dir, `agentd/changes/${id}/attachments/spec.md`))).toBe(false);
    expect((await ok(dir, ['validate', id])).valid).toBe(true);
    // Landed whole, a third run leaves it.
    expect((await cli(dir, ['import', 'spec-kit', '--json'], PERSON)).json.data.changes.find((c: any) => c.change_id === id).status).toBe('unchanged');

    // Work done on the board is never written over: a change broken in the source again, and fixed, stays as the board has it.
    const other = copy('spec-kit');
    git(other);
    const otherSpec = join(other, 'specs/002-room-search/spec.md');
    writeFileSync(otherSpec, Buffer.concat([Buffer.from(`${lines.slice(0, 4).join('\n')}\nA line `), Buffer.from([0xff, 0xfe]), Buffer.from(`\n${lines.slice(4).join('\n')}`)]));
    await cli(other, ['import', 'spec-kit', '--json'], PERSON);
    await ok(other, ['propose', id, '--as', 'planner', '--why', WHY, '--what-changes', 'Search.', '--impact', 'Rooms.', '--notes', 'Written on the board.']);
    writeFileSync(otherSpec, good);
    const kept = await cli(other, ['import', 'spec-kit', '--json'], PERSON);
    expect(kept.json.data.changes.find((c: any) => c.change_id === id).status).toBe('unchanged');
    expect(existsSync(join(other, `agentd/changes/${id}/spec.md`))).toBe(false);
  });

  it('takes a replacement character (U+FFFD) a document holds as text, not as bytes that are not UTF-8', async () => {
    // A file converted once with errors keeps its replacement characters as valid UTF-8 (EF BF BD).
    const dir = copy('spec-kit');
    const spec = join(dir, 'specs/002-room-search/spec.md');
    const lines = readFileSync(spec, 'utf8').split('\n');
    writeFileSync(spec, [...lines.slice(0, 4), 'A line with \uFFFD where a character was lost.', ...lines.slice(4)].join('\n'));
    const r = await cli(dir, ['import', 'spec-kit', '--dry-run', '--json'], PERSON);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.data.changes.find((c: any) => c.source === 'specs/002-room-search').status).toBe('imported');
    const report = r.json.data.files.find((f: any) => f.file === 'specs/002-room-search/spec.md');
    expect(report.findings.filter((f: any) => f.level === 'error')).toEqual([]);
    const board = await cli(dir, ['import', 'spec-kit', '--json'], PERSON);
    expect(board.code, board.stdout).toBe(0);
    const written = files(dir, 'agentd/changes/room-search').map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    expect(written).toContain('A line with \uFFFD where a character was lost.');
  });

  it('leaves a change of the board that was not imported from the source alone, lands the source\'s beside it under an id of its own, and finds it there again', async () => {
    const dir = copy('openspec');
    await ok(dir, ['init'], PERSON);
    await ok(dir, ['propose', 'add-bookmark-import', '--why', WHY, '--what-changes', 'Mine.', '--impact', 'Mine.', '--notes', 'n.'], PERSON);
    const run = await cli(dir, ['import', 'openspec', '--json'], PERSON);
    expect(run.code).toBe(0);
    const r = run.json.data;
    expect(r.changes.every((c: any) => c.status === 'imported')).toBe(true);
    const landed = r.changes.find((c: any) => c.source === 'openspec/changes/add-bookmark-import');
    expect(landed).toMatchObject({ change_id: 'add-bookmark-import-2', status: 'imported' });
    expect(landed.findings).toContainEqual({ level: 'warning', file: 'openspec/changes/add-bookmark-import', message: 'change add-bookmark-import is on the board already, not imported from here (open or archived), and the board keeps one change per id: this one is add-bookmark-import-2 on the board', fix: 'nothing to do; an import run again finds it under the same id' });
    expect(read(dir, 'agentd/changes/add-bookmark-import/proposal.md')).toContain('Mine.');
    expect(read(dir, 'agentd/changes/add-bookmark-import-2/proposal.md')).toContain('path: openspec/changes/add-bookmark-import/proposal.md');
    const again = (await cli(dir, ['import', 'openspec', '--json'], PERSON)).json.data;
    expect(again.changes.find((c: any) => c.source === 'openspec/changes/add-bookmark-import')).toMatchObject({ change_id: 'add-bookmark-import-2', status: 'unchanged' });
  });

  it('names where each of the source\'s changes under one id landed, when the board holds that id for a change of its own', async () => {
    const dir = copy('openspec');
    const open = 'openspec/changes/add-bookmark-import';
    const archived = 'openspec/changes/archive/2025-01-01-add-bookmark-import';
    mkdirSync(join(dir, archived), { recursive: true });
    write(dir, `${archived}/proposal.md`, read(dir, `${open}/proposal.md`));
    await ok(dir, ['init'], PERSON);
    await ok(dir, ['propose', 'add-bookmark-import', '--why', WHY, '--what-changes', 'Mine.', '--impact', 'Mine.', '--notes', 'n.'], PERSON);
    const r = (await cli(dir, ['import', 'openspec', '--json'], PERSON)).json.data;
    const idOf = (source: string) => r.changes.find((c: any) => c.source === source).change_id;
    expect(idOf(open)).not.toBe('add-bookmark-import');
    const said = r.changes.find((c: any) => c.source === archived).findings.map((f: any) => f.message).join('\n');
    expect(said).toContain(`${open} is ${idOf(open)} on the board, this one ${idOf(archived)}`);
  });

  it('run again after the source\'s task list moved on, says what did not come over, and its lines say they were not imported', async () => {
    const dir = copy('openspec');
    await ok(dir, ['import', 'openspec'], PERSON);
    const file = 'openspec/changes/add-bookmark-import/tasks.md';
    write(dir, file, read(dir, file).replace('- [ ] 2.2 ', '- [x] 2.2 ') + '- [ ] 3.4 A task added in the source later\n');
    const again = (await cli(dir, ['import', 'openspec', '--json'], PERSON)).json.data;
    const row = again.changes.find((c: any) => c.change_id === 'add-bookmark-import');
    expect(row.status).toBe('unchanged');
    expect(row.findings).toContainEqual({ level: 'warning', file, message: "the source's task list of add-bookmark-import differs from the board's: 3.4 is not on the board; 2.2 is done there, not on the board; the board's change is left as it is, so none of that came over", fix: 'bring over what still applies on the board: `agentboard task add add-bookmark-import` for a new task, `agentboard task done` for one finished' });
    const lines = again.files.find((f: any) => f.file === file).lines;
    expect(lines.find((l: any) => l.text.startsWith('- [ ] 3.4')).to).toBe('not imported (add-bookmark-import is on the board already, left as it is): read as task 3.4');
    expect((await ok(dir, ['task', 'show', 'add-bookmark-import/2.2'])).task.status).not.toBe('done');
    // So does a document the source changed since, and the report a person reads says both.
    const proposal = 'openspec/changes/add-bookmark-import/proposal.md';
    write(dir, proposal, `${read(dir, proposal)}\nOne more line written in the source later.\n`);
    const text = await cli(dir, ["import", "openspec"], PERSON);
    expect(text.stdout).toContain(`${file}: warning: the source's task list of add-bookmark-import differs from the board's`);
    expect(text.stdout).toContain(`${proposal}: warning: the source's proposal.md of add-bookmark-import differs from what was imported, and the board's change is left as it is, so none of that came over`);
    // Its fix sends no OpenSpec file to --from, which reads agentboard's own layout and would send it back to import.
    expect(text.stdout).toContain('a planner writes the new one with `agentboard propose add-bookmark-import`, from what the source now says)');
    expect(text.stdout).not.toMatch(/design\.md: warning|spec\.md: warning: the source's/);
  });
});

describe('import reads the shapes the tools accept (test/fixtures/import/shapes/)', () => {
  /** The OpenSpec shapes hold a change that lands with errors on purpose (add-broken): their import exits 1 and says so on its row. */
  const imported = async (dir: string, tool: string, code: number) => {
    const r = await cli(dir, ['import', tool, '--json'], PERSON);
    expect([r.code, r.json?.ok]).toEqual([code, true]);
    return r.json.data;
  };
  const notAStep = (data: any) => data.files.flatMap((f: any) => f.findings.filter((x: any) => x.message.includes('is not a GIVEN, WHEN, THEN or AND step')).map((x: any) => `${f.file}:${x.line}`));

  it('OpenSpec: "**Given** …" lines, a code block in a step, text after the steps and a struck-through heading are read; no capability drops out', async () => {
    const source = copy('shapes/openspec');
    const dir = copy('shapes/openspec');
    const data = await imported(dir, 'openspec', 1);
    expect(notAStep(data).filter((f: string) => f.includes('/add-timers/'))).toEqual([]);
    const timers = data.changes.find((c: any) => c.change_id === 'add-timers');
    expect([timers.phase, timers.attachments, timers.findings]).toEqual(['implementation', [], []]);
    const spec = (await showDocument(dir, 'add-timers', 'spec')).content;
    expect(spec.requirements.map((r: any) => [r.id, r.delta, r.title])).toEqual([
      ['INGREDIENTS-R1', 'MODIFIED', 'Display units by locale'],
      ['INGREDIENTS-R2', 'REMOVED', 'Display Uses Stored Value'],
      ['RECIPES-R1', 'ADDED', 'Recipe steps'],
      ['TIMERS-R1', 'ADDED', 'Range timers'],
      ['TIMERS-R2', 'ADDED', 'Timer help text'],
      ['UNITS-R1', 'ADDED', 'Unit aliases'],
    ]);
    const scenario = (name: string) => spec.scenarios.find((s: any) => s.name === name);
    expect(scenario('Hyphenated range uses maximum value')).toEqual({ name: 'Hyphenated range uses maximum value', requirement: 'TIMERS-R1', given: 'recipe text "Simmer for 5-10 minutes"', when: '`parseTimerDurations()` is called', then: 'it must detect one timer\nAND the duration must be 10 minutes' });
    expect(scenario('Help shows an example file').then).toBe('the page shows the example:\n```markdown\n# Timer keywords\n\n## Minutes\n- min, minutes\n```\nAND the example can be copied');
    expect(scenario('Keywords are stored by unit').then).toBe('the database stores one list per unit\n\n**Validation**:\n\n- The settings form sends hours, minutes and seconds apart');
    const timersFile = data.files.find((f: any) => f.file === 'openspec/changes/add-timers/specs/timers/spec.md');
    expect(timersFile.findings.map((f: any) => [f.level, f.line])).toEqual([
      ['warning', 19],
      ['warning', 21],
    ]);
    expect(spec.sections.find((s: any) => s.heading === 'Note on REMOVED Requirements (units)').text).toBe('None - all existing requirements are kept.');
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
    expect(lost(source, dir, data)).toEqual([]);

    // What the board wrote reads back the same through --from, code block and paragraphs in their steps included.
    const shown = await showDocument(dir, 'add-timers', 'spec');
    await ok(dir, ['propose', 'timers-trip', '--as', 'planner', '--why', WHY, '--what-changes', 'Timers.', '--impact', 'Recipes.', '--notes', 'n.']);
    await ok(dir, ['spec', 'timers-trip', '--as', 'planner', '--from', write(dir, 's.md', shown.markdown), '--notes', 'Round trip.']);
    expect((await showDocument(dir, 'timers-trip', 'spec')).content).toEqual(shown.content);
  });

  it('OpenSpec: a capability that cannot be read keeps the change in its spec phase, the spec rejected, naming the file and line', async () => {
    const dir = copy('shapes/openspec');
    const data = await imported(dir, 'openspec', 1);
    const broken = data.changes.find((c: any) => c.change_id === 'add-broken');
    expect([broken.status, broken.phase, broken.tasks, broken.attachments]).toEqual(['imported_with_errors', 'spec', { total: 2, done: 2 }, ['attachments/specs/broken/spec.md']]);
    const report = data.files.find((f: any) => f.file === 'openspec/changes/add-broken/specs/broken/spec.md');
    expect(report.findings.map((f: any) => [f.level, f.line ?? null])).toEqual([
      ['error', 8],
      ['error', null],
    ]);
    expect(report.findings[1].message).toContain('spec.md lands rejected');
    const spec = await showDocument(dir, 'add-broken', 'spec');
    expect(spec.status).toBe('rejected');
    expect(spec.feedback[0].text).toContain('openspec/changes/add-broken/specs/broken/spec.md:8 (kept as attachments/specs/broken/spec.md)');
    expect((await ok(dir, ['status'])).changes.find((c: any) => c.change_id === 'add-broken').waiting_on).toBe('the spec to be revised after rejection');
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
  });

  it('a checkbox nested under another is its part: the outer task waits for it, and it carries the outer title', async () => {
    const dir = copy('shapes/openspec');
    await imported(dir, 'openspec', 1);
    const t = await tasksOf(dir, 'add-timers');
    expect(Object.fromEntries(Object.entries(t).map(([id, x]) => [id, x.depends]))).toEqual({
      T1: [],
      T2: [],
      T3: ['T1', 'T2'],
      T4: ['T1', 'T2', 'T5', 'T6'],
      T5: ['T1', 'T2'],
      T6: ['T1', 'T2'],
      T7: ['T1', 'T2'],
    });
    expect((await ok(dir, ['task', 'show', 'add-timers/T5'])).task.description).toBe('Part of T4: Tests: add unit tests for');
    const sk = copy('shapes/spec-kit');
    await ok(sk, ['import', 'spec-kit'], PERSON);
    const k = await tasksOf(sk, 'login');
    expect([k.T004!.depends, k.T005!.depends, k.T006!.depends, k.T007!.depends]).toEqual([
      ['T001', 'T002', 'T003', 'T005', 'T006'],
      ['T001', 'T002', 'T003'],
      ['T001', 'T002', 'T003'],
      ['T001', 'T002', 'T004'],
    ]);
    expect((await ok(sk, ['validate', '--all'])).valid).toBe(true);
  });

  it('spec-kit: scenarios parted by 、 or ， or as bullets, wrapped; FR requirements bold or not, with or without bullet or colon, under ## Functional Requirements too', async () => {
    const source = copy('shapes/spec-kit');
    const dir = copy('shapes/spec-kit');
    const data = await ok(dir, ['import', 'spec-kit'], PERSON);
    expect(data.changes.map((c: any) => [c.change_id, c.phase, c.findings])).toEqual([
      ['login', 'implementation', []],
      ['assets', 'tasks', []],
    ]);
    const login = (await showDocument(dir, 'login', 'spec')).content;
    expect(login.scenarios.map((s: any) => [s.name, s.given, s.when, s.then])).toEqual([
      ['User Story 1, scenario 1: ログイン', '登録済みユーザーがログイン画面を開いた状態で', '正しいメールアドレスとパスワードを入力する', 'ホーム画面が表示される'],
      ['User Story 1, scenario 2: ログイン', '登录页面已打开', '输入错误的密码', '显示错误信息'],
      ['User Story 1, scenario 3: ログイン', 'a user with a locked account', 'they log in', 'they are told to reset their password'],
      ['User Story 1, scenario 1a: ログイン', 'a visitor with a registered email and a blank password', 'they submit the login form', 'they see "Enter your password" and stay on the page'],
    ]);
    expect(login.requirements.map((r: any) => [r.id, r.text])).toEqual([
      ['FR-001', 'The system MUST let a registered user log in with email and password.'],
      ['FR-002', 'The system MUST NOT say whether an email is registered.'],
      ['FR-003', 'The system MUST lock an account after five failed attempts within\nfifteen minutes, and MUST unlock it after one hour.'],
    ]);
    const loginFile = data.files.find((f: any) => f.file === 'specs/001-login/spec.md');
    expect(loginFile.findings).toEqual([expect.objectContaining({ level: 'warning', line: 30, message: expect.stringContaining('"FR-003b" cannot be the id of a requirement on the board') })]);
    const assets = (await showDocument(dir, 'assets', 'spec')).content;
    expect(assets.requirements.map((r: any) => [r.id, r.group])).toEqual([
      ['FR-001', 'Asset Registry'],
      ['FR-002', 'Asset Registry'],
      ['FR-003', 'Gear Assignment'],
    ]);
    expect(assets.data_model).toBe('- **Asset**: an apparatus or a piece of gear, with its type, status and unit number.');
    expect(assets.sections.find((s: any) => s.heading === 'Functional Requirements (other text)').text).toBe('### Asset Registry\n\nAll assets are kept in one table with a type column.');
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
    expect(lost(source, dir, data)).toEqual([]);
  });

  it('agentd: "**GIVEN** …" lines, "### 1.1 Title" task blocks, and the summary and impact of the proposal\'s frontmatter are read', async () => {
    const source = copy('shapes/agentd');
    const dir = copy('shapes/agentd');
    const data = await ok(dir, ['import', 'agentd'], PERSON);
    expect(notAStep(data)).toEqual([]);
    expect(data.changes.map((c: any) => [c.change_id, c.phase, c.tasks, c.verdict, c.attachments])).toEqual([['impl-workflow-test', 'review', { total: 2, done: 2 }, 'NEEDS_FIX', ['attachments/STATE.yaml']]]);
    const spec = (await showDocument(dir, 'impl-workflow-test', 'spec')).content;
    expect(spec.scenarios[0]).toMatchObject({ given: 'the greeting module is available', when: '`greet("World")` is called', then: 'it returns `"Hello, World!"`' });
    const t = await tasksOf(dir, 'impl-workflow-test');
    expect(t['2.1']!.depends).toEqual(['1.1']);
    const proposal = (await showDocument(dir, 'impl-workflow-test', 'proposal')).content;
    expect([proposal.what_changes, proposal.impact]).toEqual(['Add a greeting utility to try the implementation workflow end to end', '- **Scope**: minimal\n- **Affected files**: 1\n- **New files**: 1']);
    const report = data.files.find((f: any) => f.file === 'agentd/changes/impl-workflow-test/proposal.md');
    expect(report.findings).toEqual([]);
    expect(report.lines.filter((l: any) => l.line >= 10 && l.line <= 14).map((l: any) => l.to)).toEqual(['What Changes of proposal.md', 'Impact of proposal.md', 'Impact of proposal.md', 'Impact of proposal.md', 'Impact of proposal.md']);
    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
    expect(lost(source, dir, data)).toEqual([]);
  });
});

describe('import again after the source or the board moved on', () => {
  const board = async () => {
    const dir = copy('openspec');
    git(dir);
    await ok(dir, ['import', 'openspec'], PERSON);
    return dir;
  };
  const moveInSource = (dir: string, from: string, to: string) => renameSync(join(dir, 'openspec/changes', from), join(dir, 'openspec/changes', to));

  it('leaves a change the board holds open, with its work, when the source archived it since, and says how to archive it here', async () => {
    const dir = await board();
    const claimed = await ok(dir, ['next', '--as', 'dev1']);
    await ok(dir, ['task', 'done', claimed.task.task_id, '--as', 'dev1']);
    moveInSource(dir, 'add-bookmark-import', 'archive/2026-12-01-add-bookmark-import');
    const before = snapshot(join(dir, 'agentd'));
    const run = await cli(dir, ['import', 'openspec', '--json'], PERSON);
    expect(run.code, run.stdout).toBe(0);
    const row = run.json.data.changes.find((c: any) => c.change_id === 'add-bookmark-import');
    expect([row.status, row.phase, row.tasks, row.archived_to]).toEqual(['unchanged', 'implementation', { total: 9, done: 5 }, null]);
    expect(row.findings.at(-1)).toMatchObject({ level: 'info', fix: expect.stringContaining('`agentboard archive add-bookmark-import`') });
    // Nothing moved: the open change keeps its work, and no half-made folder is left beside it.
    expect(snapshot(join(dir, 'agentd'))).toEqual(before);
    expect(readdirSync(join(dir, 'agentd/changes'))).toEqual(['add-bookmark-import']);
    expect((await tasksOf(dir, 'add-bookmark-import'))[claimed.task.task_id.split('/')[1]]!.status).toBe('done');
  });

  it('leaves a change the board archived alone when the source holds it open, and exits 0', async () => {
    const dir = await board();
    moveInSource(dir, 'archive/2026-11-22-add-bookmark-basics', 'add-bookmark-basics');
    const before = snapshot(join(dir, 'agentd'));
    const run = await cli(dir, ['import', 'openspec', '--json'], PERSON);
    expect(run.code, run.stdout).toBe(0);
    const row = run.json.data.changes.find((c: any) => c.change_id === 'add-bookmark-basics');
    expect([row.status, row.phase, row.tasks, row.archived_to]).toEqual(['unchanged', 'archived', { total: 5, done: 5 }, 'agentd/archive/2026-11-22-add-bookmark-basics']);
    expect(row.findings.map((f: any) => f.level)).toEqual(['info']);
    expect(snapshot(join(dir, 'agentd'))).toEqual(before);
  });

  it('gives an id to the folder named with it, not to one whose name was made into it', async () => {
    const dir = copy('openspec');
    cpSync(join(dir, 'openspec/changes/add-bookmark-import'), join(dir, 'openspec/changes/Add_Bookmark_Import'), { recursive: true });
    const run = await cli(dir, ['import', 'openspec', '--json'], PERSON);
    const rows = run.json.data.changes.filter((c: any) => c.change_id.startsWith('add-bookmark-import')).map((c: any) => [c.change_id, c.source, c.status]);
    expect(rows.sort()).toEqual([
      ['add-bookmark-import', 'openspec/changes/add-bookmark-import', 'imported'],
      ['add-bookmark-import-2', 'openspec/changes/Add_Bookmark_Import', 'imported'],
    ]);
    expect(read(dir, 'agentd/changes/add-bookmark-import/proposal.md')).toContain('path: openspec/changes/add-bookmark-import/proposal.md');
    expect(read(dir, 'agentd/changes/add-bookmark-import-2/proposal.md')).toContain('path: openspec/changes/Add_Bookmark_Import/proposal.md');
  });
});

/** Each task of a change's tasks.md as the file has it: its id, title and group ("" when it has none). */
function groupsIn(dir: string, change: string): [string, string, string][] {
  return [...read(dir, `agentd/changes/${change}/tasks.md`).matchAll(/^## ([^:\n]+): (.*)\n\n```yaml\n([\s\S]*?)```/gm)].map((m) => [m[1]!, m[2]!, /^group: "?(.*?)"?$/m.exec(m[3]!)?.[1] ?? '']);
}

describe('import: sub-group headings of a task list', () => {
  it('keep their tasks under them: each task\'s group names its "## " and "### " headings, a heading with text under it stays in the intro, and the order of work goes by the "## " groups', async () => {
    const dir = copy('openspec');
    const file = 'openspec/changes/add-bookmark-import/tasks.md';
    write(dir, file, [
      '# Tasks', '',
      '## 1. Phase A', '',
      '### A1. Catalog setup', '',
      '- [ ] 1.1 Add the catalog',
      '- [ ] 1.2 Wire the catalog', '',
      '### A2. Migration', '',
      '- [ ] 2.1 Move the packages', '',
      '## 2. Phase B', '',
      'Phase B waits until every task of Phase A is green.', '',
      '### B1. Switch', '',
      '- [ ] 3.1 Switch the CI over', '',
    ].join('\n'));
    const source = copy('openspec');
    write(source, file, read(dir, file));
    const data = await ok(dir, ['import', 'openspec'], PERSON);
    const list = (await showDocument(dir, 'add-bookmark-import', 'tasks')).content;
    expect(groupsIn(dir, 'add-bookmark-import')).toEqual([
      ['1.1', 'Add the catalog', '1. Phase A / A1. Catalog setup'],
      ['1.2', 'Wire the catalog', '1. Phase A / A1. Catalog setup'],
      ['2.1', 'Move the packages', '1. Phase A / A2. Migration'],
      ['3.1', 'Switch the CI over', '2. Phase B / B1. Switch'],
    ]);
    expect(list.tasks.map((t: any) => t.depends)).toEqual([[], [], [], ['1.1', '1.2', '2.1']]);
    // The headings that only head tasks are gone from the intro; the note and the heading it stands under stay, in order.
    const text = read(dir, 'agentd/changes/add-bookmark-import/tasks.md');
    const intro = text.slice(text.indexOf('# Tasks'), text.indexOf('\n## 1.1: '));
    expect(intro).not.toContain('###');
    expect(intro).not.toContain('1. Phase A');
    expect(intro).toContain('\\## 2. Phase B\n\nPhase B waits until every task of Phase A is green.');
    const lines = data.files.find((f: any) => f.file === file).lines;
    expect(lines.find((l: any) => l.text === '### A2. Migration').to).toMatch(/^the group of tasks \S+, under the heading above it$/);
    expect(lost(source, dir, data)).toEqual([]);
    expect((await ok(dir, ['validate', 'add-bookmark-import'])).valid).toBe(true);
  });
});

describe('import: what a title or a missing spec says', () => {
  it('OpenSpec: a proposal titled "Change Proposal: …" keeps its own title, and the report names the line', async () => {
    const dir = copy('openspec');
    const source = copy('openspec');
    const file = 'openspec/changes/add-bookmark-import/proposal.md';
    for (const d of [dir, source]) write(d, file, read(d, file).replace(/^# Proposal\n/, '# Change Proposal: Import bookmarks from a browser\n'));
    const data = await ok(dir, ['import', 'openspec'], PERSON);
    expect((await showDocument(dir, 'add-bookmark-import', 'proposal')).markdown).toContain('\n# Proposal: Import bookmarks from a browser\n');
    expect(data.files.find((f: any) => f.file === file).lines[0]).toMatchObject({ line: 1, text: '# Change Proposal: Import bookmarks from a browser' });
    expect(lost(source, dir, data)).toEqual([]);
  });

  it('spec-kit: a feature without spec.md lands with a warning on its row that says what became of its files', async () => {
    const dir = copy('spec-kit');
    mkdirSync(join(dir, 'specs/003-frontend-design'));
    write(dir, 'specs/003-frontend-design/frontend-design-notes.md', '# Notes\n\nColours and type.\n');
    const data = await ok(dir, ['import', 'spec-kit'], PERSON);
    const row = data.changes.find((c: any) => c.change_id === 'frontend-design');
    expect(row.findings.map((f: any) => [f.level, f.message])).toEqual([['warning', 'the feature has no spec.md, which its proposal and spec are made of, so neither was written (its files are kept in agentd/changes/frontend-design/attachments/)']]);
    expect(read(dir, 'agentd/changes/frontend-design/attachments/frontend-design-notes.md')).toContain('Colours and type.');
  });
});
