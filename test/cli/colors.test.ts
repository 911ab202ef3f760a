/**
 * Colour in the text people read (status, list, show, validate, log, errors): on a terminal, or
 * with FORCE_COLOR; never with NO_COLOR, in --json, or into a pipe. Colour only adds emphasis: the
 * text without its colour codes is exactly the plain text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { colorLevel } from '../../src/render/colors.js';
import { changeWithTasks, cli, newBoard, ok } from '../helpers.js';

const SGR = /\u001B\[[0-9;]*m/g;
const ESC = '\u001B[';
let dir: string;

const COMMANDS = [['status'], ['list'], ['show', 'add-search'], ['validate'], ['log'], ['task', 'list'], ['task', 'show', 'add-search/T2']];

beforeAll(async () => {
  dir = await newBoard();
  await changeWithTasks(dir, 'add-search', [
    { id: 'T1', title: 'Index the titles' },
    { id: 'T2', title: 'Search command' },
  ]);
  await ok(dir, ['session', 'status', 'working', '--as', 'codex', '--message', 'Starting']);
  await ok(dir, ['task', 'block', 'add-search/T2', '--as', 'codex', '--reason', 'No data', '--severity', 'high']);
  // A warning for validate to show: the spec without its MUST.
  const spec = join(dir, 'agentd/changes/add-search/spec.md');
  writeFileSync(spec, readFileSync(spec, 'utf8').replace('The board MUST hand', 'The board hands'));
});

describe('colour in the text output', () => {
  it('colours states, phases, levels and actors on a terminal, and says the same words as without', async () => {
    for (const args of COMMANDS) {
      const plain = await cli(dir, args);
      const coloured = await cli(dir, args, { tty: true });
      expect(plain.stdout, args.join(' ')).not.toContain(ESC);
      expect(coloured.stdout, args.join(' ')).toContain(ESC);
      expect(coloured.stdout.replace(SGR, ''), args.join(' ')).toBe(plain.stdout);
      expect(coloured.code).toBe(plain.code);
    }
    const status = (await cli(dir, ['status'], { tty: true })).stdout;
    expect(status).toContain('\u001B[36mworking\u001B[39m');
    expect(status).toContain('\u001B[31m1 blocked\u001B[39m');
    expect(status).toContain('\u001B[36mimplementation\u001B[39m');
    const validate = (await cli(dir, ['validate'], { tty: true })).stdout;
    expect(validate).toMatch(/\u001B\[3[13]m(error|warning)\u001B\[39m/);
    const show = (await cli(dir, ['show', 'add-search'], { tty: true })).stdout;
    expect(show).toContain('\u001B[33msubmitted\u001B[39m');
    expect((await cli(dir, ['log'], { tty: true })).stdout).toContain('\u001B[35mhuman:tester\u001B[39m');
  });

  it('keeps tables aligned when cells are coloured', async () => {
    const coloured = (await cli(dir, ['status'], { tty: true })).stdout.replace(SGR, '');
    const plain = (await cli(dir, ['status'])).stdout;
    expect(coloured).toBe(plain);
    expect(plain).toMatch(/^add-search +implementation +0\/2 +2 of 2 tasks to be done$/m);
  });

  it('colours errors on a terminal', async () => {
    const r = await cli(dir, ['show', 'nope'], { tty: true });
    expect(r.stderr).toMatch(/^\u001B\[31m\u001B\[1merror:\u001B\[22m\u001B\[39m There is no change "nope"/);
    expect((await cli(dir, ['show', 'nope'])).stderr).toMatch(/^error: There is no change "nope"/);
  });

  it('has none with NO_COLOR, none in --json even when forced, and FORCE_COLOR brings it to a pipe', async () => {
    for (const args of COMMANDS) {
      expect((await cli(dir, args, { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain(ESC);
      expect((await cli(dir, [...args, '--json'], { tty: true, env: { FORCE_COLOR: '3' } })).stdout).not.toContain(ESC);
      expect((await cli(dir, args, { env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    }
    expect((await cli(dir, ['show', 'nope', '--json'], { tty: true })).stdout).not.toContain(ESC);
  });

  it('decides the level as Node does: FORCE_COLOR first, then NO_COLOR, then whether it is a terminal', () => {
    expect(colorLevel({}, false)).toBe(0);
    expect(colorLevel({}, true)).toBe(1);
    expect(colorLevel({ TERM: 'xterm-256color' }, true)).toBe(2);
    expect(colorLevel({ COLORTERM: 'truecolor' }, true)).toBe(3);
    expect(colorLevel({ TERM: 'dumb' }, true)).toBe(0);
    expect(colorLevel({ NO_COLOR: '1' }, true)).toBe(0);
    expect(colorLevel({ NO_COLOR: '' }, true)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: '0' }, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: 'false' }, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: '' }, false)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: '2', NO_COLOR: '1' }, false)).toBe(2);
  });
});
