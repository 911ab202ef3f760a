/**
 * Board files as people's editors, tools and copies leave them: each is read as meant, or refused
 * with its file and line, and a write touches only the file it is about.
 */
import { execSync } from 'node:child_process';
import { chmodSync, cpSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, FIXTURES, newBoard, ok, read, tempDir, write } from '../helpers.js';

describe('a change folder copied by hand, its frontmatter still naming the original change', () => {
  it('has its task writes land in its own tasks.md, never in the original change\'s', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'original', [{ title: 'One' }, { title: 'Two' }]);
    cpSync(join(dir, 'agentd/changes/original'), join(dir, 'agentd/changes/the-copy'), { recursive: true });
    const original = read(dir, 'agentd/changes/original/tasks.md');
    await ok(dir, ['next', '--change', 'the-copy', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'the-copy/T1', '--as', 'codex']);
    await ok(dir, ['task', 'note', 'the-copy/T2', 'Copied on purpose.', '--as', 'human:tester']);
    expect(read(dir, 'agentd/changes/original/tasks.md')).toBe(original);
    const copy = read(dir, 'agentd/changes/the-copy/tasks.md');
    expect(copy).toContain('status: done');
    expect(copy).toContain('Copied on purpose.');
    // the frontmatter is the person's to mend: validate names it
    const validate = await cli(dir, ['validate', 'the-copy']);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('agentd/changes/the-copy/tasks.md:2: error frontmatter.change_id');
  });

  it('has its tasks wait on its own proposal and spec, not on the original change\'s', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'original', [{ title: 'One' }]);
    cpSync(join(dir, 'agentd/changes/original'), join(dir, 'agentd/changes/the-copy'), { recursive: true });
    rmSync(join(dir, 'agentd/changes/the-copy/spec.md'));
    const listed = await ok(dir, ['task', 'list', '--change', 'the-copy']);
    expect(listed.tasks.map((t: { task_id: string; ready: boolean }) => [t.task_id, t.ready])).toEqual([['the-copy/T1', false]]);
    const next = await cli(dir, ['next', '--change', 'the-copy', '--as', 'codex', '--json']);
    expect(JSON.parse(next.stdout).data.task).toBeNull();
    const progress = await cli(dir, ['task', 'progress', 'the-copy/T1', '--percent', '10', '--message', 'Started.', '--as', 'codex', '--json']);
    expect(progress.code).toBe(1);
    expect(JSON.parse(progress.stdout).error.message).toContain('spec');
    expect(read(dir, 'agentd/changes/the-copy/tasks.md')).not.toContain('assignee: codex');
  });
});

describe('a frontmatter\'s --- lines as other tools and editors write them', () => {
  it('is read when closed by YAML\'s ... or with spaces after a ---, and a task write keeps the rest of the file', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'fences', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/fences/tasks.md';
    const written = read(dir, path);
    const close = written.indexOf('\n---\n', 4);
    write(dir, path, `--- \t\n${written.slice(4, close)}\n...\n${written.slice(close + 5)}`);
    expect((await cli(dir, ['validate', 'fences'])).code).toBe(0);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'fences/T1', '--as', 'codex']);
    const text = read(dir, path);
    expect(text.startsWith('---\nid: fences/tasks\n')).toBe(true);
    expect(text.split('\n---\n')).toHaveLength(2);
    expect(text).toContain('## T2: Two');
    expect((await ok(dir, ['task', 'show', 'fences/T1'])).task.status).toBe('done');
  });

  it('is refused when never closed, saying so at line 1, and nothing is written', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'unclosed', [{ title: 'One' }]);
    const path = 'agentd/changes/unclosed/tasks.md';
    const cut = read(dir, path).split('\n').slice(0, 6).join('\n');
    write(dir, path, cut);
    const validate = await cli(dir, ['validate', 'unclosed']);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(`${path}:1: error frontmatter.missing: the frontmatter this --- line opens is never closed`);
    const done = await cli(dir, ['task', 'done', 'unclosed/T1', '--as', 'human:tester']);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain(`${path}:1: the frontmatter this --- line opens is never closed`);
    expect(read(dir, path)).toBe(cut);
  });
});

describe('a document whose permissions a person set', () => {
  it('keeps them through agentboard\'s writes, which replace the file by a new one', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'modes', [{ title: 'One' }]);
    const tasks = join(dir, 'agentd/changes/modes/tasks.md');
    const proposal = join(dir, 'agentd/changes/modes/proposal.md');
    chmodSync(tasks, 0o600);
    chmodSync(proposal, 0o444);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'modes/T1', '--as', 'codex']);
    await ok(dir, ['approve', 'modes', 'proposal']);
    expect(read(dir, 'agentd/changes/modes/tasks.md')).toContain('status: done');
    expect(read(dir, 'agentd/changes/modes/proposal.md')).toContain('status: approved');
    expect(statSync(tasks).mode & 0o777).toBe(0o600);
    expect(statSync(proposal).mode & 0o777).toBe(0o444);
  });
});

/** The documents an import wrote, by path, without the times of the import. */
function importedDocs(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(join(dir, 'agentd'), { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.md')) out[file] = readFileSync(join(dir, 'agentd', file), 'utf8').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME');
  }
  return out;
}

