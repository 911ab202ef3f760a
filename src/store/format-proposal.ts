/** proposal.md body: `# Proposal: <title>` with Why, What Changes and Impact sections. */
import type { FindingSink } from '../domain/findings.js';
import type { Proposal } from '../domain/model.js';
import { readBlock, sectionKey, writeBlock } from './blocks.js';
import { outline, sectionsAt, TextLines } from './markdown.js';
import { renderTemplate } from './template.js';
import { TEMPLATES } from './templates.js';

const FIELDS: Record<string, keyof Proposal> = { why: 'why', 'what changes': 'what_changes', impact: 'impact' };

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
  });
}

/** Where each section of a proposal stands in its body (1-based lines), for findings. */
export type ProposalLines = Partial<Record<keyof Proposal, number>>;

export function parseProposalBody(body: string, sink: FindingSink): { proposal: Proposal; lines: ProposalLines } {
  const lines = new TextLines(body);
  const heads = outline(lines);
  const h1 = heads.find((h) => h.level === 1);
  const title = h1 ? h1.text.replace(/^(?:proposal|change)\s*:\s*/i, '') : '';
  const proposal: Proposal = { title, why: '', what_changes: '', impact: '' };
  const where: ProposalLines = {};
  for (const section of sectionsAt(lines, heads, 2)) {
    const field = FIELDS[sectionKey(section.heading.text)];
    if (!field) {
      sink.warn('proposal.section', `section "${section.heading.text}" is not part of a proposal and is not read`, 'move its text into Why, What Changes or Impact', section.heading.index + 1);
      continue;
    }
    proposal[field] = readBlock(section.content, 2, PROPOSAL_PLACEHOLDERS[field]);
    where[field] = section.heading.index + 1;
  }
  return { proposal, lines: where };
}
