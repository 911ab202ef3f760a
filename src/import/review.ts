/**
 * Reviews written in other layouts than agentboard's own: agentd's code reviews and challenges
 * (`### Issue: <title>` blocks with `- **Severity**: High`, a `## Verdict` with a ticked box or a
 * verdict word), `### HIGH` groups of numbered or bulleted issues, and free-form `- HIGH: …`
 * bullets. The verdict word is returned as written; what it means is the caller's to decide (a
 * challenge and a code review use different words).
 */
import type { ExtraSection, ReviewIssue, Verdict } from '../domain/model.js';
import { readBlock, sectionKey } from '../store/blocks.js';
import { bulletItems, issueFromText, severityOf } from '../store/format-review.js';
import { FindingSink } from '../domain/findings.js';
import { headingLevel, outline, sectionsAt, TextLines } from '../store/markdown.js';
import { printable } from '../domain/text.js';

export interface ReviewLog {
  mapped(line: number, text: string, to: string): void;
  finding(level: 'error' | 'warning' | 'info', message: string, fix: string, line?: number): void;
}

export interface ForeignReview {
  /** The verdict as written, upper case with "_" between words (NEEDS_CHANGES, NEEDS_REVISION…); null when none was found. */
  verdict: string | null;
  verdictLine?: number;
  /** The iteration (round) number the review gives itself. */
  round?: number;
  summary: string;
  issues: ReviewIssue[];
  sections: ExtraSection[];
}

const CHECKED = /^[-*+][ \t]+\[[xX]\][ \t]+\**([A-Za-z][A-Za-z_ -]*?)\**(?:[ \t]+[-–—:].*)?$/;
const UNCHECKED = /^[-*+][ \t]+\[ \][ \t]+/;
const ITERATION = /^\*\*Iteration\*\*:[ \t]*(\d+)[ \t]*$/i;
const ISSUE_HEADING = /^issue\s*:\s*(.*)$/i;
const SEVERITY_LINE = /^[-*+][ \t]+\*\*Severity\*\*:[ \t]*(.*)$/i;
const FREE_ISSUE = /^[-*+][ \t]+\**(HIGH|MEDIUM|LOW)\**[ \t]*[:\-–—][ \t]*(.+)$/i;
const PLACEHOLDER = /^\[.*\]$/;
const STRUCK = /^~~([^~]+)~~(?:[ \t]*(?:→|->).*)?$/;

const VERDICT_WORDS: Record<string, Verdict> = { APPROVED: 'APPROVED', NEEDS_FIX: 'NEEDS_FIX', NEEDS_CHANGES: 'NEEDS_FIX', MAJOR_ISSUES: 'MAJOR_ISSUES' };

/** A code review's verdict in agentboard's words (agentd writes NEEDS_CHANGES for NEEDS_FIX); null for any other word. */
export function reviewVerdict(word: string): Verdict | null {
  return VERDICT_WORDS[word] ?? null;
}

function verdictWord(text: string): string {
  return text.trim().toUpperCase().replace(/[\s-]+/g, '_');
}

export function readForeignReview(body: string, firstLine: number, log: ReviewLog): ForeignReview {
  const lines = new TextLines(body);
  const heads = outline(lines);
  const at = (i: number) => firstLine + i;
  const out: ForeignReview = { verdict: null, summary: '', issues: [], sections: [] };
  const sections = sectionsAt(lines, heads, 2);
  const firstSection = sections[0]?.heading.index ?? lines.length;
  const intro: string[] = [];
  for (let i = 0; i < firstSection; i++) {
    const line = lines.line(i);
    if (headingLevel(line) === 1) {
      const it = /\(iteration[ \t]+(\d+)\)/i.exec(line);
      if (it) out.round = Number(it[1]);
      log.mapped(at(i), line, 'the heading of the review round');
      continue;
    }
    const it = ITERATION.exec(line.trim());
    if (it) {
      out.round = Number(it[1]);
      log.mapped(at(i), line, `review round ${it[1]}`);
      continue;
    }
    intro.push(line);
  }
  if (intro.join('').trim()) out.sections.push({ heading: '', text: readBlock(intro.join('\n').trim(), 2), after: 'issues' });

  for (const section of sections) {
    const key = sectionKey(section.heading.text);
    if (key === 'summary') {
      out.summary = readBlock(section.content, 2);
      log.mapped(at(section.heading.index), `## ${section.heading.text}`, 'the summary of the review round');
      continue;
    }
    if (key === 'verdict') {
      readVerdict(lines, section.heading.index, section.end, out, log, at, section.heading.text);
      continue;
    }
    const rest = readIssues(lines, heads, section.heading.index, section.end, out, log, at);
    const text = rest.map((r) => r.line).join('\n').trim();
    const tookIssues = rest.length < section.end - section.heading.index - 1;
    if ((text === '' || /^none( found)?\.?$/i.test(text)) && (key.includes('issue') || tookIssues)) {
      log.mapped(at(section.heading.index), `## ${section.heading.text}`, 'the issues of the review round');
      for (const r of rest) if (r.line.trim()) log.mapped(at(r.index), r.line, 'no issues');
      continue;
    }
    out.sections.push({ heading: section.heading.text, text: readBlock(text, 2), after: 'issues' });
  }
  return out;
}

