/**
 * The time agentboard stamps on what it writes. AGENTBOARD_NOW pins it (an ISO 8601 time), for
 * reproducible demos and for tests of deadlines, the way SOURCE_DATE_EPOCH pins a build.
 */
export function now(): Date {
  const pinned = process.env.AGENTBOARD_NOW;
  if (pinned) {
    const d = new Date(pinned);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return new Date();
}

export function nowIso(): string {
  return now().toISOString();
}
