/**
 * Reading other tools' documents with agentboard's own parsers, and saying in the file's report
 * where each part went: the frontmatter and wrappers a tool puts around a document are named as
 * such, each section's heading is mapped to the field or kept section it became, and every
 * finding is logged at the file's own line.
 */
import { FindingSink, type Finding } from '../domain/findings.js';
import { CHANGE_ID_PATTERN, changeIdProblem } from '../domain/ids.js';
import { LIMITS } from '../domain/limits.js';
import { DOC_FILES, STAGES, type Proposal, type Spec, type Stage, type Task } from '../domain/model.js';
import { refTo } from '../domain/refs.js';
import { charCount, firstChars } from '../domain/text.js';
import { BOARD_DIR } from '../store/board.js';
import { sectionKey } from '../store/blocks.js';
import { parseDesignBody } from '../store/format-design.js';
import { parseProposalBody } from '../store/format-proposal.js';
import { parseSpecBody, type SpecLines } from '../store/format-spec.js';
import { outline, splitFrontmatter, TextLines } from '../store/markdown.js';
import { parseYaml, type YamlMap } from '../store/yaml-lite.js';
import { groupOf, nestedOrder, withStory, type Checklist, type ChecklistTask } from './checklist.js';
import type { ImportedChange, ImportedDoc, ImportedTasks } from './model.js';
import type { FileLog, ReportLine } from './report.js';

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
  const out = takeNamedParts(p, source, log);
  const said = source.charAt(0).toUpperCase() + source.slice(1);
  const fix = (part: string) => `write the ${part} of the change in its proposal.md on the board`;
  const why = out.why.trim();
  if (charCount(why) > LIMITS.whyMax) {
    const heading = 'Why (continued)';
    const note = `\n\n(Continued in the section "${heading}".)`;
    const head = cutAt(why, LIMITS.whyMax - note.length);
    out.why = `${head}${note}`;
    out.sections = [{ heading, text: why.slice(head.length).trim(), after: 'why' }, ...(out.sections ?? [])];
    log.finding('warning', `the Why has ${charCount(why)} characters, more than the ${LIMITS.whyMax} agentboard allows; its first ${charCount(head)} are the Why and the rest is the section "${heading}" right after it`, fix('Why'));
  } else if (charCount(why) < LIMITS.whyMin) {
    out.why = why ? `${why}\n\n${said} says no more of why the change is needed.` : `${said} does not say why the change is needed.`;
    log.finding('warning', why ? `the Why has ${charCount(why)} characters, fewer than the ${LIMITS.whyMin} agentboard asks for; a sentence saying the source gives no more was added` : `${source} has no Why, which agentboard asks for; the proposal says it is not stated`, fix('Why'));
  }
  for (const [field, part] of [['what_changes', 'What Changes'], ['impact', 'Impact']] as const) {
    if (out[field].trim()) continue;
    out[field] = `Not stated in ${source}.`;
    log.finding('warning', `${source} has no ${part}, which agentboard asks for; the proposal says "Not stated in ${source}."`, fix(part));
  }
  return out;
}

/**
 * The names proposals give a part the board asks for, when they do not call it so (OpenSpec's early
 * changes, say), or call it in another language (French, Spanish, Portuguese, German, Italian).
 */
const PART_NAMES: { field: 'why' | 'what_changes' | 'impact'; part: string; names: RegExp }[] = [
  // Matched against the heading without its accents (sectionKey keeps a-z and digits only).
  { field: 'why', part: 'Why', names: /^(?:motivation|problem(?: statement| context)?|background|rationale|pourquoi|por que|porque|motivacion|motivacao|warum|perche|motivazione)$/ },
  { field: 'what_changes', part: 'What Changes', names: /^(?:summary|proposal|proposed (?:changes?|solution)|solution|changes|changements|ce qui change|cambios|que cambia|mudancas|o que muda|anderungen|was sich andert|modifiche|cosa cambia)$/ },
  { field: 'impact', part: 'Impact', names: /^(?:impacto|impatto|auswirkungen)$/ },
];

