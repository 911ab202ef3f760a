/**
 * Markdown as input: a document written by hand (or by another tool) becomes the same JSON input
 * an operation takes, read by the same parsers that read the board. tasks also accept the
 * checklist style that agentd writes (`- [ ] 1.1 Title` with File / Depends / Do sub-bullets).
 */
import { fail } from '../errors.js';
import { FindingSink, type Finding } from '../domain/findings.js';
import type { DocType } from '../domain/model.js';
import { parseProposalBody } from '../store/format-proposal.js';
import { parseReviewBody } from '../store/format-review.js';
import { parseSpecBody } from '../store/format-spec.js';
import { parseTasksBody } from '../store/format-tasks.js';
import { splitFrontmatter } from '../store/markdown.js';

function refuseErrors(findings: Finding[], shownAs: string): void {
  const errors = findings.filter((f) => f.level === 'error');
  if (errors.length === 0) return;
  const first = errors[0]!;
  fail('INVALID_INPUT', `${shownAs}${first.line ? `:${first.line}` : ''}: ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more problems)` : ''}.`, `Fix the markdown (${first.fix}) and run the command again; nothing was changed.`);
}

const CHECKLIST_ITEM = /^[-*][ \t]+\[([ xX])\][ \t]+(?:Task[ \t]+)?([A-Za-z0-9][A-Za-z0-9._-]*)[:.]?[ \t]+(.+)$/;
const SUB_BULLET = /^[ \t]{2,}[-*][ \t]+([A-Za-z][A-Za-z ]*?):[ \t]*(.*)$/;
const FILE_VALUE = /^`?([^`(]+?)`?\s*(?:\((CREATE|MODIFY|DELETE)\))?\s*$/i;

/** agentd's checklist: returns null when the text holds no checklist items. */
export function parseChecklistTasks(body: string): Record<string, unknown>[] | null {
  const lines = body.split('\n');
  const tasks: Record<string, unknown>[] = [];
  let current: { id: string; title: string; done: boolean; files: { path: string; action: string }[]; depends: string[]; extra: string[] } | null = null;
  const flush = () => {
    if (!current) return;
    const task: Record<string, unknown> = { id: current.id, title: current.title };
    if (current.extra.length) task.description = current.extra.join('\n');
    if (current.files.length) task.files = current.files;
    if (current.depends.length) task.depends = current.depends;
    if (current.done) task.status = 'done';
    tasks.push(task);
  };
  for (const line of lines) {
    const item = CHECKLIST_ITEM.exec(line);
    if (item) {
      flush();
      current = { id: item[2]!, title: item[3]!.trim(), done: item[1] !== ' ', files: [], depends: [], extra: [] };
      continue;
    }
    if (!current) continue;
    const sub = SUB_BULLET.exec(line);
    if (!sub) {
      if (line.trim() !== '' && /^[ \t]{2,}/.test(line)) current.extra.push(line.trim());
      continue;
    }
    const key = sub[1]!.toLowerCase();
    const value = sub[2]!.trim();
    if (key === 'file' || key === 'files') {
      const m = FILE_VALUE.exec(value);
      if (m) current.files.push({ path: m[1]!.trim(), action: (m[2] ?? 'modify').toLowerCase() });
    } else if (key === 'depends' || key === 'depends on') {
      if (!/^(none|-|n\/a)?$/i.test(value)) current.depends.push(...value.split(/[,\s]+/).map((d) => d.replace(/`/g, '')).filter(Boolean));
    } else if (key === 'do') {
      current.extra.unshift(value);
    } else {
      current.extra.push(`${sub[1]!}: ${value}`);
    }
  }
  flush();
  return tasks.length > 0 ? tasks : null;
}

/** The operation input fields a markdown document stands for. */
export function markdownToInput(type: DocType, markdown: string, shownAs: string): Record<string, unknown> {
  const text = markdown.replace(/\r\n?/g, '\n');
  const body = splitFrontmatter(text)?.body ?? text;
  const sink = new FindingSink(shownAs);
  switch (type) {
    case 'proposal': {
      const { proposal } = parseProposalBody(body, sink);
      refuseErrors(sink.findings, shownAs);
      const out: Record<string, unknown> = { why: proposal.why, what_changes: proposal.what_changes, impact: proposal.impact };
      if (proposal.title) out.title = proposal.title;
      return out;
    }
    case 'spec': {
      const { spec } = parseSpecBody(body, sink);
      refuseErrors(sink.findings, shownAs);
      const out: Record<string, unknown> = {
        overview: spec.overview,
        requirements: spec.requirements,
        scenarios: spec.scenarios.map((s) => (s.given ? s : { name: s.name, when: s.when, then: s.then })),
      };
      if (spec.title) out.title = spec.title;
      if (spec.data_model) out.data_model = spec.data_model;
      if (spec.interfaces) out.interfaces = spec.interfaces;
      return out;
    }
    case 'tasks': {
      const checklist = parseChecklistTasks(body);
      if (checklist) return { tasks: checklist };
      const parsed = parseTasksBody(body, sink);
      refuseErrors(sink.findings, shownAs);
      const tasks = parsed.blocks.map((b) => {
        const t = b.task!;
        const out: Record<string, unknown> = { id: t.id, title: t.title, priority: t.priority };
        if (t.description) out.description = t.description;
        if (t.depends.length) out.depends = t.depends;
        if (t.skills.length) out.skills = t.skills;
        if (t.files.length) out.files = t.files;
        if (t.requirements.length) out.requirements = t.requirements;
        if (t.status === 'done') out.status = 'done';
        return out;
      });
      const out: Record<string, unknown> = { tasks };
      if (parsed.title) out.title = parsed.title;
      return out;
    }
    case 'review': {
      const rounds = parseReviewBody(body, sink, { reviewer: '', at: '' });
      refuseErrors(sink.findings, shownAs);
      const latest = rounds[0]!;
      return { verdict: latest.verdict, summary: latest.summary, issues: latest.issues };
    }
  }
}
