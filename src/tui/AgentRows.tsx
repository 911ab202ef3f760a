/** One row per agent: who, on what, its last word, for how long, how many tokens. */
import { Box, Text } from 'ink';
import { cut } from './console/format.js';
import type { AgentRow } from './run-state.js';
import { Spinner } from './Spinner.js';

function elapsed(since: number | null, now: number): string {
  if (since === null) return '';
  const s = Math.max(0, Math.round((now - since) / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

export function AgentRows({ agents, now }: { agents: AgentRow[]; now: number }) {
  return (
    <Box flexDirection="column">
      {agents.map((a) => (
        <Box key={a.agent_id}>
          <Box width={2}>{a.since !== null ? <Spinner /> : <Text dimColor>·</Text>}</Box>
          <Box width={20}>
            <Text color={a.since !== null ? 'cyan' : undefined}>{cut(a.agent_id, 19)}</Text>
          </Box>
          <Box width={24}>
            <Text>{cut(a.task_id ? `${a.task_id.slice(a.task_id.indexOf('/') + 1)} ${a.title}` : a.title, 23)}</Text>
          </Box>
          <Box width={8}>
            <Text dimColor>{elapsed(a.since, now)}</Text>
          </Box>
          <Box width={12}>
            <Text dimColor>{a.tokens > 0 ? `${a.tokens.toLocaleString('en-US')} tok` : ''}</Text>
          </Box>
          <Text wrap="truncate">{cut(a.message, 60)}</Text>
        </Box>
      ))}
    </Box>
  );
}
