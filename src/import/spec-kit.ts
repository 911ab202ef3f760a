/**
 * spec-kit's features (docs/import-formats.md §2): specs/<NNN>-<name>/ with spec.md (user stories
 * and their acceptance scenarios, FR-### requirements, success criteria), plan.md, tasks.md
 * ("- [ ] T001 [P] [US1] …" under "## Phase N: …") and documents of their own. The change is
 * named after the folder without its number; its proposal is taken from the spec (the user's
 * request, the success criteria) and the plan's summary; plan.md is its design.
 */
import { STEP_NAME, STEP_WORDS } from '../store/step-words.js';
import { refTo } from '../domain/refs.js';
import { BOARD_DIR } from '../store/board.js';
import { REQUIREMENT_ID_PATTERN } from '../domain/ids.js';
import type { ExtraSection, Proposal, Requirement, Scenario, Spec } from '../domain/model.js';
import { readBlock, sectionKey } from '../store/blocks.js';
import { fencedLines, headingLevel, headingText, outline, sectionsAt, TextLines } from '../store/markdown.js';
import { parseChecklist, type ChecklistTask } from './checklist.js';
import { attachFile, changeIdFor, checklistTask, checklistTasks, completeProposal, documentFile, keepInOrder, noteRenamed, readDesign, refusedChange, whySection, withoutFrontmatter } from './documents.js';
import type { ImportedChange, ImportPlan } from './model.js';
import { FileLog } from './report.js';
import type { SourceTree } from './source.js';
import { cutTitle, joinWrapped } from './wrapped.js';

const FEATURE = /^specs\/((?:\d{3}|\d{8}-\d{6})-([^/]+))\//;

/** Whether a folder of specs/ is a feature's: its number (or time), then its name. */
export function isFeatureFolder(name: string): boolean {
  return FEATURE.test(`specs/${name}/`);
}

export function readSpecKit(tree: SourceTree): ImportPlan {
  const plan: ImportPlan = { tool: 'spec-kit', changes: [], files: [] };
  const features = new Map<string, string>();
  for (const file of tree.files) {
    const m = FEATURE.exec(file);
    if (m) features.set(m[1]!, m[2]!);
  }
  const inChange = new Set<string>();
  const taken = new Set<string>();
  for (const [folder, name] of [...features].sort()) {
    const dir = `specs/${folder}`;
    const files = tree.files.filter((f) => f.startsWith(`${dir}/`));
    files.forEach((f) => inChange.add(f));
    const logs = new Map(files.map((f) => [f, new FileLog(f)]));
    // The number orders features in spec-kit; on the board the name is enough, unless two features share it.
    // A name with no letter a-z or digit (検索) is named by its number, as is one another feature has.
    const named = changeIdFor(name);
    const twice = !named.problem && taken.has(named.id);
    const unnamed = named.problem !== null && !changeIdFor(folder).problem;
    const { id, problem, why } = twice || unnamed ? changeIdFor(folder) : named;
    if (problem) plan.changes.push(refusedChange(folder, dir, problem, 'the folder so that its name after the number has'));
    else {
      taken.add(id);
      const change = readFeature(tree, dir, id, files, logs);
      noteRenamed(change, name, twice ? `another feature is named ${named.id}` : unnamed ? `"${name}" has no letter a-z or digit to make a change id of, so the folder's number names it` : why);
      plan.changes.push(change);
    }
    plan.files.push(...[...logs.values()].map((l) => l.report));
  }
  for (const file of tree.files) {
    if (inChange.has(file)) continue;
    const log = new FileLog(file);
    // A feature's document in a folder not named like one (specs/user-auth/, specs/api/001-auth/) is named, not passed over.
    const misplaced = /^(specs\/(?:[^/]+\/)*([^/]+))\/(spec|plan|tasks)\.md$/i.exec(file);
    if (misplaced) {
      const name = misplaced[2]!.replace(/^\d+-/, '');
      log.finding('warning', `${misplaced[1]}/ holds a feature's ${misplaced[3]!.toLowerCase()}.md but is not a folder spec-kit names for a feature (specs/NNN-name/), so it is not imported`, `to import it, make it specs/NNN-${name}/ (NNN a number no other feature has) in the source, and import again`);
    } else log.finding('info', file.includes('constitution') ? "the project's constitution: agentboard has no document for it" : 'a file of the spec-kit project, not of one of its features: agentboard has no document for it', 'nothing to do; it stays where it is');
    plan.files.push(log.report);
  }
  plan.files.sort((a, b) => (a.file < b.file ? -1 : 1));
  return plan;
}

