/** The console's first two lines: the board and how it stands, then the panes. */
import { Box, Text } from 'ink';
import type { ConsoleSnapshot } from '../../console/cards.js';
import { cut, textWidth } from './format.js';
import { PANES, type Pane } from './views.js';

const PANE_TITLES: Record<Pane, string> = { board: 'Board', agents: 'Agents', waiting: 'Waiting on you', changes: 'Changes' };

/** The first line: the board, and how it stands; what does not fit is left out from the right, the person first. */
export function Header(props: { snapshot: ConsoleSnapshot; scope: string; done: number; total: number; working: number; person: string; width: number }) {
  const { snapshot, scope, done, total, working, person, width } = props;
  const waiting = snapshot.waiting.length;
  const title = `agentboard ${snapshot.project} · ${scope}`;
  const parts = [`${done}/${total} done`, `${working} working`, `${waiting} waiting on you`, person];
  while (parts.length > 1 && textWidth(title) + parts.join(' · ').length + 2 > width) parts.pop();
  const room = Math.max(10, width - parts.join(' · ').length - 2);
  return (
    <Box justifyContent="space-between" width={width}>
      <Text wrap="truncate">
        <Text bold color="cyan">
          agentboard
        </Text>{' '}
        {cut(title.slice('agentboard '.length), room - 'agentboard '.length)}
      </Text>
      <Text>
        {parts.map((p, i) => (
          <Text key={i}>
            {i > 0 && <Text dimColor> · </Text>}
            {i === 2 ? (
              <Text color={waiting ? 'yellow' : 'green'} bold={waiting > 0}>
                {p}
              </Text>
            ) : i === 3 ? (
              <Text dimColor>{p}</Text>
            ) : (
              p
            )}
          </Text>
        ))}
      </Text>
    </Box>
  );
}

/**
 * The second line: the panes (the one shown marked), the filter kept, and what went wrong reading
 * the board. The panes come first: the filter and what went wrong have the room they leave, cut to it.
 */
export function TabBar({ pane, single, waiting, filter, trouble, width, plain }: { pane: Pane | null; single: boolean; waiting: number; filter: string; trouble: string | null; width: number; plain: boolean }) {
  const labels = PANES.map((p, i) => `${i + 1} ${p === 'changes' && single ? 'Change' : PANE_TITLES[p]}${p === 'waiting' && waiting ? ` (${waiting})` : ''}`);
  let room = width - labels.reduce((n, l) => n + l.length + 3, 0);
  const kept = filter && room >= 6 ? `/${cut(filter, Math.min(16, room - 2))} ` : '';
  room -= textWidth(kept);
  // What went wrong, whole; or without its parenthesis (the command that says more); or its sign alone.
  const wrong = trouble ? ([`⚠ ${trouble}`, `⚠ ${trouble.split(' (')[0]}`, '⚠'].find((t) => textWidth(t) <= room) ?? '') : '';
  return (
    <Box justifyContent="space-between" width={width}>
      <Text wrap="truncate">
        {PANES.map((p, i) => {
          const on = pane === p;
          return (
            <Text key={p}>
              <Text inverse={on} bold={on} color={on ? 'cyan' : undefined}>
                {/* Without colour, inverse is not drawn either: brackets mark the pane shown. */}
                {on && plain ? `[${labels[i]}]` : ` ${labels[i]} `}
              </Text>{' '}
            </Text>
          );
        })}
      </Text>
      {(kept || wrong) && (
        <Text>
          {kept ? <Text color="cyan">{kept}</Text> : null}
          {wrong ? <Text color="red">{wrong}</Text> : null}
        </Text>
      )}
    </Box>
  );
}
