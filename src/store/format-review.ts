/**
 * REVIEW.md body: the latest round under `# Verdict: <VERDICT>`, earlier rounds under
 * `# Round <n>: <VERDICT>`, newest first. Each round has a Summary and its Issues grouped by
 * severity (### High / ### Medium / ### Low, one #### heading per issue, or one bullet per issue);
 * any other section of a round is kept after its issues. Reading is fail-closed: an unknown
 * verdict or severity is an error, never a default.
 */
import type { FindingSink } from '../domain/findings.js';
import { SEVERITIES, VERDICTS, type ReviewIssue, type ReviewRound, type Severity, type Verdict } from '../domain/model.js';
import { extraSection, readBlock, renderSections, sectionKey, writeBlock } from './blocks.js';
import { outline, sectionsAt, TextLines } from './markdown.js';
import { renderTemplate } from './template.js';
import { TEMPLATES } from './templates.js';
import { charCount, firstChars, printable } from '../domain/text.js';

export function renderRound(round: ReviewRound, latest: boolean): string {
  const groups = SEVERITIES.map((severity) => ({
    severity,
    issues: round.issues
      .filter((i) => i.severity === severity)
      .map((i) => ({ title: i.title, description: writeBlock(i.description, 4) })),
  })).filter((g) => g.issues.length > 0);
  return renderTemplate(TEMPLATES.reviewRound, {
    heading: latest ? `Verdict: ${round.verdict}` : `Round ${round.round}: ${round.verdict}`,
    round: round.round,
    reviewer: round.reviewer,
    at: round.at,
    summary: writeBlock(round.summary, 2),
    groups,
    sections: renderSections(round.sections, 'issues'),
  });
}

export function renderReviewBody(rounds: ReviewRound[]): string {
  return rounds.map((r, i) => renderRound(r, i === 0)).join('\n');
}

const ROUND_LINE = /^\*\*Round (\d+)\*\* · reviewed by (.+) · (\S+)$/;
const HEADING = /^(?:Verdict|Round (\d+))\s*:\s*(.*)$/i;

function isVerdict(v: string): v is Verdict {
  return (VERDICTS as readonly string[]).includes(v);
}

/** High, Medium or Low, in any case ("### HIGH" is how some tools write it); null for anything else. */
export function severityOf(v: string): Severity | null {
  return SEVERITIES.find((s) => s.toLowerCase() === v.trim().toLowerCase()) ?? null;
}

/** Rounds newest first. `fallback` fills reviewer and time when a hand-written review has no round line. */
export function parseReviewBody(body: string, sink: FindingSink, fallback?: { reviewer: string; at: string }): ReviewRound[] {
  const lines = new TextLines(body);
  const heads = outline(lines);
  const rounds: ReviewRound[] = [];
  const tops = sectionsAt(lines, heads, 1);
  if (tops.length === 0) {
    sink.error('review.verdict.missing', 'the review has no "# Verdict: …" heading', `start the review with "# Verdict: ${VERDICTS.join(' | ')}"`, 1);
  }
  tops.forEach((top) => {
    const line = top.heading.index + 1;
    const m = HEADING.exec(top.heading.text);
    if (!m) {
      sink.error('review.heading', `"# ${printable(top.heading.text)}" is not a review round heading`, 'use "# Verdict: <VERDICT>" for the latest round', line);
      return;
    }
    const verdictText = m[2]!.trim();
    if (!isVerdict(verdictText)) {
      sink.error('review.verdict', `unknown verdict "${printable(verdictText)}"`, `use exactly one of: ${VERDICTS.join(', ')}`, line);
      return;
    }
    let first = top.heading.index + 1;
    while (first < top.end && lines.isBlank(first)) first++;
    const roundLine = first < top.end ? lines.line(first) : undefined;
    const meta = roundLine ? ROUND_LINE.exec(roundLine.trim()) : null;
    if (!meta && !fallback) {
      sink.error('review.round', 'the round line "**Round N** · reviewed by <who> · <time>" is missing', 'restore the line under the verdict heading', line + 1);
    }
    const round: ReviewRound = {
      round: meta ? Number(meta[1]) : m[1] ? Number(m[1]) : 1,
      verdict: verdictText,
      reviewer: meta ? meta[2]! : (fallback?.reviewer ?? ''),
      at: meta ? meta[3]! : (fallback?.at ?? ''),
      summary: '',
      issues: [],
    };
    const sections = [];
    for (const section of sectionsAt(lines, heads, 2, top.heading.index + 1, top.end)) {
      const key = sectionKey(section.heading.text);
      if (key === 'summary') round.summary = readBlock(section.content, 2);
      else if (key === 'issues') round.issues = parseIssues(lines, heads, section.heading.index + 1, section.end, sink);
      else sections.push(extraSection(section, 'issues'));
    }
    if (sections.length > 0) round.sections = sections;
    rounds.push(round);
  });
  return rounds;
}

