import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, read, FIXTURES, SPEC_MD, tempDir, WHY, write, showDocument, snapshot } from '../helpers.js';

const NOTES = ['--notes', 'No additional notes: straightforward document, nothing unexpected.'];

describe('a proposal submitted without a title', () => {
  it('keeps the title the change was created with', async () => {
    const dir = await newBoard();
    // The next step names the change (and the agent).
    expect((await cli(dir, ['new', 'titled', '--as', 'claude', '--title', 'Full-text search'])).stdout).toContain('Next: write its proposal with `agentboard propose titled --as claude` giving `--why`, `--what-changes`, `--impact` and `--notes`.');
    await ok(dir, ['propose', 'titled', '--as', 'claude', '--why', WHY, '--what-changes', 'Add a search.', '--impact', 'People find tasks.', ...NOTES]);
    expect(read(dir, 'agentd/changes/titled/proposal.md')).toContain('# Proposal: Full-text search');
    expect((await ok(dir, ['show', 'titled'])).title).toBe('Full-text search');
  });
});

describe('init', () => {
  it('creates the board, and a second run changes nothing and says so', async () => {
    const dir = tempDir();
    const first = await ok(dir, ['init']);
    expect(first.already_initialized).toBe(false);
    expect(first.created).toEqual(['agentd/', 'agentd/changes/', 'agentd/config.yaml', 'agentd/.gitignore']);
    expect(read(dir, 'agentd/config.yaml')).toContain('# Phases whose document a person must approve');
    expect(read(dir, 'agentd/.gitignore')).toContain('.runtime/');
    const before = readFileSync(join(dir, 'agentd/config.yaml'));
    const second = await cli(dir, ['init']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('nothing changed');
    expect(readFileSync(join(dir, 'agentd/config.yaml'))).toEqual(before);
  });

  it("keeps agentboard's files being written out of git, and brings the .gitignore an older init wrote up to date, a person's own left as it is", async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    await ok(dir, ['init']);
    await changeWithTasks(dir, 'kept', [{ title: 'One' }]);
    for (const temp of ['agentd/changes/kept/.tasks.md.4242-0123456789ab.tmp', 'agentd/changes/kept/.tasks.md.held.4242-0123456789ab.tmp', 'agentd/.config.yaml.4242-0123456789ab.tmp']) write(dir, temp, 'half written');
    const added = () => {
      execFileSync('git', ['add', '-A', 'agentd'], { cwd: dir });
      return execFileSync('git', ['diff', '--cached', '--name-only'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    };
    expect(added().filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(added()).toContain('agentd/changes/kept/tasks.md');
    // An older board's .gitignore, as its init wrote it: brought up to date by init, and said so.
    const old = '# agentboard runtime state (agents, sessions, input requests, activity log, lock)\n.runtime/\n';
    execFileSync('git', ['rm', '-q', '--cached', '-r', 'agentd'], { cwd: dir });
    writeFileSync(join(dir, 'agentd/.gitignore'), old);
    const again = await ok(dir, ['init']);
    expect([again.already_initialized, again.updated]).toEqual([true, ['agentd/.gitignore']]);
    expect(added().filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // A person's own is theirs.
    writeFileSync(join(dir, 'agentd/.gitignore'), `${old}notes/\n`);
    expect((await ok(dir, ['init'])).updated).toEqual([]);
    expect(read(dir, 'agentd/.gitignore')).toBe(`${old}notes/\n`);
  });

  it('is found from a subfolder, like git', async () => {
    const dir = await newBoard();
    write(dir, 'placeholder', '');
    const r = await cli(join(dir, 'agentd', 'changes'), ['status', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.ok).toBe(true);
  });

  it('refuses to make a second board in a subfolder of a repository that has one, naming it, and changes nothing', async () => {
    const top = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: top });
    await ok(top, ['init']);
    const sub = join(top, 'packages', 'api');
    mkdirSync(sub, { recursive: true });
    const before = snapshot(top);
    for (const [cwd, args] of [
      [sub, ['init']],
      [join(top, 'agentd', 'changes'), ['init']],
    ] as const) {
      const r = await cli(cwd, [...args, '--json']);
      expect(r.code, cwd).toBe(1);
      expect(r.json.error).toEqual({
        code: 'BOARD_EXISTS',
        message: `A board already serves this folder: ${join(top, 'agentd')}/ (every command run in ${cwd} uses it); no second board was made.`,
        next_step: `Nothing needs making: commands run here use that board. To make a separate board for ${cwd} on purpose, run \`agentboard init\` with --root ${cwd}.`,
      });
      const text = await cli(cwd, [...args]);
      expect(text.code).toBe(1);
      expect(text.stderr).toContain(`error: A board already serves this folder: ${join(top, 'agentd')}/`);
      expect(snapshot(top)).toEqual(before);
    }
    // --root makes the second board on purpose; and --root naming a board's agentd/ folder names that board.
    expect((await ok(sub, ['init', '--root', '.'])).root).toBe(sub);
    expect(existsSync(join(sub, 'agentd', 'config.yaml'))).toBe(true);
    const named = await ok(sub, ['init', '--root', join(top, 'agentd')]);
    expect(named).toMatchObject({ root: top, already_initialized: true, warning: null });
    expect(existsSync(join(top, 'agentd', 'agentd'))).toBe(false);
  });

  it('wires MCP clients asked for in a subfolder at the root of the board that serves it, making no second board', async () => {
    const top = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: top });
    await ok(top, ['init']);
    const sub = join(top, 'packages', 'api');
    mkdirSync(sub, { recursive: true });
    const r = await ok(sub, ['init', '--mcp', 'claude,cursor']);
    expect(r).toMatchObject({ root: top, created: [], already_initialized: true });
    expect(r.warning).toBe(`A board already serves this folder: ${join(top, 'agentd')}/; no second board was made, and the MCP clients were wired at its root (${top}): they read those files when started there.`);
    expect(r.mcp.map((m: any) => [m.file, m.result])).toEqual([['.mcp.json', 'created'], ['.cursor/mcp.json', 'created']]);
    for (const file of ['.mcp.json', '.cursor/mcp.json']) {
      expect(JSON.parse(readFileSync(join(top, file), 'utf8')).mcpServers.agentboard.args, file).toContain('mcp');
      expect(existsSync(join(sub, file)), file).toBe(false);
    }
    expect(existsSync(join(sub, 'agentd'))).toBe(false);
    const text = await cli(sub, ['init', '--mcp', 'claude']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`A board already serves this folder: ${join(top, 'agentd')}/`);
  });

  it('makes the board in a subfolder of a repository that has none, saying where it is and how to have it at the top instead', async () => {
    const top = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: top });
    const sub = join(top, 'packages', 'api');
    mkdirSync(sub, { recursive: true });
    const r = await ok(sub, ['init', '--mcp', 'claude,cursor']);
    expect(r.root).toBe(sub);
    expect(r.warning).toBe(
      `${sub} is not the top of its git repository (${top}): commands find this board only when run in ${sub} or a folder below it; the MCP clients read the files written here only when started in this folder. To have the board at the top of the repository instead, remove ${join(sub, 'agentd')}/ and run \`agentboard init\` in ${top}.`,
    );
    // The client files are beside the board made, whose folder the servers they start find it from.
    expect(r.mcp.map((m: any) => m.file)).toEqual(['.mcp.json', '.cursor/mcp.json']);
    for (const file of ['.mcp.json', '.cursor/mcp.json']) {
      expect(existsSync(join(sub, file)), file).toBe(true);
      expect(existsSync(join(top, file)), file).toBe(false);
    }
    expect(existsSync(join(sub, 'agentd', 'config.yaml'))).toBe(true);
    expect(existsSync(join(top, 'agentd'))).toBe(false);
    const again = await cli(sub, ['init']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`A board already exists in ${sub}; nothing changed.\nWarning: ${sub} is not the top of its git repository (${top}): commands find this board only when run in ${sub} or a folder below it. To have the board at the top`);
    // At the top of the repository, or outside git, nothing to warn of.
    expect((await ok(top, ['init'])).warning).toBeNull();
    expect((await ok(tempDir(), ['init'])).warning).toBeNull();
  });

  it("makes a repository's board at its top even when a folder above the repository holds another board", async () => {
    const outer = tempDir();
    await ok(outer, ['init']);
    const repo = join(outer, 'project');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const r = await ok(repo, ['init']);
    expect(r).toMatchObject({ root: repo, already_initialized: false, warning: null });
    expect(existsSync(join(repo, 'agentd', 'config.yaml'))).toBe(true);
  });

  it('says what to do when there is no board', async () => {
    const r = await cli(tempDir(), ['status', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('BOARD_NOT_FOUND');
    expect(r.json.error.next_step).toContain('agentboard init');
  });
});

describe('a change from proposal to archive', () => {
  it('runs every phase in order, with the files on disk', async () => {
    const dir = await newBoard();
    const created = await ok(dir, ['new', 'fix-workflow-bugs', '--as', 'claude', '--title', 'Fix workflow bugs']);
    expect(created).toEqual({ change_id: 'fix-workflow-bugs', phase: 'proposal', file: 'agentd/changes/fix-workflow-bugs/proposal.md', created: true });
    expect(read(dir, 'agentd/changes/fix-workflow-bugs/proposal.md')).toMatch(/^---\nid: fix-workflow-bugs\/proposal\nchange_id: fix-workflow-bugs\ntype: proposal\nstatus: template\n/);

    const proposal = await ok(dir, ['propose', 'fix-workflow-bugs', '--as', 'claude', '--why', WHY, '--what-changes', 'Add create_review.', '--impact', 'Reviews become structured.', ...NOTES]);
    expect(proposal).toMatchObject({ document: 'proposal', status: 'submitted', revision: 1, author: 'claude', phase: 'spec' });
    // Archiving this early says where the change is, and what it waits on.
    expect((await cli(dir, ['archive', 'fix-workflow-bugs', '--json'])).json.error).toEqual({
      code: 'ARCHIVE_REFUSED',
      message: 'Change fix-workflow-bugs cannot be archived: it has no review yet, and archiving takes a review whose verdict is APPROVED. It is in its spec phase, waiting on the spec to be written, and a review comes once every task is done.',
      next_step: 'See what it waits on with `agentboard show fix-workflow-bugs`.',
    });

    const spec = await ok(dir, ['spec', 'fix-workflow-bugs', '--as', 'claude', '--from', write(dir, 'spec.md', SPEC_MD), ...NOTES]);
    expect(spec).toMatchObject({ document: 'spec', phase: 'tasks' });
    const specFile = read(dir, 'agentd/changes/fix-workflow-bugs/spec.md');
    expect(specFile).toContain('### R1: Claims\n\nThe board MUST hand a task to at most one agent.');
    expect(specFile).toContain('- **WHEN** two agents ask for work at the same moment');

    const tasks = await ok(dir, ['tasks', 'fix-workflow-bugs', '--as', 'claude', '--input', write(dir, 't.json', JSON.stringify({ tasks: [{ title: 'Add create_review', files: [{ path: 'src/review.ts', action: 'create' }] }, { title: 'Wire it', depends: ['T1'] }], notes: 'Two steps.' }))]);
    expect(tasks.task_ids).toEqual(['fix-workflow-bugs/T1', 'fix-workflow-bugs/T2']);
    // seed 001: tasks.md frontmatter holds id and change_id
    const tasksFile = read(dir, 'agentd/changes/fix-workflow-bugs/tasks.md');
    expect(tasksFile).toMatch(/^---\nid: fix-workflow-bugs\/tasks\nchange_id: fix-workflow-bugs\n/);
    expect(tasksFile).toContain('## T2: Wire it\n\n```yaml\nstatus: todo\npriority: medium\ndepends: [T1]\n```');

    // review is refused until the tasks exist (they do) — now do the work
    await ok(dir, ['task', 'done', 'fix-workflow-bugs/T1', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'fix-workflow-bugs/T2', '--as', 'codex']);

    const archiveEarly = await cli(dir, ['archive', 'fix-workflow-bugs', '--json']);
    expect(archiveEarly.code).toBe(1);
    expect(archiveEarly.json.error).toMatchObject({
      code: 'ARCHIVE_REFUSED',
      message: 'Change fix-workflow-bugs cannot be archived: it has no review yet, and archiving takes a review whose verdict is APPROVED.',
      next_step: 'A reviewer records the review with `agentboard review fix-workflow-bugs` giving `--verdict`, `--summary` and `--notes`.',
    });

    const review = await ok(dir, ['review', 'fix-workflow-bugs', '--as', 'gemini', '--input', write(dir, 'r.json', JSON.stringify({
      verdict: 'NEEDS_FIX',
      summary: 'Two problems.',
      issues: [
        { title: 'Missing null check', severity: 'High', description: 'create_review crashes without issues.' },
        { title: 'Typo', severity: 'Low', description: 'A typo in the help.' },
        { title: 'Slow path', severity: 'Medium', description: 'Reads twice.' },
      ],
      notes: 'Reviewed against the spec.',
    }))]);
    expect(review).toMatchObject({ round: 1, verdict: 'NEEDS_FIX', phase: 'review' });
    expect((await cli(dir, ['archive', 'fix-workflow-bugs', '--json'])).json.error).toMatchObject({
      message: 'Change fix-workflow-bugs cannot be archived: its latest review says NEEDS_FIX.',
      next_step: 'Fix the issues, then a reviewer records a new review round with `agentboard review fix-workflow-bugs` giving `--verdict`, `--summary` and `--notes`.',
    });
    // seed 001: a REVIEW.md with a Verdict header and issues by severity
    const reviewFile = read(dir, 'agentd/changes/fix-workflow-bugs/REVIEW.md');
    expect(reviewFile).toContain('\n# Verdict: NEEDS_FIX\n');
    const high = reviewFile.indexOf('### High\n\n#### Missing null check');
    const medium = reviewFile.indexOf('### Medium\n\n#### Slow path');
    const low = reviewFile.indexOf('### Low\n\n#### Typo');
    expect(high).toBeGreaterThan(0);
    expect(medium).toBeGreaterThan(high);
    expect(low).toBeGreaterThan(medium);

    const second = await ok(dir, ['review', 'fix-workflow-bugs', '--as', 'gemini', '--verdict', 'APPROVED', '--summary', 'All fixed.', ...NOTES]);
    expect(second).toMatchObject({ round: 2, verdict: 'APPROVED', phase: 'done' });
    const both = read(dir, 'agentd/changes/fix-workflow-bugs/REVIEW.md');
    expect(both.indexOf('# Verdict: APPROVED')).toBeLessThan(both.indexOf('# Round 1: NEEDS_FIX'));
    expect(both).toContain('#### Missing null check');

    expect((await ok(dir, ['validate', '--all'])).valid).toBe(true);
    // The worktrees a run made for the change's tasks (T1's clean, T2's with work left in it), and one of another change.
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'The board');
    const trees = tempDir();
    for (const branch of ['fix-workflow-bugs/T1', 'fix-workflow-bugs/T2', 'other-change/T1']) git('worktree', 'add', '-q', '-b', `agentboard/${branch}`, join(trees, branch));
    writeFileSync(join(trees, 'fix-workflow-bugs/T2/left.txt'), 'Work left behind.\n');
    const done = (agents: any[]) => Object.fromEntries(agents.filter((a) => a.completed_tasks > 0).map((a) => [a.agent_id, a.completed_tasks]));
    const doneBefore = done((await ok(dir, ['agent', 'list'])).agents);
    expect(Object.keys(doneBefore).length).toBeGreaterThan(0);
    const archived = await ok(dir, ['archive', 'fix-workflow-bugs']);
    // the work an agent finished stays its own once the change is archived
    expect(done((await ok(dir, ['agent', 'list'])).agents)).toEqual(doneBefore);
    expect(archived.archived_to).toMatch(/^agentd\/archive\/\d{4}-\d\d-\d\d-fix-workflow-bugs$/);
    expect(archived.worktrees_removed).toEqual([join(trees, 'fix-workflow-bugs/T1')]);
    expect(archived.worktrees_kept).toEqual([{ path: join(trees, 'fix-workflow-bugs/T2'), reason: `it holds changes not committed; look at them with \`git -C ${join(trees, 'fix-workflow-bugs/T2')} status\`, commit what is worth keeping (or copy it elsewhere), then remove it with \`git worktree remove ${join(trees, 'fix-workflow-bugs/T2')}\`` }]);
    expect(existsSync(join(trees, 'fix-workflow-bugs/T1'))).toBe(false);
    expect(readFileSync(join(trees, 'fix-workflow-bugs/T2/left.txt'), 'utf8')).toBe('Work left behind.\n');
    expect(existsSync(join(trees, 'other-change/T1'))).toBe(true);
    expect(git('branch', '--list', 'agentboard/*').split('\n').map((b) => b.replace(/^[*+ ]+/, '')).filter(Boolean)).toEqual(['agentboard/fix-workflow-bugs/T1', 'agentboard/fix-workflow-bugs/T2', 'agentboard/other-change/T1']);
    expect(existsSync(join(dir, archived.archived_to, 'REVIEW.md'))).toBe(true);
    expect(existsSync(join(dir, 'agentd/changes/fix-workflow-bugs'))).toBe(false);
    const log = await ok(dir, ['log', '--change', 'fix-workflow-bugs', '--limit', '100']);
    expect(log.entries[0]).toMatchObject({ action: 'change.archive', actor: 'human:tester' });
    expect(log.entries.map((e: any) => e.actor)).toContain('claude');

    // an archived change is still read, read-only, by the same reads
    const list = await ok(dir, ['list']);
    expect(list.changes).toEqual([]);
    expect(list.archived_count).toBe(1);
    expect((await cli(dir, ['list'])).stdout).toContain('1 archived change (`agentboard list --archived` lists them)');
    const all = await ok(dir, ['list', '--archived']);
    // Asked for the archived changes, the list does not send the reader to ask for them again.
    expect((await cli(dir, ['list', '--archived'])).stdout).not.toContain('lists them');
    expect(all.changes.map((c: any) => [c.change_id, c.phase, c.archived])).toEqual([['fix-workflow-bugs', 'archived', archived.archived_to]]);
    // Asked by phase, the list gives the archived changes' folders as asking for them does.
    expect(await ok(dir, ['list', '--phase', 'archived'])).toMatchObject({ changes: [{ change_id: 'fix-workflow-bugs' }], archived: all.archived, archived_count: 1 });
    expect(all.archived).toHaveLength(1);
    // A board-wide check says it left the archived change out, and how to check it.
    const checked = await cli(dir, ['validate', '--all', '--json']);
    expect(checked.code).toBe(0);
    expect(checked.json.data.checked).toBe(0);
    expect(checked.json.notices).toContain('1 archived change was not checked (archived changes are read-only): check it with `agentboard validate fix-workflow-bugs`.');
    const shown = await ok(dir, ['show', 'fix-workflow-bugs']);
    expect(shown).toMatchObject({ change_id: 'fix-workflow-bugs', phase: 'archived', archived: archived.archived_to });
    const archivedSpec = await showDocument(dir, 'fix-workflow-bugs', 'spec');
    expect(archivedSpec.archived).toBe(true);
    expect(archivedSpec.markdown).toBe(read(dir, `${archived.archived_to}/spec.md`));
    const task = await ok(dir, ['task', 'show', 'fix-workflow-bugs/T1']);
    expect(task).toMatchObject({ task: { task_id: 'fix-workflow-bugs/T1', status: 'done' }, archived: true });
    // The text a reader sees says so too, beside it: the document's own text stays the file as it is.
    expect((await cli(dir, ['task', 'show', 'fix-workflow-bugs/T1'])).stderr).toContain('note: fix-workflow-bugs is archived: fix-workflow-bugs/T1 is read-only.');
    const specText = await cli(dir, ['show', 'fix-workflow-bugs', 'spec']);
    expect(specText.stdout).toBe(read(dir, `${archived.archived_to}/spec.md`));
    expect(specText.stderr).toContain(`note: fix-workflow-bugs is archived (${archived.archived_to}/spec.md): read-only.`);
    const archivedTasks = await ok(dir, ['task', 'list', '--change', 'fix-workflow-bugs']);
    expect(archivedTasks.tasks.length).toBeGreaterThan(0);
    expect(archivedTasks.archived).toBe(true);
    expect((await cli(dir, ['task', 'list', '--change', 'fix-workflow-bugs'])).stdout).toMatch(/^fix-workflow-bugs is archived: read-only\.\n/);
    expect((await ok(dir, ['task', 'list'])).archived).toBe(false);
    // Board-wide reads say that they leave the archived change out, and how to read it.
    const leftOut = (read: string) => `1 archived change is left out: list it with \`agentboard list --archived\`; read it with \`${read}\`.`;
    const boardWide: [string[], string][] = [[['task', 'list'], 'agentboard task list --change fix-workflow-bugs'], [['docs'], 'agentboard docs fix-workflow-bugs'], [['status'], 'agentboard show fix-workflow-bugs']];
    for (const [args, readOne] of boardWide) {
      expect(await ok(dir, args), args.join(' ')).toMatchObject({ archived_left_out: 1, archived_note: leftOut(readOne) });
      expect((await cli(dir, args)).stdout, args.join(' ')).toContain(`${leftOut(readOne)}\n`);
    }
    expect((await cli(dir, ['status'])).stdout).toContain('No open changes yet: create one with');
    expect(await ok(dir, ['task', 'list', '--change', 'fix-workflow-bugs'])).toMatchObject({ archived_left_out: 0, archived_note: null });
    expect(await ok(dir, ['docs', 'fix-workflow-bugs'])).toMatchObject({ archived_left_out: 0, archived_note: null });
    expect(await ok(dir, ['validate', 'fix-workflow-bugs'])).toMatchObject({ valid: true, changes: [{ change_id: 'fix-workflow-bugs', archived: true, valid: true }] });
    expect((await cli(dir, ['validate', 'fix-workflow-bugs'])).stdout).toContain('(fix-workflow-bugs, archived)');
    const archivedDocs = await ok(dir, ['docs', 'fix-workflow-bugs']);
    expect(archivedDocs.documents.map((d: any) => d.file)).toContain(`${archived.archived_to}/spec.md`);
    expect(archivedDocs.archived).toBe(true);
    expect((await cli(dir, ['docs', 'fix-workflow-bugs'])).stdout).toMatch(/^fix-workflow-bugs is archived: read-only\.\n/);
    const late = await cli(dir, ['task', 'note', 'fix-workflow-bugs/T1', 'late', '--as', 'claude', '--json']);
    expect(late.json.error.code).toBe('CHANGE_ARCHIVED');
    // Its id stays taken: neither a new change nor a proposal makes another change of that id.
    const before = snapshot(dir);
    for (const args of [['new', 'fix-workflow-bugs', '--as', 'claude'], ['propose', 'fix-workflow-bugs', '--as', 'claude', '--why', WHY, '--what-changes', 'Again.', '--impact', 'None.', ...NOTES]]) {
      const again = await cli(dir, [...args, '--json']);
      expect(again.code, args[0]).toBe(1);
      expect(again.json.error).toEqual({
        code: 'CHANGE_EXISTS',
        message: `Change fix-workflow-bugs was archived (${archived.archived_to}); its id stays taken.`,
        next_step: 'Pick another change id, like fix-workflow-bugs-2.',
      });
    }
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('the gates', () => {
  it('refuse the spec before the proposal, naming the step and the command', async () => {
    const dir = await newBoard();
    await ok(dir, ['new', 'gated', '--as', 'claude']);
    const r = await cli(dir, ['spec', 'gated', '--as', 'claude', '--from', write(dir, 's.md', SPEC_MD), ...NOTES, '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('PHASE_NOT_READY');
    expect(r.json.error.message).toContain('proposal has not been submitted');
    expect(r.json.error.next_step).toContain('agentboard propose');
    expect(existsSync(join(dir, 'agentd/changes/gated/spec.md'))).toBe(false);
  });

  it('refuse tasks before the spec and review before tasks', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'gated', '--as', 'claude', '--why', WHY, '--what-changes', 'x', '--impact', 'y', ...NOTES]);
    const tasks = await cli(dir, ['tasks', 'gated', '--as', 'claude', '--input', write(dir, 't.json', JSON.stringify({ tasks: [{ title: 'a' }], notes: 'n' })), '--json']);
    expect(tasks.json.error).toMatchObject({ code: 'PHASE_NOT_READY' });
    expect(tasks.json.error.next_step).toContain('agentboard spec');
    const review = await cli(dir, ['review', 'gated', '--as', 'claude', '--verdict', 'APPROVED', '--summary', 's', ...NOTES, '--json']);
    expect(review.json.error.code).toBe('PHASE_NOT_READY');
    // The reviewer is not sent to write the plan itself: it is told where the change stands.
    expect(review.json.error.next_step).toBe("A review comes after the planner's proposal, spec and task list; see where gated stands with `agentboard show gated`, and review another change meanwhile (`agentboard list`).");
  });

  it('wait for a person when config.yaml requires approval', async () => {
    const dir = await newBoard();
    write(dir, 'agentd/config.yaml', 'require_approval: [proposal]\n');
    await ok(dir, ['propose', 'gated', '--as', 'claude', '--why', WHY, '--what-changes', 'x', '--impact', 'y', ...NOTES]);
    const early = await cli(dir, ['spec', 'gated', '--as', 'claude', '--from', write(dir, 's.md', SPEC_MD), ...NOTES, '--json']);
    expect(early.json.error.code).toBe('PHASE_NOT_READY');
    expect(early.json.error.message).toContain('approve the proposal');
    // A task added before there can be a task list is sent to what the list waits for, not to `tasks`, which would be refused too.
    const before = snapshot(dir);
    const task = await cli(dir, ['task', 'add', 'gated', '--as', 'claude', '--title', 'Early', '--json']);
    expect(task.json.error).toEqual({
      code: 'PHASE_NOT_READY',
      message: 'Change gated has no task list yet, and it cannot be written yet: this board requires a person to approve the proposal first.',
      next_step: 'Ask a person to run `agentboard approve gated proposal`; meanwhile find other work with `agentboard next --as claude`.',
    });
    expect((await cli(dir, ['task', 'show', 'gated/T1', '--json'])).json.error.next_step).toBe(task.json.error.next_step.replace(' --as claude', ''));
    // Creating it again points to its proposal only while it can still be submitted.
    expect((await cli(dir, ['new', 'gated', '--as', 'claude', '--json'])).json.error.next_step).toBe('Read it with `agentboard show gated`, or pick another change id.');
    expect(snapshot(dir)).toEqual(before);
    await ok(dir, ['new', 'blank', '--as', 'claude']);
    expect((await cli(dir, ['new', 'blank', '--as', 'claude', '--json'])).json.error.next_step).toBe('Submit its proposal with `agentboard propose blank --as claude` giving `--why`, `--what-changes`, `--impact` and `--notes`, or pick another change id.');
    // status names the commands that decide, with the change and the document.
    expect((await cli(dir, ['status'])).stdout).toContain('(`agentboard approve gated proposal` / `agentboard reject gated proposal');
    expect((await ok(dir, ['approve', 'gated', 'proposal'])).status).toBe('approved');
    expect((await ok(dir, ['spec', 'gated', '--as', 'claude', '--from', write(dir, 's.md', SPEC_MD), ...NOTES])).status).toBe('submitted');
  });
});

describe('seed 001 acceptance', () => {
  it('refuses a spec whose overview is under 50 characters, and writes no spec file', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'short', '--as', 'claude', '--why', WHY, '--what-changes', 'x', '--impact', 'y', ...NOTES]);
    const input = { change_id: 'short', agent_id: 'codex', overview: 'Too short.', requirements: [{ id: 'R1', title: 't', text: 'It MUST.' }], scenarios: [{ name: 's', when: 'w', then: 't' }], notes: 'n' };
    const r = await cli(dir, ['spec', '--input', '-', '--json'], { stdin: JSON.stringify(input) });
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe('INVALID_INPUT');
    expect(r.json.error.message).toContain('overview needs at least 50 characters (got 10)');
    expect(existsSync(join(dir, 'agentd/changes/short/spec.md'))).toBe(false);
  });

  it('refuses a spec with an error in one round with its warnings, which would otherwise come only once it is written', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'rounds', '--as', 'claude', '--why', WHY, '--what-changes', 'x', '--impact', 'y', ...NOTES]);
    const input = { overview: 'The board keeps the tasks of a change and hands each one to exactly one agent at a time.', requirements: [{ id: 'R1', title: 'Claims', text: 'The board MUST hand a task to one agent.' }, { id: 'R2', title: 'Attribution', text: 'Every change records who made it.' }], scenarios: [{ name: 'Two agents ask at once', requirement: 'R7', given: 'one ready task', when: 'two agents ask', then: 'one gets it' }], notes: 'n' };
    const r = await cli(dir, ['spec', 'rounds', '--as', 'claude', '--input', '-', '--json'], { stdin: JSON.stringify(input) });
    expect(r.json.error.code).toBe('VALIDATION_FAILED');
    expect(r.json.error.message).toMatch(/^The spec is not valid, so nothing was written: .*\[spec\.requirement\.normative\]\. Its warnings, which alone would not stop the write: .*requirement R7, which the spec does not have \[spec\.scenario\.requirement\]\.$/);
    expect(existsSync(join(dir, 'agentd/changes/rounds/spec.md'))).toBe(false);
  });

  it('accepts seed 001 itself as a spec', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'mcp-spec-tooling', '--as', 'claude', '--why', WHY, '--what-changes', 'x', '--impact', 'y', ...NOTES]);
    const r = await ok(dir, ['spec', 'mcp-spec-tooling', '--as', 'claude', '--from', join(FIXTURES, 'mcp-spec-tooling.md'), ...NOTES]);
    expect(r.warnings).toEqual([]);
    const file = read(dir, 'agentd/changes/mcp-spec-tooling/spec.md');
    expect(file).toContain('# Specification: MCP Specification Tooling');
    expect(file).toContain('### MS-R4: Validation of Tool Inputs');
    const shown = await showDocument(dir, 'mcp-spec-tooling', 'spec');
    expect(shown.content.requirements).toHaveLength(4);
    expect(shown.markdown).toBe(file);
  });
});

