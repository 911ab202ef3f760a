/**
 * Hand edits are first-class: a person saving stale buffers and half-finished files while agents
 * claim, note and progress loses no agent write, hands no task out twice, and keeps every one of
 * the person's own edits.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, cli, cliAsync, newBoard, ok, read, ROOT, saveByRename, saveRenamedOver, snapshot, SPEC_MD, write } from '../helpers.js';
import { handEditRace } from './hand-edit-race.js';
import { setTestHooks } from '../../src/clock.js';
import { Board } from '../../src/store/board.js';

/**
 * `task note` as an agent, by the built CLI in this process with this test's fault hook (the cli()
 * helper sets its own); exits 0. Its --json output.
 */
async function noteWithHook(dir: string, taskId: string, text: string, fault: (point: string, path?: string) => void): Promise<string> {
  setTestHooks({ fault });
  let out = '';
  try {
    const { main } = (await import(join(ROOT, 'bin', 'load.mjs'))).loadCli();
    const code = await main(['task', 'note', taskId, text, '--as', 'codex', '--root', dir, '--json'], { out: (t: string) => (out += t), err: () => undefined });
    expect(code, out).toBe(0);
  } finally {
    setTestHooks(undefined);
  }
  return out;
}


describe('a person saving stale and half-finished buffers while agents work', () => {
  it('loses no agent write, hands no task out twice, and keeps every edit of the person', async () => {
    const { merges } = await handEditRace({ tasks: 12, agents: 4, agentRounds: 3, notesPerTask: 4, personRounds: 16 });
    // the person's saves really landed between the agents' writes and were merged
    expect(merges).toBeGreaterThan(0);
  });
});

describe('a person saving fresh copies renamed over the file while agents write', () => {
  it('keeps every save: one that lands between the commit\'s last check and its rename is merged next', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'saved', Array.from({ length: 6 }, (_, i) => ({ title: `Task ${i + 1}`, description: `Description of task ${i + 1}.` })));
    const file = join(dir, 'agentd/changes/saved/tasks.md');
    const proc = (script: string, args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [join(ROOT, 'test/store', script), ...args]);
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}`))));
      });
    // A save made from the file while it lacks a raced save of the person's (after the commit that
    // replaced it, before the merge that brings it back) would read as the person taking it back
    // (README, "Hand edits are merged"): the person sees each fix on screen before the next
    // (saver.mjs), whatever the machine's load. The agents write all along.
    const [saved] = await Promise.all([proc('saver.mjs', [file, '10', '100']), ...Array.from({ length: 3 }, (_, i) => proc('agent.mjs', [dir, `agent-${i}`, '4', '6']))]);
    await ok(dir, ['task', 'add', 'saved', '--title', 'After the saves', '--as', 'planner']);
    const conflicts = existsSync(join(dir, 'agentd/.runtime/conflicts.json')) ? read(dir, 'agentd/.runtime/conflicts.json') : '';
    const text = read(dir, 'agentd/changes/saved/tasks.md');
    for (const { marker } of JSON.parse(saved) as { marker: string }[]) expect(text.includes(marker) || conflicts.includes(marker), marker).toBe(true);
  });
});

describe('a person\'s own fields in a task\'s YAML', () => {
  it('are kept through a planner\'s edits of that task, a rewrite of the list and the agents\' writes to it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'own-fields', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/own-fields/tasks.md';
    write(dir, path, read(dir, path).replace('```yaml\nstatus: todo\n', '```yaml\nstatus: todo\nestimate: 3\nlinks:\n  - https://example.com/design\n'));
    expect((await ok(dir, ['validate', 'own-fields'])).changes[0].findings.map((f: any) => [f.level, f.rule])).toEqual([['warning', 'tasks.meta.unknown'], ['warning', 'tasks.meta.unknown']]);
    const block = () => {
      const text = read(dir, path);
      expect(text.split('estimate: 3').length).toBe(2);
      return text.slice(text.indexOf('## T1:'), text.indexOf('## T2:'));
    };
    await ok(dir, ['task', 'update', 'own-fields/T1', '--title', 'One, renamed', '--as', 'planner']);
    expect(block()).toContain('## T1: One, renamed');
    // the list sent back and written again by a planner: T1 keeps its id, so its own fields stay
    await ok(dir, ['reject', 'own-fields', 'tasks', '--feedback', 'Name the first task better.']);
    await ok(dir, ['tasks', 'own-fields', '--as', 'planner', '--input', write(dir, 'again.json', JSON.stringify({ tasks: [{ id: 'T1', title: 'One again' }, { id: 'T2', title: 'Two' }], notes: 'Rewritten.' }))]);
    expect(block()).toContain('## T1: One again');
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('own-fields/T1');
    await ok(dir, ['task', 'progress', 'own-fields/T1', '--percent', '40', '--message', 'Half way.', '--as', 'codex']);
    await ok(dir, ['task', 'note', 'own-fields/T1', 'Chose a file lock.', '--as', 'codex']);
    const t1 = block();
    for (const kept of ['progress: 40', 'Chose a file lock.', 'estimate: 3', 'https://example.com/design']) expect(t1).toContain(kept);
  });
});

describe('a person\'s comments in a task\'s YAML', () => {
  it('stay where they stood through a planner\'s edit, agents\' writes, a merge of a stale save and a rewrite of the list', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'commented', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/commented/tasks.md';
    const t1 = () => {
      const text = read(dir, path);
      return text.slice(text.indexOf('## T1:'), text.indexOf('## T2:'));
    };
    // A comment line before a key, one at the end of a line, one that is no comment (inside quotes), one at the end of the block.
    write(dir, path, read(dir, path).replace('```yaml\nstatus: todo\npriority: medium\n', '```yaml\n# ask Ana before starting\nstatus: todo # blocked on the schema, really\npriority: medium\nestimate: "3 # days"\n# last line\n'));
    expect((await ok(dir, ['validate', 'commented'])).changes[0].findings.map((f: any) => f.rule)).toEqual(['tasks.meta.unknown']);
    await ok(dir, ['task', 'update', 'commented/T1', '--title', 'One, renamed', '--as', 'planner']);
    expect(t1()).toContain('## T1: One, renamed\n\n```yaml\n# ask Ana before starting\nstatus: todo # blocked on the schema, really\n');
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('commented/T1');
    await ok(dir, ['task', 'progress', 'commented/T1', '--percent', '40', '--message', 'Half way.', '--as', 'codex']);
    await ok(dir, ['task', 'note', 'commented/T1', 'Chose a file lock.', '--as', 'codex']);
    let block = t1();
    expect(block).toContain('# ask Ana before starting\nstatus: in_progress # blocked on the schema, really\n');
    for (const kept of ['progress: 40', 'Chose a file lock.', 'estimate: "3 # days"\n# last line\n```']) expect(block).toContain(kept);
    // A stale buffer with a new comment saved over the agent's writes: the agent's state and the person's comment are both kept.
    const stale = read(dir, path);
    await ok(dir, ['task', 'progress', 'commented/T1', '--percent', '60', '--message', 'More.', '--as', 'codex']);
    write(dir, path, stale.replace('# last line\n', '# last line\n# and one more\n'));
    await ok(dir, ['task', 'note', 'commented/T1', 'Tests written.', '--as', 'codex']);
    block = t1();
    for (const kept of ['progress: 60', 'Tests written.', '# last line\n# and one more\n```', ' # blocked on the schema, really\n']) expect(block).toContain(kept);
    // the list sent back and written again by a planner: T1 keeps its id, so its comments stay
    await ok(dir, ['reject', 'commented', 'tasks', '--feedback', 'Name the first task better.']);
    await ok(dir, ['tasks', 'commented', '--as', 'planner', '--input', write(dir, 'again.json', JSON.stringify({ tasks: [{ id: 'T1', title: 'One again' }, { id: 'T2', title: 'Two' }], notes: 'Rewritten.' }))]);
    block = t1();
    expect(block).toContain('## T1: One again');
    for (const kept of ['# ask Ana before starting\nstatus: ', ' # blocked on the schema, really\n', '# and one more\n```']) expect(block).toContain(kept);
  });
});