function importSource(transform: (text: string) => string): string {
  const dir = tempDir('agentboard-import-');
  cpSync(join(FIXTURES, 'import', 'openspec'), dir, { recursive: true });
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.md')) writeFileSync(join(dir, file), transform(readFileSync(join(dir, file), 'utf8')));
  }
  return dir;
}

/** A person at a terminal: the import runs where no board (and so no person's key) exists yet. */
const PERSON = { interactive: true, env: { AGENTBOARD_PERSON_KEY: '' } };

describe('an OpenSpec board saved by Windows editors', () => {
  it('with a byte order mark on every file is imported as the same board as without, and no mark lands on the board', async () => {
    const plain = importSource((t) => t);
    const marked = importSource((t) => `\uFEFF${t}`);
    await ok(plain, ['import', 'openspec'], PERSON);
    await ok(marked, ['import', 'openspec'], PERSON);
    const docs = importedDocs(marked);
    expect(Object.values(docs).filter((t) => t.includes('\uFEFF'))).toEqual([]);
    expect(docs).toEqual(importedDocs(plain));
  });
});

describe('an OpenSpec board with a merge left unresolved in a task list', () => {
  it('is imported without that file as a document: an error names its lines, and no marker lands on the board', async () => {
    const source = importSource((t) => t);
    const path = 'openspec/changes/add-bookmark-import/tasks.md';
    const lines = readFileSync(join(source, path), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('- [ ] 2.2'));
    lines.splice(at, 1, '<<<<<<< HEAD', lines[at]!, '=======', '- [x] 2.2 Add the migration', '>>>>>>> other');
    writeFileSync(join(source, path), lines.join('\n'));
    const run = await cli(source, ['import', 'openspec', '--json'], PERSON);
    expect(run.code).toBe(1);
    const file = run.json.data.files.find((f: any) => f.file === path);
    expect(file.findings).toEqual([expect.objectContaining({ level: 'error', line: at + 1, message: expect.stringContaining(`unresolved git merge conflict (the markers <<<<<<<, ======= and >>>>>>> on lines ${at + 1}–${at + 5})`) })]);
    // the file itself is kept as it is, among the change's attachments
    expect(Object.entries(importedDocs(source)).filter(([, t]) => t.includes('<<<<<<<')).map(([f]) => f)).toEqual(['changes/add-bookmark-import/attachments/tasks.md']);
    expect((await cli(source, ['validate', '--all'])).code).toBe(0);
  });
});

describe('ids and numbers in YAML as a person types them', () => {
  it('reads ids YAML would take for numbers (001, 1.10) as written: the right task waits, validate is clean, a write keeps them', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, '007', [{ id: '001', title: 'One' }, { id: '002', title: 'Two', depends: ['001'] }, { id: '1.1', title: 'Eleven' }, { id: '1.10', title: 'Ten', depends: ['1.1'] }]);
    const path = 'agentd/changes/007/tasks.md';
    // Typed without the quotes agentboard writes, here and in the frontmatter.
    const typed = read(dir, path).replace('change_id: "007"', 'change_id: 007').replace('depends: ["001"]', 'depends: [001]').replace('depends: ["1.1"]', 'depends: [1.1]\nid: 1.10');
    expect(typed).toContain('change_id: 007\n');
    expect(typed).toContain('depends: [001]\n');
    write(dir, path, typed);
    const validate = await cli(dir, ['validate', '007', '--json']);
    expect(validate.json.data.changes[0].findings.filter((f: { level: string }) => f.level === 'error')).toEqual([]);
    const listed = (await ok(dir, ['task', 'list', '--change', '007'])).tasks.map((t: { id: string; depends: string[]; ready: boolean }) => [t.id, t.depends, t.ready]);
    expect(listed).toEqual([['001', [], true], ['002', ['001'], false], ['1.1', [], true], ['1.10', ['1.1'], false]]);
    await ok(dir, ['task', 'note', '007/1.10', 'Noted.', '--as', 'human:tester']);
    const text = read(dir, path);
    expect(text).toContain('depends: [001]\n');
    // The note is the one field written: the ids stay as the person typed them, and read as typed.
    expect(text).toMatch(/## 1\.10: Ten\n\n```yaml\nstatus: todo\npriority: medium\ndepends: \[1\.1\]\nnotes:\n[^`]*\nid: 1\.10\n```/);
    expect((await ok(dir, ['task', 'list', '--change', '007'])).tasks.map((t: { depends: string[] }) => t.depends)).toEqual([[], ['001'], [], ['1.1']]);
  });

  it('reads a whole number written with leading zeros as that number, and writes back a field a person added with a fraction', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'numbers', [{ title: 'One' }]);
    const path = 'agentd/changes/numbers/tasks.md';
    await ok(dir, ['next', '--as', 'codex']);
    write(dir, path, read(dir, path).replace('revision: 1\n', 'revision: 01\nversion: 2.5\n').replace('status: in_progress\n', 'status: in_progress\nestimate: 1.5\n'));
    write(dir, 'agentd/config.yaml', 'stale_claim_minutes: 0120\n');
    expect((await cli(dir, ['validate', 'numbers'])).code).toBe(0);
    await ok(dir, ['task', 'progress', 'numbers/T1', '--percent', '40', '--message', 'Half way.', '--as', 'codex']);
    const text = read(dir, path);
    expect(text).toContain('version: 2.5\n');
    expect(text).toContain('estimate: 1.5\n');
    expect(text).toContain('progress: 40\n');
  });
});

