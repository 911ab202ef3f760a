import { describe, expect, it } from 'vitest';
import { emitYaml, emitYamlCommented, fastParse, parseYaml, slowParse, yamlComments, YamlError, yamlInteger } from '../../src/store/yaml-lite.js';
import { HOSTILE_LINES, rng } from '../random.js';

const STRINGS = [
  '',
  'plain',
  'with space',
  'T1',
  '1.1',
  '007',
  '12',
  '-3',
  'true',
  'False',
  'null',
  '~',
  'yes',
  '0x1F',
  '.inf',
  '1e5',
  '2026-11-22T03:00:00.000Z',
  'a: b',
  'a #b',
  '#comment',
  '- dash',
  '@at',
  '`tick`',
  '"quoted"',
  "it's",
  'line\nbreak',
  'tab\there',
  'ünïcödé',
  '🎉',
  'back\\slash',
  '[x]',
  '{x}',
  'a,b',
  ...HOSTILE_LINES,
];

describe('yaml-lite', () => {
  it('reads back exactly what it writes, and agrees with the full YAML parser', async () => {
    const r = rng(1);
    for (let i = 0; i < 500; i++) {
      const map: Record<string, any> = {};
      const keys = 1 + r.int(6);
      for (let k = 0; k < keys; k++) {
        const kind = r.int(6);
        const key = `k${k}_${r.pick(['a', 'b', 'c'])}`;
        if (kind === 0) map[key] = r.pick(STRINGS);
        else if (kind === 1) map[key] = r.int(1000) - 500;
        else if (kind === 2) map[key] = r.pick([true, false, null]);
        else if (kind === 3) map[key] = Array.from({ length: r.int(4) }, () => r.pick(STRINGS));
        else if (kind === 4) map[key] = Array.from({ length: 1 + r.int(3) }, () => ({ author: r.pick(STRINGS), at: r.pick(STRINGS), text: r.pick(STRINGS), n: r.int(9) }));
        else map[key] = { inner: r.pick(STRINGS), count: r.int(50) };
      }
      const text = emitYaml(map);
      expect(fastParse(text)).toEqual(map);
      expect(slowParse(text)).toEqual(map);
    }
  });

  it('takes the full parser for hand-written YAML it does not recognise', async () => {
    const text = 'title: hello # trailing comment\nbody: |\n  two\n  lines\nlist:\n  - a\n  - b\n';
    expect(fastParse(text)).toBeNull();
    expect(parseYaml(text)).toEqual({ title: 'hello', body: 'two\nlines\n', list: ['a', 'b'] });
  });

  it('skips full-line comments on the fast path', async () => {
    expect(fastParse('# a comment\nkey: value\n\n# another\nn: 3\n')).toEqual({ key: 'value', n: 3 });
  });

  it('reports the line of a YAML error', async () => {
    try {
      parseYaml('a: 1\nb: [unclosed\nc: 3\n');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(YamlError);
      expect((err as YamlError).line).toBeGreaterThanOrEqual(2);
    }
  });

  it('keeps a number not written as that number is (001, 1.10, 1e3) as the text written, and writes it back so', async () => {
    const text = 'id: 001\nten: 1.10\nbig: 1e3\nhex: 0x1F\nplus: +1\nplain: 12\nhalf: 1.5\nquoted: "12"\ntagged: !!int 010\nlist: [001, 2, 1.10]\n';
    const map = { id: '001', ten: '1.10', big: '1e3', hex: '0x1F', plus: '+1', plain: 12, half: 1.5, quoted: '12', tagged: 10, list: ['001', 2, '1.10'] };
    expect(parseYaml(text)).toEqual(map);
    expect(parseYaml(emitYaml(map))).toEqual(map);
    expect(emitYaml({ id: '001', half: 1.5, huge: 1e21 })).toBe('id: "001"\nhalf: 1.5\nhuge: 1e+21\n');
    expect([yamlInteger('040'), yamlInteger('+3'), yamlInteger(7), yamlInteger('1.10'), yamlInteger('99999999999999999999')]).toEqual([40, 3, 7, '1.10', '99999999999999999999']);
  });

  it('writes what a person added beyond its own shapes (a key with a space, nested maps and lists, `<<`) as YAML that reads back the same', async () => {
    const map = parseYaml('Reviewed by: ana\nbase: &b {owner: team}\n<<: *b\ndeep:\n  a:\n    b: 1\ngrid: [[1, 2]]\nempty: {}\nmixed: [a, {b: c}]\nid: 001\ntext: |-\n  two\n  lines\n');
    expect(map).toEqual({ 'Reviewed by': 'ana', base: { owner: 'team' }, '<<': { owner: 'team' }, deep: { a: { b: 1 } }, grid: [[1, 2]], empty: {}, mixed: ['a', { b: 'c' }], id: '001', text: 'two\nlines' });
    const text = emitYaml(map);
    expect(parseYaml(text)).toEqual(map);
    expect(text).toContain('Reviewed by: ana\n');
    expect(emitYaml({ status: 'todo', notes: [{ author: 'ana', text: 'hi' }] })).toBe('status: todo\nnotes:\n  - author: ana\n    text: hi\n');
  });

  it('refuses duplicate keys', async () => {
    expect(() => parseYaml('a: 1\na: 2\n')).toThrow(YamlError);
  });

  it('refuses a YAML bomb instead of expanding it', async () => {
    const bomb = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    expect(() => parseYaml(bomb)).toThrow(YamlError);
  });
});

describe('comments of a task\'s YAML', () => {
  const text = [
    '# first',
    'status: todo # inline',
    'title: "not # a comment" # but this is',
    'text: |',
    '  # a line of the text',
    '  more',
    'links: [a, "b # c"]',
    'notes:',
    '  # inside the list',
    '  - author: ana # on an item',
    '    text: hi',
    '# after all',
    '',
  ].join('\n');

  it('are found by the lexer: never inside quotes or a block of text; nested ones go with their key', () => {
    expect(yamlComments(text)).toEqual({
      before: { status: ['# first'], notes: ['# inside the list', '# on an item'] },
      inline: { status: '# inline', title: '# but this is' },
      end: ['# after all'],
    });
    expect(yamlComments('status: todo\nlinks: [a, "b#c"]\n')).toBeUndefined();
  });

  it('are written back where they stood, and read back the same; those of a key no longer written go last', () => {
    const comments = yamlComments(text)!;
    const map = { status: 'in_progress', title: 'not # a comment', notes: [{ author: 'ana', text: 'hi' }] };
    const out = emitYamlCommented(map, comments);
    expect(out).toBe(['# first', 'status: in_progress # inline', 'title: "not # a comment" # but this is', '# inside the list', '# on an item', 'notes:', '  - author: ana', '    text: hi', '# after all', ''].join('\n'));
    expect(parseYaml(out)).toEqual(map);
    expect(yamlComments(out)).toEqual(comments);
    const fewer = emitYamlCommented({ title: 'x' }, comments);
    expect(fewer).toBe('title: x # but this is\n# first\n# inside the list\n# on an item\n# inline\n# after all\n');
    expect(parseYaml(fewer)).toEqual({ title: 'x' });
    expect(emitYamlCommented(map, undefined)).toBe(emitYaml(map));
  });
});