describe('a person\'s comments in a document\'s frontmatter', () => {
  it('stay through an agent\'s claim from the task list, a person\'s rejection and the planner\'s revision', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'fronted', [{ title: 'One' }]);
    const proposal = 'agentd/changes/fronted/proposal.md';
    const tasks = 'agentd/changes/fronted/tasks.md';
    write(dir, proposal, read(dir, proposal).replace('---\n', '---\n# legal has read this\n').replace(/\nstatus: (\w+)\n/, '\nstatus: $1 # until Friday\n'));
    write(dir, tasks, read(dir, tasks).replace('---\n', '---\n# split in two if it grows\n'));
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('fronted/T1');
    expect(read(dir, tasks)).toMatch(/^---\n# split in two if it grows\n[^]*\nassignee: codex\n/);
    await ok(dir, ['reject', 'fronted', 'proposal', '--feedback', 'Say who asked for it.']);
    expect(read(dir, proposal)).toMatch(/^---\n# legal has read this\n[^]*\nstatus: rejected # until Friday\n[^]*\nfeedback:\n/);
    await ok(dir, ['propose', 'fronted', '--as', 'planner', '--why', 'Agents collide; the team lead asked for a board that stops it.', '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'Said who asked.']);
    expect(read(dir, proposal)).toMatch(/^---\n# legal has read this\n[^]*\nstatus: submitted # until Friday\n/);
  });

  it('stay in a task list through writes of its tasks: a note, an addition, a deletion and a claim', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'listed', [{ title: 'One' }, { title: 'Two' }]);
    const tasks = 'agentd/changes/listed/tasks.md';
    write(dir, tasks, read(dir, tasks).replace(/\nrevision: 1\n/, '\nrevision: 1 # ask Ana first\n').replace(/\nauthor: /, '\n# a comment line\nauthor: '));
    const frontmatter = () => read(dir, tasks).split('\n---\n')[0]!;
    const commented = frontmatter();
    await ok(dir, ['task', 'note', 'listed/T2', 'Looked at it.', '--as', 'w1']);
    expect(frontmatter()).toBe(commented);
    await ok(dir, ['task', 'add', 'listed', '--title', 'Three', '--as', 'planner']);
    await ok(dir, ['task', 'rm', 'listed/T3', '--as', 'planner']);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('listed/T1');
    expect(frontmatter()).toMatch(/\n# a comment line\nauthor: planner\nrevision: 1 # ask Ana first\n/);
  });
});

describe('what a merge cannot reconcile', () => {
  it('is kept on both sides and reported by the operation, status, validate and conflicts list until a person clears it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'contested', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/contested/tasks.md';
    const stale = read(dir, path);
    await ok(dir, ['next', '--as', 'codex']);
    // from the stale buffer, the person hands T1 to gemini and renames T2
    write(dir, path, stale.replace('status: todo', 'status: in_progress\nassignee: gemini').replace('## T2: Two', '## T2: Two, by hand'));
    // reads take T1 as agentboard recorded it, as the next write will (a save decides no claim), and say the file waits to be merged
    expect((await ok(dir, ['task', 'show', 'contested/T1'])).task.assignee).toBe('codex');
    expect((await ok(dir, ['task', 'show', 'contested/T2'])).task.title).toBe('Two, by hand');
    expect((await ok(dir, ['status'])).hand_edited).toEqual([path]);
    // the next write merges: codex keeps its claim, the person's title is kept, the person's assignment is reported
    const r = await cli(dir, ['task', 'note', 'contested/T1', 'Still mine.', '--as', 'codex', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.notices).toEqual([expect.stringContaining(`${path}: T1`)]);
    const t1 = (await ok(dir, ['task', 'show', 'contested/T1'])).task;
    expect(t1).toMatchObject({ assignee: 'codex', status: 'in_progress' });
    expect(t1.notes.map((n: any) => n.text)).toEqual(['Still mine.']);
    expect((await ok(dir, ['task', 'show', 'contested/T2'])).task.title).toBe('Two, by hand');
    const status = await ok(dir, ['status']);
    expect(status.hand_edited).toEqual([]);
    expect(status.conflicts).toEqual([expect.objectContaining({ file: path, item: 'T1', part: 'state', kept: 'agentboard', agentboard: expect.objectContaining({ assignee: 'codex' }), person: expect.objectContaining({ assignee: 'gemini' }) })]);
    const v = await cli(dir, ['validate', 'contested', '--json']);
    expect(v.code).toBe(0);
    expect(v.json.data.changes[0].findings).toEqual([expect.objectContaining({ level: 'warning', rule: 'merge.conflict', file: path })]);
    expect((await cli(dir, ['validate', 'contested', '--strict'])).code).toBe(1);
    expect((await ok(dir, ['conflicts', 'list'])).conflicts).toHaveLength(1);
    expect((await ok(dir, ['conflicts', 'clear'])).cleared).toBe(1);
    expect((await ok(dir, ['status'])).conflicts).toEqual([]);
  });
});

describe('a save that keeps the file\'s size and time', () => {
  it('is still seen as a person\'s edit and merged (files are compared by content, not by size and time)', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'same', [{ title: 'One', description: 'Fix the parser.' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    const path = join(dir, 'agentd/changes/same/tasks.md');
    const before = statSync(path);
    const times = join(dir, 'times');
    writeFileSync(times, '');
    execFileSync('touch', ['-r', path, times]); // keeps the time to the nanosecond
    // Saved in place (same file), one letter changed (same size), the time set back (as within one tick of the clock).
    const fd = openSync(path, 'r+');
    writeSync(fd, readFileSync(path, 'utf8').replace('Fix the parser.', 'Fix the lexer.!'), 0);
    closeSync(fd);
    execFileSync('touch', ['-r', times, path]);
    const after = statSync(path);
    expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);

    await ok(dir, ['task', 'note', 'same/T1', 'A note after the edit.', '--as', 'codex']);
    const t1 = (await ok(dir, ['task', 'show', 'same/T1'])).task;
    expect(t1.description).toBe('Fix the lexer.!');
    expect(t1.notes.map((n: any) => n.text)).toEqual(['A note after the edit.']);
  });
});


describe('a task list an editor is half-way through saving', () => {
  async function boardWithWork(): Promise<{ dir: string; file: string; stale: string }> {
    const dir = await newBoard();
    await changeWithTasks(dir, 'saving', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const file = join(dir, 'agentd/changes/saving/tasks.md');
    const stale = readFileSync(file, 'utf8');
    await ok(dir, ['next', '--as', 'agent-a']);
    return { dir, file, stale };
  }

  it('emptied, or cut inside its frontmatter, is a list with errors for next, never a board where every task is done', async () => {
    for (const cut of [0, 20]) {
      const { dir, file, stale } = await boardWithWork();
      writeFileSync(file, stale.slice(0, cut));
      const next = await ok(dir, ['next', '--as', 'agent-b']);
      expect(next.status).toBe('nothing_available');
      expect(next.reasons.broken_task_lists).toEqual(['saving']);
      expect(next.message).not.toContain('every task on the board is done');
      // What the change waits for says so too, not that its task list is still to be written.
      expect((await ok(dir, ['list'])).changes.find((c: any) => c.change_id === 'saving').waiting_on).toBe('its task list file to be fixed: it cannot be read');
    }
  });

  it('is waited for while the editor still has it open, then merged, and next hands out a task', async () => {
    const { dir, file, stale } = await boardWithWork();
    // An editor that truncates the file, holds it open for a moment, then writes its (stale) buffer whole.
    const editor = `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(file)}, 'w'); fs.writeFileSync(${JSON.stringify(`${file}.opened`)}, ''); setTimeout(() => { fs.writeSync(fd, ${JSON.stringify(stale)}); fs.closeSync(fd); }, 300);`;
    const saving = new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', editor]);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`editor exited ${code}`))));
    });
    while (!existsSync(`${file}.opened`)) await new Promise((r) => setTimeout(r, 5));
    const next = await cliAsync(dir, ['next', '--as', 'agent-b', '--json']);
    await saving;
    expect(next.json.data.status, next.stdout).toBe('assigned');
    // agent-a's claim, which the stale buffer does not have, is kept in the merge; agent-b has another task.
    expect(next.json.data.task.task_id).not.toBe('saving/T1');
    expect(read(dir, 'agentd/changes/saving/tasks.md')).toMatch(/## T1: One[\s\S]*assignee: agent-a/);
  });
});

describe('a status agentboard does not know, typed by hand', () => {
  it('leaves the document unreadable, not the board: reads go on and say so, validate names the line, a write is refused', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'typed', [{ title: 'One' }]);
    await ok(dir, ['new', 'other', '--as', 'planner', '--title', 'Other']);
    const spec = join(dir, 'agentd/changes/typed/spec.md');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace(/^status: submitted$/m, 'status: Submitted'));
    const line = readFileSync(spec, 'utf8').split('\n').indexOf('status: Submitted') + 1;
    const list = await ok(dir, ['list']);
    expect(list.changes.find((c: any) => c.change_id === 'typed').waiting_on).toBe('its spec file to be fixed: it cannot be read');
    expect(list.changes.find((c: any) => c.change_id === 'other').phase).toBe('proposal');
    expect((await ok(dir, ['docs'])).documents.some((d: any) => d.change_id === 'other')).toBe(true);
    expect((await ok(dir, ['show', 'typed'])).document_files.find((f: any) => f.document === 'spec')).toMatchObject({ unreadable: true });
    expect((await ok(dir, ['docs', 'typed'])).documents.map((d: any) => [d.document, d.unreadable])).toEqual([['proposal', false], ['spec', true], ['tasks', false]]);
    // the document itself is not shown with a made-up frontmatter: it is refused with its error
    const shown = await cli(dir, ['show', 'typed', 'spec', '--json']);
    expect(shown.code).toBe(1);
    expect(shown.json.error).toMatchObject({ code: 'PARSE_ERROR', message: `agentd/changes/typed/spec.md:${line}: unknown document status "Submitted"; it is not shown until it is fixed.` });
    const validate = await cli(dir, ['validate', 'typed', '--json']);
    expect(validate.code).toBe(1);
    expect(validate.json.data.changes[0].findings).toContainEqual(expect.objectContaining({ file: 'agentd/changes/typed/spec.md', line, rule: 'frontmatter.status', message: 'unknown document status "Submitted"' }));
    const before = readFileSync(spec, 'utf8');
    const again = await cli(dir, ['spec', 'typed', '--as', 'planner', '--from', write(dir, 'again-spec.md', SPEC_MD), '--notes', 'No additional notes.', '--json']);
    expect(again.code).toBe(1);
    expect(again.json.error.message).toContain(`agentd/changes/typed/spec.md:${line}: unknown document status "Submitted"`);
    // an agent mends no board file (a person may be saving it): it tries again or asks a person
    expect(again.json.error.next_step).toBe('Do not edit, restore or delete board files yourself. If a person is saving the file now, the same call works in a moment; if it fails again, ask a person to mend it with `agentboard ask --as planner` giving `--question` and `--default-action`, quoting this error, and go on with other work meanwhile.');
    // a person is told how: git restores only a committed file, so the way out of one never committed is said too
    const byPerson = await cli(dir, ['spec', 'typed', '--from', write(dir, 'again-spec.md', SPEC_MD), '--notes', 'No additional notes.', '--json']);
    expect(byPerson.json.error.next_step).toBe('Fix agentd/changes/typed/spec.md by hand (use one of: template, submitted, approved, rejected, superseded), or restore it with git checkout -- agentd/changes/typed/spec.md if it is committed; one never committed can be deleted, and the spec written anew.');
    expect(readFileSync(spec, 'utf8')).toBe(before);
  });
});

