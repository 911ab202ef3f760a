/** Lines of a detail view, one line of text each, shown from line `scroll`; `bottom` learns how far it can scroll. */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

export function ScrollLines({ lines, rows, scroll, bottom }: { lines: ReactNode[]; rows: number; scroll: number; bottom: { current: number } }) {
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