function readFeature(tree: SourceTree, dir: string, id: string, files: string[], logs: Map<string, FileLog>): ImportedChange {
  const change: ImportedChange = { id, source: dir, attachments: [] };
  const used = new Set<string>();
  const text = (file: string) => (files.includes(file) ? tree.text(file) : null);
  const planFile = documentFile(files, dir, 'plan.md', logs);
  const specFile = documentFile(files, dir, 'spec.md', logs);
  const tasksFile = documentFile(files, dir, 'tasks.md', logs);

  const planText = text(planFile);
  let summary: { text: string; line: number; heading: string } | null = null;
  if (planText !== null) {
    const design = readDesign(planText, logs.get(planFile)!);
    change.design = { content: design, from: planFile };
    used.add(planFile);
    const lines = new TextLines(planText);
    const section = sectionsAt(lines, outline(lines), 2).find((s) => sectionKey(s.heading.text) === 'summary');
    const said = section ? readBlock(section.content, 2) : '';
    if (section && said.trim()) summary = { text: said, line: section.heading.index + 1, heading: `## ${section.heading.text}` };
  }

  const specText = text(specFile);
  let stories = new Map<string, string>();
  if (specText !== null) {
    const log = logs.get(specFile)!;
    const read = readFeatureSpec(specText, log, id);
    stories = read.storyTitles;
    // The proposal is made of what the feature's documents say of it, and of nothing else: its Why
    // the user's request (the **Input** line), else a section of the spec that says why ("## Why").
    const whyPart = read.input === null ? whySection(read.spec.sections ?? []) : undefined;
    if (whyPart) log.finding('info', `spec.md has no **Input** line (the user's request); its section "${whyPart.heading}" is the Why of proposal.md`, 'nothing to do');
    const why = read.input ?? whyPart?.text ?? null;
    if (why === null && read.criteria === null && read.stories.length === 0 && summary === null) {
      noProposal(specText, read.spec.requirements.length > 0, planText !== null, log, `${BOARD_DIR}/changes/${id}/attachments/${specFile.slice(dir.length + 1)}`, id);
    } else {
      const proposal: Proposal = {
        title: read.spec.title,
        why: why ?? '',
        what_changes: summary?.text ?? read.stories.map((s) => `- ${s}`).join('\n'),
        impact: read.criteria ?? '',
      };
      change.proposal = { content: completeProposal(proposal, "spec-kit's spec.md", log), from: specFile };
      log.went('proposal.md');
      if (summary) logs.get(planFile)!.mapped(summary.line, summary.heading, 'design.md, and What Changes of proposal.md');
    }
    if (change.proposal) {
      change.spec = { content: read.spec, from: specFile };
      log.went('spec.md');
      used.add(specFile);
    } else log.report.lines = [];
  }

  const tasksText = text(tasksFile);
  if (tasksText !== null) {
    const log = logs.get(tasksFile)!;
    const { body, offset } = withoutFrontmatter(tasksText, log, "the template's note about the file, not part of the task list");
    const list = parseChecklist(body, offset + 1, { marks: true });
    if (list) {
      const content = checklistTasks(list, log, phaseOrder, (t) => checklistTask(t, t.done, stories));
      change.tasks = { content, from: tasksFile };
      log.went('tasks.md');
      used.add(tasksFile);
    }
  }

  keepInOrder(change, logs, used, true);
  if (specText === null) {
    // A feature without its spec lands with no document of its own: the row says so, and where its files went.
    const kept = change.design ? 'plan.md is its design' : files.length > 0 ? `its files are kept in ${BOARD_DIR}/changes/${id}/attachments/` : 'its folder is empty';
    (change.findings ??= []).push({ level: 'warning', message: `the feature has no spec.md, which its proposal and spec are made of, so neither was written (${kept})`, fix: `write its proposal with ${refTo('proposal.submit', { change_id: id })}, then its spec` });
  }
  if (change.tasks && change.tasks.content.tasks.length > 0 && change.tasks.content.tasks.every((t) => t.status === 'done')) {
    logs.get(tasksFile)!.finding('info', 'every task is done and spec-kit records no review: the change waits for one', `review the work with ${refTo('review.create', { change_id: id })}`);
  }
  for (const file of files) if (!used.has(file)) attachFile(change, dir, file, logs.get(file)!);
  return change;
}

/**
 * A spec.md that states nothing a proposal is made of: no proposal is written (the import writes no
 * text of its own in its place), nor the spec, which comes after it; the file is kept in
 * attachments/ as it is, and a warning says what is missing and what to write.
 */
function noProposal(text: string, requirements: boolean, plan: boolean, log: FileLog, kept: string, id: string): void {
  const none = `${text.trim() === '' ? 'spec.md is empty: it states' : 'spec.md states'} no user request (an "**Input**:" line), user story${requirements ? '' : ', requirement'} or success criteria${plan ? ', and plan.md has no Summary' : ''}`;
  const propose = `write the proposal of the change (why it is needed, what changes, its impact) with ${refTo('proposal.submit', { change_id: id })}`;
  if (requirements) {
    log.finding('warning', `${none}, which the proposal is made of, so no proposal.md was written, nor the spec.md of its requirements, which comes after the proposal: this file is kept as ${kept}`, `${propose}, then its spec, with the requirements of ${kept}, with ${refTo('spec.create', { change_id: id })}`);
  } else {
    log.finding('warning', `${none}, which the proposal and the spec are made of, so neither proposal.md nor spec.md was written: this file is kept as ${kept}`, `${propose}, then its spec with ${refTo('spec.create', { change_id: id })}`);
  }
}

/**
 * spec-kit's order of work: each phase after the one before it; inside a phase, tasks run in order
 * except those marked [P], which may run beside the others; and what a task says it depends on.
 */
function phaseOrder(tasks: ChecklistTask[]): void {
  let previous: string[] = [];
  let members: string[] = [];
  let group: string | undefined;
  let lastSequential: string | null = null;
  for (const t of tasks) {
    if (t.group !== group) {
      if (members.length > 0) previous = members;
      members = [];
      group = t.group;
      lastSequential = null;
    }
    const depends = [...previous];
    if (!t.parallel && lastSequential) depends.push(lastSequential);
    for (const d of t.depends) if (!depends.includes(d)) depends.push(d);
    t.depends = depends.filter((d) => d !== t.id);
    if (!t.parallel) lastSequential = t.id;
    members.push(t.id);
  }
}

