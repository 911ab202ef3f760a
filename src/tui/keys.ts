/**
 * Keys that reach a screen together (auto-repeat, fast typing, a paste, a slow link) come from ink as
 * one string: each is a key of its own, with what ink says of it when it comes alone (Enter, Tab
 * and Backspace among letters are keys, not text).
 */
import type { Key } from 'ink';

export function eachKey(input: string, key: Key, onKey: (input: string, key: Key) => void): void {
  if (input.length <= 1 || key.ctrl || key.meta) return onKey(input, key);
  for (const ch of input) {
    const alone = { ...key, return: ch === '\r', tab: ch === '\t', backspace: ch === '\b', delete: ch === '\u007F', shift: /^[A-Z]$/.test(ch) };
    onKey(alone.return || alone.tab || alone.backspace || alone.delete ? '' : ch, alone);
  }
}
