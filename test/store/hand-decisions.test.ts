/**
 * A hand edit decides nothing: a document's status, a review's latest verdict and the plan of a
 * task list a person approved change only through agentboard's commands. A file edited to say
 * otherwise is read with what agentboard recorded, hands out no task, is reported with its line,
 * and agentboard's next write of it keeps agentboard's value and records the person's. A decision
 * that came with git (another clone's approval, pulled) is taken as it is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, read, SPEC_MD, tempDir, WHY, write } from '../helpers.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe', encoding: 'utf8' });

/** Makes the board's folder a git repository with everything committed. */
function commitBoard(dir: string): void {
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'board');
}

/** A fresh clone of the repository at `dir` (no agentd/.runtime: no ledger at all). */
function cloneOf(dir: string): string {
  const b = join(tempDir('agentboard-clone-'), 'b');
  git(join(b, '..'), 'clone', '-q', dir, b);
  return b;
}

function requireApproval(dir: string, phases: string): void {
  write(dir, 'agentd/config.yaml', read(dir, 'agentd/config.yaml').replace(/^require_approval: \[\]$/m, `require_approval: [${phases}]`));
}

/** The 1-based line of the first line of `path` that is `line`. */
function lineOf(dir: string, path: string, line: string): number {
  return read(dir, path).split('\n').indexOf(line) + 1;
}

/** The findings of `validate <change>` (exit code too) with the given rule. */
async function findings(dir: string, changeId: string, rule: string): Promise<{ code: number; found: any[] }> {
  const r = await cli(dir, ['validate', changeId, '--json']);
  return { code: r.code, found: r.json.data.changes.flatMap((c: any) => c.findings).filter((f: any) => f.rule === rule) };
}

function conflicts(dir: string): any[] {
  const path = join(dir, 'agentd/.runtime/conflicts.json');
  return existsSync(path) ? JSON.parse(read(dir, 'agentd/.runtime/conflicts.json')) : [];
}