describe('the document lifecycle', () => {
  it('locks a submitted document against agents with seed 000 wording, keeps rejection feedback', async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'life', '--as', 'claude', '--why', WHY, '--what-changes', 'x', '--impact', 'y', ...NOTES]);
    const again = await cli(dir, ['propose', 'life', '--as', 'gemini', '--why', WHY, '--what-changes', 'x2', '--impact', 'y', ...NOTES, '--json']);
    expect(again.code).toBe(1);
    // This board requires no person's approval: the change has moved on, and the next step says so.
    expect(again.json.error).toMatchObject({ code: 'DOCUMENT_SUBMITTED', message: "This proposal has already been submitted. This board requires no person's approval of it, so nothing waits on it: life has moved on to its spec phase (waiting on the spec to be written)." });
    expect(again.json.error.next_step).toContain('agentboard next');
    // Where the board requires it, seed 000's wording: the document awaits a person's review.
    const config = read(dir, 'agentd/config.yaml');
    writeFileSync(join(dir, 'agentd/config.yaml'), 'require_approval: [proposal]\n');
    const held = await cli(dir, ['propose', 'life', '--as', 'gemini', '--why', WHY, '--what-changes', 'x2', '--impact', 'y', ...NOTES, '--json']);
    expect(held.json.error).toMatchObject({ code: 'DOCUMENT_SUBMITTED', message: "This proposal has already been submitted and is awaiting review: this board requires a person's approval of it." });
    expect(held.json.error.next_step).toContain('agentboard next');
    writeFileSync(join(dir, 'agentd/config.yaml'), config);

    const agentApprove = await cli(dir, ['approve', 'life', 'proposal', '--as', 'claude', '--json']);
    expect(agentApprove.json.error.code).toBe('HUMAN_ONLY');

    await ok(dir, ['reject', 'life', 'proposal', '--feedback', 'Say who is affected.']);
    const doc = await showDocument(dir, 'life', 'proposal');
    expect(doc.status).toBe('rejected');
    expect(doc.feedback).toEqual([{ author: 'human:tester', at: expect.any(String), text: 'Say who is affected.' }]);
    const resubmitted = await ok(dir, ['propose', 'life', '--as', 'gemini', '--why', WHY, '--what-changes', 'x', '--impact', 'Reviewers and agents.', '--notes', 'Addressed rejection feedback: named who is affected.']);
    expect(resubmitted).toMatchObject({ status: 'submitted', revision: 2, author: 'gemini' });
    expect(resubmitted.feedback[0].text).toBe('Say who is affected.');
    await ok(dir, ['approve', 'life', 'proposal']);
    const late = await cli(dir, ['propose', 'life', '--as', 'gemini', '--why', WHY, '--what-changes', 'x', '--impact', 'y', ...NOTES, '--json']);
    expect(late.json.error).toMatchObject({ code: 'DOCUMENT_APPROVED', message: 'This proposal has already been approved.' });
    // approve only changed the frontmatter: the body is byte-identical
    const file = read(dir, 'agentd/changes/life/proposal.md');
    expect(file.split('\n---\n')[1]).toBe(doc.markdown.split('\n---\n')[1]!.replace('x\n\n## Impact\n\ny', 'x\n\n## Impact\n\nReviewers and agents.'));
  });
});

