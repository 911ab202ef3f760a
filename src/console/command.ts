/**
 * `agentboard board [change_id]`: the console on a terminal. It checks there is a terminal and a
 * person, reads the board, starts the screen (the ink bundle) and the file watcher, lends the
 * terminal to $PAGER or $EDITOR when asked, and gives the terminal back when the person quits.
 */
import { join } from 'node:path';
import { refTo } from '../domain/refs.js';
import { fail } from '../errors.js';
import { findOperation } from '../ops/index.js';
import { execute } from '../ops/execute.js';
import { createContext } from '../ops/registry.js';
import { currentPerson } from '../cli/person.js';
import { importTui, type ImportModule } from '../cli/tui.js';
import type { Io } from '../cli/main.js';
import { colorLevel } from '../render/colors.js';
import { LiveBoard } from './live.js';
import type { ActionResult } from './source.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function boardCommand(io: Io, importModule: ImportModule | undefined, changeId: string | undefined, globals: { root?: string; json?: boolean; as?: string }): Promise<number> {
  if (globals.json) fail('USAGE', '`agentboard board` is a screen for people; it has no --json.', `Run ${refTo('board.status')} with --json for the board as JSON.`);
  const ctx = createContext(globals.root, io.cwd);
  // Through the operation, so that a change id is checked as every command checks it.
  if (changeId !== undefined) {
    const { archived } = (await execute(findOperation('change.show')!, ctx, { change_id: changeId })) as { archived: string | null };
    if (archived) fail('CHANGE_ARCHIVED', `Change ${changeId} is archived (${archived}): it no longer changes, and the console follows open changes.`, `Read it with ${refTo('change.show', { change_id: changeId })}.`);
  }
  if (!process.stdout.isTTY || !process.stdin.isTTY || importModule === undefined) {
    fail('USAGE', '`agentboard board` needs a terminal, and its output is not one.', `Run ${refTo('board.status')} for the board as text (with --json, as JSON).`);
  }
  // Keys typed while the console starts are kept for it as it reads them: the terminal in raw mode
  // from here, not holding them for its own line editing (which echoes them and makes Enter a line
  // feed). The screen leaves raw mode when it closes; a start that fails, here.
  process.stdin.setRawMode(true);
  const start = async () => {
    const root = ctx.board().root;
    // The person at this terminal, checked once: every act of the console is theirs.
    const person = currentPerson(globals.as, 'Using the console', io, root);
    const live = new LiveBoard(ctx, person, changeId ?? null);
    const colors = colorLevel(io.env, true) > 0;
    const tui = await importTui(importModule, colors);
    return { root, live, screen: tui.startConsole({ source: live, plain: !colors }) };
  };
  const { root, live, screen } = await start().catch((e: unknown) => {
    process.stdin.setRawMode(false);
    throw e;
  });
  // While the pager or the editor has the terminal, the Ctrl-C and Ctrl-\ typed there are theirs:
  // the console neither quits nor dies under them, leaving the program running on the shell's screen.
  let lent = false;
  const ignore = () => undefined;
  live.opener = async (file, tool) => {
    const command = tool === 'pager' ? io.env.PAGER || 'less' : io.env.VISUAL || io.env.EDITOR || 'vi';
    await screen.lend(command);
    lent = true;
    process.on('SIGQUIT', ignore);
    try {
      return await runOnTerminal(command, join(root, file));
    } finally {
      lent = false;
      process.off('SIGQUIT', ignore);
      screen.takeBack();
    }
  };
  live.start();
  // q and Ctrl-C end it from the screen; a signal from outside ends it the same way, the terminal restored.
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const signalled = new Promise<void>((resolve) => (onSignal = (signal) => (lent && signal === 'SIGINT' ? undefined : resolve())));
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    await Promise.race([screen.done, signalled]);
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    live.stop();
    screen.close();
  }
  return 0;
}

/** Runs the person's pager or editor (a shell command, as git runs them) on a file, on the terminal. */
async function runOnTerminal(command: string, path: string): Promise<ActionResult> {
  const { execa } = await import('execa');
  // The path goes in as an argument of the shell, never into the command's text. The shell outlives
  // a Ctrl-C or Ctrl-\ typed in the program (its own traps are not passed on to it): it would
  // otherwise end at once and give the console the terminal while the program still runs there.
  const r = await execa('sh', ['-c', `trap : INT QUIT; ${command} "$1"`, 'sh', path], { stdio: 'inherit', reject: false });
  if (r.exitCode === 0) return { ok: true, message: '' };
  return { ok: false, code: 'IO_ERROR', message: `${command} ended with ${r.exitCode ?? r.signal}.`, next_step: 'Check $PAGER and $EDITOR, or open the file from a shell.' };
}
