/**
 * A prompt at the foot of the console, in a frame: its head (who asks, the countdown, the default
 * action; what is decided) at the top, its foot (the keys, and the answer typed) at the bottom, and
 * between them as much of the rest as the rows hold, moved so that the line the keys act on (the
 * option selected) is among them. The foot is always shown whole: a prompt whose keys cannot be
 * seen cannot be answered.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { typedTail } from './format.js';

/** The frame's top and bottom lines. */
export const FRAME_ROWS = 2;

/** How many lines each part of a prompt has; `short`, those of its foot's short form, if it has one. */
export interface PromptLines {
  head: number;
  rest: number;
  foot: number;
  short?: number;
}

/**
 * What a prompt shows in `rows` rows (its frame included): how many lines of the head, which lines
 * of the rest, and whether the foot takes its short form. The foot is always shown whole, in its
 * short form when the long one would leave no row for the focus (rest lines `focus[0]` to
 * `focus[1]`) under the head. The head gives up lines only to the foot and to one line of the focus;
 * the rest has the rows left, holding the focus (as much of it as fits, from its first line) and as
 * much as they can of what comes after it (the other options), or with no focus, its start.
 */
export function promptWindow(lines: PromptLines, rows: number, focus: [number, number] | null): { head: number; start: number; count: number; short: boolean } {
  const { head, rest } = lines;
  const room = Math.max(1, rows - FRAME_ROWS);
  if (head + rest + lines.foot <= room) return { head, start: 0, count: rest, short: false };
  const need = focus && rest > 0 ? 1 : 0;
  const short = lines.short !== undefined && head + lines.foot + need > room;
  const foot = short ? lines.short! : lines.foot;
  const shown = Math.max(0, Math.min(head, room - foot - need));
  const count = Math.max(0, Math.min(rest, room - shown - foot));
  if (!focus) return { head: shown, start: 0, count, short };
  const [from, to] = focus;
  return { head: shown, start: Math.max(0, Math.min(from, Math.max(to - count + 1, rest - count))), count, short };
}

/**
 * The prompt in its frame. With `rows`, every line is one row of the screen (the caller wrapped them
 * to the width) and what does not fit is left out as promptWindow says; without, each line wraps as
 * the terminal does, and the foot is the long one.
 */
export function PromptBox(props: { head: ReactNode[]; rest: ReactNode[]; focus: [number, number] | null; foot: ReactNode[]; short?: ReactNode[]; rows?: number; color: string }) {
  const { head, rest, focus, foot, short, rows, color } = props;
  const w = rows === undefined ? { head: head.length, start: 0, count: rest.length, short: false } : promptWindow({ head: head.length, rest: rest.length, foot: foot.length, short: short?.length }, rows, focus);
  const top = [...head.slice(0, w.head), ...rest.slice(w.start, w.start + w.count)];
  const bottom = w.short ? short! : foot;
  const line = (l: ReactNode, key: string) =>
    rows === undefined ? (
      <Box key={key}>{l}</Box>
    ) : (
      <Box key={key} height={1} overflow="hidden">
        {l}
      </Box>
    );
  // Given its rows, it takes them all, the foot at the bottom: a prompt whose lines change (the
  // options, then a line to type) keeps its place, and what is under it stays at the foot of the screen.
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color} paddingX={1} flexShrink={0} height={rows}>
      {top.map((l, i) => line(l, `t${i}`))}
      {rows !== undefined && <Box flexGrow={1} />}
      {bottom.map((l, i) => line(l, `b${i}`))}
    </Box>
  );
}

/** The line a person types an answer or feedback on: its end, where the cursor is, when it is wider than `width` (unknown: shown whole). */
export function TypedLine(props: { text: string; width?: number }) {
  const tail = props.width === undefined ? props.text : typedTail(props.text, props.width - 7);
  return (
    <Text>
      <Text color="yellow">› </Text>
      {tail}
      <Text inverse> </Text>
    </Text>
  );
}
