/**
 * The person's acts in the console, by keys: each one goes through the operation the CLI runs, as
 * the person at the keyboard, and the files on disk show it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setTestHooks } from '../../src/clock.js';
import { changeWithTasks, newBoard, ok, read } from '../helpers.js';
import { asAgent, busyBoard, drawConsole, type Drawn, footer, KEY, selectWaiting, until } from './helpers.js';

let dir: string;
let drawn: Drawn | null = null;
const open = (options: Parameters<typeof drawConsole>[1] = {}) => (drawn = drawConsole(dir, options));

beforeAll(async () => {
  dir = await busyBoard();
});

afterEach(() => {
  drawn?.close();
  drawn = null;
});

describe('deciding on documents', () => {
  it('a approves the selected document, as the person at the keyboard', async () => {
    const c = open();
    await selectWaiting(c, 'the proposal of add-search');
    await c.keys('a');
    await until('the result', () => footer(c).includes('✓ Approved the proposal of add-search.'));
    expect(await ok(dir, ['show', 'add-search', 'proposal'])).toMatchObject({ status: 'approved', decided_by: 'human:tester' });
    expect(c.frame()).not.toContain('◆ the proposal of add-search');
  });

  it('r asks for the feedback in place; Enter rejects with it', async () => {
    const c = open();
    await selectWaiting(c, 'the spec of add-search');
    await c.keys('r');
    expect(c.frame()).toContain('Your decision: the spec of add-search');
    expect(c.frame()).toContain('What must change? (Enter sends, Esc goes back)');
    await c.type('Add a scenario for errors');
    expect(c.frame()).toContain('› Add a scenario for errors');
    await c.keys(KEY.enter);
    await until('the result', () => footer(c).includes('✓ Rejected the spec of add-search'));
    const spec = await ok(dir, ['show', 'add-search', 'spec']);
    expect(spec).toMatchObject({ status: 'rejected', decided_by: 'human:tester' });
    expect(spec.feedback).toEqual([expect.objectContaining({ author: 'human:tester', text: 'Add a scenario for errors' })]);
  });

  it('keeps the keys typed right after r, before the prompt is up, for the feedback', async () => {
    const c = open();
    await selectWaiting(c, 'the tasks of fix-login');
    c.view.stdin.write('r');
    for (const ch of 'Quick') c.view.stdin.write(ch);
    await until('the feedback', () => c.frame().includes('› Quick'));
    await c.keys(KEY.esc, 'l');
    expect(c.frame()).not.toContain('Your decision');
    expect(await ok(dir, ['show', 'fix-login', 'tasks'])).toMatchObject({ status: 'submitted' });
  });

  it('lists in the footer only the keys the decision prompt takes, at its choices and at its feedback', async () => {
    const c = open();
    await selectWaiting(c, 'the tasks of fix-login');
    await c.keys(KEY.enter);
    expect(footer(c)).toBe('a approve · r reject · l/Esc later · Ctrl-C quit');
    await c.keys('r');
    expect(footer(c)).toBe('Enter send · Esc back · Ctrl-C quit');
    await c.keys(KEY.esc);
    expect(footer(c)).toBe('a approve · r reject · l/Esc later · Ctrl-C quit');
    await c.keys('l');
    expect(footer(c)).toContain('/ filter');
    expect(await ok(dir, ['show', 'fix-login', 'tasks'])).toMatchObject({ status: 'submitted' });
  });

  it('takes a feedback that comes in one read with r and Enter (a paste, a slow link): Enter sends it', async () => {
    const c = open();
    await selectWaiting(c, 'the review of fix-login');
    await c.keys('rSay how long a token lives\r');
    await until('the result', () => footer(c).includes('✓ Rejected the review of fix-login'));
    const review = await ok(dir, ['show', 'fix-login', 'review']);
    expect(review.feedback).toEqual([expect.objectContaining({ author: 'human:tester', text: 'Say how long a token lives' })]);
  });

  it('Enter opens the decision with its choices; l leaves it for later, changing nothing', async () => {
    const c = open();
    await selectWaiting(c, 'the tasks of add-search');
    await c.keys(KEY.enter);
    expect(c.frame()).toContain('Your decision: the tasks of add-search');
    expect(c.frame()).toContain('a approve · r reject with feedback · l later (Esc)');
    expect(c.frame()).toContain('agentd/changes/add-search/tasks.md · revision 1 · by planner');
    // The document's first lines show under its details, as the run's own prompt shows them.
    await until('the tasks\' first lines', () => c.frame().includes('# Tasks: '));
    expect(c.frame().split('\n').filter((l) => l.startsWith('│')).join('\n')).toMatch(/# Tasks: [\s\S]*## T1: /);
    await c.keys('l');
    expect(c.frame()).not.toContain('Your decision');
    expect(await ok(dir, ['show', 'add-search', 'tasks'])).toMatchObject({ status: 'submitted' });
  });

  it('Backspace takes away the last character as it is seen: an emoji whole, a letter with its accent', async () => {
    const own = await newBoard();
    await changeWithTasks(own, 'search', [{ id: 'T1', title: 'Index the titles' }]);
    const c = (drawn = drawConsole(own));
    await selectWaiting(c, 'the proposal of search');
    await c.keys('r');
    await c.type('Fix it 🚀');
    await c.keys('\u007F');
    await c.type('now, cafe\u0301');
    await c.keys('\u007F');
    await c.type('e');
    await c.keys(KEY.enter);
    await until('the rejection', () => footer(c).startsWith('✓ Rejected the proposal of search'));
    expect((await ok(own, ['show', 'search', 'proposal'])).feedback).toEqual([expect.objectContaining({ text: 'Fix it now, cafe' })]);
  });

  it('a refusal shows what happened and the next step; the file keeps the other decision', async () => {
    const c = open();
    await selectWaiting(c, 'the proposal of fix-login');
    // Someone decides from another terminal before the console has read it again.
    await ok(dir, ['reject', 'fix-login', 'proposal', '--feedback', 'Say who logs in'], { interactive: true });
    await c.keys('a');
    await until('the refusal', () => footer(c).startsWith('✗ '));
    expect(footer(c)).toMatch(/✗ .*rejected.* next: /);
    expect(await ok(dir, ['show', 'fix-login', 'proposal'])).toMatchObject({ status: 'rejected' });
  });

  it('an unexpected error says to try again, with no command to run: the person acted with a key', async () => {
    const c = open();
    const before = read(dir, 'agentd/changes/add-search/tasks.md');
    setTestHooks({
      fault: (point) => {
        if (point === 'commit:staged') throw new Error('injected failure');
      },
    });
    try {
      const result = await c.live.act({ type: 'release_task', task_id: 'add-search/T1' });
      expect(result).toMatchObject({ ok: false, code: 'INTERNAL', next_step: 'Try it again; if it fails again, report it with what you did.' });
    } finally {
      setTestHooks(undefined);
    }
    expect(read(dir, 'agentd/changes/add-search/tasks.md')).toBe(before);
  });
});

describe('deciding on tasks in review', () => {
  it('a on a card in review approves the task: it is done', async () => {
    const c = open();
    await c.keys('l', 'l', 'l');
    expect(c.frame()).toMatch(/▌ T3 add-s/);
    expect(footer(c)).toContain('a approve');
    await c.keys('a');
    await until('the result', () => footer(c).includes('✓ Approved add-search/T3: it is done.'));
    expect((await ok(dir, ['task', 'show', 'add-search/T3'])).task).toMatchObject({ status: 'done', assignee: 'codex-w2' });
    expect(c.frame()).toMatch(/DONE 1/);
  });

  it('r with typed feedback sends a task back to the pool, the feedback on it', async () => {
    // The spec a test above rejected is revised first: until then the change hands out no task.
    const revised = join(dir, 'revised-spec.md');
    writeFileSync(revised, (await ok(dir, ['show', 'add-search', 'spec'])).markdown);
    await asAgent(dir, 'planner', ['spec', 'add-search', '--from', revised, '--notes', 'Added the error scenario.']);
    await asAgent(dir, 'qwen', ['session', 'status', 'working', '--message', 'Starting']);
    await asAgent(dir, 'qwen', ['task', 'progress', 'add-search/T6', '--percent', '100', '--message', 'Ranked']);
    const summary = 'Ranking tested on the 40 notes of the fixture: exact titles first, then words of the body by frequency, ties to the newest note';
    await asAgent(dir, 'qwen', ['session', 'submit', '--summary', summary, '--task', 'add-search/T6']);
    const c = open();
    await selectWaiting(c, 'add-search/T6 in review');
    await c.keys('r');
    // What was submitted is there whole, wrapped to the prompt's width.
    const prompt = c.frame().split('\n').filter((l) => l.startsWith('│'));
    expect(prompt.map((l) => l.slice(1, -1).trim()).join(' ')).toContain(summary);
    await c.type('Test ties in the ranking');
    await c.keys(KEY.enter);
    await until('the result', () => footer(c).includes('✓ Sent add-search/T6 back to the pool with your feedback.'));
    const { task } = await ok(dir, ['task', 'show', 'add-search/T6']);
    expect(task).toMatchObject({ status: 'todo', assignee: null });
    expect(task.feedback).toEqual([expect.objectContaining({ author: 'human:tester', text: 'Test ties in the ranking' })]);
  });
});

describe('answering questions', () => {
  it('offers the options: a digit answers', async () => {
    const c = open();
    await selectWaiting(c, 'input-1 from kimi');
    await c.keys(KEY.enter);
    expect(c.frame()).toContain('kimi asks (input-1 · ');
    expect(c.frame()).toMatch(/› 1 REST.*\n.* 2 GraphQL/);
    await c.keys('2');
    await until('the result', () => footer(c).includes('✓ Answered input-1; kimi is working again.'));
    const { inputs } = await ok(dir, ['inputs', '--status', 'all']);
    expect(inputs.find((i: any) => i.input_id === 'input-1').resolution).toMatchObject({ type: 'human', value: 'GraphQL', by: 'human:tester' });
  });

  it('with ten options, a digit selects and Enter answers: 1 then 0 is the tenth, not the first', async () => {
    const own = await newBoard();
    const options = Array.from({ length: 10 }, (_, i) => ['--option', `choice ${i + 1}`]).flat();
    await asAgent(own, 'mistral', ['ask', '--question', 'Which of the ten?', ...options, '--default-action', 'choice 1']);
    const c = (drawn = drawConsole(own));
    await selectWaiting(c, 'from mistral');
    await c.keys(KEY.enter, '1', '0');
    expect(c.frame()).toContain('› 10 choice 10');
    expect(footer(c)).toContain('1-10 or ↑↓ then Enter answer');
    expect((await ok(own, ['inputs'])).inputs.map((i: any) => i.status)).toEqual(['open']);
    await c.keys(KEY.enter);
    await until('the result', () => footer(c).includes('✓ Answered input-1'));
    const { inputs } = await ok(own, ['inputs', '--status', 'all']);
    expect(inputs[0].resolution).toMatchObject({ type: 'human', value: 'choice 10', by: 'human:tester' });
  });

  it('t types an answer of the person\'s own', async () => {
    await asAgent(dir, 'gemini', ['task', 'unblock', 'add-search/T4']);
    await asAgent(dir, 'gemini', ['ask', '--question', 'Which corpus for the benchmark?', '--option', 'Wikipedia', '--default-action', 'Wikipedia']);
    const c = open();
    await selectWaiting(c, 'from gemini');
    await c.keys(KEY.enter, 't');
    await c.type('The notes of the demo board');
    expect(c.frame()).toContain('› The notes of the demo board');
    await c.keys(KEY.enter);
    await until('the result', () => footer(c).includes('✓ Answered input-2; gemini is working again.'));
    const { inputs } = await ok(dir, ['inputs', '--status', 'all']);
    expect(inputs.find((i: any) => i.input_id === 'input-2').resolution).toMatchObject({ value: 'The notes of the demo board', by: 'human:tester' });
  });

  it('shows a long question whole, wrapped to the width, with its options under it', async () => {
    const question = 'The builder reads the whole notes folder into memory; on 10,000 notes that is 3 GB and the benchmark machine has 2 GB. Stream the notes (a day more of work), or benchmark a smaller folder of 2,000 notes?';
    await asAgent(dir, 'mistral', ['ask', '--question', question, '--option', 'stream', '--option', 'smaller folder', '--default-action', 'smaller folder']);
    const c = open();
    await selectWaiting(c, 'from mistral');
    await c.keys(KEY.enter);
    const frame = c.frame();
    const prompt = frame.split('\n').filter((l) => l.startsWith('│'));
    expect(prompt.map((l) => l.slice(1, -1).trim()).join(' ')).toContain(question);
    expect(prompt.join('\n')).not.toContain('…');
    expect(frame).toMatch(/› 1 stream.*\n.* 2 smaller folder/);
    // The footer is still on the screen, under the prompt.
    expect(frame).toContain('1-2 or ↑↓ Enter answer · t type an answer · Esc back');
    // The footer lists the keys the prompt takes, not the board's: the prompt takes every key.
    expect(footer(c)).toBe('1-2 or ↑↓ Enter answer · t type · Esc back · Ctrl-C quit');
    await c.keys('t');
    expect(footer(c)).toBe('Enter send · Esc back · Ctrl-C quit');
    await c.keys(KEY.esc, KEY.esc);
    expect(footer(c)).toContain('/ filter');
  });
});

describe('releasing claims and opening files', () => {
  it('x releases a stale claim once the person says y; anything else keeps it', async () => {
    const c = open();
    await selectWaiting(c, 'add-search/T5 held by old-agent');
    await c.keys('x');
    expect(footer(c)).toContain('Release add-search/T5 from old-agent? It goes back to the pool. y yes · n no');
    await c.keys('n');
    expect((await ok(dir, ['task', 'show', 'add-search/T5'])).task.assignee).toBe('old-agent');
    await c.keys('x', 'y');
    await until('the result', () => footer(c).includes('✓ Released add-search/T5 from old-agent; it is back in the pool.'));
    expect((await ok(dir, ['task', 'show', 'add-search/T5'])).task).toMatchObject({ status: 'todo', assignee: null });
    const log = await ok(dir, ['log', '--change', 'add-search']);
    expect(log.entries[0]).toMatchObject({ actor: 'human:tester', action: 'task.release' });
  });

  it('keeps y and n in view on a narrow terminal: the question gives way to them', async () => {
    const c = open({ width: 30, height: 8 });
    // The first card in progress.
    await c.keys('l', 'x');
    expect(footer(c)).toMatch(/^Release .*… y yes · n no$/);
    await c.keys('n');
    expect(footer(c)).toContain('x release');
  });

  it('releases nothing when the claim it asks about changed hands meanwhile: the question closes, saying so, and y is taken by it', async () => {
    const own = await newBoard();
    await changeWithTasks(own, 'search', [{ id: 'T1', title: 'Index the titles' }]);
    await asAgent(own, 'codex', ['next']);
    const c = (drawn = drawConsole(own));
    await until('the claim', () => /IN PROGRESS 1/.test(c.frame()));
    await c.keys('l', 'x');
    expect(footer(c)).toContain('Release search/T1 from codex?');
    // Released from a shell, and taken by another agent, while the person reads the question.
    await ok(own, ['release', 'search/T1', '--as', 'human:tester']);
    await asAgent(own, 'gemini', ['next']);
    c.live.refresh();
    await until('the question to close', () => c.frame().includes('search/T1 is held by gemini now, not codex.'));
    await c.keys('y');
    expect((await ok(own, ['task', 'show', 'search/T1'])).task).toMatchObject({ status: 'in_progress', assignee: 'gemini' });
    await c.keys(KEY.esc);
    expect(footer(c)).toBe('✗ search/T1 is held by gemini now, not codex.');
  });

  it('o and e hand a document or a task list to $PAGER and $EDITOR', async () => {
    const c = open();
    await selectWaiting(c, 'the spec of fix-login');
    await c.keys('o');
    await c.keys('e');
    await c.keys('1', KEY.enter, 'o');
    expect(c.opened).toEqual([
      { file: 'agentd/changes/fix-login/spec.md', tool: 'pager' },
      { file: 'agentd/changes/fix-login/spec.md', tool: 'editor' },
      { file: 'agentd/changes/add-search/tasks.md', tool: 'pager' },
    ]);
  });

  it('says so when the pager cannot run', async () => {
    const c = open({ opener: async () => ({ ok: false, code: 'IO_ERROR', message: 'nope ended with 127.', next_step: 'Check $PAGER and $EDITOR, or open the file from a shell.' }) });
    await selectWaiting(c, 'the spec of fix-login');
    await c.keys('o');
    await until('the refusal', () => footer(c).includes('✗ nope ended with 127. next: Check $PAGER'));
  });
});

describe('a task list with errors', () => {
  it('waits on the person: the Changes pane and Waiting on you name its file and line, Enter shows the change, and a long refusal keeps its next step', async () => {
    const own = await newBoard();
    await changeWithTasks(own, 'search', [{ title: 'Index the titles' }, { title: 'Query the index' }]);
    const file = 'agentd/changes/search/tasks.md';
    const text = read(own, file);
    const at = text.lastIndexOf('priority: medium');
    writeFileSync(join(own, file), `${text.slice(0, at)}priority: [medium${text.slice(at + 'priority: medium'.length)}`);
    const line = text.slice(0, at).split('\n').length;
    const c = (drawn = drawConsole(own, { width: 120, height: 30 }));
    await c.keys('4');
    expect(c.frame()).toMatch(/› search +implementation +▱▱▱▱▱ 0\/1 +its task list file to be fixed: it has errors/);
    await selectWaiting(c, 'the tasks of search have errors');
    expect(c.frame()).toContain(`✗ the tasks of search have errors · ${file}:${line} · no task is handed out until it is fixed`);
    await c.keys(KEY.enter);
    expect(c.frame()).toContain(`${file}:${line}`);
    await c.keys(KEY.esc);
    // The tasks document waits on a decision too; approving it is refused, and the refusal is too long for one line.
    await selectWaiting(c, 'the tasks of search ·');
    await c.keys('a');
    await until('the refusal', () => c.frame().includes('✗ '));
    const said = c.frame().trimEnd().split('\n').slice(-4);
    expect(said[0]).toMatch(/^✗ /);
    expect(said.join('\n')).toMatch(/next: /);
    expect(said.every((l) => l.length <= 120)).toBe(true);
    expect(read(own, file)).toContain('priority: [medium');
  });
});
