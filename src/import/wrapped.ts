/**
 * Text a source wraps over several lines, and titles cut from long text, in any writing. Chinese
 * and Japanese put no space between words: a line break between two of their characters joins
 * them with nothing, and a title of theirs is cut where it reaches its length, not back at the last
 * space (which may part a Latin word from the rest of the sentence, far from the end).
 */
import { charCount, firstChars } from '../domain/text.js';

/** Chinese and Japanese writing: Han, kana, their punctuation and full-width forms (Korean parts its words with spaces). */
const CJK = '[\\p{Script=Han}\\u3000-\\u30FF\\u31F0-\\u31FF\\uFF00-\\uFFEF]';
const ENDS_CJK = new RegExp(`${CJK}$`, 'u');
const STARTS_CJK = new RegExp(`^${CJK}`, 'u');
/** The part of a word a cut left at the end of a title: after the last space, in a writing that parts its words with spaces. */
const CUT_WORD = new RegExp(`\\s+(?:(?!${CJK})\\S)*$`, 'u');

/** The lines of a wrapped paragraph as one line: joined by a space, or by nothing between two characters of Chinese or Japanese. */
export function joinWrapped(lines: string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    out += out === '' || (ENDS_CJK.test(out) && STARTS_CJK.test(line)) ? line : ` ${line}`;
  }
  return out;
}

/** The text cut to at most `max` characters, the last one "…", without half a word of a writing that parts its words with spaces. */
export function cutTitle(text: string, max: number): string {
  if (charCount(text) <= max) return text;
  return `${firstChars(text, max - 1).replace(CUT_WORD, '')}…`;
}
