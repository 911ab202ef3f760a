/** The keys of the console, on `?`. */
import type { ReactNode } from 'react';
import { detailLines } from './ScrollLines.js';

const KEYS: [string, string][] = [
  ['Tab / Shift-Tab, 1-4', 'next / previous pane; Board, Agents, Waiting on you, Changes'],
  ['←↓↑→ or h j k l', 'move between columns and cards, down and up a list'],
  ['PgUp PgDn', 'a page up or down'],
  ['Home End, g G', 'the first or last'],
  ['Enter', 'open: a task, a change, a decision, a question'],
  ['a', 'approve the document or task in review'],
  ['r', 'reject it, with the feedback you type'],
  ['x', 'release a claim: the task goes back to the pool'],
  ['o / e', 'read the file in $PAGER / edit it in $EDITOR, then come back'],
  ['/', 'filter by id, title, agent or text; Esc clears it'],
  ['Esc', 'back'],
  ['Ctrl-Z', 'stop it for the shell; fg comes back'],
  ['q, Ctrl-C', 'quit'],
];

/** The width of the keys' column: on a terminal with no room for it and 20 columns of text, each key has a line of its own. */
const KEY_WIDTH = 22;

/** The help's lines, wrapped to `width`: shown with ScrollLines, so that a small terminal scrolls them. */
export function helpLines(person: string, width: number): ReactNode[] {
  const out = detailLines(width);
  out.text([{ text: 'Keys', bold: true }]);
  for (const [k, what] of KEYS) {
    if (width >= KEY_WIDTH + 20) out.text([{ text: k.padEnd(KEY_WIDTH), color: 'cyan' }, what], 0, KEY_WIDTH);
    else {
      out.text([{ text: k, color: 'cyan' }]);
      out.text(what, 2);
    }
  }
  out.blank();
  out.text([{ text: `Everything you do here is done as ${person}, through the same operations as the agentboard commands.`, dimColor: true }]);
  out.text([{ text: 'The keys that move scroll this help; any other key closes it.', dimColor: true }]);
  return out.lines;
}

/** The footer's hints while the help is shown. */
export function helpHints(scrolls: boolean): [string, string][] {
  return scrolls ? [['j/k', 'scroll'], ['other keys', 'close']] : [['any key', 'closes this help']];
}