/*
 * spec-kit writes a spec in the language of the person who asks for it, its headings and labels
 * too: beside the English words, those of Spanish, Portuguese, French, German, Italian, Russian,
 * Ukrainian, Chinese (simplified and traditional), Japanese and Korean specs are read, and a
 * section whose heading is not known is known by what it holds (see sectionKind).
 */
const INPUT = /^\*\*(?:Input|Entrada|Entrée|Eingabe|(?:输入|輸入|入力|입력)[^*]{0,4})\*\*[ \t]*[:：][ \t]*(.+)$/iu;
/** "User Story 1 - Title (Priority: P1)", "Historia de Usuario 1 - …", "Récit utilisateur 1 – Title (Priorité : P1)". */
const STORY = /^(?:User Story|Historia de usuario|História de usuário|Récit utilisateur|Storia utente) (\d+)\s*[-–—:]\s*(.+?)(?:\s*\([^)]*?(P\d+)\))?\s*(?:🎯.*)?$/iu;
/** "用户故事 1 — Title（优先级：P1）", "사용자 스토리 1 - Title (우선순위: P1)": a story heading whose words are not English. */
const LOCAL_STORY = /^[^\x00-\x7F](?:[^\x00-\x7F]| (?=[^\x00-\x7F])){0,15}\s*(\d+)\s*[-–—:：]\s*(.+?)(?:\s*[(（][^)）]*?(P\d+)[)）])?\s*(?:🎯.*)?$/u;
const OPENING_STEP = `(?=\\*\\*(?:${[...STEP_WORDS.given, ...STEP_WORDS.when].join('|')})\\*\\*)`;
/** An acceptance scenario: "1. **Given** …, **When** …, **Then** …" (or a bullet), its steps parted by any comma (、，；) or none. */
const SCENARIO_ITEM = new RegExp(`^(?:(\\d+[a-z]?)[.)]|[-*+])[ \\t]+${OPENING_STEP}`, 'i');
/** The first line of a scenario: an item as above, or its first step on a line of its own ("**Given** …,"), the next steps on the lines under it. */
const SCENARIO_START = new RegExp(`^(?:(?:(\\d+[a-z]?)[.)]|[-*+])[ \\t]+)?${OPENING_STEP}`, 'i');
const STEP_WORD = new RegExp(`\\*\\*(${[...STEP_NAME.keys()].join('|')})\\*\\*[:：]?`, 'gi');
/** A step on a line of its own, bulleted ("   - **When** …") or not ("**When** …"), as a scenario whose steps are listed one a line has them. */
const STEP_LINE = new RegExp(`^[ \\t]*(?:[-*+][ \\t]+)?(?=\\*\\*(?:${[...STEP_NAME.keys()].join('|')})\\*\\*)`, 'i');
const STEP_MENTION = new RegExp(`\\*\\*(?:${[...STEP_WORDS.given, ...STEP_WORDS.when, ...STEP_WORDS.then].join('|')})\\*\\*`, 'i');
/** A requirement's id: "FR-001", "FR-CLASS-001" (a prefix of more than one part); "FR-002b" and "FR-1.1" too, which the board takes for none. */
const FR_ID = '[A-Z]+(?:-[A-Z]+)*-\\d+(?:\\.\\d+)*[A-Za-z0-9]*';
/** A title in parentheses after the id, inside the bold or after it: "**FR-023 (Expand Audio)**:", "**FR-029** (Conform):". */
const FR_TITLE = '(?:[ \\t]+\\(([^)]+)\\))';
/** A requirement, bold or not, with or without a bullet: "- **FR-001**: …", "**FR-001:** …", "- **FR-001** …", "FR-001: …", "- **FR-023 (Expand Audio)**: …". */
const FR = new RegExp(`^(?:[-*+][ \\t]+)?(?:\\*\\*(${FR_ID})${FR_TITLE}?(?:\\*\\*${FR_TITLE}?[ \\t]*[:：]|[:：]\\*\\*|\\*\\*)|(${FR_ID})${FR_TITLE}?[:：])[ \\t]*(.+)$`);
/** A requirement as a heading, the lines under it its text: "### FR-CLASS-001: Title", "### FR-001 - Title". */
const FR_HEADING = new RegExp(`^(${FR_ID})(?:(?:[ \\t]*[:：]|[ \\t]+[-–—])[ \\t]*(.*))?$`);
/** The prefix of a requirement's id, functional or not, in English (FR, NFR), Spanish and Portuguese (RF, RNF) and French (EF, ENF). */
const REQUIREMENT_PREFIX = /^(?:N?FR|RN?F|EN?F)-/;
/** A line that starts with a requirement's id, read or not: said when it is not. */
const FR_LIKE = new RegExp(`^(?:[-*+][ \\t]+)?(?:\\*\\*)?(${FR_ID})(?![A-Za-z0-9])`);

/** The requirement a line states: its id, its title where it gives one, and its text; null when it states none. */
function requirementOf(line: string): { id: string; title: string; text: string } | null {
  const m = FR.exec(line);
  return m ? { id: m[1] ?? m[4]!, title: (m[2] ?? m[3] ?? m[5] ?? '').trim(), text: m[6]!.trim() } : null;
}

