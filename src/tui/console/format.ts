/** Small text helpers of the console: ages, countdowns, progress bars, cutting to a width. */

/** "now", "45s", "12m", "3h", "2d": how long ago `iso` was, seen from `now` (ms). */
export function ago(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (Number.isNaN(s)) return '';
  if (s < 10) return 'now';
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** "12m left", "45s left", "overdue": the time until `iso`. */
export function left(iso: string, now: number): string {
  const s = Math.floor((Date.parse(iso) - now) / 1000);
  if (s <= 0) return 'overdue';
  if (s < 60) return `${s}s left`;
  if (s < 3600) return `${Math.ceil(s / 60)}m left`;
  return `${Math.floor(s / 3600)}h${String(Math.ceil((s % 3600) / 60)).padStart(2, '0')}m left`;
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
