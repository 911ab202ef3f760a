/**
 * The changes, one line each (phase, tasks done, what it waits on), and a change's detail: its
 * phases as steps, its documents with status and revision, the latest review's verdict and issues
 * by severity, and what `validate` finds, with file and line.
 */
import { Box, Text } from 'ink';
import { useEffect, useState, type ReactNode } from 'react';
import type { ChangeCard } from '../../console/cards.js';
import type { ConsoleSource, Read } from '../../console/source.js';
import type { Finding } from '../../domain/findings.js';
import { refTo } from '../../domain/refs.js';
import { DOC_COLOR, LEVEL_COLOR, PHASE_COLOR, SEVERITY_COLOR, VERDICT_COLOR } from '../../render/colors.js';
import { PhaseSteps } from '../PhaseSteps.js';
import type { PhaseStep } from '../run-state.js';
import { ago, bar, cut, noMatch, type Span } from './format.js';
import { useViewStart } from './list-view.js';
import { detailLines, ScrollLines } from './ScrollLines.js';

const STEPS = ['proposal', 'spec', 'tasks', 'implementation', 'review', 'archived'] as const;

export function phaseSteps(change: Pick<ChangeCard, 'phase' | 'waiting_on'>): PhaseStep[] {
  const at = change.phase === 'done' ? STEPS.indexOf('archived') : STEPS.indexOf(change.phase as (typeof STEPS)[number]);
  const onPerson = change.waiting_on?.startsWith('a person') ?? false;
  return STEPS.map((name, i) => ({ name, status: i < at ? 'done' : i === at ? (onPerson ? 'waiting' : 'current') : 'pending', note: i === at ? (change.waiting_on ?? '') : '' }));
}

/** The archived changes are not shown here (they do not change): how many there are, and how to read them. */
function archivedNote(archived: number, spell: (text: string) => string): string {
  return `${archived} archived change${archived === 1 ? '' : 's'}, read-only: ${spell(refTo('change.list', { archived: true }))} lists them.`;
}

export function ChangesPane(props: { changes: ChangeCard[]; archived: number; spell: (text: string) => string; cursor: number; width: number; rows: number; active: boolean; shown: { current: number }; filter?: string }) {
  const { changes, archived, spell, cursor, width, rows, active, shown } = props;
  const note = archived > 0 ? 1 : 0;
  const perPage = Math.max(1, rows - 1 - note);
  shown.current = perPage;
  const start = useViewStart(cursor, changes.length, () => perPage);
  if (changes.length === 0) {
    if (props.filter) return <Text dimColor>{noMatch(props.filter)}</Text>;
    if (archived > 0) return <Text dimColor>No open changes. {archivedNote(archived, spell)}</Text>;
    return <Text dimColor>No changes yet: an agent creates one with {spell(refTo('change.create'))}, or run one with `agentboard run`.</Text>;
  }
  const idW = Math.max(12, Math.min(28, Math.floor(width * 0.28)));
  const phaseW = 16;
  const tasksW = 16;
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate">
        {'  '}
        {'CHANGE'.padEnd(idW)}
        {'PHASE'.padEnd(phaseW)}
        {'TASKS'.padEnd(tasksW)}WAITING ON
      </Text>
      {changes.slice(start, start + perPage).map((c, k) => {
        const selected = active && start + k === cursor;
        const done = `${c.tasks.done}/${c.tasks.total}`;
        return (
          <Text key={c.change_id} wrap="truncate">
            <Text color="cyan">{selected ? '› ' : '  '}</Text>
            <Text bold inverse={selected}>
              {cut(c.change_id, idW - 1)}
            </Text>
            {' '.repeat(Math.max(1, idW - cut(c.change_id, idW - 1).length))}
            <Text color={PHASE_COLOR[c.phase]}>{c.phase.padEnd(phaseW)}</Text>
            <Text color={c.tasks.total > 0 && c.tasks.done === c.tasks.total ? 'green' : undefined}>{`${c.tasks.total ? `${bar((c.tasks.done / c.tasks.total) * 100)} ` : ''}${done}`.padEnd(tasksW)}</Text>
            <Text dimColor>{c.waiting_on ?? ''}</Text>
          </Text>
        );
      })}
      {note > 0 && (
        <Text dimColor wrap="truncate">
          {'  '}
          {archivedNote(archived, spell)}
        </Text>
      )}
    </Box>
  );
}

const SEVERITIES = ['High', 'Medium', 'Low'] as const;

