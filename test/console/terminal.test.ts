/**
 * `agentboard board` in a real terminal (tmux, 80×24): separate processes claim, report progress
 * and ask while it runs, and the screen shows each; the person answers the question, approves a
 * document and rejects another with feedback typed there, reads a file in $PAGER and comes back,
 * and quits. Keys go in with send-keys; the screen is read with capture-pane, in bounded polls; the
 * files on disk show each decision.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, cliAsync, newBoard, ok, write } from '../helpers.js';
import { until as waitUntil } from './helpers.js';
import { fakeBoard, hangs, runIds, startRun } from '../engine/helpers.js';

const SOCKET = `agentboard-console-${process.pid}`;
const tmux = (...args: string[]) => spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
let lastScreen = '';
const screen = (session: string, colours = false) => (lastScreen = tmux('capture-pane', '-p', ...(colours ? ['-e'] : []), '-t', session).stdout);
/** Waits as the helpers' until does; one that gives up shows the screen it last read. */
const until: typeof waitUntil = (what, check, ms) =>
  waitUntil(what, check, ms).catch((err: Error) => {
    err.message += `\nthe screen last read:\n${lastScreen}`;
    throw err;
  });
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

afterAll(() => {
  tmux('kill-server');
});

/** `command` run with only the given environment (and what a child of the tests gets). */
const withEnv = (env: Record<string, string>, command: string) => `env -i ${Object.entries({ ...childEnv(), TERM: 'xterm-256color', ...env }).map(([k, v]) => `${k}=${quote(v)}`).join(' ')} ${command}`;

/**
 * Starts `agentboard board` in a tmux session of its own (80×24 unless told), with only the given
 * environment; `before` is a shell command run first on the same terminal.
 */
function startConsole(session: string, dir: string, env: Record<string, string>, options: { width?: number; height?: number; before?: string } = {}): void {
  const command = `${options.before ? `${options.before} && ` : ''}cd ${quote(dir)} && ${withEnv(env, `${quote(process.execPath)} ${quote(BIN)} board`)}; echo "BOARD EXITED $?"; sleep 60`;
  expect(tmux('new-session', '-d', '-s', session, '-x', String(options.width ?? 80), '-y', String(options.height ?? 24), command).status).toBe(0);
}

const lines = (text: string) => text.split('\n');
const widest = (text: string) => Math.max(...lines(text).map((l) => l.length));

const agent = async (dir: string, args: string[]) => expect((await cliAsync(dir, args)).code).toBe(0);