/** A section that says why a change is made ("## Why", "## Why this spec exists", "## Problem Statement", "## Motivation"…), by its heading; undefined when none does. */
export function whySection<T extends { heading: string; text: string }>(sections: readonly T[]): T | undefined {
  const names = PART_NAMES.find((p) => p.field === 'why')!.names;
  return sections.find((x) => {
    const key = sectionKey(withoutAccents(x.heading));
    return x.text.trim() !== '' && (names.test(key) || /^why\b/.test(key));
  });
}

/**
 * A proposal with no Why (or no What Changes) whose section of another name says it ("##
 * Motivation", "## Problem Statement"; "## Summary", "## Proposal") takes that section as the part,
 * and the report says so, at the heading's line too.
 */
function takeNamedParts(p: Proposal, source: string, log: FileLog): Proposal {
  const out: Proposal = { ...p };
  const sections = (p.sections ?? []).map((x) => ({ ...x }));
  for (const { field, part, names } of PART_NAMES) {
    if (out[field].trim()) continue;
    const i = sections.findIndex((x) => names.test(sectionKey(withoutAccents(x.heading))) && x.text.trim());
    if (i < 0) continue;
    const [section] = sections.splice(i, 1);
    out[field] = section!.text;
    // What followed the section follows the part it became.
    for (const later of sections.slice(i)) if (later.after === section!.after) later.after = field;
    log.finding('info', `${source} has no ${part} section; its section "${section!.heading}" is the ${part} of proposal.md`, 'nothing to do');
    for (const l of log.report.lines) if (l.text === `## ${section!.heading}` && l.to === `proposal.md: kept as the section "${section!.heading}"`) l.to = `proposal.md: ${part}`;
  }
  if (sections.length > 0) out.sections = sections;
  else delete out.sections;
  return out;
}

/** Where a text may be cut, best first: after a paragraph, a sentence, a word (the number is how much of the match stays). */
const CUTS: [RegExp, number][] = [
  [/\n\s*\n/g, 0],
  [/[.!?](?=\s)|[。！？]/g, 1],
  [/\s/g, 0],
];

