/** Small text helpers of the console: ages, countdowns, progress bars, cutting to a width. */

/** "now", "12m", "3h", "2d": how long ago `iso` was, seen from `now` (ms); to the minute, as the screen moves on twice a minute. */
export function ago(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const m = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (Number.isNaN(m)) return '';
  if (m < 1) return 'now';
  if (m < 60) return `${m}m`;
  if (m < 1440) return `${Math.floor(m / 60)}h`;
  return `${Math.floor(m / 1440)}d`;
}

/** "12m left", "<1m left", "2h05m left", "overdue": the time until `iso`. */
export function left(iso: string, now: number): string {
  const s = Math.floor((Date.parse(iso) - now) / 1000);
  if (s <= 0) return 'overdue';
  if (s < 60) return '<1m left';
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes}m left`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m left`;
}

/** A progress bar of `cells` cells: "▰▰▰▱▱". */
export function bar(percent: number | null, cells = 5): string {
  const p = Math.max(0, Math.min(100, percent ?? 0));
  const full = Math.round((p / 100) * cells);
  return '▰'.repeat(full) + '▱'.repeat(cells - full);
}

/** One line of at most `width` characters; a cut ends in "…". */
export function cut(text: string, width: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (width <= 0) return '';
  return one.length > width ? `${one.slice(0, Math.max(0, width - 1))}…` : one;
}

/** The local id of a board-wide task id: "T2" of "add-search/T2". */
export function localId(taskId: string): string {
  return taskId.slice(taskId.indexOf('/') + 1);
}

/** Words of a state for people: "in_progress" → "in progress". */
export function words(state: string): string {
  return state.replace(/_/g, ' ');
}

/** The first index of the page of `size` that shows `cursor`. */
export function pageStart(cursor: number, size: number): number {
  return size <= 0 ? 0 : Math.floor(Math.max(0, cursor) / size) * size;
}

export function clamp(n: number, length: number): number {
  return Math.max(0, Math.min(n, length - 1));
}

/** Text broken into lines of at most `width` characters, at spaces where it can be. */
export function wrapWords(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      for (let w = word; w.length > 0; ) {
        const room = line ? width - line.length - 1 : width;
        if (w.length <= room) {
          line = line ? `${line} ${w}` : w;
          w = '';
        } else if (line) {
          out.push(line);
          line = '';
        } else {
          out.push(w.slice(0, width));
          w = w.slice(width);
        }
      }
    }
    out.push(line);
  }
  return out;
}
