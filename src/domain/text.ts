/**
 * What text on the board may hold. Control characters (C0 but tab and line ends, DEL, C1) and the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are refused in
 * every text field and reported in hand-edited files: the first can drive a terminal, the second
 * make text display in another order than it reads (a reviewer would approve what they did not
 * see). The noncharacters U+FDD0–U+FDEF, U+FFFE and U+FFFF are refused too: agentboard marks
 * references in its own messages with them (domain/refs.ts). The marks U+200E/U+200F that
 * right-to-left writing needs are plain text and pass.
 */

const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFDD0-\uFDEF\uFFFE\uFFFF]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** "U+202E, a bidi override", "U+009B, a control character". */
export function describeUnsafe(char: string): string {
  const c = char.codePointAt(0)!;
  const kind = c >= 0xfdd0 ? 'a noncharacter' : c >= 0x202a ? 'a bidirectional-text override (it makes text display in another order than it reads)' : 'a control character';
  return `${codePoint(char)}, ${kind}`;
}

/** Why this text cannot be stored (null when it can): its first unsafe character and where it is. */
export function textProblem(value: string): string | null {
  const unsafe = UNSAFE.exec(value);
  if (unsafe) return `holds ${describeUnsafe(unsafe[0])} at character ${unsafe.index + 1}; send plain text without it`;
  if (LONE_SURROGATE.test(value)) return 'holds a broken unicode character (half of a surrogate pair)';
  return null;
}

/**
 * One-line text (a title, a name) is held to more: no line or paragraph separator (U+2028, U+2029),
 * which many readers show as a line break, and no invisible character that would make two titles
 * that read the same differ, or a title that reads empty not be: the zero-width space U+200B,
 * U+FEFF (a byte order mark inside text), the soft hyphen, the word joiner and the invisible math
 * operators. The zero-width joiners U+200C and U+200D are part of emoji sequences and of Persian
 * and Indic writing, so they pass between two characters, and only where they join nothing (at an
 * end, next to a space, between two Latin letters or digits) are they refused. Nor may the text
 * hold only what shows nothing.
 */
const LINE_UNSAFE = /[\u2028\u2029\u200B\uFEFF\u00AD\u180E\u2060-\u2064]|^[\u200C\u200D]|[\u200C\u200D](?=$|\s)|(?<=\s)[\u200C\u200D]|(?<=[A-Za-z0-9])[\u200C\u200D](?=[A-Za-z0-9])/;

const LINE_UNSAFE_NAMES: Record<string, string> = {
  '\u2028': 'a line separator',
  '\u2029': 'a paragraph separator',
  '\u200B': 'an invisible zero-width space',
  '\uFEFF': 'an invisible byte order mark',
  '\u200C': 'an invisible zero-width non-joiner that joins nothing',
  '\u200D': 'an invisible zero-width joiner that joins nothing',
  '\u00AD': 'an invisible soft hyphen',
  '\u180E': 'an invisible Mongolian vowel separator',
  '\u2060': 'an invisible word joiner',
  '\u2061': 'an invisible function application sign',
  '\u2062': 'an invisible times sign',
  '\u2063': 'an invisible separator',
  '\u2064': 'an invisible plus sign',
};

/**
 * What shows nothing on its own: spaces, marks that combine with a character before them,
 * format characters (direction marks among them), variation selectors, and the fillers and blanks
 * (Hangul U+115F, U+1160, U+3164, U+FFA0; the blank Braille pattern U+2800) that render as space.
 */
const SHOWS_NOTHING = /[\p{Z}\p{M}\p{Cf}\s\u115F\u1160\u3164\uFFA0\u2800\uFE00-\uFE0F]/gu;

/** A character named so that a message shows it even when it shows nothing: "U+200B, an invisible zero-width space", or "ö" (U+00F6). */
export function describeChar(char: string): string {
  if (UNSAFE.test(char)) return describeUnsafe(char);
  if (LINE_UNSAFE_NAMES[char]) return `${codePoint(char)}, ${LINE_UNSAFE_NAMES[char]}`;
  return char.replace(SHOWS_NOTHING, '') === '' ? `${codePoint(char)}, a character that shows nothing` : `"${char}" (${codePoint(char)})`;
}

