/**
 * Markdown as input: a document written by hand (or by another tool) becomes the same JSON input
 * an operation takes, read by the same parsers that read the board. Nothing is dropped on the way:
 * what has a field goes into it, what has none is kept as written (a section stays in its place,
 * text around a task list stays with the list), and what cannot be read is refused with its file,
 * line and the fix; what a write does not take of the frontmatter is said with its warnings.
 * agentboard's own layout is recognised first; then the shapes other tools write (checklists of
 * tasks, agentd's reviews, OpenSpec's requirements and scenarios).
 */
import { fail } from '../errors.js';
import { FindingSink, type Finding } from '../domain/findings.js';
import { DOC_STATUSES, DOC_TYPES, VERDICTS, type ExtraSection, type Stage, type Verdict } from '../domain/model.js';
import { needsScenarios, proposalRules, reviewRules, specRules } from '../domain/rules.js';
import { groupOf, groupOrder, nestedOrder, parseChecklist, withStory } from '../import/checklist.js';
import { readForeignReview, reviewVerdict } from '../import/review.js';
import { PROPOSAL_HEADINGS, parseProposalBody } from '../store/format-proposal.js';
import { parseReviewBody } from '../store/format-review.js';
import { SPEC_HEADINGS, parseSpecBody } from '../store/format-spec.js';
import { parseTasksBody, tasksIntro } from '../store/format-tasks.js';
import { outline, splitFrontmatter, TextLines, userLines } from '../store/markdown.js';
import { lineOfKey, parseYaml, type YamlMap } from '../store/yaml-lite.js';
import { KNOWN_KEYS } from '../store/doc-meta.js';
import { printable } from '../domain/text.js';
import { refTo, SAME_CALL } from '../domain/refs.js';

/** Refuses the markdown when it has errors, naming every one with its line and fix (and in `details.findings`, as validate gives them). */
function refuseErrors(findings: Finding[], shownAs: string): void {
  const errors = findings.filter((f) => f.level === 'error');
  if (errors.length === 0) return;
  const at = (f: Finding) => `${shownAs}${f.line ? `:${f.line}` : ''}: ${f.message}`;
  const details = { findings: errors };
  if (errors.length === 1) fail('INVALID_INPUT', `${at(errors[0]!)}.`, `Fix the markdown (${errors[0]!.fix}) and try ${SAME_CALL} again; nothing was changed.`, details);
  const list = errors.map((f) => `\n  ${at(f)} (fix: ${f.fix})`).join('');
  fail('INVALID_INPUT', `${shownAs} has ${errors.length} problems:${list}`, `Fix each of them in the markdown and try ${SAME_CALL} again; nothing was changed.`, details);
}

/** The "## " headings of a text, for messages that say what was found. */
function foundHeadings(body: string): string {
  const found = outline(new TextLines(body))
    .filter((h) => h.level <= 2)
    .map((h) => `${'#'.repeat(h.level)} ${printable(h.text)}`);
  if (found.length === 0) return 'no headings';
  return found.length > 10 ? `${found.slice(0, 10).join(', ')}, …` : found.join(', ');
}

/** A whole document that is not in a shape agentboard reads: say what was expected and what was found. */
function refuseShape(shownAs: string, what: string, expected: string, body: string, hint = ''): never {
  return fail('INVALID_INPUT', `${shownAs}: ${what}: expected ${expected}; found ${foundHeadings(body)}.`, `${hint}Rewrite the markdown with those headings and try ${SAME_CALL} again; nothing was changed.`);
}

/** A markdown input's frontmatter: its keys when it is YAML, and whether it is agentboard's own (as `show` prints it). */
interface Front {
  map: YamlMap | null;
  own: boolean;
}

function frontOf(frontmatter: string): Front {
  try {
    const map = parseYaml(frontmatter);
    return { map, own: typeof map.change_id === 'string' && (DOC_TYPES as readonly unknown[]).includes(map.type) };
  } catch {
    return { map: null, own: false }; // not YAML agentboard reads
  }
}

/**
 * agentboard's own frontmatter is the board's to set, except where the text came from, which stays
 * with the text; any other frontmatter is kept in the document. (What was not taken is told once
 * the write is done: frontmatterNotTaken.)
 */
