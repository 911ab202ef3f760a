/** How the console shares its rows with a prompt, and which of a prompt's lines it shows. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { columnLayout } from '../../src/tui/console/BoardColumns.js';
import { promptWindow } from '../../src/tui/console/PromptBox.js';
import { shareRows } from '../../src/tui/console/screen.js';
import { asAgent, busyBoard, drawConsole, KEY, selectWaiting, until, type Drawn } from './helpers.js';

let dir: string;
let drawn: Drawn | null = null;

beforeAll(async () => {
  dir = await busyBoard();
  const question = 'The builder reads the whole notes folder into memory; on 10,000 notes that is 3 GB and the benchmark machine has 2 GB. Stream the notes (a day more of work), or benchmark a smaller folder of 2,000 notes?';
  await asAgent(dir, 'mistral', ['ask', '--question', question, '--option', 'stream', '--option', 'smaller folder', '--default-action', 'smaller folder']);
});

afterEach(() => {
  drawn?.close();
  drawn = null;
});

describe('shareRows', () => {
  it('gives the pane every row but the header, the tabs, the footer and the last line when no prompt is open', () => {
    expect(shareRows(24, 0)).toEqual({ chrome: true, pane: 20, prompt: 0 });
  });

  it('gives a prompt the rows it wants, the pane the rest, and never more rows than the terminal has', () => {
    expect(shareRows(24, 7)).toEqual({ chrome: true, pane: 13, prompt: 7 });
    expect(shareRows(12, 9)).toEqual({ chrome: true, pane: 0, prompt: 8 });
    for (const [height, wants] of [[8, 9], [10, 12], [12, 30], [24, 40]]) {
      const r = shareRows(height, wants);
      expect((r.chrome ? 2 : 0) + r.pane + r.prompt + 2).toBe(height);
    }
  });

  it('leaves out the header and the tabs only on a terminal where the prompt would have fewer than six rows', () => {
    expect(shareRows(8, 9)).toEqual({ chrome: false, pane: 0, prompt: 6 });
    expect(shareRows(8, 4)).toEqual({ chrome: true, pane: 0, prompt: 4 });
    expect(shareRows(10, 12)).toEqual({ chrome: true, pane: 0, prompt: 6 });
  });
});

describe('promptWindow', () => {
  it('shows every line when they fit', () => {
    expect(promptWindow({ head: 2, rest: 4, foot: 2, short: 1 }, 10, [2, 2])).toEqual({ head: 2, start: 0, count: 4, short: false });
  });

  it('keeps the head and the foot, and moves the rest so that the focused lines are in view with what comes after them', () => {
    // Head of 2, the question on 2 lines and two options, the keys on 2 lines; 6 rows inside the frame.
    expect(promptWindow({ head: 2, rest: 4, foot: 2 }, 8, [2, 2])).toEqual({ head: 2, start: 2, count: 2, short: false });
    expect(promptWindow({ head: 2, rest: 4, foot: 2 }, 8, [3, 3])).toEqual({ head: 2, start: 2, count: 2, short: false });
    expect(promptWindow({ head: 2, rest: 4, foot: 2 }, 8, [0, 0])).toEqual({ head: 2, start: 0, count: 2, short: false });
  });

  it('takes the short foot when the long one would leave the focus no row under the head', () => {
    expect(promptWindow({ head: 2, rest: 4, foot: 2, short: 1 }, 8, [2, 2])).toEqual({ head: 2, start: 2, count: 2, short: false });
    expect(promptWindow({ head: 2, rest: 4, foot: 2, short: 1 }, 6, [2, 2])).toEqual({ head: 2, start: 2, count: 1, short: true });
  });

  it('never leaves the foot out: the head gives up lines to it and to one line of the focus, and with no focus the rest may have none', () => {
    expect(promptWindow({ head: 4, rest: 3, foot: 2 }, 6, [2, 2])).toEqual({ head: 1, start: 2, count: 1, short: false });
    expect(promptWindow({ head: 2, rest: 3, foot: 2 }, 6, null)).toEqual({ head: 2, start: 0, count: 0, short: false });
  });

  it('shows the start of a focus longer than the rows', () => {
    expect(promptWindow({ head: 1, rest: 6, foot: 1 }, 5, [1, 5])).toEqual({ head: 1, start: 1, count: 1, short: false });
  });
});

describe('the prompts on a small terminal', () => {
  for (const [width, height] of [
    [30, 8],
    [40, 10],
  ] as const) {
    it(`at ${width}×${height}, keeps the keys of a long question and of a decision in view, what they ask cut instead`, async () => {
      const c = (drawn = drawConsole(dir, { width, height }));
      // The lines inside the prompt's frame.
      const prompt = () => {
        const l = c.frame().split('\n');
        return l.slice(l.findIndex((x) => x.startsWith('╭')) + 1, l.findIndex((x) => x.startsWith('╰'))).map((x) => x.slice(1, -1).trim());
      };
      await selectWaiting(c, 'from mistral');
      await c.keys(KEY.enter);
      await until('the question', () => prompt().includes('› 1 stream'));
      expect(prompt()[0]).toMatch(/^mistral asks \(input-2 ·/);
      expect(prompt().at(-1)).toBe('Enter · t type · Esc back');
      await c.keys('j');
      await until('the second option', () => prompt().includes('› 2 smaller folder'));
      expect(prompt().at(-1)).toBe('Enter · t type · Esc back');
      await c.keys('t');
      await c.type('no');
      await until('the answer typed', () => prompt().at(-1) === '› no');
      expect(prompt().at(-2)).toBe('Enter sends · Esc back');
      await c.keys(KEY.esc, KEY.esc);
      await until('the prompt to close', () => !c.frame().includes('╭'));

      await selectWaiting(c, 'the tasks of add-search');
      await c.keys(KEY.enter);
      await until('the decision', () => prompt()[0]?.startsWith('Your decision: the tasks') ?? false);
      expect(prompt().slice(-2).join(' ')).toBe('a approve · r reject with feedback · l later (Esc)');
      await c.keys('r');
      await c.type('no');
      await until('the feedback typed', () => prompt().at(-1) === '› no');
      expect(prompt().at(-2)).toBe('Enter sends · Esc back');
    });
  }
});

describe('a prompt whose lines change', () => {
  it('keeps its size and the footer on the last line when t turns the options into a line to type, and r the choices into feedback', async () => {
    const c = (drawn = drawConsole(dir, { width: 80, height: 24 }));
    // The frame is the terminal's rows but its last: the footer is the frame's last line.
    const lines = () => c.frame().split('\n');
    const bottom = () => lines().findIndex((x) => x.startsWith('╰'));
    await selectWaiting(c, 'from mistral');
    await c.keys(KEY.enter);
    await until('the question', () => c.frame().includes('› 1 stream'));
    const at = bottom();
    expect(lines()).toHaveLength(23);
    await c.keys('t');
    await until('the line to type', () => c.frame().includes('Your answer'));
    expect(lines()).toHaveLength(23);
    expect(bottom()).toBe(at);
    expect(lines()[22]).toContain('Enter send');
    await c.keys(KEY.esc, KEY.esc);

    await selectWaiting(c, 'the tasks of add-search');
    await c.keys(KEY.enter);
    await until('the decision', () => c.frame().includes('Your decision: the tasks'));
    const decision = bottom();
    await c.keys('r');
    await until('the feedback line', () => c.frame().includes('What must change?'));
    expect(lines()).toHaveLength(23);
    expect(bottom()).toBe(decision);
    expect(lines()[22]).toContain('Enter send');
  });
});

describe('a prompt on a terminal made too small for a moment', () => {
  it('comes back as the person left it: the option selected, the answer and the feedback typed', async () => {
    const c = (drawn = drawConsole(dir, { width: 60, height: 20 }));
    const blink = async () => {
      c.resize(20, 6);
      await until('the too small screen', () => c.frame().startsWith('Too small'));
      c.resize(60, 20);
      await until('the prompt again', () => c.frame().includes('╭'));
    };
    await selectWaiting(c, 'from mistral');
    await c.keys(KEY.enter, 'j');
    await until('the second option', () => c.frame().includes('› 2 smaller folder'));
    await blink();
    expect(c.frame()).toContain('› 2 smaller folder');
    await c.keys('t');
    await c.type('stream it');
    await blink();
    expect(c.frame()).toContain('› stream it');
    await c.keys(KEY.esc, KEY.esc);

    await selectWaiting(c, 'the tasks of add-search');
    await c.keys('r');
    await c.type('Split T2');
    await blink();
    expect(c.frame()).toContain('› Split T2');
    await c.type(' in two');
    await until('the feedback typed', () => c.frame().includes('› Split T2 in two'));
  });
});

describe('the columns on a narrow terminal', () => {
  it('shows every column from 50 columns on; below, as many as fit at 10 columns each, with a column at either side for the marks', () => {
    expect(columnLayout(80)).toEqual({ count: 5, width: 16, marks: false });
    expect(columnLayout(50)).toEqual({ count: 5, width: 10, marks: false });
    expect(columnLayout(49)).toEqual({ count: 4, width: 11, marks: true });
    expect(columnLayout(40)).toEqual({ count: 3, width: 12, marks: true });
    expect(columnLayout(35)).toEqual({ count: 3, width: 11, marks: true });
    expect(columnLayout(30)).toEqual({ count: 2, width: 14, marks: true });
  });

  // The rows of the columns (their titles, and the first card's lines) at each width: first as the console opens, then with the last column focused (l four times).
  const cases: [number, string[], string[]][] = [
    [30, [' TODO 3 ↓      IN PROG 2 ↓   ›', ' ▌ Search com… │ Index the …', ' ▌ medium · a… │ ▰▰▱ claude…'], ['‹IN REVIEW 1   DONE 0', ' │ Docs for s…', ' │ codex-w2']],
    [35, [' TODO 3 ↓   IN PR… 2 ↓ BLOCKED 1  ›', ' ▌ Search … │ Index t… │ Benchma…', ' ▌ medium … │ ▰▰▱ cla… │ ● high …'], ['‹BLOCKED 1  REVIEW 1   DONE 0', ' │ Benchma… │ Docs fo…', ' │ ● high … │ codex-w2']],
    [40, [' TODO 3 ↓    IN PROG 2 ↓ BLOCKED 1   ›', ' ▌ Search c… │ Index th… │ Benchmar…', ' ▌ medium ·… │ ▰▰▱ clau… │ ● high g…'], ['‹BLOCKED 1   IN REVIEW 1 DONE 0', ' │ Benchmar… │ Docs for…', ' │ ● high g… │ codex-w2']],
  ];
  for (const [width, first, last] of cases) {
    it(`at ${width} columns, keeps each column's title and cards whole and apart, marks the columns left out, and h/l bring them into view`, async () => {
      const c = (drawn = drawConsole(dir, { width, height: 8 }));
      const rows = () => {
        const l = c.frame().split('\n');
        return [l[2], l[4], l[5]].map((x) => x!.trimEnd());
      };
      expect(rows()).toEqual(first);
      expect(Math.max(...c.frame().split('\n').map((l) => l.length))).toBeLessThanOrEqual(width);
      await c.keys('l', 'l', 'l', 'l');
      await until('the last column', () => rows()[0]!.startsWith('‹'));
      expect(rows()).toEqual(last);
      // Back at the first column, the view follows it.
      await c.keys('h', 'h', 'h', 'h');
      await until('the first column', () => rows()[0]!.startsWith(' TODO'));
      expect(rows()[1]).toMatch(/^ ▌ Search/);
    });
  }
});

describe('a pane a prompt leaves a row or two', () => {
  it('shows the start of its lines, each whole, never lines drawn over each other', async () => {
    // The rows between the tabs and the prompt's frame.
    const pane = (c: Drawn) => {
      const l = c.frame().split('\n');
      return l.slice(2, l.findIndex((x) => x.startsWith('╭'))).map((x) => x.trimEnd());
    };
    for (const [height, board, waiting] of [
      [13, ['‹IN PROG 2 ↓ BLOCKED 1   IN REVIEW 1 ›'], []],
      [14, ['‹IN PROG 2 ↓ BLOCKED 1   IN REVIEW 1 ›', ' │ T1 a… now │ T4 a… now ▌ T3 a… now'], ['12 waiting on you · 5-5 shown']],
    ] as const) {
      const c = (drawn = drawConsole(dir, { width: 40, height }));
      // The task in review, on the board: Enter opens its decision.
      await c.keys('l', 'l', 'l', KEY.enter);
      await until('the decision', () => c.frame().includes('Your decision: task add-search/T3'));
      expect(pane(c)).toEqual(board);
      await c.keys(KEY.esc);
      await selectWaiting(c, 'the tasks of add-search');
      await c.keys(KEY.enter);
      await until('the decision', () => c.frame().includes('Your decision: the tasks of'));
      expect(pane(c)).toEqual(waiting);
      c.close();
      drawn = null;
    }
  });
});
