/**
 * The board pane: the tasks as columns and, on a terminal with room for it, the agents and what
 * waits on the person under them.
 */
import { Box } from 'ink';
import { AgentsPane } from './AgentsPane.js';
import { BoardColumns, CARD_LINES } from './BoardColumns.js';
import { WaitingPane } from './WaitingPane.js';
import type { Views } from './views.js';

export function BoardPane(props: { views: Views; focus: number; cursors: number[]; wide: boolean; now: number; width: number; rows: number; shown: { current: number } }) {
  const { views, focus, cursors, wide, now, width, rows, shown } = props;
  const columns = (height: number) => <BoardColumns columns={views.columns} stale={views.stale} focus={focus} cursors={cursors} active wide={wide} now={now} width={width} rows={height} shown={shown} />;
  if (width < 100 || rows < 24) return columns(rows);
  // The columns take what their longest one needs (two cards at least), the lists the rest.
  const longest = Math.max(0, ...views.columns.map((c) => c.length));
  const top = 1 + CARD_LINES * Math.max(2, Math.min(longest, Math.floor((rows - 11) / CARD_LINES)));
  const lower = rows - top - 1;
  const half = Math.floor(width / 2);
  return (
    <Box flexDirection="column">
      {columns(top)}
      <Box marginTop={1}>
        <Box width={half} flexDirection="column" height={lower} overflow="hidden">
          <AgentsPane agents={views.agents} cursor={0} now={now} width={half - 1} rows={lower} active={false} filter={views.filter} />
        </Box>
        <Box width={width - half} flexDirection="column" height={lower} overflow="hidden">
          <WaitingPane items={views.waiting} cursor={0} now={now} width={width - half} rows={lower} active={false} filter={views.filter} />
        </Box>
      </Box>
    </Box>
  );
}