describe('a document saved with a byte order mark (Notepad\'s UTF-8)', () => {
  it('is read as the same document, and the next write merges it keeping the mark', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bom', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/bom/tasks.md';
    write(dir, path, `\uFEFF${read(dir, path).replace('## T2: Two', '## T2: Two, by hand')}`);
    expect((await cli(dir, ['validate', 'bom'])).code).toBe(0);
    expect((await ok(dir, ['task', 'show', 'bom/T2'])).task.title).toBe('Two, by hand');
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('bom/T1');
    const after = read(dir, path);
    expect(after.startsWith('\uFEFF---\n')).toBe(true);
    expect(after).toContain('## T2: Two, by hand');
    expect(after).toMatch(/## T1: One[\s\S]*assignee: codex/);
  });

  it('on a document a command only reads: the file is left as it is and nothing is logged as merged', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bom-read', [{ title: 'One' }]);
    const path = 'agentd/changes/bom-read/proposal.md';
    write(dir, path, `\uFEFF${read(dir, path)}`);
    const before = readFileSync(join(dir, path));
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('bom-read/T1');
    expect(readFileSync(join(dir, path)).equals(before)).toBe(true);
    expect(read(dir, 'agentd/.runtime/activity.jsonl')).not.toContain('"file.merge"');
  });
});

