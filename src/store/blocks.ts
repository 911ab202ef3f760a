/** User text inside a document body: how it is written under a heading and read back. */
import { escapeText, normalizeText, unescapeText } from './markdown.js';

/** Text placed under a heading of level `level - 1`: no line of it may read back as a heading <= level. */
export function writeBlock(text: string, level: number): string {
  return escapeText(normalizeText(text), level);
}

/** The inverse of writeBlock; the blank-template placeholder of the section reads back as empty. */
export function readBlock(content: string, level: number, placeholder?: string): string {
  if (placeholder !== undefined && content === placeholder) return '';
  return unescapeText(content, level);
}

/** Section names compare without case, punctuation or extra spaces ("What Changes" = "what-changes"). */
export function sectionKey(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}
