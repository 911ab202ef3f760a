/** One task in full, as `agentboard task show` reads it: state, claim, progress, dependencies, blockers, feedback, notes. */
import { Box, Text } from 'ink';
import { useEffect, useState, type ReactNode } from 'react';
import type { ConsoleSource, Read, TaskDetail as Detail } from '../../console/source.js';
import { PRIORITY_COLOR, SEVERITY_COLOR, TASK_COLOR } from '../../render/colors.js';
import { bar, localId, since, words, wrapWords, type Span } from './format.js';
import { detailLines, ScrollLines } from './ScrollLines.js';

function taskLines(d: Detail, now: number, width: number): ReactNode[] {
  const t = d.task;
  const out = detailLines(width);
  out.text([{ text: t.task_id, bold: true }, ' ', { text: `[${words(t.status)}]`, color: TASK_COLOR[t.status] }, ` ${t.title}`], 0, 2);
  out.text(
    [
      'priority ',
      { text: t.priority, color: PRIORITY_COLOR[t.priority] },
      t.assignee ? ` · ${t.status === 'done' ? 'done by' : 'held by'} ${t.assignee}` : '',
      t.claimed_at && t.status !== 'done' ? ` · claimed ${since(t.claimed_at, now)}` : '',
      t.progress !== null && t.progress !== undefined && t.status !== 'done' ? ` · ${bar(t.progress)} ${t.progress}%` : '',
      t.ready ? ' · ready to start' : '',
    ],
    0,
    2,
  );
  if (t.progress_message) out.text([`progress: ${t.progress_message}`, t.progress_at ? { text: ` (${since(t.progress_at, now)})`, dimColor: true } : ''], 0, 2);
  if (t.submission) out.text([`submitted: ${t.submission}`, t.pr_url ? { text: ` ${t.pr_url}`, dimColor: true } : ''], 0, 2);
  if (t.branch) out.text([{ text: `branch: ${t.branch}`, dimColor: true }], 0, 2);
  if (d.dependencies.length) {
    out.text(['depends on:', ...d.dependencies.flatMap((x, i): Span[] => [`${i > 0 ? ',' : ''} ${localId(x.task_id)} `, { text: words(x.status), color: TASK_COLOR[x.status] }])], 0, 2);
  }
  if (t.files?.length) out.text([{ text: `files: ${t.files.map((f) => `${f.path} (${f.action})`).join(', ')}`, dimColor: true }], 0, 2);
  for (const b of t.blockers ?? []) {
    if (!b.resolved_at) out.text([{ text: `blocked (${b.severity})`, color: SEVERITY_COLOR[b.severity], bold: true }, ` by ${b.by}: ${b.reason}`], 0, 2);
  }
  if (t.description) {
    out.blank();
    for (const l of wrapWords(t.description, width)) out.line(<Text>{l || ' '}</Text>);
  }
  // Feedback and notes: who wrote what, when, each text wrapped to the width.
  for (const [title, entries] of [['Feedback', t.feedback ?? []], ['Notes', t.notes ?? []]] as const) {
    if (entries.length === 0) continue;
    out.blank();
    out.text([{ text: title, bold: true }]);
    for (const e of entries) {
      out.text([e.author, { text: ` (${since(e.at, now)})`, dimColor: true }], 2, 4);
      for (const l of wrapWords(e.text, width - 4)) out.line(<Text>    {l}</Text>);
    }
  }
  return out.lines;
}

/** Reads the task afresh whenever the board changed (`version`), and shows it from line `scroll`. */
export function TaskDetail(props: { taskId: string; source: ConsoleSource; version: unknown; now: number; width: number; rows: number; scroll: number; bottom: { current: number }; shown: { current: number } }) {
  const { taskId, source, version, now, width, rows, scroll, bottom, shown } = props;
  const [detail, setDetail] = useState<Read<Detail> | null>(null);
  useEffect(() => {
    let live = true;
    void source.task(taskId).then((r) => live && setDetail(r));
    return () => {
      live = false;
    };
  }, [taskId, source, version]);
  if (detail === null) return <Text dimColor>Reading {taskId}…</Text>;
  if (!detail.ok) {
    return (
      <Box flexDirection="column">
        <Text color="red">{detail.message}</Text>
        <Text dimColor>next: {detail.next_step}</Text>
      </Box>
    );
  }
  return <ScrollLines lines={taskLines(detail.data, now, width)} rows={rows} scroll={scroll} bottom={bottom} shown={shown} />;
}
