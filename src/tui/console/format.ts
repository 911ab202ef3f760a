/** Small text helpers of the console: ages, countdowns, progress bars, cutting to a width. */

/** "now", "12m", "3h", "2d": how long ago `iso` was, seen from `now` (ms); to the minute, as the screen moves on twice a minute. */
export function ago(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const m = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (Number.isNaN(m)) return '';
  if (m < 1) return 'now';
  if (m < 60) return `${m}m`;
  if (m < 1440) return `${Math.floor(m / 60)}h`;
  return `${Math.floor(m / 1440)}d`;
}

/** "12m ago", "just now": how long ago `iso` was, in a sentence. */
export function since(iso: string, now: number): string {
  const a = ago(iso, now);
  return a === 'now' ? 'just now' : `${a} ago`;
}

/** "12m left", "<1m left", "2h05m left", "overdue": the time until `iso`. */
export function left(iso: string, now: number): string {
  const s = Math.floor((Date.parse(iso) - now) / 1000);
  if (s <= 0) return 'overdue';
  if (s < 60) return '<1m left';
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes}m left`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m left`;
}

/** A progress bar of `cells` cells: "▰▰▰▱▱". */
export function bar(percent: number | null, cells = 5): string {
  const p = Math.max(0, Math.min(100, percent ?? 0));
  const full = Math.round((p / 100) * cells);
  return '▰'.repeat(full) + '▱'.repeat(cells - full);
}

/** The characters a terminal draws two columns wide: the East Asian wide and fullwidth ones, and emoji. */
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE10-\uFE19\uFE30-\uFE6F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F000}-\u{1FAFF}\u{20000}-\u{3FFFD}]|\p{Emoji_Presentation}/u;
/** The ones drawn over the character before them, taking no column of their own. */
const ZERO = /[\p{Mn}\p{Me}\p{Cf}\uFE00-\uFE0F]/u;

function charWidth(ch: string): number {
  return ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Text the terminal draws one column a character, as most text is: counted without looking closer. */
const NARROW = /^[\x20-\x7E]*$/;

/** The characters as the person sees them: a letter with its accents is one, and so is an emoji made of several (a family, a flag, a skin tone): a cut never splits one. */
function clusters(text: string): string[] {
  return NARROW.test(text) ? [...text] : Array.from(GRAPHEMES.segment(text), (s) => s.segment);
}

/**
 * The columns of one character as seen: an emoji sequence joined with ZWJ (a family) and a flag's two
 * letters are drawn as one emoji, two columns. A skin tone counts as the two emoji it is made of:
 * some terminals draw it so, and a line counted narrower than the terminal draws it would run
 * past the edge and wrap.
 */
function clusterWidth(c: string): number {
  if (c.length === 1) return charWidth(c);
  if (/^\p{Regional_Indicator}{2}$/u.test(c) || (/\p{Extended_Pictographic}/u.test(c) && c.includes('\u200D'))) return 2;
  let n = 0;
  for (const ch of c) n += charWidth(ch);
  return n;
}

/** How many columns of the terminal `text` takes: a Chinese character or an emoji takes two. */
export function textWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  let n = 0;
  for (const c of clusters(text)) n += clusterWidth(c);
  return n;
}

/** The start of `text` that fits in `width` columns (a wide character that would straddle the edge is left out, an emoji sequence is not cut). */
function fitStart(text: string, width: number): string {
  if (NARROW.test(text)) return text.slice(0, Math.max(0, width));
  let n = 0;
  let out = '';
  for (const c of clusters(text)) {
    n += clusterWidth(c);
    if (n > width) break;
    out += c;
  }
  return out;
}

/** The end of `text` that fits in `width` columns. */
export function fitEnd(text: string, width: number): string {
  const chars = clusters(text);
  let n = 0;
  let i = chars.length;
  while (i > 0 && n + clusterWidth(chars[i - 1]!) <= width) n += clusterWidth(chars[--i]!);
  return chars.slice(i).join('');
}

/** `text` with spaces after it up to `width` columns. */
export function padTo(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - textWidth(text)));
}

/** One line of at most `width` columns; a cut ends in "…". */
export function cut(text: string, width: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (width <= 0) return '';
  return textWidth(one) > width ? `${fitStart(one, width - 1)}…` : one;
}

/** The end of a line being typed, in `width` columns: where the person types is what shows, what it leaves out marked with "…". */
export function typedTail(text: string, width: number): string {
  return textWidth(text) > width ? `…${fitEnd(text, width - 1)}` : text;
}

/** `text` without the last character the person sees (an emoji is two UTF-16 units, an accent its own code point): what Backspace takes away. */
export function dropLast(text: string): string {
  if (NARROW.test(text)) return text.slice(0, -1);
  let last = text.length;
  for (const { index } of GRAPHEMES.segment(text)) last = index;
  return text.slice(0, last);
}

