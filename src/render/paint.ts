/**
 * Colour and emphasis for the text the CLI prints: the terminal's own sixteen colours (SGR codes,
 * as ink draws them), when the stream gets colour at all (render/colors.ts decides it). A renderer
 * given PLAIN prints exactly what it would without any of this, as --json and pipes need.
 */
import type { ColorLevel, ColorName } from './colors.js';

export interface Paint {
  /** `text` in `color`; unchanged when the color is undefined or colour is off. */
  color(color: ColorName | undefined, text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const same = (text: string) => text;

export const PLAIN: Paint = { color: (_c, text) => text, bold: same, dim: same };

/** SGR codes: each colour's, and the one that ends it (39: the default colour). */
const CODES: Record<ColorName, number> = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90 };

function sgr(open: number, close: number): (text: string) => string {
  // Text that ends the same attribute inside (a coloured id in a coloured line) opens it again after.
  const end = `\u001B[${close}m`;
  return (text) => `\u001B[${open}m${text.replaceAll(end, end + `\u001B[${open}m`)}${end}`;
}

const COLORED: Paint = {
  color: (c, text) => (c === undefined ? text : sgr(CODES[c], 39)(text)),
  bold: sgr(1, 22),
  dim: sgr(2, 22),
};

export function painter(level: ColorLevel): Paint {
  return level === 0 ? PLAIN : COLORED;
}

const SGR = /\u001B\[[0-9;]*m/g;

/** How many columns a string takes on screen, its colour codes left out. */
export function visibleLength(text: string): number {
  return text.includes('\u001B') ? text.replace(SGR, '').length : text.length;
}
