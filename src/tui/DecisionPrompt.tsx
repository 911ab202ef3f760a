/**
 * The person's decision, in place: approve, reject with feedback typed here, or leave it for
 * later. Keys: a approves, r asks for the feedback (Enter sends it, Esc goes back), l leaves it (Esc
 * too, in the console, where it opens straight at the feedback when the person pressed r on an item).
 */
import { Text, useInput, type Key } from 'ink';
import { useRef, useState, type ReactNode } from 'react';
import type { PersonAnswer, PersonQuestion } from '../engine/events.js';
import { dropLast, wrapAtMost } from './console/format.js';
import { FRAME_ROWS, PromptBox, TypedLine } from './console/PromptBox.js';
import { eachKey, type OnKey } from './keys.js';

/** Where a screen that holds a prompt hands it its keys: the prompt puts what takes them here while it is drawn. */
export type PromptKeys = { current: OnKey | null };

/**
 * Where the person is in a prompt (the option selected, the text typed), kept by the screen that
 * holds it: a prompt taken off the screen and drawn again (the terminal made too small for a
 * moment) starts where it was. Null: from the start.
 */
export type Draft = { current: { choice: number; typed: string | null } | null };

/**
 * In the console, the prompt's lines are wrapped to `width` (each text on at most `room` lines) and it
 * takes `rows` rows of the screen; without them, it takes the lines its texts wrap to.
 */
export function DecisionPrompt(props: { question: PersonQuestion; onAnswer: (answer: PersonAnswer) => void; start?: 'choice' | 'feedback'; later?: string; escapeLater?: boolean; keys?: PromptKeys; draft?: Draft; width?: number; room?: number; rows?: number }) {
  const { question, onAnswer, later = 'later (the run stops and waits)', width, room = 1, draft } = props;
  const first = draft?.current ? draft.current.typed : props.start === 'feedback' ? '' : null;
  const [feedback, setShown] = useState<string | null>(first);
  // Keys can come faster than renders (a paste): the text typed so far is kept here, not in the render's copy.
  const typed = useRef<string | null>(first);
  const setFeedback = (value: string | null) => {
    typed.current = value;
    if (draft) draft.current = { choice: 0, typed: value };
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
    } else if (key.backspace || key.delete) setFeedback(dropLast(text));
    else if (input && !key.ctrl && !key.meta) setFeedback(text + input);
  };
  // In the console, the screen hands it its keys, one at a time; in a run, it reads them itself.
  if (props.keys) props.keys.current = onKey;
  useInput((input, key) => eachKey(input, key, onKey), { isActive: !props.keys });
  const lines = width === undefined ? null : decisionLines(question.subject, later, width, room);
  const head = (lines?.head ?? [`Your decision: ${question.subject}`]).map((l, i) => (
    <Text key={i} bold color="yellow">
      {l}
    </Text>
  ));
  const rest = question.details.map((d, i) => (
    <Text key={i} dimColor wrap="truncate">
      {d}
    </Text>
  ));
  // The keys, or the feedback typed under what it asks, are the foot: always in view.
  let foot: ReactNode[];
  let short: ReactNode[] | undefined;
  if (feedback === null) {
    // Wrapped, the keys lose their bold: each line is text as it was wrapped.
    if (lines && lines.keys.length > 1) foot = lines.keys.map((l) => <Text>{l}</Text>);
    else {
      foot = [
        <Text>
          <Text bold>a</Text> approve · <Text bold>r</Text> reject with feedback · <Text bold>l</Text> {later}
        </Text>,
      ];
    }
  } else {
    const typing = <TypedLine text={feedback} width={width} />;
    foot = [...(lines?.ask ?? [ASK]).map((l) => <Text>{l}</Text>), typing];
    short = [<Text>{SEND_KEYS}</Text>, typing];
  }
  return <PromptBox head={head} rest={rest} focus={null} foot={foot} short={short} rows={props.rows} color="yellow" />;
}

const ASK = 'What must change? (Enter sends, Esc goes back)';
/** The keys of a line being typed, on a prompt with no room for what it asks: one line even on the narrowest terminal. */
export const SEND_KEYS = 'Enter sends · Esc back';

/** A decision prompt's texts wrapped to its width, each on at most `room` lines: what is decided, the keys, and what the feedback line asks. */
export function decisionLines(subject: string, later: string, width: number, room: number) {
  const wrap = (text: string) => wrapAtMost(text, width - 4, room);
  return { head: wrap(`Your decision: ${subject}`), keys: wrap(`a approve · r reject with feedback · l ${later}`), ask: wrap(ASK) };
}

/** How many rows a decision prompt takes with all of its lines, in either mode, its frame included. */
export function decisionRows(lines: ReturnType<typeof decisionLines>, details: number): number {
  return FRAME_ROWS + lines.head.length + details + Math.max(lines.keys.length, lines.ask.length + 1);
}
