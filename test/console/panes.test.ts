/** The console's panes, drawn by ink-testing-library on a board in mid-flight: frames asserted, keys sent. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeWithTasks, newBoard, ok } from '../helpers.js';
import { asAgent, busyBoard, drawConsole, KEY, RUN_ID, selectWaiting, until, type Drawn } from './helpers.js';

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

/** The lines of a frame, so that a line's content can be asserted as a whole. */
const lines = (frame: string) => frame.split('\n');
const lineWith = (frame: string, text: string) => lines(frame).find((l) => l.includes(text)) ?? '';

describe('the board pane', () => {
  it('shows the tasks in columns by state, each card with its id, title, holder, progress and claim age', async () => {
    const c = open();
    const frame = c.frame();
    expect(lines(frame)[0]).toMatch(/^agentboard .* · all changes +0\/7 done · 2 working/);
    expect(frame).toMatch(/TODO 3 +IN PROGRESS 2 +BLOCKED 1 +IN REVIEW 1 +DONE 0/);
    // Board-wide, a card names its change; in progress, a bar of its progress and who holds it for how long.
    expect(frame).toContain('T2 add-search');
    expect(lineWith(frame, 'Index the ti')).toBeTruthy();
    expect(frame).toMatch(/▰▰▱ claude-w1/);
    // How long a claim has been held is at the right of the card's first line, even at 80 columns.
    expect(lineWith(frame, 'T1 add-s')).toMatch(/│ T1 add-s… +(now|1m) │/);
    expect(frame).toMatch(/● high gemini/);
    expect(frame).toContain('urgent · rea');
    expect(frame).toMatch(/medium · aft/);
    // The claim nobody has touched for five hours is marked stale.
    expect(frame).toMatch(/⚠ stale old-/);
    expect(lineWith(frame, 'T5 add-s')).toMatch(/│ T5 add-se… +5h$/);
    // The cursor starts on the first card of the first column.
    expect(lines(frame)[3]).toMatch(/^▌ T2 add-search/);
  });

  it('moves between columns and cards with the arrows and hjkl, and opens a task in full with Enter', async () => {
    const c = open();
    await c.keys('l');
    expect(lineWith(c.frame(), 'T1 add-s')).toMatch(/▌ T1 add-s/);
    await c.keys('j');
    expect(c.frame()).toMatch(/▌ T5 add-s/);
    expect(c.frame()).toMatch(/│ T1 add-s/);
    await c.keys(KEY.up, KEY.right);
    expect(c.frame()).toMatch(/▌ T4 add-s/);
    await c.keys(KEY.enter);
    await until('the task to be read', () => c.frame().includes('blocked (high) by gemini: No test data'));
    const frame = c.frame();
    expect(frame).toContain('add-search/T4 [blocked] Benchmark the index');
    expect(frame).toContain('held by gemini');
    expect(frame).toContain('x release');
    await c.keys(KEY.esc);
    expect(c.frame()).toMatch(/TODO 3 +IN PROGRESS 2/);
    await c.keys('h', KEY.enter);
    await until('T1 in full', () => c.frame().includes('progress: Index written, tests next'));
    expect(c.frame()).toContain('add-search/T1 [in progress] Index the titles');
    expect(c.frame()).toMatch(/60%/);
  });

  it('shows the agents and what waits on the person under the columns when the terminal has room', async () => {
    const c = open({ width: 120, height: 34 });
    const frame = c.frame();
    const columns = lines(frame).findIndex((l) => l.startsWith('TODO 3'));
    const agents = lines(frame).findIndex((l) => /STATE +AGENT/.test(l));
    expect(agents).toBeGreaterThan(columns + 3);
    expect(lines(frame)[agents]).toMatch(/STATE +AGENT .* 11 waiting on you/);
    expect(frame).toMatch(/● working +claude-w1 .* \? input-1 from kimi/);
    // At 80×24 there is no room: the columns alone.
    const small = drawConsole(dir);
    try {
      expect(small.frame()).not.toContain('STATE');
    } finally {
      small.close();
    }
  });

  it('follows one change when given one: cards without the change id, and a Change pane with its detail', async () => {
    const c = open({ scope: 'fix-login' });
    expect(lines(c.frame())[0]).toMatch(/· fix-login +0\/1 done/);
    expect(c.frame()).toMatch(/TODO 1 +IN PROGRESS 0/);
    expect(lineWith(c.frame(), '▌ T1')).toMatch(/^▌ T1 +–/);
    expect(c.frame()).not.toContain('add-search');
    expect(lines(c.frame())[1]).toMatch(/3 Waiting on you \(5\) +4 Change$/);
    await c.keys('4');
    await until('the review', () => c.frame().includes('Review round 1: NEEDS_FIX'));
    expect(c.frame()).toContain('fix-login');
  });

  it('says the change it follows is no longer open once it is gone, not that the board has no change yet', async () => {
    const own = await newBoard();
    await changeWithTasks(own, 'alpha', [{ id: 'T1', title: 'One' }]);
    const c = (drawn = drawConsole(own, { scope: 'alpha' }));
    renameSync(join(own, 'agentd', 'changes', 'alpha'), join(own, 'alpha-away'));
    c.live.refresh();
    await c.keys('4');
    await until('the change gone', () => c.frame().includes('alpha is no longer an open change.'));
    expect(c.frame()).not.toContain('No changes yet');
  });

  it('scrolls the Change pane of a console that follows one change with the keys that move, as a change opened in full', async () => {
    const c = open({ scope: 'fix-login', height: 14 });
    await c.keys('4');
    expect(c.frame()).toContain('DOCUMENT  STATUS');
    expect(c.frame()).not.toContain('Review round 1: NEEDS_FIX');
    await c.keys('G');
    await until('the review', () => c.frame().includes('Review round 1: NEEDS_FIX'));
    expect(c.frame()).not.toContain('DOCUMENT  STATUS');
    await c.keys('g');
    expect(c.frame()).toContain('DOCUMENT  STATUS');
  });
});

