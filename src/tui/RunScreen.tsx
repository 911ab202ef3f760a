/** The live view of `agentboard run`: the phases, the agents, the person's prompt, the last lines. */
import { Box, Text, useInput, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { usageText } from '../engine/views/format.js';
import { AgentsPane } from './console/AgentsPane.js';
import { DecisionPrompt } from './DecisionPrompt.js';
import { PhaseSteps } from './PhaseSteps.js';
import { runCards } from './run-state.js';
import type { RunStore } from './store.js';

const OUTCOME_COLOR: Record<string, string> = { finished: 'green', waiting_on_person: 'yellow', failed: 'red', interrupted: 'red', budget_exceeded: 'red' };

export function RunScreen({ store, onInterrupt }: { store: RunStore; onInterrupt: () => void }) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  const [now, setNow] = useState(() => Date.now());
  const width = useStdout().stdout.columns || 100;
  useEffect(() => {
    if (state.finished) return;
    // The clock moves the screen on, and the board is read again: agents report through their own servers, not through the run.
    const timer = setInterval(() => {
      setNow(Date.now());
      store.refresh();
    }, 1000);
    return () => clearInterval(timer);
  }, [state.finished, store]);
  const agents = runCards(state);
  const tokens = new Map(state.agents.map((a) => [a.agent_id, a.tokens]));
  // Keys come as input while the terminal is in raw mode: Ctrl-C stops the run as SIGINT would.
  useInput((input, key) => {
    if (key.ctrl && input === 'c') onInterrupt();
  });
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>agentboard run</Text> {state.change_id} <Text dimColor>({state.run_id})</Text>
      </Text>
      <Box marginTop={1}>
        <PhaseSteps phases={state.phases} />
      </Box>
      <Box marginTop={1}>
        <AgentsPane agents={agents} cursor={0} now={now} width={width} rows={agents.length * 2 + 1} active={false} tokens={tokens} />
      </Box>
      {state.log.length > 0 && (
        <Box marginTop={1} flexDirection="column">
          {state.log.map((l, i) => (
            <Text key={i} dimColor wrap="truncate">
              {l}
            </Text>
          ))}
        </Box>
      )}
      {state.question ? (
        <Box marginTop={1}>
          <DecisionPrompt question={state.question} onAnswer={store.answer} />
        </Box>
      ) : state.waiting && !state.finished ? (
        <Box marginTop={1}>
          <Text color="yellow">
            Waiting on a person: {state.waiting.subject} ({state.waiting.reason})
          </Text>
        </Box>
      ) : null}
      {state.finished && (
        <Box marginTop={1} flexDirection="column">
          <Text color={OUTCOME_COLOR[state.finished.outcome]} bold>
            {state.finished.outcome.replace(/_/g, ' ')}: <Text bold={false}>{state.finished.message}</Text>
          </Text>
          {state.usage && usageText(state.usage) && <Text dimColor>{usageText(state.usage)}</Text>}
          {state.finished.next_steps.map((s, i) => (
            <Text key={i}>  next: {s}</Text>
          ))}
        </Box>
      )}
    </Box>
  );
}
