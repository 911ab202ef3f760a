import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocMeta, Proposal, ReviewRound, Spec, Task } from '../../src/domain/model.js';
import { checkDoc, parseDocText, renderBody, renderDocFile } from '../../src/store/documents.js';
import { renderTaskBlock, renderTasksPreamble, type TasksBody } from '../../src/store/format-tasks.js';
import { escapeText, fencedLines, headingText, normalizeText, outline, TextLines, unescapeText } from '../../src/store/markdown.js';
import { markdownToInput } from '../../src/ops/from-markdown.js';
import { FIXTURES } from '../helpers.js';
import { hostileText, rng } from '../random.js';

const r = rng(42);
const text = (min = 1) => {
  let t = '';
  while (t.trim().length < min) t = normalizeText(hostileText(r, 1, 6) + '\nSome words to make it long enough for the minimum length rules of the spec.');
  return t;
};
const title = () => r.pick(['A title', 'Fix # in names', 'Use `code` and **bold**', 'Colon: inside', 'Ünïcode 🎉', '## not a heading']).trim();
const step = () => normalizeText(hostileText(r, 1, 3)).replace(/\n\s*\n/g, '\n').trim() || 'something happens';

function meta(type: DocMeta['type']): DocMeta {
  return {
    id: `c1/${type}`,
    change_id: 'c1',
    type,
    status: 'submitted',
    created: '2026-11-22T03:00:00.000Z',
    updated: '2026-11-22T03:00:00.000Z',
    author: 'claude',
    revision: 1,
    notes: [{ author: 'claude', at: '2026-11-22T03:00:00.000Z', text: hostileText(r) }],
    feedback: [],
  };
}

function roundTrip<T extends DocMeta['type']>(type: T, content: any): any {
  const m = meta(type);
  const file = renderDocFile(m, {}, renderBody(type, content));
  const doc = parseDocText(type, file, `agentd/changes/c1/${type}.md`);
  expect(doc.findings.filter((f) => f.level === 'error')).toEqual([]);
  expect(doc.meta).toEqual(m);
  // parse then serialize is byte-identical
  expect(renderDocFile(doc.meta, doc.extra, renderBody(type, doc.content as never))).toBe(file);
  return doc.content;
}

