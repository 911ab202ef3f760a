/**
 * Time, and the test hooks that may stand in for it.
 *
 * What a board writes is stamped with the board's own time: the time the file system gives the
 * lock file when a writer takes the lock (see store/lock.ts), so that a process whose clock is
 * wrong can neither stamp the future nor expire anyone's question early. This module is the
 * process's own clock, used where no board time is at hand (reads), and the one place tests
 * reach in: `test/hooks/install.mjs`, loaded with `node --import`, sets the hooks below. Nothing
 * in the environment moves the clock of an installed agentboard.
 */

export interface TestHooks {
  /** The process's clock, in ms since the epoch (a skewed process). */
  now?: () => number;
  /** The board's clock, in ms since the epoch (pins every stamp a write makes). */
  boardNow?: () => number;
  /** Called at named points of a commit; a test makes it kill the process or throw an I/O error. */
  fault?: (point: string, path?: string) => void;
  /** How old an unverifiable lock must be to count as stale (ms), so tests need not wait a minute. */
  staleMs?: number;
  /** How long an MCP server holding the lock waits for more queued calls after a commit (ms), so tests can catch it holding. */
  lingerMs?: number;
  /** Once a queued call has come, how long such a server waits for the others it expects (ms), so tests can see it gather. */
  gatherMs?: number;
  /** The longest such a server goes on carrying out queued calls (ms). */
  tenureMs?: number;
  /** How long a git that talks to a shared board's remote may take (ms), so tests need not wait a minute. */
  networkTimeoutMs?: number;
  /** How long `agentboard run` waits before trying again an agent its model's API turned away (a rate limit), in ms. */
  rateLimitWaitMs?: number;
  /** `agentboard run` does not watch its agents' calls files, as where files cannot be watched: it reads their calls when each turn ends. */
  unwatchedCalls?: boolean;
}

const HOOKS = Symbol.for('agentboard.test-hooks');

export function testHooks(): TestHooks | undefined {
  return (globalThis as Record<symbol, TestHooks | undefined>)[HOOKS];
}

export function setTestHooks(hooks: TestHooks | undefined): void {
  (globalThis as Record<symbol, TestHooks | undefined>)[HOOKS] = hooks;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (the store's waits happen inside synchronous writes). */
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** This process's clock. */
export function now(): Date {
  return new Date(testHooks()?.now?.() ?? Date.now());
}

export function nowIso(): string {
  return now().toISOString();
}

/** A named point in a commit where a test may stop the process or inject a failure. */
export function faultPoint(point: string, path?: string): void {
  testHooks()?.fault?.(point, path);
}
