import { useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { wrapAtMost } from './format.js';

/** Whether the console has the terminal, or has lent it to a pager or an editor. */
export class ScreenControl {
  private lent = false;
  private readonly listeners = new Set<() => void>();

  get = (): boolean => this.lent;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(lent: boolean): void {
    this.lent = lent;
    for (const l of this.listeners) l();
  }
}

/** The size of the terminal the console draws in. */
export interface Size {
  width: number;
  height: number;
}

/** The smallest terminal the panes fit in: below it, the header, the tabs, a pane and the footer would run into each other. */
export const MIN_SIZE: Size = { width: 30, height: 8 };

/**
 * What the console shows instead of its panes on a terminal smaller than MIN_SIZE: how big it must
 * be, wrapped to the terminal's width on the lines it has; null when the panes fit. A terminal that
 * gives no size (0 columns or rows) is told so on one line: there is no width to wrap it to.
 */
export function tooSmall(size: Size): string[] | null {
  if (size.width >= MIN_SIZE.width && size.height >= MIN_SIZE.height) return null;
  if (size.width === 0 || size.height === 0) return [`The terminal gives no size (${size.width}×${size.height}): set one (stty cols 80 rows 24), or press q to quit.`];
  // What it needs comes first, for a very small terminal shows only the start; its last line is left free, as the panes leave it.
  const text = `Too small: needs ${MIN_SIZE.width}×${MIN_SIZE.height} (this terminal is ${size.width}×${size.height}). Make it larger, or press q to quit.`;
  return size.height > 1 ? wrapAtMost(text, size.width, size.height - 1) : [];
}

/** The rows a prompt would rather not go below: its frame, two lines of its head and two of the rest. */
const PROMPT_MIN = 6;

/**
 * How the screen's rows are shared while a prompt of `prompt` rows is open (0: none): the header and
 * the tabs (`chrome`), the pane, the prompt; the footer and the terminal's last line have one each.
 * The prompt comes first: the pane gives it every row it has, and on a terminal where that still
 * leaves the prompt fewer than PROMPT_MIN, so do the header and the tabs. Nothing is drawn over
 * anything: the rows given add up to the terminal's.
 */
export function shareRows(height: number, prompt: number): { chrome: boolean; pane: number; prompt: number } {
  const free = Math.max(0, height - 2);
  const chrome = prompt === 0 || free - 2 >= Math.min(prompt, PROMPT_MIN);
  const rest = chrome ? Math.max(0, free - 2) : free;
  const shown = Math.min(prompt, rest);
  return { chrome, pane: rest - shown, prompt: shown };
}

/** The terminal's size, following resizes; as given when given (tests). A stream that is no terminal has none: it is taken for 80×24. */
export function useSize(fixed: Partial<Size>): Size {
  const { stdout } = useStdout();
  const read = () => ({ width: stdout.columns ?? 80, height: stdout.rows ?? 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return { width: fixed.width ?? size.width, height: fixed.height ?? size.height };
}