describe('escaping user text', () => {
  it('is reversible and leaves no heading or open fence behind', async () => {
    for (let i = 0; i < 2000; i++) {
      const t = hostileText(r, 1, 10);
      const level = 1 + r.int(6);
      for (const fences of [true, false]) {
        const escaped = escapeText(t, level, fences);
        expect(unescapeText(escaped, level, fences)).toBe(t);
        const lines = new TextLines(escaped);
        expect(outline(lines).filter((h) => h.level <= level)).toEqual([]);
        const inFence = fencedLines(lines);
        // every fence that is left opens and closes inside the text itself
        escaped.split('\n').forEach((l, k) => {
          if (/^ {0,3}(```|~~~)/.test(l)) expect(inFence[k]).toBe(true);
        });
      }
    }
  });
});

describe('a heading\'s text', () => {
  it('is the line without its #s, its closing #s (after a space) and its edge spaces, and a run of spaces in it is gone over once', () => {
    const cases: [string, string][] = [
      ['## T1: One', 'T1: One'],
      ['## T1: One ##', 'T1: One'],
      ['## T1: One #  \t', 'T1: One'],
      ['## T1: Use C#', 'T1: Use C#'],
      ['## T1: a # #', 'T1: a #'],
      ['## #', '#'],
      ['##', ''],
      ['   ### Three\t', 'Three'],
      ['## T1: x\\#', 'T1: x\\#'],
    ];
    expect(cases.map(([line]) => headingText(line))).toEqual(cases.map(([, text]) => text));
    const spaces = ' '.repeat(200_000);
    expect(headingText(`## T2: Two${spaces}x`)).toBe(`T2: Two${spaces}x`);
    expect(headingText(`## T2: Two${spaces}#`)).toBe('T2: Two');
  });
});

describe('documents round-trip', () => {
  it('proposal', async () => {
    for (let i = 0; i < 200; i++) {
      const p: Proposal = { title: title(), why: text(50), what_changes: text(), impact: text() };
      expect(roundTrip('proposal', p)).toEqual(p);
    }
  });

  it('spec', async () => {
    for (let i = 0; i < 200; i++) {
      const spec: Spec = {
        title: title(),
        overview: text(50),
        requirements: Array.from({ length: 1 + r.int(3) }, (_, k) => ({ id: `R${k + 1}`, title: title(), text: `${text()}\nIt MUST hold.` })),
        scenarios: Array.from({ length: 1 + r.int(3) }, () => {
          const s = { name: title(), when: step(), then: step() } as Spec['scenarios'][number];
          if (r.int(2)) s.given = step();
          return s;
        }),
      };
      if (r.int(2)) spec.data_model = text();
      if (r.int(2)) spec.interfaces = '```ts\n# not a heading inside code\nfunction f(): void\n```';
      const back = roundTrip('spec', spec);
      expect(back).toEqual(spec);
    }
  });

  it('spec with kept sections, deltas and groups, scenarios of several steps linked to requirements', async () => {
    const parts = ['title', 'overview', 'requirements', 'data_model', 'interfaces', 'scenarios'] as const;
    for (let i = 0; i < 200; i++) {
      const requirements = Array.from({ length: 1 + r.int(4) }, (_, k) => {
        const req: Spec['requirements'][number] = { id: r.pick(['R', 'A', 'FR-00', 'AUTH-R']) + (k + 1), title: title(), text: `${text()}\nIt must hold.` };
        if (r.int(2)) req.delta = r.pick(['ADDED', 'MODIFIED', 'REMOVED', 'RENAMED'] as const);
        if (r.int(2)) req.group = r.pick(['bookmarks', 'tags', 'identity/user-auth']);
        return req;
      });
      const steps = () => Array.from({ length: 1 + r.int(3) }, (_, k) => (k === 0 ? step() : `${r.pick(['AND', 'THEN', 'BUT', 'GIVEN', 'WHEN'])} ${step().split('\n')[0]}`)).join('\n');
      const spec: Spec = {
        title: title(),
        overview: text(50),
        requirements,
        scenarios: Array.from({ length: 1 + r.int(3) }, () => {
          const s = { name: title(), when: steps(), then: steps() } as Spec['scenarios'][number];
          if (r.int(2)) s.given = steps();
          if (r.int(2)) s.requirement = r.pick(requirements).id;
          return s;
        }),
      };
      const sections = Array.from({ length: r.int(4) }, () => ({ heading: r.pick(['Non-goals', 'Flow', 'Open Questions', 'Clarifications: Session 2026-10-06']), text: r.int(4) ? text() : '', after: r.pick(parts.slice(1)) as string }));
      if (r.int(2)) sections.unshift({ heading: '', text: text(), after: 'title' });
      if (sections.length) spec.sections = sections;
      if (r.int(2)) spec.data_model = text();
      const back = roundTrip('spec', spec) as Spec;
      // Sections come back in the order they are written: by the part they follow (an absent part's place is the one before it).
      const present = (after: string): string => (after === 'interfaces' && !spec.interfaces ? present('data_model') : after === 'data_model' && !spec.data_model ? 'requirements' : after);
      const order = (x: Spec) => (x.sections ?? []).slice().sort((a, b) => parts.indexOf(a.after as never) - parts.indexOf(b.after as never)).map((sec) => ({ ...sec, after: present(sec.after) }));
      expect(back.sections ?? []).toEqual(order(spec));
      expect({ ...back, sections: undefined }).toEqual({ ...spec, sections: undefined });
    }
  });

  it('proposal and review with kept sections', async () => {
    for (let i = 0; i < 100; i++) {
      const sections = Array.from({ length: 1 + r.int(3) }, () => ({ heading: r.pick(['Summary', 'Capabilities', 'Non-goals']), text: text(), after: r.pick(['title', 'why', 'what_changes', 'impact']) }));
      const p: Proposal = { title: title(), why: text(50), what_changes: text(), impact: text(), sections };
      const back = roundTrip('proposal', p) as Proposal;
      const order = ['title', 'why', 'what_changes', 'impact'];
      expect(back).toEqual({ ...p, sections: sections.slice().sort((a, b) => order.indexOf(a.after) - order.indexOf(b.after)) });
      const round: ReviewRound = { round: 1, verdict: 'NEEDS_FIX', reviewer: 'codex', at: '2026-11-22T03:00:00.000Z', summary: text(), issues: [], sections: [{ heading: r.pick(['Test Results', 'Security']), text: text(), after: 'issues' }] };
      expect(roundTrip('review', [round])).toEqual([round]);
    }
  });

  it('review, with earlier rounds kept', async () => {
    for (let i = 0; i < 200; i++) {
      const rounds: ReviewRound[] = Array.from({ length: 1 + r.int(3) }, (_, k) => ({
        round: 3 - k,
        verdict: r.pick(['APPROVED', 'NEEDS_FIX', 'MAJOR_ISSUES'] as const),
        reviewer: r.pick(['codex', 'human:Ada Lovelace', 'gemini']),
        at: '2026-11-22T03:00:00.000Z',
        summary: text(),
        issues: Array.from({ length: r.int(4) }, () => ({ title: title(), severity: r.pick(['High', 'Medium', 'Low'] as const), description: text() })),
      }));
      // issues come back grouped by severity
      const grouped = rounds.map((round) => ({ ...round, issues: ['High', 'Medium', 'Low'].flatMap((s) => round.issues.filter((x) => x.severity === s)) }));
      expect(roundTrip('review', rounds)).toEqual(grouped);
    }
  });

  it('tasks', async () => {
    for (let i = 0; i < 100; i++) {
      const tasks: Task[] = Array.from({ length: 1 + r.int(5) }, (_, k) => ({
        id: `T${k + 1}`,
        title: title(),
        description: r.int(2) ? text() : '',
        status: 'in_progress',
        priority: r.pick(['low', 'medium', 'high', 'urgent'] as const),
        depends: k > 0 && r.int(2) ? [`T${k}`] : [],
        skills: r.int(2) ? ['typescript', 'a b'] : [],
        requirements: [],
        files: r.int(2) ? [{ path: 'src/x y.ts', action: 'create' }] : [],
        assignee: 'codex-2',
        claimed_at: '2026-11-22T03:00:00.000Z',
        progress: r.int(101),
        progress_message: hostileText(r),
        blockers: [],
        feedback: [{ author: 'human:Bo', at: '2026-11-22T03:00:00.000Z', text: hostileText(r) }],
        notes: [{ author: 'codex-2', at: '2026-11-22T03:00:00.000Z', text: hostileText(r) }],
      }));
      const body: TasksBody = { title: 'T', preamble: renderTasksPreamble(title()), blocks: tasks.map((t) => ({ id: t.id, task: t, raw: renderTaskBlock(t), line: 0 })) };
      const back = roundTrip('tasks', body) as TasksBody;
      expect(back.blocks.map((b) => b.task)).toEqual(tasks);
    }
  });
});

describe('hand edits', () => {
  const file = (body: string) => renderDocFile(meta('tasks'), {}, body);

  it('point at the file and line of a broken task', async () => {
    const task = renderTaskBlock({ id: 'T1', title: 'One', description: '', status: 'todo', priority: 'medium', depends: [], skills: [], requirements: [], files: [], blockers: [], feedback: [], notes: [] });
    const broken = file(`\n# Tasks: x\n\n${task.replace('status: todo', 'status: doing')}\n`);
    const doc = parseDocText('tasks', broken, 'agentd/changes/c1/tasks.md');
    const err = doc.findings.find((f) => f.rule === 'tasks.status')!;
    expect(err.file).toBe('agentd/changes/c1/tasks.md');
    expect(broken.split('\n')[err.line! - 1]).toBe('status: doing');
  });

  it('report an unknown verdict instead of defaulting', async () => {
    const text = renderDocFile(meta('review'), {}, '\n# Verdict: LGTM\n\n## Summary\n\nok\n');
    const doc = parseDocText('review', text, 'REVIEW.md');
    const err = doc.findings.find((f) => f.rule === 'review.verdict')!;
    expect(err.level).toBe('error');
    expect(text.split('\n')[err.line! - 1]).toBe('# Verdict: LGTM');
  });

  it('report an unknown severity', async () => {
    const body = '\n# Verdict: NEEDS_FIX\n\n**Round 1** · reviewed by x · 2026-11-22T03:00:00.000Z\n\n## Summary\n\nok\n\n## Issues\n\n### Critical\n\n#### Bad\n\nbad\n';
    const doc = parseDocText('review', renderDocFile(meta('review'), {}, body), 'REVIEW.md');
    expect(doc.findings.map((f) => f.rule)).toContain('review.severity');
  });

  it('report a YAML bomb in frontmatter with its file', async () => {
    const bomb = '---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n# x\n';
    const doc = parseDocText('proposal', bomb, 'agentd/changes/c1/proposal.md');
    expect(doc.content).toBeNull();
    expect(doc.findings[0]).toMatchObject({ level: 'error', file: 'agentd/changes/c1/proposal.md', rule: 'frontmatter.yaml' });
  });
});

describe('seed 001', () => {
  const seed = readFileSync(join(FIXTURES, 'mcp-spec-tooling.md'), 'utf8');

  it('is read as a valid spec', async () => {
    const input = markdownToInput('spec', seed, 'seed.md') as any;
    expect(input.title).toBe('MCP Specification Tooling');
    expect(input.requirements.map((x: any) => x.id)).toEqual(['MS-R1', 'MS-R2', 'MS-R3', 'MS-R4']);
    expect(input.scenarios).toHaveLength(3);
    expect(input.scenarios[2].when).toContain('overview shorter than 50 characters');
    expect(input.data_model).toContain('"enum": ["APPROVED", "NEEDS_FIX", "MAJOR_ISSUES"]');
    const body = renderBody('spec', input as Spec);
    const doc = parseDocText('spec', renderDocFile(meta('spec'), {}, body), 'spec.md');
    expect(checkDoc(doc, 'c1').filter((f) => f.level === 'error')).toEqual([]);
  });
});

describe('agentd checklist tasks', () => {
  it('become tasks with files, dependencies, done state and group; other sub-lines stay in the description as written', async () => {
    const md = [
      '# Tasks',
      '',
      '## 1. Data Layer',
      '',
      '- [ ] 1.1 Add pricing fields',
      '  - File: `src/models/change.rs` (MODIFY)',
      '  - Spec: `specs/usage.md#r1`',
      '  - Do: Add the cost fields.',
      '  - Depends: none',
      '',
      '- [x] 1.2 Update schema',
      '  - File: `agentd/schemas/state.schema.json` (CREATE)',
      '  - File: `src/a.rs` (DELETE)',
      '  - Do: Update the telemetry definition.',
      '  - Depends: 1.1, 1.0',
    ].join('\n');
    expect(markdownToInput('tasks', md, 'tasks.md').tasks).toEqual([
      { id: '1.1', title: 'Add pricing fields', description: '- Spec: `specs/usage.md#r1`\n- Do: Add the cost fields.', files: [{ path: 'src/models/change.rs', action: 'modify' }], group: '1. Data Layer' },
      {
        id: '1.2',
        title: 'Update schema',
        description: '- Do: Update the telemetry definition.',
        files: [
          { path: 'agentd/schemas/state.schema.json', action: 'create' },
          { path: 'src/a.rs', action: 'delete' },
        ],
        depends: ['1.1', '1.0'],
        group: '1. Data Layer',
        status: 'done',
      },
    ]);
  });
});
