import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, ok, read, snapshot, SPEC_MD, tempDir, WHY, write } from '../helpers.js';
import { connect } from '../mcp/helpers.js';

describe('bad input changes nothing', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await newBoard();
    await changeWithTasks(dir, 'base', [{ title: 'One' }, { title: 'Two', depends: ['T1'] }]);
  });

  async function refused(args: string[], code: number, errorCode: string, stdin?: string) {
    const before = snapshot(dir);
    const r = await cli(dir, [...args, '--json'], stdin === undefined ? {} : { stdin });
    expect(r.code, r.stdout + r.stderr).toBe(code);
    expect(r.json.ok).toBe(false);
    expect(r.json.error.code).toBe(errorCode);
    expect(r.json.error.next_step.length).toBeGreaterThan(10);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(snapshot(dir)).toEqual(before);
    return r.json.error;
  }

  it.each(['..', '../escape', 'a/b', 'a\\b', 'Upper', 'has space', ''])('refuses the change id %j before touching a file', async (id) => {
    const error = await refused(['new', id, '--as', 'claude'], 2, 'INVALID_INPUT');
    expect(error.message).toMatch(/change_id/);
  });

  it('says where --input is not valid JSON: the line and column, why, or that it is empty or cut short', async () => {
    const where = async (stdin: string) => (await refused(['task', 'add', 'base', '--as', 'planner', '--input', '-'], 2, 'USAGE', stdin)).message;
    expect(await where('{\n  "title": "One",\n}')).toBe('The input on standard input is not valid JSON (line 3, column 1: Expected double-quoted property name).');
    expect(await where('{"title": ')).toBe('The input on standard input is not valid JSON (it ends before the JSON does).');
    expect(await where('  ')).toBe('The input on standard input is not valid JSON (it is empty).');
    expect(await where(`{"title": "${'x'.repeat(500)}",}`)).toMatch(/^The input on standard input is not valid JSON \(line 1, column \d+: .{1,120}\)\.$/);
  });

  it('says what a field must be, reading on from its name: a pull request that is no web address, a cursor agentboard never returned', async () => {
    expect((await refused(['session', 'submit', '--as', 'codex', '--summary', 'Done', '--pr-url', 'ftp://example.com/pr/1'], 2, 'INVALID_INPUT')).message).toBe('Invalid input: --pr-url must be a web address (http or https), like https://github.com/owner/repo/pull/12.');
    expect((await refused(['task', 'list', '--cursor', 'garbage'], 2, 'INVALID_INPUT')).message).toBe('Invalid input: --cursor is not a cursor agentboard returned.');
  });

  it('refuses --input that gives a key twice in one object (JSON keeps the last without a word), where it is, and writes nothing', async () => {
    const before = snapshot(join(dir, 'agentd'));
    const error = await refused(['task', 'add', 'base', '--as', 'planner', '--input', '-'], 2, 'USAGE', '{\n  "title": "x",\n  "notes": {"a": 1, "a\\u0062": [{"title": 2}, {"title": 3}]},\n  "title": "y"\n}');
    expect(error.message).toBe('The input on standard input gives "title" twice in one object (line 4, column 3): JSON keeps only the last, so which you meant is not clear.');
    expect(error.next_step).toBe('Keep one "title" in that object, then run `agentboard task add` again; nothing was changed.');
    expect(snapshot(join(dir, 'agentd'))).toEqual(before);
  });

  it('points the errors of a task list sent as JSON at its tasks, not at lines of a file never written', async () => {
    const fresh = await newBoard();
    await ok(fresh, ['propose', 'dup', '--as', 'planner', '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'n']);
    await ok(fresh, ['spec', 'dup', '--as', 'planner', '--from', write(fresh, 'spec.md', SPEC_MD), '--notes', 'n']);
    const tasks = { tasks: [{ id: 'T1', title: 'One' }, { id: 'T1', title: 'Two' }, { id: 'T5', title: 'Five', depends: ['T9'] }], notes: 'n' };
    const r = await cli(fresh, ['tasks', 'dup', '--as', 'planner', '--input', '-', '--json'], { stdin: JSON.stringify(tasks) });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('VALIDATION_FAILED');
    expect(r.json.error.details.findings).toEqual([
      { level: 'error', file: 'agentd/changes/dup/tasks.md', rule: 'tasks.id.duplicate', message: 'tasks[1]: task id "T1" is used twice (first as tasks[0])', fix: 'give every task in the change its own id' },
      { level: 'error', file: 'agentd/changes/dup/tasks.md', rule: 'tasks.depends.unknown', message: 'tasks[2]: task T5 depends on T9, which is not a task of this change', fix: 'add task T9 or remove it from depends' },
    ]);
    expect(r.json.error.message).toContain('nothing was written: tasks[1]: task id "T1" is used twice (first as tasks[0])');
  });

  it('refuses unknown fields', async () => {
    const error = await refused(['task', 'add', '--input', '-'], 2, 'INVALID_INPUT', JSON.stringify({ change_id: 'base', agent_id: 'codex', title: 'x', colour: 'red' }));
    expect(error.message).toContain('unknown field "colour"');
  });

  it('names the field an unknown name was meant for: the same but for case and separators, or one typing slip off', async () => {
    const error = await refused(['task', 'add', '--input', '-'], 2, 'INVALID_INPUT', JSON.stringify({ change_id: 'base', agent_id: 'codex', titel: 'x', colour: 'red', Review_Round: 1, priorty: 'high' }));
    expect(error.message).toContain('unknown fields "titel" (the field is title), "colour", "Review_Round" (the field is review_round), "priorty" (the field is priority).');
    const tasks = { tasks: [{ title: 'One' }, { title: 'Two', Depends: ['T1'] }], notes: 'n' };
    const nested = await refused(['tasks', 'base', '--as', 'codex', '--input', '-'], 2, 'INVALID_INPUT', JSON.stringify(tasks));
    expect(nested.message).toMatch(/tasks\[1\]: unknown field "Depends" \(the field is depends\); it takes /);
  });

  it('leaves out a field --input gives as null, so that a flag may give it', async () => {
    const own = await newBoard();
    await changeWithTasks(own, 'nulls', [{ title: 'One' }]);
    const r = await ok(own, ['task', 'add', '--input', '-', '--as', 'codex', '--priority', 'high'], { stdin: JSON.stringify({ change_id: 'nulls', agent_id: null, title: 'Given by null', priority: null, description: null }) });
    expect(r.task).toMatchObject({ task_id: 'nulls/T2', title: 'Given by null', priority: 'high' });
    expect(read(own, 'agentd/changes/nulls/tasks.md')).toContain('## T2: Given by null');
  });

  it('names the fields a nested object takes when one of its fields is unknown', async () => {
    const tasks = { tasks: [{ title: 'One', description: 'Do one.' }, { title: 'Two', description: 'Do two.', depends_on: ['T1'] }], notes: 'n' };
    const error = await refused(['tasks', 'base', '--as', 'codex', '--input', '-'], 2, 'INVALID_INPUT', JSON.stringify(tasks));
    expect(error.message).toMatch(/tasks\[1\]: unknown field "depends_on"; it takes [^.]*\bdepends\b/);
  });

  it('refuses wrong types', async () => {
    const error = await refused(['task', 'progress', 'base/T1', '--as', 'codex', '--percent', 'lots', '--message', 'm'], 2, 'INVALID_INPUT');
    expect(error.message).toContain('percent must be a number');
    await refused(['task', 'add', '--input', '-'], 2, 'INVALID_INPUT', JSON.stringify({ change_id: 'base', agent_id: 'codex', title: 42 }));
  });

  it('refuses a title over 200 and a description over 2000 characters', async () => {
    expect((await refused(['task', 'add', 'base', '--as', 'codex', '--title', 'x'.repeat(201)], 2, 'INVALID_INPUT')).message).toContain('title has 201 characters; at most 200');
    expect((await refused(['task', 'add', 'base', '--as', 'codex', '--title', 'ok', '--description', 'y'.repeat(2001)], 2, 'INVALID_INPUT')).message).toContain('description has 2001 characters');
  });

  it('refuses binary garbage and control characters', async () => {
    const garbage = write(dir, 'garbage.bin', '');
    writeFileSync(garbage, Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x00]));
    expect((await refused(['task', 'add', '--input', garbage], 2, 'INVALID_INPUT')).message).toBe(`${garbage}:1: --input holds bytes that are not UTF-8 text; nothing was written, so that nothing is silently replaced.`);
    expect((await refused(['task', 'add', 'base', '--as', 'codex', '--title', 'bell\u0007'], 2, 'INVALID_INPUT')).message).toContain('title holds U+0007, a control character');
    rmSync(garbage);
  });

  it('names every problem of a call in one answer: characters, lengths, types and missing fields together', async () => {
    const input = { change_id: 'base', title: `two\nlines ${'x'.repeat(250)}`, why: 'short\u202E', what_changes: 'w\u0007', impact: 5, notes: '' };
    const error = await refused(['propose', '--as', 'codex', '--input', '-'], 2, 'INVALID_INPUT', JSON.stringify(input));
    for (const part of ['--why holds U+202E', '--what-changes holds U+0007', '--title has 260 characters; at most 200 are allowed', '--why needs at least 50 characters (got 6)', '--impact must be a string', '--notes cannot be empty']) expect(error.message, part).toContain(part);
  });

  it('refuses an input over 1 MB', async () => {
    const big = JSON.stringify({ change_id: 'base', agent_id: 'codex', title: 't', description: 'x'.repeat(1_100_000) });
    await refused(['task', 'add', '--input', '-'], 2, 'INPUT_TOO_LARGE', big);
  });

  it('reads no more than 1 MB of an input that does not end (a device, a pipe that never closes)', async () => {
    const before = snapshot(dir);
    const device = await cli(dir, ['task', 'add', '--as', 'codex', '--input', '/dev/zero', '--json']);
    expect(device.code).toBe(2);
    expect(device.json.error).toMatchObject({ code: 'INPUT_TOO_LARGE', message: '/dev/zero is larger than 1 MB (1048576 bytes).' });
    // `yes` never ends: the command stops reading at the limit and exits on its own
    const piped = spawnSync('bash', ['-c', `yes | "${process.execPath}" "${BIN}" task add --as codex --input - --json`], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: childEnv() });
    expect(piped.status).toBe(2);
    expect(JSON.parse(piped.stdout).error).toMatchObject({ code: 'INPUT_TOO_LARGE', message: 'standard input is larger than 1 MB (1048576 bytes).' });
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses an --input nested thousands deep as invalid input (exit 2), not an internal error', async () => {
    const deep = `{"change_id": "base", "title": "t", "depends": ${'['.repeat(5000)}"T1"${']'.repeat(5000)}}`;
    const error = await refused(['task', 'add', '--as', 'codex', '--input', '-'], 2, 'INVALID_INPUT', deep);
    expect(error.message).toBe('Invalid input: objects and arrays are nested more than 32 deep; no field takes that.');
  });

  it('refuses an invalid status and lists the valid ones', async () => {
    const error = await refused(['task', 'list', '--status', 'doing'], 2, 'INVALID_INPUT');
    expect(error.message).toContain('todo, in_progress, blocked, in_review, done');
  });

  it('answers bad usage with exit 2', async () => {
    await refused(['no-such-command'], 2, 'USAGE');
    await refused(['status', '--no-such-flag'], 2, 'USAGE');
    await refused(['task', 'show'], 2, 'USAGE');
  });

  it('says when a phase filter leaves no change, rather than that there are none', async () => {
    const r = await ok(dir, ['list', '--phase', 'done']);
    expect(r.changes).toEqual([]);
    expect(r.notice).toBe('No change is in phase done; 1 is in other phases.');
  });

  it('refuses a plan edit that breaks the list, naming the call to make again with its ids', async () => {
    const error = await refused(['task', 'update', 'base/T1', '--as', 'claude', '--depends', 'T2'], 1, 'VALIDATION_FAILED');
    expect(error.message).toContain('tasks depend on each other in a circle: T1 → T2 → T1');
    expect(error.next_step).toBe('Fix this and call `agentboard task update base/T1 --as claude` again.');
  });

  it('refuses a task that names the same dependency twice, saying which, in a list, in task add and in a hand-edited file', async () => {
    const added = await refused(['task', 'add', 'base', '--as', 'claude', '--title', 'Three', '--depends', 'T1', '--depends', 'T1'], 1, 'VALIDATION_FAILED');
    expect(added.message).toBe('The task list is not valid, so nothing was written: task T3 names T1 more than once in its depends [tasks.depends.duplicate].');
    const fresh = await newBoard();
    await ok(fresh, ['propose', 'twice', '--as', 'planner', '--why', WHY, '--what-changes', 'Add a board.', '--impact', 'Agents stop colliding.', '--notes', 'n']);
    await ok(fresh, ['spec', 'twice', '--as', 'planner', '--from', write(fresh, 'spec.md', SPEC_MD), '--notes', 'n']);
    const list = { tasks: [{ title: 'One' }, { title: 'Two' }, { title: 'Three', depends: ['T1', 'T2', 'T1', 'T1'] }], notes: 'n' };
    const r = await cli(fresh, ['tasks', 'twice', '--as', 'planner', '--input', '-', '--json'], { stdin: JSON.stringify(list) });
    expect(r.json.error.code).toBe('VALIDATION_FAILED');
    expect(r.json.error.details.findings).toEqual([
      { level: 'error', file: 'agentd/changes/twice/tasks.md', rule: 'tasks.depends.duplicate', message: 'tasks[2]: task T3 names T1 more than once in its depends', fix: 'name T1 once, or replace the others with the tasks that were meant' },
    ]);
    expect(existsSync(join(fresh, 'agentd/changes/twice/tasks.md'))).toBe(false);
    await ok(fresh, ['tasks', 'twice', '--as', 'planner', '--input', '-'], { stdin: JSON.stringify({ ...list, tasks: list.tasks.slice(0, 2) }) });
    const file = read(fresh, 'agentd/changes/twice/tasks.md');
    write(fresh, 'agentd/changes/twice/tasks.md', file.replace('## T2: Two\n\n```yaml\n', '## T2: Two\n\n```yaml\ndepends: [T1, T1]\n'));
    const validated = await cli(fresh, ['validate', 'twice', '--json']);
    expect(validated.code).toBe(1);
    expect(validated.json.data.changes[0].findings.map((f: any) => [f.rule, f.message])).toEqual([['tasks.depends.duplicate', 'task T2 names T1 more than once in its depends']]);
  });

  it('refuses a tab in a one-line field', async () => {
    const error = await refused(['task', 'add', 'base', '--as', 'claude', '--title', 'a\tb'], 2, 'INVALID_INPUT');
    expect(error.message).toContain('holds a tab; a one-line field takes spaces');
  });

  it('refuses a --file action that is not one, naming the actions', async () => {
    const error = await refused(['task', 'add', 'base', '--as', 'claude', '--title', 'Three', '--file', 'src/a.ts:explode'], 2, 'USAGE');
    expect(error.message).toBe('--file src/a.ts:explode: "explode" is not an action; the actions are create, modify, delete, rename.');
    expect(error.next_step).toBe('Write it as path:action, like --file src/a.ts:modify.');
  });

  it('refuses a field given twice with different values (--input, --from, an argument, a flag, --as), naming both; the same value twice is fine', async () => {
    write(dir, 'note.json', JSON.stringify({ task_id: 'base/T2', agent_id: 'codex', text: 'From the file.' }));
    const input = 'note.json';
    let error = await refused(['task', 'note', 'base/T1', '--as', 'codex', '--input', input], 2, 'USAGE');
    expect(error.message).toBe('task_id is given twice, with different values: by --input note.json and by the argument <task_id>.');
    expect(error.next_step).toBe('Give task_id once: leave it out of --input note.json or leave out the argument <task_id>.');
    error = await refused(['task', 'note', '--as', 'gemini', '--input', input], 2, 'USAGE');
    expect(error.message).toBe('agent_id is given twice, with different values: by --input note.json and by --as.');
    write(dir, 'progress.json', JSON.stringify({ percent: 30, message: 'A third.' }));
    const progress = 'progress.json';
    error = await refused(['task', 'progress', 'base/T1', '--as', 'codex', '--input', progress, '--percent', '40'], 2, 'USAGE');
    expect(error.message).toBe('percent is given twice, with different values: by --input progress.json and by --percent.');
    write(dir, 'spec-with-notes.md', read(dir, 'agentd/changes/base/spec.md').replace(/^---[^]*?---\n/, ''));
    write(dir, 'spec.json', JSON.stringify({ title: 'Another title', notes: 'n' }));
    error = await refused(['spec', 'base', '--as', 'planner', '--from', 'spec-with-notes.md', '--input', 'spec.json'], 2, 'USAGE');
    expect(error.message).toMatch(/^title is given twice, with different values: by --input spec\.json and by --from spec-with-notes\.md\.$/);
    // the same value from two places is one value
    const same = await cli(dir, ['task', 'note', 'base/T2', '--as', 'codex', '--input', input, '--json']);
    expect(same.code, same.stdout).toBe(0);
  });

  it('refuses an option given twice with different values, global ones too; the same value twice is one value', async () => {
    for (const [args, flag, values] of [
      [['task', 'note', 'base/T1', 'x', '--as', 'codex', '--as', 'gemini'], '--as', '"codex" and "gemini"'],
      [['--as', 'codex', 'task', 'note', 'base/T1', 'x', '--as=gemini'], '--as', '"codex" and "gemini"'],
      [['task', 'add', 'base', '--as', 'codex', '--title', 'First', '--title', 'Second'], '--title', '"First" and "Second"'],
      [['--root', '.', 'status', '--root', '/'], '--root', '"." and "/"'],
      [['task', 'list', '--status', 'todo', '--status', 'done'], '--status', '"todo" and "done"'],
      [['task', 'note', 'base/T1', '--as', 'codex', '--input', 'a.json', '--input', 'b.json'], '--input', '"a.json" and "b.json"'],
    ] as const) {
      const error = await refused([...args], 2, 'USAGE');
      expect(error.message, args.join(' ')).toBe(`${flag} is given twice, with different values: ${values}.`);
      expect(error.next_step).toBe(`Give ${flag} once, with the value you mean.`);
    }
    const human = await cli(dir, ['task', 'add', 'base', '--as', 'codex', '--title', 'Twice', '--title', 'Twice', '--depends', 'T1', '--depends', 'T2', '--json']);
    expect(human.code, human.stdout).toBe(0);
    expect(human.json.data.task).toMatchObject({ title: 'Twice', depends: ['T1', 'T2'] });
    await ok(dir, ['task', 'rm', human.json.data.task.task_id]); // a person's: codex did not write the list
  });

  it('names the id that was not found', async () => {
    expect((await refused(['task', 'done', 'base/T99', '--as', 'codex'], 1, 'TASK_NOT_FOUND')).message).toContain('base/T99');
    expect((await refused(['task', 'rm', 'nope/T1', '--as', 'codex'], 1, 'CHANGE_NOT_FOUND')).message).toContain('nope');
  });

  it('refuses a --since that reaches back further than a date can as invalid input, not an internal error', async () => {
    expect((await refused(['log', '--since', '999999999d'], 2, 'INVALID_INPUT')).message).toBe('Invalid input: --since: "999999999d" reaches back further than a date can; give a shorter duration (30m, 2h, 7d) or an ISO date.');
  });

  it('reads a list flag written as a JSON list, as the help writes its examples, as its items; one that does not parse is refused', async () => {
    const added = await ok(dir, ['task', 'add', 'base', '--as', 'codex', '--title', 'Listed', '--skills', '["sql", "go"]', '--requirements', '["R1"]']);
    expect(read(dir, 'agentd/changes/base/tasks.md')).toContain(`## ${added.task.id}: Listed\n\n\`\`\`yaml\nstatus: todo\npriority: medium\nskills: [sql, go]\nrequirements: [R1]\n`);
    await ok(dir, ['task', 'rm', added.task.task_id]);
    const error = await refused(['task', 'add', 'base', '--as', 'codex', '--title', 'Listed', '--skills', '["sql"'], 2, 'USAGE');
    expect(error.message).toBe('--skills ["sql" is neither a JSON list of strings nor a comma-separated list.');
    expect(error.next_step).toContain(`--skills a,b`);
    await refused(['task', 'add', 'base', '--as', 'codex', '--title', 'Listed', '--depends', '[1]'], 2, 'USAGE');
  });

  it('refuses init --root at a file or a folder that does not exist, saying which, and writes nothing', async () => {
    const place = tempDir();
    const file = write(place, 'a-file', 'x');
    const before = snapshot(place);
    const onFile = await cli(place, ['init', '--root', file, '--json']);
    expect(onFile.code).toBe(1);
    expect(onFile.json.error).toEqual({ code: 'NOT_A_FOLDER', message: `--root ${file} is a file, not a folder, so no board was made there; nothing was changed.`, next_step: 'Give --root the folder (your repository root) to make the board in.' });
    const missing = join(place, 'not-here');
    const onNothing = await cli(place, ['init', '--root', missing, '--json']);
    expect(onNothing.code).toBe(1);
    expect(onNothing.json.error.code).toBe('NOT_A_FOLDER');
    expect(onNothing.json.error.next_step).toContain(`mkdir -p ${missing}`);
    expect(snapshot(place)).toEqual(before);
  });

  it.each([
    ['human:two\nlines', "a person's name is a single line"],
    ['human:a\ttab', "a person's name holds a tab; write spaces"],
    ['human:a\u2028b', "a person's name holds U+2028, a line separator, at character 2; a one-line field is a single line"],
    ['human:zero\u200Bwidth', "a person's name holds U+200B, an invisible zero-width space, at character 5; send the text without it"],
  ])('refuses a person at a terminal whose --as name %j is not one line that reads, writing no author line with it', async (as, problem) => {
    const before = snapshot(dir);
    const r = await cli(dir, ['new', 'named-by-person', '--as', as, '--json'], { interactive: true, env: { AGENTBOARD_PERSON_KEY: '' } });
    expect(r.code, r.stdout).toBe(2);
    expect(r.json.error.message).toBe(`Invalid input: --as: ${problem}.`);
    expect(snapshot(dir)).toEqual(before);
  });

  it('reads what follows -- as arguments only: a note reading --json is written as text, and the answer is not JSON', async () => {
    const r = await cli(dir, ['task', 'note', 'base/T2', '--', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toBeUndefined();
    expect(r.stdout).toMatch(/^base\/T2 {2}\[todo\] Two/);
    expect(read(dir, 'agentd/changes/base/tasks.md')).toContain('text: "--json"');
  });

  it('refuses --input - and --from - together: standard input is read once', async () => {
    const error = await refused(['propose', 'from-stdin', '--as', 'codex', '--input', '-', '--from', '-'], 2, 'USAGE', '{"notes": "n"}');
    expect(error.message).toBe('--input - and --from - both read standard input, which is read only once.');
  });

  it('says why a file given to --input or --from cannot be read: a folder, or no path at all', async () => {
    expect((await refused(['propose', 'unread', '--as', 'codex', '--from', dir], 2, 'USAGE')).message).toBe(`Cannot read ${dir}: it is a folder, not a file.`);
    expect((await refused(['task', 'add', '--as', 'codex', '--input', ''], 2, 'USAGE')).message).toBe('--input is empty: it names no file.');
  });

  it('refuses an empty --root rather than reading it as this folder', async () => {
    expect((await refused(['list', '--root', ''], 2, 'USAGE')).message).toBe('--root is empty: it names no folder.');
    expect((await refused(['new', 'rooted', '--as', 'codex', '--root', ' '], 2, 'USAGE')).message).toBe('--root is empty: it names no folder.');
  });

  it('names the value an id check refused, in words that read', async () => {
    expect((await refused(['answer', 'nope', 'yes'], 2, 'INVALID_INPUT')).message).toBe('Invalid input: <input_id>: "nope" is not an input id like "input-3".');
    expect((await refused(['reviewer', 'add', ''], 2, 'INVALID_INPUT')).message).toBe('Invalid input: <name>: a reviewer name has 1 to 64 characters.');
  });
});

