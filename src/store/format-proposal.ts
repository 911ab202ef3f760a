/**
 * proposal.md body: `# Proposal: <title>` with Why, What Changes and Impact sections. Any other
 * section (or text under the title) is kept as written, in its place.
 */
import type { FindingSink } from '../domain/findings.js';
import type { Proposal } from '../domain/model.js';
import { extraSection, introSection, outlineDoc, readBlock, renderSections, sectionKey, writeBlock } from './blocks.js';
import { headingsOffLevel, outline, TextLines } from './markdown.js';
import { renderTemplate } from './template.js';
import { TEMPLATES } from './templates.js';
import { printable } from '../domain/text.js';

const FIELDS: Record<string, 'why' | 'what_changes' | 'impact'> = { why: 'why', 'what changes': 'what_changes', impact: 'impact' };

/** The headings a proposal is read from, for messages that say what was expected. */
export const PROPOSAL_HEADINGS = ['## Why', '## What Changes', '## Impact'];

/** True when a heading would be read as one of the proposal's own sections. */
export function isProposalSection(heading: string): boolean {
  return sectionKey(heading) in FIELDS;
}

export const PROPOSAL_PLACEHOLDERS: Proposal = {
  title: '',
  why: '<!-- Why: the problem this change solves and for whom (50 to 2000 characters). -->',
  what_changes: '<!-- What changes: the behaviour, files or interfaces this change adds, alters or removes. -->',
  impact: '<!-- Impact: who and what is affected, risks, and what becomes possible. -->',
};

export function renderProposalBody(p: Proposal, template = false): string {
  const text = (v: string, placeholder: string) => (template && v === '' ? placeholder : writeBlock(v, 2));
  return renderTemplate(TEMPLATES.proposal, {
    title: p.title,
    why: text(p.why, PROPOSAL_PLACEHOLDERS.why),
    what_changes: text(p.what_changes, PROPOSAL_PLACEHOLDERS.what_changes),
    impact: text(p.impact, PROPOSAL_PLACEHOLDERS.impact),
    after_title: renderSections(p.sections, 'title'),
    after_why: renderSections(p.sections, 'why'),
    after_what_changes: renderSections(p.sections, 'what_changes'),
    after_impact: renderSections(p.sections, 'impact'),
  });
}

/** Where each section of a proposal stands in its body (1-based lines), for findings. */
export type ProposalLines = Partial<Record<'why' | 'what_changes' | 'impact', number>>;

export function parseProposalBody(body: string, sink: FindingSink): { proposal: Proposal; lines: ProposalLines } {
  const lines = new TextLines(body);
  const heads = outline(lines);
  const doc = outlineDoc(lines, heads, sink, 'proposal');
  const title = doc.title ? doc.title.replace(/^(?:proposal|change)\s*:\s*/i, '') : '';
  const proposal: Proposal = { title, why: '', what_changes: '', impact: '' };
  const sections = introSection(doc.intro);
  const where: ProposalLines = {};
  let after = 'title';
  for (const section of doc.sections) {
    const field = FIELDS[sectionKey(section.heading.text)];
    if (!field) {
      sections.push(extraSection(section, after));
      continue;
    }
    if (where[field] !== undefined) {
      sink.error('proposal.section.twice', `section "${printable(section.heading.text)}" appears twice (first on line ${sink.fileLine(where[field])})`, 'join the two sections into one', section.heading.index + 1);
      continue;
    }
    proposal[field] = readBlock(section.content, 2, PROPOSAL_PLACEHOLDERS[field]);
    where[field] = section.heading.index + 1;
    after = field;
  }
  if (sections.length > 0) proposal.sections = sections;
  // A section a person headed at another level, or underlined, is read as text: say where it is.
  for (const h of headingsOffLevel(lines, heads)) {
    const { underlined } = h;
    const field = FIELDS[sectionKey(h.text)];
    if (!field || where[field] !== undefined) continue;
    const shown = underlined ? `"${printable(h.text)}", underlined,` : `"${'#'.repeat(h.level)} ${printable(h.text)}"`;
    sink.error('proposal.section.level', `${shown} is not read as the proposal's ${printable(h.text)} section: its sections are headings with two # ("## ${printable(h.text)}"), and as it is it is text of the part above it`, `write it "## ${printable(h.text)}"${underlined ? ' and take out the line under it' : ''}`, h.index + 1);
    where[field] = h.index + 1;
  }
  return { proposal, lines: where };
}
