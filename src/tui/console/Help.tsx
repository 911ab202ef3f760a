/** The keys of the console, on `?`. */
import { Box, Text } from 'ink';

const KEYS: [string, string][] = [
  ['Tab / Shift-Tab, 1-4', 'next / previous pane; Board, Agents, Waiting on you, Changes'],
  ['←↓↑→ or h j k l', 'move between columns and cards, down and up a list'],
  ['PgUp PgDn, g G', 'a page up or down; the first or last'],
  ['Enter', 'open: a task, a change, a decision, a question'],
  ['a', 'approve the document or task in review'],
  ['r', 'reject it, with the feedback you type'],
  ['x', 'release a claim: the task goes back to the pool'],
  ['o / e', 'read the file in $PAGER / edit it in $EDITOR, then come back'],
  ['/', 'filter by id, title, agent or text; Esc clears it'],
  ['Esc', 'back'],
  ['q, Ctrl-C', 'quit'],
];

export function Help({ person }: { person: string }) {
  return (
    <Box flexDirection="column">
      <Text bold>Keys</Text>
      {KEYS.map(([k, what]) => (
        <Box key={k}>
          <Box width={22} flexShrink={0}>
            <Text color="cyan">{k}</Text>
          </Box>
          <Text>{what}</Text>
        </Box>
      ))}
      <Text> </Text>
      <Text dimColor>
        Everything you do here is done as {person}, through the same operations as the agentboard commands.
      </Text>
      <Text dimColor>Any key closes this help.</Text>
    </Box>
  );
}