describe('hand edits', () => {
  it('are read back; a file that does not parse is reported with its line and never rewritten until it is fixed', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'edit', [{ title: 'One' }, { title: 'Two' }]);
    const path = 'agentd/changes/edit/tasks.md';
    // a person edits a title and adds a note by hand
    write(dir, path, read(dir, path).replace('## T2: Two', '## T2: Two, renamed by hand'));
    expect((await ok(dir, ['task', 'show', 'edit/T2'])).task.title).toBe('Two, renamed by hand');
    // then breaks the YAML of T1
    const broken = read(dir, path).replace('status: todo', 'status: [unclosed');
    write(dir, path, broken);
    const line = broken.split('\n').indexOf('status: [unclosed') + 1;
    const v = await cli(dir, ['validate', 'edit', '--json']);
    expect(v.code).toBe(1);
    const finding = v.json.data.changes[0].findings.find((f: any) => f.rule === 'tasks.meta.yaml');
    expect(finding).toMatchObject({ level: 'error', file: path });
    expect(finding.line).toBeGreaterThanOrEqual(line);
    const before = snapshot(dir);
    const r = await cli(dir, ['task', 'done', 'edit/T1', '--as', 'codex', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('PARSE_ERROR');
    expect(r.json.error.message).toContain(`${path}:`);
    expect(snapshot(dir)).toEqual(before);
    // not even for another task of the file: a person may be half-way through saving it
    expect((await cli(dir, ['task', 'done', 'edit/T2', '--as', 'codex', '--json'])).json.error.code).toBe('PARSE_ERROR');
    expect(snapshot(dir)).toEqual(before);
    // Reads go on without the task they cannot read, and say so.
    const said = `${path} has errors: what cannot be read of it is left out (\`agentboard validate edit\` lists every problem, with its line).`;
    for (const args of [['task', 'list', '--change', 'edit'], ['list'], ['status']]) {
      const r = await cli(dir, [...args, '--json']);
      expect(r.json.notices, args.join(' ')).toEqual([said]);
      expect((await cli(dir, args)).stderr, args.join(' ')).toContain(`note: ${said}`);
    }
    expect((await ok(dir, ['task', 'list', '--change', 'edit'])).tasks.map((t: any) => t.task_id)).toEqual(['edit/T2']);
    // once the person's save is whole, work goes on, and their renamed title is kept
    write(dir, path, broken.replace('status: [unclosed', 'status: todo'));
    expect((await ok(dir, ['task', 'done', 'edit/T2', '--as', 'codex'])).task.status).toBe('done');
    expect((await ok(dir, ['task', 'show', 'edit/T2'])).task.title).toBe('Two, renamed by hand');
  });

  it('name the lines of the file in their messages, not lines counted from the end of the frontmatter', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'twice', [{ title: 'One' }, { title: 'Two' }]);
    const edits = [
      ['tasks.md', '\n## T1: Again\n\n```yaml\nstatus: todo\npriority: medium\n```\n', '## T1: One', 'tasks.id.duplicate', (line: number) => `task id "T1" is used twice (first on line ${line})`],
      ['proposal.md', '\n## Why\n\nOnce more, because the first one was not enough for this change.\n', '## Why', 'proposal.section.twice', (line: number) => `section "Why" appears twice (first on line ${line})`],
      ['spec.md', '\n## Overview\n\nA second overview of the board, long enough to be read as one.\n', '## Overview', 'spec.section.twice', (line: number) => `section "Overview" repeats one on line ${line}`],
    ] as const;
    for (const [name, added, first, rule, message] of edits) {
      const path = `agentd/changes/twice/${name}`;
      write(dir, path, `${read(dir, path)}${added}`);
      const line = read(dir, path).split('\n').indexOf(first) + 1;
      const findings = (await cli(dir, ['validate', 'twice', '--json'])).json.data.changes[0].findings;
      expect(findings.find((f: any) => f.rule === rule)?.message, name).toBe(message(line));
    }
  });

  it('with a review verdict agentboard does not know keep the change from being archived, naming the verdict line', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'verdict', [{ title: 'One' }]);
    await ok(dir, ['task', 'done', 'verdict/T1', '--as', 'codex']);
    const path = 'agentd/changes/verdict/REVIEW.md';
    const review = (verdict: string) => ok(dir, ['review', 'verdict', '--as', 'gemini', '--verdict', verdict, '--summary', `Reviewed: ${verdict}.`, '--notes', 'n']);
    // the only round, and the latest of two over an approved one: neither is read as an approval or as no review
    await review('APPROVED');
    for (const latest of ['APPROVED', 'NEEDS_FIX']) {
      if (latest === 'NEEDS_FIX') await review('NEEDS_FIX');
      const text = read(dir, path).replace(`# Verdict: ${latest}`, '# Verdict: LGTM');
      write(dir, path, text);
      const line = text.split('\n').indexOf('# Verdict: LGTM') + 1;
      const before = snapshot(dir);
      const r = await cli(dir, ['archive', 'verdict', '--json']);
      expect(r.code, latest).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'ARCHIVE_REFUSED', message: `Change verdict cannot be archived: its review cannot be read (${path}:${line}: unknown verdict "LGTM").` });
      expect(r.json.error.next_step).toBe(`Fix ${path} (use exactly one of: APPROVED, NEEDS_FIX, MAJOR_ISSUES); run \`agentboard validate verdict\` to see every problem.`);
      expect(snapshot(dir)).toEqual(before);
      write(dir, path, text.replace('# Verdict: LGTM', `# Verdict: ${latest}`));
    }
  });

  it('with a YAML bomb are refused with the file, not expanded', async () => {
    const dir = await newBoard();
    await ok(dir, ['new', 'bomb', '--as', 'claude']);
    write(dir, 'agentd/changes/bomb/proposal.md', '---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\n# Proposal: x\n');
    const r = await cli(dir, ['validate', 'bomb', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.data.changes[0].findings[0]).toMatchObject({ file: 'agentd/changes/bomb/proposal.md', rule: 'frontmatter.yaml' });
  });
});

