/**
 * spec.md body, in seed 001's own shape: Overview, Requirements (### <id>: <title>), optional Data
 * Model and Interfaces, and Acceptance Criteria (### Scenario: <name> with GIVEN / WHEN / THEN bullets).
 */
import type { FindingSink } from '../domain/findings.js';
import type { Scenario, Spec } from '../domain/model.js';
import { readBlock, sectionKey, writeBlock } from './blocks.js';
import { escapeText, normalizeText, outline, sectionsAt, TextLines, unescapeText } from './markdown.js';
import { renderTemplate } from './template.js';
import { TEMPLATES } from './templates.js';

/** A scenario step is one paragraph: continuation lines are indented two spaces under the bullet. */
function writeStep(text: string): string {
  const [first, ...rest] = escapeText(normalizeText(text), 6, false).split('\n');
  return [first, ...rest.map((l) => `  ${l}`)].join('\n');
}

export function renderSpecBody(spec: Spec): string {
  return renderTemplate(TEMPLATES.spec, {
    title: spec.title,
    overview: writeBlock(spec.overview, 2),
    requirements: spec.requirements.map((r) => ({ id: r.id, title: r.title, text: writeBlock(r.text, 3) })),
    data_model: spec.data_model ? writeBlock(spec.data_model, 2) : '',
    interfaces: spec.interfaces ? writeBlock(spec.interfaces, 2) : '',
    scenarios: spec.scenarios.map((s) => ({
      name: s.name,
      given: s.given ? writeStep(s.given) : '',
      when: writeStep(s.when),
      then: writeStep(s.then),
    })),
  });
}

/** Where the parts of a spec stand in its body (1-based lines), for findings. */
export interface SpecLines {
  overview?: number;
  requirements: number[];
  scenarios: number[];
}

const STEP = /^[-*+][ \t]+(?:\*\*|__)?(GIVEN|WHEN|THEN|AND):?(?:\*\*|__)?(?:[ \t]+(.*))?$/i;
type StepKey = 'given' | 'when' | 'then';

function parseScenario(name: string, content: string, firstLine: number, sink: FindingSink): Scenario {
  const parts: Record<StepKey, string[]> = { given: [], when: [], then: [] };
  let current: StepKey | null = null;
  content.split('\n').forEach((line, i) => {
    const m = STEP.exec(line);
    if (m) {
      const word = m[1]!.toLowerCase();
      if (word === 'and') {
        if (current === null) {
          sink.error('spec.scenario.step', `scenario "${name}": AND has no step before it`, 'start with a GIVEN or WHEN bullet', firstLine + i);
        } else {
          parts[current].push(`AND ${m[2] ?? ''}`);
        }
        return;
      }
      current = word as StepKey;
      if (parts[current].length > 0) {
        sink.error('spec.scenario.step', `scenario "${name}" has more than one ${word.toUpperCase()}`, 'join them into one step, or continue with an AND bullet', firstLine + i);
      }
      parts[current].push(m[2] ?? '');
    } else if (line.trim() === '') {
      current = null;
    } else if (current !== null && line.startsWith('  ')) {
      parts[current].push(line.slice(2));
    } else {
      sink.warn('spec.scenario.text', `scenario "${name}": a line that is not a GIVEN, WHEN or THEN bullet is not read`, 'write it as "- **WHEN** …" or indent it under the step it belongs to', firstLine + i);
    }
  });
  const scenario: Scenario = { name, when: '', then: '' };
  for (const key of ['given', 'when', 'then'] as const) {
    if (parts[key].length > 0) scenario[key] = unescapeText(parts[key].join('\n'), 6, false);
  }
  return scenario;
}

const REQUIREMENT_HEADING = /^(\S+?)\s*:\s*(.*)$/;

export function parseSpecBody(body: string, sink: FindingSink): { spec: Spec; lines: SpecLines } {
  const lines = new TextLines(body);
  const heads = outline(lines);
  const h1 = heads.find((h) => h.level === 1);
  const spec: Spec = {
    title: h1 ? h1.text.replace(/^(?:specification|spec)\s*:\s*/i, '') : '',
    overview: '',
    requirements: [],
    scenarios: [],
  };
  const where: SpecLines = { requirements: [], scenarios: [] };
  for (const section of sectionsAt(lines, heads, 2)) {
    const key = sectionKey(section.heading.text);
    if (key === 'overview') {
      spec.overview = readBlock(section.content, 2);
      where.overview = section.heading.index + 1;
    } else if (key === 'data model') spec.data_model = readBlock(section.content, 2);
    else if (key === 'interfaces') spec.interfaces = readBlock(section.content, 2);
    else if (key === 'requirements') {
      for (const sub of sectionsAt(lines, heads, 3, section.heading.index + 1, section.end)) {
        const m = REQUIREMENT_HEADING.exec(sub.heading.text);
        if (!m) {
          sink.error('spec.requirement.heading', `requirement heading "${sub.heading.text}" has no id`, 'write it as "### R1: Title"', sub.heading.index + 1);
        }
        spec.requirements.push({ id: m ? m[1]! : '', title: m ? m[2]!.trim() : sub.heading.text, text: readBlock(sub.content, 3) });
        where.requirements.push(sub.heading.index + 1);
      }
    } else if (key === 'acceptance criteria' || key === 'scenarios') {
      for (const sub of sectionsAt(lines, heads, 3, section.heading.index + 1, section.end)) {
        const name = sub.heading.text.replace(/^scenario\s*:\s*/i, '');
        spec.scenarios.push(parseScenario(name, sub.content, sub.contentIndex + 1, sink));
        where.scenarios.push(sub.heading.index + 1);
      }
    } else {
      sink.warn('spec.section', `section "${section.heading.text}" is not part of a spec and is not read`, 'use Overview, Requirements, Data Model, Interfaces or Acceptance Criteria', section.heading.index + 1);
    }
  }
  return { spec, lines: where };
}
