/**
 * Keys that reach a screen together (auto-repeat, fast typing, a paste, a slow link) come from ink as
 * one string: each is a key of its own, with what ink says of it when it comes alone (Enter, Tab
 * and Backspace among letters are keys, not text).
 */
import { useInput, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';

export type OnKey = (input: string, key: Key) => void;

/**
 * What a terminal in bracketed paste mode sends around a paste (ESC [200~ … ESC [201~), as ink
 * hands them over; `startConsole` turns the mode on. Without it, the line breaks of a paste are
 * Enter and its letters keys: pasted into a line being typed, it would send the first line and act
 * on the board with the letters of the rest.
 */
export const PASTE_MODE = { on: '\u001B[?2004h', off: '\u001B[?2004l' };
const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** A paste, handed over as one key: its text on one line (line breaks and tabs are spaces), no key of its own pressed. */
export type Pasted = Key & { paste: true };

export function isPaste(key: Key): key is Pasted {
  return (key as Partial<Pasted>).paste === true;
}

const plainKey = (key: Key) => Object.fromEntries(Object.entries(key).map(([k, v]) => [k, typeof v === 'boolean' ? false : v])) as Key;

/** The keys that move, which a terminal sends with Alt as one sequence (Alt-Up: ESC [ 1 ; 3 A). */
const MOVES = ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end'] as const;

export function eachKey(input: string, key: Key, onKey: OnKey): void {
  // Alt with a key that moves is that key: the screens have no Alt keys, and taken for Esc it would
  // throw away what is being typed, or close a prompt. (Esc then an arrow in the same read, ESC ESC [ A,
  // is the same sequence as some terminals' Alt-Up: it is taken as the arrow.)
  if (key.meta && !key.ctrl && input === '' && MOVES.some((m) => key[m])) return onKey('', { ...key, meta: false });
  // A key right after Esc in the same read (Esc pressed twice fast, keys sent by a script) comes from
  // ink as that key with Alt (meta); the screens have no Alt keys: it is Esc, then the key.
  if (key.meta && !key.ctrl && !(key.escape && input === '')) {
    const esc = { ...plainKey(key), escape: true };
    onKey('', esc);
    return input === '\u001B' ? onKey('', esc) : eachKey(input, { ...key, meta: false }, onKey);
  }
  // A line feed is Enter, as Ctrl-J is in a shell: it is what a terminal still doing its own line
  // editing makes of Enter (keys typed before the console had the terminal).
  if (input === '\n') return onKey('', { ...key, return: true });
  if (input.length <= 1 || key.ctrl || key.meta) return onKey(input, key);
  for (const ch of input) {
    const alone = { ...key, return: ch === '\r' || ch === '\n', tab: ch === '\t', backspace: ch === '\b', delete: ch === '\u007F', shift: /^[A-Z]$/.test(ch) };
    onKey(alone.return || alone.tab || alone.backspace || alone.delete ? '' : ch, alone);
  }
}

/**
 * The keys of a screen, handed to `onKey` one at a time: keys that came together act exactly as if
 * typed one by one, each on what the key before it left (a list filtered, a pane, a detail or a
 * prompt opened or closed), never on the screen as it was when they came. `onKey` says whether
 * what the key did is to be drawn before the next key is handed over (it changed what the keys
 * act on); a key that did not (a letter of a text being typed) is followed at once, so that a
 * paste is not drawn letter by letter. Keys still waiting when the screen stops taking keys (a
 * pager has the terminal, it is too small) are dropped: they were not typed at what it shows.
 * The function it returns settles once every key that came has been handed over.
 */
export function useKeys(onKey: (input: string, key: Key) => boolean, isActive: boolean): () => Promise<void> {
  const latest = useRef(onKey);
  latest.current = onKey;
  const waiting = useRef<[string, Key][]>([]);
  // A key changed the screen and it is not drawn yet: the keys after it wait.
  const drawing = useRef(false);
  const taken = useRef<(() => void)[]>([]);
  // The text of a paste under way, until the terminal says it ended.
  const pasting = useRef<string | null>(null);
  const [drawn, setDrawn] = useState(0);
  const next = () => {
    drawing.current = false;
    for (let first = waiting.current.shift(); first; first = waiting.current.shift()) {
      if (latest.current(...first)) {
        drawing.current = true;
        return setDrawn((n) => n + 1);
      }
    }
    for (const done of taken.current.splice(0)) done();
  };
  useInput(
    (input, key) => {
      const plain = !key.ctrl && !key.meta;
      if (plain && input === PASTE_START) pasting.current = '';
      else if (pasting.current !== null && !(plain && input === PASTE_END)) pasting.current += key.return ? '\r' : key.tab ? '\t' : input;
      else if (pasting.current !== null) {
        // Control characters other than line breaks and tabs are left out: what is shown of a paste is text.
        const text = pasting.current.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001F\u007F-\u009F]/g, '');
        pasting.current = null;
        if (text) waiting.current.push([text, { ...plainKey(key), paste: true } as Pasted]);
      } else eachKey(input, key, (i, k) => void waiting.current.push([i, k]));
      if (!drawing.current) next();
    },
    { isActive },
  );
  // The screen the last key changed is drawn: the next key, once React is out of its drawing (a
  // key handed from in there would draw inside it, a long paste one drawing inside another).
  useEffect(() => {
    if (!isActive) {
      waiting.current.length = 0;
      pasting.current = null;
    }
    queueMicrotask(next);
  }, [drawn]);
  return () => (drawing.current || waiting.current.length > 0 ? new Promise((resolve) => taken.current.push(resolve)) : Promise.resolve());
}
