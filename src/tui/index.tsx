/**
 * The entry of dist/tui.mjs, the ES module bundle of what ink draws (see src/cli/tui.ts for why it
 * is apart): the live view of `agentboard run`, handed to the engine as a RunView, and the console
 * of `agentboard board`, handed a ConsoleSource.
 */
import { render } from 'ink';
import type { AgentCard } from '../console/cards.js';
import type { ConsoleSource } from '../console/source.js';
import type { RunView } from '../engine/events.js';
import { ConsoleApp } from './console/ConsoleApp.js';
import { ScreenControl } from './console/screen.js';
import { PASTE_MODE } from './keys.js';
import { RunScreen } from './RunScreen.js';
import { RunStore } from './store.js';

export { DecisionPrompt } from './DecisionPrompt.js';
export { PhaseSteps } from './PhaseSteps.js';
export { RunScreen } from './RunScreen.js';
export { Spinner } from './Spinner.js';
export { RunStore } from './store.js';
export { initialState, reduce, runCards } from './run-state.js';

/**
 * The terminal as ink writes to it, noting whether what it wrote last left a line open: a frame as
 * tall as the terminal is written without its last newline, and the shell's prompt would follow it
 * on the same line.
 */
function endTracked(stdout: NodeJS.WriteStream): { stream: NodeJS.WriteStream; lineOpen: () => boolean } {
  let open = false;
  const write = (chunk: unknown, ...rest: unknown[]) => {
    const text = (typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '').replace(/(?:\u001B\[[0-9;?]*[A-Za-z])+$/, '');
    if (text !== '') open = !text.endsWith('\n');
    return (stdout.write as (...args: unknown[]) => boolean).call(stdout, chunk, ...rest);
  };
  const stream = new Proxy(stdout, {
    get: (target, key) => {
      if (key === 'write') return write;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { stream, lineOpen: () => open };
}

/** `agents`: the board's agents as the console reads them, for the agents pane. */
export function startRunView(options: { onInterrupt: () => void; agents?: () => AgentCard[]; stdout?: NodeJS.WriteStream; stdin?: NodeJS.ReadStream }): RunView {
  const store = new RunStore(options.agents);
  const stdout = options.stdout ?? process.stdout;
  const tracked = endTracked(stdout);
  const app = render(<RunScreen store={store} onInterrupt={options.onInterrupt} />, {
    stdout: tracked.stream,
    stdin: options.stdin ?? process.stdin,
    // Ctrl-C is the run's to handle: it stops the agents and releases the claims first.
    exitOnCtrlC: false,
    patchConsole: false,
  });
  let closed = false;
  return {
    show: store.dispatch,
    ask: store.ask,
    close: async () => {
      if (closed) return;
      closed = true;
      store.stop();
      // Let the last events reach the screen, then give the terminal back with the last frame on it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      app.unmount();
      if (tracked.lineOpen()) stdout.write('\n');
    },
  };
}

// ---- the console (`agentboard board`) -------------------------------------------------------------

export { ConsoleApp } from './console/ConsoleApp.js';

/** What the console command holds of the screen: when the person quits, and lending the terminal to a pager or an editor. */
export interface ConsoleHandle {
  /** Settles when the person quits. */
  done: Promise<void>;
  /** Gives the terminal up: the screen stops drawing and reading keys, and the terminal's own screen is back. */
  lend(what: string): Promise<void>;
  /** Takes the terminal back and draws the whole screen again. */
  takeBack(): void;
  close(): void;
}

const ALT_SCREEN = '\u001B[?1049h\u001B[2J\u001B[H';
const MAIN_SCREEN = '\u001B[?1049l';
const SHOW_CURSOR = '\u001B[?25h';
const HIDE_CURSOR = '\u001B[?25l';

/** `plain`: the terminal shows no colour (NO_COLOR, TERM=dumb), nor inverse or bold: what they mark is marked with text. */
export function startConsole(options: { source: ConsoleSource; plain?: boolean; stdout?: NodeJS.WriteStream; stdin?: NodeJS.ReadStream }): ConsoleHandle {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const screen = new ScreenControl();
  let quit: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (quit = resolve));
  // The console takes the terminal's alternate screen, as full-screen programs do, and gives the person's screen back on exit.
  stdout.write(ALT_SCREEN + PASTE_MODE.on);
  const restore = () => stdout.write(PASTE_MODE.off + SHOW_CURSOR + MAIN_SCREEN);
  process.once('exit', restore);
  /** The terminal's own screen back: the console stops drawing and reading keys. */
  const leaveScreen = async () => {
    screen.set(true);
    // ink draws at most every 33 ms: let the last frame out before the terminal changes hands.
    await new Promise((resolve) => setTimeout(resolve, 50));
    restore();
  };
  const lend = async () => {
    await leaveScreen();
    // ink has stopped listening; stop reading too, or a read left pending takes the pager's keys
    // and, once the pager leaves the terminal blocking, holds up the whole process.
    stdin.pause();
  };
  const takeBack = () => {
    // The cursor hidden again, as ink hid it when it first drew: it would blink wherever the last frame ended.
    stdout.write(ALT_SCREEN + PASTE_MODE.on + HIDE_CURSOR);
    screen.set(false);
  };
  // Ctrl-Z, which the terminal sends as a key while the console reads keys: the shell's screen back
  // and the program stopped (its whole process group, as the shell stops it), until `fg`. Reading is
  // not paused as for a pager: a stopped process reads nothing, and one whose reading was paused has
  // nothing left to keep it running once it goes on. Where nothing stops programs (no job control),
  // the signal is dropped and the console is back at once.
  const suspend = async () => {
    await leaveScreen();
    process.kill(0, 'SIGTSTP');
    takeBack();
  };
  const app = render(<ConsoleApp source={options.source} screen={screen} plain={options.plain} onQuit={() => quit()} onSuspend={() => void suspend()} />, {
    stdout,
    stdin,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  let closed = false;
  return {
    done,
    lend,
    takeBack,
    close: () => {
      if (closed) return;
      closed = true;
      app.unmount();
      restore();
      process.off('exit', restore);
    },
  };
}
