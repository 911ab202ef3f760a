/**
 * A cloned repository whose board is booby-trapped: symbolic links at every level of agentd/
 * (to files and folders outside the repository), hard links, named pipes, a change folder that
 * is a file. Every command either refuses, naming the path, or works on what is safe; nothing
 * outside the board is ever written, and no command hangs on a pipe.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeWithTasks, cli, newBoard, ok, snapshot, tempDir } from '../helpers.js';
import { connect } from '../mcp/helpers.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', encoding: 'utf8' });

/** A folder outside every repository, with a board-shaped tree and files worth protecting. */
function outsideWorld(): string {
  const dir = tempDir('agentboard-outside-');
  mkdirSync(join(dir, 'changes', 'stolen'), { recursive: true });
  writeFileSync(join(dir, 'changes', 'stolen', 'proposal.md'), '---\nid: proposal\n---\n# not yours\n');
  writeFileSync(join(dir, 'secrets.txt'), 'do not touch\n');
  writeFileSync(join(dir, 'activity.jsonl'), '');
  writeFileSync(join(dir, 'tasks.md'), '# outside\n');
  return dir;
}

/** What a person would run on a fresh clone, and what agents would. */
const COMMANDS: string[][] = [
  ['list'],
  ['status'],
  ['validate', '--all'],
  ['log'],
  ['task', 'list'],
  ['show', 'work', 'tasks'],
  ['next', '--as', 'w1'],
  ['task', 'note', 'work/T1', 'A decision and its reason.', '--as', 'human:tester'],
  ['task', 'done', 'work/T2', '--as', 'w2'],
  ['propose', 'fresh-change', '--as', 'planner', '--why', 'Agents and people need one place to see who works on what, so no work is done twice.', '--what-changes', 'Add it.', '--impact', 'None.', '--notes', 'No additional notes.'],
  ['approve', 'work', 'tasks'],
  ['agent', 'register', '--as', 'w3', '--name', 'Three', '--role', 'worker'],
  ['expire'],
  ['init'],
];

interface Trap {
  name: string;
  /** Sets the trap in the clone; `outside` is the folder it points at. */
  set: (board: string, outside: string) => void;
}

const at = (board: string, rel: string) => join(board, 'agentd', rel);
function replaceWithLink(path: string, target: string): void {
  rmSync(path, { recursive: true, force: true });
  symlinkSync(target, path);
}
function replaceWithPipe(path: string): void {
  rmSync(path, { recursive: true, force: true });
  execFileSync('mkfifo', [path]);
}

const TRAPS: Trap[] = [
  { name: 'agentd itself is a link to a folder outside', set: (b, o) => replaceWithLink(join(b, 'agentd'), o) },
  { name: 'agentd/changes is a link', set: (b, o) => replaceWithLink(at(b, 'changes'), join(o, 'changes')) },
  { name: 'a change folder is a link', set: (b, o) => replaceWithLink(at(b, 'changes/work'), join(o, 'changes', 'stolen')) },
  { name: 'a change folder is a relative link out of the repository', set: (b, o) => replaceWithLink(at(b, 'changes/work'), join('..', '..', '..', o.split('/').pop()!, 'changes', 'stolen')) },
  { name: 'tasks.md is a link to a file outside', set: (b, o) => replaceWithLink(at(b, 'changes/work/tasks.md'), join(o, 'tasks.md')) },
  { name: 'tasks.md is a hard link to a file outside', set: (b, o) => (rmSync(at(b, 'changes/work/tasks.md')), linkSync(join(o, 'tasks.md'), at(b, 'changes/work/tasks.md'))) },
  { name: 'proposal.md is a link', set: (b, o) => replaceWithLink(at(b, 'changes/work/proposal.md'), join(o, 'secrets.txt')) },
  { name: 'config.yaml is a link', set: (b, o) => replaceWithLink(at(b, 'config.yaml'), join(o, 'secrets.txt')) },
  { name: 'people.yaml is a link', set: (b, o) => replaceWithLink(at(b, 'people.yaml'), join(o, 'secrets.txt')) },
  { name: 'agentd/archive is a link', set: (b, o) => (rmSync(at(b, 'archive'), { recursive: true, force: true }), symlinkSync(join(o, 'changes'), at(b, 'archive'))) },
  { name: 'agentd/.runtime is a link', set: (b, o) => replaceWithLink(at(b, '.runtime'), o) },
  { name: 'the activity log is a link', set: (b, o) => replaceWithLink(at(b, '.runtime/activity.jsonl'), join(o, 'activity.jsonl')) },
  { name: 'the runtime state is a link', set: (b, o) => replaceWithLink(at(b, '.runtime/state.json'), join(o, 'secrets.txt')) },
  { name: 'the ledger folder is a link', set: (b, o) => replaceWithLink(at(b, '.runtime/ledger'), o) },
  { name: 'a dangling link where the lock goes', set: (b, o) => symlinkSync(join(o, 'lock-made-here'), at(b, '.runtime/lock')) },
  { name: 'tasks.md is a named pipe', set: (b) => replaceWithPipe(at(b, 'changes/work/tasks.md')) },
  { name: 'config.yaml is a named pipe', set: (b) => replaceWithPipe(at(b, 'config.yaml')) },
  { name: 'the activity log is a named pipe', set: (b) => replaceWithPipe(at(b, '.runtime/activity.jsonl')) },
  { name: 'a change folder is a file', set: (b) => (rmSync(at(b, 'changes/work'), { recursive: true }), writeFileSync(at(b, 'changes/work'), 'not a folder\n')) },
  { name: 'agentd/changes is a file', set: (b) => (rmSync(at(b, 'changes'), { recursive: true }), writeFileSync(at(b, 'changes'), 'not a folder\n')) },
];

