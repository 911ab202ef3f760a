/**
 * Text on the board: control characters (but tab and line ends) and bidi overrides are refused in
 * every field of every operation, through the CLI and MCP, and reported with file and line in
 * hand-edited files; bytes that are not UTF-8 are never silently rewritten.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/ops/index.js';
import { parseInput } from '../../src/ops/input.js';
import { AgentboardError } from '../../src/errors.js';
import { changeWithTasks, cli, newBoard, ok, read, snapshot, write } from '../helpers.js';
import { connect } from '../mcp/helpers.js';

const UNSAFE = [
  ['\u202E', 'U+202E'], // right-to-left override
  ['\u2066', 'U+2066'], // left-to-right isolate
  ['\u009B', 'U+009B'], // C1: control sequence introducer
  ['\u001B', 'U+001B'], // C0: escape
  ['\u0007', 'U+0007'], // C0: bell
  ['\u007F', 'U+007F'], // delete
] as const;

function refusal(fn: () => unknown): AgentboardError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AgentboardError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('every field of every operation', () => {
  it('refuses control characters and bidi overrides, naming the field and the character', () => {
    let fields = 0;
    for (const op of OPERATIONS) {
      for (const field of Object.keys(op.input.shape)) {
        for (const [char, code] of UNSAFE) {
          const err = refusal(() => parseInput(op.input, { [field]: `before${char}after` }));
          expect(err.code, `${op.name} ${field}`).toBe('INVALID_INPUT');
          expect(err.message, `${op.name} ${field}`).toContain(`${field} holds ${code}`);
        }
        const nested = refusal(() => parseInput(op.input, { [field]: ['fine', { deeper: `x\u202Ey` }] }));
        expect(nested.message).toContain(`${field}[1].deeper holds U+202E`);
        fields++;
      }
    }
    expect(fields).toBeGreaterThan(150);
  });
});

describe('through the CLI and MCP', () => {
  it('refuses each character in titles, notes and questions, and changes nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'safe', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'w1']);
    const before = snapshot(dir);
    const mcp = await connect(dir);
    for (const [char, code] of UNSAFE) {
      for (const args of [
        ['task', 'add', 'safe', '--title', `Evil ${char} title`],
        ['task', 'note', 'safe/T1', `a note ${char}`],
        ['ask', '--question', `Drop the table?${char}`, '--default-action', 'no'],
      ]) {
        const r = await cli(dir, [...args, '--as', 'w1', '--json']);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.json.error.code).toBe('INVALID_INPUT');
        expect(r.json.error.message).toContain(code);
      }
      const viaMcp = await mcp.call('agentboard_add_note', { agent_id: 'w1', task_id: 'safe/T1', text: `a note ${char}` });
      expect(viaMcp.error).toMatchObject({ code: 'INVALID_INPUT' });
      expect(viaMcp.error!.message).toContain(`text holds ${code}`);
    }
    await mcp.close();
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses an --input, --from or standard input that is not UTF-8 text, naming the file and line, and writes nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bytes', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'w1']);
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    writeFileSync(join(dir, 'note.json'), latin1('{\n"text": "caf\u00e9"}'));
    const spec = read(dir, 'agentd/changes/bytes/spec.md').replace(/^---[^]*?---\n/, '');
    writeFileSync(join(dir, 'spec.md'), latin1(spec.replace('## Overview', '## Overview \u00e9')));
    const specLine = spec.split('\n').indexOf('## Overview') + 1;
    writeFileSync(join(dir, 'nul.md'), Buffer.from('# Spec\n\nbinary\u0000data\n'));
    const before = snapshot(dir);
    for (const [args, stdin, shown] of [
      [['task', 'note', 'bytes/T1', '--input', 'note.json'], undefined, 'note.json:2: --input holds bytes that are not UTF-8 text'],
      [['task', 'note', 'bytes/T1', '--input', '-'], latin1('{"text": "caf\u00e9"}'), 'standard input:1: --input holds bytes that are not UTF-8 text'],
      [['spec', 'bytes', '--from', 'spec.md', '--notes', 'n'], undefined, `spec.md:${specLine}: --from holds bytes that are not UTF-8 text`],
      [['spec', 'bytes', '--from', '-', '--notes', 'n'], latin1(spec.replace('## Overview', '## Overview \u00e9')), `standard input:${specLine}: --from holds bytes`],
      [['spec', 'bytes', '--from', 'nul.md', '--notes', 'n'], undefined, 'nul.md:3: --from holds binary data (a NUL byte), not text'],
    ] as const) {
      const r = await cli(dir, [...args, '--as', 'w1', '--json'], stdin === undefined ? {} : { stdin });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.json.error.code).toBe('INVALID_INPUT');
      expect(r.json.error.message).toContain(shown);
      expect(snapshot(dir)).toEqual(before);
    }
    expect(read(dir, 'agentd/changes/bytes/tasks.md')).not.toContain('\uFFFD');
  });

  it('keeps tab and line ends where a field allows them, and the marks right-to-left writing needs', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'safe', [{ title: 'One' }]);
    await ok(dir, ['next', '--as', 'w1']);
    await ok(dir, ['task', 'note', 'safe/T1', 'col\tumn\nsecond line \u05E9\u05DC\u05D5\u05DD\u200F.', '--as', 'w1']);
    const notes = (await ok(dir, ['task', 'show', 'safe/T1'])).task.notes;
    expect(notes.at(-1).text).toBe('col\tumn\nsecond line \u05E9\u05DC\u05D5\u05DD\u200F.');
    const r = await cli(dir, ['task', 'add', 'safe', '--title', 'two\nlines', '--as', 'w1', '--json']);
    expect(r.json.error.message).toContain('title must be a single line');
  });
});

describe('one-line fields (titles, names)', () => {
  it('refuse line separators and invisible characters, naming the character and where it is, through the CLI and MCP; the joiners of emoji and of scripts pass', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'titles', [{ title: 'One' }]);
    const before = snapshot(dir);
    const mcp = await connect(dir);
    for (const [title, shown] of [
      ['Two\u2028lines', 'holds U+2028, a line separator, at character 4; a one-line field is a single line'],
      ['Two\u2029paragraphs', 'holds U+2029, a paragraph separator, at character 4; a one-line field is a single line'],
      ['\u200B', 'holds U+200B, an invisible zero-width space, at character 1; send the text without it'],
      ['On\u200Be', 'holds U+200B, an invisible zero-width space, at character 3; send the text without it'],
      ['\uFEFFOne', 'holds U+FEFF, an invisible byte order mark, at character 1; send the text without it'],
      ['One\u200D', 'holds U+200D, an invisible zero-width joiner that joins nothing, at character 4; send the text without it'],
      ['One \u200C two', 'holds U+200C, an invisible zero-width non-joiner that joins nothing, at character 5; send the text without it'],
      ['Fi\u200Dx bug', 'holds U+200D, an invisible zero-width joiner that joins nothing, at character 3; send the text without it'],
      ['Fix\u2060bug', 'holds U+2060, an invisible word joiner, at character 4; send the text without it'],
      ['Fix\u00ADbug', 'holds U+00AD, an invisible soft hyphen, at character 4; send the text without it'],
      ['a\u2062b', 'holds U+2062, an invisible times sign, at character 2; send the text without it'],
      ...['\u200E', '\u3164', '\u2800', '\uFE0F', '\u0301\u0301', ' \u115F '].map((blank) => [blank, 'holds only characters that show nothing (spaces, marks, invisible or blank characters); write text that reads']),
    ]) {
      const r = await cli(dir, ['task', 'add', 'titles', '--title', title!, '--as', 'planner', '--json']);
      expect(r.code, JSON.stringify(title)).toBe(2);
      expect(r.json.error.message).toBe(`Invalid input: --title ${shown}.`);
      const viaMcp = await mcp.call('agentboard_add_task', { agent_id: 'planner', change_id: 'titles', title });
      expect(viaMcp.error!.message).toBe(`Invalid input: title ${shown}.`);
    }
    const list = await cli(dir, ['tasks', 'titles', '--as', 'planner', '--input', '-', '--json'], { stdin: JSON.stringify({ tasks: [{ title: 'One' }, { title: 'Tw\u200Bo' }], notes: 'n' }) });
    expect(list.json.error.message).toContain('tasks[1].title holds U+200B, an invisible zero-width space, at character 3');
    expect(snapshot(dir)).toEqual(before);
    for (const title of ['\u{1F469}\u200D\u{1F4BB} Dev setup', '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645', '\u2764\uFE0F Fix', 'Cafe\u0301', '\u200F\u05E9\u05DC\u05D5\u05DD']) {
      const added = await mcp.call('agentboard_add_task', { agent_id: 'planner', change_id: 'titles', title });
      expect(added.isError, added.text).toBe(false);
      expect((await ok(dir, ['task', 'show', added.data.task.task_id])).task.title).toBe(title);
    }
    await mcp.close();
  });
});

describe('a hand-edited file', () => {
  it('with a bidi override or a control character is reported with file and line, never written over, and none of its tasks handed out', async () => {
    for (const [char, code] of UNSAFE) {
      const dir = await newBoard();
      await changeWithTasks(dir, 'edited', [{ title: 'One' }, { title: 'Two' }]);
      const file = 'agentd/changes/edited/tasks.md';
      const text = read(dir, file).replace('## T2: Two', `## T2: Two ${char}moc.exe`);
      write(dir, file, text);
      const line = text.split('\n').findIndex((l) => l.includes(char)) + 1;

      const v = await cli(dir, ['validate', 'edited', '--json']);
      expect(v.code).toBe(1);
      expect(v.json.data.changes[0].findings).toContainEqual(expect.objectContaining({ level: 'error', file, line, rule: 'text.unsafe_character', message: expect.stringContaining(code) }));

      const next = await ok(dir, ['next', '--as', 'w1']);
      expect(next).toMatchObject({ status: 'nothing_available', reasons: { broken_task_lists: ['edited'] } });
      expect(next.message).toContain('has errors');

      const note = await cli(dir, ['task', 'note', 'edited/T1', 'A note', '--as', 'human:tester', '--json']);
      expect(note.json.error).toMatchObject({ code: 'PARSE_ERROR' });
      expect(note.json.error.message).toContain(`${file}:${line}`);
      expect(read(dir, file)).toBe(text);
    }
  });

  it('with an invisible character in a task title, which a command would refuse, is warned of with its line; its tasks still go out', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'edited', [{ title: 'One' }, { title: 'Two' }]);
    const file = 'agentd/changes/edited/tasks.md';
    const text = read(dir, file).replace('## T2: Two', '## T2: Do\u200Bcs');
    write(dir, file, text);
    const line = text.split('\n').findIndex((l) => l.includes('\u200B')) + 1;
    const v = await cli(dir, ['validate', 'edited', '--json']);
    expect(v.code).toBe(0);
    expect(v.json.data.changes[0].findings).toContainEqual(expect.objectContaining({ level: 'warning', file, line, rule: 'tasks.title.text', message: 'the title of task T2 holds U+200B, an invisible zero-width space, at character 3' }));
    expect((await ok(dir, ['next', '--as', 'w1'])).status).toBe('assigned');
  });

  it('with bytes that are not UTF-8 in one task keeps every byte and refuses a note on another task', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'bytes', [{ title: 'One' }, { title: 'Two', description: 'Caf\u00e9 menu' }]);
    const path = join(dir, 'agentd/changes/bytes/tasks.md');
    const original = readFileSync(path);
    const at = original.indexOf(Buffer.from('Caf\u00e9'));
    const broken = Buffer.concat([original.subarray(0, at + 3), Buffer.from([0xe9]), original.subarray(at + 5)]); // Latin-1 é
    writeFileSync(path, broken);
    const line = broken.subarray(0, at).toString('latin1').split('\n').length;

    const r = await cli(dir, ['task', 'note', 'bytes/T1', 'A note', '--as', 'human:tester', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('PARSE_ERROR');
    expect(r.json.error.message).toContain(`agentd/changes/bytes/tasks.md:${line}`);
    expect(readFileSync(path).equals(broken)).toBe(true);

    const v = await cli(dir, ['validate', '--all', '--json']);
    expect(v.code).toBe(1);
    expect(JSON.stringify(v.json)).toContain(`tasks.md:${line}`);
    expect(readFileSync(path).equals(broken)).toBe(true);
  });
});

describe('a title edited by hand with a terminal escape in it', () => {
  it('is shown on the terminal with the escape as "?", and in --json as it is, escaped by JSON', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'escapes', [{ title: 'One' }]);
    const path = 'agentd/changes/escapes/tasks.md';
    write(dir, path, read(dir, path).replace('## T1: One', '## T1: One \u001b]0;pwned\u0007 more'));
    const text = await cli(dir, ['task', 'list', '--change', 'escapes']);
    expect(text.stdout).not.toMatch(/[\u001b\u0007]/);
    expect(text.stdout).toContain('One ?]0;pwned? more');
    const json = await cli(dir, ['task', 'list', '--change', 'escapes', '--json']);
    expect(json.json.data.tasks[0].title).toBe('One \u001b]0;pwned\u0007 more');
  });
});
