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
import { ago, bar, cut, pageStart } from './format.js';
import { ScrollLines } from './ScrollLines.js';

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

export function ChangesPane(props: { changes: ChangeCard[]; archived: number; spell: (text: string) => string; cursor: number; width: number; rows: number; active: boolean }) {
  const { changes, archived, spell, cursor, width, rows, active } = props;
  if (changes.length === 0) {
    if (archived > 0) return <Text dimColor>No open changes. {archivedNote(archived, spell)}</Text>;
    return <Text dimColor>No changes yet: an agent creates one with {spell(refTo('change.create'))}, or run one with `agentboard run`.</Text>;
  }
  const idW = Math.max(12, Math.min(28, Math.floor(width * 0.28)));
  const phaseW = 16;
  const tasksW = 16;
  const note = archived > 0 ? 1 : 0;
  const perPage = Math.max(1, rows - 1 - note);
  const start = pageStart(cursor, perPage);
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

/** The lines of a change's detail, each one line of text, so the pane can scroll through them. */
function detailLines(c: ChangeCard, findings: Read<Finding[]> | null, now: number): ReactNode[] {
  const out: ReactNode[] = [];
  const line = (node: ReactNode) => out.push(node);
  line(
    <Text bold>
      {c.change_id}
      {c.title !== c.change_id && <Text bold={false}>: {c.title}</Text>}
    </Text>,
  );
  line(<PhaseSteps phases={phaseSteps(c)} inline />);
  line(<Text dimColor>{c.waiting_on ? `waits on ${c.waiting_on}` : 'archived'}</Text>);
  line(<Text> </Text>);
  line(<Text dimColor>{`${'DOCUMENT'.padEnd(10)}${'STATUS'.padEnd(12)}${'REV'.padEnd(5)}${'AUTHOR'.padEnd(20)}UPDATED`}</Text>);
  for (const d of c.documents) {
    line(
      <Text>
        {d.document.padEnd(10)}
        <Text color={DOC_COLOR[d.status]}>{d.status.padEnd(12)}</Text>
        {String(d.revision).padEnd(5)}
        {cut(d.author, 19).padEnd(20)}
        <Text dimColor>
          {ago(d.updated, now)}
          {d.review_requested ? ' · with reviewers' : ''}
          {d.status === 'submitted' && d.blocking ? ' · needs your approval' : ''}
        </Text>
      </Text>,
    );
  }
  if (c.documents.length === 0) line(<Text dimColor>no documents yet</Text>);
  const t = c.tasks;
  line(<Text> </Text>);
  line(<Text>{t.total ? `Tasks: ${t.done}/${t.total} done · ${t.in_progress} in progress · ${t.blocked} blocked · ${t.in_review} in review · ${t.todo} to do` : 'Tasks: none yet'}</Text>);
  line(<Text> </Text>);
  if (c.review) {
    line(
      <Text>
        Review round {c.review.round}: <Text color={VERDICT_COLOR[c.review.verdict]} bold>{c.review.verdict}</Text>
        <Text dimColor>
          {' '}
          by {c.review.reviewer} · {ago(c.review.at, now)}
        </Text>
      </Text>,
    );
    if (c.review.summary) line(<Text dimColor>{c.review.summary.replace(/\s+/g, ' ')}</Text>);
    for (const s of SEVERITIES) {
      const issues = c.review.issues.filter((i) => i.severity === s);
      if (issues.length === 0) continue;
      line(
        <Text color={SEVERITY_COLOR[s]} bold>
          {s} ({issues.length})
        </Text>,
      );
      for (const i of issues) line(<Text>  {i.title}</Text>);
    }
    if (c.review.issues.length === 0) line(<Text dimColor>no issues</Text>);
  } else line(<Text dimColor>No review yet.</Text>);
  line(<Text> </Text>);
  if (findings === null) line(<Text dimColor>validate: reading…</Text>);
  else if (!findings.ok) line(<Text color="red">validate: {findings.message}</Text>);
  else if (findings.data.length === 0) line(<Text color="green">validate: no findings</Text>);
  else {
    line(<Text bold>validate: {findings.data.length} finding{findings.data.length === 1 ? '' : 's'}</Text>);
    for (const f of findings.data) {
      line(
        <Text>
          <Text underline>{`${f.file}${f.line ? `:${f.line}` : ''}`}</Text> <Text color={LEVEL_COLOR[f.level]}>{f.level}</Text> <Text dimColor>{f.rule}</Text>: {f.message}
        </Text>,
      );
      line(<Text dimColor>  fix: {f.fix}</Text>);
    }
  }
  return out;
}

export function ChangeDetail({ change, source, now, rows, scroll, bottom }: { change: ChangeCard; source: ConsoleSource; now: number; rows: number; scroll: number; bottom: { current: number } }) {
  const [findings, setFindings] = useState<Read<Finding[]> | null>(null);
  // The change card is made again only when one of its files changed: then validate again.
  useEffect(() => {
    let live = true;
    void source.findings(change.change_id).then((r) => live && setFindings(r));
    return () => {
      live = false;
    };
  }, [change, source]);
  return <ScrollLines lines={detailLines(change, findings, now)} rows={rows} scroll={scroll} bottom={bottom} />;
}
