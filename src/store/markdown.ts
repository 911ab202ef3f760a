/**
 * The markdown layer every document format is built on: frontmatter split/join, an outline of
 * ATX headings (fenced code is not structure), and the escaping that keeps user text from ever
 * changing the structure read back. A fence counts only when it is closed, both here and in the
 * escaping, so text with a stray ``` cannot swallow the headings after it.
 */
import { diffLines } from './diff3.js';

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;

export interface SplitDoc {
  /** YAML between the two `---` lines, each line ending in "\n". */
  frontmatter: string;
  body: string;
  /** 1-based line number of the first frontmatter line. */
  frontmatterLine: number;
  /** 1-based line number of the first body line. */
  bodyLine: number;
}

/** The byte order mark some Windows editors put first, as a character. */
export const BOM = '\uFEFF';

/** The text without the byte order mark some Windows editors put first: it is no part of a document or of JSON. */
export function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** The line that opens a frontmatter, and one that closes it: `---`, or YAML's end-of-document `...`; spaces after it are let be (Jekyll, Pandoc and Hugo read them so). */
const OPENER = /^---[ \t]*\r?\n/;
const CLOSER = /^(?:---|\.\.\.)[ \t]*\r?$/;

/** Whether the text opens a frontmatter (which splitFrontmatter finds unclosed when it returns null). */
export function opensFrontmatter(text: string): boolean {
  return OPENER.test(withoutBom(text));
}

/** Splits `---\nYAML---\nbody`; returns null when the text does not start with frontmatter, or its frontmatter is never closed. */
export function splitFrontmatter(text: string): SplitDoc | null {
  text = withoutBom(text);
  if (!OPENER.test(text)) return null;
  const start = text.indexOf('\n') + 1;
  let pos = start;
  let line = 2;
  while (pos <= text.length) {
    const end = text.indexOf('\n', pos);
    const current = end < 0 ? text.slice(pos) : text.slice(pos, end);
    if (CLOSER.test(current)) {
      return {
        frontmatter: text.slice(start, pos),
        body: end < 0 ? '' : text.slice(end + 1),
        frontmatterLine: 2,
        bodyLine: line + 1,
      };
    }
    if (end < 0) return null;
    pos = end + 1;
    line++;
  }
  return null;
}

/**
 * A file's text with LF line ends. Besides CRLF, a line may end in CR CR LF: a CRLF file saved
 * again by a tool that turns every LF into CRLF. A carriage return before a line end is never
 * content of the line (it would stay in a description, and be written back doubled). A lone CR
 * ends a line too, as in markdown: an old Mac's editor ends every line so.
 */
export function withLf(text: string): string {
  return text.includes('\r') ? text.replace(/\r*\n|\r/g, '\n') : text;
}

/**
 * `text` (written with LF) with the line endings of `like`, a file's text as it is on disk: a file
 * whose first line ends with CRLF (saved on Windows), or with a lone CR (an old Mac's), is written
 * back with those, so that agentboard's writes do not turn every line of it into a change.
 */
export function withLineEndsOf(like: string | null | undefined, text: string): string {
  if (like?.includes('\r') && lineEnds(like).size > 1) return withMixedEndsOf(like, text);
  const end = like ? /\r*\n|\r/.exec(like)?.[0] : undefined;
  if (end === '\r') return text.replace(/\n/g, '\r');
  return end !== undefined && end !== '\n' ? text.replace(/\r?\n/g, '\r\n') : text;
}

/** The line ends of a text, CR CR LF counted as CRLF (as withLf reads it). */
function lineEnds(text: string): Set<string> {
  const kinds = new Set<string>();
  for (const [end] of text.matchAll(/\r*\n|\r/g)) kinds.add(end.length > 1 ? '\r\n' : end);
  return kinds;
}

/**
 * `text` (written with LF) with the line ends of `like`, a file whose lines end in more than one
 * way (CRLF lines a Windows editor or a paste added to an LF file, or the reverse): each line the
 * write left as it was keeps its own line end, so that no other line of the file changes; a line
 * the write changed or added takes the end of the line before it.
 */
function withMixedEndsOf(like: string, text: string): string {
  const ends: string[] = [];
  const before = like.replace(/\r*\n|\r/g, (end) => (ends.push(end.length > 1 ? '\r\n' : end), '\n')).split('\n');
  const after = text.split('\n');
  const endOf: string[] = [];
  let i = 0;
  for (const hunk of [...diffLines(before, after), { from: before.length, to: before.length, lines: [] }]) {
    for (; i < hunk.from; i++) endOf.push(ends[Math.min(i, ends.length - 1)]!);
    endOf.push(...hunk.lines.map(() => ends[Math.max(hunk.from - 1, 0)]!));
    i = hunk.to;
  }
  return after.map((line, k) => (k < after.length - 1 ? line + endOf[k]! : line)).join('');
}

