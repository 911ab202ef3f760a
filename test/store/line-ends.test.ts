/**
 * A document's byte order mark and line ends are its editor's, not its content: agentboard's writes
 * keep them, and a file that differs from what agentboard wrote in them alone (a Windows editor's
 * save, a checkout with git's core.autocrlf) is no person's edit.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, read, write } from '../helpers.js';
import { boardWithRemote } from '../remote/helpers.js';

const BOM = '\uFEFF';
const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

/** The file's bytes: whether they start with UTF-8's byte order mark, and the text after it. */
function bytesOf(dir: string, path: string): { bom: boolean; text: string } {
  const bytes = readFileSync(join(dir, path));
  const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  return { bom, text: bytes.toString('utf8', bom ? 3 : 0) };
}

/** Every line of the text ends with CRLF. */
function allCrlf(text: string): boolean {
  return text.includes('\r\n') && !text.replace(/\r\n/g, '').includes('\n');
}

const handEdited = async (dir: string) => (await ok(dir, ['status'])).hand_edited;

describe('a document saved with a byte order mark', () => {
  it('keeps it through every write, with CRLF line ends too, and is not taken for a hand edit afterwards', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'marked', [{ title: 'One' }, { title: 'Two' }]);
    const tasks = 'agentd/changes/marked/tasks.md';
    const proposal = 'agentd/changes/marked/proposal.md';
    write(dir, tasks, BOM + read(dir, tasks));
    write(dir, proposal, BOM + crlf(read(dir, proposal)));
    await ok(dir, ['task', 'note', 'marked/T2', 'Kept the mark.', '--as', 'human:tester']);
    await ok(dir, ['approve', 'marked', 'proposal', '--as', 'human:tester']);
    let t = bytesOf(dir, tasks);
    expect(t.bom).toBe(true);
    expect(t.text.startsWith('---\nid: marked/tasks\n')).toBe(true);
    expect(t.text).toContain('Kept the mark.');
    expect(t.text.includes('\uFEFF')).toBe(false);
    const p = bytesOf(dir, proposal);
    expect(p.bom).toBe(true);
    expect(allCrlf(p.text)).toBe(true);
    expect(p.text).toMatch(/^---\r\n[\s\S]*status: approved\r\n/);
    expect(await handEdited(dir)).toEqual([]);
    // a person's edit of a marked file, taken as it is by the next command (its ledger entry alone written)
    const spec = 'agentd/changes/marked/spec.md';
    write(dir, spec, BOM + read(dir, spec).replace('exactly one agent at a time', 'exactly one agent at any time'));
    expect(await handEdited(dir)).toEqual([spec]);
    // written again: the mark stays
    await ok(dir, ['next', '--as', 'codex']);
    expect(bytesOf(dir, spec)).toEqual({ bom: true, text: expect.stringContaining('exactly one agent at any time') });
    expect(await handEdited(dir)).toEqual([]);
    await ok(dir, ['task', 'done', 'marked/T1', '--as', 'codex']);
    t = bytesOf(dir, tasks);
    expect(t.bom).toBe(true);
    expect(t.text).toMatch(/## T1: One\n[\s\S]*status: done\n/);
    expect(await handEdited(dir)).toEqual([]);
    // a person's edit of the file, merged by the next write: the mark stays, and so does the edit
    write(dir, tasks, BOM + t.text.replace('## T2: Two', '## T2: Two, by hand'));
    expect(await handEdited(dir)).toEqual([tasks]);
    await ok(dir, ['task', 'note', 'marked/T2', 'After the edit.', '--as', 'human:tester']);
    t = bytesOf(dir, tasks);
    expect(t.bom).toBe(true);
    expect(t.text).toContain('## T2: Two, by hand');
    expect(t.text).toContain('After the edit.');
    expect(await handEdited(dir)).toEqual([]);
    expect((await ok(dir, ['task', 'show', 'marked/T1'])).task.status).toBe('done');
  });
});

