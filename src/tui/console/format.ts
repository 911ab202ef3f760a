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

/** One line of at most `width` characters; a cut ends in "…". */
export function cut(text: string, width: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (width <= 0) return '';
  return one.length > width ? `${one.slice(0, Math.max(0, width - 1))}…` : one;
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

/** A word cut after `n` characters: what fits, and the rest. */
function splitWord(word: Span[], n: number): [Span[], Span[]] {
  const head: Span[] = [];
  const rest: Span[] = [];
  let left = n;
  for (const s of word) {
    const text = textOf(s);
    if (left >= text.length) head.push(s);
    else {
      if (left > 0) head.push(withText(s, text.slice(0, left)));
      rest.push(withText(s, text.slice(left)));
    }
    left = Math.max(0, left - text.length);
  }
  return [head, rest];
}

/**
 * Spans broken into lines of at most `width` characters, at spaces where it can be (a word longer
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
      const length = w.reduce((n, s) => n + textOf(s).length, 0);
      if (before.length + length <= width - used) {
        line.push(...(before ? [before] : []), ...w);
        used += before.length + length;
        w = [];
      } else if (used > start) close();
      else {
        const [head, rest] = splitWord(w, Math.max(1, width - used));
        line.push(...head);
        close();
        w = rest;
      }
    }
  }
  lines.push(line);
  return lines;
}

/**
 * Text broken into lines of at most `width` characters, at spaces where it can be; each line break of
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

/** Text wrapped to `width` on at most `lines` lines; when there is more, the last line ends in "…". */
export function wrapAtMost(text: string, width: number, lines: number): string[] {
  const all = wrapWords(text, width);
  if (all.length <= lines) return all;
  const kept = all.slice(0, Math.max(1, lines));
  const last = kept.pop()!;
  return [...kept, `${last.length < width ? last : last.slice(0, width - 1)}…`];
}
