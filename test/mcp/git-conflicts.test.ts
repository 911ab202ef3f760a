/**
 * A git merge that stops on a conflict in the board's files: `conflicts list` and
 * agentboard_list_conflicts name the files, where their markers are, and the git commands that
 * finish (or drop) the merge; once it is resolved they say there is nothing left.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, cli, newBoard, snapshot, tempDir } from '../helpers.js';

const TASKS = 'agentd/changes/demo/tasks.md';

function git(dir: string, ...args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  return { status: r.status, stdout: r.stdout };
}

function must(dir: string, ...args: string[]): string {
  const r = git(dir, ...args);
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed`);
  return r.stdout;
}

/** A board in a git repository where `git merge other` stopped on a conflict in the task list. */
async function mergeStoppedOnTasks(): Promise<string> {
  const dir = await newBoard();
  await changeWithTasks(dir, 'demo', [{ title: 'One' }, { title: 'Two' }]);
  must(dir, 'init', '-q', '-b', 'main');
  must(dir, 'add', '-A');
  must(dir, 'commit', '-q', '-m', 'base');
  const edit = (title: string) => writeFileSync(join(dir, TASKS), readFileSync(join(dir, TASKS), 'utf8').replace('## T1: One', `## T1: ${title}`));
  must(dir, 'checkout', '-q', '-b', 'other');
  edit('One, as the other branch has it');
  must(dir, 'commit', '-q', '-a', '-m', 'other');
  must(dir, 'checkout', '-q', 'main');
  edit('One, as main has it');
  must(dir, 'commit', '-q', '-a', '-m', 'main');
  expect(git(dir, 'merge', 'other').status, 'the merge stops on the conflict').toBe(1);
  expect(must(dir, 'ls-files', '--unmerged', '--', TASKS)).not.toBe('');
  return dir;
}

/** The lines of the first conflict's <<<<<<< and >>>>>>> markers in a file. */
function markerLines(dir: string, file: string): [number, number] {
  const lines = readFileSync(join(dir, file), 'utf8').split('\n');
  return [lines.findIndex((l) => l.startsWith('<<<<<<< ')) + 1, lines.findIndex((l) => l.startsWith('>>>>>>> ')) + 1];
}

describe('a git merge stopped on a conflict in a task list', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mergeStoppedOnTasks();
  }, 60_000);

  it('is listed by `conflicts list` with its markers, the git state and the commands that finish it, and nothing is written', async () => {
    const before = snapshot(dir);
    const [start, end] = markerLines(dir, TASKS);
    const r = await cli(dir, ['conflicts', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.data).toMatchObject({ git_conflicts: [{ file: TASKS, unmerged: true, line: start, end_line: end }], git_operation: 'merge', conflicts: [] });
    expect(r.json.data.next_step).toContain(`git add ${TASKS}`);
    expect(r.json.data.next_step).toContain('git commit');
    expect(r.json.data.next_step).toContain('git merge --abort');

    const text = await cli(dir, ['conflicts', 'list']);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('No merge conflicts');
    expect(text.stdout).toContain(`A git merge stopped on conflicts in the board's files:\n  ${TASKS}:${start}: markers on lines ${start}–${end} (unmerged)\nNext: `);

    const other = await cli(dir, ['conflicts', 'list', '--file', 'agentd/changes/demo/spec.md', '--json']);
    expect(other.json.data).toMatchObject({ git_conflicts: [], next_step: null, git_operation: 'merge' });
    expect(snapshot(dir)).toEqual(before);
  });

  it('is listed by agentboard_list_conflicts to a client on stdio, its result valid against the outputSchema', async () => {
    const client = new Client({ name: 'git-conflicts', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--profile', 'planner'], cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: tempDir('agentboard-home-') }, stderr: 'pipe' }));
    try {
      await client.listTools(); // the client checks structuredContent against the outputSchema from now on
      const r = (await client.callTool({ name: 'agentboard_list_conflicts', arguments: {} })) as { isError?: boolean; content: { text: string }[]; structuredContent: any };
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent.git_conflicts).toEqual([{ file: TASKS, unmerged: true, line: markerLines(dir, TASKS)[0], end_line: markerLines(dir, TASKS)[1] }]);
      expect(r.structuredContent.git_operation).toBe('merge');
      expect(r.content[0]!.text).not.toContain('No merge conflicts');
      expect(r.content[0]!.text).toContain(`git add ${TASKS}`);
    } finally {
      await client.close();
    }
  });

  it('once the file holds no markers (a sync settled it, or a person) but git has it unmerged, says only to mark it settled', async () => {
    const copy = await mergeStoppedOnTasks();
    writeFileSync(join(copy, TASKS), must(copy, 'show', `HEAD:${TASKS}`));
    const r = await cli(copy, ['conflicts', 'list', '--json']);
    expect(r.json.data.git_conflicts).toEqual([{ file: TASKS, unmerged: true, line: null, end_line: null }]);
    expect(r.json.data.next_step).toBe(
      `${TASKS} holds no conflict markers (a sync of the shared board settles a board file so, or one side deleted it): once it is as it should be, mark it settled with git add ${TASKS} (git rm to delete it); then finish the merge with git commit (or drop it with git merge --abort).`,
    );
  }, 60_000);

  it('is still listed once git add took the file with its markers, and no longer once they are resolved and committed', async () => {
    const copy = await mergeStoppedOnTasks();
    must(copy, 'add', TASKS);
    const staged = await cli(copy, ['conflicts', 'list', '--json']);
    expect(staged.json.data.git_conflicts).toEqual([{ file: TASKS, unmerged: false, line: markerLines(copy, TASKS)[0], end_line: markerLines(copy, TASKS)[1] }]);

    must(copy, 'checkout', 'HEAD', '--', TASKS);
    must(copy, 'commit', '-q', '-a', '--no-edit');
    const resolved = await cli(copy, ['conflicts', 'list', '--json']);
    expect(resolved.json.data).toMatchObject({ git_conflicts: [], git_operation: null, next_step: null });
    expect((await cli(copy, ['conflicts', 'list'])).stdout).toMatch(/^No merge conflicts\.\n/);
  }, 60_000);
});

describe('conflict markers in a board outside git', () => {
  it('are listed, with no git operation', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'demo', [{ title: 'One' }]);
    const file = 'agentd/changes/demo/proposal.md';
    writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').replace('## Why', '<<<<<<< HEAD\n## Why\n=======\n## Why this\n>>>>>>> other\n'));
    const [start, end] = markerLines(dir, file);
    const r = await cli(dir, ['conflicts', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.data).toMatchObject({ git_conflicts: [{ file, unmerged: false, line: start, end_line: end }], git_operation: null });
    expect(r.json.data.next_step).toBe(`Resolve ${file}: keep one side or both and remove the <<<<<<<, ======= and >>>>>>> lines, then git add ${file}. Until then agentboard neither reads nor writes it, and hands out no task of a task list in conflict.`);
  });
});