/** The start of a text of at most `max` characters, ending at a paragraph, else a sentence, else a word. */
function cutAt(text: string, max: number): string {
  const start = firstChars(text, max);
  for (const [end, keep] of CUTS) {
    const cut = [...start.matchAll(end)].map((m) => m.index + keep).filter((i) => charCount(start.slice(0, i).trim()) >= LIMITS.whyMin).at(-1);
    if (cut !== undefined) return start.slice(0, cut).trimEnd();
  }
  return start;
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

/** A task of a checklist as agentboard keeps it; `stories` are the titles of the user stories its spec names (US1 → title). */
export function checklistTask(t: ChecklistTask, done: boolean, stories?: ReadonlyMap<string, string>): Task {
  const task: Task = {
    id: t.id,
    title: t.title,
    description: withStory(t, stories),
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
  const group = groupOf(t);
  if (group !== undefined) task.group = group;
  return task;
}

/**
 * A task whose description is longer than the board allows: its start, cut where a paragraph, a
 * sentence or a word ends, is the description, and the rest the task's first note, whole (the board
 * keeps a note of any length). The note is the import's: its author and time are set where it lands.
 */
function fitDescription(t: Task, log: FileLog, line: number | undefined): void {
  const length = charCount(t.description);
  if (length <= LIMITS.taskDescriptionMax) return;
  const said = "\n\n(Continued in the task's first note.)";
  const head = cutAt(t.description, LIMITS.taskDescriptionMax - charCount(said));
  t.notes = [{ author: '', at: '', text: t.description.slice(head.length).trim() }, ...t.notes];
  t.description = `${head}${said}`;
  log.finding('warning', `the description of task ${t.id} has ${length} characters, more than the ${LIMITS.taskDescriptionMax} agentboard allows; its first ${charCount(head)} are the description and the rest is the task's first note`, 'nothing to do, or shorten the description on the board', line);
}

/** Leaves out dependencies on tasks the list does not have (`left`: the items it marks not to be done), and says so. */
export function checkDepends(tasks: Task[], log: FileLog, lineOf: (id: string) => number | undefined, left: ReadonlySet<string> = new Set()): void {
  const ids = new Set(tasks.map((t) => t.id));
  for (const t of tasks) {
    const gone = t.depends.filter((d) => left.has(d) && !ids.has(d));
    const unknown = t.depends.filter((d) => (!ids.has(d) || d === t.id) && !gone.includes(d));
    t.depends = t.depends.filter((d) => !unknown.includes(d) && !gone.includes(d));
    if (gone.length > 0) log.finding('warning', `task ${t.id} depends on ${gone.join(', ')}, which the list marks not to be done; left out of its dependencies`, 'nothing to do, or add the dependency back on the board if the task is added after all', lineOf(t.id));
    if (unknown.length > 0) log.finding('warning', `task ${t.id} depends on ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not another task of the list; left out of its dependencies`, 'add the dependency by hand if it is another change\'s task', lineOf(t.id));
  }
}

/** An id the list gives to several items (T000 on each): the later items get T000-2, T000-3…, and a warning says so. Returns the lines of the items renamed. */
function uniqueIds(tasks: ChecklistTask[], log: FileLog): Set<number> {
  const ids = new Set(tasks.map((t) => t.id));
  const again = new Map<string, ChecklistTask[]>();
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.id)) again.set(t.id, [...(again.get(t.id) ?? []), t]);
    seen.add(t.id);
  }
  for (const [id, later] of again) {
    let n = 2;
    const renamed = later.map((t) => {
      while (ids.has(`${id}-${n}`)) n++;
      t.id = `${id}-${n}`;
      ids.add(t.id);
      return `${t.id} (line ${t.line})`;
    });
    const first = tasks.find((t) => t.id === id)!;
    log.finding('warning', `the task id ${id} is given to ${later.length + 1} items of the list; the first (line ${first.line}) keeps it, the others are ${renamed.join(', ')} on the board, and a dependency on ${id} is one on the first`, 'nothing to do, or renumber the tasks on the board', first.line);
  }
  return new Set([...again.values()].flat().map((t) => t.line));
}

/**
 * The report's lines with the ids the tasks landed under, where an id given to several items made
 * the later ones T000-2, T000-3… (`given`: each task's id as the list gave it, in order): an item's
 * line and the lines under it name its own id, and a group's line names each of its tasks.
 */
function withIdsAsLanded(mapped: readonly ReportLine[], given: readonly string[], tasks: readonly ChecklistTask[]): ReportLine[] {
  const byLine = new Map(tasks.map((t, i) => [t.line, i]));
  // The nth time a list of a group names an id given twice, it is the nth task given that id.
  const landedAs = () => {
    const seen = new Map<string, number>();
    return (id: string) => {
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      const i = given.flatMap((g, k) => (g === id ? [k] : []))[n];
      return i === undefined ? id : tasks[i]!.id;
    };
  };
  const groups = landedAs();
  const subgroups = landedAs();
  let current = -1;
  return [...mapped]
    .sort((a, b) => a.line - b.line)
    .map((m) => {
      current = byLine.get(m.line) ?? current;
      const group = /^the group of tasks (.+?)(, under the heading above it)?$/.exec(m.to);
      if (group) return { ...m, to: `the group of tasks ${group[1]!.split(', ').map(group[2] ? subgroups : groups).join(', ')}${group[2] ?? ''}` };
      const own = current >= 0 ? given[current]! : null;
      const named = own !== null && (m.to === `task ${own}` || m.to.startsWith(`task ${own} `));
      return named ? { ...m, to: `task ${tasks[current]!.id}${m.to.slice(`task ${own}`.length)}` } : m;
    });
}

