/**
 * Keys that reach a screen together (auto-repeat, fast typing, a paste, a slow link) come from ink as
 * one string: each is a key of its own, with what ink says of it when it comes alone (Enter, Tab
 * and Backspace among letters are keys, not text).
 */
import type { Key } from 'ink';

export function eachKey(input: string, key: Key, onKey: (input: string, key: Key) => void): void {
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