describe('a document status set by hand', () => {
  it('hands out no task, is an error with its line, and the next write keeps the status agentboard recorded', async () => {
    const dir = await newBoard();
    requireApproval(dir, 'tasks');
    await changeWithTasks(dir, 'forged', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/forged/tasks.md';
    write(dir, path, read(dir, path).replace(/^status: submitted$/m, 'status: approved'));
    const line = lineOf(dir, path, 'status: approved');

    const { code, found } = await findings(dir, 'forged', 'document.status.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ level: 'error', file: path, line })]);
    expect(found[0].fix).toContain('agentboard approve forged tasks');
    const status = await ok(dir, ['status']);
    expect(status.problems).toContainEqual(expect.objectContaining({ rule: 'document.status.by_hand', file: path, line }));
    expect(status.totals.ready).toBe(0);
    // read with the status agentboard recorded: nobody decided, no task is ready
    const shown = await ok(dir, ['show', 'forged', 'tasks', '--format', 'fields']);
    expect([shown.status, shown.decided_by]).toEqual(['submitted', null]);
    expect(shown.content.tasks.map((t: any) => t.ready)).toEqual([false, false]);

    const next = await ok(dir, ['next', '--as', 'w1']);
    expect(next.status).toBe('nothing_available');
    expect(next.reasons.awaiting_approval).toBe(2);
    // that write merged the file: agentboard's status is back, the person's is recorded
    expect(read(dir, path)).toMatch(/^status: submitted$/m);
    expect(read(dir, path)).not.toMatch(/^status: approved$/m);
    expect(conflicts(dir)).toContainEqual(expect.objectContaining({ file: path, item: '#meta', part: 'state', kept: 'agentboard', person: expect.objectContaining({ status: 'approved' }) }));
    expect((await findings(dir, 'forged', 'document.status.by_hand')).found).toEqual([]);

    // a person's approval opens the list
    await ok(dir, ['approve', 'forged', 'tasks']);
    expect((await ok(dir, ['next', '--as', 'w1'])).status).toBe('assigned');
  });

  it('of a spec a board must have approved does not open the task list', async () => {
    const dir = await newBoard();
    requireApproval(dir, 'spec');
    await ok(dir, ['propose', 'early', '--as', 'planner', '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'No additional notes.']);
    await ok(dir, ['spec', 'early', '--as', 'planner', '--from', write(dir, 'spec-in.md', SPEC_MD), '--notes', 'No additional notes.']);
    const path = 'agentd/changes/early/spec.md';
    write(dir, path, read(dir, path).replace(/^status: submitted$/m, 'status: approved'));

    expect((await findings(dir, 'early', 'document.status.by_hand')).found).toEqual([expect.objectContaining({ file: path, line: lineOf(dir, path, 'status: approved') })]);
    const tasks = await cli(dir, ['tasks', 'early', '--as', 'planner', '--input', write(dir, 'tasks-in.json', JSON.stringify({ tasks: [{ title: 'One' }], notes: 'No additional notes.' })), '--json']);
    expect(tasks.code).not.toBe(0);
    expect(tasks.json.error.message).toContain('approve the spec');
    expect(existsSync(join(dir, 'agentd/changes/early/tasks.md'))).toBe(false);
  });
});

describe('a review verdict set by hand', () => {
  it('is an error with its line, archive refuses the change, and the next round keeps the verdict agentboard recorded', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'judged', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'w1']);
    await ok(dir, ['task', 'done', 'judged/T1', '--as', 'w1']);
    await ok(dir, ['review', 'judged', '--as', 'rv', '--verdict', 'MAJOR_ISSUES', '--summary', 'The claims race.', '--notes', 'No additional notes.']);
    const path = 'agentd/changes/judged/REVIEW.md';
    write(dir, path, read(dir, path).replace(/^# Verdict: MAJOR_ISSUES$/m, '# Verdict: APPROVED'));

    const { code, found } = await findings(dir, 'judged', 'review.verdict.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ level: 'error', file: path, line: lineOf(dir, path, '# Verdict: APPROVED') })]);
    expect(found[0].fix).toContain('agentboard review judged');
    expect((await ok(dir, ['status'])).problems).toContainEqual(expect.objectContaining({ rule: 'review.verdict.by_hand', file: path }));
    expect((await ok(dir, ['show', 'judged', 'review', '--format', 'fields'])).content.rounds[0].verdict).toBe('MAJOR_ISSUES');

    const archive = await cli(dir, ['archive', 'judged', '--json']);
    expect(archive.code).not.toBe(0);
    expect(archive.json.error.code).toBe('ARCHIVE_REFUSED');
    expect(archive.json.error.message).toContain('hand edit');
    expect(existsSync(join(dir, 'agentd/changes/judged'))).toBe(true);
    expect(existsSync(join(dir, 'agentd/archive'))).toBe(false);

    // the next write of the review: the round the hand edit changed keeps agentboard's verdict
    await ok(dir, ['review', 'judged', '--as', 'rv', '--verdict', 'NEEDS_FIX', '--summary', 'Better; one gap left.', '--notes', 'No additional notes.']);
    const text = read(dir, path);
    expect(text).toMatch(/^# Verdict: NEEDS_FIX$/m);
    expect(text).toMatch(/^# Round 1: MAJOR_ISSUES$/m);
    expect(text).not.toContain('APPROVED');
    expect(conflicts(dir)).toContainEqual(expect.objectContaining({ file: path, item: '#meta', part: 'plan', kept: 'agentboard' }));

    // a reviewer's APPROVED round is what lets a person archive it
    await ok(dir, ['review', 'judged', '--as', 'rv', '--verdict', 'APPROVED', '--summary', 'Done.', '--notes', 'No additional notes.']);
    expect((await ok(dir, ['archive', 'judged'])).archived_to).toMatch(/^agentd\/archive\/\d{4}-\d\d-\d\d-judged$/);
  });
});

describe('a task added by hand to an approved task list', () => {
  it('is not handed out, is an error with its line, and the next write leaves it out and records it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'frozen', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['approve', 'frozen', 'tasks']);
    const path = 'agentd/changes/frozen/tasks.md';
    write(dir, path, `${read(dir, path)}\n## T9: Sneaky\n\n\`\`\`yaml\nstatus: todo\npriority: urgent\n\`\`\`\n`);

    const { code, found } = await findings(dir, 'frozen', 'tasks.added.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ level: 'error', file: path, line: lineOf(dir, path, '## T9: Sneaky') })]);
    expect(found[0].fix).toContain('agentboard task add frozen');
    expect((await ok(dir, ['status'])).problems).toContainEqual(expect.objectContaining({ rule: 'tasks.added.by_hand', file: path }));
    expect((await ok(dir, ['task', 'list', '--change', 'frozen'])).tasks.map((t: any) => t.task_id)).toEqual(['frozen/T1', 'frozen/T2']);

    // the urgent task would be handed out first: it is not handed out at all
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('frozen/T1');
    expect((await ok(dir, ['next', '--as', 'w2'])).task.task_id).toBe('frozen/T2');
    expect((await ok(dir, ['next', '--as', 'w3'])).status).toBe('nothing_available');
    expect(read(dir, path)).not.toContain('T9');
    expect(conflicts(dir)).toContainEqual(expect.objectContaining({ file: path, item: 'T9', part: 'added', kept: 'agentboard', person: expect.objectContaining({ plan: expect.objectContaining({ title: 'Sneaky' }) }) }));
    expect((await findings(dir, 'frozen', 'tasks.added.by_hand')).code).toBe(0);

    // a person adds a task to an approved list with the command
    await ok(dir, ['task', 'add', 'frozen', '--title', 'Sneaky, by a person']);
    expect((await ok(dir, ['next', '--as', 'w3'])).task.title).toBe('Sneaky, by a person');
  });
});

describe('a decision committed with git that no command made', () => {
  it('is a warning of validate and status: the file names no person who decided it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'signed', [{ title: 'One' }]);
    commitBoard(dir);
    const spec = 'agentd/changes/signed/spec.md';
    write(dir, spec, read(dir, spec).replace(/^status: submitted$/m, 'status: approved'));
    git(dir, 'commit', '-qam', 'approve the spec by hand');
    const v = await cli(dir, ['validate', 'signed', '--json']);
    expect(v.json.data.changes[0].findings).toEqual([expect.objectContaining({ level: 'warning', rule: 'frontmatter.decided_by', file: spec, message: expect.stringContaining('this spec says "approved" but names no person who decided it (decided_by)') })]);
    expect((await cli(dir, ['validate', 'signed', '--strict', '--json'])).code).toBe(1);
    // one a person made with the command names them: no warning
    await ok(dir, ['approve', 'signed', 'tasks']);
    expect((await cli(dir, ['validate', 'signed', '--json'])).json.data.changes[0].findings.map((f: any) => f.file)).toEqual([spec]);
  });
});

describe('settings that open a gate, not committed', () => {
  it('are a warning of validate and status until committed or put back: an approval no longer asked for, self-review allowed', async () => {
    const dir = await newBoard();
    requireApproval(dir, 'spec, tasks');
    commitBoard(dir);
    const config = 'agentd/config.yaml';
    const committed = read(dir, config);
    const gates = async () => (await cli(dir, ['validate', '--json'])).json.data.findings.filter((f: any) => f.rule === 'config.gates.opened').map((f: any) => f.message);
    expect(await gates()).toEqual([]);
    write(dir, config, `${committed.replace('require_approval: [spec, tasks]', 'require_approval: [tasks]')}\nreview:\n  allow_self_review: true\n`);
    const said = await gates();
    expect(said).toEqual([
      "require_approval no longer names spec, which the commit checked out does: this edit, not committed, lets the board go on without a person's approval of it, for every agent at once",
      'review: allow_self_review is true, where the commit checked out has it false: this edit, not committed, lets an agent review work it did itself',
    ]);
    expect((await ok(dir, ['status'])).problems.filter((p: any) => p.rule === 'config.gates.opened')).toHaveLength(2);
    // Committed, it is the board's setting, reviewed like any other change.
    git(dir, 'commit', '-qam', 'open the gates');
    expect(await gates()).toEqual([]);
  });
});

describe("another clone's approval pulled with git", () => {
  it('is taken as it is: no finding, its tasks are handed out, and a hand edit in the same clone is still one', async () => {
    const origin = tempDir('agentboard-origin-');
    git(origin, 'init', '-q', '--bare');
    const a = await newBoard();
    requireApproval(a, 'tasks');
    await changeWithTasks(a, 'shared', [{ title: 'One' }, { title: 'Two' }]);
    commitBoard(a);
    git(a, 'push', '-q', origin, 'HEAD:refs/heads/main');
    const b = join(tempDir('agentboard-clone-'), 'b');
    git(join(b, '..'), 'clone', '-q', '-b', 'main', origin, b);
    // b writes the spec and the task list too, so that its ledger records them (submitted)
    await ok(b, ['review-request', 'shared', 'spec']);
    await ok(b, ['review-request', 'shared', 'tasks']);
    git(b, 'commit', '-qam', 'sent to reviewers');
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    // a person approves it on a, and adds a task to the approved list
    git(a, 'pull', '-q', origin, 'main');
    await ok(a, ['approve', 'shared', 'tasks']);
    await ok(a, ['task', 'add', 'shared', '--title', 'Three, by a person']);
    git(a, 'commit', '-qam', 'approved');
    git(a, 'push', '-q', origin, 'HEAD:main');

    git(b, 'pull', '-q', 'origin', 'main');
    const path = 'agentd/changes/shared/tasks.md';
    // and a person on b edits a title before anything is written there
    write(b, path, read(b, path).replace('## T2: Two', '## T2: Two, renamed'));
    const v = await cli(b, ['validate', 'shared', '--json']);
    expect(v.json.data.hand_edited).toEqual([path]);
    expect(v.json.data.changes[0].findings).toEqual([]);
    expect(v.code).toBe(0);
    expect((await ok(b, ['show', 'shared', 'tasks', '--format', 'fields'])).status).toBe('approved');
    const given = [(await ok(b, ['next', '--as', 'w1'])).task.task_id, (await ok(b, ['next', '--as', 'w2'])).task.task_id, (await ok(b, ['next', '--as', 'w3'])).task.task_id];
    expect(given.sort()).toEqual(['shared/T1', 'shared/T2', 'shared/T3']);
    expect(read(b, path)).toMatch(/^status: approved$/m);
    expect(read(b, path)).toContain('## T2: Two, renamed');
    expect(conflicts(b)).toEqual([]);

    // a status set, or a task added, by hand in that clone is none of git's
    const spec = 'agentd/changes/shared/spec.md';
    write(b, spec, read(b, spec).replace(/^status: submitted$/m, 'status: approved'));
    expect((await findings(b, 'shared', 'document.status.by_hand')).found).toEqual([expect.objectContaining({ file: spec, line: lineOf(b, spec, 'status: approved') })]);
    write(b, path, `${read(b, path)}\n## T9: Sneaky\n\n\`\`\`yaml\nstatus: todo\npriority: urgent\n\`\`\`\n`);
    expect((await findings(b, 'shared', 'tasks.added.by_hand')).found).toEqual([expect.objectContaining({ file: path, line: lineOf(b, path, '## T9: Sneaky') })]);
  });
});

describe('a document agentboard never wrote here', () => {
  it('a review written by hand decides nothing: an error with its line, archive refuses, and a reviewer\'s round replaces it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'made', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'w1']);
    await ok(dir, ['task', 'done', 'made/T1', '--as', 'w1']);
    commitBoard(dir);
    const path = 'agentd/changes/made/REVIEW.md';
    const forged = ['---', 'id: made/review', 'change_id: made', 'type: review', 'status: submitted', 'created: 2026-01-01T00:00:00.000Z', 'updated: 2026-01-01T00:00:00.000Z', 'author: rv', 'revision: 1', '---', '', '# Verdict: APPROVED', '', '**Round 1** · reviewed by rv · 2026-01-01T00:00:00.000Z', '', '## Summary', '', 'All good.', '', '## Issues', '', 'No issues found.', ''].join('\n');
    write(dir, path, forged);

    const { code, found } = await findings(dir, 'made', 'review.verdict.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ level: 'error', file: path, line: lineOf(dir, path, '# Verdict: APPROVED') })]);
    expect(found[0].message).toContain('never wrote this review here');
    expect(found[0].fix).toContain('agentboard review made');
    expect((await ok(dir, ['status'])).changes.find((c: any) => c.change_id === 'made').phase).toBe('review');

    const archive = await cli(dir, ['archive', 'made', '--json']);
    expect(archive.json.error.code).toBe('ARCHIVE_REFUSED');
    expect(archive.json.error.message).toContain('recorded no review round');
    expect(existsSync(join(dir, 'agentd/changes/made'))).toBe(true);
    expect(existsSync(join(dir, 'agentd/archive'))).toBe(false);
    // nor does a person's approval of the review make it one: there is no reviewer's round to approve
    const before = read(dir, path);
    const approve = await cli(dir, ['approve', 'made', 'review', '--json'], { interactive: true });
    expect(approve.json.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(`${path}:${lineOf(dir, path, '# Verdict: APPROVED')}: the latest verdict of the review says APPROVED, but agentboard never wrote this review here`) });
    expect(approve.json.error.next_step).toMatch(/^Nothing was approved: a reviewer records a new round with `agentboard review made/);
    expect(read(dir, path)).toBe(before);
    expect((await cli(dir, ['archive', 'made', '--json'])).json.error.code).toBe('ARCHIVE_REFUSED');

    // a reviewer's round: the hand-made one is left out of the file and recorded
    await ok(dir, ['review', 'made', '--as', 'rv', '--verdict', 'NEEDS_FIX', '--summary', 'One gap left.', '--notes', 'No additional notes.']);
    const text = read(dir, path);
    expect(text).toMatch(/^# Verdict: NEEDS_FIX$/m);
    expect(text).not.toContain('All good.');
    expect(conflicts(dir)).toContainEqual(expect.objectContaining({ file: path, item: '#meta', part: 'plan', kept: 'agentboard', person: expect.objectContaining({ body: expect.stringContaining('All good.') }) }));
    expect((await findings(dir, 'made', 'review.verdict.by_hand')).found).toEqual([]);
    await ok(dir, ['review', 'made', '--as', 'rv', '--verdict', 'APPROVED', '--summary', 'Done.', '--notes', 'No additional notes.']);
    expect((await ok(dir, ['archive', 'made'])).archived_to).toMatch(/-made$/);
  });

  it('a task list made by hand as approved hands out no task until a person approves it', async () => {
    const dir = await newBoard();
    requireApproval(dir, 'tasks');
    await changeWithTasks(dir, 'real', [{ title: 'One' }]);
    commitBoard(dir);
    // a copy of a change's documents under a new id, its task list saying "approved"
    mkdirSync(join(dir, 'agentd/changes/copied'));
    for (const file of ['proposal.md', 'spec.md', 'tasks.md']) {
      const text = read(dir, `agentd/changes/real/${file}`).replaceAll('real', 'copied');
      write(dir, `agentd/changes/copied/${file}`, file === 'tasks.md' ? text.replace(/^status: submitted$/m, 'status: approved') : text);
    }
    const path = 'agentd/changes/copied/tasks.md';

    const { code, found } = await findings(dir, 'copied', 'document.status.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ file: path, line: lineOf(dir, path, 'status: approved') })]);
    expect(found[0].fix).toContain('agentboard approve copied tasks');
    const next = await ok(dir, ['next', '--as', 'w1', '--change', 'copied']);
    expect(next.status).toBe('nothing_available');
    expect(next.reasons.awaiting_approval).toBe(1);
    expect((await ok(dir, ['show', 'copied', 'tasks', '--format', 'fields'])).status).toBe('submitted');

    await ok(dir, ['approve', 'copied', 'tasks']);
    expect((await ok(dir, ['next', '--as', 'w1', '--change', 'copied'])).task.task_id).toBe('copied/T1');
    expect((await findings(dir, 'copied', 'document.status.by_hand')).found).toEqual([]);
  });

  it('on a fresh clone (no ledger at all) what the commit holds is taken as it is, and a task added by hand is still none of git\'s', async () => {
    const a = await newBoard();
    requireApproval(a, 'tasks');
    await changeWithTasks(a, 'cloned', [{ title: 'One' }, { title: 'Two' }]);
    await ok(a, ['approve', 'cloned', 'tasks']);
    commitBoard(a);
    const b = cloneOf(a);
    expect(existsSync(join(b, 'agentd/.runtime'))).toBe(false);

    const v = await cli(b, ['validate', 'cloned', '--json']);
    expect(v.json.data.changes[0].findings).toEqual([]);
    expect(v.code).toBe(0);
    const path = 'agentd/changes/cloned/tasks.md';
    write(b, path, `${read(b, path)}\n## T9: Sneaky\n\n\`\`\`yaml\nstatus: todo\npriority: urgent\n\`\`\`\n`);
    expect((await findings(b, 'cloned', 'tasks.added.by_hand')).found).toEqual([expect.objectContaining({ file: path, line: lineOf(b, path, '## T9: Sneaky') })]);
    const given = [(await ok(b, ['next', '--as', 'w1'])).task.task_id, (await ok(b, ['next', '--as', 'w2'])).task.task_id, (await ok(b, ['next', '--as', 'w3'])).status];
    expect(given).toEqual(['cloned/T1', 'cloned/T2', 'nothing_available']);
    expect(read(b, path)).not.toContain('T9');
    expect(conflicts(b)).toContainEqual(expect.objectContaining({ file: path, item: 'T9', part: 'added', kept: 'agentboard' }));
  });
  it('on a fresh clone, a task typed done by hand starts none of its dependents, and the next write of the list sets it back', async () => {
    const a = await newBoard();
    await changeWithTasks(a, 'hop', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }, { title: 'Three', depends: ['T2'] }]);
    commitBoard(a);
    const b = cloneOf(a);
    const path = 'agentd/changes/hop/tasks.md';
    const text = read(b, path);
    const t2 = text.indexOf('## T2');
    write(b, path, text.slice(0, t2) + text.slice(t2).replace('status: todo', 'status: done'));

    const { code, found } = await findings(b, 'hop', 'tasks.done.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ file: path })]);
    expect((await ok(b, ['next', '--as', 'w1'])).task.task_id).toBe('hop/T1');
    const second = await ok(b, ['next', '--as', 'w2']);
    expect(second.status).toBe('nothing_available');
    expect(second.reasons.waiting_on_dependencies).toBe(2);
    // the claim wrote the list: T2 is to do again, and what the file said is kept
    const after = read(b, path);
    expect(after.slice(after.indexOf('## T2'), after.indexOf('## T3'))).toContain('status: todo');
    expect(conflicts(b)).toContainEqual(expect.objectContaining({ file: path, item: 'T2', part: 'state', kept: 'agentboard', person: expect.objectContaining({ status: 'done' }) }));
  });

  it('on a fresh clone, a task taken out of the list by hand is reported, archive refuses the change, and the next write puts it back', async () => {
    const a = await newBoard();
    await changeWithTasks(a, 'cut', [{ title: 'One' }, { title: 'Two' }]);
    await ok(a, ['next', '--as', 'w1']);
    await ok(a, ['task', 'done', 'cut/T1', '--as', 'w1']);
    await ok(a, ['review', 'cut', '--as', 'rv', '--verdict', 'APPROVED', '--summary', 'Good so far.', '--notes', 'No additional notes.']);
    commitBoard(a);
    const b = cloneOf(a);
    const path = 'agentd/changes/cut/tasks.md';
    write(b, path, read(b, path).replace(/\n## T2: [\s\S]*$/, '\n'));

    const { found } = await findings(b, 'cut', 'tasks.missing.by_hand');
    expect(found.map((f: any) => [f.level, f.file, f.message])).toEqual([['warning', path, 'task T2 is not in the file since a hand edit (taken out, or its "## T2: Title" heading changed), so agentboard\'s next write of the list puts it back']]);
    expect(found[0].fix).toContain('agentboard task rm cut/T2');
    expect((await ok(b, ['status'])).problems).toContainEqual(expect.objectContaining({ rule: 'tasks.missing.by_hand', file: path }));
    const archive = await cli(b, ['archive', 'cut', '--json']);
    expect(archive.code).not.toBe(0);
    expect(archive.json.error.code).toBe('ARCHIVE_REFUSED');
    expect(archive.json.error.message).toContain('(T2 todo)');
    expect(existsSync(join(b, 'agentd/changes/cut'))).toBe(true);
    expect(existsSync(join(b, 'agentd/archive'))).toBe(false);

    // the next write of the list puts it back, as the commit has it, and records what the file said
    expect((await ok(b, ['next', '--as', 'w2'])).task.task_id).toBe('cut/T2');
    expect(read(b, path)).toMatch(/## T1: One\n[\s\S]*## T2: Two\n\n```yaml\nstatus: in_progress\n/);
    expect(conflicts(b)).toContainEqual(expect.objectContaining({ file: path, item: 'T2', part: 'removed', kept: 'agentboard', person: null }));
    expect((await findings(b, 'cut', 'tasks.missing.by_hand')).found).toEqual([]);
  });

  it('on a fresh clone, a task taken out with the command is not reported', async () => {
    const a = await newBoard();
    await changeWithTasks(a, 'trim', [{ title: 'One' }, { title: 'Two' }]);
    commitBoard(a);
    const b = cloneOf(a);
    await ok(b, ['task', 'rm', 'trim/T2']);
    const v = await cli(b, ['validate', 'trim', '--json']);
    expect(v.json.data.changes[0].findings).toEqual([]);
    expect(v.code).toBe(0);
    expect(read(b, 'agentd/changes/trim/tasks.md')).not.toContain('## T2');
  });

  it('on a fresh clone, a decision the commit holds set back by hand is one too', async () => {
    const a = await newBoard();
    await changeWithTasks(a, 'back', [{ title: 'One' }]);
    await ok(a, ['reject', 'back', 'spec', '--feedback', 'Say what happens on a tie.']);
    commitBoard(a);
    const b = cloneOf(a);
    expect((await cli(b, ['validate', 'back', '--json'])).json.data.changes[0].findings.filter((f: any) => f.level === 'error')).toEqual([]);
    const spec = 'agentd/changes/back/spec.md';
    write(b, spec, read(b, spec).replace(/^status: rejected$/m, 'status: submitted'));
    const { found } = await findings(b, 'back', 'document.status.by_hand');
    expect(found).toEqual([expect.objectContaining({ file: spec, line: lineOf(b, spec, 'status: submitted') })]);
    expect(found[0].message).toContain('has it "rejected"');
    expect((await ok(b, ['show', 'back', 'spec', '--format', 'fields'])).status).toBe('rejected');
  });

  it("switching branch with the board's work not committed keeps it agentboard's own", async () => {
    const dir = await newBoard();
    commitBoard(dir);
    await changeWithTasks(dir, 'moved', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }]);
    await ok(dir, ['next', '--as', 'w1']);
    await ok(dir, ['task', 'done', 'moved/T1', '--as', 'w1']);
    for (const args of [['switch', '-q', '-c', 'feature'], ['checkout', '-q', '--detach']]) {
      git(dir, ...args);
      const v = await cli(dir, ['validate', 'moved', '--json']);
      expect(v.json.data.changes[0].findings.filter((f: any) => f.level === 'error')).toEqual([]);
      expect((await ok(dir, ['task', 'list', '--change', 'moved'])).tasks.map((t: any) => t.status)).toEqual(['done', 'todo']);
    }
    expect((await ok(dir, ['next', '--as', 'w2'])).task.task_id).toBe('moved/T2');
    expect(read(dir, 'agentd/changes/moved/tasks.md')).toMatch(/## T1: One\n\n```yaml\nstatus: done/);
  });

  it("switching branch with the board's work not committed, then a hand edit of it, keeps agentboard's work and merges the edit", async () => {
    const dir = await newBoard();
    requireApproval(dir, 'tasks');
    await changeWithTasks(dir, 'carried', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    await ok(dir, ['approve', 'carried', 'tasks']);
    commitBoard(dir);
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('carried/T1');
    await ok(dir, ['task', 'done', 'carried/T1', '--as', 'w1']);
    git(dir, 'switch', '-q', '-c', 'other');
    const path = 'agentd/changes/carried/tasks.md';
    write(dir, path, read(dir, path).replace('## T3: Three', '## T3: Three, renamed'));

    const v = await cli(dir, ['validate', 'carried', '--json']);
    expect(v.json.data.changes[0].findings.filter((f: any) => f.level === 'error')).toEqual([]);
    expect(v.code).toBe(0);
    const listed = (await ok(dir, ['task', 'list', '--change', 'carried'])).tasks.map((t: any) => [t.id, t.status, t.assignee]);
    expect(listed).toEqual([
      ['T1', 'done', 'w1'],
      ['T2', 'todo', null],
      ['T3', 'todo', null],
    ]);
    // the claim merged the edit: T1 is still w1's and done, T3 has the person's title, nothing is kept as a conflict
    expect((await ok(dir, ['next', '--as', 'w2'])).task.task_id).toBe('carried/T2');
    const after = read(dir, path);
    expect(after).toMatch(/## T1: One\n\n```yaml\nstatus: done\npriority: medium\nassignee: w1\n/);
    expect(after).toContain('## T3: Three, renamed');
    expect(conflicts(dir)).toEqual([]);
    // the ledger is this branch's now, and still holds every document that came with the switch
    const header = JSON.parse(read(dir, 'agentd/.runtime/ledger/carried.json').split('\n')[0]!);
    expect(header.branch).toBe('refs/heads/other');
    expect(Object.keys(header.files).sort()).toEqual(['proposal.md', 'spec.md', 'tasks.md']);

    // committed on this branch, then written again: the ledger is this branch's, and nothing changes
    git(dir, 'commit', '-qam', 'on other');
    expect((await ok(dir, ['next', '--as', 'w3'])).task.task_id).toBe('carried/T3');
    const again = await cli(dir, ['validate', 'carried', '--json']);
    expect(again.json.data.changes[0].findings.filter((f: any) => f.level === 'error')).toEqual([]);
    expect((await ok(dir, ['task', 'list', '--change', 'carried'])).tasks.map((t: any) => [t.id, t.status, t.assignee])).toEqual([
      ['T1', 'done', 'w1'],
      ['T2', 'in_progress', 'w2'],
      ['T3', 'in_progress', 'w3'],
    ]);
    expect(read(dir, path)).toContain('## T3: Three, renamed');
  });

  it('switching to a branch whose commit holds another version of a document, then a hand edit of it, judges it against that commit', async () => {
    const dir = await newBoard();
    requireApproval(dir, 'tasks');
    await changeWithTasks(dir, 'older', [{ title: 'One' }, { title: 'Two' }]);
    commitBoard(dir);
    git(dir, 'branch', 'before');
    await ok(dir, ['approve', 'older', 'tasks']);
    git(dir, 'commit', '-qam', 'approved');
    git(dir, 'switch', '-q', 'before');
    const path = 'agentd/changes/older/tasks.md';
    write(dir, path, read(dir, path).replace('## T2: Two', '## T2: Two, renamed'));

    const v = await cli(dir, ['validate', 'older', '--json']);
    expect(v.json.data.changes[0].findings.filter((f: any) => f.level === 'error')).toEqual([]);
    expect((await ok(dir, ['show', 'older', 'tasks', '--format', 'fields'])).status).toBe('submitted');
    const next = await ok(dir, ['next', '--as', 'w1']);
    expect(next.status).toBe('nothing_available');
    expect(next.reasons.awaiting_approval).toBe(2);
  });
});

describe('a task made done by hand', () => {
  it('starts none of its dependents, is an error naming the command that makes it done, and the next write puts back the state agentboard recorded', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'chain', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }, { title: 'Three', depends: ['T4'] }, { title: 'Four' }]);
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('chain/T1');
    const path = 'agentd/changes/chain/tasks.md';
    // T1, held by w1, and T4, nobody's, typed done; T4 given a holder by hand as well
    const text = read(dir, path);
    write(dir, path, text.replace('status: in_progress', 'status: done').replace(/(## T4: Four\n\n```yaml\n)status: todo\n/, '$1status: done\nassignee: "human:dana"\n'));

    const { code, found } = await findings(dir, 'chain', 'tasks.done.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([
      expect.objectContaining({ level: 'error', file: path, line: lineOf(dir, path, '## T1: One') }),
      expect.objectContaining({ level: 'error', file: path, line: lineOf(dir, path, '## T4: Four') }),
    ]);
    expect(found[0].message).toContain('where agentboard recorded it in_progress (held by w1)');
    expect(found[0].fix).toBe('if it is done, w1, which holds it, marks it done with `agentboard task done chain/T1 --as w1`, or a person marks it done with `agentboard task done chain/T1 --as human:<your name>`; otherwise set its line back to "status: in_progress"');
    expect(found[1].fix).toBe('if it is done, a person marks it done with `agentboard task done chain/T4 --as human:<your name>`; otherwise set its line back to "status: todo"');
    expect((await ok(dir, ['status'])).problems.filter((p: any) => p.rule === 'tasks.done.by_hand')).toHaveLength(2);
    // read with the state agentboard recorded: nothing depending on them is ready
    const shown = (await ok(dir, ['task', 'list', '--change', 'chain'])).tasks.map((t: any) => [t.id, t.status, t.assignee, t.ready]);
    expect(shown).toEqual([
      ['T1', 'in_progress', 'w1', false],
      ['T2', 'todo', null, false],
      ['T3', 'todo', null, false],
      ['T4', 'todo', null, true],
    ]);

    // next hands out T4 (to do, as recorded), and neither dependent
    expect((await ok(dir, ['next', '--as', 'w2'])).task.task_id).toBe('chain/T4');
    const none = await ok(dir, ['next', '--as', 'w3']);
    expect(none.status).toBe('nothing_available');
    expect(none.reasons.waiting_on_dependencies).toBe(2);
    // that write merged the file: agentboard's states are back, the person's recorded
    const after = read(dir, path);
    expect(after).not.toContain('status: done');
    expect(after).not.toContain('human:dana');
    expect(conflicts(dir).filter((c: any) => c.part === 'state').map((c: any) => [c.item, c.kept, c.person.status])).toEqual([
      ['T1', 'agentboard', 'done'],
      ['T4', 'agentboard', 'done'],
    ]);
    expect((await findings(dir, 'chain', 'tasks.done.by_hand')).found).toEqual([]);

    // made done with the command, T1 starts its dependent
    await ok(dir, ['task', 'done', 'chain/T1', '--as', 'w1']);
    expect((await ok(dir, ['next', '--as', 'w3'])).task.task_id).toBe('chain/T2');
  });

  it('pulled with git from another clone, done there with the command, is taken: its dependent starts', async () => {
    const origin = tempDir('agentboard-origin-');
    git(origin, 'init', '-q', '--bare');
    const a = await newBoard();
    await changeWithTasks(a, 'chain', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }]);
    commitBoard(a);
    git(a, 'push', '-q', origin, 'HEAD:refs/heads/main');
    const b = join(tempDir('agentboard-clone-'), 'b');
    git(join(b, '..'), 'clone', '-q', '-b', 'main', origin, b);
    await ok(b, ['task', 'note', 'chain/T2', 'Read the spec first.']); // b's ledger records the list
    git(b, 'commit', '-qam', 'a note');

    await ok(a, ['task', 'done', 'chain/T1', '--as', 'w1']);
    git(a, 'commit', '-qam', 'T1 done');
    git(a, 'push', '-q', origin, 'HEAD:main');
    git(b, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');

    const v = await cli(b, ['validate', 'chain', '--json']);
    expect(v.json.data.changes[0].findings).toEqual([]);
    expect(v.code).toBe(0);
    expect((await ok(b, ['next', '--as', 'w2'])).task.task_id).toBe('chain/T2');
    expect((await ok(b, ['task', 'show', 'chain/T1'])).task).toMatchObject({ status: 'done', assignee: 'w1' });
  });

  it('done and committed, then reopened by a person, is no decision of git\'s when typed done again: its dependent waits', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'again', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }]);
    await ok(dir, ['next', '--as', 'w1']);
    await ok(dir, ['task', 'done', 'again/T1', '--as', 'w1']);
    commitBoard(dir);
    await ok(dir, ['task', 'update', 'again/T1', '--status', 'todo']);
    const path = 'agentd/changes/again/tasks.md';
    // the commit holds T1 done, but agentboard wrote that here and has since recorded it reopened
    write(dir, path, read(dir, path).replace(/(## T1: One\n\n```yaml\n)status: todo\n/, '$1status: done\n'));

    const { code, found } = await findings(dir, 'again', 'tasks.done.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ level: 'error', file: path, line: lineOf(dir, path, '## T1: One') })]);
    expect((await ok(dir, ['task', 'list', '--change', 'again'])).tasks.map((t: any) => [t.id, t.status, t.ready])).toEqual([
      ['T1', 'todo', true],
      ['T2', 'todo', false],
    ]);
    expect((await ok(dir, ['status'])).totals).toMatchObject({ done: 0, ready: 1 });
    expect((await ok(dir, ['next', '--as', 'w2'])).task.task_id).toBe('again/T1');
  });
});

describe('a held task taken from its holder by hand', () => {
  it('is read as agentboard recorded it (held, not ready), is an error naming release, and reads and writes agree', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'taken', [{ title: 'One', priority: 'high' }, { title: 'Two' }, { title: 'Three' }]);
    expect((await ok(dir, ['next', '--as', 'a1'])).task.task_id).toBe('taken/T1');
    expect((await ok(dir, ['next', '--as', 'a2'])).task.task_id).toBe('taken/T2');
    const path = 'agentd/changes/taken/tasks.md';
    // Back to todo for T1, and to another agent for T2.
    write(dir, path, read(dir, path).replace('status: in_progress\npriority: high\nassignee: a1\n', 'status: todo\npriority: high\n').replace('assignee: a2', 'assignee: someone-else'));
    const show = await ok(dir, ['task', 'show', 'taken/T1']);
    expect([show.task.status, show.task.assignee, show.task.ready]).toEqual(['in_progress', 'a1', false]);
    const list = (await ok(dir, ['task', 'list', '--change', 'taken'])).tasks;
    expect(list.map((t: any) => [t.id, t.status, t.assignee])).toEqual([['T1', 'in_progress', 'a1'], ['T2', 'in_progress', 'a2'], ['T3', 'todo', null]]);
    const { code, found } = await findings(dir, 'taken', 'tasks.claim.by_hand');
    expect(code).toBe(1);
    expect(found.map((f: any) => [f.level, f.line])).toEqual([
      ['error', lineOf(dir, path, '## T1: One')],
      ['error', lineOf(dir, path, '## T2: Two')],
    ]);
    expect(found[0].fix).toContain('`agentboard release taken/T1 --as human:<your name>`');
    const status = await ok(dir, ['status']);
    expect(status.agents.map((a: any) => [a.agent_id, a.current_tasks])).toEqual([['a1', ['taken/T1']], ['a2', ['taken/T2']]]);
    // Reads and writes agree: the next claim is T3, and the write keeps the holders.
    expect((await ok(dir, ['next', '--as', 'a3'])).task.task_id).toBe('taken/T3');
    expect((await findings(dir, 'taken', 'tasks.claim.by_hand')).found).toEqual([]);
  });
});

describe('the dependencies of a task changed by hand in an approved task list', () => {
  it('decide nothing: the task waits on those agentboard recorded, an error names the command, and the next write puts them back', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'wired', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }]);
    await ok(dir, ['approve', 'wired', 'tasks']);
    const path = 'agentd/changes/wired/tasks.md';
    // T2's dependency taken out, and its title changed in the same save
    write(dir, path, read(dir, path).replace('depends: [T1]\n', '').replace('## T2: Two', '## T2: Two, renamed'));

    const { code, found } = await findings(dir, 'wired', 'tasks.depends.by_hand');
    expect(code).toBe(1);
    expect(found).toEqual([expect.objectContaining({ level: 'error', file: path, line: lineOf(dir, path, '## T2: Two, renamed') })]);
    expect(found[0].message).toContain('(the file says none, where agentboard recorded T1)');
    expect(found[0].fix).toBe('to take them out, a person runs `agentboard task update wired/T2 --input depends.json --as human:<your name>` with depends.json holding {"depends": []}; otherwise set its line back to "depends: [T1]"');
    expect((await ok(dir, ['status'])).problems).toContainEqual(expect.objectContaining({ rule: 'tasks.depends.by_hand', file: path }));
    expect((await ok(dir, ['task', 'list', '--change', 'wired'])).tasks.map((t: any) => [t.id, t.depends, t.ready])).toEqual([
      ['T1', [], true],
      ['T2', ['T1'], false],
    ]);

    // T2 waits on T1: the second agent gets nothing
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('wired/T1');
    const none = await ok(dir, ['next', '--as', 'w2']);
    expect(none.status).toBe('nothing_available');
    expect(none.reasons.waiting_on_dependencies).toBe(1);
    // that write merged the file: the title is the person's, the dependency agentboard's
    const after = read(dir, path);
    expect(after).toMatch(/## T2: Two, renamed\n\n```yaml\nstatus: todo\npriority: medium\ndepends: \[T1\]\n/);
    expect(conflicts(dir)).toContainEqual(expect.objectContaining({ file: path, item: 'T2', part: 'plan', kept: 'agentboard', agentboard: { depends: ['T1'] }, person: { depends: [] } }));
    expect((await findings(dir, 'wired', 'tasks.depends.by_hand')).found).toEqual([]);

    // a person takes the dependency out with the command: T2 is handed out
    await ok(dir, ['task', 'update', 'wired/T2', '--input', write(dir, 'depends.json', JSON.stringify({ depends: [] })), '--as', 'human:tester']);
    expect((await ok(dir, ['next', '--as', 'w2'])).task.task_id).toBe('wired/T2');
  });

  it('on a fresh clone, decide nothing either: the task waits on those the commit holds', async () => {
    const a = await newBoard();
    await changeWithTasks(a, 'wired', [{ title: 'One' }, { title: 'Two' }, { title: 'Three', depends: ['T1', 'T2'] }]);
    await ok(a, ['approve', 'wired', 'tasks']);
    commitBoard(a);
    const b = cloneOf(a);
    const path = 'agentd/changes/wired/tasks.md';
    write(b, path, read(b, path).replace('depends: [T1, T2]', 'depends: [T2]'));

    const { found } = await findings(b, 'wired', 'tasks.depends.by_hand');
    expect(found).toEqual([expect.objectContaining({ level: 'error', file: path, line: lineOf(b, path, '## T3: Three') })]);
    expect(found[0].message).toContain('(the file says T2, where the commit checked out has T1, T2)');
    expect(found[0].fix).toBe('to change them, a person runs `agentboard task update wired/T3 --depends T2 --as human:<your name>`; otherwise set its line back to "depends: [T1, T2]"');
    expect((await ok(b, ['next', '--as', 'w1'])).task.task_id).toBe('wired/T1');
    expect((await ok(b, ['next', '--as', 'w2'])).task.task_id).toBe('wired/T2');
    await ok(b, ['task', 'done', 'wired/T2', '--as', 'w2']);
    // T2 done, T1 not: T3 still waits
    expect((await ok(b, ['next', '--as', 'w3'])).status).toBe('nothing_available');
    expect((await ok(b, ['task', 'show', 'wired/T3'])).task).toMatchObject({ depends: ['T1', 'T2'], ready: false });
    expect(read(b, path)).toContain('depends: [T1, T2]');
    expect(conflicts(b)).toContainEqual(expect.objectContaining({ file: path, item: 'T3', part: 'plan', kept: 'agentboard', agentboard: { depends: ['T1', 'T2'] }, person: { depends: ['T2'] } }));
  });
});