describe('documents saved with Windows line endings (CRLF)', () => {
  it('keep them through agents\' claims, notes and completions, a planner\'s edit, a person\'s edit and an approval', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'crlf', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const paths = ['proposal.md', 'spec.md', 'tasks.md'].map((f) => `agentd/changes/crlf/${f}`);
    const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
    for (const p of paths) write(dir, p, crlf(read(dir, p)));
    const allCrlf = (p: string) => {
      const text = read(dir, p);
      expect(text.includes('\r\n'), p).toBe(true);
      expect(text.replace(/\r\n/g, '').includes('\n'), `${p} has a line ending without CR`).toBe(false);
      return text;
    };
    expect((await cli(dir, ['validate', 'crlf'])).code).toBe(0);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('crlf/T1');
    await ok(dir, ['task', 'progress', 'crlf/T1', '--as', 'codex', '--message', 'halfway', '--percent', '50']);
    await ok(dir, ['task', 'done', 'crlf/T1', '--as', 'codex', '--note', 'Did one.']);
    await ok(dir, ['task', 'update', 'crlf/T3', '--title', 'Three, renamed', '--as', 'planner']);
    // a person's own edit, saved with CRLF as their editor does
    write(dir, paths[2]!, allCrlf(paths[2]!).replace('## T2: Two', '## T2: Two, by hand'));
    expect((await ok(dir, ['next', '--as', 'gemini'])).task.task_id).toBe('crlf/T2');
    await ok(dir, ['approve', 'crlf', 'proposal', '--as', 'human:tester']);
    for (const p of paths) allCrlf(p);
    const tasks = allCrlf(paths[2]!);
    expect(tasks).toMatch(/## T1: One\r\n[\s\S]*status: done\r\n/);
    expect(tasks).toMatch(/## T2: Two, by hand\r\n[\s\S]*assignee: gemini\r\n/);
    expect(tasks).toContain('## T3: Three, renamed\r\n');
    expect(allCrlf(paths[0]!)).toMatch(/^---\r\n[\s\S]*status: approved\r\n/);
    // the person's saves were taken as they are (nothing of them had to be merged and written again)
    expect(read(dir, 'agentd/.runtime/activity.jsonl')).not.toContain('"file.merge"');
    expect((await cli(dir, ['validate', 'crlf'])).code).toBe(0);
    // the quick reads (list, task list) see what the full read sees
    expect((await ok(dir, ['list'])).changes[0].tasks).toEqual({ total: 3, done: 1 });
    expect((await ok(dir, ['task', 'list', '--change', 'crlf'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([
      ['crlf/T1', 'done', 'codex'],
      ['crlf/T2', 'in_progress', 'gemini'],
      ['crlf/T3', 'todo', null],
    ]);
  });

  it('are merged like LF files when a person saves a stale buffer: no note or claim is lost, no task handed out twice', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'crlf-stale', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/crlf-stale/tasks.md';
    write(dir, path, read(dir, path).replace(/\r?\n/g, '\r\n'));
    const beforeClaim = read(dir, path);
    expect((await ok(dir, ['next', '--as', 'codex'])).task.task_id).toBe('crlf-stale/T1');
    const stale = read(dir, path);
    await ok(dir, ['task', 'note', 'crlf-stale/T1', 'Decided to keep the old parser.', '--as', 'codex']);
    // the person's editor saves the buffer it loaded before the note, with a line of their own
    write(dir, path, `${stale}Person text.\r\n`);
    await ok(dir, ['task', 'progress', 'crlf-stale/T1', '--percent', '50', '--message', 'half', '--as', 'codex']);
    let text = read(dir, path);
    expect(text).toContain('Decided to keep the old parser.');
    expect(text).toContain('Person text.');
    expect(text.replace(/\r\n/g, '').includes('\n')).toBe(false);
    // a checkout of the file from before the claim: the claim stays, and the next agent gets the other task
    write(dir, path, beforeClaim);
    expect((await ok(dir, ['next', '--as', 'gemini'])).task.task_id).toBe('crlf-stale/T2');
    text = read(dir, path);
    expect(text).toMatch(/## T1: One\r\n[\s\S]*assignee: codex\r\n/);
    expect(text).toContain('Decided to keep the old parser.');
  });

  it('stay LF in a file saved with LF: a new document is written with LF', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'lf-only', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    for (const f of ['proposal.md', 'spec.md', 'tasks.md']) expect(read(dir, `agentd/changes/lf-only/${f}`).includes('\r'), f).toBe(false);
  });
});

describe('a save in place that ends between an agent\'s read and its look for writers', () => {
  it('is read once more, whole, instead of refusing the agent\'s write as a broken file', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'inplace', [{ title: 'One' }, { title: 'Two' }]);
    const file = join(dir, 'agentd/changes/inplace/tasks.md');
    const saved = readFileSync(file, 'utf8').replace('## T2: Two', '## T2: Two, by hand');
    let reads = 0;
    // The editor has truncated the file when the agent reads it, and has written it whole by the next read.
    await noteWithHook(dir, 'inplace/T1', 'Still going.', (point, path) => {
      if (point !== 'read' || !path?.endsWith('inplace/tasks.md')) return;
      reads++;
      writeFileSync(file, reads === 1 ? '' : saved);
    });
    expect(reads).toBeGreaterThan(1);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('## T2: Two, by hand');
    expect(text).toContain('Still going.');
  });
});

describe('a save in place while a commit makes its files durable', () => {
  it('is on disk from then on: the operation runs again on it, rather than write over it and merge it back', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'durable', [{ title: 'One' }, { title: 'Two' }]);
    const file = join(dir, 'agentd/changes/durable/tasks.md');
    let saved = false;
    const seen: boolean[] = [];
    // The person saves in place (the same file, truncated and written) once the commit has checked
    // the file and before its fsyncs end; from then on, at every step of every commit, the file holds
    // the save (but for the instant a commit has moved it aside to link its own file in).
    await noteWithHook(dir, 'durable/T1', 'Noted while the person saved.', (point) => {
      if (saved && point !== 'commit:held') seen.push(readFileSync(file, 'utf8').includes('## T2: Two, saved in place'));
      if (point !== 'commit:verified' || saved) return;
      const fd = openSync(file, 'r+');
      const text = readFileSync(file, 'utf8').replace('## T2: Two', '## T2: Two, saved in place');
      ftruncateSync(fd, 0);
      writeSync(fd, text, 0);
      closeSync(fd);
      saved = true;
    });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every(Boolean), `the file without the save at step ${seen.indexOf(false)}`).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('## T2: Two, saved in place');
    expect(text).toContain('Noted while the person saved.');
  });
});

