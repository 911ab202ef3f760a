/**
 * The person's decision, in place: approve, reject with feedback typed here, or leave it for
 * later. Keys: a approves, r asks for the feedback (Enter sends it, Esc goes back), l leaves it (Esc
 * too, in the console, where it opens straight at the feedback when the person pressed r on an item).
 */
import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { PersonAnswer, PersonQuestion } from '../engine/events.js';
import { eachKey } from './keys.js';

/** Keys that came before a prompt was listening (typed right after the key that opened it): it takes them first. */
export type EarlyKeys = { current: [string, Key][] };

export function DecisionPrompt(props: { question: PersonQuestion; onAnswer: (answer: PersonAnswer) => void; start?: 'choice' | 'feedback'; later?: string; escapeLater?: boolean; early?: EarlyKeys }) {
  const { question, onAnswer, later = 'later (the run stops and waits)' } = props;
  const first = props.start === 'feedback' ? '' : null;
  const [feedback, setShown] = useState<string | null>(first);
  // Keys can come faster than renders (a paste): the text typed so far is kept here, not in the render's copy.
  const typed = useRef<string | null>(first);
  const setFeedback = (value: string | null) => {
    typed.current = value;
    setShown(value);
  };
  const onKey = (input: string, key: Key) => {
    const text = typed.current;
    if (text === null) {
      if (input === 'a') onAnswer({ decision: 'approve' });
      else if (input === 'r') setFeedback('');
      else if (input === 'l' || (key.escape && props.escapeLater)) onAnswer({ decision: 'later' });
      return;
    }
    if (key.escape) setFeedback(null);
    else if (key.return) {
      if (text.trim()) onAnswer({ decision: 'reject', feedback: text.trim() });
    } else if (key.backspace || key.delete) setFeedback(text.slice(0, -1));
    else if (input && !key.ctrl && !key.meta) setFeedback(text + input);
  };
  useInput((input, key) => eachKey(input, key, onKey));
  useEffect(() => {
    for (const [input, key] of props.early?.current.splice(0) ?? []) onKey(input, key);
    // Only once, as it starts listening.
  }, []);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        Your decision: {question.subject}
      </Text>
      {question.details.map((d, i) => (
        <Text key={i} dimColor wrap="truncate">
          {d}
        </Text>
      ))}
      {feedback === null ? (
        <Text>
          <Text bold>a</Text> approve · <Text bold>r</Text> reject with feedback · <Text bold>l</Text> {later}
        </Text>
      ) : (
        <Box flexDirection="column">
          <Text>What must change? (Enter sends, Esc goes back)</Text>
          <Text>
            <Text color="yellow">› </Text>
            {feedback}
            <Text inverse> </Text>
          </Text>
        </Box>
      )}
    </Box>
  );
}
