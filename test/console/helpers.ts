/** A board in mid-flight for the console's tests, and the console drawn on it by ink-testing-library. */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { expect } from 'vitest';
import { LiveBoard, type Opener } from '../../src/console/live.js';
import { createContext } from '../../src/ops/registry.js';
import { ConsoleApp } from '../../src/tui/console/ConsoleApp.js';
import { ScreenControl } from '../../src/tui/console/screen.js';
import { changeWithTasks, newBoard, ok, write } from '../helpers.js';

export const RUN_ID = '20261122-080000000-abcd';

/** `agentboard <args> --as <agent>`, as the agent would run it. */
export async function asAgent(dir: string, agent: string, args: string[], env: Record<string, string> = {}): Promise<any> {
  return ok(dir, [...args, '--as', agent], { env });
}

/**
 * Two changes. add-search is being worked: T1 in progress at 60 % (claude-w1, in a running
 * `agentboard run`), T2 waiting on T1, T3 in review (codex-w2), T4 blocked with a high blocker
 * (gemini), T5 held by old-agent with no sign of life for five hours, T6 to do. kimi asks a question.
 * fix-login has its proposal, spec and tasks submitted (waiting for a decision) and a NEEDS_FIX review;
 * old-theme is archived.
 */
export async function busyBoard(): Promise<string> {
  const dir = await newBoard();
  await changeWithTasks(dir, 'add-search', [
    { id: 'T1', title: 'Index the titles', priority: 'high' },
    { id: 'T2', title: 'Search command', depends: ['T1'] },
    { id: 'T3', title: 'Docs for search', priority: 'low' },
    { id: 'T4', title: 'Benchmark the index' },
    { id: 'T5', title: 'Fold accents' },
    { id: 'T6', title: 'Ranking tests', priority: 'urgent' },
  ]);
  for (const agent of ['claude-w1', 'codex-w2', 'gemini', 'kimi']) await asAgent(dir, agent, ['session', 'status', 'working', '--message', 'Starting']);
  await asAgent(dir, 'claude-w1', ['task', 'progress', 'add-search/T1', '--percent', '60', '--message', 'Index written, tests next']);
  await asAgent(dir, 'codex-w2', ['task', 'progress', 'add-search/T3', '--percent', '100', '--message', 'Docs written']);
  await asAgent(dir, 'codex-w2', ['session', 'submit', '--summary', 'Docs written and linked', '--task', 'add-search/T3']);
  await asAgent(dir, 'gemini', ['task', 'block', 'add-search/T4', '--reason', 'No test data', '--severity', 'high']);
  const fiveHoursAgo = new Date(Date.now() - 5 * 3_600_000).toISOString();
  await asAgent(dir, 'old-agent', ['task', 'progress', 'add-search/T5', '--percent', '10', '--message', 'Looking at accents'], { AGENTBOARD_TEST_NOW: fiveHoursAgo });
  await asAgent(dir, 'kimi', ['ask', '--question', 'REST or GraphQL for the public API?', '--option', 'REST', '--option', 'GraphQL', '--default-action', 'REST']);

  await changeWithTasks(dir, 'fix-login', [{ id: 'T1', title: 'Reset tokens expire' }], 'login-planner');
  const review = { summary: 'The reset flow works; two gaps remain.', issues: [
    { title: 'Tokens never expire', severity: 'High', description: 'Add an expiry and a test for it.' },
    { title: 'Error text is vague', severity: 'Low', description: 'Say which field was wrong.' },
  ], notes: 'No additional notes.' };
  await asAgent(dir, 'codex-reviewer', ['review', 'fix-login', '--verdict', 'NEEDS_FIX', '--input', write(dir, 'review.json', JSON.stringify(review))]);

  // old-theme is archived: read-only, and not among the changes the console follows.
  await changeWithTasks(dir, 'old-theme', [{ id: 'T1', title: 'Dark theme' }], 'theme-planner');
  mkdirSync(join(dir, 'agentd', 'archive'), { recursive: true });
  renameSync(join(dir, 'agentd', 'changes', 'old-theme'), join(dir, 'agentd', 'archive', '2026-10-01-old-theme'));

  // claude-w1 works for a running `agentboard run` (this process stands for it), in its third invocation.
  const run = join(dir, 'agentd', '.runtime', 'runs', RUN_ID);
  mkdirSync(run, { recursive: true });
  const usage = { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cost_usd: null };
  writeFileSync(join(run, 'run.json'), JSON.stringify({ run_id: RUN_ID, change_id: 'add-search', person: 'human:tester', pid: process.pid, host: hostname(), started_at: new Date().toISOString(), ended_at: null, outcome: null, message: null, goal: null, phase: 'implementation', agents: { planner: 'fake-planner', reviewer: 'fake-reviewer', workers: ['claude-w1'] }, options: {}, claims: ['add-search/T1'], invocations: 3, usage }));
  writeFileSync(join(run, '003.json'), JSON.stringify({ n: 3, agent_id: 'claude-w1', role: 'worker', phase: 'implementation', task_id: 'add-search/T1', attempt: 1, argv: [], cwd: dir, pid: process.pid, started_at: new Date().toISOString(), ended_at: null, exit_code: null, signal: null, timed_out: false, duration_ms: null, usage, transcript: '', prompt_file: '', mcp_config: '', calls_file: '' }));
  return dir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const turn = () => new Promise((r) => setImmediate(r));

/** Waits for a condition with a bound (never a sleep that asserts). */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
}