/** Why this one-line text cannot be stored, beyond textProblem (null when it can). */
export function lineProblem(value: string): string | null {
  const found = LINE_UNSAFE.exec(value);
  if (!found) return value !== '' && value.replace(SHOWS_NOTHING, '') === '' ? 'holds only characters that show nothing (spaces, marks, invisible or blank characters); write text that reads' : null;
  const [char] = found;
  const fix = char === '\u2028' || char === '\u2029' ? 'a one-line field is a single line' : 'send the text without it';
  return `holds ${codePoint(char)}, ${LINE_UNSAFE_NAMES[char]}, at character ${found.index + 1}; ${fix}`;
}

/** Whether the text holds any character the board refuses. */
export function hasUnsafeText(text: string): boolean {
  return UNSAFE.test(text);
}

/** The first unsafe character of each line of a file's text, with its 1-based line and column. */
export function unsafeLines(text: string): { line: number; column: number; char: string }[] {
  if (!hasUnsafeText(text)) return [];
  const out: { line: number; column: number; char: string }[] = [];
  text.split('\n').forEach((line, i) => {
    const m = UNSAFE.exec(line);
    if (m) out.push({ line: i + 1, column: m.index + 1, char: m[0] });
  });
  return out;
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * How many characters a text has, counted as JSON Schema's maxLength counts them: code points, so
 * an emoji is one character (a JavaScript string's length counts it as two).
 */
export function charCount(value: string): number {
  return value.length - (value.match(SURROGATE_PAIR)?.length ?? 0);
}

/**
 * The most characters of problems one refusal lists: every problem of a call comes back in one
 * answer, and this many characters keep that answer well within an MCP result's cap (25,000).
 */
export const PROBLEMS_CHARS = 16_000;

/** Problems joined with "; ", as many as fit in `budget` characters (at least one), and how many more there are when not all do. */
export function problemList(problems: readonly string[], budget = PROBLEMS_CHARS): string {
  let shown = 0;
  let length = 0;
  while (shown < problems.length && length + problems[shown]!.length + 2 <= budget) length += problems[shown++]!.length + 2;
  const listed = Math.max(shown, 1);
  const kept = problems.slice(0, listed).join('; ');
  return problems.length > listed ? `${kept} (and ${problems.length - listed} more, said once these are fixed)` : kept;
}

/** The first `n` characters (code points) of a text: a character is never cut in half. */
export function firstChars(value: string, n: number): string {
  let end = 0;
  for (let i = 0; i < n && end < value.length; i++) end += value.codePointAt(end)! > 0xffff ? 2 : 1;
  return value.slice(0, end);
}

/**
 * User input quoted inside a message: at most `max` characters and "…" when it was longer, every
 * unsafe character shown as "?" instead of acting on a terminal. Every message that repeats what
 * it was given goes through here, so that no message is ever longer than what it says needs.
 */
/** A value with every unsafe character of its strings shown as "?" (what a file edited by hand holds, shown on a terminal: an escape there could drive it). */
export function shownSafely<T>(value: T): T {
  if (typeof value === 'string') return (UNSAFE.test(value) ? value.replace(UNSAFE_ALL, '?') : value) as T;
  if (Array.isArray(value)) return value.map(shownSafely) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shownSafely(v)])) as T;
  return value;
}

export function printable(value: string, max = 80): string {
  const cleaned = value.replace(UNSAFE_ALL, '?');
  return charCount(cleaned) > max ? `${firstChars(cleaned, max)}…` : cleaned;
}

/** Terminal escape sequences: CSI (colours, cursor moves), OSC (a window title, a link) and the two-character ones. */
const ESCAPE_SEQUENCES = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|[@-Z\\-_])/g;

/**
 * A program's output (an agent's, written for a terminal) as plain text to quote elsewhere: its
 * terminal escape sequences left out, carriage returns and the line and paragraph separators
 * (U+2028, U+2029, which some readers take for line ends and others do not) made line ends, and
 * every other unsafe character shown as "?". Nothing is cut.
 */
export function plainOutput(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(UNSAFE_ALL, '?');
}
