/**
 * What `agentboard import` writes, whatever the shape of the source: documents only in the order
 * the board keeps (what cannot land kept in attachments/, with what to do next), a board that
 * validates or a row that says it does not, every change and refusal in the text report, links
 * not followed out of the source, a PATH that is no folder refused, and no temp file outliving a
 * killed import. Sources are copied (test/fixtures/import/out-of-order/) or written in temp folders.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addPerson, cli, cliProcess, FIXTURES, newBoard, ok, read, showDocument, snapshot, tempDir, write } from '../helpers.js';
import { commitAll, PERSON, report, row, SK_SPEC, SK_TASKS } from './import-helpers.js';

/** A copy of the out-of-order fixture, or an empty source, with `files` written into it. */
function source(files: Record<string, string> = {}, fixture = true): string {
  const dir = tempDir('agentboard-source-');
  if (fixture) cpSync(join(FIXTURES, 'import', 'out-of-order'), dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    write(dir, name, text);
  }
  return dir;
}

/** Imports `src` into a new folder: the run (exit code, data) and the folder. */
async function imported(tool: string, src: string, json = true): Promise<{ board: string; code: number; data: any; stdout: string }> {
  const board = tempDir('agentboard-board-');
  const r = await cli(board, ['import', tool, src, ...(json ? ['--json'] : [])], PERSON);
  return { board, code: r.code, data: r.json?.data, stdout: r.stdout };
}


const PROPOSAL = '# Proposal\n\n## Why\n\nPeople lose their place in long lists of bookmarks, so the list should remember it.\n\n## What Changes\n\n- Keep the place.\n\n## Impact\n\n- Web client.\n';
const DELTA = '## ADDED Requirements\n\n### Requirement: Export bookmarks\nThe system SHALL export every bookmark.\n\n#### Scenario: Export\n- **GIVEN** a person with bookmarks\n- **WHEN** they export them\n- **THEN** the file holds them\n';
const TASKS = '# Tasks\n\n## 1. Work\n- [x] 1.1 Do it\n';

