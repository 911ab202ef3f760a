/** A change's phases as steps: done, under way (spinner), waiting on a person, failed, to come. */
import { Box, Text } from 'ink';
import type { PhaseStep } from './run-state.js';
import { Spinner } from './Spinner.js';

function Mark({ status }: { status: PhaseStep['status'] }) {
  switch (status) {
    case 'done':
      return <Text color="green">✓</Text>;
    case 'running':
      return <Spinner />;
    case 'waiting':
      return <Text color="yellow">?</Text>;
    case 'failed':
      return <Text color="red">✗</Text>;
    default:
      return <Text dimColor>·</Text>;
  }
}

export function PhaseSteps({ phases }: { phases: PhaseStep[] }) {
  return (
    <Box flexDirection="column">
      {phases.map((p) => (
        <Box key={p.name}>
          <Box width={2}>
            <Mark status={p.status} />
          </Box>
          <Box width={16}>
            <Text bold={p.status === 'running' || p.status === 'waiting'} dimColor={p.status === 'pending'}>
              {p.name}
            </Text>
          </Box>
          <Text dimColor>{p.note}</Text>
        </Box>
      ))}
    </Box>
  );
}
