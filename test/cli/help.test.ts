/** The command line's own manners: -v, the global flags in each command's help, required inputs, and errors that name flags. */
import { describe, expect, it } from 'vitest';
import { cli, cliProcess, newBoard, tempDir } from '../helpers.js';

describe('the command line', () => {
  it('answers -v, -V and --version, in the process and through the binary', async () => {
    const dir = tempDir();
    for (const flag of ['-v', '-V', '--version']) {
      const r = await cli(dir, [flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
      expect(cliProcess(dir, [flag]).stdout).toBe(r.stdout);
    }
  });

  it("shows in each command's help the global flags that apply to it", async () => {
    const dir = tempDir();
    const help = async (...args: string[]) => {
      const out = (await cli(dir, [...args, '--help'])).stdout;
      return out.slice(out.indexOf('Global Options:'));
    };
    const propose = await help('propose');
    for (const flag of ['--root <dir>', '--json', '--as <actor>', '--debug']) expect(propose).toContain(flag);
    const list = await help('list');
    expect(list).toContain('--json');
    expect(list).toContain('--root <dir>');
    expect(list).not.toContain('--as');
    expect(await help('task', 'done')).toContain('--as <actor>');
    const board = await help('board');
    expect(board).toContain('--as <actor>');
    expect(board).not.toContain('--json');
    expect(await help('run')).toContain('--json');
    expect((await cli(dir, ['task', '--help'])).stdout).not.toContain('Global Options:');
    expect(await help('list')).not.toContain('--version');
  });

  it('answers a group without its subcommand as bad usage: one JSON error naming the subcommands with --json, the help and the error on stderr without', async () => {
    const dir = tempDir();
    for (const [group, subcommands] of [
      ['task', 'list, show, add, update, rm, done, progress, block, unblock, note'],
      ['agent', 'register, list, show'],
      ['session', 'status, block, submit, show, history'],
      ['conflicts', 'list, clear'],
      ['reviewer', 'add, rm'],
      ['person', 'key'],
      ['remote', 'enable, disable, status, sync, publish, pull, switch, drop'],
    ]) {
      const json = await cli(dir, ['--json', group!]);
      expect(json.code, group).toBe(2);
      expect(json.stderr).toBe('');
      expect(json.stdout.trim().split('\n')).toHaveLength(1);
      expect(json.json).toEqual({ ok: false, error: { code: 'USAGE', message: `\`agentboard ${group}\` needs a subcommand: ${subcommands}.`, next_step: `Run \`agentboard ${group} <subcommand>\`; \`agentboard ${group} --help\` says what each does.` } });
      const text = await cli(dir, [group!]);
      expect(text.code, group).toBe(2);
      expect(text.stdout).toBe('');
      expect(text.stderr).toContain(`Usage: agentboard ${group} [options] [command]`);
      expect(text.stderr).toContain(`error: \`agentboard ${group}\` needs a subcommand: ${subcommands}.`);
    }
    const none = await cli(dir, ['--json']);
    expect(none.code).toBe(2);
    expect(none.json.error.message).toMatch(/^`agentboard` needs a subcommand: init, list, show, /);
    // asking for the help is no error
    expect((await cli(dir, ['task', '--help'])).code).toBe(0);
  });

  it('says in --help which inputs are required', async () => {
    const out = (await cli(tempDir(), ['propose', '--help'])).stdout.replace(/\s+/g, ' ');
    for (const flag of ['--why', '--what-changes', '--impact', '--notes']) expect(out).toMatch(new RegExp(`${flag} <value> [^-]*\\(required\\)`));
    expect(out).not.toMatch(/--title <value> [^-]*\(required\)/);
    expect((await cli(tempDir(), ['reject', '--help'])).stdout.replace(/\s+/g, ' ')).toMatch(/--feedback <value> [^-]*\(required\)/);
  });

  it('names the flags and arguments of the command in its errors, not the fields of the input', async () => {
    const dir = await newBoard();
    const r = await cli(dir, ['propose', 'add-search', '--as', 'claude', '--why', 'Too short', '--impact', 'Some.']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Invalid input: --why needs at least 50 characters (got 9); --what-changes is required; --notes is required.');
    const json = await cli(dir, ['propose', 'add-search', '--as', 'claude', '--why', 'Too short', '--impact', 'Some.', '--json']);
    expect(json.json.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('--what-changes is required') });
    expect((await cli(dir, ['show', 'Bad Id'])).stderr).toContain('Invalid input: <change_id>: "Bad Id" is not lowercase kebab-case');
    expect((await cli(dir, ['next', '--as', 'Bad Agent'])).stderr).toContain('Invalid input: --as: "Bad Agent" is not a valid agent id');
    expect((await cli(dir, ['task', 'progress', 'x/T1', '--as', 'codex', '--percent', '101', '--message', 'm'])).stderr).toContain('Invalid input: <task_id>: a change id has 3 to 64 characters, "x" has 1; --percent must be at most 100.');
    // A field with no flag (a list of objects, given with --input) keeps its name.
    const tasks = await cli(dir, ['tasks', 'add-search', '--as', 'claude', '--input', '-'], { stdin: '{"tasks":[{"id":"T1"}],"notes":"n"}' });
    expect(tasks.stderr).toContain('Invalid input: tasks[0].title is required.');
  });
});