describe('the agents pane', () => {
  it('shows each agent with its workflow state, its task, its last word and how long ago; run agents with their invocation', async () => {
    const c = open();
    await c.keys('2');
    const frame = c.frame();
    expect(frame).toMatch(/STATE +AGENT +TASK +LAST WORD/);
    expect(lineWith(frame, 'claude-w1')).toMatch(/● working +claude-w1 +T1 Index the titles +Index written, test… +(now|1m)$/);
    expect(frame).toMatch(new RegExp(`run ${RUN_ID} · worker · invocation 3, T1, (now|1m)`));
    expect(lineWith(frame, 'codex-w2')).toMatch(/◇ awaiting rev… codex-w2 +1 in review +Docs written and li/);
    expect(lineWith(frame, 'kimi')).toMatch(/\? awaiting inp… kimi/);
    expect(lineWith(frame, 'gemini')).toMatch(/T4 Benchmark the/);
    expect(lineWith(frame, 'old-agent')).toMatch(/T5 Fold accents +Looking at accents +5h/);
    expect(lineWith(frame, 'fake-planner')).toContain('no status');
    expect(frame).toContain(`run ${RUN_ID} · planner · between invocations`);
  });

  it('counts a run\'s agent as working while one of its invocations runs, not between them', async () => {
    const own = await newBoard();
    await changeWithTasks(own, 'solo', [{ title: 'Only' }]);
    const run = join(own, 'agentd', '.runtime', 'runs', RUN_ID);
    mkdirSync(run, { recursive: true });
    const usage = { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cost_usd: null };
    writeFileSync(join(run, 'run.json'), JSON.stringify({ run_id: RUN_ID, change_id: 'solo', person: 'human:tester', pid: process.pid, host: hostname(), started_at: new Date().toISOString(), ended_at: null, outcome: null, message: null, goal: null, phase: 'implementation', agents: { planner: 'fake-planner', reviewer: 'fake-reviewer', workers: ['fake-w1'] }, options: {}, claims: [], invocations: 2, usage }));
    // fake-w1 said it works, and its turn ended: between invocations it is idle.
    await asAgent(own, 'fake-w1', ['session', 'status', 'working', '--message', 'Done with my turn']);
    const c = (drawn = drawConsole(own));
    expect(lines(c.frame())[0]).toMatch(/ · 0 working\b/);
  });

  it('opens the task an agent holds', async () => {
    const c = open();
    await c.keys('2', KEY.enter);
    await until('the task', () => c.frame().includes('add-search/T1 [in progress]'));
  });
});