function parseIssues(lines: TextLines, heads: ReturnType<typeof outline>, from: number, to: number, sink: FindingSink): ReviewIssue[] {
  const issues: ReviewIssue[] = [];
  const groups = sectionsAt(lines, heads, 3, from, to);
  let text = from;
  while (text < (groups[0]?.heading.index ?? to) && (lines.isBlank(text) || /^no issues found\.?$/i.test(lines.line(text).trim()))) text++;
  if (text < (groups[0]?.heading.index ?? to)) {
    sink.error('review.issues.text', 'text under "## Issues" stands outside a severity group', `group issues under "### ${SEVERITIES.join('", "### ')}"`, text + 1);
  }
  for (const group of groups) {
    const severity = severityOf(group.heading.text);
    if (!severity) {
      sink.error('review.severity', `unknown severity "${printable(group.heading.text.trim())}"`, `group issues under exactly one of: ${SEVERITIES.join(', ')}`, group.heading.index + 1);
      continue;
    }
    const headed = sectionsAt(lines, heads, 4, group.heading.index + 1, group.end);
    const bullets = bulletItems(lines, group.heading.index + 1, headed[0]?.heading.index ?? group.end, sink);
    for (const item of bullets) issues.push({ ...issueFromText(item.text), severity });
    for (const issue of headed) {
      issues.push({ title: issue.heading.text, severity, description: readBlock(issue.content, 4) });
    }
  }
  return issues;
}

const BULLET = /^(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$/;

/** The list items in lines [from, to), each with the lines indented under it and the index of its first line; other text is an error. */
export function bulletItems(lines: TextLines, from: number, to: number, sink: FindingSink): { text: string; index: number }[] {
  const items: { lines: string[]; index: number }[] = [];
  for (let i = from; i < to; i++) {
    const line = lines.line(i);
    const m = BULLET.exec(line);
    if (m) items.push({ lines: [m[1]!], index: i });
    else if (line.trim() === '') {
      if (items.length > 0) items[items.length - 1]!.lines.push('');
    } else if (items.length > 0 && /^\s/.test(line)) items[items.length - 1]!.lines.push(line.replace(/^ {1,4}|^\t/, ''));
    else sink.error('review.issue.text', 'a line under a severity is neither an issue heading ("#### Title") nor a list item', 'write each issue as "#### Title" with its description under it, or as a list item', i + 1);
  }
  return items.map((item) => ({ text: item.lines.join('\n').trim(), index: item.index }));
}

/**
 * An issue written as one list item: a bold lead ("**Title**") or its first sentence is the title;
 * the whole text is the description, so that nothing of it is lost.
 */
export function issueFromText(text: string): Omit<ReviewIssue, 'severity'> {
  const bold = /^\*\*(.+?)\*\*[ \t]*(?:[:.—-][ \t]*)?/.exec(text);
  if (bold) {
    const rest = text.slice(bold[0].length).trim();
    return { title: bold[1]!.trim(), description: rest || bold[1]!.trim() };
  }
  const first = text.split('\n')[0]!;
  const sentence = /^(.{8,120}?)[.:;](?:\s|$)/.exec(first)?.[1] ?? first;
  const title = charCount(sentence) <= 120 ? sentence : `${firstChars(sentence, 117).replace(/\s+\S*$/, '')}…`;
  return { title: title.replace(/[ \t]#+$/, '').trim(), description: text };
}
