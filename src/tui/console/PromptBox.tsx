/**
 * A prompt at the foot of the console, in a frame: its head (who asks, the countdown, the default
 * action; what is decided) always shown, and under it as much of the rest as the rows hold, moved so
 * that the line the keys act on (the option selected, the answer typed) is always among them.
 */
import { Box } from 'ink';
import type { ReactNode } from 'react';

/** The frame's top and bottom lines. */
export const FRAME_ROWS = 2;

/**
 * What a prompt of `head` and `rest` lines shows in `rows` rows (its frame included): how many lines
 * of the head, and which lines of the rest, holding rest lines `from` to `to` (as many of them as fit,
 * from the first). The head gives up lines only to leave one for the rest.
 */
export function promptWindow(head: number, rest: number, rows: number, from: number, to: number): { head: number; start: number; count: number } {
  const room = Math.max(1, rows - FRAME_ROWS);
  if (head + rest <= room) return { head, start: 0, count: rest };
  const shown = Math.min(head, room - 1);
  const count = Math.min(rest, room - shown);
  let start = Math.max(0, to - count + 1);
  if (start > from) start = from;
  return { head: shown, start: Math.min(start, rest - count), count };
}

/**
 * The prompt in its frame. With `rows`, every line is one row of the screen (the caller wrapped them
 * to the width) and what does not fit is left out as promptWindow says; without, each line wraps as
 * the terminal does.
 */
export function PromptBox(props: { head: ReactNode[]; rest: ReactNode[]; focus: [number, number]; rows?: number; color: string }) {
  const { head, rest, focus, rows, color } = props;
  const w = rows === undefined ? { head: head.length, start: 0, count: rest.length } : promptWindow(head.length, rest.length, rows, ...focus);
  const lines = [...head.slice(0, w.head), ...rest.slice(w.start, w.start + w.count)];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color} paddingX={1} flexShrink={0}>
      {lines.map((l, i) =>
        rows === undefined ? (
          <Box key={i}>{l}</Box>
        ) : (
          <Box key={i} height={1} overflow="hidden">
            {l}
          </Box>
        ),
      )}
    </Box>
  );
}