describe('the waiting-on-you pane', () => {
  it('lists questions with their countdown and default, documents to decide, tasks in review, blocked tasks with severity, stale claims', async () => {
    const c = open({ height: 40 });
    await c.keys('3');
    const frame = c.frame();
    expect(lines(frame)[1]).toContain('3 Waiting on you (11)');
    expect(frame).toMatch(/› \? input-1 from kimi · 30m left · then: REST/);
    expect(frame).toContain('REST or GraphQL for the public API?');
    expect(frame).toContain('◆ the spec of add-search · revision 1 · by planner');
    expect(frame).toContain('◆ the review of fix-login · revision 1 · by codex-reviewer');
    expect(frame).toContain('◇ add-search/T3 in review · by codex-w2');
    expect(frame).toContain('Docs for search — Docs written and linked');
    expect(frame).toContain('■ add-search/T4 blocked (high) · held by gemini');
    expect(frame).toContain('gemini: No test data');
    expect(frame).toMatch(/⚠ add-search\/T5 held by old-agent · no sign of life for 30\d min/);
    // The footer offers what can be done with the selection.
    expect(lines(frame).at(-1)).toContain('Enter answer');
    await c.keys('j');
    // At 80 columns the hints are more than fit: the last ones are left out whole, `? help` kept (it lists every key).
    expect(lines(c.frame()).at(-1)).toBe('Enter decide · a approve · r reject · o read · e edit · / filter · ? help');
    await c.keys('G');
    expect(lines(c.frame()).at(-1)).toMatch(/x release · Enter open · o read · e edit/);
  });

  it('pages through a list longer than the screen, the view always full', async () => {
    const c = open();
    await c.keys('3');
    expect(c.frame()).toContain('11 waiting on you · 1-9 shown');
    expect(c.frame()).not.toContain('add-search/T5 held by old-agent');
    // A page down moves the cursor by the nine items shown; the view ends with the last item.
    await c.keys(KEY.pageDown);
    expect(c.frame()).toContain('11 waiting on you · 3-11 shown');
    expect(c.frame()).toContain('› ■ add-search/T4 blocked');
    expect(c.frame()).toContain('add-search/T5 held by old-agent');
    // G: the last item at the bottom, the view full; the cursor moves up in it without moving it.
    await c.keys('g', 'G');
    expect(c.frame()).toContain('11 waiting on you · 3-11 shown');
    expect(lines(c.frame()).filter((l) => /^[› ] [?◆◇■⚠] /.test(l))).toHaveLength(9);
    expect(lines(c.frame()).find((l) => l.startsWith('› '))).toMatch(/^› ⚠ add-search\/T5 held by old-agent/);
    await c.keys('k');
    expect(c.frame()).toContain('11 waiting on you · 3-11 shown');
    await c.keys(KEY.pageUp);
    expect(c.frame()).toContain('11 waiting on you · 1-9 shown');
  });
});