/** Turns of the event loop in a row with the frame unchanged that say a key has been dealt with. */
const STILL_TURNS = 5;

/**
 * Waits until the console has dealt with the keys sent so far. ink takes a lone Esc on a later turn
 * of the event loop, and React runs the effects of what a key drew (among them, the subscriptions
 * of the handlers of the next keys) on later turns too, one or a few at a time. The frame unchanged
 * over STILL_TURNS turns in a row is taken for done: turns, not milliseconds, so that a loaded
 * machine is waited for as long as it takes. What a key starts of its own (reading a file, an act)
 * is waited for with until(); the bound fails only a console that never stops drawing.
 */
async function settle(frame: () => string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  let last = frame();
  for (let still = 0; still < STILL_TURNS; ) {
    await turn();
    const now = frame();
    still = now === last ? still + 1 : 0;
    last = now;
    if (Date.now() > end) throw new Error('gave up waiting for the console to be done with the keys');
  }
}

export interface Drawn {
  live: LiveBoard;
  frame: () => string;
  /** Sends keys one by one, each once the console has dealt with the one before. */
  keys: (...keys: string[]) => Promise<void>;
  type: (text: string) => Promise<void>;
  quits: () => number;
  /** Draws it again at another size, as a terminal resized. */
  resize: (width: number, height: number) => void;
  opened: { file: string; tool: string }[];
  view: ReturnType<typeof render>;
  close: () => void;
}

export const KEY = { enter: '\r', esc: '\u001B', tab: '\t', shiftTab: '\u001B[Z', up: '\u001B[A', down: '\u001B[B', right: '\u001B[C', left: '\u001B[D', pageUp: '\u001B[5~', pageDown: '\u001B[6~', ctrlC: '\u0003' };

/** The console on `dir` as the person human:tester, drawn at 80×24 unless told otherwise. */
export function drawConsole(dir: string, options: { scope?: string; width?: number; height?: number; opener?: Opener } = {}): Drawn {
  const live = new LiveBoard(createContext(dir, dir), 'human:tester', options.scope ?? null);
  const opened: { file: string; tool: string }[] = [];
  live.opener = options.opener ?? (async (file, tool) => (opened.push({ file, tool }), { ok: true, message: '' }));
  let quits = 0;
  const app = (width: number, height: number) => h(ConsoleApp, { source: live, screen, onQuit: () => quits++, width, height });
  const screen = new ScreenControl();
  const view = render(app(options.width ?? 80, options.height ?? 24));
  const frame = () => view.lastFrame() ?? '';
  const keys = async (...ks: string[]) => {
    for (const k of ks) {
      view.stdin.write(k);
      await settle(frame);
    }
  };
  return {
    live,
    frame,
    keys,
    type: async (text) => {
      for (const ch of text) view.stdin.write(ch);
      await settle(frame);
    },
    quits: () => quits,
    resize: (width, height) => view.rerender(app(width, height)),
    opened,
    view,
    close: () => {
      live.stop();
      view.unmount();
    },
  };
}

/** The footer: its last line, or a result there whole, its lines joined (a long one takes up to four). */
export function footer(c: Drawn): string {
  const lines = c.frame().trimEnd().split('\n');
  const start = lines.findLastIndex((l, i) => i >= lines.length - 4 && /^[✓✗] /.test(l));
  return start === -1 ? lines.at(-1)! : lines.slice(start).join(' ');
}

/** Moves the Waiting cursor to the item whose first line contains `text`. */
export async function selectWaiting(c: Drawn, text: string): Promise<void> {
  await c.keys('3', 'g');
  for (let i = 0; i < 20 && !c.frame().split('\n').some((l) => l.startsWith('› ') && l.includes(text)); i++) await c.keys('j');
  expect(c.frame().split('\n').find((l) => l.startsWith('› '))).toContain(text);
}
