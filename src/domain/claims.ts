/** How long a claimed task has gone without a sign of life from its holder. */

/** When the holder last showed life on a task: its claim, its last progress report, or a note of its own (ISO times; the latest). */
export function lastActivity(claimedAt: string | undefined, progressAt: string | undefined, ownNotes: Iterable<string>): string {
  return [claimedAt ?? '', progressAt ?? '', ...ownNotes].sort().pop()!;
}
