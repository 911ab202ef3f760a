/**
 * Holds the live view's state: events go in, components subscribe, the person's answer comes out.
 * The board's agents are read by `agents` (the console's reading of the board), again after events
 * and when the screen's clock moves, at most every READ_MS.
 */
import type { AgentCard } from '../console/cards.js';
import type { PersonAnswer, PersonQuestion, RunEvent } from '../engine/events.js';
import { initialState, reduce, type RunViewState } from './run-state.js';

/** Events come in bursts (an agent's tool calls): the board is read once for a burst. */
const READ_MS = 250;

export class RunStore {
  private state: RunViewState = initialState();
  private readonly listeners = new Set<() => void>();
  private pending: ((answer: PersonAnswer) => void) | null = null;
  private reading: ReturnType<typeof setTimeout> | null = null;
  private lastRead = 0;
  private stopped = false;

  constructor(private readonly agents?: () => AgentCard[]) {}

  get = (): RunViewState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(state: RunViewState): void {
    this.state = state;
    for (const l of this.listeners) l();
  }

  dispatch = (event: RunEvent): void => {
    this.set(reduce(this.state, event));
    this.refresh();
  };

  /** Reads the board's agents again soon (once for a burst of calls); a read that fails keeps the last one. */
  refresh = (): void => {
    if (!this.agents || this.reading || this.stopped) return;
    this.reading = setTimeout(
      () => {
        this.reading = null;
        this.lastRead = Date.now();
        let board: AgentCard[];
        try {
          board = this.agents!();
        } catch {
          return;
        }
        this.set({ ...this.state, board });
      },
      Math.max(0, this.lastRead + READ_MS - Date.now()),
    );
    this.reading.unref?.();
  };

  /** No more reads of the board (the view is closing). */
  stop = (): void => {
    this.stopped = true;
    if (this.reading) clearTimeout(this.reading);
    this.reading = null;
  };

  /** Shows the question until the person answers, or until `signal` aborts (decided elsewhere): then "later". */
  ask = (question: PersonQuestion, signal: AbortSignal): Promise<PersonAnswer> =>
    new Promise((resolve) => {
      const settle = (answer: PersonAnswer) => {
        signal.removeEventListener('abort', onAbort);
        this.pending = null;
        this.set({ ...this.state, question: null });
        resolve(answer);
      };
      const onAbort = () => settle({ decision: 'later' });
      if (signal.aborted) return resolve({ decision: 'later' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending = settle;
      this.set({ ...this.state, question });
    });

  answer = (answer: PersonAnswer): void => this.pending?.(answer);
}