describe('a save renamed over a document in the instant the commit has moved it aside', () => {
  it('is not replaced by the commit\'s file (the link that puts that file in place fails), nor is a newer save landing there again, and both are merged next', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'linked', [{ title: 'One' }, { title: 'Two' }]);
    const file = join(dir, 'agentd/changes/linked/tasks.md');
    const before = readFileSync(file, 'utf8');
    const marks = ['## T2: Two, saved by hand', '## T2: Two, saved by hand, and again'];
    let saves = 0;
    // Between the commit's moving the document aside and its linking its own file in, the name is
    // free: an editor's rename lands there (the person's buffer, read before the commit), and lands
    // there again at the next try. A rename of the commit's file over the name would destroy both.
    await noteWithHook(dir, 'linked/T1', 'Noted while the person saved.', (point, path) => {
      if (point !== 'commit:held' || path !== file || saves === marks.length) return;
      saveByRename(file, before.replace('## T2: Two', marks[saves++]));
    });
    expect(saves).toBe(2);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`${marks[1]}\n`);
    expect(text).toContain('Noted while the person saved.');
    expect(readdirSync(join(dir, 'agentd/changes/linked')).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});

describe('a save that raced with a commit, merged to exactly its own text', () => {
  it('is written, not only recorded: the file holds it after the merge (it kept the commit\'s text, and the save was lost)', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'exact', [{ title: 'One' }, { title: 'Two' }]);
    const file = join(dir, 'agentd/changes/exact/tasks.md');
    // At each of the first two commits, the person saves from the file as it was before that commit,
    // renamed in the instant the commit moved the file aside: the second save lacks the first (the
    // person takes it back) and so merges to exactly its own text.
    const marks = ['## T2: Two (A)', '## T2: Two (B)'];
    let before = '';
    let saved = 0;
    let thisCommit = false;
    await noteWithHook(dir, 'exact/T1', 'Noted while the person saved.', (point, path) => {
      if (point === 'commit:journal') thisCommit = false;
      if (path !== file) return;
      if (point === 'commit:hold' && !thisCommit) before = readFileSync(file, 'utf8');
      if (point !== 'commit:held' || thisCommit || saved === marks.length) return;
      thisCommit = true;
      saveByRename(file, before.replace('## T2: Two', marks[saved++]!));
    });
    expect(saved).toBe(2);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`${marks[1]}\n`);
    expect(text).not.toContain(marks[0]);
    expect(text).toContain('Noted while the person saved.');
    // The next write reads the file as the ledger has it: no edit of the person's left to merge, nothing lost.
    await ok(dir, ['task', 'note', 'exact/T2', 'And then.', '--as', 'codex']);
    expect(read(dir, 'agentd/changes/exact/tasks.md')).toContain(`${marks[1]}\n`);
  });
});

