/**
 * Which part of a list a pane shows. The view stays where it is while the cursor moves inside it;
 * when the cursor leaves it, the view moves as far as the cursor did (a line, a page, to either
 * end), and it never leaves empty lines that the list could fill: at the last item, the view ends
 * with it.
 */
import { useRef } from 'react';

/** Where a view stood, and its cursor then. */
export interface ViewAt {
  start: number;
  cursor: number;
}

/**
 * The first item shown, for the cursor at `cursor` in a list of `count` items, the view having
 * been at `before`; `fits(start)` is how many items the view holds from `start`, at least one.
 */
export function viewStart(before: ViewAt, cursor: number, count: number, fits: (start: number) => number): number {
  if (count === 0) return 0;
  const shows = (s: number) => cursor >= s && cursor < s + fits(s);
  let start = Math.min(before.start, count - 1);
  if (!shows(start)) {
    start = Math.max(0, Math.min(cursor, start + cursor - before.cursor));
    while (!shows(start)) start++;
  }
  // The first start from which the view holds every item to the end: a view starting later has room to spare.
  let last = count - 1;
  while (last > 0 && fits(last - 1) >= count - last + 1) last--;
  return Math.min(start, last);
}

/** The first item a pane's view shows, as viewStart, remembering where the view was between draws. */
export function useViewStart(cursor: number, count: number, fits: (start: number) => number): number {
  const at = useRef<ViewAt>({ start: 0, cursor: 0 });
  const start = viewStart(at.current, cursor, count, fits);
  at.current = { start, cursor };
  return start;
}