describe('unexpected failures', () => {
  it('print no stack trace unless --debug is given', async () => {
    const dir = await newBoard();
    // a failure agentboard does not expect, injected in the middle of a commit
    const boom = { AGENTBOARD_TEST_FAULT: 'throw:commit:staged' };
    const r = await cli(dir, ['new', 'boom', '--as', 'claude'], { env: boom });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: agentboard hit an unexpected internal error.');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const d = await cli(dir, ['new', 'boom', '--as', 'claude', '--debug'], { env: boom });
    expect(d.stderr).toMatch(/\n\s+at /);
    expect((await ok(dir, ['list'])).changes).toEqual([]);
  });
});

describe('validate', () => {
  it('exits 0 when valid, and --strict fails on warnings', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'warn', [{ title: 'One' }]);
    expect((await cli(dir, ['validate'])).code).toBe(0);
    const path = 'agentd/changes/warn/spec.md';
    write(dir, path, read(dir, path).replace('The board MUST hand', 'The board should hand'));
    const loose = await cli(dir, ['validate', '--json']);
    expect(loose.code).toBe(0);
    expect(loose.json.data.warnings).toBe(1);
    const strict = await cli(dir, ['validate', '--strict', '--json']);
    expect(strict.code).toBe(1);
    const f = strict.json.data.changes[0].findings[0];
    expect(f).toMatchObject({ level: 'warning', file: path, rule: 'spec.requirement.normative_weak' });
    expect(read(dir, path).split('\n')[f.line - 1]).toBe('### R1: Claims');
  });
});

