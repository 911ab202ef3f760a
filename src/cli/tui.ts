/**
 * What ink draws (the live view of `run`, the console of `board`) is its own bundle, dist/tui.mjs,
 * with ink and React in it: ink is an ES module, and the CLI bundle runs inside vm.Script, which
 * cannot import() one. bin/agentboard.js (an ES module) hands the CLI its import(), and only the
 * commands that draw on a terminal use it, so no other command pays for loading ink.
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** How the ES module parts are loaded; given by bin/agentboard.js. */
export type ImportModule = (specifier: string) => Promise<unknown>;

/** The real path of bin/agentboard.js (through `npm link`'s symlink). */
export function agentboardBin(): string {
  return realpathSync(process.argv[1]!);
}

/**
 * Loads dist/tui.mjs. ink colours through chalk, which decides its colour level once, when it is
 * loaded, from FORCE_COLOR (it does not read NO_COLOR): without colour, FORCE_COLOR=0 is set for
 * the load only, so nothing else (an agent's process, a person's editor) inherits it.
 */
export async function importTui(importModule: ImportModule, colors: boolean): Promise<typeof import('../tui/index.js')> {
  const url = pathToFileURL(join(dirname(agentboardBin()), '..', 'dist', 'tui.mjs')).href;
  const before = process.env.FORCE_COLOR;
  if (!colors) process.env.FORCE_COLOR = '0';
  try {
    return (await importModule(url)) as typeof import('../tui/index.js');
  } finally {
    if (before === undefined) delete process.env.FORCE_COLOR;
    else process.env.FORCE_COLOR = before;
  }
}