function readFrontmatter(frontmatter: string): { kept: string | null; importedFrom?: Record<string, string> } {
  const { map, own } = frontOf(frontmatter);
  if (!own) return { kept: `\`\`\`yaml\n${frontmatter}\`\`\`` };
  const from = map!.imported_from;
  if (from && typeof from === 'object' && !Array.isArray(from)) {
    return { kept: null, importedFrom: Object.fromEntries(Object.entries(from).map(([k, v]) => [k, String(v)])) };
  }
  return { kept: null };
}

/** What a write of a document answers, as far as its frontmatter is compared with it. */
export interface Written {
  change_id: string;
  document: string;
  file: string;
  status: string;
  author: string;
  warnings: Finding[];
}

/** The word a document's heading starts with ("# Specification: …"). */
const HEADING_WORDS: Record<string, string> = { proposal: 'Proposal', spec: 'Specification', tasks: 'Tasks', design: 'Design' };

const keyList = (keys: string[]) => keys.map((k) => printable(k, 40)).join(', ');

/**
 * What the write did not take of the frontmatter of the markdown it was given, said as warnings of
 * the write (which took the rest). Another tool's frontmatter was kept as a block in the document.
 * agentboard's own records the document as it was when shown (dates, revision, notes, decisions):
 * the write records its own, and says so where the file stated something else than what was
 * written (another change or document, an approval or a status there is none of, an author) and
 * for keys it has no place for.
 */
