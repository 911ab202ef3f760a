/**
 * A change's phases as steps: done, under way (spinner), where it stands, waiting on a person,
 * failed, to come. As a column with notes (the run's live view), or on one line (the console).
 */
import { Box, Text } from 'ink';
import { Fragment } from 'react';
import type { PhaseStep } from './run-state.js';
import { Spinner } from './Spinner.js';

function Mark({ status }: { status: PhaseStep['status'] }) {
  switch (status) {
    case 'done':
      return <Text color="green">✓</Text>;
    case 'running':
      return <Spinner />;
    case 'current':
      return <Text color="cyan">▸</Text>;
    case 'waiting':
      return <Text color="yellow">?</Text>;
    case 'failed':
      return <Text color="red">✗</Text>;
    default:
      return <Text dimColor>·</Text>;
  }
}

const stands = (p: PhaseStep) => p.status === 'running' || p.status === 'current' || p.status === 'waiting';

export function PhaseSteps({ phases, inline = false }: { phases: PhaseStep[]; inline?: boolean }) {
  if (inline) {
    return (
      <Text wrap="truncate">
        {phases.map((p, i) => (
          <Fragment key={p.name}>
            {i > 0 && <Text dimColor> › </Text>}
            <Mark status={p.status} />{' '}
            <Text bold={stands(p)} dimColor={p.status === 'pending'}>
              {p.name}
            </Text>
          </Fragment>
        ))}
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      {phases.map((p) => (
        <Box key={p.name}>
          <Box width={2}>
            <Mark status={p.status} />
          </Box>
          <Box width={16}>
            <Text bold={stands(p)} dimColor={p.status === 'pending'}>
              {p.name}
            </Text>
          </Box>
          <Text dimColor>{p.note}</Text>
        </Box>
      ))}
    </Box>
  );
}