export function joinFrontmatter(frontmatter: string, body: string): string {
  return `---\n${frontmatter}---\n${body}`;
}

/**
 * The lines of a text without splitting it: a line becomes a string only when asked for, so that
 * scanning a 10,000-task tasks.md for its headings allocates almost nothing.
 */
export class TextLines {
  readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get length(): number {
    return this.starts.length;
  }

  private end(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1]! - 1 : this.text.length;
  }

  line(i: number): string {
    return this.text.slice(this.starts[i], this.end(i));
  }

  /** The first character after up to three spaces of indentation (0 when the line is blank there). */
  marker(i: number): number {
    let p = this.starts[i]!;
    const end = Math.min(this.end(i), p + 4);
    while (p < end && this.text.charCodeAt(p) === 32) p++;
    return p < this.end(i) ? this.text.charCodeAt(p) : 0;
  }

  isBlank(i: number): boolean {
    return this.line(i).trim() === '';
  }

  /** Lines [from, to) joined, without the newline after the last one. */
  slice(from: number, to: number): string {
    if (to <= from) return '';
    return this.text.slice(this.starts[from], this.end(to - 1));
  }
}

const HASH = 35;
const BACKTICK = 96;
const TILDE = 126;

/** Marks the lines that sit inside a closed fenced code block (opener and closer included). */
export function fencedLines(input: string[] | TextLines): boolean[] {
  const lines = Array.isArray(input) ? new TextLines(input.join('\n')) : input;
  const inFence = new Array<boolean>(lines.length).fill(false);
  let i = 0;
  while (i < lines.length) {
    const m = lines.marker(i);
    const open = m === BACKTICK || m === TILDE ? FENCE_OPEN.exec(lines.line(i)) : null;
    if (open) {
      const marker = open[1]!;
      let j = i + 1;
      for (; j < lines.length; j++) {
        if (lines.marker(j) !== marker.charCodeAt(0)) continue;
        const close = FENCE_CLOSE.exec(lines.line(j));
        if (close && close[1]![0] === marker[0] && close[1]!.length >= marker.length) break;
      }
      if (j < lines.length) {
        for (let k = i; k <= j; k++) inFence[k] = true;
        i = j + 1;
        continue;
      }
    }
    i++;
  }
  return inFence;
}

export function headingLevel(line: string): number {
  const m = HEADING.exec(line);
  return m ? m[1]!.length : 0;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

export function headingText(line: string): string {
  const text = line.replace(/^ {0,3}#{1,6}(?:[ \t]+|$)/, '');
  // The closing #s (after a space or tab), found from the end: a pattern would go over a long run
  // of spaces once from each of its spaces.
  let end = text.length;
  while (end > 0 && isBlank(text[end - 1])) end--;
  let closer = end;
  while (closer > 0 && text[closer - 1] === '#') closer--;
  return (closer < end && isBlank(text[closer - 1]) ? text.slice(0, closer) : text).trim();
}

function escapable(maxLevel: number): RegExp {
  return new RegExp(`^ {0,3}\\\\*(?:#{1,${maxLevel}}(?:[ \\t]|$))`);
}

function escapedMarker(maxLevel: number): RegExp {
  return new RegExp(`^( {0,3})\\\\(\\\\*(?:#{1,${maxLevel}}(?:[ \\t]|$)|\`{3,}|~{3,}))`);
}

const ESCAPED_FENCE = /^ {0,3}\\+(?:`{3,}|~{3,})/;

function insertBackslash(line: string): string {
  const indent = /^ */.exec(line)![0].length;
  return `${line.slice(0, indent)}\\${line.slice(indent)}`;
}

/**
 * Escapes user text placed under a heading of level `maxLevel - 1` or deeper, so that no line of
 * it reads back as a heading of level <= maxLevel or as an unclosed fence. With `fences` off, no
 * line of it can open or close a fence at all (for text that is not at the start of a line).
 * Reversed by unescapeText with the same arguments.
 */
export function escapeText(text: string, maxLevel: number, fences = true): string {
  if (!/[#`~\\]/.test(text)) return text;
  const lines = text.split('\n');
  const inFence = fences ? fencedLines(new TextLines(text)) : lines.map(() => false);
  const heading = escapable(maxLevel);
  return lines
    .map((line, i) => {
      if (inFence[i]) return line;
      if (heading.test(line) || ESCAPED_FENCE.test(line) || FENCE_OPEN.test(line)) return insertBackslash(line);
      return line;
    })
    .join('\n');
}