/**
 * Requirements as a table, as some spec-kit templates and their forks write them: a header row, a
 * separator row, and one row per requirement whose first cell is its id ("| FR-001 | Title |
 * The system MUST … | High | Open |"). The text is the cell under a header that says so
 * (Requirement, Description, or the word of the spec's language), else the longest cell; the title
 * is the cell under Title or Name; the other cells are kept at the end of the text, with their
 * headers. A table with any other row, or a row with another number of cells, stays as text.
 */
const TABLE_TITLE = /^(?:title|name|название|назва|名称|标题|標題|名前|título|nombre|titre|nom|titolo|nome|titel|이름|제목)$/iu;
const TABLE_TEXT = /^(?:requirement|description|требование|описание|вимога|опис|要求|需求|描述|説明|要件|requisito|descripción|descrição|exigence|anforderung|beschreibung|요구사항|설명)$/iu;
const TABLE_ID = /^(?:\*\*)?([A-Z]+-\d+[A-Za-z0-9]*)(?:\*\*)?$/;

function tableCells(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith('|') || !t.endsWith('|') || t.length < 2) return null;
  return t.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
}

/** The requirements of the table whose header row is line `at` (null when it is no such table), and the line after it. */
function requirementTable(lines: TextLines, at: number, end: number, inFence: boolean[]): { rows: { line: number; id: string; title: string; text: string }[]; end: number } | null {
  const header = tableCells(lines.line(at));
  const separator = at + 1 < end && !inFence[at + 1] ? tableCells(lines.line(at + 1)) : null;
  if (!header || !separator || separator.length !== header.length || !separator.every((c) => /^:?-{3,}:?$/.test(c))) return null;
  const names = header.map((h) => h.replace(/\*\*/g, ''));
  const titleAt = names.findIndex((h) => TABLE_TITLE.test(h));
  const textAt = names.findIndex((h) => TABLE_TEXT.test(h));
  const rows: { line: number; id: string; title: string; text: string }[] = [];
  let i = at + 2;
  for (; i < end && !inFence[i] && lines.line(i).trim().startsWith('|'); i++) {
    const cells = tableCells(lines.line(i));
    const id = cells && cells.length === header.length ? TABLE_ID.exec(cells[0]!)?.[1] : undefined;
    if (!cells || !id) return null;
    const others = cells.map((c, k) => ({ c, k })).filter(({ k }) => k !== 0 && k !== titleAt);
    const main = textAt > 0 ? textAt : others.reduce((a, b) => (b.c.length > a.c.length ? b : a), { c: '', k: -1 }).k;
    const extra = others.filter(({ k, c }) => k !== main && c !== '').map(({ k, c }) => `${header[k]}: ${c}`);
    const text = [cells[main] ?? '', extra.length > 0 ? `(${extra.join('; ')})` : ''].filter(Boolean).join('\n');
    rows.push({ line: i, id, title: titleAt > 0 ? cells[titleAt]! : '', text });
  }
  return rows.length > 0 ? { rows, end: i } : null;
}

/** spec-kit's mark of an open question, "[NEEDS CLARIFICATION: auth method?]" (its templates' own example excepted). */
const CLARIFICATION = /\[NEEDS CLARIFICATION:(?![ \t]*specific question\])[ \t]*([^\]]+)\]/gi;

/** A user story's heading: its number, title and priority; null when the heading is no story's. */
function storyOf(heading: string): { n: string; title: string; priority?: string } | null {
  const m = STORY.exec(heading) ?? LOCAL_STORY.exec(heading);
  return m ? { n: m[1]!, title: m[2]!.trim(), ...(m[3] ? { priority: m[3] } : {}) } : null;
}

/** The steps of a scenario line; null when it is not one. */
function scenarioSteps(line: string): { n: string | null; given: string; when: string; then: string } | null {
  const start = SCENARIO_START.exec(line);
  if (!start) return null;
  const body = line.slice(start[0].length);
  const words = [...body.matchAll(STEP_WORD)];
  const parts: Record<'given' | 'when' | 'then', string[]> = { given: [], when: [], then: [] };
  let part: keyof typeof parts = 'given';
  words.forEach((w, k) => {
    const text = body.slice(w.index! + w[0].length, words[k + 1]?.index ?? body.length).replace(/[\s,;、，；]+$/u, '').trim();
    const word = STEP_NAME.get(w[1]!.toLowerCase())!;
    if (word === 'given' || word === 'when' || word === 'then') part = word;
    parts[part].push(word === part ? text : `${word.toUpperCase()} ${text}`);
  });
  if (parts.when.length === 0 || parts.then.length === 0) return null;
  return { n: start[1] ?? null, given: parts.given.join('\n'), when: parts.when.join('\n'), then: parts.then.join('\n') };
}

/**
 * Lines with each heading left with nothing under it taken out ("### Acceptance Scenarios" once its
 * scenarios were read out of the text): a heading stays when text follows it before the next
 * heading of its level or above.
 */
function withoutEmptyHeadings(lines: string[]): string[] {
  const inFence = fencedLines(lines);
  const level = (i: number) => (inFence[i] ? 0 : headingLevel(lines[i]!));
  return lines.filter((_, i) => {
    if (level(i) === 0) return true;
    for (let j = i + 1; j < lines.length && !(level(j) > 0 && level(j) <= level(i)); j++) if (lines[j]!.trim() !== '') return true;
    return false;
  });
}