describe('a spec with no requirement agentboard reads (old OpenSpec format)', () => {
  it('is kept whole in attachments/ with a warning, and the report never says it became spec.md', async () => {
    const src = source();
    const { board, code, data } = await imported('openspec', src);
    expect(code).toBe(0);
    const dir = 'openspec/changes/archive/2025-01-11-add-update-command';
    expect(row(data, 'add-update-command')).toMatchObject({ status: 'imported', phase: 'archived', documents: ['proposal.md'], attachments: ['attachments/specs/cli-update/spec.md', 'attachments/tasks.md'] });
    const spec = report(data, `${dir}/specs/cli-update/spec.md`);
    expect(spec.to).toEqual(['attachments/specs/cli-update/spec.md']);
    expect(spec.lines).toEqual([]);
    expect(spec.findings).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringMatching(/^no requirement agentboard reads is in the spec .*so no spec\.md was written: this file is kept as agentd\/archive\/2025-01-11-add-update-command\/attachments\/specs\/cli-update\/spec\.md$/) })]);
    expect(report(data, `${dir}/tasks.md`).to).toEqual(['attachments/tasks.md']);
    const archived = join(board, 'agentd/archive/2025-01-11-add-update-command');
    expect(readdirSync(archived).sort()).toEqual(['attachments', 'proposal.md']);
    expect(read(archived, 'attachments/specs/cli-update/spec.md')).toBe(read(src, `${dir}/specs/cli-update/spec.md`));
    const text = (await imported('openspec', src, false)).stdout;
    expect(text).toContain(`${dir}/specs/cli-update/spec.md → attachments/specs/cli-update/spec.md\n`);
    expect(text).not.toContain('cli-update/spec.md → spec.md');
  });

  it('beside a capability that has requirements, its text stays in spec.md, and a warning says it has none', async () => {
    const old = read(join(FIXTURES, 'import', 'out-of-order'), 'openspec/changes/archive/2025-01-11-add-update-command/specs/cli-update/spec.md');
    const src = source({ 'openspec/changes/mixed/proposal.md': PROPOSAL, 'openspec/changes/mixed/specs/export/spec.md': DELTA, 'openspec/changes/mixed/specs/cli-update/spec.md': old, 'openspec/changes/mixed/tasks.md': TASKS }, false);
    const { board, data } = await imported('openspec', src);
    expect(row(data, 'mixed')).toMatchObject({ status: 'imported', phase: 'review', documents: ['proposal.md', 'spec.md', 'tasks.md'] });
    expect(report(data, 'openspec/changes/mixed/specs/cli-update/spec.md').findings).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringContaining('its text is kept in spec.md as sections') })]);
    expect(read(board, 'agentd/changes/mixed/spec.md')).toContain('The update command SHALL update OpenSpec instruction files to the latest templates.');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('documents out of order (a spec with no proposal, tasks with no spec)', () => {
  it('land the same from all three tools: what comes in order is written, the rest kept in attachments/ with what to do next, and the board validates', async () => {
    const expected: Record<string, [string, string, string[], string[]][]> = {
      openspec: [
        ['no-spec', 'spec', ['proposal.md'], ['attachments/tasks.md']],
        ['spec-first', 'proposal', [], ['attachments/specs/export/spec.md']],
      ],
      agentd: [
        ['no-spec', 'spec', ['proposal.md'], ['attachments/tasks.md']],
        ['spec-first', 'proposal', [], ['attachments/specs/export.md']],
      ],
      'spec-kit': [['export', 'proposal', ['design.md'], ['attachments/tasks.md']]],
    };
    for (const [tool, changes] of Object.entries(expected)) {
      const src = source();
      const { board, code, data } = await imported(tool, src);
      expect(code, tool).toBe(0);
      for (const [id, phase, documents, attachments] of changes) {
        expect(row(data, id), `${tool} ${id}`).toMatchObject({ status: 'imported', phase, documents, attachments });
        for (const kept of attachments) expect(existsSync(join(board, 'agentd/changes', id, kept)), `${tool} ${id} ${kept}`).toBe(true);
        expect(readdirSync(join(board, 'agentd/changes', id)).filter((f) => f.endsWith('.md')).sort(), `${tool} ${id}`).toEqual(documents);
      }
      // (the archived change of the fixture is the test above)
      const kept = data.files.filter((f: any) => !f.file.includes('/archive/') && f.to.some((t: string) => /^attachments\/(tasks|specs)/.test(t)));
      expect(kept.length, tool).toBe(changes.length);
      for (const f of kept) {
        expect(f.findings, `${tool} ${f.file}`).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringMatching(/^the change has no (proposal|spec)\b.*, so no (spec|tasks)\.md was written: this file is kept as agentd\/changes\//) })]);
        expect(f.findings[0].fix, `${tool} ${f.file}`).toMatch(/^write (the proposal|the spec|them) first with `agentboard (propose|spec) [a-z-]+`.*; then submit the (spec|tasks) with `agentboard (spec|tasks) [a-z-]+`.*, its --from reading agentd\/changes\//);
      }
      expect((await ok(board, ['validate', '--all'])).valid, tool).toBe(true);
    }
  });

  it('what the finding says to do next works: the proposal, then the spec from its attachment', async () => {
    const { board } = await imported('agentd', source());
    await ok(board, ['propose', 'spec-first', '--why', 'People want to take their bookmarks to another tool, and today they cannot.', '--what-changes', 'Add an export.', '--impact', 'Web only.', '--notes', 'n.', '--as', 'planner']);
    await ok(board, ['spec', 'spec-first', '--from', 'agentd/changes/spec-first/attachments/specs/export.md', '--notes', 'n.', '--as', 'planner']);
    expect((await ok(board, ['show', 'spec-first'])).phase).toBe('tasks');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('an OpenSpec change that only removes or renames requirements', () => {
  const REMOVALS = '## REMOVED Requirements\n\n### Requirement: Tag colors\n**Reason**: Browser exports carry no colors.\n**Migration**: None. Tags keep their names.\n\n## RENAMED Requirements\n\n- FROM: `### Requirement: Tag listing`\n- TO: `### Requirement: Tag browsing`\n';
  // OpenSpec also lists removals as bullets, and a removal needs no Reason.
  const BULLETS = '## REMOVED Requirements\n\n- `### Requirement: Color picker`\n- `### Requirement: Color legend`\n\n### Requirement: Color export\n';

  it('lands clean: each removal and rename is in spec.md, saying what the change does to it, and the board validates', async () => {
    const src = source({ 'openspec/changes/drop-colors/proposal.md': PROPOSAL, 'openspec/changes/drop-colors/specs/tags/spec.md': REMOVALS, 'openspec/changes/drop-colors/specs/colors/spec.md': BULLETS, 'openspec/changes/drop-colors/tasks.md': TASKS }, false);
    const { board, code, data } = await imported('openspec', src);
    expect(code).toBe(0);
    expect(row(data, 'drop-colors')).toMatchObject({ status: 'imported', phase: 'review', documents: ['proposal.md', 'spec.md', 'tasks.md'], attachments: [], findings: [] });
    for (const capability of ['tags', 'colors']) {
      expect(report(data, `openspec/changes/drop-colors/specs/${capability}/spec.md`)).toMatchObject({ to: ['spec.md'], findings: [] });
    }
    expect(report(data, 'openspec/changes/drop-colors/specs/colors/spec.md').lines.filter((l: any) => l.to.startsWith('requirement')).map((l: any) => [l.line, l.to])).toEqual([
      [3, 'requirement COLORS-R1 of spec.md (REMOVED, capability colors)'],
      [4, 'requirement COLORS-R2 of spec.md (REMOVED, capability colors)'],
      [6, 'requirement COLORS-R3 of spec.md (REMOVED, capability colors)'],
    ]);
    const spec = (await showDocument(board, 'drop-colors', 'spec')).content;
    expect(spec.requirements.map((r: any) => [r.id, r.delta, r.title, r.text])).toEqual([
      ['COLORS-R1', 'REMOVED', 'Color picker', 'This change removes the requirement "Color picker" from the capability colors.\n\n- `### Requirement: Color picker`'],
      ['COLORS-R2', 'REMOVED', 'Color legend', 'This change removes the requirement "Color legend" from the capability colors.\n\n- `### Requirement: Color legend`'],
      ['COLORS-R3', 'REMOVED', 'Color export', 'This change removes the requirement "Color export" from the capability colors.'],
      ['TAGS-R1', 'REMOVED', 'Tag colors', 'This change removes the requirement "Tag colors" from the capability tags.\n\n**Reason**: Browser exports carry no colors.\n**Migration**: None. Tags keep their names.'],
      ['TAGS-R2', 'RENAMED', 'Tag browsing', 'This change renames the requirement "Tag listing" of the capability tags to "Tag browsing".\n\n- FROM: `### Requirement: Tag listing`\n- TO: `### Requirement: Tag browsing`'],
    ]);
    expect(spec.scenarios).toEqual([]);
    const md = read(board, 'agentd/changes/drop-colors/spec.md');
    expect(md).toContain('## REMOVED Requirements: tags\n\n### TAGS-R1: Tag colors\n\nThis change removes the requirement "Tag colors" from the capability tags.\n\n**Reason**: Browser exports carry no colors.\n');
    expect(md).toContain('## RENAMED Requirements: tags\n\n### TAGS-R2: Tag browsing\n\nThis change renames the requirement "Tag listing" of the capability tags to "Tag browsing".\n\n- FROM: `### Requirement: Tag listing`\n- TO: `### Requirement: Tag browsing`\n');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
    const text = (await imported('openspec', src, false)).stdout;
    expect(text).toMatch(/\ndrop-colors +imported +review +/);
    expect(text).not.toContain('Findings:');
  });

  it('its spec, rejected, goes back through --from as show prints it: no scenario is asked for', async () => {
    const src = source({ 'openspec/changes/drop-colors/proposal.md': PROPOSAL, 'openspec/changes/drop-colors/specs/tags/spec.md': REMOVALS, 'openspec/changes/drop-colors/tasks.md': TASKS }, false);
    const { board } = await imported('openspec', src);
    const before = (await showDocument(board, 'drop-colors', 'spec')).content;
    expect((await cli(board, ['reject', 'drop-colors', 'spec', '--feedback', 'Say why the listing is renamed.'], PERSON)).code).toBe(0);
    const shown = await cli(board, ['show', 'drop-colors', 'spec']);
    const again = await cli(board, ['spec', 'drop-colors', '--from', write(board, 'back.md', shown.stdout), '--notes', 'n.', '--as', 'planner']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await showDocument(board, 'drop-colors', 'spec')).content.requirements).toEqual(before.requirements);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit spec.md whose FR lines stand under no Requirements heading', () => {
  it('says the form spec-kit\'s requirements are read in, and a next step that does not send the file back to the board\'s --from', async () => {
    const spec = '# Feature Specification: New\n\n**Input**: User description: "let people find what they wrote last week without scrolling through everything"\n\n### User Story 1 - Find (Priority: P1)\n\n1. **Given** a note, **When** a person searches, **Then** it is found.\n\n- **FR-001**: System MUST find notes.\n';
    const { data } = await imported('spec-kit', source({ 'specs/007-new/spec.md': spec }, false));
    const finding = report(data, 'specs/007-new/spec.md').findings.find((f: any) => f.message.startsWith('no requirement'));
    expect(finding.message).toMatch(/^no requirement agentboard reads is in the spec \(spec-kit's "- \*\*FR-001\*\*: The system MUST …" lines or "### FR-001: Title" headings, under a "## Requirements" or "## Functional Requirements" heading\), so no spec\.md was written/);
    expect(finding.fix).not.toContain('--from');
    expect(finding.fix).toMatch(/^write its requirements, each saying what MUST or SHALL be; then submit the spec with `agentboard spec new`/);
  });
});

describe('an OpenSpec change folder with no document (a .gitkeep alone)', () => {
  it('lands with none, and its row says so and what to write, as a spec-kit feature with no spec.md does', async () => {
    const { code, data } = await imported('openspec', source({ 'openspec/changes/ghost-change/.gitkeep': '', 'openspec/changes/real/proposal.md': PROPOSAL }, false));
    expect(code).toBe(0);
    expect(row(data, 'ghost-change')).toMatchObject({ status: 'imported', phase: 'proposal', documents: [] });
    expect(row(data, 'ghost-change').findings).toContainEqual(expect.objectContaining({ level: 'warning', message: 'the change has no proposal.md, spec or tasks.md, so none was written (its files are kept in agentd/changes/ghost-change/attachments/)' }));
  });
});

describe('an OpenSpec proposal written in French', () => {
  it('takes its Pourquoi and Changements as its Why and What Changes, with no placeholder saying it states none', async () => {
    const why = 'Les gens cherchent leurs notes par mots-clés et ne les trouvent pas quand les mots diffèrent.';
    const { board, code, data } = await imported('openspec', source({ 'openspec/changes/recherche-fr/proposal.md': `# Proposal\n\n## Pourquoi\n\n${why}\n\n## Changements\n\n- Ajouter une recherche plein texte\n\n## Impact\n\n- notes\n` }, false));
    expect(code).toBe(0);
    const proposal = (await showDocument(board, 'recherche-fr', 'proposal')).content;
    expect([proposal.why, proposal.what_changes]).toEqual([why, '- Ajouter une recherche plein texte']);
    expect(report(data, 'openspec/changes/recherche-fr/proposal.md').findings.filter((f: any) => f.level === 'warning')).toEqual([]);
    // German, with its umlaut: Änderungen is What Changes.
    const de = await imported('openspec', source({ 'openspec/changes/suche/proposal.md': `# Proposal\n\n## Warum\n\n${why}\n\n## Änderungen\n\n- Volltextsuche\n\n## Auswirkungen\n\n- Notizen\n` }, false));
    expect((await showDocument(de.board, 'suche', 'proposal')).content).toMatchObject({ why, what_changes: '- Volltextsuche', impact: '- Notizen' });
  });
});

describe('an OpenSpec proposal.md that states nothing', () => {
  it('lands no proposal of placeholders: the file is kept in attachments/, a warning says what to write, and the change waits in its proposal phase', async () => {
    const { code, data } = await imported('openspec', source({ 'openspec/changes/empty-docs/proposal.md': '' }, false));
    expect(code).toBe(0);
    expect(row(data, 'empty-docs')).toMatchObject({ status: 'imported', phase: 'proposal', documents: [], attachments: ['attachments/proposal.md'] });
    expect(report(data, 'openspec/changes/empty-docs/proposal.md').findings).toEqual([
      expect.objectContaining({ level: 'warning', message: 'proposal.md is empty: it states no Why, What Changes or Impact, so no proposal.md was written: this file is kept as agentd/changes/empty-docs/attachments/proposal.md' }),
    ]);
  });
});

describe('a spec-kit spec.md that states nothing a proposal is made of', () => {
  const STORY = '## User Scenarios & Testing\n\n### User Story 1 - Book (Priority: P1)\n\nA person books a room.\n\n**Acceptance Scenarios**:\n\n1. **Given** a free room, **When** a person books it, **Then** it is booked.\n\n';
  const FRS = '## Requirements\n\n- **FR-001**: System MUST let people book rooms.\n';
  const SK_TASKS = '# Tasks\n\n## Phase 1: Setup\n\n- [ ] T001 Create the project\n';
  /** Nothing the import wrote of its own in place of the user's text. */
  const INVENTED = /as spec-kit's spec\.md describes it|See the success criteria in the spec/;

  it('lands no proposal and writes no text in its place: a warning names the file, what is missing and what to write, and the change waits in its proposal phase', async () => {
    const src = source({
      'specs/001-empty/spec.md': '',
      'specs/002-template/spec.md': '# Feature Specification: Template\n\n## User Scenarios & Testing *(mandatory)*\n\n## Requirements *(mandatory)*\n\n## Success Criteria *(mandatory)*\n',
      'specs/002-template/tasks.md': SK_TASKS,
      'specs/003-only-requirements/spec.md': `# Feature Specification: Only requirements\n\n${FRS}`,
    }, false);
    const { board, code, data } = await imported('spec-kit', src);
    expect(code).toBe(0);
    expect(data.changes.map((c: any) => [c.change_id, c.status, c.phase, c.documents, c.attachments])).toEqual([
      ['empty', 'imported', 'proposal', [], ['attachments/spec.md']],
      ['template', 'imported', 'proposal', [], ['attachments/spec.md', 'attachments/tasks.md']],
      ['only-requirements', 'imported', 'proposal', [], ['attachments/spec.md']],
    ]);
    expect(report(data, 'specs/001-empty/spec.md')).toMatchObject({ to: ['attachments/spec.md'], lines: [] });
    expect(report(data, 'specs/001-empty/spec.md').findings).toEqual([
      {
        level: 'warning',
        message: 'spec.md is empty: it states no user request (an "**Input**:" line), user story, requirement or success criteria, which the proposal and the spec are made of, so neither proposal.md nor spec.md was written: this file is kept as agentd/changes/empty/attachments/spec.md',
        fix: 'write the proposal of the change (why it is needed, what changes, its impact) with `agentboard propose empty` giving `--why`, `--what-changes`, `--impact` and `--notes`, then its spec with `agentboard spec empty` giving `--overview` and `--notes`, with the requirements and scenarios in `--input` FILE.json',
      },
    ]);
    expect(report(data, 'specs/002-template/spec.md').findings).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringMatching(/^spec\.md states no user request .*, so neither proposal\.md nor spec\.md was written: this file is kept as agentd\/changes\/template\/attachments\/spec\.md$/) })]);
    expect(report(data, 'specs/003-only-requirements/spec.md').findings).toEqual([
      {
        level: 'warning',
        message: 'spec.md states no user request (an "**Input**:" line), user story or success criteria, which the proposal is made of, so no proposal.md was written, nor the spec.md of its requirements, which comes after the proposal: this file is kept as agentd/changes/only-requirements/attachments/spec.md',
        fix: 'write the proposal of the change (why it is needed, what changes, its impact) with `agentboard propose only-requirements` giving `--why`, `--what-changes`, `--impact` and `--notes`, then its spec, with the requirements of agentd/changes/only-requirements/attachments/spec.md, with `agentboard spec only-requirements` giving `--overview` and `--notes`, with the requirements and scenarios in `--input` FILE.json',
      },
    ]);
    expect(report(data, 'specs/002-template/tasks.md').findings).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringMatching(/^the change has no proposal and no spec, which come before its tasks, so no tasks\.md was written/) })]);
    for (const id of ['empty', 'template', 'only-requirements']) {
      expect(readdirSync(join(board, 'agentd/changes', id)), id).toEqual(['attachments']);
    }
    expect(JSON.stringify(snapshot(join(board, 'agentd')))).not.toMatch(INVENTED);
    const status = await ok(board, ['status']);
    expect(status.changes.map((c: any) => [c.change_id, c.waiting_on])).toEqual([
      ['empty', 'the proposal to be written'],
      ['only-requirements', 'the proposal to be written'],
      ['template', 'the proposal to be written'],
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
    const text = (await imported('spec-kit', src, false)).stdout;
    expect(text).toContain('\n  specs/001-empty/spec.md: warning: spec.md is empty: ');

    // What the warning says to do works: the proposal on the board, and the change moves on to its spec.
    await ok(board, ['propose', 'empty', '--why', 'People cannot book rooms, so they walk the floor looking for a free one.', '--what-changes', 'Add bookings.', '--impact', 'Web only.', '--notes', 'n.', '--as', 'planner']);
    expect((await ok(board, ['show', 'empty'])).phase).toBe('spec');
  });

  it('a spec.md with user stories but no Input or success criteria: what it does not state is said to be not stated, with a warning', async () => {
    const src = source({ 'specs/004-stories/spec.md': `# Feature Specification: Stories\n\n${STORY}${FRS}` }, false);
    const { board, code, data } = await imported('spec-kit', src);
    expect(code).toBe(0);
    expect(row(data, 'stories')).toMatchObject({ status: 'imported', phase: 'tasks', documents: ['proposal.md', 'spec.md'] });
    const proposal = (await showDocument(board, 'stories', 'proposal')).content;
    expect([proposal.why, proposal.what_changes, proposal.impact]).toEqual(["Spec-kit's spec.md does not say why the change is needed.", '- User Story 1 - Book (P1)', "Not stated in spec-kit's spec.md."]);
    expect(report(data, 'specs/004-stories/spec.md').findings.map((f: any) => [f.level, f.message])).toEqual([
      ['warning', "spec-kit's spec.md has no Why, which agentboard asks for; the proposal says it is not stated"],
      ['warning', 'spec-kit\'s spec.md has no Impact, which agentboard asks for; the proposal says "Not stated in spec-kit\'s spec.md."'],
    ]);
    expect(JSON.stringify(snapshot(join(board, 'agentd')))).not.toMatch(INVENTED);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a source valid by its own rules that breaks the board\'s', () => {
  it('a Why longer than the board allows: the rest of it is the section right after it, with a warning', async () => {
    const sentence = 'Users need a thing so that they can do their work faster than they do today. ';
    const why = sentence.repeat(28).trim();
    const src = source({ 'openspec/changes/long-why/proposal.md': `## Why\n${why}\n\n## What Changes\n- Add the thing\n\n## Impact\n- core\n`, 'openspec/changes/long-why/specs/cap/spec.md': DELTA, 'openspec/changes/long-why/tasks.md': TASKS }, false);
    const { board, code, data } = await imported('openspec', src);
    expect(code).toBe(0);
    expect(row(data, 'long-why')).toMatchObject({ status: 'imported', findings: [] });
    expect(report(data, 'openspec/changes/long-why/proposal.md').findings).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringContaining(`the Why has ${why.length} characters, more than the 2000`) })]);
    const proposal = (await showDocument(board, 'long-why', 'proposal')).content;
    expect(proposal.why.length).toBeLessThanOrEqual(2000);
    expect(proposal.why).toMatch(/today\.\n\n\(Continued in the section "Why \(continued\)"\.\)$/);
    expect(proposal.sections).toEqual([expect.objectContaining({ heading: 'Why (continued)', after: 'why' })]);
    expect(`${proposal.why.replace(/\n\n\(Continued.*$/, '')} ${proposal.sections[0].text}`).toBe(why);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });

  it('a task id given to several items: the later ones get ids of their own, with a warning', async () => {
    const src = source({
      'specs/029-refactor/spec.md': '# Feature Specification: Refactor\n\n**Input**: User description: "move the store to an ORM so that queries are written once"\n\n## User Scenarios & Testing\n\n### User Story 1 - Store (Priority: P1)\n\nA developer reads the store.\n\n**Acceptance Scenarios**:\n\n1. **Given** a store, **When** a developer reads it, **Then** it answers.\n\n## Requirements\n\n- **FR-001**: System MUST keep every query working.\n',
      'specs/029-refactor/tasks.md': '# Tasks: Refactor\n\n## Phase 1: Setup\n\n- [x] T000 Create the folders\n- [x] T000 Create the connection\n- [ ] T000 Create the test helper\n\n## Phase 2: Models\n\n- [ ] T00 [P] Family model\n- [ ] T00 [P] Parent model\n',
    }, false);
    const { board, code, data } = await imported('spec-kit', src);
    expect(code).toBe(0);
    expect(row(data, 'refactor')).toMatchObject({ status: 'imported', tasks: { total: 5, done: 2 }, findings: [] });
    expect(report(data, 'specs/029-refactor/tasks.md').findings.filter((f: any) => f.level !== 'info')).toEqual([
      expect.objectContaining({ level: 'warning', line: 5, message: expect.stringContaining('the task id T000 is given to 3 items of the list; the first (line 5) keeps it, the others are T000-2 (line 6), T000-3 (line 7)') }),
      expect.objectContaining({ level: 'warning', line: 11, message: expect.stringContaining('the others are T00-2 (line 12)') }),
    ]);
    const tasks = (await ok(board, ['task', 'list', '--change', 'refactor'])).tasks;
    expect(tasks.map((t: any) => [t.id, t.depends])).toEqual([
      ['T000', []],
      ['T000-2', ['T000']],
      ['T000-3', ['T000-2']],
      ['T00', ['T000', 'T000-2', 'T000-3']],
      ['T00-2', ['T000', 'T000-2', 'T000-3']],
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });

  it('capability folders whose names make no requirement prefix, or the same one: CAP1, USER-AUTH2', async () => {
    const src = source({ 'openspec/changes/auth/proposal.md': PROPOSAL, 'openspec/changes/auth/specs/用户认证/spec.md': DELTA, 'openspec/changes/auth/specs/user-auth/spec.md': DELTA, 'openspec/changes/auth/specs/user_auth/spec.md': DELTA, 'openspec/changes/auth/tasks.md': TASKS }, false);
    const { board, data } = await imported('openspec', src);
    expect(row(data, 'auth')).toMatchObject({ status: 'imported', findings: [] });
    const spec = (await showDocument(board, 'auth', 'spec')).content;
    expect(spec.requirements.map((r: any) => [r.id, r.group])).toEqual([
      ['USER-AUTH-R1', 'user-auth'],
      ['USER-AUTH2-R1', 'user_auth'],
      ['CAP1-R1', '用户认证'],
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });

  it('what still breaks a rule lands flagged: "imported with errors", the finding at the file it was written to (the archive), exit 1', async () => {
    const title = `Proposal: ${'a very long title '.repeat(13).trim()}`;
    const dir = 'openspec/changes/archive/2025-10-14-long-title';
    const src = source({ [`${dir}/proposal.md`]: PROPOSAL.replace('# Proposal', `# ${title}`), [`${dir}/specs/cap/spec.md`]: DELTA, [`${dir}/tasks.md`]: TASKS }, false);
    const { board, code, data } = await imported('openspec', src);
    expect(code).toBe(1);
    const change = row(data, 'long-title');
    expect(change).toMatchObject({ status: 'imported_with_errors', archived_to: 'agentd/archive/2025-10-14-long-title' });
    expect(change.findings).toEqual([expect.objectContaining({ level: 'error', file: 'agentd/archive/2025-10-14-long-title/proposal.md', message: expect.stringContaining('(proposal.title.too_long)') })]);
    expect(existsSync(join(board, 'agentd/archive/2025-10-14-long-title/proposal.md'))).toBe(true);
    const text = (await imported('openspec', src, false)).stdout;
    expect(text).toMatch(/^Imported 1 change from openspec \(.*\) \(1 with errors\):/);
    expect(text).toMatch(/long-title +imported with errors +archived \(agentd\/archive\/2025-10-14-long-title\)/);
    expect(text).toContain(`${dir}/proposal.md: error: agentd/archive/2025-10-14-long-title/proposal.md:`);
  });
});

describe('a PATH that is no folder, and links in the source', () => {
  it('a PATH that is a file, or nothing: refused by name, nothing written', async () => {
    const where = tempDir();
    write(where, 'afile', 'not a repository\n');
    for (const tool of ['openspec', 'spec-kit', 'agentd']) {
      for (const [path, said] of [['afile', 'is a file, not a folder'], ['nothere', 'does not exist']]) {
        const r = await cli(where, ['import', tool, path, '--json'], PERSON);
        expect(r.code, `${tool} ${path}`).not.toBe(0);
        expect(r.json.error, `${tool} ${path}`).toMatchObject({ code: 'IMPORT_REFUSED', message: `${join(where, path)} ${said}, so there is no repository there to import from.` });
      }
    }
    expect(readdirSync(where)).toEqual(['afile']);
  });

  it("a PATH that is the tool's board folder is read as its repository; one inside it (a change, a feature) is refused with the root to give", async () => {
    const where = tempDir();
    const repo = join(where, 'repo');
    cpSync(source({ 'openspec/changes/add-thing/proposal.md': PROPOSAL, 'specs/001-rooms/spec.md': '# Feature Specification: Rooms\n\n## Requirements\n\n- **FR-001**: System MUST work.\n' }, false), repo, { recursive: true });
    const board = join(where, 'board');
    mkdirSync(board);
    expect((await cli(board, ['import', 'openspec', '../repo/openspec/changes', '--dry-run', '--json'], PERSON)).json.data.changes.map((c: any) => c.change_id)).toEqual(['add-thing']);
    for (const [tool, path, own] of [['openspec', '../repo/openspec/changes/add-thing', 'openspec'], ['spec-kit', '../repo/specs/001-rooms', 'specs']]) {
      const r = await cli(board, ['import', tool!, path!, '--json'], PERSON);
      expect(r.code, path).toBe(1);
      expect(r.json.error, path).toMatchObject({ code: 'IMPORT_REFUSED', message: `${path} is a folder inside ${own}/ of a repository, and an import reads a whole repository.`, next_step: `Give the root of that repository as PATH: \`agentboard import ${tool} ../repo\`.` });
    }
    expect(readdirSync(board)).toEqual([]);
  });

  it('a link out of the repository, to a folder or back into itself, is not followed and is named; a link to a file of the repository is read', async () => {
    const outside = tempDir();
    write(outside, 'secret.txt', 'a file of this machine\n');
    const src = source({ 'openspec/changes/add-thing/proposal.md': PROPOSAL, 'openspec/changes/add-thing/specs/cap/spec.md': DELTA, 'openspec/changes/add-thing/tasks.md': TASKS, 'openspec/notes/shared.md': 'Shared notes.\n' }, false);
    const change = join(src, 'openspec/changes/add-thing');
    symlinkSync(join(outside, 'secret.txt'), join(change, 'host.md'));
    symlinkSync('..', join(change, 'loop'));
    symlinkSync('self', join(change, 'self'));
    symlinkSync('../../notes/shared.md', join(change, 'shared.md'));
    const { board, code, data } = await imported('openspec', src);
    expect(code).toBe(0);
    expect(row(data, 'add-thing')).toMatchObject({ status: 'imported', phase: 'review', attachments: ['attachments/shared.md'] });
    const skipped = (name: string) => report(data, `openspec/changes/add-thing/${name}`);
    expect(skipped('host.md')).toMatchObject({ to: ['left where it is (openspec/changes/add-thing/host.md)'], findings: [expect.objectContaining({ level: 'warning', message: expect.stringContaining('a symbolic link that leads out of the repository') })] });
    expect(skipped('loop').findings[0].message).toContain('a symbolic link to a folder');
    expect(skipped('self').findings[0].message).toContain('a symbolic link that leads nowhere (or back to itself)');
    const attachments = join(board, 'agentd/changes/add-thing/attachments');
    expect(readdirSync(attachments)).toEqual(['shared.md']);
    expect(read(attachments, 'shared.md')).toBe('Shared notes.\n');
    expect(JSON.stringify(snapshot(join(board, 'agentd')))).not.toContain('host.md');
  });
});

describe('a source that holds one change id both open and archived', () => {
  it('gives the open one the id, whatever the order of the folders, and lands the archived ones under ids of their own, found again by an import run again', async () => {
    const src = source({
      'openspec/changes/zeta-thing/proposal.md': PROPOSAL,
      'openspec/changes/archive/2025-01-01-zeta-thing/proposal.md': PROPOSAL,
      'openspec/changes/archive/2025-01-01-zeta-thing/tasks.md': TASKS,
      'openspec/changes/archive/2025-02-01-zeta-thing/proposal.md': PROPOSAL,
    }, false);
    const board = tempDir('agentboard-board-');
    const first = await cli(board, ['import', 'openspec', src, '--json'], PERSON);
    expect(first.code).toBe(0);
    const from = 'openspec/changes/archive/2025-01-01-zeta-thing';
    expect(first.json.data.changes.map((c: any) => [c.change_id, c.source, c.status, c.archived_to])).toEqual([
      ['zeta-thing-2', from, 'imported', 'agentd/archive/2025-01-01-zeta-thing-2'],
      ['zeta-thing-3', 'openspec/changes/archive/2025-02-01-zeta-thing', 'imported', 'agentd/archive/2025-02-01-zeta-thing-3'],
      ['zeta-thing', 'openspec/changes/zeta-thing', 'imported', null],
    ]);
    expect(first.json.data.changes[0].findings).toContainEqual({ level: 'warning', file: from, message: 'the source holds change zeta-thing more than once, and the board keeps one change per id (an archived change keeps its id): openspec/changes/zeta-thing is zeta-thing on the board, this one zeta-thing-2', fix: 'nothing to do; an import run again finds it under the same id' });
    expect(readdirSync(join(board, 'agentd/changes'))).toEqual(['zeta-thing']);
    expect(readdirSync(join(board, 'agentd/archive'))).toEqual(['2025-01-01-zeta-thing-2', '2025-02-01-zeta-thing-3']);
    const again = await cli(board, ['import', 'openspec', src, '--json'], PERSON);
    expect(again.code).toBe(0);
    expect(again.json.data.changes.map((c: any) => [c.change_id, c.status])).toEqual([
      ['zeta-thing-2', 'unchanged'],
      ['zeta-thing-3', 'unchanged'],
      ['zeta-thing', 'unchanged'],
    ]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('an OpenSpec change archived by hand (openspec/changes/archive/<name>/, no date before the name)', () => {
  it('lands archived on the day of the last commit that changed its folder, and the report says so', async () => {
    const src = source({ 'openspec/changes/archive/add-thing/proposal.md': PROPOSAL, 'openspec/changes/archive/add-thing/specs/bookmarks/spec.md': DELTA, 'openspec/changes/archive/add-thing/tasks.md': TASKS, 'openspec/changes/keep-place/proposal.md': PROPOSAL }, false);
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_DATE: '2025-03-04T12:00:00Z', GIT_COMMITTER_DATE: '2025-03-04T12:00:00Z' };
    for (const args of [['init', '-q'], ['add', '-A'], ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'archive add-thing']]) spawnSync('git', args, { cwd: src, env });
    const { board, code, data } = await imported('openspec', src);
    expect(code).toBe(0);
    expect(row(data, 'add-thing')).toMatchObject({ status: 'imported', phase: 'archived', archived_to: 'agentd/archive/2025-03-04-add-thing', documents: ['proposal.md', 'spec.md', 'tasks.md'], tasks: { total: 1, done: 1 } });
    expect(row(data, 'add-thing').findings).toContainEqual({
      level: 'warning',
      file: 'openspec/changes/archive/add-thing',
      message: "the archived change's folder has no date before its name (YYYY-MM-DD-add-thing, as `openspec archive` names it): it lands archived on 2025-03-04, the day of the last commit that changed the folder",
      fix: 'nothing to do, or rename the folder to the day it was archived (YYYY-MM-DD-add-thing) in the source before importing',
    });
    expect(readdirSync(join(board, 'agentd/archive'))).toEqual(['2025-03-04-add-thing']);
    const again = (await cli(board, ['import', 'openspec', src, '--json'], PERSON)).json.data;
    expect(again.changes.map((c: any) => [c.change_id, c.status])).toEqual([['add-thing', 'unchanged'], ['keep-place', 'unchanged']]);
  });
});

describe('a source imported again after work went on on the board', () => {
  it('tells each change as the board holds it: its phase, and the tasks done since', async () => {
    const src = source({ 'openspec/changes/keep-place/proposal.md': PROPOSAL, 'openspec/changes/keep-place/specs/bookmarks/spec.md': DELTA, 'openspec/changes/keep-place/tasks.md': TASKS.replace('- [x] 1.1 Do it', '- [ ] 1.1 Do it\n- [ ] 1.2 Check it') }, false);
    const first = await imported('openspec', src);
    expect(row(first.data, 'keep-place')).toMatchObject({ status: 'imported', phase: 'implementation', tasks: { total: 2, done: 0 } });
    await ok(first.board, ['task', 'done', 'keep-place/1.1', '--as', 'codex']);
    const again = (await cli(first.board, ['import', 'openspec', src, '--json'], PERSON)).json.data;
    expect(row(again, 'keep-place')).toMatchObject({ status: 'unchanged', phase: 'implementation', tasks: { total: 2, done: 1 } });
  });
});

describe('the text report', () => {
  it('shows every change with its id and reason, uppercase folders as their id, a name too long cut after its last whole word, and judges a spec-kit name without its number', async () => {
    const long = 'a-feature-name-of-sixty-two-characters-that-fits-as-a-change-id';
    const tooLong = 'another-feature-whose-name-runs-on-well-past-the-sixty-four-characters-of-an-id';
    const src = source({
      'openspec/changes/add-thing/proposal.md': PROPOSAL,
      'openspec/changes/archive/2025-01-01-add-thing/proposal.md': PROPOSAL,
      'openspec/changes/UI-FIX-2/proposal.md': PROPOSAL,
      'openspec/changes/!!!/proposal.md': PROPOSAL,
      [`specs/001-${long}/spec.md`]: '# Feature Specification: Long\n\n## Requirements\n\n- **FR-001**: System MUST work.\n',
      [`specs/002-${tooLong}/spec.md`]: '# Feature Specification: Longer\n\n## Requirements\n\n- **FR-001**: System MUST work.\n',
    }, false);
    const os = await imported('openspec', src, false);
    expect(os.code).toBe(1);
    expect(os.stdout).toMatch(/^Imported 3 changes from openspec \(.*\) \(1 refused\):/);
    expect(os.stdout).toMatch(/\nadd-thing-2 +imported +archived \(agentd\/archive\/2025-01-01-add-thing-2\) +- +- +openspec\/changes\/archive\/2025-01-01-add-thing\n/);
    expect(os.stdout).toMatch(/\nui-fix-2 +imported +spec +- +- +openspec\/changes\/UI-FIX-2\n/);
    expect(os.stdout).toContain('\n  openspec/changes/archive/2025-01-01-add-thing: warning: the source holds change add-thing more than once, and the board keeps one change per id (an archived change keeps its id): openspec/changes/add-thing is add-thing on the board, this one add-thing-2');
    expect(os.stdout).toContain('\n  openspec/changes/!!!: error: the change folder openspec/changes/!!! cannot be a change of agentboard: "!!!" has no letter a-z or digit to make a change id of');
    // Run again, it says that nothing is new, though one change is still refused.
    const again = await cli(os.board, ['import', 'openspec', src], PERSON);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^Nothing new from openspec \(.*\): 3 of its 4 changes are on the board already \(1 refused\)\.\n/);
    const sk = await imported('spec-kit', src);
    expect(sk.code).toBe(0);
    expect(row(sk.data, long)).toMatchObject({ status: 'imported', source: `specs/001-${long}` });
    // Cut after "sixty-four": the longest id is 64 characters.
    const cut = 'another-feature-whose-name-runs-on-well-past-the-sixty-four';
    expect(row(sk.data, cut)).toMatchObject({ status: 'imported', source: `specs/002-${tooLong}` });
    expect(row(sk.data, cut).findings).toContainEqual({ level: 'info', file: `specs/002-${tooLong}`, message: `the change "${tooLong}" is ${cut} on the board: a change id has at most 64 characters`, fix: 'nothing to do' });
    expect((await ok(sk.board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('the text report, on a finding it could say twice', () => {
  it('says a board rule a landed document breaks once, at the source file it came from', async () => {
    const spec = '# Feature Specification: Rooms\n\n**Input**: User description: "Let people book meeting rooms without asking the front desk."\n\n## User Scenarios & Testing\n\n### User Story 1 - Book (Priority: P1)\n\nA person books a room from the list of free rooms.\n\n1. **Given** a free room, **When** a person books it, **Then** it is booked.\n\n## Requirements\n\n- **FR-001**: People book rooms themselves.\n';
    const { code, stdout } = await imported('spec-kit', source({ 'specs/001-rooms/spec.md': spec }, false), false);
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((l) => l.includes('requirement FR-001 has no MUST or SHALL'))).toEqual([
      expect.stringMatching(/^ {2}specs\/001-rooms\/spec\.md: warning: agentd\/changes\/rooms\/spec\.md:\d+: requirement FR-001 has no MUST or SHALL \(as it was imported\) \(spec\.requirement\.normative\) \(fix: state the requirement with MUST or SHALL\)$/),
    ]);
  });

  it('run again, does not say again what it said when the changes landed, and says what differs since', async () => {
    const src = source({ 'openspec/changes/keep-place/proposal.md': PROPOSAL, 'openspec/changes/keep-place/specs/bookmarks/spec.md': DELTA, 'openspec/changes/keep-place/tasks.md': TASKS });
    const first = await imported('openspec', src, false);
    expect(first.code).toBe(0);
    const kept = 'this file is kept as agentd/archive/2025-01-11-add-update-command/';
    expect(first.stdout).toContain(kept);
    write(src, 'openspec/changes/keep-place/tasks.md', `${TASKS}- [ ] 1.2 Check it\n`);
    const again = await cli(first.board, ['import', 'openspec', src], PERSON);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain(kept);
    expect(again.stdout.slice(again.stdout.indexOf('\nFindings:\n')).trim().split('\n')).toEqual([
      'Findings:',
      "  openspec/changes/keep-place/tasks.md: warning: the source's task list of keep-place differs from the board's: 1.2 is not on the board; the board's change is left as it is, so none of that came over (fix: bring over what still applies on the board: `agentboard task add keep-place` for a new task, `agentboard task done` for one finished)",
      '',
      'Where every line of every file went: --json (files[].lines).',
    ]);
    const data = (await cli(first.board, ['import', 'openspec', src, '--json'], PERSON)).json.data;
    expect(data.files.flatMap((f: any) => f.findings)).toEqual([]);
  });
});

describe('an import killed while it writes', () => {
  it('leaves no temp file in agentd/ once the next command has run', async () => {
    const dir = await newBoard();
    rmSync(join(dir, 'agentd/config.yaml'));
    rmSync(join(dir, 'agentd/.gitignore'));
    cpSync(join(FIXTURES, 'import', 'openspec'), dir, { recursive: true });
    addPerson(dir);
    const killed = cliProcess(dir, ['import', 'openspec', '--as', 'human:tester'], { env: { AGENTBOARD_TEST_FAULT: 'commit:temp' } });
    expect(killed.code).toBe(-1);
    expect(readdirSync(join(dir, 'agentd')).filter((n) => n.endsWith('.tmp')).length).toBeGreaterThan(0);
    const again = await cli(dir, ['import', 'openspec', '--json', '--as', 'human:tester']);
    expect(again.code, again.stdout).toBe(0);
    expect(readdirSync(join(dir, 'agentd')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(join(dir, 'agentd/changes')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(readFileSync(join(dir, 'agentd/.gitignore'), 'utf8')).toContain('.runtime/');
  });
});

describe('OpenSpec scenarios as OpenSpec reads them', () => {
  it('takes any "#### " heading inside a requirement for a scenario, with "Scenario:" in another language or none, and steps in other languages', async () => {
    const spec = (requirement: string, heading: string, steps: string[]) => `## ADDED Requirements\n\n### Requirement: Find by one word\n\n${requirement}\n\n#### ${heading}\n\n${steps.join('\n')}\n`;
    const src = source({
      'openspec/changes/plain-heading/proposal.md': PROPOSAL,
      'openspec/changes/plain-heading/specs/search/spec.md': spec('The system SHALL find notes by one word.', 'One word found', ['- **WHEN** a person searches "apple"', '- **THEN** the note is found']),
      'openspec/changes/en-francais/proposal.md': PROPOSAL,
      'openspec/changes/en-francais/specs/search/spec.md': spec('Le système DOIT trouver les notes par un mot.', 'Scénario : Un mot trouvé', ['- **ÉTANT DONNÉ** une note « pomme »', '- **QUAND** on cherche « pomme »', '- **ALORS** la note est trouvée']),
      'openspec/changes/en-espanol/proposal.md': PROPOSAL,
      'openspec/changes/en-espanol/specs/search/spec.md': spec('El sistema DEBE encontrar las notas.', 'Escenario: Una palabra', ['- **CUANDO** se busca "manzana"', '- **ENTONCES** se encuentra la nota', '- **Y** nada más']),
    }, false);
    const { board, code, data } = await imported('openspec', src);
    expect(code).toBe(0);
    for (const id of ['plain-heading', 'en-francais', 'en-espanol']) expect(row(data, id)).toMatchObject({ status: 'imported', phase: 'tasks' });
    const scenarios = async (id: string) => (await showDocument(board, id, 'spec')).content.scenarios.map((s: any) => [s.name, s.given ?? '', s.when, s.then]);
    expect(await scenarios('plain-heading')).toEqual([['One word found', '', 'a person searches "apple"', 'the note is found']]);
    expect(await scenarios('en-francais')).toEqual([['Un mot trouvé', 'une note « pomme »', 'on cherche « pomme »', 'la note est trouvée']]);
    expect(await scenarios('en-espanol')).toEqual([['Una palabra', '', 'se busca "manzana"', 'se encuentra la nota\nAND nada más']]);
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('an OpenSpec step whose bold holds more than its word ("- **AND IF** `openspec/project.md` exists")', () => {
  it('lands as written, its bold whole, under the step above it: not cut into "- **AND** IF** …"', async () => {
    const delta = '## ADDED Requirements\n\n### Requirement: Legacy cleanup\n\nThe system SHALL show what it cleaned up.\n\n#### Scenario: Displaying cleanup summary\n\n- **WHEN** legacy cleanup completes\n- **THEN** the system SHALL display a summary section\n- **AND IF** `openspec/project.md` exists\n- **THEN** the system SHALL display a migration section\n';
    const { board, code, data } = await imported('openspec', source({ 'openspec/changes/merge-init/proposal.md': PROPOSAL, 'openspec/changes/merge-init/specs/legacy-cleanup/spec.md': delta }, false));
    expect(code).toBe(0);
    expect(row(data, 'merge-init')).toMatchObject({ status: 'imported', phase: 'tasks' });
    const landed = read(board, 'agentd/changes/merge-init/spec.md');
    expect(landed).toContain('- **THEN** the system SHALL display a summary section\n  - **AND IF** `openspec/project.md` exists\n- **THEN** the system SHALL display a migration section\n');
    expect(landed).not.toContain('**AND** IF');
    const [scenario] = (await showDocument(board, 'merge-init', 'spec')).content.scenarios;
    expect(scenario.then).toBe('the system SHALL display a summary section\n- **AND IF** `openspec/project.md` exists\nTHEN the system SHALL display a migration section');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('the order of the groups of an OpenSpec task list', () => {
  it('holds for every task that names no dependency of its own, when another task names one', async () => {
    const src = source({
      'openspec/changes/ordered/proposal.md': PROPOSAL,
      'openspec/changes/ordered/specs/bookmarks/spec.md': DELTA,
      'openspec/changes/ordered/tasks.md': '## 1. First\n\n- [ ] 1.1 One\n- [ ] 1.2 Two\n\n## 2. Second\n\n- [ ] 2.1 Three\n- [ ] 2.2 Four (depends on 2.1)\n\n## 3. Third\n\n- [ ] 3.1 Five\n',
    }, false);
    const { board, code } = await imported('openspec', src);
    expect(code).toBe(0);
    const tasks = (await ok(board, ['task', 'list', '--change', 'ordered'])).tasks;
    expect(Object.fromEntries(tasks.map((t: any) => [t.task_id.split('/')[1], t.depends]))).toEqual({ '1.1': [], '1.2': [], '2.1': ['1.1', '1.2'], '2.2': ['2.1'], '3.1': ['2.1', '2.2'] });
    expect((await ok(board, ['next', '--as', 'w1'])).task.task_id).toBe('ordered/1.1');
    expect((await ok(board, ['next', '--as', 'w2'])).task.task_id).toBe('ordered/1.2');
    expect((await ok(board, ['next', '--as', 'w3'])).status).toBe('nothing_available');
  });
});

describe('two long OpenSpec names that are cut to one id', () => {
  it('give the second an id of its own, cut after a whole word too', async () => {
    const long = 'a-feature-name-of-sixty-two-characters-that-fits-as-a-change-id';
    const src = source({ [`openspec/changes/${long}-alpha/proposal.md`]: PROPOSAL, [`openspec/changes/${long}-beta/proposal.md`]: PROPOSAL }, false);
    const { code, data } = await imported('openspec', src);
    expect(code).toBe(0);
    expect(data.changes.map((c: any) => [c.source, c.change_id]).sort()).toEqual([
      [`openspec/changes/${long}-alpha`, long],
      [`openspec/changes/${long}-beta`, 'a-feature-name-of-sixty-two-characters-that-fits-as-a-change-2'],
    ]);
  });
});

describe('a task id given to two items of a list', () => {
  it('is named in the report as each landed: the later one under its new id, on its line, the lines under it and its group', async () => {
    const src = source({
      'openspec/changes/dup-ids/proposal.md': PROPOSAL,
      'openspec/changes/dup-ids/specs/bookmarks/spec.md': DELTA,
      'openspec/changes/dup-ids/tasks.md': '## 1. One\n\n- [ ] 1.1 First\n- [ ] 1.1 Second with the same id\n  - Depends: 1.1\n- [ ] 1.10 Tenth\n\n## 2. Two\n\n- [ ] 2.1 Third\n',
    }, false);
    const { data } = await imported('openspec', src);
    const lines = data.files.find((f: any) => f.file === 'openspec/changes/dup-ids/tasks.md').lines.map((l: any) => [l.line, l.to]);
    expect(lines).toEqual([
      [1, 'the group of tasks 1.1, 1.1-2, 1.10'],
      [3, 'task 1.1'],
      [4, 'task 1.1-2'],
      [5, 'task 1.1-2 depends on 1.1'],
      [6, 'task 1.10'],
      [8, 'the group of tasks 2.1'],
      [10, 'task 2.1'],
    ]);
  });
});

describe('an OpenSpec REMOVED section with a requirement block and removals as bullets after it', () => {
  it('reads each bullet as a requirement of its own, as the same bullets are before the block', async () => {
    const removed = '## REMOVED Requirements\n\n### Requirement: Tag colors\n**Reason**: Browser exports carry no colors.\n**Migration**: None.\n\n- `### Requirement: Tag listing old`\n- `### Requirement: Tag icons`\n';
    const src = source({ 'openspec/changes/drop-tags/proposal.md': PROPOSAL, 'openspec/changes/drop-tags/specs/tags/spec.md': removed }, false);
    const { board, code } = await imported('openspec', src);
    expect(code).toBe(0);
    const spec = (await showDocument(board, 'drop-tags', 'spec')).content;
    expect(spec.requirements.map((r: any) => [r.id, r.title, r.delta])).toEqual([
      ['TAGS-R1', 'Tag colors', 'REMOVED'],
      ['TAGS-R2', 'Tag listing old', 'REMOVED'],
      ['TAGS-R3', 'Tag icons', 'REMOVED'],
    ]);
    expect(spec.requirements[0].text).not.toContain('Tag icons');
    expect((await ok(board, ['validate', '--all'])).valid).toBe(true);
  });
});

describe('a spec-kit feature whose name has no letter a-z or digit', () => {
  it('is named by its number, and the report says why', async () => {
    const src = source({ 'specs/004-検索/spec.md': '# Feature Specification: 検索\n\n## Requirements\n\n- **FR-001**: System MUST find notes.\n' }, false);
    const { code, data } = await imported('spec-kit', src);
    expect(code).toBe(0);
    expect(row(data, '004')).toMatchObject({ status: 'imported', source: 'specs/004-検索' });
    expect(row(data, '004').findings).toContainEqual({ level: 'info', file: 'specs/004-検索', message: 'the change "検索" is 004 on the board: "検索" has no letter a-z or digit to make a change id of, so the folder\'s number names it', fix: 'nothing to do' });
  });
});

describe('a change removed from the source since it was imported', () => {
  it('is named on the next import as no longer in the source, and stays on the board as it is', async () => {
    const src = source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': SK_TASKS, 'specs/002-desks/spec.md': SK_SPEC.replace('Rooms', 'Desks'), 'specs/002-desks/tasks.md': SK_TASKS }, false);
    const first = await imported('spec-kit', src);
    expect(first.code).toBe(0);
    expect(first.data.changes.map((c: any) => c.change_id)).toEqual(['rooms', 'desks']);
    rmSync(join(src, 'specs/002-desks'), { recursive: true });
    const before = snapshot(join(first.board, 'agentd'));
    const again = await cli(first.board, ['import', 'spec-kit', src, '--json'], PERSON);
    expect(again.code).toBe(0);
    expect(again.json.data.changes.map((c: any) => [c.change_id, c.status])).toEqual([['rooms', 'unchanged'], ['desks', 'not_in_source']]);
    expect(row(again.json.data, 'desks')).toMatchObject({
      source: 'specs/002-desks',
      phase: 'implementation',
      documents: [],
      tasks: { total: 2, done: 1 },
      findings: [
        {
          level: 'warning',
          file: 'specs/002-desks',
          message: 'change desks is on the board, imported from specs/002-desks, which the source no longer holds (removed or renamed since): the board keeps it as it is',
          fix: 'nothing to do if its work goes on; if it was given up, see what is left of it with `agentboard show desks`, and take out the tasks no one is to do with `agentboard task rm` followed by the task id',
        },
      ],
    });
    // The board is the record: nothing of the change is taken off it.
    expect(snapshot(join(first.board, 'agentd'))).toEqual(before);
    const text = await cli(first.board, ['import', 'spec-kit', src], PERSON);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Nothing new from spec-kit \(.*\): its changes are on the board already \(1 on the board no longer in it\)\.\n/);
    expect(text.stdout).toMatch(/\ndesks +not in source +implementation +1\/2 done +- +specs\/002-desks\n/);
    expect(text.stdout).toContain('\n  specs/002-desks: warning: change desks is on the board, imported from specs/002-desks, which the source no longer holds (removed or renamed since): the board keeps it as it is (fix: ');
  });

  it('is not said of a change the board holds from another repository', async () => {
    const one = source({ 'specs/001-rooms/spec.md': SK_SPEC, 'specs/001-rooms/tasks.md': SK_TASKS }, false);
    const other = source({ 'specs/001-desks/spec.md': SK_SPEC.replace('Rooms', 'Desks'), 'specs/001-desks/tasks.md': SK_TASKS }, false);
    commitAll(one);
    commitAll(other);
    const first = await imported('spec-kit', one);
    expect(first.code).toBe(0);
    const again = await cli(first.board, ['import', 'spec-kit', other, '--json'], PERSON);
    expect(again.code).toBe(0);
    expect(again.json.data.changes.map((c: any) => [c.change_id, c.status])).toEqual([['desks', 'imported']]);
  });
});
