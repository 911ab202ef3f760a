/**
 * Colour for people: when to use it, and which of the terminal's own sixteen colours says what.
 * The text output of the CLI and the console draw from the same table, so a state has one colour
 * everywhere. The names are chalk's (and ink's), which map to the terminal's palette.
 */

export type ColorName = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray';

/** 0 (none) to 3 (truecolor), as chalk counts. */
export type ColorLevel = 0 | 1 | 2 | 3;

/**
 * How much colour a stream gets. FORCE_COLOR decides when set (as it does for Node itself:
 * 0 or false turns colour off, 1–3 or true turns it on); else NO_COLOR (any non-empty value, see
 * no-color.org) turns it off; else there is colour only on a terminal that is not "dumb".
 */
export function colorLevel(env: Record<string, string | undefined>, isTTY: boolean): ColorLevel {
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === 'false' || force === '0') return 0;
    if (force === '' || force === 'true') return 1;
    const n = Number.parseInt(force, 10);
    if (Number.isInteger(n)) return Math.max(0, Math.min(3, n)) as ColorLevel;
    return 1;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (!isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return env.TERM?.includes('256') ? 2 : 1;
}

/** A task to do keeps the terminal's own text colour (white would vanish on a light background). */
export const TASK_COLOR: Record<string, ColorName | undefined> = { in_progress: 'cyan', blocked: 'red', in_review: 'yellow', done: 'green' };
export const DOC_COLOR: Record<string, ColorName> = { template: 'gray', submitted: 'yellow', approved: 'green', rejected: 'red', superseded: 'gray' };
export const SESSION_COLOR: Record<string, ColorName> = { started: 'blue', working: 'cyan', awaiting_input: 'yellow', blocked: 'red', awaiting_review: 'magenta', completed: 'green' };
export const VERDICT_COLOR: Record<string, ColorName> = { APPROVED: 'green', NEEDS_FIX: 'yellow', MAJOR_ISSUES: 'red' };
/** Review issue severities (High, Medium, Low) and blocker severities (high, medium, low). */
export const SEVERITY_COLOR: Record<string, ColorName> = { High: 'red', Medium: 'yellow', Low: 'blue', high: 'red', medium: 'yellow', low: 'blue' };
export const PHASE_COLOR: Record<string, ColorName> = { proposal: 'blue', spec: 'blue', tasks: 'blue', implementation: 'cyan', review: 'magenta', done: 'green', archived: 'gray' };
export const PRIORITY_COLOR: Record<string, ColorName> = { urgent: 'red', high: 'yellow', medium: 'blue', low: 'gray' };
export const LEVEL_COLOR: Record<string, ColorName> = { error: 'red', warning: 'yellow' };
