/**
 * An agent's question, answered in place: its options offered (a digit, or the arrows and Enter),
 * or an answer typed (t). Esc goes back; the countdown and the default action say what happens
 * when nobody answers.
 */
import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { EarlyKeys } from '../DecisionPrompt.js';
import { eachKey } from '../keys.js';
import { left, wrapAtMost } from './format.js';

export interface Question {
  input_id: string;
  agent_id: string;
  question: string;
  options: string[];
  default_action: string;
  expires_at: string;
}

/** Who asks, until when and what happens then, and the question, each wrapped to the prompt's width on at most `room` lines. */
export function questionLines(question: Question, now: number, width: number, room: number): { head: string[]; body: string[] } {
  const head = `${question.agent_id} asks (${question.input_id} · ${left(question.expires_at, now)} · then: ${question.default_action})`;
  return { head: wrapAtMost(head, width - 4, room), body: wrapAtMost(question.question, width - 4, room) };
}

export function QuestionPrompt(props: { question: Question; now: number; width: number; room: number; onAnswer: (answer: string) => void; onCancel: () => void; early?: EarlyKeys }) {
  const { question, now, width, room, onAnswer, onCancel } = props;
  const { head, body } = questionLines(question, now, width, room);
  const [choice, setChoiceShown] = useState(0);
  const [typedShown, setTypedShown] = useState<string | null>(question.options.length === 0 ? '' : null);
  // Keys can come faster than renders (a paste): the state is kept here, not in the render's copy.
  const state = useRef({ choice: 0, typed: question.options.length === 0 ? '' : (null as string | null) });
  const set = (next: { choice?: number; typed?: string | null }) => {
    state.current = { ...state.current, ...next };
    setChoiceShown(state.current.choice);
    setTypedShown(state.current.typed);
  };
  const options = question.options;
  const onKey = (input: string, key: Key) => {
    const { choice: c, typed } = state.current;
    if (typed !== null) {
      if (key.escape) return options.length ? set({ typed: null }) : onCancel();
      if (key.return) {
        if (typed.trim()) onAnswer(typed.trim());
      } else if (key.backspace || key.delete) set({ typed: typed.slice(0, -1) });
      else if (input && !key.ctrl && !key.meta) set({ typed: typed + input });
      return;
    }
    if (key.escape || input === 'q') onCancel();
    else if (input === 't') set({ typed: '' });
    else if (key.upArrow || input === 'k') set({ choice: Math.max(0, c - 1) });
    else if (key.downArrow || input === 'j') set({ choice: Math.min(options.length - 1, c + 1) });
    else if (key.return) onAnswer(options[c]!);
    else if (/^[1-9]$/.test(input) && Number(input) <= options.length) onAnswer(options[Number(input) - 1]!);
  };
  useInput((input, key) => eachKey(input, key, onKey));
  useEffect(() => {
    for (const [input, key] of props.early?.current.splice(0) ?? []) onKey(input, key);
    // Only once, as it starts listening.
  }, []);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      {head.map((l, i) => (
        <Text key={`h${i}`} bold color="yellow" wrap="truncate">
          {l}
        </Text>
      ))}
      {body.map((l, i) => (
        <Text key={`b${i}`} wrap="truncate">
          {l}
        </Text>
      ))}
      {typedShown === null ? (
        <>
          {options.map((o, i) => (
            <Text key={o} wrap="truncate">
              <Text color="cyan">{i === choice ? '› ' : '  '}</Text>
              <Text bold>{i + 1}</Text> <Text inverse={i === choice}>{o}</Text>
            </Text>
          ))}
          <Text dimColor>1-{options.length} or ↑↓ Enter answer · t type an answer · Esc back</Text>
        </>
      ) : (
        <>
          <Text>Your answer (Enter sends, Esc goes back)</Text>
          <Text>
            <Text color="yellow">› </Text>
            {typedShown}
            <Text inverse> </Text>
          </Text>
        </>
      )}
    </Box>
  );
}