describe('a document file named but for the case of its letters (Tasks.md, Proposal.md)', () => {
  it('is named by validate and status with the rename to make, and no write makes the document beside it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'cased', [{ title: 'One' }, { title: 'Two' }]);
    const folder = 'agentd/changes/cased';
    renameSync(join(dir, folder, 'tasks.md'), join(dir, folder, 'Tasks.md'));
    const held = read(dir, `${folder}/Tasks.md`);
    const validate = await cli(dir, ['validate', 'cased', '--json']);
    expect(validate.code).toBe(1);
    expect(validate.json.data.changes[0].findings).toEqual([
      expect.objectContaining({ level: 'error', file: `${folder}/Tasks.md`, rule: 'file.name_case', fix: `Rename it: \`git mv ${folder}/Tasks.md ${folder}/tasks.md\` (or \`mv\` when it is not in git).` }),
    ]);
    expect((await ok(dir, ['status'])).problems).toContainEqual(expect.objectContaining({ file: `${folder}/Tasks.md` }));
    // Writing the task list anew would hide what Tasks.md holds: refused, nothing written.
    for (const args of [['tasks', 'cased', '--as', 'planner', '--input', write(dir, 'again.json', JSON.stringify({ tasks: [{ title: 'Other' }], notes: 'No additional notes.' }))], ['task', 'add', 'cased', '--title', 'Three', '--as', 'planner']]) {
      const r = await cli(dir, [...args, '--json']);
      expect(r.code).toBe(1);
      expect(r.json.error.code).toMatch(/PARSE_ERROR|DOCUMENT_NOT_FOUND|PHASE_NOT_READY/);
    }
    expect(readdirSync(join(dir, folder)).sort()).toEqual(['Tasks.md', 'proposal.md', 'spec.md']);
    expect(read(dir, `${folder}/Tasks.md`)).toBe(held);
    const refused = await cli(dir, ['tasks', 'cased', '--as', 'human:tester', '--input', join(dir, 'again.json'), '--json']);
    expect(refused.json.error).toEqual({
      code: 'PARSE_ERROR',
      message: `${folder}/Tasks.md is named as the task list but for its case, and agentboard reads tasks.md only: it did not write tasks.md beside it, which would hide what Tasks.md holds. Nothing was changed.`,
      next_step: expect.stringMatching(new RegExp(`^Rename it with \`git mv ${folder}/Tasks.md ${folder}/tasks.md\` \\(or \`mv\` when it is not in git\\), then try \`agentboard tasks cased `)),
    });
    // Renamed as told, the list is read as it was: nothing was lost.
    renameSync(join(dir, folder, 'Tasks.md'), join(dir, folder, 'tasks.md'));
    expect((await cli(dir, ['validate', 'cased'])).code).toBe(0);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('cased/T1');
  });

  it('beside the document itself is named as one to merge into it and remove; a proposal another tool named so is not overwritten', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'both', [{ title: 'One' }]);
    const folder = 'agentd/changes/both';
    writeFileSync(join(dir, folder, 'SPEC.md'), '# Notes of another tool\n');
    const validate = await cli(dir, ['validate', 'both', '--json']);
    expect(validate.json.data.changes[0].findings).toEqual([expect.objectContaining({ file: `${folder}/SPEC.md`, rule: 'file.name_case', fix: `Move what SPEC.md holds that spec.md lacks into ${folder}/spec.md by hand, then remove it: \`git rm ${folder}/SPEC.md\` (or \`rm\` when it is not in git).` })]);
    // A write of the spec itself goes on: spec.md is there, and SPEC.md is left as it is.
    await ok(dir, ['next', '--as', 'codex']);
    expect(read(dir, `${folder}/SPEC.md`)).toBe('# Notes of another tool\n');
    // A change folder another tool made, with Proposal.md: propose does not write proposal.md beside it.
    mkdirSync(join(dir, 'agentd/changes/made-elsewhere'));
    writeFileSync(join(dir, 'agentd/changes/made-elsewhere/Proposal.md'), '# Made elsewhere\n');
    const propose = await cli(dir, ['propose', 'made-elsewhere', '--as', 'planner', '--why', 'Agents and people need one place to see who works on what, so that no work is done twice.', '--what-changes', 'Add.', '--impact', 'None.', '--notes', 'No additional notes.', '--json']);
    expect(propose.json.error?.code).toBe('PARSE_ERROR');
    expect(readdirSync(join(dir, 'agentd/changes/made-elsewhere'))).toEqual(['Proposal.md']);
  });
});

