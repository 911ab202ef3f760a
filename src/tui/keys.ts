/**
 * Keys that reach a screen together (auto-repeat, fast typing, a paste, a slow link) come from ink as
 * one string: each is a key of its own, with what ink says of it when it comes alone (Enter, Tab
 * and Backspace among letters are keys, not text).
 */
import { useInput, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';

export type OnKey = (input: string, key: Key) => void;

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
    const bare = Object.fromEntries(Object.entries(key).map(([k, v]) => [k, typeof v === 'boolean' ? false : v])) as Key;
    const esc = { ...bare, escape: true };
    onKey('', esc);
    return input === '\u001B' ? onKey('', esc) : eachKey(input, { ...key, meta: false }, onKey);
  }
  if (input.length <= 1 || key.ctrl || key.meta) return onKey(input, key);
  for (const ch of input) {
    const alone = { ...key, return: ch === '\r', tab: ch === '\t', backspace: ch === '\b', delete: ch === '\u007F', shift: /^[A-Z]$/.test(ch) };
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
      eachKey(input, key, (i, k) => void waiting.current.push([i, k]));
      if (!drawing.current) next();
    },
    { isActive },
  );
  // The screen the last key changed is drawn: the next key, once React is out of its drawing (a
  // key handed from in there would draw inside it, a long paste one drawing inside another).
  useEffect(() => {
    if (!isActive) waiting.current.length = 0;
    queueMicrotask(next);
  }, [drawn]);
  return () => (drawing.current || waiting.current.length > 0 ? new Promise((resolve) => taken.current.push(resolve)) : Promise.resolve());
}
