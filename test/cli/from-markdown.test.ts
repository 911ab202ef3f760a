/**
 * `--from` is faithful: each way bringing plans over used to lose content silently, tried as a new
 * user would, now keeps what it read, maps it to a field, or refuses with file:line and the fix.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, read, ROOT, WHY, write, showDocument } from '../helpers.js';
import { connect } from '../mcp/helpers.js';

const NOTES = ['--notes', 'No additional notes.'];

async function proposed(dir: string, id: string): Promise<void> {
  await ok(dir, ['propose', id, '--as', 'planner', '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', ...NOTES]);
}

const SPEC = (extra = '') => `# Specification: Tasks

## Overview

The board keeps the tasks of a change and hands each one to exactly one agent at a time.

## Non-goals

- Scheduling across several repositories.
- A web interface.

## Requirements

### A1: Claims

The board must hand a task to at most one agent.

### A2: Hints

The board should say which task is next.

## Acceptance Criteria

### Scenario: Two agents ask at once

- **GIVEN** one ready task
- **AND** two agents
- **WHEN** both ask for work at the same moment
- **THEN** exactly one of them gets the task
- **THEN** the other is told nothing is available
right away, without waiting
- **AND** the log names the winner
${extra}`;

async function withSpec(dir: string, id: string, spec: string): Promise<void> {
  await proposed(dir, id);
  await ok(dir, ['spec', id, '--as', 'planner', '--from', write(dir, `${id}-spec.md`, spec), ...NOTES]);
}

describe('--from keeps what it reads', () => {
  it('keeps the ids of items numbered with a letter inside (1.2a.1 under 1.2a)', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'lettered', SPEC());
    const md = '# Tasks\n\n## 1. Core\n\n- [ ] 1.1 First\n- [ ] 1.2a Second\n  - [ ] 1.2a.1 A part of it\n  - [ ] 1.2a.2 Another part\n';
    const r = await ok(dir, ['tasks', 'lettered', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    expect(r.task_ids).toEqual(['lettered/1.1', 'lettered/1.2a', 'lettered/1.2a.1', 'lettered/1.2a.2']);
  });

  it('writes a fenced block under a scenario step back as a fenced block, its lines as they are, and reads it back the same', async () => {
    const dir = await newBoard();
    await proposed(dir, 'fenced');
    const spec = SPEC().replace(/- \*\*WHEN\*\* [^\n]*\n/, '- **WHEN** a person runs\n  ```bash\n  # prints a summary\n  echo "\\# kept"\n  ```\n');
    await ok(dir, ['spec', 'fenced', '--as', 'planner', '--from', write(dir, 's.md', spec), ...NOTES]);
    const file = read(dir, 'agentd/changes/fenced/spec.md');
    expect(file).toContain('- **WHEN** a person runs\n  ```bash\n  # prints a summary\n  echo "\\# kept"\n  ```\n');
    const when = (await showDocument(dir, 'fenced', 'spec')).content.scenarios[0].when;
    expect(when).toBe('a person runs\n```bash\n# prints a summary\necho "\\# kept"\n```');
  });

  it('gives a task under a "### " heading that heading as its group (after the "## " one above it), and orders a list of "### " headings alone by them', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'subgroups', SPEC());
    const md = ['# Tasks', '', '### Storage', '', '- [ ] 1 Add the table', '', '### API', '', '- [ ] 2 Add the endpoint', '- [ ] 3 Document it', ''].join('\n');
    await ok(dir, ['tasks', 'subgroups', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    const text = read(dir, 'agentd/changes/subgroups/tasks.md');
    expect([...text.matchAll(/^group: "?(.*?)"?$/gm)].map((m) => m[1])).toEqual(['Storage', 'API', 'API']);
    expect(text).not.toContain('###');
    expect((await showDocument(dir, 'subgroups', 'tasks')).content.tasks.map((t: any) => t.depends)).toEqual([[], ['1'], ['1']]);
  });

  it('reads a file with a byte order mark (a Windows editor\'s UTF-8) as the same document, and any one-character checkbox as a task', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'marked', SPEC());
    const md = `\uFEFF# Tasks: Marked\n\n## 1. Core\n\n- [x] 1.1 Done already\n- [~] 1.2 Under way elsewhere\n- [-] 1.3 Dropped for now\n- [] 1.4 Not started\n- [ ] 1.5 Not started either\n`;
    const r = await ok(dir, ['tasks', 'marked', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    expect(r.task_ids).toEqual(['marked/1.1', 'marked/1.2', 'marked/1.3', 'marked/1.4', 'marked/1.5']);
    const tasks = (await ok(dir, ['task', 'list', '--change', 'marked'])).tasks;
    expect(tasks.map((t: any) => [t.title, t.status])).toEqual([
      ['Done already', 'done'],
      ['Under way elsewhere', 'todo'],
      ['Dropped for now', 'todo'],
      ['Not started', 'todo'],
      ['Not started either', 'todo'],
    ]);
    const file = read(dir, 'agentd/changes/marked/tasks.md');
    expect(file).not.toContain('\uFEFF');
    expect(file).toContain('# Tasks: Marked');
  });

  it('reads a range of ids a task depends on ("T001-T003", "1.1 – 1.2") as each of them', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'ranged', SPEC());
    const md = '# Tasks: Ranged\n\n- [ ] T001 Set up\n- [ ] T002 Model\n- [ ] T003 Service\n- [ ] T004 Wire it (depends on T001-T003)\n- [ ] T005 Ship (depends on T002 – T004)\n';
    await ok(dir, ['tasks', 'ranged', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    const tasks = (await ok(dir, ['task', 'list', '--change', 'ranged'])).tasks;
    expect(tasks.map((t: any) => [t.id, t.depends])).toEqual([
      ['T001', []],
      ['T002', []],
      ['T003', []],
      ['T004', ['T001', 'T002', 'T003']],
      ['T005', ['T002', 'T003', 'T004']],
    ]);
  });

  it('reads a file whose lines end in CRLF, CR CR LF (a CRLF file saved again by a tool that adds a CR) or a lone CR as the same document', async () => {
    const dir = await newBoard();
    const spec = SPEC();
    await withSpec(dir, 'plain', spec);
    const expected = (await showDocument(dir, 'plain', 'spec')).content;
    for (const [id, end] of [['crlf', '\r\n'], ['crcrlf', '\r\r\n'], ['mac', '\r']] as const) {
      await withSpec(dir, id, spec.replace(/\n/g, end));
      const shown = await showDocument(dir, id, 'spec');
      expect(shown.content, id).toEqual(expected);
      expect(shown.markdown, id).not.toContain('\r');
    }
  });

  it('reads agentboard\'s own task blocks first: a checklist inside a description stays in the description', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'own', SPEC());
    const md = `# Tasks: Own\n\n## T1: Write the parser\n\n\`\`\`yaml\nstatus: todo\npriority: high\n\`\`\`\n\nDone when:\n\n- [ ] unit tests pass\n- [ ] benchmark recorded\n\n## T2: Ship it\n\n\`\`\`yaml\nstatus: todo\ndepends: [T1]\n\`\`\`\n`;
    const r = await ok(dir, ['tasks', 'own', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    expect(r.task_ids).toEqual(['own/T1', 'own/T2']);
    const t1 = await ok(dir, ['task', 'show', 'own/T1']);
    expect(t1.task.description).toBe('Done when:\n\n- [ ] unit tests pass\n- [ ] benchmark recorded');
    expect(t1.task.priority).toBe('high');
    expect((await ok(dir, ['task', 'show', 'own/T2'])).task.depends).toEqual(['T1']);
  });

  it('keeps a section it has no field for in its place, and a line right under a step as part of the step', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'kept', SPEC());
    const shown = await showDocument(dir, 'kept', 'spec');
    expect(shown.content.sections).toEqual([{ heading: 'Non-goals', text: '- Scheduling across several repositories.\n- A web interface.', after: 'overview' }]);
    const md: string = shown.markdown;
    expect(md.indexOf('## Non-goals')).toBeGreaterThan(md.indexOf('## Overview'));
    expect(md.indexOf('## Non-goals')).toBeLessThan(md.indexOf('## Requirements'));
    expect(shown.content.scenarios[0]).toEqual({
      name: 'Two agents ask at once',
      given: 'one ready task\nAND two agents',
      when: 'both ask for work at the same moment',
      then: 'exactly one of them gets the task\nTHEN the other is told nothing is available\nright away, without waiting\nAND the log names the winner',
    });
    expect(md).toContain('- **THEN** exactly one of them gets the task\n- **THEN** the other is told nothing is available\n  right away, without waiting\n- **AND** the log names the winner');
    const strict = await cli(dir, ['validate', 'kept', '--strict', '--json']);
    expect(strict.json.data.changes[0].findings.map((f: any) => f.rule)).toEqual(['spec.requirement.normative_weak']);
  });

  it('refuses a line under a scenario that belongs to no step, with file:line and the fix', async () => {
    const dir = await newBoard();
    await proposed(dir, 'stray');
    const spec = SPEC('\nThis line belongs to no step.\n');
    const r = await cli(dir, ['spec', 'stray', '--as', 'planner', '--from', write(dir, 's.md', spec), ...NOTES, '--json']);
    expect(r.code).toBe(2);
    const line = spec.split('\n').indexOf('This line belongs to no step.') + 1;
    expect(r.json.error.message).toContain(`s.md:${line}: scenario "Two agents ask at once": this line is not a GIVEN, WHEN, THEN or AND step`);
    expect(r.json.error.next_step).toContain('move it out of the scenario');
  });

  it('names every problem of the markdown with its line, in the message and in details, not only the first', async () => {
    const dir = await newBoard();
    await proposed(dir, 'many');
    const spec = SPEC('\nThis line belongs to no step.\n').replace('### A1: Claims', '### Claims').replace('### A2: Hints', '### Hints');
    const path = write(dir, 's.md', spec);
    const lineOf = (text: string) => spec.split('\n').indexOf(text) + 1;
    const problems = [
      [lineOf('### Claims'), 'requirement heading "Claims" has no id', 'write it as "### R1: Title"'],
      [lineOf('### Hints'), 'requirement heading "Hints" has no id', 'write it as "### R1: Title"'],
      [lineOf('This line belongs to no step.'), 'scenario "Two agents ask at once": this line is not a GIVEN, WHEN, THEN or AND step', 'write it as a step'],
    ] as const;
    const json = await cli(dir, ['spec', 'many', '--as', 'planner', '--from', path, ...NOTES, '--json']);
    expect(json.code).toBe(2);
    expect(json.json.error.message.startsWith(`${path} has 3 problems:\n`), json.json.error.message).toBe(true);
    expect(json.json.error.details.findings.map((f: any) => [f.line, f.message])).toEqual(problems.map(([line, message]) => [line, message]));
    const text = await cli(dir, ['spec', 'many', '--as', 'planner', '--from', path, ...NOTES]);
    expect(text.code).toBe(2);
    for (const [line, message, fix] of problems) {
      expect(json.json.error.message).toContain(`\n  ${path}:${line}: ${message} (fix: ${fix}`);
      expect(text.stderr).toContain(`\n  ${path}:${line}: ${message} (fix: ${fix}`);
    }
    // The command to run again is the one typed, its file and notes included.
    expect(text.stderr).toContain(`next: Fix each of them in the markdown and try \`agentboard spec many --as planner --from ${path} --notes 'No additional notes.'\` again; nothing was changed.`);
  });

  it('keeps the Capabilities section of an OpenSpec proposal', async () => {
    const dir = await newBoard();
    const md = `# Proposal\n\n## Why\n\n${WHY}\n\n## What Changes\n\n- Add import.\n\n## Capabilities\n\n### New Capabilities\n- \`bookmarks\`: saving bookmarks\n\n### Modified Capabilities\n\n## Impact\n\n- New endpoint.\n`;
    await ok(dir, ['propose', 'caps', '--as', 'planner', '--from', write(dir, 'p.md', md), ...NOTES]);
    const shown = await showDocument(dir, 'caps', 'proposal');
    expect(shown.content.sections).toEqual([{ heading: 'Capabilities', text: '### New Capabilities\n- `bookmarks`: saving bookmarks\n\n### Modified Capabilities', after: 'what_changes' }]);
    expect(shown.markdown).toMatch(/## What Changes\n\n- Add import\.\n\n## Capabilities\n\n### New Capabilities/);
  });

  it('keeps the frontmatter another tool wrote, as a block under the title', async () => {
    const dir = await newBoard();
    const md = `---\nid: front\ntype: proposal\nversion: 1\n---\n\n# Change: front\n\n## Why\n\n${WHY}\n\n## What Changes\n\n- One thing.\n\n## Impact\n\n- None.\n`;
    await ok(dir, ['propose', 'front', '--as', 'planner', '--from', write(dir, 'p.md', md), ...NOTES]);
    const shown = await showDocument(dir, 'front', 'proposal');
    expect(shown.content.sections).toEqual([{ heading: '', text: '```yaml\nid: front\ntype: proposal\nversion: 1\n```', after: 'title' }]);
    expect(shown.content.title).toBe('front');
  });

  it('reads review issues written as bullets under a severity heading', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'rev', SPEC());
    await ok(dir, ['tasks', 'rev', '--as', 'planner', '--input', write(dir, 't.json', JSON.stringify({ tasks: [{ title: 'One' }], notes: 'n' }))]);
    const md = '# Verdict: NEEDS_FIX\n\n## Summary\n\nTwo problems.\n\n## Issues\n\n### High\n\n- The claim is not atomic: two agents got T1.\n- **Missing log entry**: the winner is not logged.\n\n### Low\n\n- Typo in the help text.\n';
    const r = await ok(dir, ['review', 'rev', '--as', 'reviewer', '--from', write(dir, 'r.md', md), ...NOTES]);
    expect(r.verdict).toBe('NEEDS_FIX');
    // How its issues are fixed, by hand: tasks naming the round, then a new round.
    expect(r.next_step).toBe('Its issues are fixed as tasks of rev: add one per issue with `agentboard task add rev --review-round 1 --as reviewer` giving `--title`; once workers have done them, a new round is recorded the same way as this one.');
    const round = (await showDocument(dir, 'rev', 'review')).content.rounds[0];
    expect(round.issues).toEqual([
      { title: 'The claim is not atomic', severity: 'High', description: 'The claim is not atomic: two agents got T1.' },
      { title: 'Missing log entry', severity: 'High', description: 'the winner is not logged.' },
      { title: 'Typo in the help text', severity: 'Low', description: 'Typo in the help text.' },
    ]);
    const log = await ok(dir, ['log', '--change', 'rev']);
    expect(JSON.stringify(log)).toContain('NEEDS_FIX (3 issues)');
    expect(read(dir, 'agentd/changes/rev/REVIEW.md')).not.toContain('No issues found');
  });

  it('reads agentd\'s review layout: ### Issue blocks with their severity, the ticked verdict, NEEDS_CHANGES as NEEDS_FIX', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'agentd-review', SPEC());
    await ok(dir, ['tasks', 'agentd-review', '--as', 'planner', '--input', write(dir, 't.json', JSON.stringify({ tasks: [{ title: 'One' }], notes: 'n' }))]);
    const md = [
      '# Code Review Report: agentd-review',
      '',
      '**Iteration**: 1',
      '',
      '## Summary',
      'The claim works; one behaviour contradicts the spec.',
      '',
      '## Test Results',
      '**Overall Status**: PARTIAL',
      '',
      '## Best Practices Issues',
      '[HIGH priority - must fix]',
      '',
      '### Issue: Claims are not logged',
      '- **Severity**: High',
      '- **Category**: Wrong Behavior',
      '- **File**: src/claim.ts:27',
      '- **Description**: The winner is not logged.',
      '',
      '## Verdict',
      '- [ ] APPROVED - Ready for merge',
      '- [x] NEEDS_CHANGES - Address issues above',
      '- [ ] MAJOR_ISSUES - Fundamental problems',
      '',
      '**Next Steps**: Log the winner.',
    ].join('\n');
    const r = await ok(dir, ['review', 'agentd-review', '--as', 'reviewer', '--from', write(dir, 'r.md', md), ...NOTES]);
    expect(r.verdict).toBe('NEEDS_FIX');
    const round = (await showDocument(dir, 'agentd-review', 'review')).content.rounds[0];
    expect(round.issues).toEqual([{ title: 'Claims are not logged', severity: 'High', description: '- **Category**: Wrong Behavior\n- **File**: src/claim.ts:27\n- **Description**: The winner is not logged.' }]);
    expect(round.sections.map((s: any) => [s.heading, s.text])).toEqual([
      ['Test Results', '**Overall Status**: PARTIAL'],
      ['Best Practices Issues', '[HIGH priority - must fix]'],
      ['Verdict', '**Next Steps**: Log the winner.'],
    ]);
  });

  it('gives checklist items without a number ids of their own, and checked items arrive done', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'plain', SPEC());
    const md = '- [ ] Add the middleware\n- [x] Add the route\n- [ ] Add tests\n';
    const r = await ok(dir, ['tasks', 'plain', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    expect(r.task_ids).toEqual(['plain/T1', 'plain/T2', 'plain/T3']);
    const list = await ok(dir, ['task', 'list', '--change', 'plain']);
    expect(list.tasks.map((t: any) => [t.id, t.title, t.status])).toEqual([
      ['T1', 'Add the middleware', 'todo'],
      ['T2', 'Add the route', 'done'],
      ['T3', 'Add tests', 'todo'],
    ]);
  });

  it('keeps a spec-kit task\'s user story ([US1]) as the first line of its description', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'stories', SPEC());
    const md = '## Phase 3: User Story 1\n\n- [ ] T012 [P] [US1] Implement the service in src/x.py\n  - Depends: none\n  - Keep it small.\n- [ ] T013 Wire it up\n';
    await ok(dir, ['tasks', 'stories', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    expect((await ok(dir, ['task', 'show', 'stories/T012'])).task).toMatchObject({ title: 'Implement the service in src/x.py', description: 'User story US1\n\n- Keep it small.' });
    expect((await ok(dir, ['task', 'show', 'stories/T013'])).task.description).toBe('');
  });

  it('makes a checkbox nested under another its part, however it is indented: the outer task waits for its parts', async () => {
    for (const indent of ['  ', '    ', '\t']) {
      const dir = await newBoard();
      await withSpec(dir, 'nest', SPEC());
      const md = `# Tasks\n\n- [ ] Callback handler\n${indent}- [ ] Parse token\n${indent}- [ ] Check state\n- [ ] Login button\n`;
      await ok(dir, ['tasks', 'nest', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
      const tasks = (await ok(dir, ['task', 'list', '--change', 'nest'])).tasks;
      expect(tasks.map((t: any) => [t.id, t.title]), JSON.stringify(indent)).toEqual([
        ['T1', 'Callback handler'],
        ['T2', 'Parse token'],
        ['T3', 'Check state'],
        ['T4', 'Login button'],
      ]);
      const show = async (id: string) => (await ok(dir, ['task', 'show', `nest/${id}`])).task;
      expect((await show('T1')).depends).toEqual(['T2', 'T3']);
      expect((await show('T2')).description).toBe('Part of T1: Callback handler');
      expect((await show('T4')).depends).toEqual([]);
    }
  });

  it('reads agentd\'s sub-bullets into fields: several files, RENAME, priority and requirements', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'subs', SPEC());
    const md = [
      '- [ ] 1.1 Split the store',
      '  - File: src/b.ts, src/c.ts (CREATE)',
      '  - File: `src/old.ts → src/store.ts` (RENAME)',
      '  - Priority: high',
      '  - Requirements: A1, A2',
      '  - Do: Move the claim code.',
    ].join('\n');
    await ok(dir, ['tasks', 'subs', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    const t = (await ok(dir, ['task', 'show', 'subs/1.1'])).task;
    expect(t.files).toEqual([
      { path: 'src/b.ts', action: 'create' },
      { path: 'src/c.ts', action: 'create' },
      { path: 'src/old.ts → src/store.ts', action: 'rename' },
    ]);
    expect(t.priority).toBe('high');
    expect(t.requirements).toEqual(['A1', 'A2']);
    expect(t.description).toBe('- Do: Move the claim code.');
  });

  it('refuses a spec-kit feature spec with the headings found, and names the import that reads it', async () => {
    const dir = await newBoard();
    await proposed(dir, 'feature');
    const spec = read(join(ROOT, 'test/fixtures/import/spec-kit/specs/001-room-booking'), 'spec.md');
    const r = await cli(dir, ['spec', 'feature', '--as', 'planner', '--from', write(dir, 'spec.md', spec), ...NOTES, '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain('found # Feature Specification: Room Booking');
    expect(r.json.error.next_step).toMatch(/^This looks like a spec-kit feature spec: bring the feature over with `agentboard import spec-kit`/);
    expect(existsSync(join(dir, 'agentd/changes/feature/spec.md'))).toBe(false);
  });

  it('refuses an OpenSpec delta spec as a whole with the headings expected and found, and takes it once it has an overview', async () => {
    const dir = await newBoard();
    await proposed(dir, 'delta');
    const delta = [
      '## ADDED Requirements',
      '',
      '### Requirement: Import bookmarks',
      'The system SHALL import a Netscape bookmark file.',
      '',
      '#### Scenario: Import a Firefox export',
      '- **WHEN** the user uploads a Firefox export',
      '- **THEN** 40 bookmarks are created',
      '- **AND** the response reports 40 created',
      '',
      '## RENAMED Requirements',
      '',
      '- FROM: `### Requirement: Tag listing`',
      '- TO: `### Requirement: Tag browsing`',
      '',
    ].join('\n');
    const r = await cli(dir, ['spec', 'delta', '--as', 'planner', '--from', write(dir, 'spec.md', delta), ...NOTES, '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain('spec.md: the spec has no overview: expected ## Overview, ## Requirements, ## Acceptance Criteria');
    expect(r.json.error.message).toContain('found ## ADDED Requirements, ## RENAMED Requirements');
    expect(r.json.error.next_step).toContain('agentboard import openspec');
    const withPurpose = `## Purpose\n\nLets a user bring the bookmarks of a browser over in one step.\n\n${delta}`;
    await ok(dir, ['spec', 'delta', '--as', 'planner', '--from', write(dir, 'spec.md', withPurpose), ...NOTES]);
    const spec = (await showDocument(dir, 'delta', 'spec')).content;
    expect(spec.requirements).toEqual([
      { id: 'R1', title: 'Import bookmarks', text: 'The system SHALL import a Netscape bookmark file.', delta: 'ADDED' },
      { id: 'R2', title: 'Tag browsing', text: '- FROM: `### Requirement: Tag listing`\n- TO: `### Requirement: Tag browsing`', delta: 'RENAMED' },
    ]);
    expect(spec.scenarios).toEqual([{ name: 'Import a Firefox export', when: 'the user uploads a Firefox export', then: '40 bookmarks are created\nAND the response reports 40 created', requirement: 'R1' }]);
    const md = read(dir, 'agentd/changes/delta/spec.md');
    expect(md).toContain('## ADDED Requirements\n\n### R1: Import bookmarks');
    expect(md).toContain('## RENAMED Requirements\n\n### R2: Tag browsing');
    expect(md).toContain('### Scenario: Import a Firefox export\n\n**Requirement**: R1\n\n- **WHEN**');
  });

  it('takes a spec that only removes or renames requirements without a scenario; any other spec still needs one', async () => {
    const dir = await newBoard();
    await proposed(dir, 'removal');
    const removal = [
      '## Overview',
      '',
      'Tag colors go away, and the tag listing is called tag browsing from now on.',
      '',
      '## REMOVED Requirements',
      '',
      '- `### Requirement: Color picker`',
      '',
      '### Requirement: Tag colors',
      '**Reason**: Browser exports carry no colors.',
      '',
      '## RENAMED Requirements',
      '',
      '- FROM: `### Requirement: Tag listing`',
      '- TO: `### Requirement: Tag browsing`',
      '',
    ].join('\n');
    await ok(dir, ['spec', 'removal', '--as', 'planner', '--from', write(dir, 'spec.md', removal), ...NOTES]);
    const spec = (await showDocument(dir, 'removal', 'spec')).content;
    expect(spec.requirements).toEqual([
      { id: 'R1', title: 'Color picker', text: '- `### Requirement: Color picker`', delta: 'REMOVED' },
      { id: 'R2', title: 'Tag colors', text: '**Reason**: Browser exports carry no colors.', delta: 'REMOVED' },
      { id: 'R3', title: 'Tag browsing', text: '- FROM: `### Requirement: Tag listing`\n- TO: `### Requirement: Tag browsing`', delta: 'RENAMED' },
    ]);
    expect(spec.scenarios).toEqual([]);
    expect((await ok(dir, ['validate', 'removal'])).valid).toBe(true);

    await proposed(dir, 'added');
    const added = removal.replace('## REMOVED Requirements', '## ADDED Requirements\n\n### Requirement: Tag sizes\nThe system SHALL size tags by use.\n\n## REMOVED Requirements');
    const r = await cli(dir, ['spec', 'added', '--as', 'planner', '--from', write(dir, 'added.md', added), ...NOTES, '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain('the spec has no scenarios');
    const input = { overview: 'Tags get a size that follows how often they are used.', requirements: [{ id: 'R1', title: 'Tag sizes', text: 'The system SHALL size tags by use.' }], scenarios: [], notes: 'n.' };
    const j = await cli(dir, ['spec', 'added', '--as', 'planner', '--input', write(dir, 'added.json', JSON.stringify(input)), '--json']);
    expect(j.code).not.toBe(0);
    expect(j.json.error.message).toContain('the spec has no acceptance scenarios');
    expect(existsSync(join(dir, 'agentd/changes/added/spec.md'))).toBe(false);
  });

  it('keeps OpenSpec task groups, and their order becomes dependencies', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'groups', SPEC());
    const md = '# Tasks\n\n## 1. Parser\n\n- [x] 1.1 Tokenizer\n- [ ] 1.2 Folders\n\n## 2. Endpoint\n\n- [ ] 2.1 Route\n- [ ] 2.2 Limits\n';
    await ok(dir, ['tasks', 'groups', '--as', 'planner', '--from', write(dir, 't.md', md), ...NOTES]);
    const list = await ok(dir, ['task', 'list', '--change', 'groups']);
    expect(list.tasks.map((t: any) => [t.id, t.depends, t.ready])).toEqual([
      ['1.1', [], false],
      ['1.2', [], true],
      ['2.1', ['1.1', '1.2'], false],
      ['2.2', ['1.1', '1.2'], false],
    ]);
    expect((await ok(dir, ['task', 'show', 'groups/2.1'])).task).toMatchObject({ title: 'Route' });
    expect(read(dir, 'agentd/changes/groups/tasks.md')).toContain('group: "2. Endpoint"');
  });

  it('takes real agentd specs: several THEN and AND steps, ids like A1, "should" and lower-case "must"', async () => {
    const dir = await newBoard();
    await proposed(dir, 'real');
    const r = await ok(dir, ['spec', 'real', '--as', 'planner', '--from', write(dir, 's.md', SPEC()), ...NOTES]);
    expect(r.warnings.map((w: any) => w.rule)).toEqual(['spec.requirement.normative_weak']);
    expect(r.warnings[0].message).toContain('A2');
  });
});

describe('--from names the line of the file', () => {
  it('for a problem the write finds in a task of the list, in the message and in its finding, the --json envelope kept', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'lines', SPEC());
    const tasks = '# Tasks\n\n- [ ] T1: Build the claim\n- [ ] T2: Say which is next\n  - depends: T9\n';
    write(dir, 'tasks.md', tasks);
    const r = await cli(dir, ['tasks', 'lines', '--as', 'planner', '--from', 'tasks.md', ...NOTES, '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('VALIDATION_FAILED');
    expect(r.json.error.message).toBe('The task list is not valid, so nothing was written: tasks.md:4: task T2 depends on T9, which is not a task of this change [tasks.depends.unknown].');
    expect(r.json.error.details.findings).toEqual([
      { level: 'error', file: 'tasks.md', line: 4, rule: 'tasks.depends.unknown', message: 'task T2 depends on T9, which is not a task of this change', fix: 'add task T9 or remove it from depends' },
    ]);
    expect(existsSync(join(dir, 'agentd/changes/lines/tasks.md'))).toBe(false);
  });

  it('for a field of a task its input refuses', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'lines', SPEC());
    const tasks = `# Tasks\n\n## T1: Build the claim\n\n\`\`\`yaml\nstatus: todo\npriority: high\n\`\`\`\n\nShort.\n\n## T2: Say which is next\n\n\`\`\`yaml\nstatus: todo\npriority: high\n\`\`\`\n\n${'Long. '.repeat(2000)}\n`;
    write(dir, 'tasks.md', tasks);
    const r = await cli(dir, ['tasks', 'lines', '--as', 'planner', '--from', 'tasks.md', ...NOTES, '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe('INVALID_INPUT');
    expect(r.json.error.message).toBe('Invalid input: tasks.md:12: description has 12000 characters; at most 2000 are allowed.');
    expect(existsSync(join(dir, 'agentd/changes/lines/tasks.md'))).toBe(false);
  });
});

describe('--from round trip', () => {
  it('gives back the same body and fields from what show prints', async () => {
    const dir = await newBoard();
    await withSpec(dir, 'trip', SPEC());
    const first = await showDocument(dir, 'trip', 'spec');
    await proposed(dir, 'trip-2');
    await ok(dir, ['spec', 'trip-2', '--as', 'planner', '--from', write(dir, 'back.md', first.markdown), ...NOTES]);
    const second = await showDocument(dir, 'trip-2', 'spec');
    expect(second.content).toEqual(first.content);
    const body = (md: string) => md.slice(md.indexOf('\n---\n') + 5);
    expect(body(second.markdown)).toBe(body(first.markdown));
  });
  it('gives back the same document after a rejection: show prints the file as it is, and the feedback on stderr', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'sent-back', [{ title: 'One', description: 'Do one.' }, { title: 'Two', description: 'Do two.' }]);
    for (const document of ['spec', 'tasks']) {
      await ok(dir, ['reject', 'sent-back', document, '--feedback', `Split the ${document} further.`]);
      const shown = await cli(dir, ['show', 'sent-back', document]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout, 'stdout is the file, byte for byte').toBe(read(dir, `agentd/changes/sent-back/${document}.md`));
      expect(shown.stderr).toMatch(/^Feedback from people:\n {2}- human:\S+ \(.+\): Split the \w+ further\.\n$/);
      expect(shown.stderr).toContain(`Split the ${document} further.`);
      const again = await cli(dir, [document, 'sent-back', '--as', 'planner', '--from', write(dir, `${document}-back.md`, shown.stdout), ...NOTES]);
      expect(again.code, again.stdout + again.stderr).toBe(0);
    }
    const tasks = (await ok(dir, ['task', 'list', '--change', 'sent-back'])).tasks.map((t: any) => t.task_id);
    expect(tasks).toEqual(['sent-back/T1', 'sent-back/T2']);
    expect((await ok(dir, ['task', 'show', 'sent-back/T2'])).task.description).toBe('Do two.');
  });
});

describe('--from says what it did not take of the frontmatter', () => {
  const PROPOSAL = `# Proposal: Board\n\n## Why\n\n${WHY}\n\n## What Changes\n\n- Add a board.\n\n## Impact\n\n- Agents stop colliding.\n`;

  it("names each key of agentboard's own frontmatter the write did not take, with its line and why, in --json and on the terminal", async () => {
    const dir = await newBoard();
    const md = `---\nid: other-change/proposal\nchange_id: other-change\ntype: proposal\nstatus: approved\nauthor: someone-else\nrevision: 4\nreviewers: [alice]\n---\n\n${PROPOSAL}`;
    const path = write(dir, 'p.md', md);
    const r = await ok(dir, ['propose', 'board', '--as', 'planner', '--from', path, ...NOTES]);
    expect(r.warnings.map((w: any) => [w.rule, w.file, w.line])).toEqual([
      ['frontmatter.change_id', path, 3],
      ['frontmatter.status', path, 5],
      ['frontmatter.author', path, 6],
      ['frontmatter.unknown', path, 8],
    ]);
    expect(r.warnings[0].message).toBe('change_id: other-change was not taken: the text was written to change board, the one the call names');
    expect(r.warnings[1].message).toBe('status: approved was not taken: every write leaves the proposal submitted');
    expect(r.warnings[1].fix).toBe('agentboard records the status; a person approves it with `agentboard approve board proposal`');
    expect(r.warnings[2].message).toBe('author: someone-else was not taken: the proposal is recorded as written by planner');
    expect(r.warnings[3].message).toBe("frontmatter key reviewers was not taken: agentboard's frontmatter has no such key");
    const file = read(dir, 'agentd/changes/board/proposal.md');
    expect(file).toMatch(/\nstatus: submitted\n/);
    expect(file).toMatch(/\nauthor: planner\n/);
    expect(file).not.toContain('reviewers');
    // On a terminal, the same warnings under the answer.
    const again = await cli(dir, ['propose', 'board-2', '--as', 'planner', '--from', path, ...NOTES]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`warning: ${path}:5: status: approved was not taken: every write leaves the proposal submitted (frontmatter.status; fix: agentboard records the status; a person approves it with \`agentboard approve board-2 proposal\`)`);
  });

  it('names an id and a title the write did not take, and what the frontmatter lacks to be agentboard\'s', async () => {
    const dir = await newBoard();
    const md = `---\nid: other-change/proposal\nchange_id: board\ntype: proposal\ntitle: Fancy search\n---\n\n${PROPOSAL}`;
    const r = await ok(dir, ['propose', 'board', '--as', 'planner', '--from', write(dir, 'p.md', md), ...NOTES]);
    expect(r.warnings.map((w: any) => [w.rule, w.line])).toEqual([
      ['frontmatter.id', 2],
      ['frontmatter.title', 5],
    ]);
    expect(r.warnings[0].message).toBe('id: other-change/proposal was not taken: the text was written as board/proposal');
    expect(r.warnings[1].message).toMatch(/^title: Fancy search was not taken: the title of the proposal is its heading \(.+\)$/);
    expect(r.warnings[1].fix).toBe('write the title in the heading, "# Proposal: Fancy search"');
    // a shown document fed back: its id and title agree with it, and nothing is said
    const shown = (await cli(dir, ['show', 'board', 'proposal'])).stdout;
    expect((await ok(dir, ['propose', 'board-2', '--as', 'planner', '--from', write(dir, 'shown.md', shown), ...NOTES])).warnings.filter((w: any) => w.rule === 'frontmatter.id' || w.rule === 'frontmatter.title')).toEqual([]);
    const half = await ok(dir, ['propose', 'board-3', '--as', 'planner', '--from', write(dir, 'half.md', `---\nchange_id: board-3\nowner: x\n---\n\n${PROPOSAL}`), ...NOTES]);
    expect(half.warnings[0].message).toContain("is not agentboard's (it has no type)");
  });

  it("says that another tool's frontmatter was kept as a block, and names its keys", async () => {
    const dir = await newBoard();
    const r = await ok(dir, ['propose', 'board', '--as', 'planner', '--from', write(dir, 'p.md', `---\nstatus: approved\nowner: x\n---\n\n${PROPOSAL}`), ...NOTES]);
    expect(r.warnings).toEqual([
      expect.objectContaining({ rule: 'frontmatter.kept', line: 1, message: "the frontmatter (status, owner) is not agentboard's (it has no change_id and no type), so none of it was taken: it is kept as a yaml block at the top of the proposal" }),
    ]);
    expect((await showDocument(dir, 'board', 'proposal')).content.sections).toEqual([{ heading: '', text: '```yaml\nstatus: approved\nowner: x\n```', after: 'title' }]);
  });

  it('says nothing of the frontmatter of a round trip: show, revise after a rejection, submit again', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'trip', [{ title: 'One' }]);
    await ok(dir, ['reject', 'trip', 'spec', '--feedback', 'Say more.']);
    const shown = (await cli(dir, ['show', 'trip', 'spec'])).stdout;
    expect(shown).toMatch(/\nstatus: rejected\n/);
    const r = await ok(dir, ['spec', 'trip', '--as', 'planner', '--from', write(dir, 'back.md', shown.replace('one agent at a time.', 'one agent at a time, and says so.')), ...NOTES]);
    expect(r.warnings.filter((w: any) => w.rule.startsWith('frontmatter.'))).toEqual([]);
  });

  it('tells a reviewer correcting over MCP what it did not take of the frontmatter, as correct --from does', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'fixed', [{ title: 'One' }]);
    await ok(dir, ['reject', 'fixed', 'spec', '--feedback', 'Say more.']);
    const markdown = (await cli(dir, ['show', 'fixed', 'spec'])).stdout.replace('status: rejected', 'status: approved');
    await ok(dir, ['spec', 'fixed', '--as', 'planner', '--from', write(dir, 'again.md', markdown.replace(/^---[\s\S]*?\n---\n/, '')), ...NOTES]);
    const key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
    const mcp = await connect(dir, 'reviewer');
    const r = await mcp.call('agentboard_correct_document', { agent_id: 'rev-1', review_key: key, change_id: 'fixed', document: 'spec', markdown, notes: 'Kept as it was.' });
    await mcp.close();
    expect(r.isError, r.text).toBe(false);
    expect(r.data.warnings.map((w: any) => [w.rule, w.file, w.message])).toEqual([['frontmatter.status', 'markdown', 'status: approved was not taken: every write leaves the spec submitted']]);
    const path = write(dir, 'corrected.md', markdown);
    const cliAnswer = await ok(dir, ['correct', 'fixed', 'spec', '--as', 'rev-1', '--review-key', key, '--from', path, ...NOTES]);
    expect(cliAnswer.warnings.map((w: any) => [w.rule, w.file])).toEqual([['frontmatter.status', path]]);
  });
});
