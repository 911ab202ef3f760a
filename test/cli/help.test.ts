/** The command line's own manners: -v, the global flags in each command's help, required inputs, and errors that name flags. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/ops/catalog.js';
import { flagOf } from '../../src/cli/field-names.js';
import { cli, cliProcess, newBoard, snapshot, tempDir } from '../helpers.js';

/** A value for each positional argument a command with required options takes. */
const ARGUMENT: Record<string, string> = { change_id: 'add-x', task_id: 'add-x/T1', document: 'proposal', status: 'working' };

describe('the command line', () => {
  it('answers -v, -V and --version, in the process and through the binary', async () => {
    const dir = tempDir();
    for (const flag of ['-v', '-V', '--version']) {
      const r = await cli(dir, [flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
      expect(cliProcess(dir, [flag]).stdout).toBe(r.stdout);
      const json = await cli(dir, [flag, '--json']);
      expect(json.code).toBe(0);
      expect(json.stdout).toBe(`${JSON.stringify({ ok: true, data: { version: r.stdout.trim() } })}\n`);
    }
  });

  it('gives help as one JSON document with --json, the same text as without', async () => {
    const dir = tempDir();
    for (const args of [['help'], ['help', 'task'], ['--help'], ['task', '--help'], ['task', 'list', '--help']]) {
      const plain = await cli(dir, args);
      const json = await cli(dir, [...args, '--json']);
      expect([json.code, json.stderr], args.join(' ')).toEqual([0, '']);
      expect(JSON.parse(json.stdout), args.join(' ')).toEqual({ ok: true, data: { help: plain.stdout } });
      expect(plain.stdout).toMatch(/^Usage: agentboard/);
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
    // --sync fetches a shared board before a read: shown where a command reads, and for mcp.
    expect(list).toContain('--sync');
    expect(await help('status')).toContain('--sync');
    expect(await help('mcp')).toContain('--sync');
    expect(propose).not.toContain('--sync');
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

  it("says in each command's help what a flag does there: run's --json, mcp's --as, a person's --as, --input of a command without a tool, demo's --keep", async () => {
    const dir = tempDir();
    /** A help's line of a flag, its wrapped description joined. */
    const flagLine = async (command: string[], flag: string) => {
      const help = (await cli(dir, [...command, '--help'])).stdout.replace(/\n {6,}/g, ' ');
      return help.split('\n').find((l) => l.trimStart().startsWith(`${flag} `))?.trim().replace(/\s+/g, ' ');
    };
    expect(await flagLine(['run', 'x'], '--json')).toBe('--json print the run as JSON lines, one event a line, the last one run.finished (a refusal before the run starts is one {"ok":false,"error":…})');
    expect(await flagLine(['propose'], '--json')).toBe('--json print exactly one JSON document: {"ok":true,"data":…} or {"ok":false,"error":…}');
    expect(await flagLine(['mcp'], '--as')).toBe('--as <actor> serve this agent id only: its calls may leave out agent_id, and a call as another agent is refused (default: every call names its agent)');
    const person = '--as <actor> act as this person, human:<name>; an agent id is refused (default: human:<git user.name or $USER>)';
    for (const command of [['run', 'x'], ['import', 'agentd'], ['board'], ['approve'], ['init'], ['answer']]) expect(await flagLine(command, '--as'), command.join(' ')).toBe(person);
    expect(await flagLine(['propose'], '--as')).toBe('--as <actor> act as this agent id, or as human:<name> (default: human:<git user.name or $USER>)');
    expect(await flagLine(['session', 'show'], '--as')).toBe('--as <actor> the agent whose workflow state to read (usually yourself)');
    expect(await flagLine(['agent', 'show'], '--as'), 'agent show takes the agent as its argument').toBeUndefined();
    expect(await flagLine(['init'], '--input')).toBe('--input <file> the input as a JSON object (its arguments and options above by name, with _ for -); - reads standard input');
    expect(await flagLine(['propose'], '--input')).toBe('--input <file> the input as a JSON object (the same object the MCP tool takes); - reads standard input');
    expect(await flagLine(['init'], '--mcp')).toBe('--mcp <value> Also wire these MCP clients to agentboard mcp, each in its own configuration file (repeatable) (choices: "claude", "codex", "cursor", "gemini", "vscode")');
    // A boolean flag is described as what it does when given, not as the value of an input field.
    expect(await flagLine(['task', 'list'], '--ready')).toBe('--ready Only tasks ready to start (todo, unheld, dependencies done)');
    expect(await flagLine(['demo'], '--keep')).toBe("--keep keep the demo folder (a git repository with its board and its tasks' branches; archive removed their worktrees) instead of removing it at the end");
    // A list with fixed values still collects every one given, each checked against them.
    const wired = await cli(dir, ['init', '--mcp', 'claude', '--mcp', 'codex', '--as', 'human:tester', '--json']);
    expect(wired.json.data.mcp.map((m: any) => m.client)).toEqual(['claude', 'codex']);
    expect((await cli(tempDir(), ['init', '--mcp', 'claude', '--mcp', 'vim', '--json'])).json.error.message).toBe('Invalid input: --mcp[1] must be one of: claude, codex, cursor, gemini, vscode.');
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
    expect(r.code).toBe(2);
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

  it('answers a missing required option of every command that has one as bad usage (exit 2), naming the option and the help that shows what the command needs', async () => {
    const dir = await newBoard();
    const before = snapshot(dir);
    let tried = 0;
    for (const op of await catalog()) {
      const positional = (op.cli.args ?? []).map((a) => a.replace(/\?$/, ''));
      const required = op.fields.filter((f) => f.required && f.kind !== 'object' && f.name !== 'agent_id' && !positional.includes(f.name));
      if (required.length === 0) continue;
      const acts = op.fields.some((f) => f.name === 'agent_id') && op.access !== 'human' ? ['--as', 'claude'] : [];
      const args = [...op.cli.command.split(' '), ...positional.map((name) => ARGUMENT[name]!), ...acts];
      const flags = required.map((f) => `--${flagOf(op, f.name)}`);
      const json = await cli(dir, [...args, '--json']);
      expect(json.code, `${op.name}: ${json.stdout}`).toBe(2);
      expect(json.stdout.trim().split('\n')).toHaveLength(1);
      expect(json.json.ok).toBe(false);
      expect(json.json.error.code, op.name).toBe('INVALID_INPUT');
      for (const flag of flags) expect(json.json.error.message, op.name).toMatch(new RegExp(`[:;] ${flag} is required`));
      expect(json.json.error.next_step, op.name).toContain(`Correct the options and arguments named above and run the command again (\`agentboard ${op.cli.command} --help\` says what each takes and what the command needs); nothing was changed.`);
      const text = await cli(dir, args);
      expect(text.code, op.name).toBe(2);
      expect(text.stdout).toBe('');
      expect(text.stderr).toContain(`error: ${json.json.error.message}\n  next: ${json.json.error.next_step}\n`);
      // The help the next step names shows the command with what it needs.
      const help = (await cli(dir, [...op.cli.command.split(' '), '--help'])).stdout;
      const needs = help.slice(help.indexOf('Needs at least:')).split('\n').find((line) => line.startsWith(`  agentboard ${op.cli.command} `) && flags.every((flag) => line.includes(` ${flag} <`)));
      expect(needs, `${op.name}: ${help}`).toBeDefined();
      tried++;
    }
    expect(tried).toBeGreaterThanOrEqual(14);
    expect(snapshot(dir)).toEqual(before);
  });

  it('answers every kind of bad usage with exit 2 and one error naming the help to read, as one JSON document with --json', async () => {
    const dir = await newBoard();
    const before = snapshot(dir);
    for (const [args, message, next] of [
      [['new'], "Missing required argument 'change_id'.", 'Run `agentboard new --help` to see its arguments.'],
      [['task', 'block', 'add-x/T1', '--as', 'claude'], 'Invalid input: --reason is required.', '`agentboard task block --help`'],
      [['task', 'progress', 'add-x/T1', '--as', 'claude', '--message', 'm', '--percent', 'half'], 'Invalid input: --percent must be a number, not "half".', '`agentboard task progress --help`'],
      [['review', 'add-x', '--as', 'claude', '--verdict', 'GREAT'], "Option '--verdict <value>' argument 'GREAT' is invalid. Allowed choices are APPROVED, NEEDS_FIX, MAJOR_ISSUES.", 'Run `agentboard review --help` to see its arguments and options.'],
      [['review', 'add-x', '--as', 'claude', '--summary', 's', '--notes', 'n'], 'Invalid input: --verdict is required: one of APPROVED, NEEDS_FIX, MAJOR_ISSUES.', '`agentboard review --help`'],
      [['new', 'add-x', '--titel', 'X'], "Unknown option '--titel' (did you mean --title?).", 'Run `agentboard new --help` to see its arguments and options.'],
      [['new', 'add-x', '--title'], "Option '--title <value>' argument missing.", 'Run `agentboard new --help` to see its arguments and options.'],
      [['new', 'add-x', 'add-y'], 'Too many arguments for `agentboard new`. Expected 1 argument but got 2.', 'Run `agentboard new --help` to see its arguments and options.'],
      [['frobnicate'], "Unknown command 'frobnicate'.", 'Run `agentboard --help` to see the commands and the options.'],
      [['task', 'nope'], "Unknown command 'nope' (did you mean note?).", 'Run `agentboard task --help` to see its subcommands.'],
      [['help', 'nope'], "`agentboard` has no command 'nope'.", 'Run `agentboard --help` to see the commands and the options.'],
      [['task', 'help', 'nope'], "`agentboard task` has no command 'nope'.", 'Run `agentboard task --help` to see its subcommands.'],
    ] as const) {
      const json = await cli(dir, [...args, '--json']);
      expect(json.code, args.join(' ')).toBe(2);
      expect(json.stderr, args.join(' ')).toBe('');
      expect(json.stdout.trim().split('\n')).toHaveLength(1);
      expect(json.json.ok).toBe(false);
      expect(['USAGE', 'INVALID_INPUT']).toContain(json.json.error.code);
      expect(json.json.error.message, args.join(' ')).toBe(message);
      expect(json.json.error.next_step, args.join(' ')).toContain(next);
      const text = await cli(dir, [...args]);
      expect(text.code, args.join(' ')).toBe(2);
      expect(text.stdout).toBe('');
      expect(text.stderr).toContain(`error: ${message}\n  next: `);
    }
    expect(snapshot(dir)).toEqual(before);
    // Help and the version are answers, not errors.
    for (const args of [['help'], ['help', 'new'], ['task', 'help', 'done'], ['new', '--help'], ['-h'], ['--version']]) expect((await cli(dir, args)).code, args.join(' ')).toBe(0);
  });

  it('refuses --json as bad usage on the commands that have no JSON to print (demo, completion), with nothing made', async () => {
    const dir = tempDir();
    for (const args of [['demo', '--json'], ['--json', 'completion', 'bash']]) {
      const r = cliProcess(dir, args, { env: { TMPDIR: dir } });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.json.ok).toBe(false);
      expect(r.json.error.code).toBe('USAGE');
      expect(r.json.error.message).toMatch(/has no --json\.$/);
    }
    expect(snapshot(dir)).toEqual({});
  });

  it('refuses --json on `agentboard mcp` on stderr, leaving its stdout to the protocol, with nothing made', async () => {
    const dir = await newBoard();
    const before = snapshot(dir);
    for (const args of [['mcp', '--json'], ['--json', 'mcp', '--profile', 'worker'], ['mcp', '--json', '--profile', 'bogus']]) {
      const r = cliProcess(dir, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(/^error: /);
    }
    expect(cliProcess(dir, ['mcp', '--json']).stderr).toContain('has no --json.');
    expect(snapshot(dir)).toEqual(before);
  });

  it("names each group's subcommands in its summary", async () => {
    const top = (await cli(tempDir(), ['--help'])).stdout;
    for (const [group, summary] of [
      ['session', "An agent's workflow status: status, block, submit, show, history"],
      ['conflicts', "Board files a git merge left unresolved, and what merging people's edits with agents' work kept on both sides: list, clear"],
      ['person', "People's keys for scripts and CI (people only): key"],
      ['remote', 'Sharing the board with every clone through a git remote: enable, disable, status, sync, publish, pull, switch, drop'],
    ]) {
      expect(top.replace(/\s+/g, ' ')).toContain(`${group} ${summary}`);
      expect((await cli(tempDir(), [group!, '--help'])).stdout.replace(/\s+/g, ' ')).toContain(summary);
    }
  });
});