describe('YAML a person writes by hand, beyond the shapes agentboard writes', () => {
  it('keeps keys with spaces, nested maps, anchors and a merge key through writes, and work is handed out', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'rich', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/rich/tasks.md';
    const added = 'base: &b\n  owner: team\n<<: *b\nReviewed by: ana\nlinks:\n  docs:\n    main: x\n';
    write(dir, path, read(dir, path).replace('revision: 1\n', `revision: 1\n${added}`).replace('## T2: Two\n\n```yaml\nstatus: todo\n', '## T2: Two\n\n```yaml\nstatus: todo\nextra info:\n  deep:\n    level: 2\n'));
    expect((await cli(dir, ['validate', 'rich'])).code).toBe(0);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('rich/T1');
    await ok(dir, ['task', 'note', 'rich/T2', 'Noted.', '--as', 'human:tester']);
    // The frontmatter rewritten by agentboard (a decision on the list) writes those keys back as YAML that reads the same.
    await ok(dir, ['approve', 'rich', 'tasks', '--as', 'human:tester']);
    const text = read(dir, path);
    expect(text).toContain('status: approved\n');
    expect(text).toMatch(/Reviewed by: ana\n/);
    expect(text).toMatch(/<<:\n {2}owner: team\n/);
    expect(text).toMatch(/links:\n {2}docs:\n {4}main: x\n/);
    expect(text).toMatch(/## T2: Two\n\n```yaml\nstatus: todo\nextra info:\n {2}deep:\n {4}level: 2\npriority: medium\nnotes:\n[^`]*Noted\.\n```/);
    expect((await cli(dir, ['validate', 'rich'])).code).toBe(0);
    expect((await ok(dir, ['status'])).hand_edited).toEqual([]);
  });

  it("keeps a task's fields as a person wrote them (order, quotes, block lists, flow maps, comments) when a claim and a done write other fields of it", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'styled', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/styled/tasks.md';
    const mine = "# owner: Bo\npriority: 'high'   # urgent\nstatus: \"todo\"\nskills:\n  - ts   # main\n  - sql\nestimate: 3\nlabels: {area: db, size: S}\n";
    write(dir, path, read(dir, path).replace('## T1: One\n\n```yaml\nstatus: todo\npriority: medium\n', `## T1: One\n\n\`\`\`yaml\n${mine}`));
    const two = read(dir, path).slice(read(dir, path).indexOf('## T2: Two'));
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('styled/T1');
    await ok(dir, ['task', 'done', 'styled/T1', '--as', 'codex']);
    const text = read(dir, path);
    const stamp = String.raw`\d{4}-\d\d-\d\dT[\d:.]+Z`;
    const expected = [
      '## T1: One\n\n```yaml\n# owner: Bo\npriority: \'high\'   # urgent\nstatus: done\nskills:\n  - ts   # main\n  - sql\n',
      `assignee: codex\nclaimed_at: ${stamp}\nprogress: 100\nprogress_at: ${stamp}\ncompleted_at: ${stamp}\n`,
      'estimate: 3\nlabels: {area: db, size: S}\n```\n',
    ];
    expect(text).toMatch(new RegExp(expected.map((part, i) => (i === 1 ? part : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')));
    expect(text.endsWith(two)).toBe(true);
    const shown = (await ok(dir, ['task', 'show', 'styled/T1'])).task;
    expect([shown.status, shown.priority, shown.skills]).toEqual(['done', 'high', ['ts', 'sql']]);
    expect((await cli(dir, ['validate', 'styled'])).code).toBe(0);
  });

  it("keeps a document's frontmatter as a person wrote it (order, quotes, comments) when an approval writes its status", async () => {
    const dir = await newBoard();
    await ok(dir, ['propose', 'styled', '--as', 'planner', '--why', 'Agents and people need one place to see who works on what, so that no work is done twice.', '--what-changes', 'Add.', '--impact', 'None.', '--notes', 'No additional notes.']);
    const path = 'agentd/changes/styled/proposal.md';
    const written = read(dir, path);
    const head = written.slice(0, written.indexOf('created:'));
    const mine = "---\n# the styled change\ntype: proposal\nid: 'styled/proposal'\nchange_id: styled\nstatus: submitted   # waiting on a person\n";
    write(dir, path, written.replace(head, mine));
    await ok(dir, ['approve', 'styled', 'proposal', '--as', 'human:tester']);
    const text = read(dir, path);
    expect(text.startsWith("---\n# the styled change\ntype: proposal\nid: 'styled/proposal'\nchange_id: styled\nstatus: approved   # waiting on a person\ncreated:")).toBe(true);
    expect(text).toMatch(/\nrevision: 1\ndecided_by: "human:tester"\ndecided_at: \S+\nnotes:\n/);
    expect(text.slice(text.indexOf('\n---\n'))).toBe(written.slice(written.indexOf('\n---\n')));
    expect((await ok(dir, ['show', 'styled'])).documents.proposal).toBe('approved');
    expect((await cli(dir, ['validate', 'styled'])).code).toBe(0);
  });

  it('says which key a duplicate line gives again, and that a tab indents a line', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'typos', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/typos/tasks.md';
    write(dir, path, read(dir, path).replace('revision: 1\n', 'revision: 1\nauthor: someone\n').replace('## T2: Two\n\n```yaml\nstatus: todo\n', '## T2: Two\n\n```yaml\nstatus: todo\nskills:\n\t- go\n'));
    const lines = read(dir, path).split('\n');
    const findings = (await cli(dir, ['validate', 'typos', '--json'])).json.data.changes[0].findings;
    expect(findings.map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([[lines.indexOf('author: someone') + 1, 'frontmatter is not valid YAML: the key "author" is given a second time here; keep one of its lines']]);
    write(dir, path, read(dir, path).replace('author: someone\n', ''));
    const tab = (await cli(dir, ['validate', 'typos', '--json'])).json.data.changes[0].findings;
    expect(tab.map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([[lines.indexOf('\t- go'), 'task T2: a tab indents this line, and YAML indents with spaces only']]);
  });
});

describe('a document file as other tools leave it', () => {
  it('emptied: says so and to restore it, never to write it anew', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'emptied', [{ title: 'One' }]);
    const path = 'agentd/changes/emptied/tasks.md';
    write(dir, path, '');
    const findings = (await cli(dir, ['validate', 'emptied', '--json'])).json.data.changes[0].findings;
    expect(findings).toEqual([expect.objectContaining({ line: 1, message: 'the file is empty', fix: `restore it from git (git checkout -- ${path}) or from your editor's history; writing the document anew would replace what it held` })]);
    expect((await cli(dir, ['task', 'note', 'emptied/T1', 'A note.', '--as', 'human:tester'])).code).toBe(1);
    expect(read(dir, path)).toBe('');
  });

  it('a task list with its frontmatter and no tasks: the change waits for the file, never for a review of work it does not list', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bare', [{ title: 'One' }]);
    const path = 'agentd/changes/bare/tasks.md';
    const text = read(dir, path);
    write(dir, path, text.slice(0, text.indexOf('\n---\n', 4) + 5));
    const validate = await cli(dir, ['validate', 'bare']);
    expect(validate.stdout).toContain('error tasks.missing: the task list has no tasks');
    const change = (await ok(dir, ['list'])).changes.find((c: { change_id: string }) => c.change_id === 'bare');
    expect([change.phase, change.waiting_on]).toEqual(['implementation', 'its task list file to be fixed: it has no tasks']);
  });

  it('saved as UTF-16 (Windows PowerShell\'s >): says so and how to save it as UTF-8, and nothing is written', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'wide', [{ title: 'One' }]);
    const path = 'agentd/changes/wide/tasks.md';
    const wide = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(read(dir, path), 'utf16le')]);
    writeFileSync(join(dir, path), wide);
    const r = await cli(dir, ['task', 'note', 'wide/T1', 'A note.', '--as', 'human:tester', '--json']);
    expect(r.json.error).toMatchObject({ code: 'PARSE_ERROR', message: `${path} is UTF-16 text (as Windows PowerShell's > and Out-File write it); agentboard reads UTF-8 only, so it did not read it.` });
    expect(readFileSync(join(dir, path)).equals(wide)).toBe(true);
  });

  it('with a second hard link (a backup tool, cp -al): refused with a way to give it its own file that keeps what it holds', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'linked', [{ title: 'One' }]);
    const path = 'agentd/changes/linked/tasks.md';
    linkSync(join(dir, path), join(dir, 'tasks-backup.md'));
    const r = await cli(dir, ['task', 'note', 'linked/T1', 'A note.', '--as', 'human:tester', '--json']);
    expect(r.json.error.code).toBe('UNSAFE_PATH');
    const step: string = r.json.error.next_step;
    expect(step).toContain(`\`cp ${path} ${path}.own && mv ${path}.own ${path}\``);
    execSync(/`(cp [^`]*)`/.exec(step)![1]!, { cwd: dir });
    await ok(dir, ['task', 'note', 'linked/T1', 'A note.', '--as', 'human:tester']);
    expect((await ok(dir, ['task', 'show', 'linked/T1'])).task.notes).toHaveLength(1);
    expect(read(dir, 'tasks-backup.md')).not.toContain('A note.');
  });
});

describe("the board's own files named but for their case, or .yml for .yaml", () => {
  it('are refused with the rename to make, not silently left out (the settings and people they hold would not apply)', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'named', [{ title: 'One' }]);
    write(dir, 'agentd/config.yaml', 'require_approval: [tasks]\n');
    renameSync(join(dir, 'agentd/config.yaml'), join(dir, 'agentd/config.yml'));
    const next = await cli(dir, ['next', '--as', 'codex', '--json']);
    expect(next.json.error).toMatchObject({ code: 'CONFIG_INVALID', message: 'agentd/config.yml is not read: agentboard reads its settings from agentd/config.yaml only, by that exact name, so nothing config.yml says applies.' });
    expect((await cli(dir, ['status', '--json'])).json.error.next_step).toBe('Rename it: `git mv agentd/config.yml agentd/config.yaml` (or `mv` when it is not in git).');
    renameSync(join(dir, 'agentd/config.yml'), join(dir, 'agentd/config.yaml'));
    renameSync(join(dir, 'agentd/people.yaml'), join(dir, 'agentd/People.yaml'));
    const approve = await cli(dir, ['approve', 'named', 'tasks', '--as', 'human:tester', '--json']);
    expect(approve.json.error).toMatchObject({ code: 'CONFIG_INVALID', next_step: 'Rename it: `git mv agentd/People.yaml agentd/people.yaml` (or `mv` when it is not in git).' });
    renameSync(join(dir, 'agentd/People.yaml'), join(dir, 'agentd/people.yaml'));
    await ok(dir, ['approve', 'named', 'tasks', '--as', 'human:tester']);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('named/T1');
  });

  it('make init refuse with the rename to make, instead of making config.yaml beside them, and nothing is written', async () => {
    for (const name of ['Config.yaml', 'config.yml']) {
      const dir = tempDir();
      mkdirSync(join(dir, 'agentd'));
      write(dir, `agentd/${name}`, 'require_approval: [tasks]\n');
      const r = await cli(dir, ['init', '--json']);
      expect(r.code).toBe(1);
      expect(r.json.error).toEqual({
        code: 'CONFIG_INVALID',
        message: `agentd/${name} is not read: agentboard reads its settings from agentd/config.yaml only, by that exact name, so nothing ${name} says applies.`,
        next_step: `Rename it: \`git mv agentd/${name} agentd/config.yaml\` (or \`mv\` when it is not in git).`,
      });
      expect(readdirSync(dir)).toEqual(['agentd']);
      expect(readdirSync(join(dir, 'agentd'))).toEqual([name]);
      renameSync(join(dir, 'agentd', name), join(dir, 'agentd/config.yaml'));
      expect((await ok(dir, ['init'])).created).toEqual(['agentd/changes/', 'agentd/.gitignore']);
      expect(read(dir, 'agentd/config.yaml')).toBe('require_approval: [tasks]\n');
    }
  });
});

