/** The console's ages, countdowns, bars, cuts and wraps, and which part of a list a view shows. */
import { describe, expect, it } from 'vitest';
import { ago, bar, cut, left, padTo, since, textWidth, typedTail, wrapAtMost, wrapSpans, wrapWords } from '../../src/tui/console/format.js';
import { viewStart, type ViewAt } from '../../src/tui/console/list-view.js';
import { tooSmall } from '../../src/tui/console/screen.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const before = (ms: number) => new Date(NOW - ms).toISOString();
const after = (ms: number) => new Date(NOW + ms).toISOString();

describe('console text', () => {
  it('says ages to the minute', () => {
    expect([ago(before(20_000), NOW), ago(before(61_000), NOW), ago(before(3 * 3_600_000 + 1), NOW), ago(before(49 * 3_600_000), NOW), ago(null, NOW)]).toEqual(['now', '1m', '3h', '2d', '']);
    // In a sentence: "claimed just now", never "claimed now ago".
    expect([since(before(20_000), NOW), since(before(61_000), NOW)]).toEqual(['just now', '1m ago']);
  });

  it('counts down to a deadline', () => {
    expect([left(after(30_000), NOW), left(after(61_000), NOW), left(after(2 * 3_600_000 - 1_000), NOW), left(after(2 * 3_600_000 + 5 * 60_000), NOW), left(before(1), NOW)]).toEqual(['<1m left', '2m left', '2h00m left', '2h05m left', 'overdue']);
  });

  it('draws progress, cuts lines and wraps words to a width', () => {
    expect([bar(0), bar(60), bar(100), bar(null)]).toEqual(['▱▱▱▱▱', '▰▰▰▱▱', '▰▰▰▰▰', '▱▱▱▱▱']);
    expect(cut('Index  the\ntitles', 20)).toBe('Index the titles');
    expect(cut('Index the titles', 10)).toBe('Index the…');
    expect(wrapWords('Keep the index in one file: fast enough', 12)).toEqual(['Keep the', 'index in one', 'file: fast', 'enough']);
    expect(wrapWords('abcdefghijklmnop', 5)).toEqual(['abcde', 'fghij', 'klmno', 'p']);
    expect(wrapWords('First line\n\nAfter a blank', 20)).toEqual(['First line', '', 'After a blank']);
    expect(wrapAtMost('one two three four five six', 9, 2)).toEqual(['one two', 'three…']);
    expect(wrapAtMost('one two', 9, 2)).toEqual(['one two']);
  });

  it('counts the columns a terminal gives each character: two for Chinese, Japanese, Korean and emoji, none for a combining mark', () => {
    expect([textWidth('abc'), textWidth('検索'), textWidth('한국'), textWidth('🎉'), textWidth('é'), textWidth('עברית')]).toEqual([3, 4, 4, 2, 1, 5]);
    // Cut, wrapped and padded by columns: a wide character at the edge goes to the next line whole, never half of it.
    expect(cut('検索コマンドを実装する', 9)).toBe('検索コマ…');
    expect(cut('検索コマンド', 12)).toBe('検索コマンド');
    expect(wrapWords('検索コマンドを実装する', 5)).toEqual(['検索', 'コマ', 'ンド', 'を実', '装す', 'る']);
    expect(wrapWords('REST or GraphQL? 日本語の質問です', 12)).toEqual(['REST or', 'GraphQL?', '日本語の質問', 'です']);
    expect(wrapWords('検', 1)).toEqual(['検']);
    expect(wrapAtMost('日本語の質問もここにあります', 8, 2)).toEqual(['日本語の', '質問も…']);
    expect(padTo('検索', 6)).toBe('検索  ');
    // The end of what is typed, where the person types.
    expect(typedTail('Use 日本語 here', 8)).toBe('…語 here');
    expect(textWidth(typedTail('日本語日本語', 6))).toBeLessThanOrEqual(6);
  });

  it('counts an emoji joined with ZWJ (a family) or a flag as the one emoji a terminal draws, two columns, and never cuts one in two', () => {
    const family = '👨\u200D👩\u200D👧\u200D👦';
    expect([textWidth(family), textWidth('🇯🇵'), textWidth('👍🏽'), textWidth(`a${family}b`)]).toEqual([2, 2, 4, 4]);
    expect(padTo(`${family} fam`, 8)).toBe(`${family} fam  `);
    expect(cut(`${family}${family} fam`, 4)).toBe(`${family}…`);
    expect(cut(`${family}${family} fam`, 3)).toBe(`${family}…`);
    expect(cut(`${family}${family} fam`, 2)).toBe('…');
    expect(typedTail(`ok ${family}`, 3)).toBe(`…${family}`);
  });

  it('wraps text drawn in several styles, keeping the spaces of a line and each style, with an indent for the lines after the first', () => {
    const text = (lines: ReturnType<typeof wrapSpans>) => lines.map((l) => l.map((s) => (typeof s === 'string' ? s : s.text)).join(''));
    const finding = wrapSpans([{ text: 'spec.md:24', underline: true }, ' ', { text: 'error', color: 'red' }, ' ', { text: 'spec.normative', dimColor: true }, ': requirement R1 has no MUST'], 30, 0, 2);
    expect(text(finding)).toEqual(['spec.md:24 error', '  spec.normative: requirement', '  R1 has no MUST']);
    // A word that changes style midway stays whole; each part keeps its style.
    expect(finding[1]).toEqual(['  ', { text: 'spec.normative', dimColor: true }, ':', ' ', 'requirement']);
    // A table's row keeps its columns; what does not fit goes on under the last one.
    expect(text(wrapSpans(['proposal  ', 'submitted   ', '1    ', { text: 'now · needs your approval', dimColor: true }], 40, 0, 27))).toEqual(['proposal  submitted   1    now · needs', '                           your approval']);
  });
});

