/**
 * An agent's question, answered in place: its options offered (a digit, or the arrows and Enter),
 * or an answer typed (t). Esc goes back; the countdown and the default action say what happens
 * when nobody answers.
 */
import { Text, type Key } from 'ink';
import { useRef, useState, type ReactNode } from 'react';
import { SEND_KEYS, type Draft, type PromptKeys } from '../DecisionPrompt.js';
import { dropLast, left, wrapAtMost } from './format.js';
import { FRAME_ROWS, PromptBox, TypedLine } from './PromptBox.js';

export interface Question {
  input_id: string;
  agent_id: string;
  question: string;
  options: string[];
  default_action: string;
  expires_at: string;
}

/**
 * The keys that pick one of `n` options. Up to nine, a digit answers at once; with ten, a digit
 * selects (1 then 0 is the tenth) and Enter answers: the 1 of a 10 typed must not answer the first.
 */
export const pickKeys = (n: number) => (n > 9 ? `1-${n} or ↑↓ then Enter` : `${n > 1 ? `1-${n}` : '1'} or ↑↓ Enter`);
/** The keys, under the options. */
const CHOOSE = (n: number) => `${pickKeys(n)} answer · t type an answer · Esc back`;
const TYPE = 'Your answer (Enter sends, Esc goes back)';
/** The keys under the options on a prompt with no room for the long form: one line even on the narrowest terminal. */
const CHOOSE_SHORT = 'Enter · t type · Esc back';

/**
 * A question's texts wrapped to the prompt's width, each on at most `room` lines: who asks, until
 * when and what happens then; the question; each option; the keys, for choosing or for typing.
 */
export function questionLines(question: Question, now: number, width: number, room: number) {
  const head = `${question.agent_id} asks (${question.input_id} · ${left(question.expires_at, now)} · then: ${question.default_action})`;
  const wrap = (text: string, w = width - 4) => wrapAtMost(text, w, room);
  return {
    head: wrap(head),
    body: wrap(question.question),
    options: question.options.map((o) => wrap(o, width - 8)),
    choose: wrap(CHOOSE(question.options.length)),
    type: wrap(TYPE),
  };
}

/** How many rows the prompt takes with all of its lines, in either mode, its frame included. */
export function questionRows(lines: ReturnType<typeof questionLines>): number {
  const choosing = lines.options.reduce((n, o) => n + o.length, 0) + lines.choose.length;
  return FRAME_ROWS + lines.head.length + lines.body.length + Math.max(lines.options.length ? choosing : 0, lines.type.length + 1);
}

/**
 * `unchosen`: no option is selected at first (the question came under the cursor by itself): Enter
 * answers nothing until the person picks one, so that Enter held down does not answer question after question.
 */
export function QuestionPrompt(props: { question: Question; unchosen?: boolean; now: number; width: number; room: number; rows: number; onAnswer: (answer: string) => void; onCancel: () => void; keys: PromptKeys; draft?: Draft }) {
  const { question, now, width, room, rows, onAnswer, onCancel, keys, draft } = props;
  const lines = questionLines(question, now, width, room);
  const first = draft?.current ?? { choice: props.unchosen ? -1 : 0, typed: question.options.length === 0 ? '' : null };
  const [choice, setChoiceShown] = useState(first.choice);
  const [typedShown, setTypedShown] = useState<string | null>(first.typed);
  // Keys can come faster than renders (a paste): the state is kept here, not in the render's copy.
  const state = useRef(first);
  const set = (next: { choice?: number; typed?: string | null }) => {
    state.current = { ...state.current, ...next };
    if (draft) draft.current = state.current;
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
      } else if (key.backspace || key.delete) set({ typed: dropLast(typed) });
      else if (input && !key.ctrl && !key.meta) set({ typed: typed + input });
      return;
    }
    if (key.escape || input === 'q') onCancel();
    else if (input === 't') set({ typed: '' });
    else if (key.upArrow || input === 'k') set({ choice: Math.max(0, c - 1) });
    else if (key.downArrow || input === 'j') set({ choice: Math.min(options.length - 1, c + 1) });
    else if (key.return && c >= 0) onAnswer(options[c]!);
    else if (/^[0-9]$/.test(input)) {
      const n = input === '0' ? 10 : Number(input);
      if (n > options.length) return;
      if (options.length > 9) set({ choice: n - 1 });
      else onAnswer(options[n - 1]!);
    }
  };
  // The console hands it its keys, one at a time.
  keys.current = onKey;
  const text = (l: string, i: number) => (
    <Text key={i} wrap="truncate">
      {l}
    </Text>
  );
  const head = lines.head.map((l, i) => (
    <Text key={i} bold color="yellow" wrap="truncate">
      {l}
    </Text>
  ));
  const rest = lines.body.map(text);
  // The keys, or the answer typed under what it asks, are the foot: always in view.
  let focus: [number, number] | null = null;
  let foot: ReactNode[];
  let short: ReactNode[];
  if (typedShown === null) {
    lines.options.forEach((o, i) => {
      if (i === choice) focus = [rest.length, rest.length + o.length - 1];
      o.forEach((l, k) =>
        rest.push(
          <Text wrap="truncate">
            <Text color="cyan">{i === choice && k === 0 ? '› ' : '  '}</Text>
            {k === 0 ? <Text bold>{i + 1}</Text> : ' '} <Text inverse={i === choice}>{l}</Text>
          </Text>,
        ),
      );
    });
    foot = lines.choose.map((l) => <Text dimColor>{l}</Text>);
    short = [<Text dimColor>{CHOOSE_SHORT}</Text>];
  } else {
    const typing = <TypedLine text={typedShown} width={width} />;
    foot = [...lines.type.map(text), typing];
    short = [text(SEND_KEYS, 0), typing];
  }
  return <PromptBox head={head} rest={rest} focus={focus} foot={foot} short={short} rows={rows} color="yellow" />;
}
