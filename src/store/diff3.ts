/**
 * A three-way merge of texts line by line (diff3): the changes two sides made to a common base are
 * both applied where they touch different lines; where they change the same lines, or add lines at
 * the same place, differently, the region is a conflict and the first side's lines stay.
 */

/** Base lines [from, to) replaced by `lines`. */
interface Hunk {
  from: number;
  to: number;
  lines: string[];
}

/** Past this many lines inserted and deleted, all between the common start and end is one hunk: a rewrite, not an edit. */
const MAX_EDITS = 2000;

/** The hunks that turn `a` into `b` (Myers' shortest edit script, after the common start and end). */
export function diffLines(a: readonly string[], b: readonly string[]): Hunk[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  if (start === endA && start === endB) return [];
  const ids = new Map<string, number>();
  const id = (line: string) => ids.get(line) ?? (ids.set(line, ids.size), ids.size - 1);
  const x = a.slice(start, endA).map(id);
  const y = b.slice(start, endB).map(id);
  const matches = commonRuns(x, y);
  if (matches === null) return [{ from: start, to: endA, lines: b.slice(start, endB) }];
  // The hunks are the gaps between the runs of common lines.
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  for (const [mi, mj, length] of [...matches, [x.length, y.length, 0] as const]) {
    if (mi > i || mj > j) hunks.push({ from: start + i, to: start + mi, lines: b.slice(start + j, start + mj) });
    i = mi + length;
    j = mj + length;
  }
  return hunks;
}

/**
 * The runs of lines `x` and `y` share, as [index in x, index in y, length], in order; null when
 * they differ in more than MAX_EDITS lines. For each number of edits d, v[k] is the furthest index
 * in x reached on diagonal k = i - j; the v of every d is kept to walk the path back.
 */
function commonRuns(x: number[], y: number[]): [number, number, number][] | null {
  const n = x.length;
  const m = y.length;
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, MAX_EDITS); d++) {
    const prev = trace[d - 1];
    const v = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      // From diagonal k + 1 (a line of y added) or k - 1 (a line of x removed), whichever reached further.
      const down = k === -d || (k !== d && prev![k - 1 + d - 1]! < prev![k + 1 + d - 1]!);
      let i = d === 0 ? 0 : down ? prev![k + 1 + d - 1]! : prev![k - 1 + d - 1]! + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) {
        i++;
        j++;
      }
      v[k + d] = i;
      if (i >= n && j >= m) {
        trace.push(v);
        return walkBack(trace, n, m);
      }
    }
    trace.push(v);
  }
  return null;
}

function walkBack(trace: Int32Array[], n: number, m: number): [number, number, number][] {
  const runs: [number, number, number][] = [];
  let i = n;
  let j = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const k = i - j;
    // Where step d's common run starts (right after its edit), and where the path was before that edit.
    let start = 0;
    let before: [number, number] = [0, 0];
    if (d > 0) {
      const prev = trace[d - 1]!;
      const down = k === -d || (k !== d && prev[k - 1 + d - 1]! < prev[k + 1 + d - 1]!);
      start = down ? prev[k + 1 + d - 1]! : prev[k - 1 + d - 1]! + 1;
      before = down ? [start, start - k - 1] : [start - 1, start - k];
    }
    if (i > start) runs.push([start, start - k, i - start]);
    [i, j] = before;
  }
  return runs.reverse();
}

/** A region both sides changed differently: its lines in the merged text, and each side's lines. */
export interface TextConflict {
  /** The region's first line in the merged text (0-based), and its number of lines there. */
  at: number;
  length: number;
  mine: string[];
  theirs: string[];
}

/**
 * Merges the changes `mine` and `theirs` made to `base`. Changes to different lines are both
 * applied; changes to the same lines, or additions at the same place, that differ are a conflict:
 * the region keeps `mine`'s lines and the conflict holds both.
 */
export function merge3(base: readonly string[], mine: readonly string[], theirs: readonly string[]): { lines: string[]; conflicts: TextConflict[] } {
  const hunks = [...diffLines(base, mine).map((h) => ({ ...h, side: 0 })), ...diffLines(base, theirs).map((h) => ({ ...h, side: 1 }))].sort((p, q) => p.from - q.from || p.to - q.to);
  const lines: string[] = [];
  const conflicts: TextConflict[] = [];
  let pos = 0;
  for (let h = 0; h < hunks.length; ) {
    const region = [hunks[h++]!];
    const from = region[0]!.from;
    let to = region[0]!.to;
    // Hunks that overlap the region, or add lines where it starts or ends, belong to it.
    while (h < hunks.length && (hunks[h]!.from < to || (hunks[h]!.from === to && (hunks[h]!.from === hunks[h]!.to || from === to)))) {
      to = Math.max(to, hunks[h]!.to);
      region.push(hunks[h++]!);
    }
    lines.push(...base.slice(pos, from));
    const side = (s: number) => {
      const out: string[] = [];
      let at = from;
      for (const r of region.filter((r) => r.side === s)) {
        out.push(...base.slice(at, r.from), ...r.lines);
        at = r.to;
      }
      return [...out, ...base.slice(at, to)];
    };
    const a = side(0);
    const b = side(1);
    if (region.every((r) => r.side === 1)) lines.push(...b);
    else {
      if (region.some((r) => r.side === 1) && a.join('\n') !== b.join('\n')) conflicts.push({ at: lines.length, length: a.length, mine: a, theirs: b });
      lines.push(...a);
    }
    pos = to;
  }
  lines.push(...base.slice(pos));
  return { lines, conflicts };
}