describe('the changes pane and a change in detail', () => {
  it('lists the changes with phase, tasks done and what each waits on', async () => {
    const c = open();
    await c.keys(KEY.tab, KEY.tab, KEY.tab);
    const frame = c.frame();
    expect(frame).toMatch(/CHANGE +PHASE +TASKS +WAITING ON/);
    expect(frame).toMatch(/› add-search +implementation +▱▱▱▱▱ 0\/6 +6 of 6 tasks to be done/);
    expect(frame).toMatch(/ fix-login +implementation +▱▱▱▱▱ 0\/1/);
    // An archived change is not listed (it no longer changes); the pane says how to read it.
    expect(frame).not.toContain('old-theme');
    expect(frame).toContain('1 archived change, read-only: `agentboard list --archived` lists them.');
  });

  it('takes keys that arrive together one by one (auto-repeat, a paste, a slow link)', async () => {
    const c = open();
    await c.keys('4j');
    expect(c.frame()).toMatch(/› fix-login +implementation/);
    await c.keys('kj?');
    expect(c.frame()).toContain('Keys');
    // Enter among them is Enter: it opens the change.
    await c.keys('x', 'kj\r');
    await until('the change in detail', () => c.frame().includes('Review round 1: NEEDS_FIX'));
  });

  it('takes an Esc that arrives together with the key after it (Esc pressed twice fast, keys sent by a script) as Esc, then that key', async () => {
    const c = open();
    const prompt = () => c.frame().includes('╭');
    await selectWaiting(c, 'from kimi');
    await c.keys(KEY.enter, 't');
    await c.type('abc');
    await until('the answer typed', () => c.frame().includes('› abc'));
    // Two Escs: out of the answer, and out of the prompt.
    await c.keys('\u001B\u001B');
    await until('the prompt to close', () => !prompt());
    // Esc, then j: the keys closed, and the cursor one down.
    await c.keys('?');
    await until('the keys', () => c.frame().includes('Keys'));
    await c.keys('\u001Bj');
    await until('the keys closed', () => !c.frame().includes('Keys'));
    expect(c.frame().split('\n').find((l) => l.startsWith('› '))).toContain('the proposal of add-search');
    // In a decision: Esc leaves it for later, and the j that came with it moves the cursor on the board.
    await c.keys(KEY.enter);
    await until('the decision', () => prompt());
    await c.keys('\u001Bj');
    await until('the decision left', () => !prompt());
    expect(c.frame().split('\n').find((l) => l.startsWith('› '))).toContain('the spec of add-search');
    expect((await ok(dir, ['show', 'add-search', 'proposal'])).status).toBe('submitted');
  });

  it('says how to start when there is no change yet', async () => {
    const c = drawConsole(await newBoard());
    try {
      await c.keys('4');
      expect(c.frame()).toContain('No changes yet: an agent creates one with `agentboard new');
    } finally {
      c.close();
    }
  });

  it('shows the phase as steps, the documents with status and revision, the review by severity and validate\'s findings with file:line', async () => {
    // A person's edit that breaks a rule: the spec loses its MUST.
    const spec = join(dir, 'agentd/changes/fix-login/spec.md');
    const before = readFileSync(spec, 'utf8');
    writeFileSync(spec, before.replace('The board MUST hand', 'The board hands'));
    try {
      const c = open({ height: 40 });
      await c.keys('4', 'j', KEY.enter);
      await until('the findings', () => c.frame().includes('validate: 1 finding'));
      const frame = c.frame();
      expect(frame).toContain('✓ proposal › ✓ spec › ✓ tasks › ▸ implementation › · review › · archived');
      expect(frame).toMatch(/proposal +submitted +1 +login-planner/);
      expect(frame).toMatch(/review +submitted +1 +codex-reviewer/);
      expect(frame).toContain('Review round 1: NEEDS_FIX by codex-reviewer');
      expect(frame).toContain('The reset flow works; two gaps remain.');
      expect(frame).toMatch(/High \(1\)\n +Tokens never expire\nLow \(1\)\n +Error text is vague/);
      expect(frame).toMatch(/agentd\/changes\/fix-login\/spec\.md:\d+ (error|warning) /);
      // At 80 columns a finding does not fit on a line: it goes on under it, every word of it there.
      const text = lines(frame).map((l) => l.trim()).join(' ');
      expect(text).toMatch(/spec\.md:\d+ error spec\.requirement\.normative: requirement R1 has no MUST or SHALL fix: state the requirement with MUST or SHALL/);
      expect(frame).not.toContain('…');
      expect(Math.max(...lines(frame).map((l) => l.length))).toBeLessThanOrEqual(80);
    } finally {
      writeFileSync(spec, before);
    }
  });
});

/**
 * A long board: change big with 30 tasks; agents a01-a22 each hold one of T1-T22 (a01 is blocked on
 * T1, with a long reason and a long last word), T23-T30 are to do.
 */
