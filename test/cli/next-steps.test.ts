/**
 * The next step of a refused command names the command to run again (or its help), never a tool
 * call to send; an MCP client keeps hearing of the call to send.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, snapshot, write } from '../helpers.js';
import { connect } from '../mcp/helpers.js';

/** Words of a next step meant for a tool call. */
const CALL_WORDING = /send the call|call the tool|call again|send a smaller/i;

describe('next steps on the command line', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await newBoard();
  });

  async function refused(args: string[], stdin?: string) {
    const before = snapshot(dir);
    const r = await cli(dir, [...args, '--json'], stdin === undefined ? {} : { stdin });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(snapshot(dir)).toEqual(before);
    expect(r.json.error.next_step).not.toMatch(CALL_WORDING);
    return r.json.error;
  }

  it('of an --input file that cannot be read, is not JSON or not an object name the command to run again', async () => {
    expect(await refused(['new', 'abc-def', '--as', 'claude', '--input', 'missing.json'])).toEqual({
      code: 'USAGE',
      message: 'Cannot read missing.json: it does not exist.',
      next_step: 'Check the path given to --input (use - for standard input), then run `agentboard new` again.',
    });
    write(dir, 'broken.json', '{"change_id": ');
    expect((await refused(['new', '--as', 'claude', '--input', 'broken.json'])).next_step).toBe('Give --input a JSON object, like {"change_id": "add-review-tool"}, then run `agentboard new` again.');
    write(dir, 'list.json', '[1]');
    expect((await refused(['task', 'add', '--as', 'claude', '--input', 'list.json'])).next_step).toBe('Give --input a JSON object, like {"change_id": "add-review-tool"}, then run `agentboard task add` again.');
  });

  it('of an input over 1 MB (INPUT_TOO_LARGE), in a file or on standard input, name the command to run again', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(1_100_000) });
    expect(await refused(['task', 'add', '--as', 'claude', '--input', '-'], big)).toMatchObject({
      code: 'INPUT_TOO_LARGE',
      next_step: 'Give --input at most 1 MB on standard input, then run `agentboard task add` again.',
    });
    write(dir, 'big.json', big);
    expect(await refused(['task', 'add', '--as', 'claude', '--input', 'big.json'])).toMatchObject({
      code: 'INPUT_TOO_LARGE',
      next_step: 'Give --input a file of at most 1 MB, then run `agentboard task add` again.',
    });
    write(dir, 'big.md', `# Spec\n\n${'x'.repeat(1_100_000)}\n`);
    expect((await refused(['spec', 'abc-def', '--as', 'claude', '--from', 'big.md'])).next_step).toBe('Give --from a file of at most 1 MB, then run `agentboard spec` again.');
  });

  it('of `import` with a tool it does not know: bad usage before any person is asked for, naming its help', async () => {
    // No terminal and no person's key: the usage is refused first all the same.
    const r = await cli(dir, ['import', 'bogus', '--json'], { env: { AGENTBOARD_PERSON_KEY: '' } });
    expect(r.code).toBe(2);
    expect(r.json.error).toEqual({
      code: 'INVALID_INPUT',
      message: 'Invalid input: <tool> must be one of: agentd, openspec, spec-kit.',
      next_step: 'Correct the options and arguments named above and run the command again (`agentboard import --help` says what each takes and what the command needs); nothing was changed.',
    });
    const text = await cli(dir, ['import', 'bogus'], { interactive: true });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('next: Correct the options and arguments named above and run the command again (`agentboard import --help`');
    expect(text.stderr).not.toMatch(CALL_WORDING);
  });

  it('of a cursor given with more than it takes name the command and its options', async () => {
    await ok(dir, ['new', 'cursor-list', '--as', 'claude', '--title', 'T']);
    const cursor = (await ok(dir, ['log', '--limit', '1'])).next_cursor as string;
    const withOffset = await refused(['log', '--cursor', cursor, '--offset', '1']);
    expect(withOffset.message).toBe('Invalid input: --offset cannot be given with a cursor, which says where its list goes on.');
    expect(withOffset.next_step).toBe('Run `agentboard log` again with --cursor alone (and --limit, for another page size).');
    const withActor = await refused(['log', '--cursor', cursor, '--actor', 'claude']);
    expect(withActor.message).toBe('Invalid input: --actor "claude" is not the list the cursor continues, which gives none.');
    expect(withActor.next_step).toBe('Run `agentboard log` again with --cursor alone to continue that list, or without --cursor to start another one.');
  });

  it('keep the call wording for an MCP client', async () => {
    const mcp = await connect(dir);
    try {
      const bad = await mcp.call('agentboard_create_change', { agent_id: 'claude', change_id: 'x' });
      expect(bad.error!.next_step).toBe('Correct the fields named above and send the call again; nothing was changed.');
      const first = await mcp.call('agentboard_get_activity_log', { limit: 1 });
      const both = await mcp.call('agentboard_get_activity_log', { cursor: first.data.next_cursor, offset: 1 });
      expect(both.error!.message).toBe('Invalid input: offset cannot be given with a cursor, which says where its list goes on.');
      expect(both.error!.next_step).toBe('Call again with the cursor alone (and limit, for another page size).');
      const other = await mcp.call('agentboard_get_activity_log', { cursor: first.data.next_cursor, actor: 'claude' });
      expect(other.error!.message).toBe('Invalid input: actor "claude" is not the list the cursor continues, which gives none.');
    } finally {
      await mcp.close();
    }
  });
});