describe('lengths', () => {
  it('are counted in characters as JSON Schema counts them: an emoji is one, in the limit and in the message', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'emoji', [{ title: 'One' }]);
    const title = '😀'.repeat(200);
    const added = await ok(dir, ['task', 'add', 'emoji', '--as', 'codex', '--title', title, '--description', `${'é'.repeat(1000)}${'😀'.repeat(1000)}`]);
    expect(added.task.title).toBe(title);
    expect(read(dir, 'agentd/changes/emoji/tasks.md')).toContain(`## T2: ${title}\n`);
    expect((await ok(dir, ['validate', 'emoji'])).valid).toBe(true);
    const before = snapshot(dir);
    const refused = await cli(dir, ['task', 'add', 'emoji', '--as', 'codex', '--title', '😀'.repeat(201), '--json']);
    expect(refused.json.error.message).toBe('Invalid input: --title has 201 characters; at most 200 are allowed.');
    const over = await cli(dir, ['task', 'add', 'emoji', '--as', 'codex', '--title', 'ok', '--description', '😀'.repeat(2001), '--json']);
    expect(over.json.error.message).toBe('Invalid input: --description has 2001 characters; at most 2000 are allowed.');
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('config.yaml errors', () => {
  const AGENTS = 'require_approval: []\nagents:\n  claude: { adapter: claude }\n  codex:\n    adapter: codex\n';
  /** Each broken config.yaml, the line the error must name (the first line holding `at`), and what the error says. */
  const CASES: { config: string; at: string; message: string; next: string }[] = [
    { config: `${AGENTS}  gemini:\n    adapter: gemini\n    modle: x\nrun:\n  planner: claude\n`, at: '    modle: x', message: 'unknown setting "agents.gemini.modle"', next: 'known settings of agents.gemini: adapter, command, model, args and env' },
    { config: `${AGENTS}  gemini:\n    adapter: gemini\n    model: ""\n`, at: '    model: ""', message: '"agents.gemini.model": must be at least 1 character long, not the text "".', next: 'known settings of agents.gemini:' },
    { config: `${AGENTS}  Gem_Ini:\n    adapter: gemini\n`, at: '  Gem_Ini:', message: '"agents.Gem_Ini": agent names are lowercase letters', next: 'rename "agents.Gem_Ini" to follow that rule' },
    { config: `${AGENTS}  gemini:\n    adapter: gemini\n    command: [gemini]\n`, at: '  gemini:', message: '"agents.gemini": give an agent either adapter', next: 'known settings of agents.gemini:' },
    { config: `${AGENTS}  gemini:\n    adapter: gemini\n    env:\n      OK: a\n      bad-key: b\n`, at: '      bad-key: b', message: '"agents.gemini.env.bad-key": environment variable names are letters', next: 'rename "agents.gemini.env.bad-key"' },
    { config: `${AGENTS}run:\n  workers:\n    - claude\n    - Codex\n`, at: '    - Codex', message: '"run.workers.1": agent names are lowercase letters', next: 'known settings of run: planner, reviewer, workers, worktrees and max_review_rounds' },
    { config: `${AGENTS}review:\n  allow_self_review: maybe\n`, at: '  allow_self_review: maybe', message: '"review.allow_self_review": must be true or false, not the text "maybe".', next: 'known settings of review: allow_self_review' },
    { config: `${AGENTS}stale_claim_minutes: 0\n`, at: 'stale_claim_minutes: 0', message: '"stale_claim_minutes": must be at least 1, not the number 0.', next: 'known settings: project, remote, require_approval, stale_claim_minutes, input_timeout_minutes, agents, run and review' },
    { config: `${AGENTS}  gemini: { adapter: gemni }\n`, at: '  gemini: { adapter: gemni }', message: '"agents.gemini.adapter": must be claude, codex or gemini, not the text "gemni".', next: 'known settings of agents.gemini:' },
    { config: `${AGENTS}run:\n  workers: claude\n`, at: '  workers: claude', message: '"run.workers": must be a list ([a, b]), not the text "claude".', next: 'known settings of run:' },
    { config: `${AGENTS}run:\n  workers: []\n`, at: '  workers: []', message: '"run.workers": must list at least 1 item, not 0.', next: 'known settings of run:' },
    { config: 'agents: claude\n', at: 'agents: claude', message: '"agents": must be a map of names to settings (name: { … }), not the text "claude".', next: 'known settings: project,' },
    { config: `${AGENTS}run: [claude]\n`, at: 'run: [claude]', message: '"run": must be a map of settings (key: value), not a list.', next: 'known settings of run:' },
    { config: `${AGENTS}colour: red\n`, at: 'colour: red', message: 'unknown setting "colour"', next: 'known settings: project,' },
    { config: `${AGENTS}  fake: {}\n`, at: '  fake: {}', message: '"agents.fake": an agent needs either adapter (claude, codex or gemini) or command (the program to start, as a list), and this one has neither.', next: 'known settings of agents.fake: adapter, command,' },
    { config: `${AGENTS}---\nproject: y\n`, at: '---', message: 'a second YAML document starts at this --- line, and the file must hold one document only', next: 'Fix the YAML in agentd/config.yaml.' },
  ];

  it.each(CASES.map((c, i) => [i, c] as const))('name the line of the offending key or value (%i)', async (_, c) => {
    const dir = await newBoard();
    write(dir, 'agentd/config.yaml', c.config);
    const line = c.config.split('\n').indexOf(c.at) + 1;
    const before = snapshot(dir);
    const r = await cli(dir, ['list', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('CONFIG_INVALID');
    expect(r.json.error.message).toMatch(new RegExp(`^agentd/config\\.yaml:${line}: `));
    expect(r.json.error.message).toContain(c.message);
    expect(r.json.error.next_step).toContain(c.next);
    expect(snapshot(dir)).toEqual(before);
  });

  it('a NUL byte in config.yaml is named at its line, with advice for the file it is in', async () => {
    const dir = await newBoard();
    write(dir, 'agentd/config.yaml', 'require_approval: []\nproject: a\0b\n');
    const before = snapshot(dir);
    const r = await cli(dir, ['list', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({
      code: 'PARSE_ERROR',
      message: 'agentd/config.yaml:2: the file holds binary data (a NUL byte), not text.',
      next_step: 'Take the binary data out of line 2 of agentd/config.yaml, or, when it is committed, restore it from git (git checkout -- agentd/config.yaml).',
      details: { line: 2 },
    });
    expect(snapshot(dir)).toEqual(before);
  });

  it('people.yaml errors name their line too', async () => {
    const dir = await newBoard();
    const people = read(dir, 'agentd/people.yaml');
    write(dir, 'agentd/people.yaml', `${people}  - name: bob\n    key_sha256: ${'b'.repeat(64)}\n    added: 2026-11-22T00:00:00.000Z\n`);
    const line = read(dir, 'agentd/people.yaml').split('\n').indexOf('  - name: bob') + 1;
    const r = await cli(dir, ['approve', 'add-search', 'proposal', '--json']);
    expect(r.json.error.code).toBe('CONFIG_INVALID');
    expect(r.json.error.message).toBe(`agentd/people.yaml:${line}: "people.1.name": must be human:<name>.`);
    write(dir, 'agentd/people.yaml', `${people}  - name: human:bob\n    key_sha256: 12\n    added: 2026-11-22T00:00:00.000Z\n`);
    const wrong = await cli(dir, ['approve', 'add-search', 'proposal', '--json']);
    expect(wrong.json.error.message).toBe(`agentd/people.yaml:${line + 1}: "people.1.key_sha256": must be text, not the number 12.`);
  });
});

describe('a task list written again', () => {
  it('says which statuses its tasks did not take, with the call that moves the task, on the command line and over MCP alike', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'again', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['task', 'done', 'again/T2', '--as', 'worker-1']);
    await ok(dir, ['reject', 'again', 'tasks', '--feedback', 'Add a third task.']);
    const list = { tasks: [{ id: 'T1', title: 'One', status: 'done' }, { id: 'T2', title: 'Two', status: 'todo' }, { title: 'Three', status: 'done' }], notes: 'n' };
    const r = await ok(dir, ['tasks', 'again', '--as', 'planner', '--input', write(dir, 'again.json', JSON.stringify(list))]);
    expect(r.warnings).toEqual([
      { level: 'warning', file: 'agentd/changes/again/tasks.md', rule: 'tasks.status.kept', message: 'tasks[0]: status done was not taken: task T1 keeps its state (todo) when its list is written again', fix: 'move the task itself with `agentboard task done again/T1 --as planner`' },
      { level: 'warning', file: 'agentd/changes/again/tasks.md', rule: 'tasks.status.kept', message: 'tasks[1]: status todo was not taken: task T2 keeps its state (done) when its list is written again', fix: 'move the task itself with `agentboard task update again/T2 --status todo --as planner`' },
      // A new task written done (work already finished) goes to no agent and no review: said, and logged as the planner's.
      { level: 'warning', file: 'agentd/changes/again/tasks.md', rule: 'tasks.status.done', message: 'task T3 is done as written, by you: no agent claims it and no review checks it', fix: 'leave "status" out for work still to do; give "done" only to work already finished' },
    ]);
    const tasks = (await ok(dir, ['task', 'list', '--change', 'again'])).tasks;
    expect(tasks.map((t: any) => [t.id, t.status, t.assignee])).toEqual([['T1', 'todo', null], ['T2', 'done', 'worker-1'], ['T3', 'done', 'planner']]);
    expect((await ok(dir, ['log', '--actor', 'planner'])).entries.filter((e: any) => e.action === 'task.done').map((e: any) => e.target)).toEqual(['again/T3']);

    await ok(dir, ['reject', 'again', 'tasks', '--feedback', 'Once more.']);
    const mcp = await connect(dir);
    const over = await mcp.call('agentboard_create_tasks', { agent_id: 'planner', change_id: 'again', ...list });
    await mcp.close();
    expect(over.isError, over.text).toBe(false);
    // T3 is done already this time: the statuses not taken are the same, and no task is made done.
    expect(over.data.warnings.map((w: any) => [w.rule, w.message])).toEqual(r.warnings.slice(0, 2).map((w: any) => [w.rule, w.message]));
    expect(over.data.warnings[0].fix).toBe('move the task itself with agentboard_complete_task {"agent_id":"planner","task_id":"again/T1"}');
  });

  it("tells a run's planner, which moves no task, who moves it", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'again', [{ title: 'One' }, { title: 'Two' }]);
    await ok(dir, ['task', 'done', 'again/T2', '--as', 'worker-1']);
    await ok(dir, ['reject', 'again', 'tasks', '--feedback', 'Add a third task.']);
    const env = { AGENTBOARD_RUN_ID: 'run-1', AGENTBOARD_AGENT_ID: 'plan-1', AGENTBOARD_ROLE: 'planner', AGENTBOARD_CHANGE_ID: 'again', AGENTBOARD_PHASE: 'tasks' };
    const list = { tasks: [{ id: 'T1', title: 'One', status: 'done' }, { id: 'T2', title: 'Two', status: 'todo' }], notes: 'n' };
    const r = await cli(dir, ['tasks', 'again', '--input', write(dir, 'again.json', JSON.stringify(list)), '--json'], { env });
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.data.warnings.map((w: any) => [w.rule, w.fix])).toEqual([
      ['tasks.status.kept', "the task's own calls move it: a worker's as it takes the task and works on it, or a person's, `agentboard task update again/T1 --status done --as human:<name>`"],
      ['tasks.status.kept', 'only a person moves it, with `agentboard task update again/T2 --status todo --as human:<name>`'],
    ]);
    // What the old advice named is refused to this planner.
    expect((await cli(dir, ['task', 'done', 'again/T1', '--json'], { env })).json.error.code).toBe('ROLE_REFUSED');
  });
});
