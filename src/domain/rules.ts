/**
 * The document rules. The same functions judge a document being written (before any file is
 * touched), a hand-edited file, the phase gates and `agentboard validate`.
 */
import type { FindingSink } from './findings.js';
import { REQUIREMENT_ID_PATTERN, taskIdProblem } from './ids.js';
import { LIMITS } from './limits.js';
import type { DocMeta, DocType, Proposal, ReviewRound, Spec, Task } from './model.js';
import { charCount, printable } from './text.js';

export function metaRules(meta: DocMeta, changeId: string, type: DocType, sink: FindingSink): void {
  if (meta.change_id && meta.change_id !== changeId) {
    sink.error('frontmatter.change_id', `change_id "${printable(meta.change_id)}" does not match the folder "${changeId}"`, `set "change_id: ${changeId}"`, 1);
  }
  if (meta.id && meta.id !== `${changeId}/${type}`) {
    sink.warn('frontmatter.id', `id "${printable(meta.id)}" is not "${changeId}/${type}"`, `set "id: ${changeId}/${type}"`, 1);
  }
  if (meta.status !== 'template' && !meta.author) {
    sink.error('frontmatter.author', 'the document does not say who wrote it', 'add "author: <agent id or human:name>"', 1);
  }
  // A decision is a person's, and agentboard's approve and reject record whose: one written into the file (and committed) records no one.
  if ((meta.status === 'approved' || meta.status === 'rejected') && (!meta.decided_by || !meta.decided_by.startsWith('human:'))) {
    const who = meta.decided_by ? `names ${printable(meta.decided_by)}, who is no person, as deciding it` : 'names no person who decided it';
    const verb = meta.status === 'approved' ? 'approve' : 'reject';
    sink.warn('frontmatter.decided_by', `this ${type === 'review' ? 'review' : type} says "${meta.status}" but ${who} (decided_by): \`agentboard ${verb}\` records the person who decides; a status written into the file records no one`, `if no person decided it, set "status: submitted" back and have a person run \`agentboard ${verb} ${changeId} ${type}\``, 1);
  }
}

function length(sink: FindingSink, rule: string, what: string, text: string, min: number, max: number, line?: number, section?: Section): void {
  const n = charCount(text.trim());
  if (n < min) {
    const fix = min > 1 ? `write at least ${min} characters` : `write the ${what}`;
    if (n === 0 && line === undefined && section) {
      // No heading of the section at all: say which heading is read, and which of the document's own headings may have been meant.
      const meant = section.others.find((h) => nearly(h, section.heading));
      const also = meant === undefined ? '' : ` (the heading "## ${printable(meant)}" is not read as it: it would be "## ${section.heading}")`;
      sink.error(`${rule}.missing`, `the ${section.doc} has no "## ${section.heading}" section${also}`, `add a "## ${section.heading}" section and ${fix}`);
      return;
    }
    sink.error(`${rule}.${n === 0 ? 'missing' : 'too_short'}`, n === 0 ? `${what} is empty` : `${what} has ${n} characters; it needs at least ${min}`, fix, line);
  } else if (n > max) {
    sink.error(`${rule}.too_long`, `${what} has ${n} characters; at most ${max} are allowed`, `shorten it to ${max} characters`, line);
  }
}

/** A section a document reads by its heading: the heading, and the document's other headings (kept as written). */
interface Section {
  doc: string;
  heading: string;
  others: string[];
}

/** Whether a heading is one letter or two away from another (a typo), in any case. */
function nearly(a: string, b: string): boolean {
  const x = a.trim().toLowerCase();
  const y = b.toLowerCase();
  if (x === '' || Math.abs(x.length - y.length) > 2) return false;
  // Edit distance, cut off above 2.
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length]! <= 2;
}

export function proposalRules(p: Proposal, sink: FindingSink, lines: Partial<Record<keyof Proposal, number>> = {}): void {
  const title = charCount(p.title);
  if (title > LIMITS.titleMax) {
    sink.error('proposal.title.too_long', `the title has ${title} characters; at most ${LIMITS.titleMax} are allowed`, 'shorten the title', 1);
  }
  const others = (p.sections ?? []).map((s) => s.heading);
  const section = (heading: string): Section => ({ doc: 'proposal', heading, others });
  length(sink, 'proposal.why', 'Why', p.why, LIMITS.whyMin, LIMITS.whyMax, lines.why, section('Why'));
  length(sink, 'proposal.what_changes', 'What Changes', p.what_changes, 1, LIMITS.sectionMax, lines.what_changes, section('What Changes'));
  length(sink, 'proposal.impact', 'Impact', p.impact, 1, LIMITS.sectionMax, lines.impact, section('Impact'));
}

