/**
 * Keys that reach the console in one read (a paste, a fast typist, a terminal or a link that sends
 * several keys at once) act exactly as if typed one by one: each on the screen the key before it
 * left, a list filtered or a prompt closed, never on the screen as it was when they came.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ok, WHY } from '../helpers.js';
import { busyBoard, drawConsole, type Drawn, footer, KEY, selectWaiting, until } from './helpers.js';

let drawn: Drawn | null = null;
/** The console on a board of its own: each test decides on its documents. */
const open = async (options: Parameters<typeof drawConsole>[1] = {}) => {
  const dir = await busyBoard();
  return { dir, c: (drawn = drawConsole(dir, options)) };
};
const selected = (c: Drawn) => c.frame().split('\n').find((l) => l.startsWith('› ')) ?? '';
/** Waits for the footer to say how an act went, and gives what it says. */
const acted = async (c: Drawn) => {
  await until('an act', () => /^[✓✗] /.test(footer(c)));
  return footer(c);
};
const status = async (dir: string, change: string, document: string) => (await ok(dir, ['show', change, document])).status;

afterEach(() => {
  drawn?.close();
  drawn = null;
});

describe('keys that come together with a key that changes what is shown', () => {
  it('act on the list a filter typed among them leaves', async () => {
    const { dir, c } = await open();
    await c.keys('3');
    // The second of the items of fix-login, approved: not the second of the whole list.
    await c.keys('/fix\rja');
    expect(await acted(c)).toContain('✓ Approved the spec of fix-login.');
    expect(await status(dir, 'fix-login', 'spec')).toBe('approved');
    expect(await status(dir, 'add-search', 'proposal')).toBe('submitted');
  });

  it('act on the whole list once Esc among them clears the filter', async () => {
    const { dir, c } = await open();
    await c.keys('3', '/');
    await c.type('fix');
    await c.keys(KEY.enter);
    expect(selected(c)).toContain('the proposal of fix-login');
    // Esc, the top of the whole list (kimi's question), the item under it.
    await c.keys(`${KEY.esc}gja`);
    expect(await acted(c)).toContain('✓ Approved the proposal of add-search.');
    expect(await status(dir, 'add-search', 'proposal')).toBe('approved');
    expect(await status(dir, 'fix-login', 'spec')).toBe('submitted');
  });

  it('scroll the help a key among them opened', async () => {
    const { c } = await open({ width: 40, height: 12 });
    await c.keys('?G');
    await until('the end of the keys', () => c.frame().includes('other key closes it.'));
  });
});

describe('keys that come while an act runs', () => {
  it('act once for a key pressed twice: the second comes while the act the first started runs', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the proposal of add-search');
    await c.keys('aa');
    expect(await acted(c)).toBe('✓ Approved the proposal of add-search.');
    expect(await status(dir, 'add-search', 'proposal')).toBe('approved');
    expect(await status(dir, 'add-search', 'spec')).toBe('submitted');
  });
});

describe('Enter, again and again while an answer is saved', () => {
  it('answers only the question chosen: the next one, come under the cursor by itself meanwhile, opens with no option selected', async () => {
    const { dir, c } = await open();
    await ok(dir, ['ask', '--as', 'lena', '--question', 'Keep the old endpoint?', '--option', 'yes', '--option', 'no', '--default-action', 'no']);
    c.live.refresh();
    await selectWaiting(c, 'from kimi');
    await until('the second question', () => c.frame().includes('from lena'));
    await c.keys(KEY.enter);
    await until('the options', () => c.frame().includes('› 1 REST'));
    // One Enter answers; the two after it come while the answer is saved, and the question leaves the list meanwhile.
    await c.keys('\r\r\r');
    expect(await acted(c)).toMatch(/^✓ Answered input-1/);
    expect(selected(c)).toContain('from lena');
    await c.keys(KEY.enter, KEY.enter);
    expect(c.frame(), c.frame()).toContain('lena asks (input-2');
    expect(c.frame()).not.toMatch(/› 1 yes/);
    expect((await ok(dir, ['inputs', '--status', 'all'])).inputs.filter((i: any) => i.resolution).map((i: any) => i.input_id)).toEqual(['input-1']);
  });
});

describe('a, on an item that changed under the cursor by itself', () => {
  it('approves nothing when the document was submitted again since the person chose it: Enter shows it again', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the proposal of add-search');
    await ok(dir, ['propose', 'add-search', '--as', 'human:tester', '--why', WHY, '--what-changes', 'Add search, ranked.', '--impact', 'Agents find tasks.', '--notes', 'No additional notes.']);
    c.live.refresh();
    await until('the second revision', () => selected(c).includes('the proposal of add-search · revision 2'));
    await c.keys('a');
    expect(footer(c)).toMatch(/^✗ Not approved: the proposal of add-search changed since you chose it\./);
    expect(await status(dir, 'add-search', 'proposal')).toBe('submitted');
    await c.keys(KEY.enter, 'a');
    expect(await acted(c)).toBe('✓ Approved the proposal of add-search.');
    expect((await ok(dir, ['show', 'add-search', 'proposal'])).revision).toBe(2);
  });
});