export function unescapeText(text: string, maxLevel: number, fences = true): string {
  if (!text.includes('\\')) return text;
  const lines = text.split('\n');
  const inFence = fences ? fencedLines(new TextLines(text)) : lines.map(() => false);
  const marker = escapedMarker(maxLevel);
  return lines.map((line, i) => (inFence[i] ? line : line.replace(marker, '$1$2'))).join('\n');
}

export interface Heading {
  level: number;
  text: string;
  /** 0-based index into the lines of the text the outline was made from. */
  index: number;
}

export function outline(lines: TextLines): Heading[] {
  const inFence = fencedLines(lines);
  const out: Heading[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (inFence[i] || lines.marker(i) !== HASH) continue;
    const line = lines.line(i);
    const level = headingLevel(line);
    if (level > 0) out.push({ level, text: headingText(line), index: i });
  }
  return out;
}

const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const DASH = 45;
const EQUALS = 61;

/**
 * The headings written as a line underlined with === (level 1) or --- (level 2): markdown's
 * setext headings. Documents are read by their # headings (outline); these are looked for only
 * to tell a person who wrote one where agentboard expects a # heading.
 */
export function setextHeadings(lines: TextLines): Heading[] {
  const out: Heading[] = [];
  let fenced: boolean[] | null = null;
  for (let i = 1; i < lines.length; i++) {
    const m = lines.marker(i);
    if ((m !== DASH && m !== EQUALS) || !SETEXT_UNDERLINE.test(lines.line(i)) || lines.isBlank(i - 1) || lines.marker(i - 1) === HASH) continue;
    fenced ??= fencedLines(lines);
    if (!fenced[i] && !fenced[i - 1]) out.push({ level: m === EQUALS ? 1 : 2, text: lines.line(i - 1).trim(), index: i - 1 });
  }
  return out;
}

/**
 * The headings of a text below level 2 ("### Why") and those underlined with --- or === (which
 * markdown reads as headings and agentboard's documents do not), in the order they stand: where
 * a person meant a section or a task that is read as text of the part above it.
 */
export function headingsOffLevel(lines: TextLines, headings: readonly Heading[]): (Heading & { underlined: boolean })[] {
  const deeper = headings.filter((h) => h.level > 2).map((h) => ({ ...h, underlined: false }));
  const underlined = setextHeadings(lines).map((h) => ({ ...h, underlined: true }));
  return [...deeper, ...underlined].sort((a, b) => a.index - b.index);
}

export interface Section {
  heading: Heading;
  /** Lines between the heading and the next heading of the same or a higher level, trimmed of blank edges. */
  content: string;
  /** 0-based index of the first content line (after leading blank lines). */
  contentIndex: number;
  /** 0-based index where the section ends (the next heading of the same or a higher level, or the end). */
  end: number;
}

/** Sections at exactly `level` inside lines[from, to): each runs until the next heading of level <= `level`. */
export function sectionsAt(lines: TextLines, headings: Heading[], level: number, from = 0, to = lines.length): Section[] {
  const inRange = headings.filter((h) => h.index >= from && h.index < to);
  const out: Section[] = [];
  for (let k = 0; k < inRange.length; k++) {
    const h = inRange[k]!;
    if (h.level !== level) continue;
    let end = to;
    for (let m = k + 1; m < inRange.length; m++) {
      if (inRange[m]!.level <= level) {
        end = inRange[m]!.index;
        break;
      }
    }
    let start = h.index + 1;
    while (start < end && lines.isBlank(start)) start++;
    let stop = end;
    while (stop > start && lines.isBlank(stop - 1)) stop--;
    out.push({ heading: h, content: lines.slice(start, stop), contentIndex: start, end });
  }
  return out;
}

/** Text given by a user (an option, a file given to --from) with LF line ends, read as withLf reads a file. */
export function userLines(text: string): string {
  return withLf(text);
}

/** Normalises text given by a user: LF line ends (userLines), no trailing spaces at the end, no blank edges. */
export function normalizeText(text: string): string {
  return userLines(text).replace(/^\s*\n/, '').trimEnd();
}
