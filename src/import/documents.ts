/**
 * Reading other tools' documents with agentboard's own parsers, and saying in the file's report
 * where each part went: the frontmatter and wrappers a tool puts around a document are named as
 * such, each section's heading is mapped to the field or kept section it became, and every
 * finding is logged at the file's own line.
 */
import { FindingSink, type Finding } from '../domain/findings.js';
import { LIMITS } from '../domain/limits.js';
import type { Proposal, Spec, Task } from '../domain/model.js';
import { sectionKey } from '../store/blocks.js';
import { parseDesignBody } from '../store/format-design.js';
import { parseProposalBody } from '../store/format-proposal.js';
import { parseSpecBody, type SpecLines } from '../store/format-spec.js';
import { outline, splitFrontmatter, TextLines } from '../store/markdown.js';
import { parseYaml, type YamlMap } from '../store/yaml-lite.js';
import type { Checklist, ChecklistTask } from './checklist.js';
import type { ImportedChange, ImportedDoc, ImportedTasks } from './model.js';
import type { FileLog } from './report.js';

/** Takes the frontmatter off a file; each of its lines is reported with `what` it is. */
export function withoutFrontmatter(text: string, log: FileLog, what: string): { body: string; offset: number; meta: YamlMap | null } {
  const split = splitFrontmatter(text);
  if (!split) return { body: text, offset: 0, meta: null };
  text
    .split('\n')
    .slice(0, split.bodyLine - 1)
    .forEach((line, i) => {
      if (line.trim()) log.mapped(i + 1, line, what);
    });
  let meta: YamlMap | null = null;
  try {
    meta = parseYaml(split.frontmatter);
  } catch {
    log.finding('warning', 'the frontmatter is not YAML agentboard reads; nothing was taken from it', 'nothing to do: the original file keeps it', 2);
  }
  return { body: split.body, offset: split.bodyLine - 1, meta };
}

/** Blanks the lines that only wrap a document in pseudo-XML (<spec>, </spec>…), keeping every other line where it is. */
export function unwrap(body: string, tags: string[], offset: number, log: FileLog): string {
  const wrapper = new RegExp(`^</?(?:${tags.join('|')})(?:\\s[^>]*)?>$`);
  return body
    .split('\n')
    .map((line, i) => {
      if (!wrapper.test(line.trim())) return line;
      log.mapped(offset + i + 1, line, 'the wrapper around the document, not part of it');
      return '';
    })
    .join('\n');
}

export function logFindings(findings: Finding[], log: FileLog): boolean {
  for (const f of findings) log.finding(f.level, f.message, f.fix, f.line);
  return findings.some((f) => f.level === 'error');
}

function reportOutline(body: string, offset: number, log: FileLog, to: string, field: (heading: string) => string | null): void {
  for (const h of outline(new TextLines(body))) {
    if (h.level > 2) continue;
    const line = offset + h.index + 1;
    if (h.level === 1) log.mapped(line, `# ${h.text}`, `the title of ${to}`);
    else {
      const f = field(h.text);
      log.mapped(line, `## ${h.text}`, f ? `${to}: ${f}` : `${to}: kept as the section "${h.text}"`);
    }
  }
}

const PROPOSAL_FIELDS: Record<string, string> = { why: 'Why', 'what changes': 'What Changes', impact: 'Impact' };

/**
 * The proposal of a source that is valid by its own rules, made one the board's rules accept too:
 * a required part the source does not have says so, and a Why shorter than the board asks for
 * gets a sentence saying that the source gives no more. Each is a warning of the import.
 * `source` names where the proposal came from ("the OpenSpec proposal").
 */
export function completeProposal(p: Proposal, source: string, log: FileLog): Proposal {
  const out = { ...p };
  const said = source.charAt(0).toUpperCase() + source.slice(1);
  const fix = (part: string) => `write the ${part} of the change in its proposal.md on the board`;
  const why = out.why.trim();
  if (why.length < LIMITS.whyMin) {
    out.why = why ? `${why}\n\n${said} says no more of why the change is needed.` : `${said} does not say why the change is needed.`;
    log.finding('warning', why ? `the Why has ${why.length} characters, fewer than the ${LIMITS.whyMin} agentboard asks for; a sentence saying the source gives no more was added` : `${source} has no Why, which agentboard asks for; the proposal says it is not stated`, fix('Why'));
  }
  for (const [field, part] of [['what_changes', 'What Changes'], ['impact', 'Impact']] as const) {
    if (out[field].trim()) continue;
    out[field] = `Not stated in ${source}.`;
    log.finding('warning', `${source} has no ${part}, which agentboard asks for; the proposal says "Not stated in ${source}."`, fix(part));
  }
  return out;
}

/** A proposal read with agentboard's parser; null (and the errors in the report) when it cannot be read so. */
export function readProposal(body: string, offset: number, log: FileLog): Proposal | null {
  const sink = new FindingSink('');
  const { proposal } = parseProposalBody(body, sink.at(offset));
  if (logFindings(sink.findings, log)) return null;
  reportOutline(body, offset, log, 'proposal.md', (h) => PROPOSAL_FIELDS[sectionKey(h)] ?? null);
  return proposal;
}

const SPEC_FIELD = (h: string): string | null => {
  const key = sectionKey(h);
  if (key === 'overview' || key === 'purpose') return 'Overview';
  if (key === 'data model') return 'Data Model';
  if (key === 'interfaces') return 'Interfaces';
  if (key === 'acceptance criteria' || key === 'scenarios') return 'Acceptance Criteria';
  if (/^((added|modified|removed|renamed) )?requirements/.test(key)) return 'requirements';
  return null;
};

