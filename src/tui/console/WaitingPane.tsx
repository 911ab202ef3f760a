/**
 * What waits on the person: questions with their countdown and default action, documents awaiting
 * a decision, tasks in review, blocked tasks with their severity, stale claims. Two lines each; the
 * keys for the selected one are in the footer.
 */
import { Box, Text } from 'ink';
import type { WaitingItem } from '../../console/cards.js';
import { SEVERITY_COLOR } from '../../render/colors.js';
import { ago, cut, left, noMatch } from './format.js';
import { useViewStart } from './list-view.js';

const ITEM_LINES = 2;

function lines(w: WaitingItem, now: number): { mark: string; color: string; head: string; body: string } {
  switch (w.kind) {
    case 'question':
      return { mark: '?', color: 'yellow', head: `${w.input_id} from ${w.agent_id} · ${left(w.expires_at, now)} · then: ${w.default_action}`, body: w.question };
    case 'document':
      return {
        mark: '◆',
        color: 'yellow',
        head: `the ${w.document} of ${w.change_id} · revision ${w.revision} · by ${w.author} · ${ago(w.updated, now)}`,
        body: w.blocking ? 'submitted; the next phase waits for your approval' : w.review_requested ? 'submitted; with reviewer agents' : 'submitted; approve or reject it',
      };
    case 'review':
      return { mark: '◇', color: 'magenta', head: `${w.task_id} in review · by ${w.assignee} · ${ago(w.submitted_at, now)}`, body: `${w.title}${w.submission ? ` — ${w.submission}` : ''}` };
    case 'blocked':
      return {
        mark: '■',
        color: SEVERITY_COLOR[w.blocker?.severity ?? 'high']!,
        head: `${w.task_id} blocked${w.blocker ? ` (${w.blocker.severity})` : ''}${w.assignee ? ` · held by ${w.assignee}` : ''}${w.blocker ? ` · ${ago(w.blocker.at, now)}` : ''}`,
        body: w.blocker ? `${w.blocker.by}: ${w.blocker.reason}` : w.title,
      };
    case 'stale':
      return { mark: '⚠', color: 'red', head: `${w.task_id} held by ${w.assignee} · ${w.run_id ? `its run ${w.run_id} died` : `no sign of life for ${w.idle_minutes} min`}`, body: `${w.title} — stale claim` };
    case 'broken':
      return { mark: '✗', color: 'red', head: `the tasks of ${w.change_id} have errors · ${w.file}${w.line ? `:${w.line}` : ''} · no task is handed out until it is fixed`, body: w.message };
  }
}

export function WaitingPane(props: { items: WaitingItem[]; cursor: number; now: number; width: number; rows: number; active: boolean; shown?: { current: number }; filter?: string }) {
  const { items, cursor, now, width, rows, active } = props;
  const perPage = Math.max(1, Math.floor((rows - 1) / ITEM_LINES));
  if (props.shown) props.shown.current = perPage;
  const start = useViewStart(cursor, items.length, () => perPage);
  if (items.length === 0 && props.filter) return <Text dimColor>{noMatch(props.filter)}</Text>;
  if (items.length === 0) return <Text color="green">Nothing waits on you.</Text>;
  const shown = items.slice(start, start + perPage);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate">
        {items.length} waiting on you{items.length > shown.length ? ` · ${start + 1}-${start + shown.length} shown` : ''}
      </Text>
      {shown.map((w, k) => {
        const selected = active && start + k === cursor;
        const l = lines(w, now);
        return (
          <Box key={w.key} flexDirection="column">
            <Text wrap="truncate">
              <Text color="cyan">{selected ? '› ' : '  '}</Text>
              <Text color={l.color} bold>
                {l.mark}{' '}
              </Text>
              <Text bold={selected} inverse={selected}>
                {cut(l.head, width - 5)}
              </Text>
            </Text>
            <Text wrap="truncate" dimColor={!selected}>
              {'    '}
              {cut(l.body, width - 5)}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