describe('a terminal too small for the panes', () => {
  it('says how big it must be, on the lines the terminal has; nothing at all on a single line', () => {
    expect([tooSmall({ width: 80, height: 24 }), tooSmall({ width: 30, height: 8 })]).toEqual([null, null]);
    expect(tooSmall({ width: 29, height: 24 })).toEqual(['Too small: needs 30×8 (this', 'terminal is 29×24). Make it', 'larger, or press q to quit.']);
    // What it needs comes first: a very small terminal shows that much.
    expect(tooSmall({ width: 12, height: 4 })).toEqual(['Too small:', 'needs 30×8', '(this…']);
    expect(tooSmall({ width: 40, height: 1 })).toEqual([]);
  });

  it('tells a terminal that gives no size (0 columns or rows) so, on one line', () => {
    for (const size of [{ width: 0, height: 0 }, { width: 0, height: 24 }, { width: 80, height: 0 }]) {
      expect(tooSmall(size)).toEqual([`The terminal gives no size (${size.width}×${size.height}): set one (stty cols 80 rows 24), or press q to quit.`]);
    }
  });
});

describe('the part of a list a view shows', () => {
  /** Moves the cursor through `cursors` in a list of `count` items, a view holding `size`; the first item shown after each move. */
  const walk = (count: number, size: number | ((start: number) => number), cursors: number[]) => {
    let at: ViewAt = { start: 0, cursor: 0 };
    return cursors.map((cursor) => {
      at = { start: viewStart(at, cursor, count, typeof size === 'number' ? () => size : size), cursor };
      return at.start;
    });
  };

  it('stays while the cursor moves inside it, and moves as far as the cursor when it leaves it', () => {
    expect(walk(20, 5, [1, 4, 5, 6, 2, 1])).toEqual([0, 0, 1, 2, 2, 1]);
    // A page down and up move the view by a page.
    expect(walk(20, 5, [5, 10, 5])).toEqual([5, 10, 5]);
  });

  it('is full at the end of the list: G shows the last item at the bottom, with the items before it', () => {
    expect(walk(43, 6, [42])).toEqual([37]);
    expect(walk(43, 6, [42, 41, 37, 36, 0])).toEqual([37, 37, 37, 36, 0]);
    // A page down to the end does not leave the view short either.
    expect(walk(8, 6, [6])).toEqual([2]);
    expect(walk(3, 6, [2])).toEqual([0]);
    expect(walk(0, 6, [0])).toEqual([0]);
  });

  it('holds items of different heights: at the end, as many as fit', () => {
    // Items 0-9, the even ones two lines, in a view of 5 lines.
    const fits = (start: number) => {
      let used = 0;
      let i = start;
      while (i < 10 && used + (i % 2 ? 1 : 2) <= 5) used += i++ % 2 ? 1 : 2;
      return Math.max(1, i - start);
    };
    expect(walk(10, fits, [9])).toEqual([7]);
    expect(walk(10, fits, [2, 3])).toEqual([0, 1]);
  });

  it('keeps the indentation of each line when it wraps text, on the lines it wraps onto too', () => {
    const yaml = 'files:\n  - path: src/index.ts\n    action: create\n\n\tindented by a tab, wrapped';
    expect(wrapWords(yaml, 24)).toEqual(['files:', '  - path: src/index.ts', '    action: create', '', '    indented by a tab,', '    wrapped']);
  });
});