describe('a document that differs from what agentboard wrote only in its line ends or byte order mark', () => {
  it('is no hand edit: not listed, not merged, read as it is, and written with its line ends kept', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'ends', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('ends/T1');
    await ok(dir, ['task', 'note', 'ends/T1', 'Started on it.', '--as', 'codex']);
    const [proposal, spec, tasks] = ['proposal.md', 'spec.md', 'tasks.md'].map((f) => `agentd/changes/ends/${f}`) as [string, string, string];
    write(dir, tasks, crlf(read(dir, tasks)));
    write(dir, proposal, BOM + crlf(read(dir, proposal)));
    write(dir, spec, BOM + read(dir, spec));
    expect(await handEdited(dir)).toEqual([]);
    // read as the task list it is (not from offsets into the text agentboard wrote)
    // show prints the file as it is, its line ends too, and so reads the markdown in pages
    expect((await cli(dir, ['show', 'ends', 'tasks'])).stdout).toBe(read(dir, tasks));
    const paged: string[] = [];
    for (let page = await ok(dir, ['show', 'ends', 'tasks', '--limit', '7']); ; page = await ok(dir, ['show', 'ends', 'tasks', '--format', 'markdown', '--cursor', page.next_cursor])) {
      paged.push(page.markdown);
      if (!page.has_more) break;
    }
    expect(paged.join('')).toBe(read(dir, tasks));
    const listed = (await ok(dir, ['task', 'list', '--change', 'ends'])).tasks.map((t: any) => [t.task_id, t.title, t.status, t.assignee]);
    expect(listed).toEqual([
      ['ends/T1', 'One', 'in_progress', 'codex'],
      ['ends/T2', 'Two', 'todo', null],
      ['ends/T3', 'Three', 'todo', null],
    ]);
    expect((await ok(dir, ['task', 'show', 'ends/T1'])).task.notes.map((n: any) => n.text)).toEqual(['Started on it.']);
    expect((await ok(dir, ['next', '--as', 'gemini'])).task.task_id).toBe('ends/T2');
    await ok(dir, ['task', 'done', 'ends/T1', '--as', 'codex']);
    const text = read(dir, tasks);
    expect(allCrlf(text)).toBe(true);
    expect(text).toMatch(/## T1: One\r\n[\s\S]*status: done\r\n[\s\S]*## T2: Two\r\n[\s\S]*assignee: gemini\r\n/);
    // each task once, whole: written from the file as it is
    expect(text.match(/^#.*$/gm)).toEqual(['# Tasks: ends', '## T1: One', '## T2: Two', '## T3: Three']);
    expect(text.match(/^```/gm)).toHaveLength(6);
    expect((await cli(dir, ['validate', 'ends'])).code).toBe(0);
    expect(read(dir, 'agentd/.runtime/activity.jsonl')).not.toContain('"file.merge"');
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toEqual([]);
    expect(await handEdited(dir)).toEqual([]);
    // a person's real edit of a CRLF file is one
    write(dir, tasks, text.replace('## T3: Three\r\n', '## T3: Three, by hand\r\n'));
    write(dir, proposal, BOM + crlf(read(dir, proposal).slice(1)).replace('Add a board.', 'Add a board, by hand.'));
    expect((await handEdited(dir)).sort()).toEqual([proposal, tasks]);
    expect((await ok(dir, ['task', 'show', 'ends/T3'])).task.title).toBe('Three, by hand');
  });

  it('as a checkout with core.autocrlf leaves it is no hand edit', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'checkout', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'core.autocrlf=true', ...args], { cwd: dir, stdio: 'pipe', encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'board');
    rmSync(join(dir, 'agentd/changes/checkout'), { recursive: true });
    git('checkout', '--', 'agentd/changes/checkout');
    const tasks = 'agentd/changes/checkout/tasks.md';
    expect(allCrlf(read(dir, tasks))).toBe(true);
    expect(await handEdited(dir)).toEqual([]);
    expect((await ok(dir, ['next', '--as', 'gemini'])).task.task_id).toBe('checkout/T2');
    await ok(dir, ['task', 'done', 'checkout/T1', '--as', 'codex']);
    const text = read(dir, tasks);
    expect(allCrlf(text)).toBe(true);
    expect(text.match(/^#.*$/gm)).toEqual(['# Tasks: checkout', '## T1: One', '## T2: Two']);
    expect(text).toMatch(/## T1: One\r\n[\s\S]*status: done\r\n[\s\S]*## T2: Two\r\n[\s\S]*assignee: gemini\r\n/);
    expect((await cli(dir, ['validate', 'checkout'])).code).toBe(0);
    expect(read(dir, 'agentd/.runtime/activity.jsonl')).not.toContain('"file.merge"');
    expect(await handEdited(dir)).toEqual([]);
    expect(git('status', '--porcelain', '--', 'agentd/changes/checkout/proposal.md', 'agentd/changes/checkout/spec.md')).toBe('');
  });
});

describe("the board's own files (people.yaml, config.yaml) saved with a byte order mark and CRLF", () => {
  it('keep both through the writes that change them, and those writes change nothing else', async () => {
    const shared = await boardWithRemote();
    const dir = shared.clones[0]!;
    const people = 'agentd/people.yaml';
    const config = 'agentd/config.yaml';
    write(dir, people, BOM + crlf(read(dir, people)));
    const settings = BOM + crlf(read(dir, config));
    write(dir, config, settings);
    await ok(dir, ['person', 'key', '--as', 'human:bob'], { env: { AGENTBOARD_PERSON_KEY: '' }, interactive: true });
    const p = bytesOf(dir, people);
    expect(p.bom).toBe(true);
    expect(allCrlf(p.text)).toBe(true);
    expect(p.text).toMatch(/name: human:tester\r\n[\s\S]*name: human:bob\r\n/);
    await ok(dir, ['remote', 'enable', '--as', 'human:tester']);
    let c = bytesOf(dir, config);
    expect(c.bom).toBe(true);
    expect(allCrlf(c.text)).toBe(true);
    expect(c.text).toMatch(/\r\nremote: origin\r\n$/);
    await ok(dir, ['remote', 'disable', '--as', 'human:tester']);
    c = bytesOf(dir, config);
    expect(BOM + c.text).toBe(settings);
  });
});

describe('a CRLF document saved again by a tool that turns each LF into CRLF (its lines end in CR CR LF)', () => {
  it('is read without a carriage return in any text, is no hand edit, and the next write gives it plain CRLF line ends', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'doubled', [{ title: 'One', description: 'First line.\nSecond line.' }, { title: 'Two' }]);
    const tasks = 'agentd/changes/doubled/tasks.md';
    write(dir, tasks, read(dir, tasks).replace(/\n/g, '\r\r\n'));
    expect((await ok(dir, ['task', 'show', 'doubled/T1'])).task.description).toBe('First line.\nSecond line.');
    expect(await handEdited(dir)).toEqual([]);
    await ok(dir, ['task', 'note', 'doubled/T2', 'Noted.', '--as', 'human:tester']);
    const text = read(dir, tasks);
    expect(allCrlf(text)).toBe(true);
    expect(text).not.toContain('\r\r');
    expect(text).toContain('First line.\r\nSecond line.\r\n');
    expect((await ok(dir, ['task', 'show', 'doubled/T1'])).task.description).toBe('First line.\nSecond line.');
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toEqual([]);
  });

  it('edited by a person so, has the edit merged by the next write with no carriage return taken into the text', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'edited', [{ title: 'One', description: 'First line.\nSecond line.' }, { title: 'Two' }]);
    const tasks = 'agentd/changes/edited/tasks.md';
    write(dir, tasks, read(dir, tasks).replace('Second line.', 'Second line, by hand.').replace(/\n/g, '\r\r\n'));
    expect(await handEdited(dir)).toEqual([tasks]);
    await ok(dir, ['task', 'note', 'edited/T2', 'Noted.', '--as', 'human:tester']);
    const text = read(dir, tasks);
    expect(allCrlf(text)).toBe(true);
    expect(text).not.toContain('\r\r');
    expect((await ok(dir, ['task', 'show', 'edited/T1'])).task.description).toBe('First line.\nSecond line, by hand.');
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toEqual([]);
    expect(await handEdited(dir)).toEqual([]);
  });

  it('read as people.yaml and config.yaml, and written back with plain CRLF line ends', async () => {
    const dir = await newBoard();
    const people = 'agentd/people.yaml';
    write(dir, people, read(dir, people).replace(/\n/g, '\r\r\n'));
    write(dir, 'agentd/config.yaml', 'stale_claim_minutes: 30\r\r\nrequire_approval: [spec]\r\r\n');
    expect((await ok(dir, ['validate'])).valid).toBe(true);
    await ok(dir, ['person', 'key', '--as', 'human:bob'], { env: { AGENTBOARD_PERSON_KEY: '' }, interactive: true });
    const text = read(dir, people);
    expect(allCrlf(text)).toBe(true);
    expect(text).not.toContain('\r\r');
    expect(text).toMatch(/name: human:tester\r\n[\s\S]*name: human:bob\r\n/);
  });
});

describe('a document saved with lone CR line ends (an old Mac\'s editor)', () => {
  it('is read as the document it is, is no hand edit, and is written back with its line ends', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'classic', [{ title: 'One', description: 'First line.\nSecond line.' }, { title: 'Two' }]);
    const tasks = 'agentd/changes/classic/tasks.md';
    const proposal = 'agentd/changes/classic/proposal.md';
    const cr = (text: string) => text.replace(/\n/g, '\r');
    write(dir, tasks, cr(read(dir, tasks)));
    write(dir, proposal, BOM + cr(read(dir, proposal)));
    expect((await cli(dir, ['validate', 'classic'])).code).toBe(0);
    expect(await handEdited(dir)).toEqual([]);
    expect((await ok(dir, ['task', 'list', '--change', 'classic'])).tasks.map((t: any) => t.title)).toEqual(['One', 'Two']);
    expect((await ok(dir, ['task', 'show', 'classic/T1'])).task.description).toBe('First line.\nSecond line.');
    await ok(dir, ['task', 'note', 'classic/T2', 'Noted.', '--as', 'human:tester']);
    await ok(dir, ['approve', 'classic', 'proposal', '--as', 'human:tester']);
    const text = read(dir, tasks);
    expect(text).not.toContain('\n');
    expect(text).toContain('First line.\rSecond line.\r');
    expect(text.split('\r').filter((l) => l.startsWith('#'))).toEqual(['# Tasks: classic', '## T1: One', '## T2: Two']);
    const p = bytesOf(dir, proposal);
    expect(p.bom).toBe(true);
    expect(p.text).not.toContain('\n');
    expect(p.text).toMatch(/^---\r[\s\S]*status: approved\r/);
    expect((await ok(dir, ['task', 'show', 'classic/T2'])).task.notes.map((n: any) => n.text)).toEqual(['Noted.']);
    expect(await handEdited(dir)).toEqual([]);
    // a person's edit of such a file is one, and is read
    write(dir, tasks, text.replace('## T2: Two\r', '## T2: Two, by hand\r'));
    expect(await handEdited(dir)).toEqual([tasks]);
    expect((await ok(dir, ['task', 'show', 'classic/T2'])).task.title).toBe('Two, by hand');
  });
});

describe('a document whose lines end in more than one way (CRLF lines pasted into an LF file)', () => {
  it('keeps every line end a write does not change: a task done changes only its own lines, in the line ends around them', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'mixed', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const tasks = 'agentd/changes/mixed/tasks.md';
    const lf = read(dir, tasks);
    // T1 and T2 pasted from a Windows editor; the rest of the file LF as agentboard wrote it.
    const from = lf.indexOf('## T1: One');
    const to = lf.indexOf('## T3: Three');
    write(dir, tasks, lf.slice(0, from) + crlf(lf.slice(from, to)) + lf.slice(to));
    const edited = read(dir, tasks);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'done', 'mixed/T1', '--as', 'codex']);
    const text = read(dir, tasks);
    const t1 = text.slice(text.indexOf('## T1: One'), text.indexOf('## T2: Two'));
    expect(allCrlf(t1)).toBe(true);
    expect(t1).toContain('status: done\r\n');
    // Everything after T1, and everything before it, is byte for byte as it was.
    expect(text.slice(text.indexOf('## T2: Two'))).toBe(edited.slice(edited.indexOf('## T2: Two')));
    expect(text.slice(0, text.indexOf('## T1: One'))).toBe(edited.slice(0, edited.indexOf('## T1: One')));
    expect((await ok(dir, ['task', 'show', 'mixed/T2'])).task.description).toBe('');
    expect((await cli(dir, ['validate', 'mixed'])).code).toBe(0);
    expect(await handEdited(dir)).toEqual([]);
  });
});
