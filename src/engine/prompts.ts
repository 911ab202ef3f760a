/**
 * The prompt of each phase: templates/prompts/<phase>.md, or the project's own
 * agentd/prompts/<phase>.md when it has one, filled with the run's values.
 */
import { join } from 'node:path';
import { readTextFile } from '../store/fs.js';
import { renderTemplate } from '../store/template.js';
import implementation from '../../templates/prompts/implementation.md?raw';
import proposal from '../../templates/prompts/proposal.md?raw';
import review from '../../templates/prompts/review.md?raw';
import spec from '../../templates/prompts/spec.md?raw';
import tasks from '../../templates/prompts/tasks.md?raw';
import type { Data } from './board-ops.js';
import type { Finding, RunPhase } from './events.js';
import type { InputRecord } from '../domain/records.js';
import { plainOutput } from '../domain/text.js';

const BUILT_IN: Record<RunPhase, string> = { proposal, spec, tasks, implementation, review };

export function promptTemplate(boardDir: string, phase: RunPhase): string {
  const own = readTextFile(join(boardDir, 'prompts', `${phase}.md`), `agentd/prompts/${phase}.md`);
  return own ?? BUILT_IN[phase];
}

export function renderPrompt(boardDir: string, phase: RunPhase, values: Record<string, unknown>): string {
  const template = promptTemplate(boardDir, phase);
  let text = renderTemplate(template, values);
  // A project's own template written before {{answers}} existed still passes a person's answers on.
  if (typeof values.answers === 'string' && values.answers !== '' && !/\{\{[#^]?\s*answers\s*\}\}/.test(template)) {
    text = `${text.trimEnd()}\n\n## Questions asked, and a person's answers (follow them)\n\n${values.answers}\n`;
  }
  return text.replace(/\n{3,}/g, '\n\n');
}

/** Feedback notes (from rejections) as a list. */
export function feedbackList(notes: { author: string; at: string; text: string }[] | undefined): string {
  return (notes ?? []).map((n) => `- ${n.author} (${n.at}): ${n.text}`).join('\n');
}

/** The questions asked about a piece of work, with their answers, for the prompt of whoever works on it next. */
export function answersText(answers: InputRecord[]): string {
  return answers.map((i) => `- ${i.agent_id} asked (${i.id}): ${i.question}\n  ${resolutionText(i)}`).join('\n');
}

/** How a question was resolved: a person's answer, or the default action past its deadline. */
export function resolutionText(i: InputRecord): string {
  const r = i.resolution!;
  return r.type === 'timeout' ? `Nobody answered in time; the default action applies: ${r.value}` : `${r.by} answered: ${r.value}`;
}

/** What went wrong in an attempt, for the next one: the refusals, the rule findings, what the agent printed. */
export function findingsText(reason: string, findings: Finding[], output: string): string {
  const lines = [reason];
  const calls = findings.filter((f) => f.source === 'call');
  const rules = findings.filter((f) => f.source !== 'call');
  if (calls.length) {
    lines.push('', 'The board refused these calls:');
    for (const f of calls) lines.push(`- ${f.tool}: ${f.code}: ${f.message}${f.next_step ? ` Next: ${f.next_step}` : ''}`);
  }
  if (rules.length) {
    lines.push('', 'What `agentboard validate` finds:');
    for (const f of rules) lines.push(`- ${f.file ? `${f.file}${f.line ? `:${f.line}` : ''} ` : ''}${f.rule ? `[${f.rule}] ` : ''}${f.message}${f.fix ? ` (fix: ${f.fix})` : ''}`);
  }
  // What the agent printed for a terminal goes into a prompt as plain text: no escape sequence or control byte is passed on.
  if (output) lines.push('', 'The end of what you printed:', '', '```', plainOutput(output).slice(-2000), '```');
  return lines.join('\n');
}

/** The documents of the change written so far, as their markdown, each under its name. */
export function documentsText(docs: (Data | null)[]): string {
  const shown = docs.filter((d): d is Data => d !== null && d.status !== 'template');
  if (shown.length === 0) return '(none yet)';
  // The frontmatter is the board's bookkeeping; the agent needs the document.
  return shown.map((d) => `### ${d.file} (${d.status}, revision ${d.revision})\n\n${String(d.markdown).replace(/^---\n[\s\S]*?\n---\n/, '').trim()}`).join('\n\n');
}
