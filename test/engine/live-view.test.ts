/** The live view's components, drawn by ink-testing-library from the run's events: frames and keys. */
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { PersonAnswer, RunEvent } from '../../src/engine/events.js';
import { RunScreen } from '../../src/tui/RunScreen.js';
import { RunStore } from '../../src/tui/store.js';
import { SnapshotReader } from '../../src/console/snapshot.js';
import { Board } from '../../src/store/board.js';
import { busyBoard, RUN_ID, until } from '../console/helpers.js';
import { changeWithTasks, newBoard } from '../helpers.js';
import { BoardOps } from '../../src/engine/board-ops.js';
import { previewLines } from '../../src/render/preview.js';

const usage = (n: number, cost: number | null = null) => ({ input_tokens: n, output_tokens: 0, cached_input_tokens: 0, cost_usd: cost });
const base = { run_id: '20261122-080000000-abcd', at: '2026-11-22T08:00:00.000Z' };
const EVENTS: RunEvent[] = [
  { ...base, type: 'run.started', phase: 'proposal', change_id: 'add-search', person: 'human:ann', agents: { planner: 'claude-planner', reviewer: 'codex-reviewer', workers: ['claude-w1', 'codex-w2'] }, options: {} },
  { ...base, type: 'invocation.started', agent_id: 'claude-planner', role: 'planner', phase: 'proposal', attempt: 1, invocation: 1, task_id: null, argv: [], cwd: '/r' },
  { ...base, type: 'invocation.finished', agent_id: 'claude-planner', role: 'planner', phase: 'proposal', attempt: 1, invocation: 1, task_id: null, exit_code: 0, signal: null, timed_out: false, duration_ms: 900, usage: usage(1200, 0.01), transcript: 't', failure: null },
  { ...base, type: 'phase.validated', agent_id: 'claude-planner', role: 'planner', phase: 'proposal', attempt: 1, document: 'proposal', revision: 1 },
  { ...base, type: 'phase.validated', agent_id: 'claude-planner', role: 'planner', phase: 'spec', attempt: 2, document: 'spec', revision: 1 },
  { ...base, type: 'phase.validated', agent_id: 'claude-planner', role: 'planner', phase: 'tasks', attempt: 1, document: 'tasks', revision: 1 },
  { ...base, type: 'task.claimed', agent_id: 'claude-w1', role: 'worker', phase: 'implementation', task_id: 'add-search/T1', title: 'Index the titles', branch: 'agentboard/add-search/T1', workdir: '/w', resumed: false },
  { ...base, type: 'invocation.started', agent_id: 'claude-w1', role: 'worker', phase: 'implementation', attempt: 1, invocation: 2, task_id: 'add-search/T1', argv: [], cwd: '/w' },
  { ...base, type: 'tool.called', agent_id: 'claude-w1', role: 'worker', phase: 'implementation', attempt: 1, invocation: 2, tool: 'agentboard_report_progress', ok: true, task_id: 'add-search/T1', message: 'Index written, tests next' },
];

const tick = () => new Promise((r) => setTimeout(r, 30));

const lineWith = (frame: string, text: string) => frame.split('\n').find((l) => l.includes(text))?.trimEnd() ?? '';

function screen(events: RunEvent[] = EVENTS, onInterrupt = () => {}) {
  const store = new RunStore();
  for (const e of events) store.dispatch(e);
  const view = render(h(RunScreen, { store, onInterrupt }));
  return { store, view };
}