describe('keys that come together with q', () => {
  it('act on nothing: the console is going away', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the proposal of add-search');
    await c.keys('qa');
    expect(c.quits()).toBe(1);
    expect(footer(c)).not.toContain('Approving');
    expect(await status(dir, 'add-search', 'proposal')).toBe('submitted');
  });
});

describe('keys that come together with a key that closes a prompt', () => {
  it('act on the board after l leaves a decision for later', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the proposal of add-search');
    await c.keys(KEY.enter);
    expect(c.frame()).toContain('Your decision: the proposal of add-search');
    await c.keys('lja');
    expect(await acted(c)).toContain('✓ Approved the spec of add-search.');
    expect(await status(dir, 'add-search', 'spec')).toBe('approved');
    expect(await status(dir, 'add-search', 'proposal')).toBe('submitted');
  });

  it('act on the board after Esc goes back from a question, the answer typed sent nowhere', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'from kimi');
    await c.keys(KEY.enter, 't');
    await c.keys(`abc${KEY.esc}`);
    await until('the options', () => c.frame().includes('› 1 REST'));
    await c.keys(`${KEY.esc}ja`);
    expect(await acted(c)).toContain('✓ Approved the proposal of add-search.');
    expect((await ok(dir, ['inputs'])).inputs.map((i: any) => i.input_id)).toEqual(['input-1']);
  });

  it('move on the board while the feedback Enter sent is being taken', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the spec of add-search');
    await c.keys('rSay what an error shows\r4');
    expect(await acted(c)).toContain('✓ Rejected the spec of add-search');
    expect(c.frame()).toMatch(/CHANGE +PHASE/);
    expect((await ok(dir, ['show', 'add-search', 'spec'])).feedback).toEqual([expect.objectContaining({ text: 'Say what an error shows' })]);
  });

  it('act on the board after Esc or Enter takes a prompt that closed by itself off the screen, and not before', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the proposal of add-search');
    await c.keys('r');
    await c.type('Say wh');
    await ok(dir, ['approve', 'add-search', 'proposal', '--as', 'human:tester']);
    c.live.refresh();
    await until('the prompt to say so', () => c.frame().includes('was decided elsewhere'));
    // The keys typed into it are its own; Enter takes it off; j and a are the board's.
    await c.keys('at it returns\rja');
    await until('the result', () => footer(c).startsWith('✓ '));
    expect(footer(c)).toBe('✓ Approved the tasks of add-search.');
    expect(await status(dir, 'add-search', 'spec')).toBe('submitted');
    expect(await status(dir, 'add-search', 'tasks')).toBe('approved');
  });
});

/** What a terminal in bracketed paste mode sends for a paste of `text`. */
const paste = (text: string) => `\u001B[200~${text}\u001B[201~`;

describe('a paste', () => {
  it('is the feedback typed, whole: its line breaks send nothing and its letters act on nothing; Enter sends it', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the proposal of add-search');
    await c.keys('r', paste('Say why it is needed\rjust add a paragraph\r'));
    expect(footer(c)).toContain('Enter send');
    expect(c.frame()).toContain('› Say why it is needed just add a paragraph');
    expect(await status(dir, 'add-search', 'proposal')).toBe('submitted');
    expect(await status(dir, 'add-search', 'spec')).toBe('submitted');
    await c.keys(KEY.enter);
    expect(await acted(c)).toContain('✓ Rejected the proposal of add-search');
    expect((await ok(dir, ['show', 'add-search', 'proposal'])).feedback).toEqual([expect.objectContaining({ text: 'Say why it is needed just add a paragraph' })]);
    expect(await status(dir, 'add-search', 'spec')).toBe('submitted');
  });

  it('is no key where nothing is typed: on the board it moves, opens and approves nothing', async () => {
    const { dir, c } = await open();
    await selectWaiting(c, 'the proposal of add-search');
    const before = c.frame();
    await c.keys(paste('2ja'));
    await c.keys(paste('y\r'));
    expect(c.frame()).toBe(before);
    expect(await status(dir, 'add-search', 'proposal')).toBe('submitted');
    expect(await status(dir, 'add-search', 'spec')).toBe('submitted');
  });

  it('filters with its text, on one line', async () => {
    const { c } = await open();
    await c.keys('3', '/', paste('fix-\rlogin'));
    expect(footer(c)).toContain('/fix- login');
  });
});
