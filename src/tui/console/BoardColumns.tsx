/**
 * The tasks as columns by state, each card three lines: its id and how long it has been held, its
 * title, and what its state says (who holds it, its progress, its blocker, whether it can start).
 * Only the cards of each column's view are drawn, so a column of 10,000 cards costs as one of six.
 * A terminal too narrow for every column shows as many as fit, the focused one among them, and
 * marks the ones left out on either side (‹ ›): h and l reach them as they reach the others.
 */
import { Box, Text } from 'ink';
import type { TaskCard } from '../../console/cards.js';
import { PRIORITY_COLOR, SEVERITY_COLOR, TASK_COLOR } from '../../render/colors.js';
import { ago, bar, cut } from './format.js';
import { useViewStart } from './list-view.js';
import { COLUMN_SHORT_TITLES, COLUMN_TITLES, COLUMNS } from './views.js';

export const CARD_LINES = 3;

/** The narrowest column drawn: its title, count and a card's id still fit, a blank column apart from the next. */
export const MIN_COLUMN = 10;

/**
 * How many columns a board `width` wide shows, and how wide each is. When not all fit, a column at
 * either side is kept for the marks of the ones left out.
 */
export function columnLayout(width: number): { count: number; width: number; marks: boolean } {
  if (width >= MIN_COLUMN * COLUMNS.length) return { count: COLUMNS.length, width: Math.floor(width / COLUMNS.length), marks: false };
  const count = Math.max(1, Math.floor((width - 2) / MIN_COLUMN));
  return { count, width: Math.floor((width - 2) / count), marks: true };
}

/** How long the card's holder has had it (its claim, or its submission for review); a stale claim, since its last sign of life. */
function ageOf(t: TaskCard, stale: boolean, now: number): string {
  if (stale) return ago(t.last_activity, now);
  if (t.status === 'in_progress' || t.status === 'blocked') return ago(t.claimed_at, now);
  if (t.status === 'in_review') return ago(t.submitted_at, now);
  return '';
}

/** The third line of a card: what its state says (who holds it, its progress, its blocker, whether it can start). */
function stateLine(t: TaskCard, stale: boolean, width: number): { text: string; color?: string } {
  switch (t.status) {
    case 'todo':
      return { text: cut(`${t.priority}${t.ready ? ' · ready' : t.depends.length ? ` · after ${t.depends.join(',')}` : ''}`, width), color: PRIORITY_COLOR[t.priority] };
    case 'in_progress':
      if (stale) return { text: cut(`⚠ stale ${t.assignee ?? ''}`, width), color: 'red' };
      // A narrow card keeps room for the holder's name with a shorter bar.
      return { text: cut(`${bar(t.progress, width < 18 ? 3 : 5)} ${t.assignee ?? ''}`, width) };
    case 'blocked': {
      const b = t.blockers[0];
      return { text: cut(`● ${b?.severity ?? ''} ${t.assignee ?? ''}`, width), color: b ? SEVERITY_COLOR[b.severity] : 'red' };
    }
    case 'in_review':
      return { text: cut(t.assignee ?? '', width), color: 'yellow' };
    case 'done':
      return { text: cut(`✓ ${t.assignee ?? ''}`, width), color: 'green' };
  }
}

function Card({ card, selected, stale, wide, now, width }: { card: TaskCard; selected: boolean; stale: boolean; wide: boolean; now: number; width: number }) {
  const inner = width - 2;
  const state = stateLine(card, stale, inner);
  const age = ageOf(card, stale, now);
  // The first line: the id, its change when several are shown, and the age at the right.
  const room = inner - card.id.length - (age ? age.length + 1 : 0);
  const change = wide ? ` ${cut(card.change_id, room - 1)}` : '';
  const edge = selected ? '▌' : '│';
  const edgeColor = selected ? 'cyan' : PRIORITY_COLOR[card.priority];
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate">
        <Text color={edgeColor}>{edge} </Text>
        <Text bold inverse={selected}>
          {card.id}
        </Text>
        {change && <Text dimColor>{change}</Text>}
        {age && (
          <Text color={stale ? 'red' : undefined} dimColor={!stale}>
            {' '.repeat(Math.max(1, room - change.length + 1))}
            {age}
          </Text>
        )}
      </Text>
      <Text wrap="truncate">
        <Text color={edgeColor}>{edge} </Text>
        <Text bold={selected}>{cut(card.title, inner)}</Text>
      </Text>
      <Text wrap="truncate">
        <Text color={edgeColor}>{edge} </Text>
        <Text color={state.color}>{state.text}</Text>
      </Text>
    </Box>
  );
}

function Column(props: { status: (typeof COLUMNS)[number]; cards: TaskCard[]; cursor: number; focused: boolean; stale: Set<string>; wide: boolean; now: number; width: number; perPage: number }) {
  const { status, cards, cursor, focused, stale, wide, now, width, perPage } = props;
  const start = useViewStart(cursor, cards.length, () => perPage);
  const shown = cards.slice(start, start + perPage);
  const more = cards.length - start - shown.length;
  const count = cards.length.toLocaleString('en-US');
  const position = start > 0 || more > 0 ? `${start > 0 ? '↑' : ''}${more > 0 ? '↓' : ''}` : '';
  // The title keeps its count and arrows whole: a name with no room for it takes its short form.
  const room = width - 1 - count.length - 1 - (position ? position.length + 1 : 0);
  const name = COLUMN_TITLES[status].length <= room ? COLUMN_TITLES[status] : cut(COLUMN_SHORT_TITLES[status], room);
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" bold color={TASK_COLOR[status]} underline={focused}>
        {name} {count}
        {position && <Text dimColor> {position}</Text>}
      </Text>
      {shown.length === 0 ? (
        <Text dimColor>{cards.length === 0 ? ' –' : ''}</Text>
      ) : (
        shown.map((c, k) => <Card key={c.task_id} card={c} selected={focused && start + k === cursor} stale={stale.has(c.task_id)} wide={wide} now={now} width={width - 1} />)
      )}
    </Box>
  );
}

/** The columns side by side; `shown` learns how many cards a column shows (a page, for PgUp and PgDn). */
export function BoardColumns(props: { columns: TaskCard[][]; stale: Set<string>; focus: number; cursors: number[]; active: boolean; wide: boolean; now: number; width: number; rows: number; shown?: { current: number } }) {
  const { columns, stale, focus, cursors, active, wide, now, width, rows, shown } = props;
  const layout = columnLayout(width);
  const first = useViewStart(focus, COLUMNS.length, () => layout.count);
  const perPage = Math.max(1, Math.floor((rows - 1) / CARD_LINES));
  if (shown) shown.current = perPage;
  const mark = (text: string) => (
    <Box width={1} flexShrink={0}>
      <Text dimColor>{text}</Text>
    </Box>
  );
  return (
    // Each column as tall as its cards, the rows it has showing their start: stretched to fewer rows, their lines would be drawn over each other.
    <Box flexDirection="row" height={rows} overflow="hidden" alignItems="flex-start">
      {layout.marks && mark(first > 0 ? '‹' : ' ')}
      {COLUMNS.slice(first, first + layout.count).map((status, k) => {
        const i = first + k;
        const cards = columns[i]!;
        const cursor = Math.min(cursors[i] ?? 0, Math.max(0, cards.length - 1));
        return <Column key={status} status={status} cards={cards} cursor={cursor} focused={active && i === focus} stale={stale} wide={wide} now={now} width={layout.width} perPage={perPage} />;
      })}
      {layout.marks && mark(first + layout.count < COLUMNS.length ? '›' : ' ')}
    </Box>
  );
}
