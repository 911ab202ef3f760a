/**
 * Colour and emphasis for the text the CLI prints, through chalk (the library ink draws with), at
 * the level the stream gets (render/colors.ts decides it). A renderer given PLAIN prints exactly
 * what it would without any of this, as --json and pipes need.
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

export function painter(level: ColorLevel): Paint {
  if (level === 0) return PLAIN;
  // Loaded here: most commands print to pipes and files, and need not load it at all.
  const { Chalk } = require('chalk') as typeof import('chalk');
  const chalk = new Chalk({ level });
  return {
    color: (c, text) => (c === undefined ? text : chalk[c](text)),
    bold: (text) => chalk.bold(text),
    dim: (text) => chalk.dim(text),
  };
}

const SGR = /\u001B\[[0-9;]*m/g;

/** How many columns a string takes on screen, its colour codes left out. */
export function visibleLength(text: string): number {
  return text.includes('\u001B') ? text.replace(SGR, '').length : text.length;
}