/**
 * A checklist read from a tool's tasks.md, as the change's task list: its lines and findings
 * reported, its tasks put in the tool's order, made agentboard tasks, their dependencies checked.
 */
export function checklistTasks(
  list: Pick<Checklist, 'title' | 'intro' | 'tasks' | 'mapped' | 'findings'> & Partial<Pick<Checklist, 'left'>>,
  log: FileLog,
  order: (tasks: ChecklistTask[]) => void,
  toTask: (t: ChecklistTask) => Task = (t) => checklistTask(t, t.done),
): ImportedTasks {
  // What is found here is of the tasks as they land: not said if the list is kept in attachments/ instead (keepInOrder).
  const from = log.report.findings.length;
  const given = list.tasks.map((t) => t.id);
  const renamed = uniqueIds(list.tasks, log);
  for (const m of renamed.size > 0 ? withIdsAsLanded(list.mapped, given, list.tasks) : list.mapped) log.mapped(m.line, m.text, m.to);
  for (const f of list.findings) {
    // The checklist's "used twice" of an item given an id of its own here is answered by uniqueIds' warning.
    if (renamed.has(f.line!) && f.message.endsWith('is used twice')) continue;
    // A field the import could not read is not lost, and the task lands: the line is in its description.
    if (f.kept) log.finding('warning', `${f.message}; the line stays in the task's description`, f.fix, f.line);
    else log.finding(f.level, f.message, f.fix, f.line);
  }
  order(list.tasks);
  nestedOrder(list.tasks);
  const tasks = list.tasks.map(toTask);
  const lineOf = (id: string) => list.tasks.find((t) => t.id === id)?.line;
  for (const t of tasks) fitDescription(t, log, lineOf(t.id));
  checkDepends(tasks, log, lineOf, new Set((list.left ?? []).flatMap((t) => (t.id ? [t.id] : []))));
  log.saidOf('tasks.md', from);
  return { title: list.title, ...(list.intro ? { intro: list.intro } : {}), tasks };
}


/**
 * The file of the folder `dir` a document is read from: the one named `name`, else the one whose
 * name differs from it in case alone (Tasks.md, SPEC.md), which its report says. Beside a file
 * named `name`, one so named is not read (it is kept in attachments/); two so named and none named
 * `name`: none is read. Their reports say why. Returns `dir/name` when no file is read.
 */
export function documentFile(files: readonly string[], dir: string, name: string, logs: Map<string, FileLog>): string {
  const exact = `${dir}/${name}`;
  const variants = files.filter((f) => f !== exact && f.startsWith(`${dir}/`) && f.slice(dir.length + 1).toLowerCase() === name.toLowerCase());
  if (files.includes(exact)) {
    for (const f of variants) logs.get(f)?.finding('warning', `its name differs from ${name} in case alone, and ${name} is beside it: ${name} is read as the document, this file is kept as it is`, `join what it says into ${name} in the source and import again, or write it on the board`);
    return exact;
  }
  if (variants.length === 1) {
    logs.get(variants[0]!)?.finding('info', `read as ${name}: its name differs from it in case alone`, 'nothing to do');
    return variants[0]!;
  }
  // A task list named in the singular, as people name it, when the folder has none of the plural name.
  if (name === 'tasks.md' && variants.length === 0) {
    const singular = files.filter((f) => f.startsWith(`${dir}/`) && f.slice(dir.length + 1).toLowerCase() === 'task.md');
    if (singular.length === 1) {
      logs.get(singular[0]!)?.finding('info', 'read as tasks.md: its name is the singular of it', 'nothing to do');
      return singular[0]!;
    }
  }
  for (const f of variants) logs.get(f)?.finding('warning', `${variants.length} files are named ${name} but for case, and none exactly: none of them is read as the document, each is kept as it is`, `rename the one that is the ${name} to ${name} in the source and import again`);
  return exact;
}

/** The name of a file of the change's folder `dir` under the change's attachments/. */
function attachmentName(dir: string, file: string): string {
  return `attachments/${file.slice(dir.length + 1)}`;
}

