/** How the console shares its rows with a prompt, and which of a prompt's lines it shows. */
import { describe, expect, it } from 'vitest';
import { promptWindow } from '../../src/tui/console/PromptBox.js';
import { shareRows } from '../../src/tui/console/screen.js';

describe('shareRows', () => {
  it('gives the pane every row but the header, the tabs, the footer and the last line when no prompt is open', () => {
    expect(shareRows(24, 0)).toEqual({ chrome: true, pane: 20, prompt: 0 });
  });

  it('gives a prompt the rows it wants, the pane the rest, and never more rows than the terminal has', () => {
    expect(shareRows(24, 7)).toEqual({ chrome: true, pane: 13, prompt: 7 });
    expect(shareRows(12, 9)).toEqual({ chrome: true, pane: 0, prompt: 8 });
    for (const [height, wants] of [[8, 9], [10, 12], [12, 30], [24, 40]]) {
      const r = shareRows(height, wants);
      expect((r.chrome ? 2 : 0) + r.pane + r.prompt + 2).toBe(height);
    }
  });

  it('leaves out the header and the tabs only on a terminal where the prompt would have fewer than six rows', () => {
    expect(shareRows(8, 9)).toEqual({ chrome: false, pane: 0, prompt: 6 });
    expect(shareRows(8, 4)).toEqual({ chrome: true, pane: 0, prompt: 4 });
    expect(shareRows(10, 12)).toEqual({ chrome: true, pane: 0, prompt: 6 });
  });
});

describe('promptWindow', () => {
  it('shows every line when they fit', () => {
    expect(promptWindow(2, 4, 8, 2, 2)).toEqual({ head: 2, start: 0, count: 4 });
  });

  it('keeps the head and moves the rest so that the focused lines are in view', () => {
    // Head of 2, the question on 2 lines, two options, the keys on 2 lines; 4 rows inside the frame.
    expect(promptWindow(2, 6, 6, 2, 2)).toEqual({ head: 2, start: 1, count: 2 });
    expect(promptWindow(2, 6, 6, 3, 3)).toEqual({ head: 2, start: 2, count: 2 });
    expect(promptWindow(2, 6, 6, 0, 0)).toEqual({ head: 2, start: 0, count: 2 });
  });

  it('shows the start of a focus longer than the rows, and a head longer than the rows leaves one row to the rest', () => {
    expect(promptWindow(1, 6, 5, 1, 5)).toEqual({ head: 1, start: 1, count: 2 });
    expect(promptWindow(5, 3, 6, 2, 2)).toEqual({ head: 3, start: 2, count: 1 });
  });
});
