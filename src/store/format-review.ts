/**
 * REVIEW.md body: the latest round under `# Verdict: <VERDICT>`, earlier rounds under
 * `# Round <n>: <VERDICT>`, newest first. Each round has a Summary and its Issues grouped by
 * severity (### High / ### Medium / ### Low, one #### heading per issue). Reading is fail-closed:
 * an unknown verdict or severity is an error, never a default.
 */
import type { FindingSink } from '../domain/findings.js';
import { SEVERITIES, VERDICTS, type ReviewIssue, type ReviewRound, type Severity, type Verdict } from '../domain/model.js';
import { readBlock, sectionKey, writeBlock } from './blocks.js';
import { outline, sectionsAt, TextLines } from './markdown.js';
import { renderTemplate } from './template.js';
import { TEMPLATES } from './templates.js';

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

function isSeverity(v: string): v is Severity {
  return (SEVERITIES as readonly string[]).includes(v);
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
  tops.forEach((top, index) => {
    const line = top.heading.index + 1;
    const m = HEADING.exec(top.heading.text);
    if (!m) {
      sink.error('review.heading', `"# ${top.heading.text}" is not a review round heading`, 'use "# Verdict: <VERDICT>" for the latest round', line);
      return;
    }
    const verdictText = m[2]!.trim();
    if (!isVerdict(verdictText)) {
      sink.error('review.verdict', `unknown verdict "${verdictText}"`, `use exactly one of: ${VERDICTS.join(', ')}`, line);
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
    for (const section of sectionsAt(lines, heads, 2, top.heading.index + 1, top.end)) {
      const key = sectionKey(section.heading.text);
      if (key === 'summary') round.summary = readBlock(section.content, 2);
      else if (key === 'issues') round.issues = parseIssues(lines, heads, section.heading.index + 1, section.end, sink);
      else if (index === 0) {
        sink.warn('review.section', `section "${section.heading.text}" is not part of a review round and is not read`, 'keep to Summary and Issues', section.heading.index + 1);
      }
    }
    rounds.push(round);
  });
  return rounds;
}

function parseIssues(lines: TextLines, heads: ReturnType<typeof outline>, from: number, to: number, sink: FindingSink): ReviewIssue[] {
  const issues: ReviewIssue[] = [];
  for (const group of sectionsAt(lines, heads, 3, from, to)) {
    const severity = group.heading.text.trim();
    if (!isSeverity(severity)) {
      sink.error('review.severity', `unknown severity "${severity}"`, `group issues under exactly one of: ${SEVERITIES.join(', ')}`, group.heading.index + 1);
      continue;
    }
    for (const issue of sectionsAt(lines, heads, 4, group.heading.index + 1, group.end)) {
      issues.push({ title: issue.heading.text, severity, description: readBlock(issue.content, 4) });
    }
  }
  return issues;
}
