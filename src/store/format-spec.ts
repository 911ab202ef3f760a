/**
 * spec.md body, in seed 001's own shape: Overview, Requirements (### <id>: <title>), optional Data
 * Model and Interfaces, and Acceptance Criteria (### Scenario: <name> with GIVEN / WHEN / THEN
 * bullets, any number of them, and AND). Requirements may come in sections per capability and
 * delta (OpenSpec's "## ADDED Requirements"), a scenario may name its requirement or stand under
 * it ("#### Scenario:"), and any other section is kept as written, in its place.
 */
import type { FindingSink } from '../domain/findings.js';
import type { Delta, Requirement, Scenario, Spec } from '../domain/model.js';
import { extraSection, introSection, outlineDoc, readBlock, renderSections, sectionKey, writeBlock } from './blocks.js';
import { escapeText, fencedLines, normalizeText, outline, sectionsAt, TextLines, unescapeText, type Heading, type Section } from './markdown.js';
import { renderTemplate } from './template.js';
import { TEMPLATES } from './templates.js';
import { SCENARIO_WORDS, STEP_NAME } from './step-words.js';
import { printable } from '../domain/text.js';

/** The headings a spec is read from, for messages that say what was expected. */
export const SPEC_HEADINGS = ['## Overview', '## Requirements', '## Acceptance Criteria'];

type Bucket = 'given' | 'when' | 'then';
const BUCKET_WORD: Record<Bucket, string> = { given: 'GIVEN', when: 'WHEN', then: 'THEN' };
/** Steps that would start a later part when read back: inside a part they stay continuation lines. */
const ENDS: Record<Bucket, string[]> = { given: ['WHEN', 'THEN'], when: ['THEN'], then: [] };
const KEYWORD_LINE = /^(GIVEN|WHEN|THEN|AND|BUT) (.*)$/;

/** A scenario's steps as bullets: the first of each part, then its further steps, in order. */
function renderSteps(s: Scenario): string {
  const out: string[] = [];
  for (const part of ['given', 'when', 'then'] as const) {
    const text = s[part];
    if (text === undefined || (part === 'given' && text === '')) continue;
    // A fenced block under the step stays one (its lines as they are), unless the step's own first line is in it.
    const normal = normalizeText(text);
    const fences = !fencedLines(new TextLines(normal))[0];
    const [first, ...rest] = escapeText(normal, 6, fences).split('\n');
    out.push(`- **${BUCKET_WORD[part]}**${first ? ` ${first}` : ''}`);
    for (const line of rest) {
      const m = KEYWORD_LINE.exec(line);
      out.push(m && !ENDS[part].includes(m[1]!) ? `- **${m[1]}** ${m[2]}` : line ? `  ${line}` : '');
    }
  }
  return out.join('\n');
}

/** Runs of requirements that share a delta and a group: each run is one "## … Requirements" section. */
function requirementGroups(requirements: Requirement[]): { heading: string; requirements: { id: string; title: string; text: string }[] }[] {
  const groups: { key: string; heading: string; requirements: { id: string; title: string; text: string }[] }[] = [];
  for (const r of requirements) {
    const key = `${r.delta ?? ''}\u0000${r.group ?? ''}`;
    let last = groups[groups.length - 1];
    if (!last || last.key !== key) {
      last = { key, heading: `${r.delta ? `${r.delta} ` : ''}Requirements${r.group ? `: ${r.group}` : ''}`, requirements: [] };
      groups.push(last);
    }
    last.requirements.push({ id: r.id, title: r.title, text: writeBlock(r.text, 3) });
  }
  if (groups.length === 0) groups.push({ key: '', heading: 'Requirements', requirements: [] });
  return groups.map(({ heading, requirements: list }) => ({ heading, requirements: list }));
}

export function renderSpecBody(spec: Spec): string {
  return renderTemplate(TEMPLATES.spec, {
    title: spec.title,
    overview: writeBlock(spec.overview, 2),
    requirement_groups: requirementGroups(spec.requirements),
    data_model: spec.data_model ? writeBlock(spec.data_model, 2) : '',
    interfaces: spec.interfaces ? writeBlock(spec.interfaces, 2) : '',
    scenarios: spec.scenarios.map((s) => ({ name: s.name, requirement: s.requirement ?? '', steps: renderSteps(s) })),
    after_title: renderSections(spec.sections, 'title'),
    after_overview: renderSections(spec.sections, 'overview'),
    after_requirements: renderSections(spec.sections, 'requirements'),
    after_data_model: renderSections(spec.sections, 'data_model'),
    after_interfaces: renderSections(spec.sections, 'interfaces'),
    after_scenarios: renderSections(spec.sections, 'scenarios'),
  });
}