describe('people.yaml with what people wrote in it', () => {
  it('keeps its comments and fields through `person key`, which replaces a key in place and adds a person last', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'keys', [{ title: 'One' }]);
    const written = read(dir, 'agentd/people.yaml');
    const entry = written.slice(written.indexOf('  - name:'));
    const dana = entry.replace('human:tester', 'human:dana').replace(/key_sha256: \w+/, `key_sha256: ${'d'.repeat(64)}`);
    write(dir, 'agentd/people.yaml', `# Ask Dana before adding someone.\npeople:\n  # the lead\n${dana.replace(/\n$/, '')} # since day one\n    email: dana@example.com\n${entry}`);
    const asPerson = { env: { AGENTBOARD_PERSON_KEY: '' }, interactive: true };
    await ok(dir, ['person', 'key', '--as', 'human:dana'], asPerson);
    const bob = await ok(dir, ['person', 'key', '--as', 'human:bob'], asPerson);
    const text = read(dir, 'agentd/people.yaml');
    expect(text.startsWith('# Ask Dana before adding someone.\npeople:\n  # the lead\n  - name: human:dana\n')).toBe(true);
    expect(text).toMatch(/added: [^\n]* # since day one\n {4}email: dana@example.com\n {2}- name: human:tester\n[\s\S]*- name: human:bob\n/);
    expect(text).not.toContain('d'.repeat(64));
    // The key made works.
    await ok(dir, ['approve', 'keys', 'tasks'], { env: { AGENTBOARD_PERSON_KEY: bob.person_key } });
  });
});