/** Where a file of a change that lands in no document is kept on the board: the change's attachments/, open or archived. */
export function keptAs(change: ImportedChange, file: string): string {
  const folder = change.archived ? `${BOARD_DIR}/archive/${change.archived}-${change.id}` : `${BOARD_DIR}/changes/${change.id}`;
  return `${folder}/${attachmentName(change.source, file)}`;
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
    return `${file}${line ? `:${line}` : ''} (kept as ${attachmentName(change.source, file)})`;
  });
  for (const file of unread) {
    logs.get(file)!.finding('error', 'this spec could not be read (see the errors above), so its requirements are not in spec.md: spec.md lands rejected, and the change waits in its spec phase', 'write its requirements and scenarios into spec.md on the board, then submit the spec again');
  }
  rejectDoc(change.spec, IMPORT_AUTHOR, `The import could not read ${where.join(', ')}, so what ${unread.length === 1 ? 'it says is' : 'they say is'} not in this spec. Write it here, then submit the spec again.`);
}

/** Keeps a file of the change's folder `dir` with the change as it is (under attachments/), and says so in its report. */
export function attachFile(change: ImportedChange, dir: string, file: string, log: FileLog): void {
  const name = attachmentName(dir, file);
  change.attachments.push({ path: name, from: file });
  log.went(name);
}

/**
 * A name with its letters' accents taken off (café is cafe), whichever unicode form it is in: a file
 * system may give a name with é as one character (NFC, as most do) or as e and a combining accent
 * (NFD, as macOS's HFS+ does), and both are to give the same id.
 */
