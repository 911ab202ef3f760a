/**
 * A refusal that does not know which operation met it (markdown that cannot be read, a file the
 * disk refuses) names the call to make again as its caller makes it: an MCP client the tool it
 * called, never a command to run; the command line the command as it was typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, NODE_ARGS, ok, snapshot, SPEC_MD, write } from '../helpers.js';
import { stdioServer } from './helpers.js';

/** Words of a next step meant for the command line. */
const COMMAND_WORDING = /command|`agentboard /i;
/** Words of a next step meant for a tool call. */
const CALL_WORDING = /send the call|call the tool|call again|agentboard_/i;

/** A real `agentboard mcp` on the board, with the test hooks loaded (and AGENTBOARD_TEST_* from `env`). */
async function server(dir: string, env: Record<string, string> = {}) {
  const s = stdioServer(process.execPath, [...NODE_ARGS, BIN, 'mcp', '--root', dir], { env: childEnv(env) });
  await s.initialize();
  /** A tool call's error, parsed from its text. */
  const refused = async (name: string, args: object): Promise<{ code: string; message: string; next_step: string }> => {
    const r = await s.request('tools/call', { name, arguments: args });
    expect(r.result?.isError, `${name}: ${JSON.stringify(r)}`).toBe(true);
    return JSON.parse(r.result.content[0].text).error;
  };
  return { refused, close: s.close };
}

describe('markdown a correction cannot read', () => {
  let dir: string;
  let key: string;
  let mcp: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => {
    dir = await newBoard();
    await changeWithTasks(dir, 'ids', [{ title: 'One' }, { title: 'Two' }]);
    key = (await ok(dir, ['reviewer', 'add', 'doc-reviewer'])).review_key;
    await ok(dir, ['review-request', 'ids', 'tasks']);
    await ok(dir, ['review-request', 'ids', 'spec']);
    mcp = await server(dir);
  });
  afterAll(async () => expect(await mcp.close()).toBe(0));

  it('over MCP: the next step names agentboard_correct_document, not a command', async () => {
    const before = snapshot(dir);
    const correct = (document: string, markdown: string) => mcp.refused('agentboard_correct_document', { agent_id: 'rv', review_key: key, change_id: 'ids', document, markdown, notes: 'n' });
    // Not a task list at all; one problem of a spec; two of them.
    const shape = await correct('tasks', '# Tasks\n\nnothing here\n');
    expect(shape.message).toMatch(/^markdown: no tasks were found: /);
    expect(shape.next_step).toBe('Rewrite the markdown with those headings and try agentboard_correct_document again; nothing was changed.');
    const one = await correct('spec', SPEC_MD.replace('### R1: Claims', '### Claims'));
    expect(one.message).toMatch(/^markdown:\d+: requirement heading "Claims" has no id\.$/);
    expect(one.next_step).toBe('Fix the markdown (write it as "### R1: Title") and try agentboard_correct_document again; nothing was changed.');
    const two = await correct('spec', SPEC_MD.replace('### R1: Claims', '### Claims').replace('### R2: Attribution', '### Attribution'));
    expect(two.message).toMatch(/^markdown has 2 problems:/);
    expect(two.next_step).toBe('Fix each of them in the markdown and try agentboard_correct_document again; nothing was changed.');
    for (const error of [shape, one, two]) {
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.next_step).not.toMatch(COMMAND_WORDING);
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it('on the command line: the next step is the command as typed, not a tool call', async () => {
    write(dir, 'not-tasks.md', '# Tasks\n\nnothing here\n');
    const before = snapshot(dir);
    const r = await cli(dir, ['correct', 'ids', 'tasks', '--as', 'rv', '--review-key', key, '--from', 'not-tasks.md', '--notes', 'n', '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toMatch(/^not-tasks\.md: no tasks were found: /);
    expect(r.json.error.next_step).toBe('Rewrite the markdown with those headings and try `agentboard correct ids tasks --as rv --review-key <review-key> --from not-tasks.md --notes n` again; nothing was changed.');
    expect(r.json.error.next_step).not.toMatch(CALL_WORDING);
    expect(r.stdout).not.toContain(key);
    const text = await cli(dir, ['correct', 'ids', 'tasks', '--as', 'rv', '--review-key', key, '--from', 'not-tasks.md', '--notes', 'n']);
    expect(text.stderr).toContain('try `agentboard correct ids tasks --as rv --review-key <review-key> --from not-tasks.md --notes n` again');
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('a file the disk refuses to write', () => {
  // Permission denied is injected where agentboard writes (root, as tests may run, ignores chmod).
  const DENIED = { AGENTBOARD_TEST_FAULT: 'errno:EACCES:' };
  const IO = { AGENTBOARD_TEST_FAULT: 'errno:EIO:' };
  let dir: string;
  beforeAll(async () => {
    dir = await newBoard();
    await changeWithTasks(dir, 'disk', [{ title: 'One' }]);
  });

  it.each([
    ['PERMISSION_DENIED', DENIED],
    ['IO_ERROR', IO],
  ])('over MCP (%s): the next step names the tool called, not a command', async (code, env) => {
    const mcp = await server(dir, env);
    try {
      const before = snapshot(dir);
      const error = await mcp.refused('agentboard_update_status', { agent_id: 'disk-agent', status: 'working', message: 'm' });
      expect(error.code).toBe(code);
      expect(error.next_step).toMatch(/, then try agentboard_update_status again\.$/);
      expect(error.next_step).not.toMatch(COMMAND_WORDING);
      expect(snapshot(dir)).toEqual(before);
    } finally {
      expect(await mcp.close()).toBe(0);
    }
  });

  it('on the command line: the next step is the command as typed', async () => {
    const r = await cli(dir, ['session', 'status', 'working', '--as', 'disk-agent', '--message', 'm', '--json'], { env: DENIED });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('PERMISSION_DENIED');
    expect(r.json.error.next_step).toMatch(/\(ls -l\), then try `agentboard session status working --as disk-agent --message m` again\.$/);
    expect(r.json.error.next_step).not.toMatch(CALL_WORDING);
  });
});
