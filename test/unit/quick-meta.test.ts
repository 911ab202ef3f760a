import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../src/domain/findings.js';
import { DOC_STATUSES, DOC_TYPES, type DocMeta, type DocType } from '../../src/domain/model.js';
import { emitMeta, readMeta } from '../../src/store/doc-meta.js';
import { splitFrontmatter } from '../../src/store/markdown.js';
import { quickMeta } from '../../src/store/quick-meta.js';
import { hostileText, rng } from '../random.js';

/** What the full reader says of a document's text, in the quick reader's terms (null: it finds something wrong). */
function full(text: string, type: DocType): { meta: DocMeta; bodyStart: number } | null {
  const split = splitFrontmatter(text);
  if (!split) return null;
  const sink = new FindingSink('doc.md');
  const read = readMeta(split.frontmatter, sink, type);
  if (!read || sink.findings.length > 0 || Object.keys(read.extra).length > 0) return null;
  return { meta: read.meta, bodyStart: text.length - split.body.length };
}

function randomMeta(r: ReturnType<typeof rng>, type: DocType): DocMeta {
  const word = () => r.pick(['codex', 'human:Bo Li', 'gemini-2', '2026-11-22T01:00:00.000Z', 'true', '12', '1e3', '', hostileText(r, 1, 1).replace(/\n/g, ' ')]);
  const note = () => ({ author: word(), at: word(), text: r.int(2) ? hostileText(r, 1, 2) : word() });
  const meta: DocMeta = {
    id: `add-thing/${type}`,
    change_id: 'add-thing',
    type,
    status: r.pick(DOC_STATUSES),
    created: word(),
    updated: word(),
    author: word(),
    revision: r.int(5),
    notes: Array.from({ length: r.int(3) }, note),
    feedback: Array.from({ length: r.int(2) }, note),
  };
  if (r.int(2)) meta.title = word();
  if (r.int(3) === 0) meta.assignee = word();
  if (r.int(3) === 0) meta.claimed_at = word();
  if (r.int(4) === 0) meta.review_requested_by = word();
  if (r.int(4) === 0) meta.decided_by = word();
  if (r.int(5) === 0) meta.imported_from = r.int(2) ? { tool: 'openspec', path: word() } : { tool: 'spec-kit', path: 'specs/001/spec.md', commit: 'abc123' };
  if (type === 'tasks' && r.int(3) === 0) meta.retired = r.pick([['T3'], ['T2', 'T10'], ['1.2', '12', 'true']]);
  return meta;
}

describe('the quick read of a frontmatter', () => {
  it('agrees with the full reader on every frontmatter agentboard writes, or leaves it to the full reader', () => {
    const r = rng(11);
    let answered = 0;
    let retired = 0;
    for (let round = 0; round < 600; round++) {
      const type = r.pick(DOC_TYPES);
      const text = `---\n${emitMeta(randomMeta(r, type))}---\n\n# Body\n`;
      const quick = quickMeta(text, type);
      if (quick === null) continue;
      answered++;
      if (quick.meta.retired) retired++;
      expect(quick, text).toEqual(full(text, type));
    }
    expect(answered).toBeGreaterThan(300);
    expect(retired).toBeGreaterThan(10);
  });

  it('leaves a frontmatter a person changed the shape of to the full reader', () => {
    const meta = randomMeta(rng(3), 'tasks');
    meta.notes = [{ author: 'planner', at: '2026-11-22T01:00:00.000Z', text: 'Generated.' }];
    const text = `---\n${emitMeta(meta)}---\n`;
    expect(quickMeta(text, 'tasks')).not.toBeNull();
    const edits = [
      (t: string) => t.replace('type: tasks', 'type: spec'),
      (t: string) => t.replace(/^status: .*$/m, 'status: finished'),
      (t: string) => t.replace(/^change_id: .*$/m, 'change_id: ""'),
      (t: string) => t.replace(/^change_id: .*$/m, 'change_id: yes'),
      (t: string) => t.replace(/^change_id: .*$/m, 'change_id: 12'),
      (t: string) => t.replace(/^change_id: .*$/m, 'change_id: add-thing # a comment'),
      (t: string) => t.replace(/^change_id: .*$/m, 'change_id: "add\\qthing"'),
      (t: string) => t.replace('    text: Generated.', '    text: "unterminated'),
      (t: string) => t.replace('    text: Generated.', '    text: Generated.\n    by: someone'),
      (t: string) => t.replace('notes:\n', 'notes: none\n'),
      (t: string) => t.replace('---\n', '---\nowner: Bo\n'),
      (t: string) => t.replace(/\n---\n$/, '\nowner: Bo\n---\n'),
      (t: string) => t.replace(/^id: (.*)\nchange_id: (.*)$/m, 'change_id: $2\nid: $1'),
      (t: string) => t.replace(/\n/g, '\r\n'),
      (t: string) => t.replace('Generated.', 'Gen\u202Eerated.'),
      (t: string) => t.replace('\nnotes:\n', '\nretired: [T3, "a b"]\nnotes:\n'),
      (t: string) => t.replace('\nnotes:\n', '\nretired: [T3\nnotes:\n'),
      (t: string) => t.replace('\nnotes:\n', '\nretired:\n  - T3\nnotes:\n'),
    ];
    for (const edit of edits) {
      const edited = edit(text);
      expect(edited, 'the edit applies').not.toBe(text);
      expect(quickMeta(edited, 'tasks'), edited).toBeNull();
    }
  });
});