function withoutAccents(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * The id a change of the source gets on the board: the name of its folder, made lowercase
 * kebab-case when it is not one (UI-FIX-2 is ui-fix-2, add_search is add-search, café is cafe),
 * and cut after its last whole word within the longest id when it is longer (`why` says so);
 * `problem` says why there is none (a name with no letter a-z or digit).
 */
export function changeIdFor(name: string): { id: string; problem: string | null; why?: string } {
  const id = CHANGE_ID_PATTERN.test(name)
    ? name
    : withoutAccents(name)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
  if (!id) return { id, problem: `"${name}" has no letter a-z or digit to make a change id of` };
  if (id.length > LIMITS.changeIdMax) {
    const short = cutToWord(id, LIMITS.changeIdMax);
    if (changeIdProblem(short) === null) return { id: short, problem: null, why: `a change id has at most ${LIMITS.changeIdMax} characters` };
  }
  return { id, problem: changeIdProblem(id) };
}

/** A kebab-case id of at most `max` characters: cut after its last whole word that fits (mid-word only when one word is longer). */
export function cutToWord(id: string, max: number): string {
  if (id.length <= max) return id;
  const cut = id.slice(0, max);
  const dash = cut.lastIndexOf('-');
  return (id[max] === '-' || dash < LIMITS.changeIdMin ? cut : cut.slice(0, dash)).replace(/-+$/, '');
}

/** A change of the source that cannot land: nothing of it is read, and its row says why. */
export function refusedChange(name: string, dir: string, problem: string, part = 'the folder to a name of'): ImportedChange {
  return {
    id: name,
    source: dir,
    attachments: [],
    refused: { message: `the change folder ${dir} cannot be a change of agentboard: ${problem}`, fix: `rename ${part} ${LIMITS.changeIdMin} to ${LIMITS.changeIdMax} characters of a-z, 0-9 and single dashes, then import again` },
  };
}

/** Says on the change that its id is not the name of its folder as written, and why (`why`; by default: the name is not an id). */
export function noteRenamed(change: ImportedChange, name: string, why = 'a change id is lowercase a-z, 0-9 and dashes'): void {
  if (change.id === name) return;
  (change.findings ??= []).push({ level: 'info', message: `the change "${name}" is ${change.id} on the board: ${why}`, fix: 'nothing to do' });
}

/**
 * The prefix of the requirement ids of a capability (or spec file) named `name`: BOOKMARKS for
 * bookmarks, CLI-UPDATE for cli-update. Each part of an id starts with a letter A-Z and the id has
 * at most LIMITS.requirementIdMax characters, so a name with no letter A-Z (用户认证) gives CAP1,
 * and two names that would give one prefix (user-auth, user_auth) get USER-AUTH and USER-AUTH2.
 */
export function requirementPrefix(name: string, taken: Set<string>): string {
  const parts: string[] = [];
  for (const part of withoutAccents(name).toUpperCase().split(/[^A-Z0-9]+/)) {
    const word = parts.length === 0 ? part.replace(/^\d+/, '') : part;
    if (!word) continue;
    if (/^\d/.test(word)) parts[parts.length - 1] += word;
    else parts.push(word);
  }
  // Room for "-R", a number of the requirements a spec may have, and a number telling prefixes apart.
  const base = parts.join('-').slice(0, LIMITS.requirementIdMax - 10).replace(/-+$/, '') || 'CAP';
  let prefix = base === 'CAP' ? 'CAP1' : base;
  for (let n = 2; taken.has(prefix); n++) prefix = `${base}${n}`;
  taken.add(prefix);
  return prefix;
}

const SUBMIT: Record<Stage, string> = { proposal: 'proposal.submit', spec: 'spec.create', tasks: 'tasks.create', review: 'review.create' };

/**
 * A change's documents land only where the board can hold them: in the order of its pipeline
 * (proposal → spec → tasks → review), and a spec only with requirements. A document that cannot
 * land is not written: the files it came from are no longer `used`, so the importer keeps them in
 * attachments/ as they are, and each says why and what to do next. Every importer ends with this,
 * so a change lands the same from any of them.
 */
export function keepInOrder(change: ImportedChange, logs: Map<string, FileLog>, used: Set<string>, specKit = false): void {
  const submit = (stage: Stage) => refTo(SUBMIT[stage], { change_id: change.id });
  const drop = (stage: Stage, why: string, first: string) => {
    const name = DOC_FILES[stage];
    delete change[stage];
    for (const log of logs.values()) {
      const report = log.report;
      if (!report.to.includes(name)) continue;
      report.to = report.to.filter((t) => t !== name);
      report.lines = report.to.length === 0 ? [] : report.lines.filter((l) => !l.to.includes(name));
      log.unsay(name);
      used.delete(report.file);
      const kept = keptAs(change, report.file);
      log.finding(
        'warning',
        `${why}, so no ${name} was written: this file is kept as ${kept}`,
        // A spec-kit file is no document the board's --from reads (it is told to import it): the spec is written on the board.
        change.archived ? 'nothing to do: the archived change keeps it as it was' : specKit && /spec\.md$/.test(report.file) ? `${first}; then submit the ${stage} with ${submit(stage)}, from what ${kept} says` : `${first}; then submit the ${stage} with ${submit(stage)}, its --from reading ${kept}`,
      );
    }
  };
  if (change.spec && change.spec.content.requirements.length === 0) {
    drop('spec', specKit ? 'no requirement agentboard reads is in the spec (spec-kit\'s "- **FR-001**: The system MUST …" lines or "### FR-001: Title" headings, under a "## Requirements" or "## Functional Requirements" heading)' : 'no requirement agentboard reads is in the spec ("### Requirement: Name" or "### R1: Title" headings, each saying what MUST or SHALL be)', 'write its requirements, each saying what MUST or SHALL be');
  }
  const missing: Stage[] = [];
  for (const stage of STAGES) {
    if (!change[stage]) missing.push(stage);
    else if (missing.length > 0) {
      const one = missing.length === 1;
      drop(stage, `the change has no ${missing.join(' and no ')}, which ${one ? 'comes' : 'come'} before its ${stage}`, `write ${one ? `the ${missing[0]}` : 'them'} first with ${missing.map(submit).join(', then ')}`);
    }
  }
}