function readVerdict(lines: TextLines, head: number, end: number, out: ForeignReview, log: ReviewLog, at: (i: number) => number, heading: string): void {
  log.mapped(at(head), `## ${heading}`, 'the verdict of the review round');
  const rest: string[] = [];
  for (let i = head + 1; i < end; i++) {
    const line = lines.line(i).trim();
    const checked = CHECKED.exec(line);
    if (checked && out.verdict === null) {
      out.verdict = verdictWord(checked[1]!);
      out.verdictLine = at(i);
      log.mapped(at(i), line, `the verdict ${out.verdict}`);
    } else if (UNCHECKED.test(line)) {
      log.mapped(at(i), line, 'a verdict not chosen');
    } else if (out.verdict === null && /^[A-Za-z_]+$/.test(line)) {
      out.verdict = verdictWord(line);
      out.verdictLine = at(i);
      log.mapped(at(i), line, `the verdict ${out.verdict}`);
    } else rest.push(lines.line(i));
  }
  const text = rest.join('\n').trim();
  if (text) out.sections.push({ heading, text: readBlock(text, 2), after: 'issues' });
}

/** Takes the issues out of a section; returns the section's other lines. */
function readIssues(lines: TextLines, heads: ReturnType<typeof outline>, head: number, end: number, out: ForeignReview, log: ReviewLog, at: (i: number) => number): { index: number; line: string }[] {
  const taken = new Set<number>();
  for (const sub of sectionsAt(lines, heads, 3, head + 1, end)) {
    const issue = ISSUE_HEADING.exec(sub.heading.text);
    const severity = issue ? null : severityOf(sub.heading.text);
    if (!issue && !severity) continue;
    for (let i = sub.heading.index; i < sub.end; i++) taken.add(i);
    if (severity) {
      log.mapped(at(sub.heading.index), `### ${sub.heading.text}`, `the ${severity} issues`);
      const sink = new FindingSink('');
      const items = bulletItems(lines, sub.heading.index + 1, sub.end, sink);
      for (const f of sink.findings) log.finding('error', f.message, f.fix, f.line !== undefined ? at(f.line - 1) : undefined);
      for (const item of items) {
        const issue = { ...issueFromText(item.text), severity };
        out.issues.push(issue);
        log.mapped(at(item.index), lines.line(item.index), `the ${severity} issue "${issue.title}"`);
      }
      continue;
    }
    const title = issue![1]!.trim();
    let found: string | null = null;
    const description: string[] = [];
    for (let i = sub.heading.index + 1; i < sub.end; i++) {
      const m = SEVERITY_LINE.exec(lines.line(i).trim());
      // An issue settled since is often marked so, its severity struck: "~~High~~ → Resolved".
      const struck = m && STRUCK.exec(m[1]!.trim());
      if (m && found === null) {
        found = struck ? struck[1]!.trim() : m[1]!.trim();
        log.mapped(at(i), lines.line(i), `the severity of issue "${title}"${struck ? ', and part of its description' : ''}`);
        if (struck) description.push(lines.line(i));
      } else description.push(lines.line(i));
    }
    if (PLACEHOLDER.test(title) || (found !== null && /\|/.test(found))) {
      log.mapped(at(sub.heading.index), `### ${sub.heading.text}`, 'an unfilled issue of the template, not an issue');
      for (let i = sub.heading.index + 1; i < sub.end; i++) if (lines.line(i).trim()) log.mapped(at(i), lines.line(i), 'part of the unfilled issue');
      continue;
    }
    const sev = found === null ? null : severityOf(found.replace(/\*/g, ''));
    if (!sev) {
      log.finding('error', found === null ? `issue "${printable(title)}" has no severity` : `issue "${printable(title)}": unknown severity "${printable(found)}"`, 'add "- **Severity**: High" (or Medium, or Low) to the issue', at(sub.heading.index));
      continue;
    }
    log.mapped(at(sub.heading.index), `### ${sub.heading.text}`, `the ${sev} issue "${title}"`);
    out.issues.push({ title, severity: sev, description: description.join('\n').trim() || title });
  }
  const rest: { index: number; line: string }[] = [];
  for (let i = head + 1; i < end; i++) {
    if (taken.has(i)) continue;
    const free = FREE_ISSUE.exec(lines.line(i));
    const severity = free ? severityOf(free[1]!) : null;
    if (free && severity) {
      log.mapped(at(i), lines.line(i), `a ${severity} issue`);
      out.issues.push({ ...issueFromText(free[2]!.trim()), severity });
      continue;
    }
    rest.push({ index: i, line: lines.line(i) });
  }
  return rest;
}