describe('a task list whose frontmatter does not parse, given a task to add', () => {
  it('is refused naming the file, the line, the problem and the fix, in text and --json, and nothing is written', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'broken', [{ title: 'One' }]);
    const path = 'agentd/changes/broken/tasks.md';
    const broken = read(dir, path).replace('status: submitted', 'status: [submitted');
    write(dir, path, broken);
    const json = await cli(dir, ['task', 'add', 'broken', '--title', 'Two', '--as', 'human:tester', '--json']);
    expect(json.code).toBe(1);
    expect(json.json.error.code).toBe('PARSE_ERROR');
    expect(json.json.error.message).toMatch(new RegExp(`^${path}:6: frontmatter is not valid YAML: `));
    expect(json.json.error.next_step).toBe(`Finish or fix the edit of ${path} (fix the YAML between the two --- lines), then try \`agentboard task add broken --title Two --as human:tester\` again.`);
    const text = await cli(dir, ['task', 'add', 'broken', '--title', 'Two', '--as', 'human:tester']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`error: ${path}:6: frontmatter is not valid YAML: `);
    expect(text.stderr).toContain(`next: Finish or fix the edit of ${path} (fix the YAML between the two --- lines)`);
    expect(read(dir, path)).toBe(broken);
  });
});

describe('a task heading a person wrote at level 3, or underlined (markdown\'s setext heading)', () => {
  it('is named at its line with the heading to write, and the next write puts the task back once, out of the description above it', async () => {
    const description = 'Set it up:\n\n### Step1: Configure\n\n```yaml\nkey: value\n```';
    for (const [edit, line, message, fix, taskId] of [
      [(t: string) => t.replace('## T2: Two\n', '### T2: Two\n'), '### T2: Two', '"### T2: Two" reads as a task, but a task heading has two #: as it is, it is part of the description of task T1', 'write it "## T2: Two"', 'T2'],
      [(t: string) => t.replace('## T2: Two\n', 'T2: Two\n-------\n'), 'T2: Two', '"T2: Two", underlined, reads as a task, but agentboard reads only task headings that start with ##: as it is, it is part of the description of task T1', 'write it "## T2: Two" and take out the line under it', 'T2'],
      [(t: string) => t.replace('## T1: One\n', 'T1: One\n=======\n'), 'T1: One', '"T1: One", underlined, reads as a task, but agentboard reads only task headings that start with ##: as it is, it is part of the list\'s intro', 'write it "## T1: One" and take out the line under it', 'T1'],
    ] as const) {
      const dir = await newBoard();
      await changeWithTasks(dir, 'levels', [{ title: 'One', description }, { title: 'Two' }, { title: 'Three' }]);
      const path = 'agentd/changes/levels/tasks.md';
      expect((await cli(dir, ['validate', 'levels', '--json'])).json.data.changes[0].findings).toEqual([]); // a heading in a description over YAML that is no task's
      const written = read(dir, path);
      write(dir, path, edit(written));
      const validate = await cli(dir, ['validate', 'levels', '--json']);
      expect(validate.code).toBe(0);
      const found = validate.json.data.changes[0].findings.filter((f: { rule: string }) => f.rule === 'tasks.heading.level');
      expect(found).toEqual([{ level: 'warning', file: path, line: edit(written).split('\n').indexOf(line) + 1, rule: 'tasks.heading.level', message, fix }]);
      expect((await ok(dir, ['next', '--as', 'codex'])).task).toMatchObject({ id: 'T1', description });
      const after = read(dir, path);
      expect(after.match(new RegExp(`${taskId}: `, 'g'))).toHaveLength(1);
      expect(after).toContain(`\n## ${taskId}: `);
      expect(after.slice(after.indexOf('\n---\n', 4) + 5)).not.toMatch(/^(?:-+|=+)$/m);
      expect((await ok(dir, ['task', 'show', 'levels/T1'])).task.description).toBe(description);
      // What is left is the record of the task kept, as for any task a hand edit took out.
      const left = (await cli(dir, ['validate', 'levels', '--json'])).json.data.changes[0].findings;
      expect(left.map((f: { rule: string; message: string }) => [f.rule, f.message])).toEqual([['merge.conflict', `${taskId} is missing from the person's file but was kept (remove a task with \`agentboard task rm\`)`]]);
    }
  });
});