/** Where the parts of a spec stand in its body (1-based lines), for findings. */
export interface SpecLines {
  overview?: number;
  requirements: number[];
  scenarios: number[];
}

/** A step on a bullet: "- **WHEN** …", "- WHEN: …". Bold closes right after the word: "- **AND IF** …" is no step (its bold would be cut). */
const STEP = /^[-*+][ \t]+(?:(?:\*\*|__)(GIVEN|WHEN|THEN|AND|BUT)(?::(?:\*\*|__)|(?:\*\*|__):?)|(GIVEN|WHEN|THEN|AND|BUT):?)(?:[ \t]+(.*))?$/i;
/** A step on a line of its own, as OpenSpec and agentd write them too: "**Given** …" in any case, or "WHEN …" in capitals. */
const BOLD_STEP = /^(?:\*\*|__)(GIVEN|WHEN|THEN|AND|BUT)(?::(?:\*\*|__)|(?:\*\*|__):?)(?:[ \t]+(.*))?$/i;
const CAPS_STEP = /^(GIVEN|WHEN|THEN|AND|BUT):?(?:[ \t]+(.*))?$/;
const REQUIREMENT_LINK = /^\*\*Requirement\*\*:[ \t]*(\S+)[ \t]*$/;

/** Another tool's step in bold in any of the languages of step-words.ts ("- **QUAND** …", "**Cuando** …"), read as the English step it is. */
const WORDS = [...STEP_NAME.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const LOOSE_STEP = new RegExp(`^(?:[-*+][ \\t]+)?(?:\\*\\*|__)(${WORDS})(?:[:：](?:\\*\\*|__)|(?:\\*\\*|__)[:：]?)(?:[ \\t]+(.*))?$`, 'iu');

function stepOf(line: string, loose = false): { word: string; text: string } | null {
  const bullet = STEP.exec(line);
  if (bullet) return { word: (bullet[1] ?? bullet[2])!.toUpperCase(), text: bullet[3] ?? '' };
  const bare = BOLD_STEP.exec(line) ?? CAPS_STEP.exec(line);
  // A line break written as two trailing spaces or a backslash is no part of the step.
  if (bare) return { word: bare[1]!.toUpperCase(), text: (bare[2] ?? '').replace(/(?:[ \t]+|\\)$/, '') };
  const other = loose ? LOOSE_STEP.exec(line) : null;
  return other ? { word: STEP_NAME.get(other[1]!.toLowerCase())!.toUpperCase(), text: (other[2] ?? '').replace(/(?:[ \t]+|\\)$/, '') } : null;
}

/**
 * Reads a scenario's steps in order. The first GIVEN, WHEN and THEN open the three parts; every
 * other step joins the part it follows as a line of its own starting with its keyword. A line
 * right under a step continues it (indented or not, as markdown reads it), and so does, after a
 * blank line, an indented line or a fenced code block. `loose` (for other tools' specs, whose
 * scenarios are free text under their heading) keeps any other text after the steps as part of
 * the last step, with a warning, where agentboard's own spec refuses it.
 */
export function parseScenario(name: string, content: string, firstLine: number, sink: FindingSink, requirement?: string, loose = false): Scenario {
  const steps: { word: string; lines: string[] }[] = [];
  let link = requirement;
  let inStep = false;
  let blanks = 0;
  let strip = 0;
  const lines = content.split('\n');
  const inFence = fencedLines(lines);
  const notStep = (i: number) =>
    sink.error('spec.scenario.text', `scenario "${printable(name)}": this line is not a GIVEN, WHEN, THEN or AND step`, 'write it as a step ("- **AND** …"), put it right under the step it continues, or move it out of the scenario', firstLine + i);
  const lead = (line: string) => line.length - line.trimStart().length;
  const continues = (line: string) => inStep && (blanks === 0 || line.startsWith('  '));
  lines.forEach((line, i) => {
    const current = steps[steps.length - 1];
    const opens = inFence[i] && !inFence[i - 1];
    if (inFence[i]) {
      // A code block belongs to the step above it, its blank lines too.
      if (!current) {
        if (opens) notStep(i);
        return;
      }
      if (opens) strip = Math.min(2, lead(line));
      current.lines.push(...new Array<string>(blanks).fill(''), line.trim() === '' ? '' : line.slice(Math.min(strip, lead(line))));
      blanks = 0;
      inStep = true;
      return;
    }
    const step = stepOf(line, loose);
    if (step) {
      steps.push({ word: step.word, lines: [step.text] });
      inStep = true;
      blanks = 0;
    } else if (line.trim() === '') {
      if (inStep) blanks++;
    } else if (current && (continues(line) || loose)) {
      if (!continues(line)) {
        sink.warn('spec.scenario.text', `scenario "${printable(name)}": this text after its steps is not a step; it is kept as part of its last step (${current.word})`, 'nothing to do, or make it a step or move it out of the scenario', firstLine + i);
      }
      current.lines.push(...new Array<string>(blanks).fill(''), line.startsWith('  ') ? line.slice(2) : line);
      blanks = 0;
      inStep = true;
    } else if (steps.length === 0 && link === undefined && REQUIREMENT_LINK.test(line)) {
      link = REQUIREMENT_LINK.exec(line)![1]!;
    } else {
      inStep = false;
      blanks = 0;
      notStep(i);
    }
  });
  const whenAt = steps.findIndex((s) => s.word === 'WHEN');
  const thenFrom = whenAt < 0 ? 0 : whenAt;
  let thenAt = steps.findIndex((s, k) => k >= thenFrom && s.word === 'THEN');
  if (thenAt < 0) thenAt = steps.length;
  const givenEnd = whenAt >= 0 ? whenAt : thenAt;
  const parts: Record<Bucket, typeof steps> = {
    given: steps.slice(0, givenEnd),
    when: whenAt >= 0 ? steps.slice(whenAt, thenAt) : [],
    then: steps.slice(thenAt),
  };
  const scenario: Scenario = { name, when: '', then: '' };
  for (const part of ['given', 'when', 'then'] as const) {
    const list = parts[part];
    if (list.length === 0) continue;
    if (list[0]!.word !== BUCKET_WORD[part]) {
      sink.error('spec.scenario.step', `scenario "${printable(name)}": ${list[0]!.word} has no step before it`, 'start with a GIVEN or WHEN bullet', firstLine);
    }
    const text = list.map((s, k) => (k === 0 ? s.lines.join('\n') : `${s.word} ${s.lines.join('\n')}`)).join('\n');
    scenario[part] = unescapeText(text, 6, !fencedLines(new TextLines(text))[0]);
  }
  if (link !== undefined) scenario.requirement = link;
  return scenario;
}

const REQUIREMENTS = /^(?:(ADDED|MODIFIED|REMOVED|RENAMED)[ \t]+)?requirements(?:[ \t]*:[ \t]*(.+))?$/i;
const OPENSPEC_REQUIREMENT = /^requirement\s*:\s*(.+)$/i;
const ID_COLON = /^(\S+?)\s*:\s*(.*)$/;
const ID_DASH = /^(\S+)\s+[-–—]\s+(.*)$/;
const RENAME = /^(?:[-*+][ \t]+)?(FROM|TO):[ \t]*`?(?:###[ \t]*)?(?:Requirement:[ \t]*)?(.+?)`?[ \t]*$/i;
const REMOVAL = /^[-*+][ \t]+`?###[ \t]*Requirement:[ \t]*(.+?)`?[ \t]*$/i;
const SCENARIO_HEADING = /^scenario\s*:\s*/i;
/** "Scenario:" in the languages of step-words.ts, as another tool's scenario heading may start. */
const ANY_SCENARIO_HEADING = new RegExp(`^(?:${SCENARIO_WORDS.join('|')})\\s*[:：]\\s*`, 'iu');
const STRUCK = /^~~(.+)~~$/;

function trimmed(lines: TextLines, from: number, to: number): { text: string; first: number } {
  while (from < to && lines.isBlank(from)) from++;
  while (to > from && lines.isBlank(to - 1)) to--;
  return { text: lines.slice(from, to), first: from };
}

/** `loose`: read as another tool's spec (see parseScenario). */
export function parseSpecBody(body: string, sink: FindingSink, loose = false): { spec: Spec; lines: SpecLines } {
  const lines = new TextLines(body);
  const heads = outline(lines);
  const doc = outlineDoc(lines, heads, sink, 'spec');
  const spec: Spec = {
    title: doc.title ? doc.title.replace(/^(?:feature[ \t]+)?spec(?:ification)?\s*:\s*/i, '') : '',
    overview: '',
    requirements: [],
    scenarios: [],
  };
  const sections = introSection(doc.intro);
  const where: SpecLines = { requirements: [], scenarios: [] };
  const seen = new Map<string, number>();
  const used = new Set<string>();
  let generated = 0;
  const nextId = () => {
    do generated++;
    while (used.has(`R${generated}`));
    return `R${generated}`;
  };
  const once = (field: string, section: Section): boolean => {
    const first = seen.get(field);
    if (first !== undefined) {
      sink.error('spec.section.twice', `section "${printable(section.heading.text)}" repeats one on line ${sink.fileLine(first)}`, 'join the two sections into one', section.heading.index + 1);
      return false;
    }
    seen.set(field, section.heading.index + 1);
    return true;
  };
  const addRequirement = (r: Requirement, line: number) => {
    used.add(r.id);
    spec.requirements.push(r);
    where.requirements.push(line);
  };
  const addScenario = (name: string, section: Section, heading: Heading, requirement?: string) => {
    spec.scenarios.push(parseScenario(name, section.content, section.contentIndex + 1, sink, requirement, loose));
    where.scenarios.push(heading.index + 1);
  };

  const readRequirements = (section: Section, delta: Delta | undefined, group: string | undefined) => {
    const subs = sectionsAt(lines, heads, 3, section.heading.index + 1, section.end);
    let pre = trimmed(lines, section.heading.index + 1, subs[0]?.heading.index ?? section.end);
    // OpenSpec may list what it removes as bullets ("- `### Requirement: Old`"): each is a requirement.
    if (pre.text && delta === 'REMOVED') pre = readRemovals(pre, group);
    if (pre.text) {
      if (delta === 'RENAMED') readRenames(pre.text, pre.first, group);
      else if (loose) {
        // Another tool's note on the section ("None: nothing is removed") stays, in a section of its own.
        const heading = `Note on ${section.heading.text}`;
        sink.warn('spec.requirements.text', `text under "## ${printable(section.heading.text)}" stands before its first requirement; it is kept as the section "${printable(heading)}"`, 'nothing to do', pre.first + 1);
        sections.push({ heading, text: readBlock(pre.text, 2), after: 'requirements' });
      } else sink.error('spec.requirements.text', `text under "## ${printable(section.heading.text)}" stands before its first requirement`, 'move it into a requirement ("### R1: Title") or into a section of its own', pre.first + 1);
    }
    for (const sub of subs) {
      const line = sub.heading.index + 1;
      // A heading struck through (`### ~~Requirement: Old~~`, as a removed requirement is written) is read without the strike.
      const heading = STRUCK.exec(sub.heading.text)?.[1]!.trim() ?? sub.heading.text;
      const openspec = OPENSPEC_REQUIREMENT.exec(heading);
      const m = openspec ? null : (ID_COLON.exec(heading) ?? ID_DASH.exec(heading));
      if (!openspec && !m) {
        sink.error('spec.requirement.heading', `requirement heading "${printable(sub.heading.text)}" has no id`, 'write it as "### R1: Title"', line);
      }
      const id = openspec ? nextId() : m ? m[1]! : '';
      const nested = sectionsAt(lines, heads, 4, sub.heading.index + 1, sub.end);
      // In OpenSpec every "#### " heading inside a requirement is a scenario, "Scenario:" before its name or not, in any language.
      const anyHeading = loose && openspec !== null;
      const scenarioHeading = anyHeading ? /(?:)/ : SCENARIO_HEADING;
      const firstScenario = nested.findIndex((n) => scenarioHeading.test(n.heading.text));
      const body = trimmed(lines, sub.heading.index + 1, firstScenario >= 0 ? nested[firstScenario]!.heading.index : sub.end);
      const requirement: Requirement = { id, title: openspec ? openspec[1]!.trim() : m ? m[2]!.trim() : heading, text: readBlock(body.text, 3) };
      if (delta) requirement.delta = delta;
      if (group) requirement.group = group;
      addRequirement(requirement, line);
      // Removals listed as bullets after a removed requirement's own block are requirements of their own (after it), as they are before it.
      if (delta === 'REMOVED' && openspec) requirement.text = readBlock(readRemovals(body, group).text, 3);
      for (const n of firstScenario >= 0 ? nested.slice(firstScenario) : []) {
        if (!scenarioHeading.test(n.heading.text)) {
          sink.error('spec.requirement.heading', `"#### ${printable(n.heading.text)}" follows the scenarios of requirement ${printable(id)}`, 'make it a scenario ("#### Scenario: …") or move it above the first scenario', n.heading.index + 1);
          continue;
        }
        addScenario(n.heading.text.replace(anyHeading ? ANY_SCENARIO_HEADING : SCENARIO_HEADING, ''), n, n.heading, id);
      }
    }
  };

  /**
   * OpenSpec's removals written as bullets ("- `### Requirement: Old`"): one requirement each, the
   * line kept as its text. Returns the text left (and where it starts), read as before.
   */
  const readRemovals = (pre: { text: string; first: number }, group: string | undefined): { text: string; first: number } => {
    const rest: { line: string; at: number }[] = [];
    pre.text.split('\n').forEach((line, i) => {
      const m = REMOVAL.exec(line.trim());
      if (!m) {
        rest.push({ line, at: pre.first + i });
        return;
      }
      const r: Requirement = { id: nextId(), title: m[1]!.trim(), text: line.trim(), delta: 'REMOVED' };
      if (group) r.group = group;
      addRequirement(r, pre.first + i + 1);
    });
    while (rest.length > 0 && rest[0]!.line.trim() === '') rest.shift();
    while (rest.length > 0 && rest[rest.length - 1]!.line.trim() === '') rest.pop();
    return { text: rest.map((r) => r.line).join('\n'), first: rest[0]?.at ?? pre.first };
  };

  /** OpenSpec's renames ("- FROM: `### Requirement: Old`", "- TO: …"): one requirement per pair, its lines kept as its text. */
  const readRenames = (text: string, first: number, group: string | undefined) => {
    let from: { line: string; at: number } | null = null;
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const m = RENAME.exec(line.trim());
      if (!m) {
        sink.error('spec.requirements.rename', 'a line under RENAMED Requirements is not a FROM or TO line', 'write renames as "- FROM: `### Requirement: Old`" and "- TO: `### Requirement: New`"', first + i + 1);
      } else if (m[1]!.toUpperCase() === 'FROM') {
        from = { line: line.trim(), at: first + i + 1 };
      } else if (!from) {
        sink.error('spec.requirements.rename', 'a TO line has no FROM line before it', 'put "- FROM: `### Requirement: Old`" right above it', first + i + 1);
      } else {
        const pair = from as { line: string; at: number };
        const r: Requirement = { id: nextId(), title: m[2]!.trim(), text: `${pair.line}\n${line.trim()}`, delta: 'RENAMED' };
        if (group) r.group = group;
        addRequirement(r, pair.at);
        from = null;
      }
    });
    if (from) sink.error('spec.requirements.rename', 'a FROM line has no TO line after it', 'add "- TO: `### Requirement: New`" under it', (from as { at: number }).at);
  };

  let after = 'title';
  for (const section of doc.sections) {
    const key = sectionKey(section.heading.text);
    const req = REQUIREMENTS.exec(section.heading.text.trim());
    if (key === 'overview' || key === 'purpose') {
      if (once('overview', section)) spec.overview = readBlock(section.content, 2);
      where.overview = section.heading.index + 1;
      after = 'overview';
    } else if (key === 'data model') {
      if (once('data_model', section)) spec.data_model = readBlock(section.content, 2);
      after = 'data_model';
    } else if (key === 'interfaces') {
      if (once('interfaces', section)) spec.interfaces = readBlock(section.content, 2);
      after = 'interfaces';
    } else if (req) {
      readRequirements(section, req[1] ? (req[1].toUpperCase() as Delta) : undefined, req[2]?.trim() || undefined);
      after = 'requirements';
    } else if (key === 'acceptance criteria' || key === 'scenarios') {
      if (once('scenarios', section)) {
        const subs = sectionsAt(lines, heads, 3, section.heading.index + 1, section.end);
        const pre = trimmed(lines, section.heading.index + 1, subs[0]?.heading.index ?? section.end);
        if (pre.text) {
          sink.error('spec.scenarios.text', `text under "## ${printable(section.heading.text)}" stands before its first scenario`, 'move it into a scenario or into a section of its own', pre.first + 1);
        }
        for (const sub of subs) addScenario(sub.heading.text.replace(SCENARIO_HEADING, ''), sub, sub.heading);
      }
      after = 'scenarios';
    } else {
      sections.push(extraSection(section, after));
    }
  }
  if (sections.length > 0) spec.sections = sections;
  return { spec, lines: where };
}