function frontmatterNotTaken(markdown: string, shownAs: string, written: Written): Finding[] {
  const split = splitFrontmatter(userLines(markdown));
  if (!split) return [];
  const { map, own } = frontOf(split.frontmatter);
  // Lines of the frontmatter are counted from the line after the opening "---".
  const sink = new FindingSink(shownAs, split.frontmatterLine - 1);
  const line = (key: string) => lineOfKey(split.frontmatter, key);
  const keys = Object.keys(map ?? {});
  if (!own) {
    const named = keys.length > 0 ? ` (${keyList(keys)})` : '';
    const lacks = typeof map?.change_id !== 'string' ? (map?.type === undefined ? 'it has no change_id and no type' : 'it has no change_id') : map.type === undefined ? 'it has no type' : 'its type is none of agentboard\'s documents';
    sink.warn('frontmatter.kept', `the frontmatter${named} is not agentboard's (${lacks}), so none of it was taken: it is kept as a yaml block at the top of the ${written.document}`, `leave the frontmatter out if the ${written.document} should not show it; agentboard records a document's status and author itself`, 0);
    return sink.findings;
  }
  const said = (key: string) => (typeof map![key] === 'string' || typeof map![key] === 'number' ? String(map![key]) : undefined);
  const stated: [key: string, value: string | undefined, was: string][] = [
    // An id that agrees with the frontmatter's own change_id and type is told with them.
    ['id', said('id'), said('id') === `${said('change_id')}/${said('type')}` ? said('id')! : `${written.change_id}/${written.document}`],
    ['change_id', said('change_id'), written.change_id],
    ['type', said('type'), written.document],
    ['status', said('status'), written.status],
    ['author', said('author'), written.author],
  ];
  for (const [key, value, was] of stated) {
    if (value === undefined || value === was) continue;
    // A status the document had when shown (a blank proposal, a rejected document being revised) is the round trip it is made for.
    if (key === 'status' && value !== 'approved' && (DOC_STATUSES as readonly string[]).includes(value)) continue;
    const whose = `${key}: ${printable(value, 40)} was not taken`;
    if (key === 'id') sink.warn('frontmatter.id', `${whose}: the text was written as ${was}`, `check that ${was} was meant; the frontmatter does not choose the change or the document`, line(key));
    else if (key === 'change_id') sink.warn('frontmatter.change_id', `${whose}: the text was written to change ${was}, the one the call names`, `check that the ${written.document} of ${was} was meant; the frontmatter does not choose the change`, line(key));
    else if (key === 'type') sink.warn('frontmatter.type', `${whose}: the text was written as the ${was}`, `leave type out of the frontmatter, or write the text as the ${printable(value, 40)}`, line(key));
    else if (key === 'status') {
      const decide = value === 'approved' ? `a person approves it with ${refTo('document.approve', { change_id: written.change_id, document: written.document })}` : 'leave status out of the frontmatter';
      sink.warn('frontmatter.status', `${whose}: every write leaves the ${written.document} ${was}`, `agentboard records the status; ${decide}`, line(key));
    } else sink.warn('frontmatter.author', `${whose}: the ${written.document} is recorded as written by ${was}`, 'agentboard records who writes a document; leave author out of the frontmatter', line(key));
  }
  // The title is the text's heading ("# Proposal: …"); one the frontmatter says besides it is not taken.
  const title = said('title');
  const heading = /^#[ \t]+(?:[A-Za-z]+[ \t]*:[ \t]*)?(.+?)[ \t]*$/m.exec(split.body)?.[1];
  if (title !== undefined && title !== heading) {
    sink.warn('frontmatter.title', `title: ${printable(title, 40)} was not taken: the title of the ${written.document} is its heading${heading ? ` (${printable(heading, 40)})` : ''}`, `write the title in the heading, "# ${HEADING_WORDS[written.document] ?? 'Proposal'}: ${printable(title, 40)}"`, line('title'));
  }
  const unknown = keys.filter((k) => !(KNOWN_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    const many = unknown.length > 1;
    sink.warn('frontmatter.unknown', `frontmatter key${many ? 's' : ''} ${keyList(unknown)} ${many ? 'were' : 'was'} not taken: agentboard's frontmatter has no such key${many ? 's' : ''}`, `add ${many ? 'them' : 'it'} by hand to ${written.file} if ${many ? 'they' : 'it'} should stay (agentboard keeps keys a person adds there), or write ${many ? 'them' : 'it'} in the text`, line(unknown[0]!));
  }
  return sink.findings;
}

/** A write's answer, with what it did not take of the frontmatter of the markdown it was given first among its warnings. */
export function withFrontmatterNotTaken<T extends Written>(written: T, markdown: string, shownAs: string): T {
  const notTaken = frontmatterNotTaken(markdown, shownAs, written);
  return notTaken.length > 0 ? { ...written, warnings: [...notTaken, ...written.warnings] } : written;
}

function withIntro(sections: ExtraSection[] | undefined, kept: string | null): ExtraSection[] | undefined {
  if (!kept) return sections;
  const list = [...(sections ?? [])];
  const intro = list.findIndex((s) => s.heading === '' && s.after === 'title');
  if (intro >= 0) list[intro] = { ...list[intro]!, text: `${kept}\n\n${list[intro]!.text}` };
  else list.unshift({ heading: '', text: kept, after: 'title' });
  return list;
}

/**
 * Where the input fields a markdown document stands for were read: the 1-based line of a field
 * (`why`, `overview`) or of an item of a list (`tasks[3]`, `requirements[0]`), so that a problem
 * the write finds later names the line of the file, not the field.
 */
export type InputLines = Record<string, number>;

/** The operation input fields a markdown document stands for; `where`, when given, gets the lines they were read from. */
export function markdownToInput(type: Stage, markdown: string, shownAs: string, where: InputLines = {}): Record<string, unknown> {
  const text = userLines(markdown);
  const split = splitFrontmatter(text);
  const body = split?.body ?? text;
  const offset = split ? split.bodyLine - 1 : 0;
  const front = split ? readFrontmatter(split.frontmatter) : { kept: null };
  const kept = front.kept;
  const sink = new FindingSink(shownAs);
  const inBody = sink.at(offset);
  const input = fieldsOf(type, body, offset, kept, sink, inBody, shownAs, front.importedFrom !== undefined, where);
  if (front.importedFrom) input.imported_from = front.importedFrom;
  return input;
}

function fieldsOf(type: Stage, body: string, offset: number, kept: string | null, sink: FindingSink, inBody: FindingSink, shownAs: string, imported: boolean, where: InputLines): Record<string, unknown> {
  // Lines within the body, as the parsers give them, are lines of the file once past its frontmatter.
  const note = (path: string, line: number | undefined) => {
    if (line !== undefined) where[path] = line + offset;
  };
  switch (type) {
    case 'proposal': {
      const { proposal, lines } = parseProposalBody(body, inBody);
      for (const [field, line] of Object.entries(lines)) note(field, line);
      const missing = PROPOSAL_HEADINGS.filter((_, i) => lines[(['why', 'what_changes', 'impact'] as const)[i]] === undefined);
      if (missing.length > 0) refuseShape(shownAs, `the proposal has no ${missing.join(', ')} section${missing.length > 1 ? 's' : ''}`, PROPOSAL_HEADINGS.join(', '), body);
      proposalRules(proposal, inBody, lines);
      refuseErrors(sink.findings, shownAs);
      const out: Record<string, unknown> = { why: proposal.why, what_changes: proposal.what_changes, impact: proposal.impact };
      if (proposal.title) out.title = proposal.title;
      const sections = withIntro(proposal.sections, kept);
      if (sections) out.sections = sections;
      return out;
    }
    case 'spec': {
      const { spec, lines } = parseSpecBody(body, inBody);
      note('overview', lines.overview);
      lines.requirements.forEach((line, i) => note(`requirements[${i}]`, line));
      lines.scenarios.forEach((line, i) => note(`scenarios[${i}]`, line));
      const heads = outline(new TextLines(body)).filter((h) => h.level === 2).map((h) => h.text);
      const delta = heads.some((h) => /^(ADDED|MODIFIED|REMOVED|RENAMED)\s+requirements/i.test(h));
      const specKit = heads.some((h) => /\*\(mandatory\)\*|^user scenarios/i.test(h.trim())) || /^#[ \t]+feature specification/im.test(body);
      const hint = delta
        ? 'This looks like an OpenSpec delta spec: bring the whole change over with `agentboard import openspec`, or add an "## Overview" (50 characters or more) above its requirements. '
        : specKit
          ? "This looks like a spec-kit feature spec: bring the feature over with `agentboard import spec-kit` (it reads the user stories, FR requirements and acceptance scenarios), or write it in agentboard's sections. "
          : '';
      if (lines.overview === undefined) refuseShape(shownAs, 'the spec has no overview', `${SPEC_HEADINGS.join(', ')} (or "## Purpose" for the overview)`, body, hint);
      if (spec.requirements.length === 0 && !heads.some((h) => /requirements/i.test(h))) refuseShape(shownAs, 'the spec has no requirements section', SPEC_HEADINGS.join(', '), body, hint);
      if (spec.scenarios.length === 0 && needsScenarios(spec) && !heads.some((h) => /^(acceptance criteria|scenarios)$/i.test(h.trim()))) {
        refuseShape(shownAs, 'the spec has no scenarios', `${SPEC_HEADINGS.join(', ')} with "### Scenario: <name>" and WHEN / THEN bullets (or "#### Scenario:" under a requirement)`, body, hint);
      }
      specRules(spec, inBody, lines, { imported });
      refuseErrors(sink.findings, shownAs);
      const out: Record<string, unknown> = {
        overview: spec.overview,
        requirements: spec.requirements,
        scenarios: spec.scenarios.map((s) => {
          const { given, ...rest } = s;
          return given ? s : rest;
        }),
      };
      if (spec.title) out.title = spec.title;
      if (spec.data_model) out.data_model = spec.data_model;
      if (spec.interfaces) out.interfaces = spec.interfaces;
      const sections = withIntro(spec.sections, kept);
      if (sections) out.sections = sections;
      return out;
    }
    case 'tasks':
      return tasksInput(body, offset, kept, sink, shownAs, where);
    case 'review':
      return reviewInput(body, offset, kept, sink, shownAs);
  }
}

/** agentboard's own task blocks: a "## " heading with a ```yaml block right under it. */
const OWN_TASK = /^##[ \t]+\S[^\n]*\n(?:[ \t]*\n)*```ya?ml[ \t]*$/m;

function tasksInput(body: string, offset: number, kept: string | null, sink: FindingSink, shownAs: string, where: InputLines): Record<string, unknown> {
  const join = (intro: string) => [kept ?? '', intro].filter((t) => t.trim() !== '').join('\n\n');
  if (OWN_TASK.test(body)) {
    const parsed = parseTasksBody(body, sink.at(offset));
    refuseErrors(sink.findings, shownAs);
    const tasks = parsed.blocks.map((b, i) => {
      where[`tasks[${i}]`] = b.line + offset;
      const t = b.task!;
      const out: Record<string, unknown> = { id: t.id, title: t.title, priority: t.priority };
      if (t.description) out.description = t.description;
      if (t.depends.length) out.depends = t.depends;
      if (t.skills.length) out.skills = t.skills;
      if (t.files.length) out.files = t.files;
      if (t.requirements.length) out.requirements = t.requirements;
      if (t.group) out.group = t.group;
      if (t.status === 'done') out.status = 'done';
      return out;
    });
    const out: Record<string, unknown> = { tasks };
    if (parsed.title) out.title = parsed.title;
    const intro = join(tasksIntro(parsed.preamble));
    if (intro) out.intro = intro;
    return out;
  }
  const list = parseChecklist(body, offset + 1);
  if (!list) {
    refuseShape(shownAs, 'no tasks were found', 'task blocks ("## T1: Title" with a ```yaml block under each) or checklist items ("- [ ] Title", "- [ ] 1.1 Title")', body);
  }
  for (const f of list.findings) if (f.level === 'error') sink.error('tasks.checklist', f.message, f.fix, f.line);
  refuseErrors(sink.findings, shownAs);
  groupOrder(list.tasks);
  nestedOrder(list.tasks);
  const tasks = list.tasks.map((t, i) => {
    where[`tasks[${i}]`] = t.line;
    const out: Record<string, unknown> = { id: t.id, title: t.title };
    const description = withStory(t);
    if (description) out.description = description;
    if (t.priority) out.priority = t.priority;
    if (t.depends.length) out.depends = t.depends;
    if (t.files.length) out.files = t.files;
    if (t.requirements.length) out.requirements = t.requirements;
    const group = groupOf(t);
    if (group) out.group = group;
    if (t.done) out.status = 'done';
    return out;
  });
  const out: Record<string, unknown> = { tasks };
  if (list.title) out.title = list.title;
  const intro = join(list.intro);
  if (intro) out.intro = intro;
  return out;
}

function reviewInput(body: string, offset: number, kept: string | null, sink: FindingSink, shownAs: string): Record<string, unknown> {
  const own = outline(new TextLines(body)).some((h) => h.level === 1 && /^(?:verdict|round\s+\d+)\s*:/i.test(h.text));
  let round: { verdict: Verdict; summary: string; issues: { title: string; severity: string; description: string }[]; sections?: ExtraSection[] };
  if (own) {
    const rounds = parseReviewBody(body, sink.at(offset), { reviewer: '', at: '' });
    refuseErrors(sink.findings, shownAs);
    round = rounds[0]!;
  } else {
    const ignored = { mapped: () => undefined, finding: (level: string, message: string, fix: string, line?: number) => (level === 'error' ? sink.error('review.text', message, fix, line) : undefined) };
    const read = readForeignReview(body, offset + 1, ignored);
    refuseErrors(sink.findings, shownAs);
    if (read.verdict === null) {
      refuseShape(shownAs, 'the review has no verdict', `"# Verdict: ${VERDICTS.join(' | ')}", or a "## Verdict" section with the verdict ticked or written under it`, body);
    }
    const verdict = reviewVerdict(read.verdict);
    if (!verdict) {
      fail('INVALID_INPUT', `${shownAs}${read.verdictLine ? `:${read.verdictLine}` : ''}: unknown verdict "${printable(read.verdict)}".`, `Use one of ${VERDICTS.join(', ')} (NEEDS_CHANGES is read as NEEDS_FIX) and try ${SAME_CALL} again; nothing was changed.`);
    }
    round = { verdict, summary: read.summary, issues: read.issues, sections: read.sections };
  }
  const sections = withIntro(round.sections?.length ? round.sections : undefined, kept)?.map((s) => ({ ...s, after: 'issues' }));
  reviewRules([{ round: 1, reviewer: '', at: '', ...round, issues: round.issues as never }], sink.at(offset));
  refuseErrors(sink.findings, shownAs);
  const out: Record<string, unknown> = { verdict: round.verdict, summary: round.summary, issues: round.issues };
  if (sections) out.sections = sections;
  return out;
}