describe("a review round, a reviewer's or a person's", () => {
  it("is refused to a run's planner, naming who records it, and changes nothing", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rounds', [{ title: 'Build' }]);
    const before = snapshot(dir);
    const env = { AGENTBOARD_RUN_ID: 'run-1', AGENTBOARD_AGENT_ID: 'plan-1', AGENTBOARD_ROLE: 'planner' };
    const r = await cli(dir, ['review', 'rounds', '--verdict', 'APPROVED', '--summary', 'Mine looks fine.', ...NOTES, '--json'], { env });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('ROLE_REFUSED');
    expect(r.json.error.message).toContain('plan-1 is a planner of agentboard run run-1 (AGENTBOARD_ROLE), and `agentboard review` is not a planner\'s command');
    expect(r.json.error.next_step).toContain('this command is for a reviewer or a person');
    expect(snapshot(dir)).toEqual(before);
    // The run's reviewer records it.
    const reviewed = await cli(dir, ['review', 'rounds', '--verdict', 'APPROVED', '--summary', 'Looks fine.', ...NOTES, '--json'], { env: { ...env, AGENTBOARD_AGENT_ID: 'rev-1', AGENTBOARD_ROLE: 'reviewer' } });
    expect(reviewed.json.data).toMatchObject({ round: 1, verdict: 'APPROVED' });
  });
});