/** A requirement's title: the start of its text, up to a clause. */
function titleOf(text: string): string {
  return cutTitle(text.replace(/\*\*/g, '').replace(/\.$/, ''), 80);
}

/**
 * spec-kit's "# Feature Specification: " before the title, in the language the spec is written in
 * ("# 功能规格说明：", "# Spécification de fonctionnalité : "): up to the first colon, with the word
 * for a specification in it (a whole word, so that "# Spec-driven search: …" keeps its title).
 */
const SPEC_TITLE_PREFIX = /^[^:：]*?(?:(?<![\p{L}\p{N}])(?:spec(?:ification)?|spécification|especificaci[óo]n|especifica[çc][ãa]o|specifica|спецификаци[а-я]*)(?=[\s:：])|spezifikation|规格|規格|规范|規範|仕様|명세)[^:：]*[:：]\s*/iu;

/**
 * spec.md: the title and the lines under it stay; the user scenarios are the overview (after an
 * Overview section of its own, if it has one), with their acceptance scenarios taken out as
 * scenarios; FR-### bullets are the requirements and the key entities the data model; the success
 * criteria go to the proposal's impact; other sections stay.
 */
function readFeatureSpec(text: string, log: FileLog, id: string): { spec: Spec; input: string | null; criteria: string | null; stories: string[]; storyTitles: Map<string, string> } {
  const lines = new TextLines(text);
  const inFence = fencedLines(lines);
  const heads = outline(lines);
  const h1 = heads.find((h) => h.level === 1);
  const title = h1 ? h1.text.replace(SPEC_TITLE_PREFIX, '') : id;
  if (h1) log.mapped(h1.index + 1, `# ${h1.text}`, 'the title of spec.md and proposal.md');
  // A question spec-kit leaves open lands as written: the report says where each one is.
  for (let i = 0; i < lines.length; i++) {
    if (inFence[i]) continue;
    for (const m of lines.line(i).matchAll(CLARIFICATION)) {
      log.finding('warning', `the spec leaves a question open: "${m[1]!.trim()}"; it stays as written`, 'answer it, and write the answer in place of the marker in the spec on the board', i + 1);
    }
  }
  const spec: Spec = { title, overview: '', requirements: [], scenarios: [] };
  const sections: ExtraSection[] = [];
  const sectionsList = sectionsAt(lines, heads, 2);
  let input: string | null = null;
  let criteria: string | null = null;
  const stories: string[] = [];
  /** The title of each user story by its label in tasks.md: US1 → "Book a room" (withStory reads HU1, the Spanish and Portuguese label, as US1). */
  const storyTitles = new Map<string, string>();

  const intro: string[] = [];
  const introEnd = sectionsList[0]?.heading.index ?? lines.length;
  // User stories written under the title, with no "## User Scenarios" section of their own, are read as one.
  let storiesFrom: number | null = null;
  for (let i = 0; i < introEnd && storiesFrom === null; i++) if (!inFence[i] && headingLevel(lines.line(i)) === 3 && storyOf(headingText(lines.line(i)))) storiesFrom = i;
  for (let i = 0; i < (storiesFrom ?? introEnd); i++) {
    if (i === h1?.index) continue;
    const m = INPUT.exec(lines.line(i).trim());
    if (m) {
      input = m[1]!.trim();
      log.mapped(i + 1, lines.line(i), 'Why of proposal.md (and kept under the title of spec.md)');
    }
    intro.push(lines.line(i));
  }
  if (intro.join('').trim()) sections.push({ heading: '', text: readBlock(intro.join('\n').trim(), 2), after: 'title' });

  const badRequirementId = (id: string, kept: string, at: number) =>
    log.finding('warning', `"${id}" cannot be the id of a requirement on the board (an id is a prefix and a number, parted by hyphens, that ends with the number: FR-001, FR-CLASS-001), so this requirement stays as text in the section "${kept}" of spec.md`, 'give it such an id (the next free one, say) in spec.md on the board', at + 1);

  /**
   * A requirements section: FR-### lines (with the lines that continue them) are the requirements,
   * each under the "### " heading it stands under as its group (else the section's own `group`:
   * "## Non-Functional Requirements"); "### Key Entities" is the data model; any other text stays,
   * with its heading, as a section after the requirements.
   */
  const readRequirements = (section: (typeof sectionsList)[number], own?: string) => {
    const rest: string[] = [];
    const entities: string[] = [];
    let inEntities = false;
    let group = own;
    let groupHeading: string | null = null;
    let current: Requirement | null = null;
    // Whether the requirement is written as a heading, its text the lines under it.
    let headed = false;
    let blank = false;
    const badId = (id: string, at: number) => badRequirementId(id, `${section.heading.text} (other text)`, at);
    /** A requirement of line `at`, under the group it stands under. */
    const add = (at: number, id: string, title: string, text: string): Requirement => {
      const requirement: Requirement = { id, title, text };
      if (group !== undefined) requirement.group = group;
      spec.requirements.push(requirement);
      log.mapped(at + 1, lines.line(at), `requirement ${id} of spec.md`);
      return requirement;
    };
    for (let i = section.heading.index + 1; i < section.end; i++) {
      const line = lines.line(i);
      const level = inFence[i] ? 0 : headingLevel(line);
      if (level >= 3) {
        current = null;
        headed = false;
        const asHeading = FR_HEADING.exec(headingText(line).trim());
        if (asHeading && !REQUIREMENT_ID_PATTERN.test(asHeading[1]!)) badId(asHeading[1]!, i);
        else if (asHeading) {
          // A requirement's heading at the level of the groups' ends the group above it.
          if (level === 3) group = own;
          groupHeading = null;
          inEntities = false;
          current = add(i, asHeading[1]!, asHeading[2]?.trim() ?? '', '');
          headed = true;
          continue;
        }
        const sub = sectionKey(headingText(line));
        inEntities = sub.startsWith('key entities');
        group = inEntities || sub.startsWith('functional requirements') ? undefined : headingText(line);
        groupHeading = group === undefined ? null : line;
        log.mapped(i + 1, line, inEntities ? 'Data Model of spec.md' : group === undefined ? 'the requirements of spec.md' : `the group of the requirements under it in spec.md`);
        if (inEntities) entities.push(line);
        continue;
      }
      if (inEntities) {
        entities.push(line);
        continue;
      }
      const table = inFence[i] ? null : requirementTable(lines, i, section.end, inFence);
      if (table && table.rows.every((r) => REQUIREMENT_ID_PATTERN.test(r.id))) {
        log.mapped(i + 1, line, 'the requirements of spec.md (the header of their table)');
        log.mapped(i + 2, lines.line(i + 1), 'the requirements of spec.md (the header of their table)');
        for (const r of table.rows) add(r.line, r.id, r.title, r.text);
        current = null;
        blank = false;
        i = table.end - 1;
        continue;
      }
      // A requirement written as a heading holds every line up to the next heading.
      if (current && headed) {
        if (current.text || line.trim()) current.text += `${current.text ? '\n' : ''}${line}`;
        if (line.trim()) log.mapped(i + 1, line, `requirement ${current.id} of spec.md`);
        continue;
      }
      const fr = inFence[i] ? null : requirementOf(line.trim());
      if (fr && !REQUIREMENT_ID_PATTERN.test(fr.id)) {
        badId(fr.id, i);
        current = null;
      } else if (fr) {
        current = add(i, fr.id, fr.title, fr.text);
        blank = false;
        continue;
      }
      // A line right under a requirement, or indented under it after a blank line, continues it.
      if (current && line.trim() !== '' && (/^[ \t]/.test(line) || (!blank && !/^[-*+][ \t]/.test(line)))) {
        current.text += `\n${line.replace(/^ {1,2}/, '')}`;
        log.mapped(i + 1, line, `requirement ${current.id} of spec.md`);
        blank = false;
        continue;
      }
      if (line.trim() === '') blank = true;
      else current = null;
      const like = fr || inFence[i] ? null : FR_LIKE.exec(line.trim());
      if (like) {
        log.finding('warning', `this line starts with the id ${like[1]} but is no requirement agentboard reads ("- **FR-001**: …", "- **FR-001 (Title)**: …" or a "### FR-001: Title" heading), so it stays as text in the section "${section.heading.text} (other text)" of spec.md`, 'write it as a requirement in one of those forms in the source and import again, or add the requirement to spec.md on the board', i + 1);
      }
      if (line.trim() !== '' && groupHeading) {
        rest.push(groupHeading, '');
        groupHeading = null;
      }
      rest.push(line);
    }
    for (const r of spec.requirements) {
      r.text = r.text.trimEnd();
      r.title ||= titleOf(joinWrapped(r.text.split('\n')).replace(/\s+/g, ' '));
    }
    if (entities.length > 0) spec.data_model = [spec.data_model, readBlock(entities.join('\n').trim(), 2)].filter(Boolean).join('\n\n');
    if (rest.join('').trim()) sections.push({ heading: `${section.heading.text} (other text)`, text: readBlock(rest.join('\n').trim(), 2), after: 'requirements' });
  };

  /** The id of the requirement line `i` states, if any: "- **FR-001**: …", "### FR-001: Title" or a table's row "| FR-001 | … |". */
  const requirementIdAt = (i: number): string | undefined => {
    if (inFence[i]) return undefined;
    const line = lines.line(i).trim();
    const cells = tableCells(line);
    const heading = headingLevel(line) >= 3 ? FR_HEADING.exec(headingText(line).trim())?.[1] : undefined;
    return requirementOf(line)?.id ?? heading ?? (cells ? TABLE_ID.exec(cells[0]!)?.[1] : undefined);
  };
  /** Whether a section states a requirement with an id (FR-001, NFR-001). */
  const holdsRequirement = (section: (typeof sectionsList)[number]): boolean => {
    for (let i = section.heading.index + 1; i < section.end; i++) if (REQUIREMENT_PREFIX.test(requirementIdAt(i) ?? '')) return true;
    return false;
  };

  /**
   * What a section is: its heading's key, or, for a heading spec-kit's template has not (one in
   * the language of the spec), what it holds: FR-### (or NFR-###) requirements, SC-### success criteria, or
   * acceptance scenarios (the user scenarios). The report says when it is known so.
   */
  const KNOWN = ['user scenarios', 'user stories', 'requirements', 'functional requirements', 'key entities', 'success criteria', 'overview', 'purpose', 'interfaces', 'data model', 'acceptance criteria', 'scenarios'];
  const sectionKind = (section: (typeof sectionsList)[number], key: string): string => {
    if (KNOWN.some((k) => key.startsWith(k))) return key;
    let kind: string | null = null;
    for (let i = section.heading.index + 1; i < section.end && !kind; i++) {
      const line = lines.line(i).trim();
      if (inFence[i]) continue;
      const id = requirementIdAt(i) ?? '';
      // Requirements and success criteria by their ids in English, Spanish, Portuguese and French.
      if (REQUIREMENT_PREFIX.test(id)) kind = 'requirements';
      else if (/^(?:SC|CE|CS)-/.test(id)) kind = 'success criteria';
      else if (SCENARIO_ITEM.test(line)) kind = 'user scenarios';
    }
    if (!kind) return key;
    log.finding('info', `the section "${section.heading.text}" is read as spec-kit's ${kind === 'user scenarios' ? 'User Scenarios' : kind === 'requirements' ? 'Requirements' : 'Success Criteria'}, by what it holds`, 'nothing to do', section.heading.index + 1);
    return kind;
  };

  /**
   * The user stories and their acceptance scenarios of lines from..to: the scenarios go to the spec,
   * each story's title to What Changes (the first template's "### Primary User Story" by its text);
   * the other lines are kept, for the overview (or for where `keptIn` says). The scenarios of a
   * `requirement` are linked to it, and named after it.
   */
  const readUserScenarios = (from: number, to: number, { keptIn = 'the overview of spec.md', requirement }: { keptIn?: string; requirement?: string } = {}): string[] => {
    const kept: string[] = [];
    let story: ReturnType<typeof storyOf> = null;
    // spec-kit's first template has one "### Primary User Story" and its "### Acceptance Scenarios".
    let under: string | null = null;
    // The first template's one story, told in a paragraph: its text is what the change does.
    let primary: string[] | null = null;
    const tellPrimary = () => {
      const told = joinWrapped(primary ?? []).replace(/\s+/g, ' ').trim();
      if (told) stories.push(`Primary User Story: ${told}`);
      primary = null;
    };
    let k = 0;
    let unread = -2;
    for (let i = from; i < to; i++) {
      const line = lines.line(i);
      if (!inFence[i] && headingLevel(line) === 3) {
        tellPrimary();
        if (/^primary user story$/i.test(headingText(line).trim())) primary = [];
        story = storyOf(headingText(line));
        under = story ? null : headingText(line);
        if (story) {
          stories.push(`User Story ${story.n} - ${story.title}${story.priority ? ` (${story.priority})` : ''}`);
          if (!storyTitles.has(`US${story.n}`)) storyTitles.set(`US${story.n}`, story.title);
        }
        k = 0;
      }
      // An item and the indented lines that wrap it, or the steps that follow it one a line (a bullet or not) until its THEN (and the ANDs after it).
      let end = i + 1;
      const itemText = () => joinWrapped(Array.from({ length: end - i }, (_, d) => (d > 0 ? lines.line(i + d).replace(STEP_LINE, '') : lines.line(i + d))));
      if (!inFence[i] && SCENARIO_START.test(line.trim())) {
        while (end < to && !inFence[end]) {
          const next = lines.line(end);
          const wraps = /^[ \t]+\S/.test(next) && !SCENARIO_START.test(next.trim());
          const step = STEP_LINE.test(next) ? STEP_NAME.get(/^\*\*([^*]+)\*\*/.exec(next.replace(STEP_LINE, ''))?.[1]!.toLowerCase() ?? '') : undefined;
          if (!wraps && !(step && (step === 'and' || step === 'but' || scenarioSteps(itemText()) === null))) break;
          end++;
        }
      }
      const item = Array.from({ length: end - i }, (_, d) => lines.line(i + d));
      const sc = inFence[i] ? null : scenarioSteps(itemText());
      if (sc) {
        k++;
        const n = sc.n ?? k;
        const name = story ? `User Story ${story.n}, scenario ${n}: ${story.title}` : under && !/^acceptance scenarios?$/i.test(under) ? `${under}, scenario ${n}` : `Acceptance scenario ${n}`;
        const scenario: Scenario = { name: requirement ? `${requirement}, ${name}` : name, given: sc.given, when: sc.when, then: sc.then };
        if (requirement) scenario.requirement = requirement;
        spec.scenarios.push(scenario);
        item.forEach((l, d) => log.mapped(i + d + 1, l, `scenario "${scenario.name}" of spec.md (Given, When, Then)`));
        i = end - 1;
        continue;
      }
      // A scenario not read is said once, at its first line: the lines of its steps follow one another.
      if (!inFence[i] && STEP_MENTION.test(line)) {
        if (unread !== i - 1) log.finding('warning', `this reads like an acceptance scenario, but agentboard reads one only with a **When** and a **Then**, its steps on one numbered or bulleted line or one a line; its lines stay in ${keptIn}`, 'write it as "1. **Given** …, **When** …, **Then** …" under its user story, or add the scenario on the board', i + 1);
        unread = i;
      }
      if (primary && headingLevel(line) !== 3 && !inFence[i]) primary.push(line);
      kept.push(line);
    }
    tellPrimary();
    return kept;
  };

  /**
   * A section whose heading states a requirement ("## FR-001: Title"): its acceptance scenarios
   * (under "### Acceptance Scenarios", say) are read as the user stories' are, each linked to the
   * requirement and named after it; every other line under the heading is its text.
   */
  const readRequirementSection = (section: (typeof sectionsList)[number], id: string, title: string) => {
    const before = spec.scenarios.length;
    const text = readBlock(withoutEmptyHeadings(readUserScenarios(section.heading.index + 1, section.end, { keptIn: `the text of requirement ${id} of spec.md`, requirement: id })).join('\n').trim(), 2);
    spec.requirements.push({ id, title: title || titleOf(joinWrapped(text.split('\n')).replace(/\s+/g, ' ')), text });
    log.mapped(section.heading.index + 1, `## ${section.heading.text}`, `requirement ${id} of spec.md, the lines under it its text${spec.scenarios.length > before ? ', its acceptance scenarios linked to it' : ''}`);
  };

  let after = 'title';
  const overview: string[] = [];
  if (storiesFrom !== null) {
    overview.push(readBlock(readUserScenarios(storiesFrom, introEnd).join('\n').trim(), 2));
    log.finding('info', "the user stories under the title, with no section of their own, are read as spec-kit's User Scenarios", 'nothing to do', storiesFrom + 1);
    after = 'overview';
  }
  for (const section of sectionsList) {
    const heading = `## ${section.heading.text}`;
    // A requirement written as a heading of the level of the sections ("## FR-001: Title"): the lines under it are its text.
    const stated = FR_HEADING.exec(section.heading.text.trim());
    if (stated && REQUIREMENT_PREFIX.test(stated[1]!)) {
      if (REQUIREMENT_ID_PATTERN.test(stated[1]!)) {
        readRequirementSection(section, stated[1]!, stated[2]?.trim() ?? '');
        after = 'requirements';
        continue;
      }
      badRequirementId(stated[1]!, section.heading.text, section.heading.index);
    }
    // Non-functional requirements (NFR-001) are requirements too, in the group of their section's heading.
    if (/^non ?functional requirements/.test(sectionKey(section.heading.text)) && holdsRequirement(section)) {
      readRequirements(section, section.heading.text);
      log.mapped(section.heading.index + 1, heading, 'the requirements of spec.md (their group)');
      after = 'requirements';
      continue;
    }
    const key = sectionKind(section, sectionKey(section.heading.text));
    // "## User Scenarios & Testing" as the template names it, or "## User Stories": the stories, with their scenarios when they have any.
    if (key.startsWith('user scenarios') || key.startsWith('user stories')) {
      overview.push(readBlock(readUserScenarios(section.heading.index + 1, section.end).join('\n').trim(), 2));
      log.mapped(section.heading.index + 1, heading, 'Overview of spec.md (its acceptance scenarios under Acceptance Criteria)');
      after = 'overview';
      continue;
    }
    if (key.startsWith('requirements') || key.startsWith('functional requirements')) {
      readRequirements(section);
      log.mapped(section.heading.index + 1, heading, 'the requirements of spec.md');
      after = 'requirements';
      continue;
    }
    // A section of the name of a part of the board's spec is that part, so that no heading comes twice.
    if (key === 'overview' || key === 'purpose') {
      overview.push(readBlock(section.content, 2));
      log.mapped(section.heading.index + 1, heading, 'Overview of spec.md');
      after = 'overview';
      continue;
    }
    if (key === 'interfaces') {
      spec.interfaces = [spec.interfaces, readBlock(section.content, 2)].filter(Boolean).join('\n\n');
      log.mapped(section.heading.index + 1, heading, 'Interfaces of spec.md');
      continue;
    }
    if (key.startsWith('key entities') || key === 'data model') {
      spec.data_model = [spec.data_model, readBlock(section.content, 2)].filter(Boolean).join('\n\n');
      log.mapped(section.heading.index + 1, heading, 'Data Model of spec.md');
      continue;
    }
    if (key.startsWith('success criteria')) {
      const said = readBlock(section.content, 2);
      if (said.trim()) criteria = [criteria, said].filter(Boolean).join('\n\n');
      log.mapped(section.heading.index + 1, heading, said.trim() ? 'Impact of proposal.md' : 'nothing: the section is empty');
      continue;
    }
    // The board's spec reads its scenarios under these headings, and spec-kit's are taken from the
    // user stories; those written here are read as the stories' are, the rest kept as written.
    if (key.startsWith('acceptance criteria') || key.startsWith('scenarios')) {
      const kept = `${section.heading.text} (as written in spec-kit)`;
      const before = spec.scenarios.length;
      const rest = readBlock(withoutEmptyHeadings(readUserScenarios(section.heading.index + 1, section.end, { keptIn: `the section "${kept}" of spec.md` })).join('\n').trim(), 2);
      if (spec.scenarios.length === before) {
        sections.push({ heading: kept, text: readBlock(section.content, 2), after });
        log.mapped(section.heading.index + 1, heading, `spec.md: kept as the section "${kept}"`);
      } else {
        if (rest.trim()) sections.push({ heading: kept, text: rest, after });
        log.mapped(section.heading.index + 1, heading, `spec.md: its scenarios under Acceptance Criteria${rest.trim() ? `, the rest kept as the section "${kept}"` : ''}`);
      }
      continue;
    }
    sections.push({ heading: section.heading.text, text: readBlock(section.content, 2), after });
    log.mapped(section.heading.index + 1, heading, `spec.md: kept as the section "${section.heading.text}"`);
  }
  if (sections.length > 0) spec.sections = sections;
  spec.overview = overview.filter((t) => t.trim()).join('\n\n');
  if (!spec.overview.trim() && input) spec.overview = input;
  return { spec, input, criteria, stories, storyTitles };
}