/**
 * MUST and SHALL in any case ("must" says what is required as much as "MUST" does), and the words
 * that say it in the other languages specs are written in (those spec-kit writes: Spanish,
 * Portuguese, French, German, Italian, Russian, Ukrainian, Chinese, Japanese and Korean).
 */
const NORMATIVE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:must|shall|debe|deben|deberá|deberán|deve|devem|deverá|deverão|devono|dovrà|dovranno|doit|doivent|devra|devront|muss|müssen|должен|должна|должно|должны|обязан|обязана|обязаны|повинен|повинна|повинно|повинні|мусить)(?![\\p{L}\\p{N}])|必须|必須|应当|應當|なければならない|해야 한다|해야 합니다|하여야 한다|하여야 합니다`,
  'iu',
);
const WEAK = /\bshould\b/i;

export interface SpecRuleOptions {
  /** The spec was brought over from another tool: a requirement without MUST or SHALL is reported, not refused. */
  imported?: boolean;
}

/**
 * Whether a spec needs acceptance scenarios: not when every requirement of it is one the change
 * removes or renames (OpenSpec's REMOVED and RENAMED deltas), since it then asks nothing of the
 * system that a scenario could accept.
 */
export function needsScenarios(spec: Pick<Spec, 'requirements'>): boolean {
  return spec.requirements.length === 0 || spec.requirements.some((r) => r.delta !== 'REMOVED' && r.delta !== 'RENAMED');
}

export function specRules(spec: Spec, sink: FindingSink, lines: { overview?: number; requirements?: number[]; scenarios?: number[] } = {}, options: SpecRuleOptions = {}): void {
  length(sink, 'spec.overview', 'the overview', spec.overview, LIMITS.overviewMin, LIMITS.sectionMax, lines.overview, { doc: 'spec', heading: 'Overview', others: (spec.sections ?? []).map((s) => s.heading) });
  if (spec.requirements.length === 0) {
    sink.error('spec.requirements.missing', 'the spec has no requirements', 'add at least one "### R1: Title" requirement with MUST or SHALL', lines.overview);
  }
  const seen = new Set<string>();
  spec.requirements.forEach((r, i) => {
    const line = lines.requirements?.[i];
    const id = printable(r.id);
    if (r.id && !REQUIREMENT_ID_PATTERN.test(r.id)) {
      sink.error('spec.requirement.id', `requirement id "${id}" is not a short prefix and a number, like R1, A1, FR-001 or AUTH-R2`, 'number requirements like R1, R2… (a prefix is welcome: MS-R1, FR-001)', line);
    }
    if (r.id && seen.has(r.id)) sink.error('spec.requirement.duplicate', `requirement id "${id}" is used twice`, 'give each requirement its own id', line);
    seen.add(r.id);
    if (!r.title.trim()) sink.error('spec.requirement.title', `requirement ${id} has no title`, `write "### ${id || 'R1'}: <title>"`, line);
    // What a change removes or renames is not required of the system.
    const normative = r.delta !== 'REMOVED' && r.delta !== 'RENAMED';
    if (!r.text.trim()) {
      sink.error('spec.requirement.text', `requirement ${id} has no text`, 'say what the system MUST or SHALL do', line);
    } else if (normative && !NORMATIVE.test(r.text)) {
      if (WEAK.test(r.text)) {
        sink.warn('spec.requirement.normative_weak', `requirement ${id} only says "should"`, 'write MUST or SHALL if it is required; keep "should" if it is only recommended', line);
      } else if (options.imported) {
        sink.warn('spec.requirement.normative', `requirement ${id} has no MUST or SHALL (as it was imported)`, 'state the requirement with MUST or SHALL', line);
      } else {
        sink.error('spec.requirement.normative', `requirement ${id} has no MUST or SHALL`, 'state the requirement with MUST or SHALL', line);
      }
    }
  });
  if (spec.scenarios.length === 0 && needsScenarios(spec)) {
    sink.error('spec.scenarios.missing', 'the spec has no acceptance scenarios', 'add at least one "### Scenario: <name>" with WHEN and THEN bullets under "## Acceptance Criteria"', lines.overview);
  }
  spec.scenarios.forEach((s, i) => {
    const line = lines.scenarios?.[i];
    const name = printable(s.name);
    if (!s.name.trim()) sink.error('spec.scenario.name', 'a scenario has no name', 'write "### Scenario: <name>"', line);
    if (!s.when.trim()) sink.error('spec.scenario.when', `scenario "${name}" has no WHEN`, 'add a "- **WHEN** …" bullet', line);
    if (!s.then.trim()) sink.error('spec.scenario.then', `scenario "${name}" has no THEN`, 'add a "- **THEN** …" bullet', line);
    if (s.requirement !== undefined && !seen.has(s.requirement)) {
      sink.warn('spec.scenario.requirement', `scenario "${name}" belongs to requirement ${printable(s.requirement)}, which the spec does not have`, 'fix the id after "**Requirement**:", or add the requirement', line);
    }
  });
}

/**
 * Rules over the tasks of one change; `requirementIds` is null when the change has no readable spec.
 * (A task with the id of a deleted one is found where the list is read: format-tasks.ts.)
 */
export function tasksRules(tasks: { task: Task; line: number }[], requirementIds: Set<string> | null, sink: FindingSink, unreadable: readonly string[] = []): void {
  // A task whose block cannot be read is still a task of the list (its own error says why): depending on it is no error of its own.
  const ids = new Set([...tasks.map((t) => t.task.id), ...unreadable]);
  for (const { task, line } of tasks) {
    const id = printable(task.id);
    const idProblem = taskIdProblem(task.id);
    if (idProblem) sink.error('tasks.id', idProblem, 'rename the task', line);
    length(sink, 'tasks.title', `the title of task ${id}`, task.title, 1, LIMITS.titleMax, line);
    const description = charCount(task.description);
    if (description > LIMITS.taskDescriptionMax) {
      sink.error('tasks.description.too_long', `the description of task ${id} has ${description} characters; at most ${LIMITS.taskDescriptionMax} are allowed`, 'shorten it, or split the task', line);
    }
    for (const dep of new Set(task.depends)) {
      // A task named twice is most often a slip for another one: which was meant, only its writer can tell.
      if (task.depends.indexOf(dep) !== task.depends.lastIndexOf(dep)) {
        sink.error('tasks.depends.duplicate', `task ${id} names ${printable(dep)} more than once in its depends`, `name ${printable(dep)} once, or replace the others with the tasks that were meant`, line);
      }
      if (dep === task.id) sink.error('tasks.depends.self', `task ${id} depends on itself`, `remove ${id} from its depends`, line);
      else if (!ids.has(dep)) sink.error('tasks.depends.unknown', `task ${id} depends on ${printable(dep)}, which is not a task of this change`, `add task ${printable(dep)} or remove it from depends`, line);
    }
    for (const file of task.files) {
      if (file.path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file.path) || file.path.split(/[\\/]/).includes('..')) {
        sink.error('tasks.files.path', `task ${id}: "${printable(file.path)}" is not a path inside the repository`, 'use a path relative to the repository root, without ".."', line);
      }
    }
    if (requirementIds) {
      for (const ref of task.requirements) {
        if (!requirementIds.has(ref)) sink.warn('tasks.requirements.unknown', `task ${id} refers to requirement ${printable(ref)}, which the spec does not have`, 'fix the id or add the requirement to the spec', line);
      }
    }
    if ((task.status === 'in_progress' || task.status === 'blocked' || task.status === 'in_review') && !task.assignee) {
      sink.error('tasks.assignee.missing', `task ${id} is ${task.status} but nobody holds it`, 'set "assignee:" or set the status back to todo', line);
    }
  }
  for (const cycle of dependencyCycles(tasks.map((t) => t.task))) {
    const line = tasks.find((t) => t.task.id === cycle[0])?.line;
    sink.error('tasks.depends.cycle', `tasks depend on each other in a circle: ${[...cycle, cycle[0]].join(' → ')}`, 'remove one of these dependencies', line);
  }
}

/** Each cycle once, as the list of task ids on it. */
export function dependencyCycles(tasks: Task[]): string[][] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[][] = [];
  const path: string[] = [];
  const visit = (id: string) => {
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of byId.get(id)?.depends ?? []) {
      if (!byId.has(dep) || dep === id) continue;
      const s = state.get(dep);
      if (s === 'visiting') cycles.push(path.slice(path.indexOf(dep)));
      else if (s === undefined) visit(dep);
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const t of tasks) if (!state.has(t.id)) visit(t.id);
  return cycles;
}

export function reviewRules(rounds: ReviewRound[], sink: FindingSink): void {
  const latest = rounds[0];
  if (!latest) return;
  if (!latest.summary.trim()) sink.error('review.summary.missing', 'the latest review round has no summary', 'write a summary under "## Summary"', 1);
  latest.issues.forEach((issue) => {
    if (!issue.title.trim()) sink.error('review.issue.title', 'an issue has no title', 'write "#### <title>" for each issue', 1);
    if (!issue.description.trim()) sink.error('review.issue.description', `issue "${printable(issue.title)}" has no description`, 'describe the issue under its heading', 1);
  });
  if (latest.verdict === 'APPROVED' && latest.issues.some((i) => i.severity === 'High')) {
    sink.warn('review.verdict.high_issues', 'the verdict is APPROVED but High severity issues are listed', 'fix the High issues or choose NEEDS_FIX', 1);
  }
}