describe('a save made from the file a raced commit left, before that commit merges the raced save', () => {
  it('is the person\'s later word: merged after the raced save, its own edit is kept (the raced save undid it)', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'later', [{ title: 'One' }, { title: 'Two' }]);
    const file = join(dir, 'agentd/changes/later/tasks.md');
    let before = '';
    let step = 0;
    // The first save lands as the commit has moved the list aside (made from the list before the
    // commit); the second, once the commit's list is linked in, is made from that list (without the first).
    await noteWithHook(dir, 'later/T1', 'Noted while the person saved.', (point, path) => {
      if (path !== file) return;
      if (point === 'commit:hold' && step === 0) before = readFileSync(file, 'utf8');
      if (point === 'commit:held' && step === 0) {
        step = 1;
        saveByRename(file, before.replace('## T2: Two', '## T2: Two (first save)'));
      } else if (point === 'commit:linked' && step === 1) {
        step = 2;
        saveByRename(file, readFileSync(file, 'utf8').replace('## T1: One', '## T1: One (second save)'));
      }
    });
    expect(step).toBe(2);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('## T1: One (second save)\n');
    expect(text).toContain('Noted while the person saved.');
    expect(readdirSync(join(dir, 'agentd/changes/later')).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});

describe('a read in the instant a commit has moved a document aside', () => {
  it('reads the document as the commit leaves it, from the temp file its journal names, whether its folder was listed before or during that instant, and as its temp file is linked in', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'aside', [{ title: 'One' }, { title: 'Two' }]);
    await changeWithTasks(dir, 'other', [{ title: 'Elsewhere' }]);
    const file = join(dir, 'agentd/changes/aside/tasks.md');
    // Readers without the lock, as a person's board or an agent's read tool: one has listed the
    // change's folder already; the other has looked for a commit in progress (there was none) and
    // lists that folder only in the instant the name is missing. Neither may find the list gone.
    const listedBefore = new Board(dir);
    expect(listedBefore.readDoc('aside', 'tasks')?.content).not.toBeNull();
    const listedDuring = new Board(dir);
    expect(listedDuring.readDoc('other', 'tasks')?.content).not.toBeNull();
    const seen: string[] = [];
    // Then, the commit's temp file linked in and its temp name not gone yet, the file has two names:
    // read all the same (a file of two names is otherwise refused).
    const listedThen = new Board(dir);
    expect(listedThen.readDoc('other', 'tasks')?.content).not.toBeNull();
    await noteWithHook(dir, 'aside/T1', 'Noted as they read.', (point, path) => {
      if (path !== file) return;
      if (point === 'commit:held') {
        expect(existsSync(file)).toBe(false);
        listedBefore.rereadDoc('aside', 'tasks');
        for (const reader of [listedBefore, listedDuring]) seen.push(JSON.stringify(reader.readDoc('aside', 'tasks')?.content ?? null));
      } else if (point === 'commit:linked') {
        expect(statSync(file).nlink).toBe(2);
        seen.push(JSON.stringify(listedThen.readDoc('aside', 'tasks')?.content ?? null));
      }
    });
    expect(seen).toHaveLength(3);
    for (const read of seen) expect(read).toContain('Noted as they read.');
  });
});

describe('a person who keeps saving through every try of a write, renaming each save over the file', () => {
  it('keeps every save: the one the last try commits over, and a newer one renamed over it before the rename of the commit', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'saving', [{ title: 'One' }, { title: 'Two' }]);
    const file = join(dir, 'agentd/changes/saving/tasks.md');
    const save = (marker: string) => saveRenamedOver(file, '## T2: Two', `## T2: Two ${marker}`);
    // Each try of the note finds a save made since it read the file, up to the last, which writes
    // over it (to merge it next); a newer save, made from that one, lands after its last check.
    let tries = 0;
    let last = false;
    await noteWithHook(dir, 'saving/T1', 'Noted while the person saved.', (point) => {
      if (point === 'commit:staged' && tries < 8) save(`(save ${++tries})`);
      if (point !== 'commit:verified' || tries < 8 || last) return;
      last = true;
      save('(save 9)');
    });
    expect(last).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('## T2: Two (save 9) (save 8) (save 7) (save 6) (save 5) (save 4) (save 3) (save 2) (save 1)\n');
    expect(text).toContain('Noted while the person saved.');
  });
});

describe('a save that raced with a commit, while the person saves again at every try to merge it', () => {
  it('is kept whole among the conflicts when the tries run out, and every later save is merged by the next write', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'restless', [{ title: 'One' }, { title: 'Two' }]);
    const file = join(dir, 'agentd/changes/restless/tasks.md');
    let saves = 0;
    const save = () => saveRenamedOver(file, '## T2: Two', `## T2: Two (save ${++saves})`);
    // The first save lands as the note's commit holds the file (it is merged next); then a save
    // lands in every try of that merge, each made from the file without the first.
    const out = await noteWithHook(dir, 'restless/T1', 'Noted while the person saved.', (point) => {
      if ((point === 'commit:hold' && saves === 0) || (point === 'commit:staged' && saves > 0)) save();
    });
    expect(saves).toBeGreaterThan(8);
    expect(JSON.parse(out).notices).toContain("agentd/changes/restless/tasks.md: a person's save could not be merged (it was half-written, or saved again at every try to merge it): the file keeps agentboard's text, and the save is recorded whole (see `agentboard status`).");
    await ok(dir, ['task', 'note', 'restless/T2', 'And then.', '--as', 'codex']);
    const conflicts = read(dir, 'agentd/.runtime/conflicts.json');
    expect(conflicts).toContain('(save 1)');
    const text = read(dir, 'agentd/changes/restless/tasks.md');
    expect(text).toContain(`## T2: Two (save ${saves}) (save ${saves - 1})`);
    for (const kept of ['Noted while the person saved.', 'And then.']) expect(text).toContain(kept);
  });
});

describe('a document deleted by hand', () => {
  it('is reported by validate (exit 1) and status until it is restored, as what it held is lost to every reader', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'deleted', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['next', '--as', 'codex']);
    await ok(dir, ['task', 'note', 'deleted/T1', 'Keep me.', '--as', 'codex']);
    const path = join(dir, 'agentd/changes/deleted/tasks.md');
    const kept = readFileSync(path);
    rmSync(path);
    const v = await cli(dir, ['validate', '--json']);
    expect(v.code).toBe(1);
    const finding = v.json.data.changes[0].findings.find((f: any) => f.rule === 'file.gone');
    expect(finding).toMatchObject({ level: 'error', file: 'agentd/changes/deleted/tasks.md' });
    expect(finding.fix).toContain('git checkout -- agentd/changes/deleted/tasks.md');
    expect((await ok(dir, ['status'])).problems.map((p: any) => p.rule)).toContain('file.gone');
    writeFileSync(path, kept);
    expect((await cli(dir, ['validate'])).code).toBe(0);
    expect((await ok(dir, ['status'])).problems).toEqual([]);
  });
});