/** What a list the filter left empty says, rather than that the board has none. */
export function noMatch(filter: string): string {
  return `Nothing here matches "${filter}"; Esc clears the filter.`;
}

/** The local id of a board-wide task id: "T2" of "add-search/T2". */
export function localId(taskId: string): string {
  return taskId.slice(taskId.indexOf('/') + 1);
}

/** Words of a state for people: "in_progress" → "in progress". */
export function words(state: string): string {
  return state.replace(/_/g, ' ');
}

export function clamp(n: number, length: number): number {
  return Math.max(0, Math.min(n, length - 1));
}

/** A piece of text and how it is drawn; a plain string is drawn as it is. */
export type Span = string | { text: string; color?: string; bold?: boolean; dimColor?: boolean; underline?: boolean };

const textOf = (s: Span) => (typeof s === 'string' ? s : s.text);
const withText = (s: Span, text: string): Span => (typeof s === 'string' ? text : { ...s, text });

/** A word cut after `n` columns: what fits (one character at least, so that a line always moves on), and the rest. */
function splitWord(word: Span[], n: number): [Span[], Span[]] {
  const head: Span[] = [];
  const rest: Span[] = [];
  let left = n;
  for (const s of word) {
    const text = textOf(s);
    const width = textWidth(text);
    if (left >= width) head.push(s);
    else {
      const fits = head.length ? fitStart(text, left) : fitStart(text, left) || clusters(text)[0]!;
      if (fits) head.push(withText(s, fits));
      if (fits.length < text.length) rest.push(withText(s, text.slice(fits.length)));
    }
    left = Math.max(0, left - width);
  }
  return [head, rest];
}

/**
 * Spans broken into lines of at most `width` columns, at spaces where it can be (a word longer
 * than a line is broken where the line ends). The spaces between two words on a line are kept (a
 * table's columns stay in place), a line break or a tab between them is one space; the first line
 * starts `indent` spaces in, the lines after it `hang` spaces in.
 */
export function wrapSpans(spans: Span[], width: number, indent = 0, hang = indent): Span[][] {
  // The words, each with the spaces before it: what runs between spaces may change how it is drawn midway.
  const words: { gap: string; parts: Span[] }[] = [];
  let gap = '';
  let word: Span[] | null = null;
  for (const s of spans) {
    for (const piece of textOf(s).split(/(\s+)/)) {
      if (/^\s/.test(piece)) {
        gap += /^ +$/.test(piece) ? piece : ' ';
        word = null;
      } else if (piece) {
        if (!word) {
          words.push({ gap, parts: (word = []) });
          gap = '';
        }
        word.push(withText(s, piece));
      }
    }
  }
  const lines: Span[][] = [];
  let line: Span[] = [];
  let start = 0;
  let used = 0;
  const open = (spaces: number) => {
    line = spaces > 0 ? [' '.repeat(spaces)] : [];
    start = used = spaces;
  };
  const close = () => {
    lines.push(line);
    open(hang);
  };
  open(indent);
  for (const { gap, parts } of words) {
    let w = parts;
    while (w.length > 0) {
      const before = used > start ? gap : '';
      const length = w.reduce((n, s) => n + textWidth(textOf(s)), 0);
      if (before.length + length <= width - used) {
        line.push(...(before ? [before] : []), ...w);
        used += before.length + length;
        w = [];
      } else if (used > start) close();
      else {
        const [head, rest] = splitWord(w, Math.max(1, width - used));
        line.push(...head);
        // A wide character alone on a line narrower than it is all of its word that is left.
        if (rest.length) close();
        else used += head.reduce((n, s) => n + textWidth(textOf(s)), 0);
        w = rest;
      }
    }
  }
  lines.push(line);
  return lines;
}

/**
 * Text broken into lines of at most `width` columns, at spaces where it can be; each line break of
 * the text starts a line. A line keeps its indentation, and so do the lines it wraps onto: YAML or
 * code in the text keeps its structure.
 */
export function wrapWords(text: string, width: number): string[] {
  return text.split('\n').flatMap((para) => {
    const indent = /^\s*/.exec(para.replace(/\t/g, '    '))![0].length;
    const at = para.trim() ? Math.min(indent, Math.floor(width / 2)) : 0;
    return wrapSpans([para.trimStart()], width, at, at).map((l) => l.map(textOf).join(''));
  });
}

/** Text wrapped to `width` columns on at most `lines` lines; when there is more, the last line ends in "…". */
export function wrapAtMost(text: string, width: number, lines: number): string[] {
  const all = wrapWords(text, width);
  if (all.length <= lines) return all;
  const kept = all.slice(0, Math.max(1, lines));
  const last = kept.pop()!;
  return [...kept, `${textWidth(last) < width ? last : fitStart(last, width - 1)}…`];
}
