/**
 * The live view in a real terminal (tmux): the run asks the person in place; they reject with
 * feedback typed there, the planner revises with it, and they approve. Keys go in with send-keys;
 * the screen is read with capture-pane, in bounded polls.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, childEnv, ok } from '../helpers.js';
import { fakeBoard, prompt, runIds, until } from './helpers.js';

const SOCKET = `agentboard-test-${process.pid}`;
const tmux = (...args: string[]) => spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', 'run').stdout;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

afterAll(() => {
  tmux('kill-server');
});

describe('the live view in a terminal', () => {
  it('ends its last frame\'s line on a terminal it fills (80×24): the shell\'s next line starts on its own', async () => {
    const board = await fakeBoard({ scenario: { review: ['approved'] } });
    const env = Object.entries({ ...childEnv(), TERM: 'xterm-256color' }).map(([k, v]) => `${k}=${quote(String(v))}`);
    const command = `cd ${quote(board.dir)} && env -i ${env.join(' ')} ${quote(process.execPath)} ${quote(BIN)} run add-search --goal 'Let people search the board' --workers 2; echo "RUN EXITED $?"; sleep 60`;
    expect(tmux('new-session', '-d', '-s', 'run', '-x', '80', '-y', '24', command).status).toBe(0);
    try {
      await until('the run to end', () => screen().includes('RUN EXITED'));
      const last = screen();
      expect(last).toMatch(/\n {2}next: agentboard archive add-search\nRUN EXITED 0/);
    } finally {
      tmux('kill-session', '-t', 'run');
    }
  });

  it('takes the person\'s rejection with feedback and then their approval, in place', async () => {
    const board = await fakeBoard({ config: 'require_approval: [proposal]' });
    const env = Object.entries({ ...childEnv(), TERM: 'xterm-256color' }).map(([k, v]) => `${k}=${quote(String(v))}`);
    const command = `cd ${quote(board.dir)} && env -i ${env.join(' ')} ${quote(process.execPath)} ${quote(BIN)} run add-search --goal 'Let people search the board' --until proposal; echo "RUN EXITED $?"; sleep 60`;
    expect(tmux('new-session', '-d', '-s', 'run', '-x', '120', '-y', '45', command).status).toBe(0);

    await until('the run to ask for a decision', () => screen().includes('Your decision: the proposal of add-search'));
    expect(screen()).toContain('a approve · r reject with feedback · l later');
    expect(screen()).toMatch(/\? proposal/);
    // The agents as the console's agents pane draws them, each with its seat in the run.
    expect(screen()).toMatch(/STATE +AGENT +TASK +LAST WORD +AGO/);
    // Its session is working since it wrote the proposal (a document write is work); its turn is over.
    expect(screen()).toMatch(/● working +fake-planner +- +turn ended/);
    expect(screen()).toMatch(/run \S+ · planner · between invocations/);
    tmux('send-keys', '-t', 'run', 'r');
    await until('the feedback prompt', () => screen().includes('What must change?'));
    tmux('send-keys', '-t', 'run', '-l', 'Say who searches');
    await until('the typed feedback', () => screen().includes('› Say who searches'));
    tmux('send-keys', '-t', 'run', 'Enter');

    // The planner writes revision 2 with the feedback in its prompt, and the run asks again.
    await until('the revised proposal', async () => (await ok(board.dir, ['show', 'add-search', 'proposal'])).revision === 2);
    await until('the second question', () => screen().includes('revision 2') && screen().includes('Your decision'));
    tmux('send-keys', '-t', 'run', 'a');
    await until('the run to end', () => screen().includes('RUN EXITED'));
    const last = screen();
    expect(last).toContain('RUN EXITED 0');
    expect(last).toContain('finished:');

    const proposal = await ok(board.dir, ['show', 'add-search', 'proposal']);
    expect(proposal).toMatchObject({ status: 'approved', decided_by: 'human:tester', revision: 2 });
    expect(proposal.feedback).toEqual([expect.objectContaining({ author: 'human:tester', text: 'Say who searches' })]);
    const [runId] = runIds(board.dir);
    expect(prompt(board.dir, runId!, 2)).toContain('Say who searches');
    // The last frame ends its line: what the shell prints next starts a line of its own.
    expect(last).toMatch(/\nRUN EXITED 0/);
    const decided = (await ok(board.dir, ['log', '--change', 'add-search'])).entries.filter((e: any) => e.action.startsWith('document.'));
    expect(decided.map((e: any) => [e.action, e.actor])).toEqual([
      ['document.approve', 'human:tester'],
      ['document.submit', 'fake-planner'],
      ['document.reject', 'human:tester'],
      ['document.submit', 'fake-planner'],
    ]);
  });
});