describe('a change folder deleted by hand', () => {
  it('is reported by validate (exit 1) and status until it is restored or forgotten', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'vanished', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'codex']);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'board'], { cwd: dir });
    rmSync(join(dir, 'agentd/changes/vanished'), { recursive: true });
    const v = await cli(dir, ['validate', '--json']);
    expect(v.code).toBe(1);
    const finding = v.json.data.findings.find((f: any) => f.rule === 'change.gone');
    expect(finding).toMatchObject({ level: 'error', file: 'agentd/changes/vanished' });
    expect(finding.message).toContain('proposal.md, spec.md, tasks.md');
    expect(finding.fix).toContain('git checkout -- agentd/changes/vanished');
    expect((await ok(dir, ['status'])).problems.map((p: any) => p.rule)).toEqual(['change.gone']);
    // restored from git: nothing to report
    execFileSync('git', ['checkout', '--', 'agentd/changes/vanished'], { cwd: dir });
    expect((await cli(dir, ['validate'])).code).toBe(0);
    // removed on purpose and forgotten as the finding says
    rmSync(join(dir, 'agentd/changes/vanished'), { recursive: true });
    rmSync(join(dir, 'agentd/.runtime/ledger/vanished.json'));
    expect((await cli(dir, ['validate'])).code).toBe(0);
    expect((await ok(dir, ['status'])).problems).toEqual([]);
  });
});