async function longBoard(): Promise<string> {
  const board = await newBoard();
  await changeWithTasks(board, 'big', Array.from({ length: 30 }, (_, i) => ({ id: `T${i + 1}`, title: `Task ${i + 1}` })));
  for (let i = 1; i <= 22; i++) {
    const message = i === 1 ? 'Read the builder: it loads every note into memory before it writes the index, which is where the time goes' : 'Working';
    await asAgent(board, `a${String(i).padStart(2, '0')}`, ['task', 'progress', `big/T${i}`, '--percent', '20', '--message', message]);
  }
  await asAgent(board, 'a01', ['task', 'block', 'big/T1', '--severity', 'medium', '--reason', 'The builder reads the whole notes folder into memory; on 10,000 notes that is 3 GB and the benchmark machine has 2 GB. Stream the notes, or benchmark a smaller folder?']);
  return board;
}

describe('long lists and long text', () => {
  let board: string;
  beforeAll(async () => {
    board = await longBoard();
  });
  const openLong = (options: Parameters<typeof drawConsole>[1] = {}) => (drawn = drawConsole(board, options));
  /** The cards of the board's first column: the lines that start with its edge. */
  const firstColumn = (frame: string) => lines(frame).filter((l) => /^[│▌] T\d+/.test(l));

  it('G shows the last item at the bottom of a full view, on the columns and the agents; g the first', async () => {
    const c = openLong();
    expect(firstColumn(c.frame()).map((l) => l.slice(2, 5).trim())).toEqual(['T23', 'T24', 'T25', 'T26', 'T27', 'T28']);
    await c.keys('G');
    expect(firstColumn(c.frame()).map((l) => l.slice(2, 5).trim())).toEqual(['T25', 'T26', 'T27', 'T28', 'T29', 'T30']);
    expect(firstColumn(c.frame()).at(-1)).toMatch(/^▌ T30/);
    expect(lines(c.frame())[2]).toMatch(/^TODO 8 ↑ /);
    await c.keys('g');
    expect(firstColumn(c.frame())[0]).toMatch(/^▌ T23/);
    // The agents: 22 of them and the planner (its writes are work), 19 in the view.
    await c.keys('2');
    expect(lineWith(c.frame(), 'STATE')).toMatch(/AGO$|1-19\/23$/);
    await c.keys('G');
    expect(lineWith(c.frame(), 'STATE')).toMatch(/ 5-23\/23$/);
    expect(lines(c.frame()).filter((l) => / (a\d\d|planner) /.test(l))).toHaveLength(19);
    expect(lines(c.frame()).find((l) => l.startsWith('› '))).toContain('planner');
  });

  it('PgDn and PgUp move by the cards the column shows, when the agents and the waiting list share the screen', async () => {
    const c = openLong({ width: 100, height: 30 });
    expect(firstColumn(c.frame())).toHaveLength(5);
    await c.keys(KEY.pageDown);
    expect(lines(c.frame()).find((l) => l.startsWith('▌'))).toMatch(/^▌ T28/);
    expect(firstColumn(c.frame())[0]).toMatch(/^│ T26/);
    await c.keys(KEY.pageUp);
    expect(firstColumn(c.frame())[0]).toMatch(/^▌ T23/);
  });

  it('keeps every heading whole at 80, 100 and 120 columns: the counts of the columns, the agents\' columns', async () => {
    const narrow = openLong();
    // At 80 columns a column is 16 wide: IN PROGRESS takes its short name, and keeps its count.
    expect(lines(narrow.frame())[2]).toMatch(/^TODO 8 ↓ +IN PROG 21 ↓ +BLOCKED 1 +IN REVIEW 0 +DONE 0/);
    await narrow.keys('2');
    expect(lineWith(narrow.frame(), 'STATE')).toMatch(/^ {2}STATE +AGENT +TASK +LAST WORD +1-19\/23$/);
    narrow.close();
    for (const [width, height] of [
      [100, 30],
      [120, 34],
    ]) {
      const c = drawConsole(board, { width, height });
      try {
        expect(lines(c.frame())[2]).toMatch(/^TODO 8 ↓ +IN PROGRESS 21 ↓ +BLOCKED 1 +IN REVIEW 0 +DONE 0/);
        // Under the columns, the agents take the left half: their headings whole, and where the view is in the list clear of the right half.
        const heading = lineWith(c.frame(), 'STATE');
        expect(heading.slice(0, width / 2)).toMatch(/^ {2}STATE +AGENT +TASK +LAST WORD +1-\d+\/23 *$/);
        expect(heading.slice(width / 2)).toMatch(/^\d+ waiting on you/);
      } finally {
        c.close();
      }
    }
  });

  it('a task in full wraps what it says to the width: nothing of it is cut', async () => {
    const c = openLong();
    await c.keys('l', 'l', KEY.enter);
    await until('the task', () => c.frame().includes('big/T1 [blocked] Task 1'));
    const frame = c.frame();
    const text = lines(frame).map((l) => l.trim()).join(' ');
    expect(text).toMatch(/progress: Read the builder: it loads every note into memory before it writes the index, which is where the time goes \((just now|\d+m ago)\)/);
    expect(text).toContain('blocked (medium) by a01: The builder reads the whole notes folder into memory; on 10,000 notes that is 3 GB and the benchmark machine has 2 GB. Stream the notes, or benchmark a smaller folder?');
    expect(text).toMatch(/held by a01 · claimed (just now|\d+m ago)/);
    expect(frame).not.toContain('…');
    expect(Math.max(...lines(frame).map((l) => l.length))).toBeLessThanOrEqual(80);
  });
});