describe('a task id or status holding a character that reads like another, or shows nothing', () => {
  it('is named in the error, invisible ones by their code point, so the person sees what to take out', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'chars', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const path = 'agentd/changes/chars/tasks.md';
    const text = read(dir, path).replace('## T1: One', '## T\u200b1: One').replace('## T2: Two', '## Tö: Two').replace('## T3: Three\n\n```yaml\nstatus: todo', '## T3: Three\n\n```yaml\nstatus: todo\u200b');
    write(dir, path, text);
    const errors = (await cli(dir, ['validate', 'chars', '--json'])).json.data.changes[0].findings.filter((f: { level: string }) => f.level === 'error');
    const ids = 'and a task id holds only the letters a to z and A to Z, digits, ".", "_" and "-"';
    expect(errors.map((f: { message: string }) => f.message)).toEqual([
      `"## T\u200b1: One" is not a task heading: its id "T\u200b1" holds U+200B, an invisible zero-width space, ${ids}`,
      `"## Tö: Two" is not a task heading: its id "Tö" holds "ö" (U+00F6), ${ids}`,
      'task T3: unknown status "todo\u200b" (it holds U+200B, an invisible zero-width space)',
    ]);
    expect(read(dir, path)).toBe(text);
  });
});

describe('a proposal section a person headed at level 3, or underlined', () => {
  it('is an error at its line saying to write it with two #, beside the empty section it leaves', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'headed', [{ title: 'One' }]);
    const path = 'agentd/changes/headed/proposal.md';
    const written = read(dir, path);
    for (const [edit, line, message, fix] of [
      [written.replace('## Why\n', '### Why\n'), '### Why', '"### Why" is not read as the proposal\'s Why section: its sections are headings with two # ("## Why"), and as it is it is text of the part above it', 'write it "## Why"'],
      [written.replace('## Impact\n', 'Impact\n------\n'), 'Impact', '"Impact", underlined, is not read as the proposal\'s Impact section: its sections are headings with two # ("## Impact"), and as it is it is text of the part above it', 'write it "## Impact" and take out the line under it'],
    ]) {
      write(dir, path, edit!);
      const at = edit!.split('\n').indexOf(line!) + 1;
      const errors = (await cli(dir, ['validate', 'headed', '--json'])).json.data.changes[0].findings.filter((f: { level: string }) => f.level === 'error');
      expect(errors.map((f: { line: number; rule: string; message: string; fix: string }) => [f.line, f.rule, f.message, f.fix])).toEqual([
        [at, 'proposal.section.level', message, fix],
        [at, line!.endsWith('Why') ? 'proposal.why.missing' : 'proposal.impact.missing', expect.any(String), expect.any(String)],
      ]);
    }
  });
});