describe('a whole document written over a person\'s edit not merged yet', () => {
  const R1 = 'The board MUST hand a task to at most one agent.';
  const R2 = 'Every change SHALL record who made it.';
  const tasksOfList = (text: string) => text.split(/\n(?=## T\d+:)/).slice(1);
  const conflicts = async (dir: string) => (await ok(dir, ['conflicts', 'list'])).conflicts.map(({ at: _at, ...c }: any) => c);

  it('a reviewer\'s correction keeps the person\'s edit of one requirement and takes the reviewer\'s of another', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'corrected', [{ title: 'One' }]);
    const key = (await ok(dir, ['reviewer', 'add', 'rev1'])).review_key;
    const path = 'agentd/changes/corrected/spec.md';
    const shown: string = (await ok(dir, ['show', 'corrected', 'spec'])).markdown;
    // the person clarifies R1 in the file; the reviewer corrects R2 of the spec as it was shown
    write(dir, path, read(dir, path).replace(R1, 'The board MUST hand a task to at most one agent, checked under the lock.'));
    await ok(dir, ['correct', 'corrected', 'spec', '--as', 'rev1', '--review-key', key, '--from', write(dir, 'fix.md', shown.replace(R2, 'Every change SHALL record who made it and when.')), '--notes', 'Said when.']);
    const text = read(dir, path);
    expect(text).toContain('The board MUST hand a task to at most one agent, checked under the lock.\n');
    expect(text).toContain('Every change SHALL record who made it and when.\n');
    expect(text).toMatch(/\nstatus: submitted\n[^]*\nrevision: 2\ncorrected_by: "rev1 /);
    expect(await conflicts(dir)).toEqual([]);
    expect((await cli(dir, ['validate', 'corrected', '--strict'])).code).toBe(0);
  });

  it('a reviewer\'s correction of the lines the person changed keeps the person\'s text and records both', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'clashed', [{ title: 'One' }]);
    const key = (await ok(dir, ['reviewer', 'add', 'rev1'])).review_key;
    const path = 'agentd/changes/clashed/spec.md';
    const shown: string = (await ok(dir, ['show', 'clashed', 'spec'])).markdown;
    write(dir, path, read(dir, path).replace(R1, 'The board MUST hand a task to one agent, checked under the lock.'));
    const r = await cli(dir, ['correct', 'clashed', 'spec', '--as', 'rev1', '--review-key', key, '--from', write(dir, 'fix.md', shown.replace(R1, 'The board MUST hand a task to one agent, checked with a lock file.').replace(R2, 'Every change SHALL record its author.')), '--notes', 'Both.', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.notices).toEqual([expect.stringContaining(`${path}: R1: Claims`)]);
    const text = read(dir, path);
    expect(text).toContain('The board MUST hand a task to one agent, checked under the lock.\n');
    expect(text).not.toContain('checked with a lock file');
    expect(text).toContain('Every change SHALL record its author.\n');
    expect(await conflicts(dir)).toEqual([
      { file: path, item: 'R1: Claims', part: 'plan', kept: 'person', agentboard: 'The board MUST hand a task to one agent, checked with a lock file.', person: 'The board MUST hand a task to one agent, checked under the lock.' },
    ]);
    const v = await ok(dir, ['validate', 'clashed']);
    expect(v.changes[0].findings).toEqual([expect.objectContaining({ level: 'warning', rule: 'merge.conflict', file: path })]);
  });

  it('a spec resubmitted after a rejection keeps the person\'s clarification of a requirement the resubmission left as it was', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'respec', [{ title: 'One' }]);
    await ok(dir, ['reject', 'respec', 'spec', '--feedback', 'Say more of claims.']);
    const path = 'agentd/changes/respec/spec.md';
    write(dir, path, read(dir, path).replace(R2, 'Every change SHALL record who made it, by name.'));
    await ok(dir, ['spec', 'respec', '--as', 'planner', '--from', write(dir, 'again.md', SPEC_MD.replace(R1, 'The board MUST hand a task to at most one agent, and say which.')), '--notes', 'More on claims.']);
    const text = read(dir, path);
    expect(text).toContain('The board MUST hand a task to at most one agent, and say which.\n');
    expect(text).toContain('Every change SHALL record who made it, by name.\n');
    expect(text).toMatch(/\nstatus: submitted\n[^]*\nrevision: 2\n/);
    expect(await conflicts(dir)).toEqual([]);
  });

  it('a task list resubmitted after a rejection keeps the person\'s text of a task it sent unchanged, and of a task it left out', async () => {
    const dir = await newBoard();
    const tasks = [
      { title: 'One', description: 'First.' },
      { title: 'Two', description: 'Second.' },
      { title: 'Three', description: 'Third.' },
      { title: 'Four', description: 'Fourth.' },
    ];
    await changeWithTasks(dir, 'relist', tasks);
    await ok(dir, ['reject', 'relist', 'tasks', '--feedback', 'Say more of the first task; drop the last two.']);
    const path = 'agentd/changes/relist/tasks.md';
    write(dir, path, read(dir, path).replace('\nThird.\n', '\nThird, clarified by hand.\n').replace('\nFourth.\n', '\nFourth: keep it, says Ana.\n'));
    const again = [{ title: 'One', description: 'First, with its steps.' }, tasks[1], tasks[2]];
    await ok(dir, ['tasks', 'relist', '--as', 'planner', '--input', write(dir, 'again.json', JSON.stringify({ tasks: again, notes: 'Steps said.' }))]);
    const [t1, t2, t3, t4, ...rest] = tasksOfList(read(dir, path));
    expect(rest).toEqual([]);
    expect(t1).toContain('First, with its steps.');
    expect(t2).toContain('Second.');
    expect(t3).toContain('Third, clarified by hand.');
    // left out by the writer but changed by the person: kept, and the writer's removal recorded
    expect(t4).toContain('Fourth: keep it, says Ana.');
    expect(await conflicts(dir)).toEqual([{ file: path, item: 'T4', part: 'plan', kept: 'person', agentboard: null, person: expect.objectContaining({ description: 'Fourth: keep it, says Ana.' }) }]);
    // a task neither changed by hand nor sent again goes
    await ok(dir, ['conflicts', 'clear']);
    await ok(dir, ['reject', 'relist', 'tasks', '--feedback', 'Drop the second.']);
    await ok(dir, ['tasks', 'relist', '--as', 'planner', '--input', write(dir, 'third.json', JSON.stringify({ tasks: [{ id: 'T1', title: 'One' }, { id: 'T3', title: 'Three' }, { id: 'T4', title: 'Four' }], notes: 'Dropped.' }))]);
    expect(tasksOfList(read(dir, path)).map((t) => t.split('\n')[0])).toEqual(['## T1: One', '## T3: Three', '## T4: Four']);
  });

  it('a planner\'s task update of fields the person changed by hand keeps the person\'s values and records both; a field only the planner changed is the planner\'s', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'updated', [{ title: 'One' }, { title: 'Two' }, { title: 'Three', description: 'Third.' }]);
    const path = 'agentd/changes/updated/tasks.md';
    const text = read(dir, path);
    const at = text.indexOf('## T3:');
    write(dir, path, text.slice(0, at) + text.slice(at).replace('priority: medium', 'priority: low').replace('\nThird.\n', '\nThird, by hand.\n'));
    const r = await cli(dir, ['task', 'update', 'updated/T3', '--as', 'planner', '--description', 'Planner rewrite', '--priority', 'high', '--title', 'Three, renamed', '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.notices).toEqual([expect.stringContaining(`${path}: T3`)]);
    const t3 = tasksOfList(read(dir, path))[2]!;
    expect(t3).toContain('## T3: Three, renamed\n');
    expect(t3).toContain('priority: low\n');
    expect(t3).toContain('Third, by hand.');
    expect(t3).not.toContain('Planner rewrite');
    expect(await conflicts(dir)).toEqual([
      { file: path, item: 'T3', part: 'plan', kept: 'person', agentboard: { description: 'Planner rewrite', priority: 'high' }, person: { description: 'Third, by hand.', priority: 'low' } },
    ]);
    expect((await ok(dir, ['status'])).conflicts).toHaveLength(1);
  });

  it('a planner\'s removal of a task the person changed by hand removes it, and records the person\'s version', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'removed', [{ title: 'One' }, { title: 'Two', description: 'Second.' }]);
    const path = 'agentd/changes/removed/tasks.md';
    write(dir, path, read(dir, path).replace('\nSecond.\n', '\nSecond, with a person\'s warning.\n'));
    await ok(dir, ['task', 'rm', 'removed/T2', '--as', 'planner']);
    expect(tasksOfList(read(dir, path)).map((t) => t.split('\n')[0])).toEqual(['## T1: One']);
    expect(await conflicts(dir)).toEqual([{ file: path, item: 'T2', part: 'plan', kept: 'agentboard', agentboard: null, person: expect.objectContaining({ description: 'Second, with a person\'s warning.' }) }]);
  });

  it('is refused, with nothing written, when joined with the person\'s edit it would not be valid', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'refused', [{ title: 'One' }]);
    await ok(dir, ['reject', 'refused', 'spec', '--feedback', 'Add a requirement.']);
    const path = 'agentd/changes/refused/spec.md';
    // the person adds R3 at the end of the requirements; the planner's resubmission adds another R3 at their start
    write(dir, path, read(dir, path).replace('## Acceptance Criteria', '### R3: Audit\n\nThe board MUST log every write.\n\n## Acceptance Criteria'));
    const before = snapshot(dir);
    const r = await cli(dir, ['spec', 'refused', '--as', 'planner', '--from', write(dir, 'again.md', SPEC_MD.replace('## Requirements\n', '## Requirements\n\n### R3: Speed\n\nThe board MUST answer within a second.\n')), '--notes', 'Added R3.', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('VALIDATION_FAILED');
    expect(r.json.error.message).toContain(`${path} holds a person's edit that agentboard has not merged yet (in R3: Audit)`);
    expect(r.json.error.message).toContain('[spec.requirement.duplicate]');
    expect(r.json.error.next_step).toContain('agentboard show refused spec');
    const after = snapshot(dir);
    delete after['again.md'];
    expect(after).toEqual(before);
  });
});

describe('a document a person\'s edit left unreadable', () => {
  it('is reported with its line, and not listed as an edit the next write merges (a write refuses it until it is fixed); fixed, it is', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'broken', [{ title: 'One' }]);
    const path = 'agentd/changes/broken/proposal.md';
    const text = read(dir, path);
    write(dir, path, text.replace(/^author: (.*)$/m, 'author: "$1'));
    const validate = await cli(dir, ['validate', 'broken', '--json']);
    expect(validate.code).toBe(1);
    expect(validate.json.data.changes[0].findings.map((f: any) => f.rule)).toContain('frontmatter.yaml');
    expect(validate.json.data.hand_edited).toEqual([]);
    expect((await ok(dir, ['status'])).hand_edited).toEqual([]);
    expect((await cli(dir, ['validate', 'broken'])).stdout).not.toContain('Edited by hand');

    write(dir, path, text.replace(/^author: (.*)$/m, 'author: $1\nowner: a person'));
    expect((await cli(dir, ['validate', 'broken', '--json'])).json.data.hand_edited).toEqual([path]);
  });
});
