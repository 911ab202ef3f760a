/**
 * A detail view: its lines, one line of text each, shown from line `scroll`; `bottom` learns how far
 * it can scroll, and `shown` how many lines a page is. Text is wrapped to the width, so that every
 * word of it can be read.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { wrapSpans, type Span } from './format.js';

function SpanLine({ spans }: { spans: Span[] }) {
  return (
    <Text>
      {spans.map((s, i) =>
        typeof s === 'string' ? (
          s
        ) : (
          <Text key={i} color={s.color} bold={s.bold} dimColor={s.dimColor} underline={s.underline}>
            {s.text}
          </Text>
        ),
      )}
    </Text>
  );
}

/** The lines of a detail view, added one by one: a line as it is, or text wrapped to `width`. */
export function detailLines(width: number) {
  const lines: ReactNode[] = [];
  return {
    lines,
    /** One line of its own (a table's heading, the phases as steps). */
    line: (node: ReactNode) => void lines.push(node),
    /** Text on as many lines as it takes: the first `indent` spaces in, the ones after `hang` spaces in. */
    text: (spans: Span[] | string, indent = 0, hang = indent) => {
      for (const l of wrapSpans(typeof spans === 'string' ? [spans] : spans, width, indent, hang)) lines.push(<SpanLine spans={l} />);
    },
    blank: () => void lines.push(<Text> </Text>),
  };
}

export function ScrollLines({ lines, rows, scroll, bottom, shown }: { lines: ReactNode[]; rows: number; scroll: number; bottom: { current: number }; shown: { current: number } }) {
  bottom.current = Math.max(0, lines.length - rows);
  shown.current = rows;
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