/** A spec read with agentboard's parser (the lines of its parts are body lines); null when it cannot be read so. */
export function readSpec(body: string, offset: number, log: FileLog): { spec: Spec; lines: SpecLines } | null {
  const sink = new FindingSink('');
  const read = parseSpecBody(body, sink.at(offset), true);
  // What the rules say of a spec is said where it lands, of the merged spec.
  if (logFindings(sink.findings, log)) return null;
  reportOutline(body, offset, log, 'spec.md', SPEC_FIELD);
  return read;
}

export function readDesign(text: string, log: FileLog): { title: string; text: string } {
  log.went('design.md');
  return parseDesignBody(text);
}

/** A task of a checklist as agentboard keeps it. */
export function checklistTask(t: ChecklistTask, done: boolean): Task {
  const task: Task = {
    id: t.id,
    title: t.title,
    description: t.description,
    status: done ? 'done' : 'todo',
    priority: t.priority ?? 'medium',
    depends: t.depends,
    skills: [],
    requirements: t.requirements,
    files: t.files,
    blockers: [],
    feedback: [],
    notes: [],
  };
  if (t.group !== undefined) task.group = t.group;
  return task;
}

/** Leaves out dependencies on tasks the list does not have, and says so. */
export function checkDepends(tasks: Task[], log: FileLog, lineOf: (id: string) => number | undefined): void {
  const ids = new Set(tasks.map((t) => t.id));
  for (const t of tasks) {
    const unknown = t.depends.filter((d) => !ids.has(d) || d === t.id);
    if (unknown.length === 0) continue;
    t.depends = t.depends.filter((d) => !unknown.includes(d));
    log.finding('warning', `task ${t.id} depends on ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not another task of the list; left out of its dependencies`, 'add the dependency by hand if it is another change\'s task', lineOf(t.id));
  }
}

/**
 * A checkbox nested under another is a part of it. The board's tasks have no parts, but they have
 * dependencies: the outer task waits for its parts (it is done when they are), each part waits for
 * what the outer one waited for instead of for the outer one, and its description starts with the
 * outer task's title, the context its own title leaves out.
 */
function nestedOrder(tasks: ChecklistTask[]): void {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const parts: ChecklistTask[] = [];
  for (const t of tasks) {
    const outer = t.parent === undefined ? undefined : byId.get(t.parent);
    if (!outer) continue;
    t.depends = [...new Set([...t.depends, ...outer.depends])].filter((d) => d !== outer.id && d !== t.id);
    t.description = [`Part of ${outer.id}: ${outer.title}`, t.description].filter(Boolean).join('\n\n');
    parts.push(t);
  }
  for (const t of parts) {
    const outer = byId.get(t.parent!)!;
    if (!outer.depends.includes(t.id)) outer.depends.push(t.id);
  }
}

/**
 * A checklist read from a tool's tasks.md, as the change's task list: its lines and findings
 * reported, its tasks put in the tool's order, made agentboard tasks, their dependencies checked.
 */
export function checklistTasks(
  list: Pick<Checklist, 'title' | 'intro' | 'tasks' | 'mapped' | 'findings'>,
  log: FileLog,
  order: (tasks: ChecklistTask[]) => void,
  toTask: (t: ChecklistTask) => Task = (t) => checklistTask(t, t.done),
): ImportedTasks {
  for (const m of list.mapped) log.mapped(m.line, m.text, m.to);
  for (const f of list.findings) log.finding(f.level, f.message, f.fix, f.line);
  order(list.tasks);
  nestedOrder(list.tasks);
  const tasks = list.tasks.map(toTask);
  checkDepends(tasks, log, (id) => list.tasks.find((t) => t.id === id)?.line);
  return { title: list.title, ...(list.intro ? { intro: list.intro } : {}), tasks };
}

/** The author of what the import itself says of a document (the feedback of a spec it could not read whole). */
const IMPORT_AUTHOR = 'agentboard import';

/** Makes a document land rejected with `text` as feedback, after any rejection it has already. */
export function rejectDoc(doc: ImportedDoc<unknown>, author: string, text: string): void {
  doc.rejected = doc.rejected ? { author: doc.rejected.author, text: `${doc.rejected.text}\n\n${text}` } : { author, text };
}

/**
 * Spec files of a change that could not be read (their errors are in their reports) while others
 * were: the spec made of the others lands rejected, its feedback naming each file and line, so the
 * change stays in its spec phase until what is missing is written; each file's report says so.
 */
export function rejectIncompleteSpec(change: ImportedChange, unread: string[], logs: Map<string, FileLog>): void {
  if (!change.spec || unread.length === 0) return;
  const where = unread.map((file) => {
    const line = logs.get(file)!.report.findings.find((f) => f.level === 'error')?.line;
    return `${file}${line ? `:${line}` : ''} (kept as attachments/${file.slice(change.source.length + 1)})`;
  });
  for (const file of unread) {
    logs.get(file)!.finding('error', 'this spec could not be read (see the errors above), so its requirements are not in spec.md: spec.md lands rejected, and the change waits in its spec phase', 'write its requirements and scenarios into spec.md on the board, then submit the spec again');
  }
  rejectDoc(change.spec, IMPORT_AUTHOR, `The import could not read ${where.join(', ')}, so what ${unread.length === 1 ? 'it says is' : 'they say is'} not in this spec. Write it here, then submit the spec again.`);
}

/** Keeps a file of the change's folder `dir` with the change as it is (under attachments/), and says so in its report. */
export function attachFile(change: ImportedChange, dir: string, file: string, log: FileLog): void {
  const name = `attachments/${file.slice(dir.length + 1)}`;
  change.attachments.push({ path: name, from: file });
  log.went(name);
}