describe('a command run after a hand edit that typed its result', () => {
  it('keeps no conflict: the file says what the person typed, and who decided it is recorded', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'typed', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }]);
    const path = 'agentd/changes/typed/tasks.md';
    // the list typed approved by hand, then approved with the command
    write(dir, path, read(dir, path).replace(/^status: submitted$/m, 'status: approved'));
    await ok(dir, ['approve', 'typed', 'tasks']);
    expect(read(dir, path)).toMatch(/^decided_by: "human:tester"$/m);
    expect(conflicts(dir)).toEqual([]);

    // a task typed done by hand, then made done by its holder with the command
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('typed/T1');
    write(dir, path, read(dir, path).replace('status: in_progress', 'status: done'));
    await ok(dir, ['task', 'done', 'typed/T1', '--as', 'w1']);
    expect((await ok(dir, ['task', 'show', 'typed/T1'])).task).toMatchObject({ status: 'done', assignee: 'w1' });
    expect(conflicts(dir)).toEqual([]);
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toEqual([]);
    expect((await ok(dir, ['next', '--as', 'w2'])).task.task_id).toBe('typed/T2');
  });

  it('keeps the conflict when the command did something else', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'other', [{ title: 'One' }, { title: 'Two' }]);
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('other/T1');
    const path = 'agentd/changes/other/tasks.md';
    write(dir, path, read(dir, path).replace('status: in_progress', 'status: done'));
    await ok(dir, ['task', 'progress', 'other/T1', '--as', 'w1', '--percent', '50', '--message', 'Half way.']);
    expect(conflicts(dir)).toEqual([expect.objectContaining({ file: path, item: 'T1', part: 'state', kept: 'agentboard', person: expect.objectContaining({ status: 'done' }) })]);
  });
});