describe('a section heading a person renamed or took out', () => {
  it('is named as the heading that is missing, with the heading of a typo beside it, and nothing is written', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'renamed', [{ title: 'One' }]);
    const path = 'agentd/changes/renamed/proposal.md';
    const edited = read(dir, path).replace('## Why\n', '## Wh\n').replace('## Impact\n', '## Consequences\n');
    write(dir, path, edited);
    const errors = (await cli(dir, ['validate', 'renamed', '--json'])).json.data.changes[0].findings.filter((f: { level: string }) => f.level === 'error');
    expect(errors.map((f: { rule: string; message: string; fix: string }) => [f.rule, f.message, f.fix])).toEqual([
      ['proposal.why.missing', 'the proposal has no "## Why" section (the heading "## Wh" is not read as it: it would be "## Why")', 'add a "## Why" section and write at least 50 characters'],
      ['proposal.impact.missing', 'the proposal has no "## Impact" section', 'add a "## Impact" section and write the Impact'],
    ]);
    const spec = 'agentd/changes/renamed/spec.md';
    write(dir, spec, read(dir, spec).replace('## Overview\n', '## Overveiw\n'));
    const specErrors = (await cli(dir, ['validate', 'renamed', '--json'])).json.data.changes[0].findings.filter((f: { file: string; level: string }) => f.file === spec && f.level === 'error');
    expect(specErrors.map((f: { message: string }) => f.message)).toContain('the spec has no "## Overview" section (the heading "## Overveiw" is not read as it: it would be "## Overview")');
    expect(read(dir, path)).toBe(edited);
  });
});

describe('task titles that read as YAML or markdown', () => {
  it('are kept as written through the file; a title of only "#" is refused by name, and nothing is written', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'titled', [{ title: 'One' }]);
    const titles = ['yes', 'null', '- [ ]', '---', '```', '~', '# Heading', '## T1: One', 'a: b', '"quoted"', 'Use C#'];
    for (const title of titles) await ok(dir, ['task', 'add', 'titled', '--title', title, '--as', 'human:tester']);
    expect((await ok(dir, ['task', 'list', '--change', 'titled'])).tasks.map((t: any) => t.title)).toEqual(['One', ...titles]);
    expect((await cli(dir, ['validate', 'titled'])).code).toBe(0);
    const path = 'agentd/changes/titled/tasks.md';
    const before = read(dir, path);
    for (const title of ['#', '##']) {
      const r = await cli(dir, ['task', 'add', 'titled', '--title', title, '--as', 'human:tester', '--json']);
      expect(r.json.error).toMatchObject({ code: 'INVALID_INPUT', message: 'Invalid input: --title cannot be only "#" characters.' });
    }
    expect(read(dir, path)).toBe(before);
  });
});

describe("a task's yaml block fenced as markdown allows: tildes, or more than three backticks", () => {
  it('is read as the task\'s fields, written again with the fence the person chose, and a task without a block is still a task others depend on', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'fences', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }, { title: 'Three' }]);
    const path = 'agentd/changes/fences/tasks.md';
    const text = read(dir, path);
    const [t1, t2, t3] = ['## T1: One', '## T2: Two', '## T3: Three'].map((h) => text.indexOf(h));
    write(dir, path, text.slice(0, t1!) + text.slice(t1!, t2!).replace('```yaml', '~~~yaml').replace('```\n', '~~~\n') + text.slice(t2!, t3!).replace('```yaml', '````yaml').replace('```\n', '````\n') + text.slice(t3!));
    expect((await ok(dir, ['validate', 'fences'])).valid).toBe(true);
    expect((await ok(dir, ['task', 'list', '--change', 'fences'])).tasks.map((t: any) => [t.task_id, t.status, t.depends])).toEqual([
      ['fences/T1', 'todo', []],
      ['fences/T2', 'todo', ['T1']],
      ['fences/T3', 'todo', []],
    ]);
    expect((await ok(dir, ['next', '--as', 'w1'])).task.task_id).toBe('fences/T1');
    const after = read(dir, path);
    expect(after).toMatch(/## T1: One\n\n~~~yaml\nstatus: in_progress\n[\s\S]*?assignee: w1\n[\s\S]*?~~~\n\n## T2: Two\n\n````yaml\nstatus: todo\n/);
    // T3 without its block: an error of its own, and T2 depending on T1 is no error.
    write(dir, path, after.replace(/(## T3: Three\n\n)```yaml\n[\s\S]*?```\n/, '$1'));
    const r = await cli(dir, ['validate', 'fences', '--json']);
    expect(r.json.data.changes[0].findings.map((f: any) => f.rule)).toEqual(['tasks.meta.missing']);
    write(dir, path, after.replace(/(## T1: One\n\n)~~~yaml\n[\s\S]*?~~~\n/, '$1'));
    const missing = await cli(dir, ['validate', 'fences', '--json']);
    expect(missing.json.data.changes[0].findings.map((f: any) => f.rule)).toEqual(['tasks.meta.missing']);
  });
});

describe('a task list that cannot be read at all (a merge left unresolved in it)', () => {
  it('is said by task list, with its line, not shown as no tasks', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'conflicted', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/conflicted/tasks.md';
    write(dir, path, read(dir, path).replace('status: todo', '<<<<<<< HEAD\nstatus: todo\n=======\nstatus: done\n>>>>>>> other'));
    const r = await cli(dir, ['task', 'list', '--change', 'conflicted', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.data.tasks).toEqual([]);
    expect(r.json.notices).toHaveLength(1);
    expect(r.json.notices[0]).toMatch(/^agentd\/changes\/conflicted\/tasks\.md cannot be read \(line \d+: unresolved git merge conflict .*\), so none of its tasks is listed \(`agentboard validate conflicted` lists every problem, with its line\)\.$/);
    const text = await cli(dir, ['task', 'list']);
    expect(text.stderr).toContain('note: agentd/changes/conflicted/tasks.md cannot be read');
  });
});
