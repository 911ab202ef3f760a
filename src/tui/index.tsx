/**
 * The entry of dist/tui.mjs, the live view's own ES module bundle (see src/engine/command.ts for
 * why it is apart): renders the run with ink and hands the engine a RunView.
 */
import { render } from 'ink';
import type { RunView } from '../engine/events.js';
import { RunScreen } from './RunScreen.js';
import { RunStore } from './store.js';

export { AgentRows } from './AgentRows.js';
export { DecisionPrompt } from './DecisionPrompt.js';
export { PhaseSteps } from './PhaseSteps.js';
export { RunScreen } from './RunScreen.js';
export { Spinner } from './Spinner.js';
export { RunStore } from './store.js';
export { initialState, reduce } from './run-state.js';

export function startRunView(options: { onInterrupt: () => void; stdout?: NodeJS.WriteStream; stdin?: NodeJS.ReadStream }): RunView {
  const store = new RunStore();
  const app = render(<RunScreen store={store} onInterrupt={options.onInterrupt} />, {
    stdout: options.stdout ?? process.stdout,
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
      // Let the last events reach the screen, then give the terminal back with the last frame on it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      app.unmount();
    },
  };
}