const SAFE_REFUSALS = ['UNSAFE_PATH', 'NOT_A_FOLDER', 'NOT_A_FILE', 'CHANGE_NOT_FOUND', 'TASK_NOT_FOUND', 'BOARD_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'PARSE_ERROR', 'INVALID_CONFIG', 'NOTHING_TO_APPROVE', 'INVALID_TRANSITION', 'TASK_NOT_READY', 'TASK_HELD', 'CHANGE_EXISTS', 'PHASE_LOCKED', 'PERSON_KEY_INVALID', 'INVALID_PEOPLE'];

describe('a hostile clone', () => {
  let origin: string;
  beforeAll(async () => {
    origin = await newBoard();
    await changeWithTasks(origin, 'work', [{ title: 'One' }, { title: 'Two' }]);
    await ok(origin, ['next', '--as', 'w0']);
    git(origin, 'init', '-q');
    git(origin, 'add', '-A', '-f');
    git(origin, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'board');
  });

  it('committed links arrive as links in a clone, and commands refuse them without writing through them', async () => {
    const outside = outsideWorld();
    const src = join(tempDir(), 'src');
    git(tempDir(), 'clone', '-q', origin, src);
    replaceWithLink(at(src, 'changes/work/tasks.md'), join(outside, 'tasks.md'));
    replaceWithLink(at(src, '.runtime/activity.jsonl'), join(outside, 'activity.jsonl'));
    git(src, 'add', '-A', '-f');
    git(src, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'trap');
    const clone = join(tempDir(), 'clone');
    git(tempDir(), 'clone', '-q', src, clone);
    expect(git(clone, 'ls-files', '-s', 'agentd/changes/work/tasks.md')).toMatch(/^120000 /);
    const before = snapshot(outside);
    // A read leaves the linked file out and says so; a write refuses.
    const next = await cli(clone, ['next', '--as', 'w1', '--json']);
    expect(next.json.data.status).toBe('nothing_available');
    expect(next.json.notices).toContainEqual(expect.stringContaining('agentd/changes/work/tasks.md is a symbolic link'));
    for (const args of [['task', 'note', 'work/T1', 'A note: with a $(title).', '--as', 'w0'], ['agent', 'register', '--as', 'w2', '--name', 'Two', '--role', 'worker']]) {
      const r = await cli(clone, [...args, '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error.code).toBe('UNSAFE_PATH');
      expect(r.json.error.message).toMatch(/agentd\/(changes\/work\/tasks\.md|\.runtime\/activity\.jsonl) is a symbolic link/);
    }
    expect(snapshot(outside)).toEqual(before);
  });

  for (const trap of TRAPS) {
    it(`${trap.name}: every command refuses or works inside the board, and nothing outside changes`, async () => {
      const outside = outsideWorld();
      const clone = join(tempDir(), 'clone');
      git(tempDir(), 'clone', '-q', origin, clone);
      trap.set(clone, outside);
      const before = snapshot(outside);
      const mcp = await connect(clone, 'all');
      for (const args of COMMANDS) {
        const r = await cli(clone, [...args, '--json']);
        const what = `${trap.name}: ${args.join(' ')}`;
        expect(r.json, `${what}\n${r.stdout}${r.stderr}`).toBeDefined();
        if (!r.json.ok) expect(r.json.error.code, `${what}\n${r.stdout}`).toBeOneOf(SAFE_REFUSALS);
        else expect(r.code, what).toBe(args[0] === 'validate' && !r.json.data.valid ? 1 : 0);
        expect(r.stderr, what).not.toMatch(/at .*\.js:\d+/); // no stack trace: a handled refusal
      }
      for (const [tool, args] of [
        ['agentboard_get_next_task', { agent_id: 'm1' }],
        ['agentboard_add_note', { agent_id: 'w0', task_id: 'work/T1', text: 'A decision and its reason.' }],
        ['agentboard_get_project_status', {}],
      ] as const) {
        const r = await mcp.call(tool, args);
        if (r.isError) expect(r.error?.code, `${trap.name}: ${tool} ${r.text}`).toBeOneOf(SAFE_REFUSALS);
      }
      await mcp.close();
      expect(snapshot(outside)).toEqual(before);
    }, 30_000);
  }
});
