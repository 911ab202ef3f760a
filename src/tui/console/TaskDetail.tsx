/** One task in full, as `agentboard task show` reads it: state, claim, progress, dependencies, blockers, feedback, notes. */
import { Box, Text } from 'ink';
import { useEffect, useState, type ReactNode } from 'react';
import type { ConsoleSource, Read, TaskDetail as Detail } from '../../console/source.js';
import { PRIORITY_COLOR, SEVERITY_COLOR, TASK_COLOR } from '../../render/colors.js';
import { ago, bar, words, wrapWords } from './format.js';
import { ScrollLines } from './ScrollLines.js';

function detailLines(d: Detail, now: number, width: number): ReactNode[] {
  const t = d.task;
  const out: ReactNode[] = [];
  const line = (node: ReactNode) => out.push(node);
  line(
    <Text>
      <Text bold>{t.task_id}</Text> <Text color={TASK_COLOR[t.status]}>[{words(t.status)}]</Text> {t.title}
    </Text>,
  );
  line(
    <Text>
      priority <Text color={PRIORITY_COLOR[t.priority]}>{t.priority}</Text>
      {t.assignee ? ` · ${t.status === 'done' ? 'done by' : 'held by'} ${t.assignee}` : ''}
      {t.claimed_at && t.status !== 'done' ? ` · claimed ${ago(t.claimed_at, now)} ago` : ''}
      {t.progress !== null && t.progress !== undefined && t.status !== 'done' ? ` · ${bar(t.progress)} ${t.progress}%` : ''}
      {t.ready ? ' · ready to start' : ''}
    </Text>,
  );
  if (t.progress_message) line(<Text>progress: {t.progress_message}{t.progress_at ? <Text dimColor> ({ago(t.progress_at, now)} ago)</Text> : null}</Text>);
  if (t.submission) line(<Text>submitted: {t.submission}{t.pr_url ? <Text dimColor> {t.pr_url}</Text> : null}</Text>);
  if (t.branch) line(<Text dimColor>branch: {t.branch}</Text>);
  if (d.dependencies.length) {
    line(
      <Text>
        depends on:{' '}
        {d.dependencies.map((x, i) => (
          <Text key={x.task_id}>
            {i > 0 ? ', ' : ''}
            {x.task_id.slice(x.task_id.indexOf('/') + 1)} <Text color={TASK_COLOR[x.status]}>{words(x.status)}</Text>
          </Text>
        ))}
      </Text>,
    );
  }
  if (t.files?.length) line(<Text dimColor>files: {t.files.map((f) => `${f.path} (${f.action})`).join(', ')}</Text>);
  for (const b of t.blockers ?? []) {
    if (b.resolved_at) continue;
    line(
      <Text>
        <Text color={SEVERITY_COLOR[b.severity]} bold>
          blocked ({b.severity})
        </Text>{' '}
        by {b.by}: {b.reason}
      </Text>,
    );
  }
  if (t.description) {
    line(<Text> </Text>);
    for (const l of wrapWords(t.description, width)) line(<Text>{l || ' '}</Text>);
  }
  // Feedback and notes: who wrote what, when, each text wrapped to the width.
  for (const [title, entries] of [['Feedback', t.feedback ?? []], ['Notes', t.notes ?? []]] as const) {
    if (entries.length === 0) continue;
    line(<Text> </Text>);
    line(<Text bold>{title}</Text>);
    for (const e of entries) {
      line(<Text>  {e.author} <Text dimColor>({ago(e.at, now)} ago)</Text></Text>);
      for (const l of wrapWords(e.text, width - 4)) line(<Text>    {l}</Text>);
    }
  }
  return out;
}

/** Reads the task afresh whenever the board changed (`version`), and shows it from line `scroll`. */
export function TaskDetail(props: { taskId: string; source: ConsoleSource; version: unknown; now: number; width: number; rows: number; scroll: number; bottom: { current: number } }) {
  const { taskId, source, version, now, width, rows, scroll, bottom } = props;
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
  return <ScrollLines lines={detailLines(detail.data, now, width)} rows={rows} scroll={scroll} bottom={bottom} />;
}