describe('the live view', () => {
  it('shows the phases as steps and a row per agent with its task, last word and tokens', async () => {
    const { view } = screen();
    const frame = view.lastFrame()!;
    expect(frame).toContain('agentboard run add-search (20261122-080000000-abcd)');
    expect(frame).toMatch(/✓ proposal\s+revision 1/);
    expect(frame).toMatch(/✓ spec\s+revision 1/);
    expect(frame).toMatch(/✓ tasks\s+revision 1/);
    expect(frame).toMatch(/implementation/);
    expect(frame).toMatch(/· review/);
    // The console's agents pane: with no board to read, what the run's events say of each agent.
    expect(frame).toMatch(/STATE +AGENT +TASK +LAST WORD +AGO/);
    expect(lineWith(frame, 'claude-planner')).toMatch(/· no status +claude-planner +- +turn ended/);
    expect(frame).toContain(`run ${base.run_id} · planner · between invocations · 1,200 tok`);
    expect(lineWith(frame, 'claude-w1')).toMatch(/claude-w1 +T1 Index the titles +Index written, tests next/);
    expect(frame).toMatch(new RegExp(`run ${base.run_id} · worker · invocation 2, T1, \\w+`));
    expect(lineWith(frame, 'codex-w2')).toMatch(/· no status +codex-w2 +-$/);
    expect(frame).toContain(`run ${base.run_id} · reviewer · between invocations`);
    view.unmount();
  });

  it('draws its agents as the console does, from the board: workflow state, task held, last word, seat in the run', async () => {
    const dir = await busyBoard();
    const reader = new SnapshotReader(Board.open(dir), 'add-search');
    const store = new RunStore(() => reader.read().agents);
    const started = { run_id: RUN_ID, at: new Date().toISOString() };
    store.dispatch({ ...started, type: 'run.started', phase: 'implementation', change_id: 'add-search', person: 'human:tester', agents: { planner: 'fake-planner', reviewer: 'fake-reviewer', workers: ['claude-w1'] }, options: {} });
    const view = render(h(RunScreen, { store, onInterrupt: () => {} }));
    await until('the board read', () => lineWith(view.lastFrame()!, 'claude-w1').includes('working'));
    const frame = view.lastFrame()!;
    // What the board says: claude-w1 reported working and holds T1 at 60 %; its seat is as the run's events have it.
    expect(lineWith(frame, 'claude-w1')).toMatch(/● working +claude-w1 +T1 Index the titles +Index written, tests next +(now|1m)$/);
    expect(frame).toContain(`run ${RUN_ID} · worker · between invocations`);
    expect(lineWith(frame, 'fake-planner')).toMatch(/· no status +fake-planner/);
    // Only the run's agents: the others of the board are the console's to show.
    expect(frame).not.toContain('codex-w2');
    expect(frame).not.toContain('kimi');
    view.unmount();
    store.stop();
  });

  it('asks the person in place: r, the feedback typed, Enter rejects; a approves', async () => {
    const { store, view } = screen();
    const asked: Promise<PersonAnswer> = store.ask({ subject: 'the spec of add-search', details: ['agentd/changes/add-search/spec.md · revision 1 · by claude-planner'] }, new AbortController().signal);
    await tick();
    expect(view.lastFrame()).toContain('Your decision: the spec of add-search');
    expect(view.lastFrame()).toContain('a approve · r reject with feedback · l later');
    view.stdin.write('r');
    await tick();
    expect(view.lastFrame()).toContain('What must change? (Enter sends, Esc goes back)');
    for (const ch of 'Add an error scenario') view.stdin.write(ch);
    await tick();
    expect(view.lastFrame()).toContain('› Add an error scenario');
    view.stdin.write('\r');
    expect(await asked).toEqual({ decision: 'reject', feedback: 'Add an error scenario' });
    await tick();
    expect(view.lastFrame()).not.toContain('Your decision');

    const again = store.ask({ subject: 'the spec of add-search', details: [] }, new AbortController().signal);
    await tick();
    view.stdin.write('a');
    expect(await again).toEqual({ decision: 'approve' });
    view.unmount();
  });

  it('shows the document it asks about with its indentation: the YAML of a task reads as in the file', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles', files: [{ path: 'src/index.ts', action: 'create' }] }]);
    const doc = (await new BoardOps(dir, 'human:tester').document('add-search', 'tasks'))!;
    const { store, view } = screen();
    const asked = store.ask({ subject: 'the tasks of add-search', details: previewLines(doc) }, new AbortController().signal);
    await tick();
    const frame = view.lastFrame()!;
    // Inside the box's border and padding, each line as the file has it.
    const inBox = (text: string) => lineWith(frame, text).replace(/^│ /, '').replace(/ *│$/, '');
    expect(inBox('files:')).toBe('files:');
    expect(inBox('- path: src/index.ts')).toBe('  - path: src/index.ts');
    expect(inBox('action: create')).toBe('    action: create');
    view.stdin.write('l');
    expect(await asked).toEqual({ decision: 'later' });
    view.unmount();
  });

  it('takes the question away when a person decided elsewhere', async () => {
    const { store, view } = screen();
    const elsewhere = new AbortController();
    const asked = store.ask({ subject: 'task add-search/T1', details: [] }, elsewhere.signal);
    await tick();
    expect(view.lastFrame()).toContain('Your decision: task add-search/T1');
    elsewhere.abort();
    expect(await asked).toEqual({ decision: 'later' });
    await tick();
    expect(view.lastFrame()).not.toContain('Your decision');
    view.unmount();
  });

  it('shows how the run ended and what to do next; Ctrl-C stops the run', async () => {
    let interrupted = 0;
    const { store, view } = screen(EVENTS, () => interrupted++);
    view.stdin.write('\u0003');
    await tick();
    expect(interrupted).toBe(1);
    store.dispatch({ ...base, type: 'run.finished', phase: 'done', outcome: 'finished', message: 'Change add-search is reviewed.', next_steps: ['agentboard approve add-search review', 'agentboard archive add-search'], invocations: 9, usage: usage(5000, 0.2), exit_code: 0 });
    await tick();
    const frame = view.lastFrame()!;
    expect(frame).toContain('finished: Change add-search is reviewed.');
    expect(frame).toContain('5,000 tokens · $0.2000');
    expect(frame).toContain('next: agentboard archive add-search');
    expect(frame).toMatch(/✓ review/);
    view.unmount();
  });
});