/** The lines of a change's detail, wrapped to the width, so the pane can scroll through them. */
function changeLines(c: ChangeCard, findings: Read<Finding[]> | null, now: number, width: number): ReactNode[] {
  const out = detailLines(width);
  out.text([{ text: c.change_id, bold: true }, c.title !== c.change_id ? `: ${c.title}` : ''], 0, 2);
  out.line(<PhaseSteps phases={phaseSteps(c)} inline />);
  out.text([{ text: c.waiting_on ? `waits on ${c.waiting_on}` : 'archived', dimColor: true }]);
  out.blank();
  // The documents as a table; what is said of one goes on under UPDATED when the line is full.
  const [docW, statusW, revW, authorW] = [10, 12, 5, 20];
  out.line(<Text dimColor>{`${'DOCUMENT'.padEnd(docW)}${'STATUS'.padEnd(statusW)}${'REV'.padEnd(revW)}${'AUTHOR'.padEnd(authorW)}UPDATED`}</Text>);
  for (const d of c.documents) {
    const said = [ago(d.updated, now), d.review_requested ? ' · with reviewers' : '', d.status === 'submitted' && d.blocking ? ' · needs your approval' : ''].join('');
    const row: Span[] = [d.document.padEnd(docW), { text: d.status.padEnd(statusW), color: DOC_COLOR[d.status] }, String(d.revision).padEnd(revW), cut(d.author, authorW - 1).padEnd(authorW), { text: said, dimColor: true }];
    out.text(row, 0, docW + statusW + revW + authorW);
  }
  if (c.documents.length === 0) out.text([{ text: 'no documents yet', dimColor: true }]);
  const t = c.tasks;
  out.blank();
  out.text(t.total ? `Tasks: ${t.done}/${t.total} done · ${t.in_progress} in progress · ${t.blocked} blocked · ${t.in_review} in review · ${t.todo} to do` : 'Tasks: none yet', 0, 2);
  out.blank();
  if (c.review) {
    out.text([`Review round ${c.review.round}: `, { text: c.review.verdict, color: VERDICT_COLOR[c.review.verdict], bold: true }, { text: ` by ${c.review.reviewer} · ${ago(c.review.at, now)}`, dimColor: true }], 0, 2);
    if (c.review.summary) out.text([{ text: c.review.summary, dimColor: true }]);
    for (const s of SEVERITIES) {
      const issues = c.review.issues.filter((i) => i.severity === s);
      if (issues.length === 0) continue;
      out.text([{ text: `${s} (${issues.length})`, color: SEVERITY_COLOR[s], bold: true }]);
      for (const i of issues) out.text(i.title, 2, 4);
    }
    if (c.review.issues.length === 0) out.text([{ text: 'no issues', dimColor: true }]);
  } else out.text([{ text: 'No review yet.', dimColor: true }]);
  out.blank();
  if (findings === null) out.text([{ text: 'validate: reading…', dimColor: true }]);
  else if (!findings.ok) out.text([{ text: `validate: ${findings.message}`, color: 'red' }], 0, 2);
  else if (findings.data.length === 0) out.text([{ text: 'validate: no findings', color: 'green' }]);
  else {
    out.text([{ text: `validate: ${findings.data.length} finding${findings.data.length === 1 ? '' : 's'}`, bold: true }]);
    // Each finding whole: where, how bad, its rule and message, then its fix, each wrapped to the width.
    for (const f of findings.data) {
      out.text([{ text: `${f.file}${f.line ? `:${f.line}` : ''}`, underline: true }, ' ', { text: f.level, color: LEVEL_COLOR[f.level] }, ' ', { text: f.rule, dimColor: true }, `: ${f.message}`], 0, 2);
      out.text([{ text: `fix: ${f.fix}`, dimColor: true }], 2, 4);
    }
  }
  return out.lines;
}

export function ChangeDetail(props: { change: ChangeCard; source: ConsoleSource; now: number; width: number; rows: number; scroll: number; bottom: { current: number }; shown: { current: number } }) {
  const { change, source, now, width, rows, scroll, bottom, shown } = props;
  const [findings, setFindings] = useState<Read<Finding[]> | null>(null);
  // The change card is made again only when one of its files changed: then validate again.
  useEffect(() => {
    let live = true;
    void source.findings(change.change_id).then((r) => live && setFindings(r));
    return () => {
      live = false;
    };
  }, [change, source]);
  return <ScrollLines lines={changeLines(change, findings, now, width)} rows={rows} scroll={scroll} bottom={bottom} shown={shown} />;
}
