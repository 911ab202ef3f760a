/** The console's ages, countdowns, bars and cuts. */
import { describe, expect, it } from 'vitest';
import { ago, bar, cut, left, wrapWords } from '../../src/tui/console/format.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const before = (ms: number) => new Date(NOW - ms).toISOString();
const after = (ms: number) => new Date(NOW + ms).toISOString();

describe('console text', () => {
  it('says ages to the minute', () => {
    expect([ago(before(20_000), NOW), ago(before(61_000), NOW), ago(before(3 * 3_600_000 + 1), NOW), ago(before(49 * 3_600_000), NOW), ago(null, NOW)]).toEqual(['now', '1m', '3h', '2d', '']);
  });

  it('counts down to a deadline', () => {
    expect([left(after(30_000), NOW), left(after(61_000), NOW), left(after(2 * 3_600_000 - 1_000), NOW), left(after(2 * 3_600_000 + 5 * 60_000), NOW), left(before(1), NOW)]).toEqual(['<1m left', '2m left', '2h00m left', '2h05m left', 'overdue']);
  });

  it('draws progress, cuts lines and wraps words to a width', () => {
    expect([bar(0), bar(60), bar(100), bar(null)]).toEqual(['▱▱▱▱▱', '▰▰▰▱▱', '▰▰▰▰▰', '▱▱▱▱▱']);
    expect(cut('Index  the\ntitles', 20)).toBe('Index the titles');
    expect(cut('Index the titles', 10)).toBe('Index the…');
    expect(wrapWords('Keep the index in one file: fast enough', 12)).toEqual(['Keep the', 'index in one', 'file: fast', 'enough']);
    expect(wrapWords('abcdefghijklmnop', 5)).toEqual(['abcde', 'fghij', 'klmno', 'p']);
  });
});
