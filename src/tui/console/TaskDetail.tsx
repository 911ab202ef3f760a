/** One task in full, as `agentboard task show` reads it: state, claim, progress, dependencies, blockers, feedback, notes. */
import { Box, Text } from 'ink';
import { useEffect, useState, type ReactNode } from 'react';
import type { ConsoleSource, Read, TaskDetail as Detail } from '../../console/source.js';
import { PRIORITY_COLOR, SEVERITY_COLOR, TASK_COLOR } from '../../render/colors.js';
import { ago, bar, words, wrapWords } from './format.js';

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
  if (t.feedback?.length) {
    line(<Text> </Text>);
    line(<Text bold>Feedback</Text>);
    for (const f of t.feedback) {
      line(<Text>  {f.author} <Text dimColor>({ago(f.at, now)} ago)</Text></Text>);
      for (const l of wrapWords(f.text, width - 4)) line(<Text>    {l}</Text>);
    }
  }
  if (t.notes?.length) {
    line(<Text> </Text>);
    line(<Text bold>Notes</Text>);
    for (const n of t.notes) {
      line(<Text>  {n.author} <Text dimColor>({ago(n.at, now)} ago)</Text></Text>);
      for (const l of wrapWords(n.text, width - 4)) line(<Text>    {l}</Text>);
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
  const lines = detailLines(detail.data, now, width);
  bottom.current = Math.max(0, lines.length - rows);
  const top = Math.min(scroll, bottom.current);
  return (
    <Box flexDirection="column" height={rows}>
      {lines.slice(top, top + rows).map((l, i) => (
        <Box key={top + i} height={1}>
          <Text wrap="truncate">{l}</Text>
        </Box>
      ))}
    </Box>
  );
}