describe('agentboard runs', () => {
  it('with a word that is not its subcommand says what it takes and how to list the runs (exit 2)', async () => {
    const dir = await newBoard();
    const r = await cli(dir, ['runs', 'bogus', '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error).toEqual({
      code: 'USAGE',
      message: "`agentboard runs` has no subcommand 'bogus': it takes list (the default: the runs, newest first) or show followed by a run id.",
      next_step: 'List the runs with `agentboard runs`, then show one with `agentboard runs show` followed by its run id.',
    });
    const text = await cli(dir, ['runs', 'bogus']);
    expect(text.code).toBe(2);
    expect(text.stderr).not.toContain('too many arguments');
    expect(text.stderr).toContain("`agentboard runs` has no subcommand 'bogus'");
    const list = await cli(dir, ['runs', 'list', 'extra', '--json']);
    expect(list.code).toBe(2);
    expect(list.json.error.message).toBe("`agentboard runs list` takes no arguments, and 'extra' was given.");
    expect((await cli(dir, ['runs'])).code).toBe(0);
  });
});

describe("a reviewer's correction given with --from", () => {
  let dir: string;
  let key: string;
  let mcp: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
    await ok(dir, ['review-request', 'ids', 'tasks']);
    await ok(dir, ['task', 'rm', 'ids/T3', '--as', 'planner']);
    mcp = await connect(dir);
  });
  afterAll(async () => mcp.close());

  it('names the file given in its findings, and the retry repeats the command with the key as a placeholder', async () => {
    const text = `${(await cli(dir, ['show', 'ids', 'tasks'])).stdout.trimEnd()}\n\n## T3: Again\n\n\`\`\`yaml\nstatus: todo\n\`\`\`\n\nBack.\n`;
    write(dir, 'again.md', text);
    const line = text.split('\n').indexOf('## T3: Again') + 1;
    const before = snapshot(dir);
    const r = await cli(dir, ['correct', 'ids', 'tasks', '--as', 'rv', `--review-key=${key}`, '--from', 'again.md', '--notes', 'Put T3 back.', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('VALIDATION_FAILED');
    expect(r.json.error.details.findings).toMatchObject([{ rule: 'tasks.id.retired', file: 'again.md', line }]);
    expect(r.json.error.next_step).toBe("Fix this and call `agentboard correct ids tasks --as rv --review-key <review-key> --from again.md --notes 'Put T3 back.'` again.");
    expect(r.stdout).not.toContain(key);
    expect(snapshot(dir)).toEqual(before);
    // The same text sent to the tool is named by its field, and the call to make again is the tool's.
    const viaTool = await mcp.call('agentboard_correct_document', { agent_id: 'rv', review_key: key, change_id: 'ids', document: 'tasks', markdown: readFileSync(join(dir, 'again.md'), 'utf8'), notes: 'Put T3 back.' });
    expect(viaTool.error!.next_step).toBe('Fix this and call agentboard_correct_document {"agent_id":"rv","change_id":"ids","document":"tasks"} giving review_key, markdown and notes again.');
  });

  it('names the file given where the markdown cannot be read at all', async () => {
    write(dir, 'not-tasks.md', '# Tasks\n\nnothing here\n');
    const r = await cli(dir, ['correct', 'ids', 'tasks', '--as', 'rv', '--review-key', key, '--from', 'not-tasks.md', '--notes', 'n', '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toMatch(/^not-tasks\.md: no tasks were found: /);
    expect(r.stdout).not.toContain(key);
  });
});

describe('an agent that names itself in --input', () => {
  it('is told the commands to go on with as itself, with --as, as when it gives --as', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'add-search', [{ title: 'Build the index' }]);
    const r = await cli(dir, ['next', '--input', write(dir, 'me.json', JSON.stringify({ agent_id: 'inputted' }))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Report with `agentboard task progress add-search/T1 --as inputted`');
    expect(r.stdout).toContain('finish with `agentboard task done add-search/T1 --as inputted`');
  });
});

describe('an agent that asks a person from the command line', () => {
  it('is told how to read the answer as itself: with --as, whether it gave --as or was started by a run, and the command works as given', async () => {
    const dir = await newBoard();
    for (const [agent, args, env] of [
      ['asker', ['--as', 'asker'], {}],
      ['started', [], { AGENTBOARD_AGENT_ID: 'started' }],
    ] as const) {
      const asked = await cli(dir, ['ask', '--question', 'Which database?', '--default-action', 'Use SQLite.', ...args], { env });
      expect(asked.code, asked.stderr).toBe(0);
      expect(asked.stdout).toContain(`\nRead the answer with \`agentboard session show --as ${agent}\`.\n`);
      const again = await cli(dir, ['ask', '--question', 'And the cache?', '--default-action', 'None.', ...args, '--json'], { env });
      expect(again.json.error.code).toBe('INPUT_ALREADY_OPEN');
      expect(again.json.error.next_step).toMatch(new RegExp(`^Wait for its answer with \`agentboard session show --as ${agent}\`;`));
      const moved = await cli(dir, ['session', 'status', 'completed', '--message', 'Done.', ...args, '--json'], { env });
      expect(moved.json.error.next_step).toContain(`Meanwhile read the answer with \`agentboard session show --as ${agent}\`.`);
      const shown = await cli(dir, ['session', 'show', '--as', agent, '--json']);
      expect(shown.json.data.awaiting_input.question).toBe('Which database?');
    }
  });
});
