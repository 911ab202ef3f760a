/** User text inside a document body: how it is written under a heading and read back. */
import type { FindingSink } from '../domain/findings.js';
import type { ExtraSection } from '../domain/model.js';
import { escapeText, normalizeText, sectionsAt, unescapeText, type Heading, type Section, type TextLines } from './markdown.js';

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

/** The extra sections kept after `after`, as markdown ("## heading" and its text each), or "". */
export function renderSections(sections: ExtraSection[] | undefined, after: string): string {
  return (sections ?? [])
    .filter((s) => s.after === after)
    .map((s) => {
      const text = s.text.trim() ? writeBlock(s.text, 2) : '';
      if (!s.heading) return text;
      return text ? `## ${s.heading}\n\n${text}` : `## ${s.heading}`;
    })
    .filter((s) => s !== '')
    .join('\n\n');
}

/** A document body cut at its title and its "## " sections. */
export interface DocOutline {
  /** The "# " title's text, when there is one. */
  title: string | undefined;
  /** Text around the title before the first section (kept as the section with no heading). */
  intro: string;
  sections: Section[];
}

/**
 * Cuts a body into title, intro and sections. A document has at most one title, before its
 * sections: a second one would make the text after it belong nowhere, so it is an error.
 */
export function outlineDoc(lines: TextLines, heads: Heading[], sink: FindingSink, what: string): DocOutline {
  const h1s = heads.filter((h) => h.level === 1);
  const sections = sectionsAt(lines, heads, 2);
  const first = sections.length > 0 ? sections[0]!.heading.index : lines.length;
  for (const h of h1s.slice(1)) {
    sink.error(`${what}.title.twice`, `"# ${h.text}" is a second title; a ${what} has one`, `make it a section ("## ${h.text}") or remove it`, h.index + 1);
  }
  if (h1s[0] && h1s[0].index > first) {
    sink.error(`${what}.title.late`, `the title "# ${h1s[0].text}" comes after the first section`, 'move the title to the top of the document', h1s[0].index + 1);
  }
  const introLines: string[] = [];
  for (let i = 0; i < first; i++) if (i !== h1s[0]?.index) introLines.push(lines.line(i));
  return { title: h1s[0]?.text, intro: introLines.join('\n'), sections };
}

/** Keeps a section agentboard has no field for, after the part before it. */
export function extraSection(section: Section, after: string): ExtraSection {
  return { heading: section.heading.text, text: readBlock(section.content, 2), after };
}

/** The intro as the heading-less extra section, or nothing. */
export function introSection(intro: string): ExtraSection[] {
  return intro.trim() ? [{ heading: '', text: readBlock(normalizeText(intro), 2), after: 'title' }] : [];
}
