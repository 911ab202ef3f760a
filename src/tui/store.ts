/** Holds the live view's state: events go in, components subscribe, the person's answer comes out. */
import type { PersonAnswer, PersonQuestion, RunEvent } from '../engine/events.js';
import { initialState, reduce, type RunViewState } from './run-state.js';

export class RunStore {
  private state: RunViewState = initialState();
  private readonly listeners = new Set<() => void>();
  private pending: ((answer: PersonAnswer) => void) | null = null;

  get = (): RunViewState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(state: RunViewState): void {
    this.state = state;
    for (const l of this.listeners) l();
  }

  dispatch = (event: RunEvent): void => this.set(reduce(this.state, event));

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