describe('keys that serve every pane', () => {
  it('Tab and Shift-Tab cycle the panes; 1-4 jump to one', async () => {
    const c = open();
    await c.keys(KEY.tab);
    expect(c.frame()).toContain('STATE');
    await c.keys(KEY.shiftTab);
    expect(c.frame()).toContain('TODO 3');
    await c.keys(KEY.shiftTab);
    expect(c.frame()).toContain('CHANGE');
    await c.keys('3');
    expect(c.frame()).toContain('waiting on you ·');
  });

  it('filters every pane with /, and Esc clears the filter', async () => {
    const c = open();
    await c.keys('/');
    await c.type('gemini');
    expect(lines(c.frame()).at(-1)).toContain('/gemini');
    expect(c.frame()).toMatch(/TODO 0 +IN PROGRESS 0 +BLOCKED 1 +IN REVIEW 0/);
    await c.keys(KEY.enter, '2');
    expect(c.frame()).toContain('gemini');
    expect(c.frame()).not.toContain('claude-w1');
    expect(lines(c.frame())[1]).toContain('/gemini');
    await c.keys(KEY.esc, '1');
    expect(c.frame()).toMatch(/TODO 3 +IN PROGRESS 2/);
  });

  it('says a list the filter left empty matches nothing, not that the board has none: nothing waits on the person only when nothing does', async () => {
    const c = open();
    await c.keys('/');
    await c.type('zzz');
    await c.keys(KEY.enter);
    for (const pane of ['2', '3', '4']) {
      await c.keys(pane);
      expect(c.frame()).toContain('Nothing here matches "zzz"; Esc clears the filter.');
      expect(c.frame()).not.toMatch(/Nothing waits on you|No agents yet|No changes yet/);
    }
    // On a terminal with room, under the columns too.
    drawn!.close();
    const wide = open({ width: 120, height: 40 });
    await wide.keys('/');
    await wide.type('zzz');
    await wide.keys(KEY.enter);
    expect(wide.frame()).not.toContain('Nothing waits on you');
    expect(wide.frame().split('Nothing here matches "zzz"')).toHaveLength(3);
  });

  it('shows the end of a filter longer than the footer, where the person types', async () => {
    const c = open({ width: 30, height: 8 });
    await c.keys('/');
    await c.type('a filter much longer than the line');
    const footer = lines(c.frame()).at(-1)!;
    expect(footer.startsWith('/…')).toBe(true);
    expect(footer).toContain('longer than the line');
  });

  it('shows the keys with ?, and any key closes them', async () => {
    const c = open();
    await c.keys('?');
    expect(c.frame()).toContain('reject it, with the feedback you type');
    expect(c.frame()).toContain('as human:tester, through the same');
    // At 80 columns a long line wraps: nothing is cut.
    expect(c.frame()).toMatch(/edit it in \$EDITOR, then come\s+back/);
    expect(c.frame()).not.toContain('…');
    await c.keys('x');
    expect(c.frame()).toContain('TODO 3');
  });

  it('wraps the keys to a small terminal, each row on lines of its own, and scrolls them with the keys that move', async () => {
    const c = open({ width: 60, height: 20 });
    await c.keys('?');
    // Each key's text wraps under itself: no row is drawn over another, and none is cut.
    expect(lines(c.frame()).slice(2, 10)).toEqual([
      'Keys',
      'Tab / Shift-Tab, 1-4  next / previous pane; Board, Agents,',
      '                      Waiting on you, Changes',
      '←↓↑→ or h j k l       move between columns and cards, down',
      '                      and up a list',
      'PgUp PgDn             a page up or down',
      'Home End, g G         the first or last',
      'Enter                 open: a task, a change, a decision, a',
    ]);
    expect(c.frame()).toContain('a                     approve the document or task in review');
    expect(lines(c.frame()).at(-1)).toBe('j/k scroll · other keys close');
    // What does not fit is a scroll away.
    expect(c.frame()).not.toContain('q, Ctrl-C');
    await c.keys('G');
    expect(c.frame()).toContain('q, Ctrl-C             quit');
    expect(lines(c.frame()).slice(-3, -1)).toEqual(['The keys that move scroll this help; any other key closes', 'it.']);
    expect(Math.max(...lines(c.frame()).map((l) => l.length))).toBeLessThanOrEqual(60);
    await c.keys('x');
    expect(c.frame()).toContain('TODO 3');

    // Narrower than a table, each key has a line of its own and its text the lines under it.
    const narrow = drawConsole(dir, { width: 40, height: 12 });
    try {
      await narrow.keys('?', 'j');
      expect(lines(narrow.frame()).slice(2, 10)).toEqual([
        'Tab / Shift-Tab, 1-4',
        '  next / previous pane; Board, Agents,',
        '  Waiting on you, Changes',
        '←↓↑→ or h j k l',
        '  move between columns and cards, down',
        '  and up a list',
        'PgUp PgDn',
        '  a page up or down',
      ]);
      expect(lines(narrow.frame())).toHaveLength(11);
    } finally {
      narrow.close();
    }
  });

  it('q quits from a pane and goes back from a detail; Ctrl-C quits from anywhere', async () => {
    const c = open();
    await c.keys(KEY.enter);
    await c.keys('q');
    expect(c.quits()).toBe(0);
    expect(c.frame()).toContain('TODO 3');
    await c.keys('q');
    expect(c.quits()).toBe(1);
    c.close();
    const d = open();
    await d.keys('3', 'j', 'r', KEY.ctrlC);
    expect(d.frame()).toContain('What must change?');
    expect(d.quits()).toBe(1);
  });

  it('fits the terminal it is given, and follows a resize', async () => {
    const c = open({ width: 120, height: 30 });
    expect(c.frame()).toMatch(/TODO 3 {18,}IN PROGRESS 2/);
    expect(c.frame()).toContain('Index the titles');
    const small = drawConsole(dir, { width: 60, height: 16 });
    try {
      expect(Math.max(...lines(small.frame()).map((l) => l.length))).toBeLessThanOrEqual(60);
      expect(lines(small.frame()).length).toBeLessThanOrEqual(15);
    } finally {
      small.close();
    }
  });

  it('takes the terminal\'s size when none is fixed, and redraws when it changes', async () => {
    const { render } = await import('ink-testing-library');
    const { createElement: h } = await import('react');
    const { ConsoleApp } = await import('../../src/tui/console/ConsoleApp.js');
    const { ScreenControl } = await import('../../src/tui/console/screen.js');
    const live = drawConsole(dir).live;
    const view = render(h(ConsoleApp, { source: live, screen: new ScreenControl(), onQuit: () => undefined }));
    try {
      // ink-testing-library's terminal is 100 columns wide.
      expect(lines(view.lastFrame()!)[2]).toMatch(/^TODO 3 {10,}IN PROGRESS 2/);
      Object.defineProperty(view.stdout, 'columns', { value: 50, configurable: true });
      view.stdout.emit('resize');
      await until('the redraw at 50 columns', () => Math.max(...lines(view.lastFrame()!).map((l) => l.length)) <= 50);
      expect(lines(view.lastFrame()!)[2]).toMatch(/^TODO 3 +IN PROG 2/);
    } finally {
      view.unmount();
      live.stop();
    }
  });
});