describe('the console in a terminal', () => {
  it('shows what separate processes do, and takes the person\'s answer, approval and rejection by keys', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [
      { id: 'T1', title: 'Index the titles' },
      { id: 'T2', title: 'Search command' },
    ]);
    const pager = write(dir, 'pager.sh', `#!/bin/sh\necho "$1" > ${quote(join(dir, 'paged.txt'))}\n`);
    chmodSync(pager, 0o755);
    startConsole('live', dir, { PAGER: pager });
    await until('the console', () => /TODO 2 +IN PROGRESS 0/.test(screen('live')));
    expect(screen('live').split('\n')[1]).toContain('3 Waiting on you (3)');

    // Agents at work in their own processes.
    await agent(dir, ['session', 'status', 'working', '--as', 'codex', '--message', 'Starting']);
    await agent(dir, ['next', '--as', 'codex']);
    await until('the claim', () => /TODO 1 +IN PROGRESS 1/.test(screen('live')));
    await agent(dir, ['task', 'progress', 'add-search/T1', '--as', 'codex', '--percent', '50', '--message', 'Index half built']);
    await until('the progress', () => screen('live').includes('▰▰▱ codex'));
    await agent(dir, ['ask', '--as', 'codex', '--question', 'Keep the old index?', '--option', 'yes', '--option', 'no', '--default-action', 'yes']);
    await until('the question', () => screen('live').includes('Waiting on you (4)'));

    // The person answers by keys.
    tmux('send-keys', '-t', 'live', '3');
    await until('the waiting pane', () => screen('live').includes('› ? input-1 from codex'));
    tmux('send-keys', '-t', 'live', 'Enter');
    await until('the question prompt', () => screen('live').includes('codex asks (input-1'));
    tmux('send-keys', '-t', 'live', '2');
    await until('the answer', () => screen('live').includes('✓ Answered input-1; codex is working again.'));

    // The question answered left the list, and the proposal came under the cursor by itself: the person chooses it (g, the top) to approve it.
    tmux('send-keys', '-t', 'live', 'g', 'a');
    await until('the approval', () => screen('live').includes('✓ Approved the proposal of add-search.'));

    tmux('send-keys', '-t', 'live', 'r');
    await until('the feedback prompt', () => screen('live').includes('What must change?'));
    tmux('send-keys', '-t', 'live', '-l', 'Say what an empty query returns');
    await until('the typed feedback', () => screen('live').includes('› Say what an empty query returns'));
    tmux('send-keys', '-t', 'live', 'Enter');
    await until('the rejection', () => screen('live').includes('✓ Rejected the spec of add-search'));

    // The task list, in $PAGER and back.
    tmux('send-keys', '-t', 'live', 'o');
    await until('the pager', () => existsSync(join(dir, 'paged.txt')));
    await until('the console back', () => screen('live').includes('◆ the tasks of add-search'));
    expect(readFileSync(join(dir, 'paged.txt'), 'utf8').trim()).toBe(join(dir, 'agentd/changes/add-search/tasks.md'));

    // Colour comes from the terminal's palette.
    expect(screen('live', true)).toMatch(/\u001B\[[0-9;]*3[1-6]m/);

    tmux('send-keys', '-t', 'live', 'q');
    await until('the exit', () => screen('live').includes('BOARD EXITED 0'));

    const { inputs } = await ok(dir, ['inputs', '--status', 'all']);
    expect(inputs[0].resolution).toMatchObject({ type: 'human', value: 'no', by: 'human:tester' });
    expect(await ok(dir, ['show', 'add-search', 'proposal'])).toMatchObject({ status: 'approved', decided_by: 'human:tester' });
    const spec = await ok(dir, ['show', 'add-search', 'spec']);
    expect(spec).toMatchObject({ status: 'rejected', decided_by: 'human:tester' });
    expect(spec.feedback).toEqual([expect.objectContaining({ author: 'human:tester', text: 'Say what an empty query returns' })]);
    const log = (await ok(dir, ['log', '--actor', 'human:tester'])).entries.map((e: any) => e.action);
    expect(log).toEqual(['document.reject', 'document.approve', 'input.answer', 'board.init']);
  });

  it('keeps a prompt that closed by itself on the screen, taking the keys typed after it, so that none of them acts on the board', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'search', [{ id: 'T1', title: 'Index the titles' }]);
    startConsole('closed', dir, {}, { width: 40, height: 12 });
    await until('the console', () => screen('closed').includes('TODO 1'));
    const submitted = async () => (await ok(dir, ['docs'])).documents.filter((d: any) => d.status === 'submitted').map((d: any) => d.document);

    // Asked 55 s ago with a minute to answer: it runs out of time while the person types the answer.
    const asked = new Date(Date.now() - 55_000).toISOString();
    expect((await cliAsync(dir, ['ask', '--as', 'a1', '--question', 'Which database?', '--default-action', 'Use sqlite', '--timeout-minutes', '1'], { env: { AGENTBOARD_TEST_NOW: asked } })).code).toBe(0);
    tmux('send-keys', '-t', 'closed', '3');
    // The cursor stays on the item it was on when the question comes in above it: g takes it to the top.
    await until('the question', () => screen('closed').includes('? input-1 from a1'));
    tmux('send-keys', '-t', 'closed', 'g');
    await until('the question selected', () => screen('closed').includes('› ? input-1 from a1'));
    tmux('send-keys', '-t', 'closed', 'Enter');
    await until('the answer prompt', () => screen('closed').includes('Your answer'));
    tmux('send-keys', '-t', 'closed', '-l', 'Use post');
    await until('the question to run out of time', () => screen('closed').includes('input-1 ran out of time'), 30_000);
    expect(screen('closed')).toContain('a1 asked: Which database?');
    tmux('send-keys', '-t', 'closed', '-l', 'gres and a tiny cache');
    tmux('send-keys', '-t', 'closed', 'a');
    await until('the keys to be taken', () => screen('closed').includes('Nothing was sent.'));
    // The board did nothing with them: the proposal is still submitted, and the question ran out of time unanswered.
    expect(await submitted()).toEqual(['proposal', 'spec', 'tasks']);
    tmux('send-keys', '-t', 'closed', 'Escape');
    await until('the prompt to go', () => !screen('closed').includes('Nothing was sent.'));
    expect(screen('closed')).toContain('› ◆ the proposal of search');
    expect(screen('closed')).toContain('✗ input-1 ran out of time');

    // Answered from elsewhere while the person types.
    await agent(dir, ['ask', '--as', 'a2', '--question', 'Which port?', '--default-action', '8080']);
    await until('the second question', () => screen('closed').includes('4 waiting on you'));
    tmux('send-keys', '-t', 'closed', 'g');
    await until('the question selected', () => screen('closed').includes('› ? input-2 from a2'));
    tmux('send-keys', '-t', 'closed', 'Enter');
    await until('the answer prompt', () => screen('closed').includes('Your answer'));
    tmux('send-keys', '-t', 'closed', '-l', '80');
    await ok(dir, ['answer', 'input-2', '9090', '--as', 'human:tester']);
    await until('the prompt to say so', () => screen('closed').includes('input-2 was answered from elsewhere.'));
    tmux('send-keys', '-t', 'closed', '-l', '80 a');
    tmux('send-keys', '-t', 'closed', 'a');
    await until('the keys to be taken', () => screen('closed').includes('Nothing was sent.'));
    expect(await submitted()).toEqual(['proposal', 'spec', 'tasks']);
    tmux('send-keys', '-t', 'closed', 'Enter');
    await until('the prompt to go', () => !screen('closed').includes('Nothing was sent.'));
    expect(screen('closed')).toContain('› ◆ the proposal of search');

    // A document decided elsewhere while the person types the feedback.
    tmux('send-keys', '-t', 'closed', 'r');
    await until('the feedback prompt', () => screen('closed').includes('What must change?'));
    tmux('send-keys', '-t', 'closed', '-l', 'Say wh');
    await ok(dir, ['approve', 'search', 'proposal', '--as', 'human:tester']);
    await until('the prompt to say so', () => screen('closed').includes('was decided'));
    tmux('send-keys', '-t', 'closed', '-l', 'at it returns');
    await until('the keys to be taken', () => screen('closed').includes('Nothing was sent.'));
    tmux('send-keys', '-t', 'closed', 'Enter');
    await until('the prompt to go', () => !screen('closed').includes('Nothing was sent.'));
    expect(screen('closed')).toContain('› ◆ the spec of search');
    tmux('send-keys', '-t', 'closed', 'q');
    await until('the exit', () => screen('closed').includes('BOARD EXITED 0'));

    expect(await submitted()).toEqual(['spec', 'tasks']);
    const { inputs } = await ok(dir, ['inputs', '--status', 'all']);
    expect(inputs.find((i: any) => i.input_id === 'input-2').resolution).toMatchObject({ value: '9090' });
    expect(inputs.find((i: any) => i.input_id === 'input-1').resolution?.type).not.toBe('human');
    const log = (await ok(dir, ['log', '--actor', 'human:tester'])).entries.map((e: any) => e.action);
    expect(log).toEqual(['document.approve', 'input.answer', 'board.init']);
  });

  it('approves only the document the person chose when a is held down: the next one, come under the cursor by itself, waits until the person chooses it', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ id: 'T1', title: 'One' }]);
    await changeWithTasks(dir, 'beta', [{ id: 'T1', title: 'Two' }]);
    startConsole('repeat', dir, {});
    await until('the console', () => screen('repeat').includes('Waiting on you (6)'));
    tmux('send-keys', '-t', 'repeat', '3');
    await until('the waiting pane', () => screen('repeat').includes('› ◆ the proposal of alpha'));
    const approved = async () => (await ok(dir, ['docs'])).documents.filter((d: any) => d.status === 'approved').map((d: any) => `${d.change_id} ${d.document}`);

    tmux('send-keys', '-t', 'repeat', 'a');
    await until('the approval', () => screen('repeat').includes('✓ Approved the proposal of alpha.'));
    expect(screen('repeat')).toContain('› ◆ the spec of alpha');
    // a held down: the terminal sends it again and again, each in a read of its own a few tens of milliseconds apart.
    for (let i = 0; i < 8; i++) {
      tmux('send-keys', '-t', 'repeat', 'a');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    // The help, opened by the key after them, says they were read; the footer, that no act runs.
    tmux('send-keys', '-t', 'repeat', '?');
    await until('the keys read', () => screen('repeat').includes('Keys') && !screen('repeat').includes('Approving'));
    expect(await approved()).toEqual(['alpha proposal']);

    // The person chooses the spec (down and up again): a approves it, and it alone.
    tmux('send-keys', '-t', 'repeat', 'Escape', 'j', 'k');
    await until('the spec chosen', () => screen('repeat').includes('› ◆ the spec of alpha') && !screen('repeat').includes('Keys'));
    tmux('send-keys', '-t', 'repeat', 'a');
    await until('the second approval', () => screen('repeat').includes('✓ Approved the spec of alpha.'));
    // a again says why it approves nothing.
    tmux('send-keys', '-t', 'repeat', 'a');
    await until('the refusal', () => screen('repeat').includes('✗ Not approved: the cursor came to the tasks of alpha by itself.'));
    tmux('send-keys', '-t', 'repeat', 'q');
    await until('the exit', () => screen('repeat').includes('BOARD EXITED 0'));
    expect(await approved()).toEqual(['alpha proposal', 'alpha spec']);
  });

  it('answers only the question the person chose when Enter is held down: the next one, come under the cursor by itself, opens with no option selected', async () => {
    const dir = await newBoard();
    for (const a of ['a1', 'a2', 'a3']) await agent(dir, ['ask', '--as', a, '--question', `Question of ${a}?`, '--option', 'yes', '--option', 'no', '--default-action', 'no']);
    startConsole('enter', dir, {});
    await until('the console', () => screen('enter').includes('Waiting on you (3)'));
    tmux('send-keys', '-t', 'enter', '3');
    await until('the waiting pane', () => screen('enter').includes('› ? input-1 from a1'));
    const answered = async () => (await ok(dir, ['inputs', '--status', 'all'])).inputs.filter((i: any) => i.resolution).map((i: any) => `${i.input_id} ${i.resolution.value}`);

    // Enter held down: it opens the question, answers it with the option selected, and goes on.
    for (let i = 0; i < 12; i++) {
      tmux('send-keys', '-t', 'enter', 'Enter');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await until('the answer', () => screen('enter').includes('✓ Answered input-1') || screen('enter').includes('a2 asks (input-2'));
    // The next question opens (Enter once more, the act done), with no option selected: the Enters
    // after it answer nothing; t, after them, shows they were read.
    tmux('send-keys', '-t', 'enter', 'Enter', 't');
    await until('the next question, its answer to type', () => screen('enter').includes('a2 asks (input-2') && screen('enter').includes('Your answer'));
    expect(await answered()).toEqual(['input-1 yes']);
    tmux('send-keys', '-t', 'enter', 'Escape');
    await until('the options, none selected', () => screen('enter').includes('│   1 yes') && screen('enter').includes('│   2 no'));
    tmux('send-keys', '-t', 'enter', 'Down', 'Down', 'Enter');
    await until('the second answer', () => screen('enter').includes('✓ Answered input-2'));
    tmux('send-keys', '-t', 'enter', 'q');
    await until('the exit', () => screen('enter').includes('BOARD EXITED 0'));
    expect(await answered()).toEqual(['input-1 yes', 'input-2 no']);
  });

  it('quits on q pressed while an approval is being saved, once it is saved', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ id: 'T1', title: 'One' }]);
    for (const [session, size] of [['saving', null], ['saving-small', [20, 6]]] as const) {
      const document = session === 'saving' ? 'proposal' : 'spec';
      startConsole(session, dir, {});
      tmux('send-keys', '-t', session, '3');
      await until('the waiting pane', () => screen(session).includes(`› ◆ the ${document} of alpha`));
      // Another process holds the board lock (this one, alive): the approval waits for it.
      const lock = join(dir, 'agentd/.runtime/lock');
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'held-by-the-test' }));
      tmux('send-keys', '-t', session, 'a');
      await until('the approval under way', () => screen(session).includes('Approving…'));
      if (size) {
        // On a terminal made too small to draw in, q is the one key taken: it too waits for the save.
        tmux('resize-window', '-t', session, '-x', String(size[0]), '-y', String(size[1]));
        await until('the too small screen', () => screen(session).startsWith('Too small: needs'));
        tmux('send-keys', '-t', session, 'q');
        await until('the quit to wait', () => lines(screen(session)).slice(0, 3).join(' ') === 'Approving… then quitting; Ctrl-C quits now.');
      } else {
        tmux('send-keys', '-t', session, 'q', 'j', 'a');
        await until('the quit to wait', () => screen(session).includes('Approving… then quitting · Ctrl-C quits now'));
      }
      expect((await ok(dir, ['show', 'alpha', document])).status).toBe('submitted');
      expect(screen(session)).not.toContain('BOARD EXITED');
      rmSync(lock);
      await until('the exit', () => screen(session).includes('BOARD EXITED 0'));
      expect((await ok(dir, ['show', 'alpha', document])).status).toBe('approved');
    }
    // The keys after q acted on nothing: the tasks are still submitted.
    expect((await ok(dir, ['show', 'alpha', 'tasks'])).status).toBe('submitted');
  });

  it('stays, saying why, when the approval it was to quit after fails', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ id: 'T1', title: 'One' }]);
    startConsole('fails', dir, {});
    tmux('send-keys', '-t', 'fails', '3');
    await until('the waiting pane', () => screen('fails').includes('› ◆ the proposal of alpha'));
    const lock = join(dir, 'agentd/.runtime/lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'held-by-the-test' }));
    tmux('send-keys', '-t', 'fails', 'a', 'q');
    await until('the quit to wait', () => screen('fails').includes('Approving… then quitting'));
    // The change goes while the approval waits: the approval fails.
    rmSync(join(dir, 'agentd/changes/alpha'), { recursive: true });
    rmSync(lock);
    await until('the failure', () => screen('fails').includes('✗ There is no change "alpha" on this board.'));
    expect(screen('fails')).not.toContain('BOARD EXITED');
    tmux('send-keys', '-t', 'fails', 'q');
    await until('the exit', () => screen('fails').includes('BOARD EXITED 0'));
  });

  it('takes an arrow sent with Alt as the arrow, never as Esc: the feedback typed stays; Home and End go to the first and the last item', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ id: 'T1', title: 'One' }]);
    await changeWithTasks(dir, 'beta', [{ id: 'T1', title: 'Two' }]);
    startConsole('modifiers', dir, {});
    await until('the console', () => screen('modifiers').includes('Waiting on you (6)'));
    tmux('send-keys', '-t', 'modifiers', '3', 'End');
    await until('the last item', () => screen('modifiers').includes('› ◆ the tasks of beta'));
    tmux('send-keys', '-t', 'modifiers', 'Home');
    await until('the first item', () => screen('modifiers').includes('› ◆ the proposal of alpha'));
    tmux('send-keys', '-t', 'modifiers', 'r');
    await until('the feedback prompt', () => screen('modifiers').includes('What must change?'));
    tmux('send-keys', '-t', 'modifiers', '-l', 'Split it');
    tmux('send-keys', '-t', 'modifiers', 'M-Up', 'M-Down', 'C-Up', 'S-Up', 'M-PageDown', 'M-Home', 'M-End');
    tmux('send-keys', '-t', 'modifiers', '-l', ' in two');
    await until('the feedback typed', () => screen('modifiers').includes('› Split it in two'));
    tmux('send-keys', '-t', 'modifiers', 'Enter');
    await until('the rejection', () => screen('modifiers').includes('✓ Rejected the proposal of alpha'));
    expect((await ok(dir, ['show', 'alpha', 'proposal'])).feedback).toEqual([expect.objectContaining({ text: 'Split it in two' })]);

    // On the board, a filter stays through them too.
    tmux('send-keys', '-t', 'modifiers', '/');
    tmux('send-keys', '-t', 'modifiers', '-l', 'beta');
    tmux('send-keys', '-t', 'modifiers', 'Enter', 'M-Down', 'M-Up');
    tmux('send-keys', '-t', 'modifiers', 'G');
    await until('the last of the filtered list', () => screen('modifiers').includes('› ◆ the tasks of beta'));
    expect(lines(screen('modifiers'))[1]).toContain('/beta');
    tmux('send-keys', '-t', 'modifiers', 'q');
    await until('the exit', () => screen('modifiers').includes('BOARD EXITED 0'));
  });

  it('takes a paste of several lines into the feedback whole: its line breaks send nothing, its letters act on nothing', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ id: 'T1', title: 'One' }]);
    startConsole('paste', dir, {});
    await until('the console', () => screen('paste').includes('Waiting on you (3)'));
    tmux('send-keys', '-t', 'paste', '3', 'Home', 'r');
    await until('the feedback prompt', () => screen('paste').includes('What must change?'));
    // tmux pastes as a terminal does: bracketed when the program asked for it, line breaks as Enter.
    tmux('set-buffer', '-b', 'feedback', 'Say why\njust add a paragraph\n');
    tmux('paste-buffer', '-p', '-b', 'feedback', '-t', 'paste');
    await until('the paste typed', () => screen('paste').includes('› Say why just add a paragraph'));
    expect((await ok(dir, ['docs'])).documents.map((d: any) => d.status)).toEqual(['submitted', 'submitted', 'submitted']);
    tmux('send-keys', '-t', 'paste', 'Enter');
    await until('the rejection', () => screen('paste').includes('✓ Rejected the proposal of alpha'));
    expect((await ok(dir, ['show', 'alpha', 'proposal'])).feedback).toEqual([expect.objectContaining({ text: 'Say why just add a paragraph' })]);
    expect((await ok(dir, ['docs'])).documents.map((d: any) => d.status)).toEqual(['rejected', 'submitted', 'submitted']);
    tmux('send-keys', '-t', 'paste', 'q');
    await until('the exit', () => screen('paste').includes('BOARD EXITED 0'));
  });

  it('stops on Ctrl-Z, giving the shell its screen, its cursor and its terminal settings back, and comes back with fg, its keys working', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ id: 'T1', title: 'One' }]);
    // An interactive shell, which stops and resumes programs (job control).
    expect(tmux('new-session', '-d', '-s', 'suspend', '-x', '80', '-y', '24', withEnv({ PS1: '$ ' }, 'bash --norc --noprofile -i')).status).toBe(0);
    const shell = (line: string) => tmux('send-keys', '-t', 'suspend', '-l', line + '\r');
    shell(`cd ${quote(dir)} && stty -a > before.txt && ${quote(process.execPath)} ${quote(BIN)} board`);
    await until('the console', () => screen('suspend').includes('TODO 1'));
    const state = () => tmux('display', '-p', '-t', 'suspend', '#{alternate_on} #{cursor_flag}').stdout.trim();
    expect(state()).toBe('1 0');
    tmux('send-keys', '-t', 'suspend', 'C-z');
    await until('the shell', () => screen('suspend').includes('Stopped'));
    expect(state()).toBe('0 1');
    shell('stty -a > stopped.tmp && mv stopped.tmp stopped.txt');
    await until('the settings read', () => existsSync(join(dir, 'stopped.txt')));
    expect(readFileSync(join(dir, 'stopped.txt'), 'utf8')).toBe(readFileSync(join(dir, 'before.txt'), 'utf8'));
    shell('fg');
    await until('the console back', () => screen('suspend').includes('TODO 1'));
    expect(state()).toBe('1 0');
    tmux('send-keys', '-t', 'suspend', '4');
    await until('the changes pane', () => /CHANGE +PHASE/.test(screen('suspend')));
    tmux('send-keys', '-t', 'suspend', 'q');
    await until('the shell', () => state() === '0 1');
    // fg's status is the program's.
    shell('echo "BOARD EXITED $?"');
    await until('the exit', () => screen('suspend').includes('BOARD EXITED 0'));
  });

  it('leaves Ctrl-C and Ctrl-\\ typed in the pager to the pager: the console neither quits nor takes the terminal back while it runs', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'alpha', [{ id: 'T1', title: 'One' }]);
    // A pager that, as less does, takes both keys itself and ends on Enter.
    const log = join(dir, 'pager.log');
    const pager = write(dir, 'pager.sh', `#!/bin/sh\ntrap 'echo caught >> ${quote(log)}' INT QUIT\necho "PAGER OPEN"\nwhile :; do read line && break; done\necho "$1" > ${quote(join(dir, 'paged.txt'))}\n`);
    chmodSync(pager, 0o755);
    startConsole('pagerkeys', dir, { PAGER: pager });
    await until('the console', () => screen('pagerkeys').includes('Waiting on you (3)'));
    tmux('send-keys', '-t', 'pagerkeys', '3', 'Home', 'o');
    await until('the pager', () => screen('pagerkeys').includes('PAGER OPEN'));
    tmux('send-keys', '-t', 'pagerkeys', 'C-c');
    await until('the pager to take Ctrl-C', () => existsSync(log) && readFileSync(log, 'utf8').split('\n').length > 1);
    tmux('send-keys', '-t', 'pagerkeys', 'C-\\');
    await until('the pager to take Ctrl-\\', () => readFileSync(log, 'utf8').split('\n').length > 2);
    expect(screen('pagerkeys')).toContain('PAGER OPEN');
    expect(screen('pagerkeys')).not.toContain('BOARD EXITED');
    tmux('send-keys', '-t', 'pagerkeys', 'Enter');
    await until('the console back', () => screen('pagerkeys').includes('◆ the proposal of alpha'));
    expect(readFileSync(join(dir, 'paged.txt'), 'utf8').trim()).toBe(join(dir, 'agentd/changes/alpha/proposal.md'));
    tmux('send-keys', '-t', 'pagerkeys', 'q');
    await until('the exit', () => screen('pagerkeys').includes('BOARD EXITED 0'));
  });

  it('shows a character that would drive the terminal, put in a file by a hand edit, as "?": no colour, no window title, no text shown out of order', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    const edit = (file: string, from: string, to: string) => writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').replace(from, to));
    edit('agentd/changes/add-search/tasks.md', '## T1: Index the titles', '## T1: Index\u001B[41m the\u001B]0;pwned\u0007 titles');
    edit('agentd/changes/add-search/proposal.md', '# Proposal: add-search', '# Proposal: Add \u202Ehcraes\u202C to the board');
    startConsole('unsafe', dir, {});
    const title = tmux('display', '-p', '-t', 'unsafe', '#{pane_title}').stdout;
    await until('the console', () => screen('unsafe').includes('TODO 1'));
    tmux('send-keys', '-t', 'unsafe', 'Enter');
    await until('the task', () => screen('unsafe').includes('add-search/T1 [todo] Index?[41m the?]0;pwned? titles'));
    tmux('send-keys', '-t', 'unsafe', 'Escape', '4', 'Enter');
    await until('the change', () => screen('unsafe').includes('add-search: Add ?hcraes? to the board'));
    expect(screen('unsafe', true)).not.toContain('\u001B[41m');
    expect(tmux('display', '-p', '-t', 'unsafe', '#{pane_title}').stdout).toBe(title);
    tmux('send-keys', '-t', 'unsafe', 'Escape', 'q');
    await until('the exit', () => screen('unsafe').includes('BOARD EXITED 0'));
  });

  it('takes the keys typed while it starts, Enter among them, as keys of the screen', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    startConsole('early', dir, {});
    // Sent at once: they reach the terminal while node is still starting, before the console has drawn.
    tmux('send-keys', '-t', 'early', '4', 'Enter');
    // The Changes pane, and Enter there: the change open.
    await until('the change', () => screen('early').includes('✓ proposal › ✓ spec › ✓ tasks › ▸ implementation'));
    expect(screen('early')).toContain('waits on 1 of 1 task to be done');
    tmux('send-keys', '-t', 'early', 'Escape', 'q');
    await until('the exit', () => screen('early').includes('BOARD EXITED 0'));
  });

  it('keeps the names of the panes whole on the second line when the board has unreadable files: the filter and what went wrong take the room left', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    const proposal = join(dir, 'agentd/changes/add-search/proposal.md');
    writeFileSync(proposal, readFileSync(proposal, 'utf8').replace('Add a board.', 'Add a \u202Eboard\u202C.'));
    startConsole('trouble', dir, {}, { width: 120, height: 24 });
    await until('the console', () => screen('trouble').includes('TODO 1'));
    expect(lines(screen('trouble'))[1]).toMatch(/^ 1 Board {3}2 Agents {3}3 Waiting on you \(3\) {3}4 Changes +⚠ 1 unreadable \(`agentboard validate`\)$/);
    tmux('send-keys', '-t', 'trouble', '/');
    tmux('send-keys', '-t', 'trouble', '-l', 'index');
    tmux('send-keys', '-t', 'trouble', 'Enter');
    tmux('resize-window', '-t', 'trouble', '-x', '80', '-y', '24');
    await until('the filter kept', () => lines(screen('trouble'))[1]!.includes('/index'));
    expect(lines(screen('trouble'))[1]).toBe(' 1 Board   2 Agents   3 Waiting on you (3)   4 Changes     /index ⚠ 1 unreadable');
    tmux('resize-window', '-t', 'trouble', '-x', '60', '-y', '24');
    // At 60 columns, the panes, and the sign that something is wrong.
    await until('the narrower screen', () => lines(screen('trouble'))[1] === ' 1 Board   2 Agents   3 Waiting on you (3)   4 Changes     ⚠');
    expect(widest(screen('trouble'))).toBeLessThanOrEqual(60);
    tmux('send-keys', '-t', 'trouble', 'q');
    await until('the exit', () => screen('trouble').includes('BOARD EXITED 0'));
  });

  it('draws the question and decision prompts whole on a small terminal: the countdown, the default action, the option selected and the keys always in view', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'search', [{ id: 'T1', title: 'Index the titles' }]);
    await agent(dir, ['ask', '--as', 'a1', '--question', 'Which database should the index of titles use?', '--option', 'Use sqlite for everything', '--option', 'Match case', '--default-action', 'Use sqlite']);
    startConsole('prompts', dir, {}, { width: 40, height: 12 });
    await until('the console', () => screen('prompts').includes('0/1 done'));
    // The prompt is a frame of whole lines at the foot of the screen, with nothing drawn over it, and no line wider than the terminal.
    const framed = (width: number) => {
      const l = lines(screen('prompts'));
      const top = l.findIndex((x) => x.startsWith('╭'));
      const bottom = l.findIndex((x) => x.startsWith('╰'));
      return top >= 0 && bottom > top && l.slice(top + 1, bottom).every((x) => x.startsWith('│ ') && x.endsWith(' │') && x.length === width) && widest(screen('prompts')) <= width;
    };
    const lastInFrame = () => {
      const l = lines(screen('prompts'));
      return l[l.findIndex((x) => x.startsWith('╰')) - 1]!.slice(1, -1).trim();
    };
    tmux('send-keys', '-t', 'prompts', '3');
    await until('the question', () => screen('prompts').includes('› ? input-1 from a1'));
    tmux('send-keys', '-t', 'prompts', 'Enter');
    await until('the prompt', () => screen('prompts').includes('› 1 Use sqlite for everything'));
    expect(framed(40)).toBe(true);
    expect(screen('prompts')).toContain('then:');
    expect(screen('prompts')).toContain('  2 Match case');
    tmux('send-keys', '-t', 'prompts', 'Down');
    await until('the second option selected', () => screen('prompts').includes('› 2 Match case'));
    for (const [width, height] of [[50, 10], [30, 8]]) {
      tmux('resize-window', '-t', 'prompts', '-x', String(width), '-y', String(height));
      await until(`the prompt at ${width}×${height}`, () => framed(width) && screen('prompts').includes('› 2 Match case'));
      // Who asks, the countdown and the default action: the head is never left out.
      expect(screen('prompts')).toMatch(/a1 asks \(input-1 · \d+m/);
      expect(screen('prompts')).toMatch(/then: Use[\s│]*sqlite\)/);
      // And the keys, on the frame's last line: the question is what gives up its lines.
      expect(lastInFrame()).toMatch(/Esc back$/);
    }
    tmux('send-keys', '-t', 'prompts', 'Enter');
    await until('the answer', () => screen('prompts').includes('✓ Answered input-1'));

    // The decision, at 30×8: the feedback typed stays in view, its end where the person types.
    tmux('send-keys', '-t', 'prompts', 'Enter');
    await until('the decision', () => screen('prompts').includes('Your decision: the'));
    expect(framed(30)).toBe(true);
    expect(screen('prompts')).toContain('l later (Esc)');
    tmux('send-keys', '-t', 'prompts', 'r');
    tmux('send-keys', '-t', 'prompts', '-l', 'Say what an empty query returns, and why');
    await until('the feedback typed', () => screen('prompts').includes('› …query returns, and why'));
    expect(framed(30)).toBe(true);
    expect(screen('prompts')).toContain('│ Enter sends · Esc back');
    tmux('send-keys', '-t', 'prompts', 'Enter');
    await until('the rejection', () => screen('prompts').includes('✓ Rejected'));
    tmux('send-keys', '-t', 'prompts', 'q');
    await until('the exit', () => screen('prompts').includes('BOARD EXITED 0'));

    const { inputs } = await ok(dir, ['inputs', '--status', 'all']);
    expect(inputs[0].resolution).toMatchObject({ type: 'human', value: 'Match case' });
    const proposal = await ok(dir, ['show', 'search', 'proposal']);
    expect(proposal.status).toBe('rejected');
    expect(proposal.feedback).toEqual([expect.objectContaining({ text: 'Say what an empty query returns, and why' })]);
  });

  it('sees a run killed with kill -9 die, with nothing written: its agents leave their seats and its claim is marked stale', async () => {
    const board = await fakeBoard({ scenario: { implementation: { '*': ['hang'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    const run = startRun(board.dir, ['add-search', '--until', 'implementation']);
    try {
      await until('the worker to hang on T1', () => hangs(board).length === 1, 30_000);
      const [runId] = runIds(board.dir);
      startConsole('died', board.dir, {});
      await until('the claim', () => /TODO 0 +IN PROGRESS 1/.test(screen('died')));
      expect(screen('died')).not.toContain('⚠ stale');
      tmux('send-keys', '-t', 'died', '2');
      await until('the worker in its seat', () => screen('died').includes(`run ${runId} · worker · invocation`));

      run.child.kill('SIGKILL');
      await run.done;
      // No file changed: the console finds the run's process gone by itself, without a restart.
      tmux('send-keys', '-t', 'died', '1');
      await until('the stale mark', () => screen('died').includes('⚠ stale'), 20_000);
      tmux('send-keys', '-t', 'died', '3');
      await until('the stale claim waiting', () => screen('died').includes(`add-search/T1 held by fake-w1 · its run ${runId} died`));
      tmux('send-keys', '-t', 'died', '2');
      await until('the agents pane', () => !screen('died').includes('stale claim') && screen('died').includes('fake-w1'));
      expect(screen('died')).not.toContain(`run ${runId}`);
      tmux('send-keys', '-t', 'died', 'q');
      await until('the exit', () => screen('died').includes('BOARD EXITED 0'));
    } finally {
      run.child.kill('SIGKILL');
      // The agent the dead run left, and its children: the next run would stop them.
      for (const h of hangs(board)) for (const pid of [h.agent, h.child, h.escaped]) if (pid) try { process.kill(pid, 'SIGKILL'); } catch {}
    }
  });

  it('draws without colour under NO_COLOR, and follows the terminal when it is resized', async () => {
    const dir = await newBoard();
    startConsole('plain', dir, { NO_COLOR: '1' });
    await until('the console', () => screen('plain').includes('TODO 0'));
    expect(screen('plain', true)).not.toContain('\u001B[');
    expect(screen('plain')).not.toContain('No agents yet');
    // Made larger, it has room for the agents under the columns, and the person in the header.
    tmux('resize-window', '-t', 'plain', '-x', '120', '-y', '34');
    await until('the larger screen', () => screen('plain').includes('No agents yet'));
    expect(screen('plain').split('\n')[0]).toMatch(/human:tester$/);
    tmux('resize-window', '-t', 'plain', '-x', '80', '-y', '24');
    await until('the smaller screen', () => !screen('plain').includes('No agents yet'));
    expect(screen('plain').split('\n').every((l) => l.length <= 80)).toBe(true);
    // Too narrow for every column, it shows those that fit, apart, and marks the others; l brings them in.
    tmux('resize-window', '-t', 'plain', '-x', '30', '-y', '8');
    await until('the narrow screen', () => /^ TODO 0 +IN PROGRESS 0 +›$/.test(lines(screen('plain'))[2]!));
    tmux('send-keys', '-t', 'plain', 'l', 'l', 'l', 'l');
    await until('the last column', () => /^‹IN REVIEW 0 +DONE 0$/.test(lines(screen('plain'))[2]!));
    expect(widest(screen('plain'))).toBeLessThanOrEqual(30);
    tmux('send-keys', '-t', 'plain', 'q');
    await until('the exit', () => screen('plain').includes('BOARD EXITED 0'));
  });

  it('marks the pane shown with brackets where the terminal draws no colour (TERM=dumb, NO_COLOR): inverse is not drawn either', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    for (const [session, env] of [['dumb', { TERM: 'dumb' }], ['nocolor', { NO_COLOR: '1' }]] as const) {
      startConsole(session, dir, env);
      await until('the console', () => screen(session).includes('TODO 1'));
      expect(lines(screen(session))[1]).toBe('[1 Board]  2 Agents   3 Waiting on you (3)   4 Changes');
      tmux('send-keys', '-t', session, '3');
      await until('the waiting pane', () => lines(screen(session))[1] === ' 1 Board   2 Agents  [3 Waiting on you (3)]  4 Changes');
      expect(screen(session, true)).not.toContain('\u001B[');
      tmux('send-keys', '-t', session, 'q');
      await until('the exit', () => screen(session).includes('BOARD EXITED 0'));
    }
  });

  it('keeps the keys readable on a small terminal: each wrapped under itself, the rest a scroll away', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    startConsole('help', dir, {}, { width: 60, height: 20 });
    await until('the console', () => screen('help').includes('TODO 1'));
    tmux('send-keys', '-t', 'help', '?');
    await until('the keys', () => screen('help').includes('Keys'));
    expect(lines(screen('help')).slice(2, 12)).toEqual([
      'Keys',
      'Tab / Shift-Tab, 1-4  next / previous pane; Board, Agents,',
      '                      Waiting on you, Changes',
      '←↓↑→ or h j k l       move between columns and cards, down',
      '                      and up a list',
      'PgUp PgDn             a page up or down',
      'Home End, g G         the first or last',
      'Enter                 open: a task, a change, a decision, a',
      '                      question',
      'a                     approve the document or task in review',
    ]);
    expect(lines(screen('help'))[18]).toBe('j/k scroll · other keys close');

    tmux('resize-window', '-t', 'help', '-x', '40', '-y', '12');
    await until('the keys at 40 columns', () => lines(screen('help'))[3] === 'Tab / Shift-Tab, 1-4');
    expect(lines(screen('help')).slice(2, 10)).toEqual([
      'Keys',
      'Tab / Shift-Tab, 1-4',
      '  next / previous pane; Board, Agents,',
      '  Waiting on you, Changes',
      '←↓↑→ or h j k l',
      '  move between columns and cards, down',
      '  and up a list',
      'PgUp PgDn',
    ]);
    expect(widest(screen('help'))).toBeLessThanOrEqual(40);
    tmux('send-keys', '-t', 'help', 'G');
    await until('the end of the keys', () => screen('help').includes('other key closes it.'));
    expect(screen('help')).toContain('  quit');
    tmux('send-keys', '-t', 'help', 'x');
    await until('the board again', () => screen('help').includes('TODO 1'));
    tmux('send-keys', '-t', 'help', 'q');
    await until('the exit', () => screen('help').includes('BOARD EXITED 0'));
  });

  it('says a terminal too small to draw in is too small, takes no key but q there, and draws again when it is larger', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    startConsole('small', dir, {});
    await until('the console', () => screen('small').includes('TODO 1'));
    tmux('send-keys', '-t', 'small', '3');
    await until('the waiting pane', () => screen('small').includes('› ◆ the proposal of add-search'));
    // Feedback half typed when the terminal is made too small: it is there when it is large again.
    tmux('send-keys', '-t', 'small', 'r');
    await until('the feedback prompt', () => screen('small').includes('What must change?'));
    tmux('send-keys', '-t', 'small', '-l', 'Split it');
    await until('the feedback typed', () => screen('small').includes('› Split it'));

    tmux('resize-window', '-t', 'small', '-x', '20', '-y', '6');
    await until('the too small screen', () => screen('small').startsWith('Too small: needs'));
    expect(lines(screen('small')).slice(0, 6)).toEqual(['Too small: needs', '30×8 (this terminal', 'is 20×6). Make it', 'larger, or press q', 'to quit.', '']);
    // Nothing is done that the person cannot see: a approves nothing here.
    tmux('send-keys', '-t', 'small', 'a');
    // A terminal with no room at all: nothing drawn, and nothing breaks.
    tmux('resize-window', '-t', 'small', '-x', '1', '-y', '1');
    await until('an empty screen', () => screen('small').trim() === '');
    tmux('resize-window', '-t', 'small', '-x', '80', '-y', '24');
    await until('the waiting pane again', () => screen('small').includes('› ◆ the proposal of add-search'));
    expect(screen('small')).toContain('› Split it');
    expect(await ok(dir, ['show', 'add-search', 'proposal'])).toMatchObject({ status: 'submitted' });

    tmux('resize-window', '-t', 'small', '-x', '20', '-y', '6');
    await until('the too small screen again', () => screen('small').startsWith('Too small: needs'));
    tmux('send-keys', '-t', 'small', 'q');
    await until('the exit', () => screen('small').includes('BOARD EXITED 0'));
  });

  it('says so when the terminal gives no size (0×0), and draws once it has one', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ id: 'T1', title: 'Index the titles' }]);
    startConsole('nosize', dir, {}, { before: 'stty cols 0 rows 0' });
    await until('the message', () => screen('nosize').startsWith('The terminal gives no size (0×0): set one (stty cols 80 rows 24), or press q to'));
    tmux('resize-window', '-t', 'nosize', '-x', '70', '-y', '20');
    await until('the console', () => /TODO 1 +IN PROGRESS 0 +BLOCKED 0/.test(screen('nosize')));
    expect(widest(screen('nosize'))).toBeLessThanOrEqual(70);
    tmux('send-keys', '-t', 'nosize', 'q');
    await until('the exit', () => screen('nosize').includes('BOARD EXITED 0'));
  });

  it('refuses without a terminal, and points to status', async () => {
    const dir = await newBoard();
    const r = await cli(dir, ['board']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: `agentboard board` needs a terminal, and its output is not one.');
    expect(r.stderr).toContain('next: Run `agentboard status` for the board as text');
    expect((await cli(dir, ['board', '--json'])).json.error.code).toBe('USAGE');
  });

  it('refuses a change it cannot follow before anything else: one that does not exist, or an archived one', async () => {
    const dir = await newBoard();
    const missing = await cli(dir, ['board', 'no-such-change']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no-such-change');
    await changeWithTasks(dir, 'old-theme', [{ id: 'T1', title: 'Dark theme' }]);
    mkdirSync(join(dir, 'agentd', 'archive'));
    renameSync(join(dir, 'agentd', 'changes', 'old-theme'), join(dir, 'agentd', 'archive', '2026-10-01-old-theme'));
    const archived = await cli(dir, ['board', 'old-theme']);
    expect(archived.code).not.toBe(0);
    expect(archived.stderr).toContain('error: Change old-theme is archived (agentd/archive/2026-10-01-old-theme): it no longer changes, and the console follows open changes.');
    expect(archived.stderr).toContain('next: Read it with `agentboard show old-theme`.');
  });
});
