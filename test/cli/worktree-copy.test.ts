/**
 * A board found from a linked git worktree is that worktree's copy of agentd/ (its branch's
 * files). When the main worktree has a board too, the two hand out the same tasks without either
 * seeing the other's claims: the first write says so, and an MCP server started there says so on
 * stderr. Real git, real worktrees.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, ok, tempDir } from '../helpers.js';

const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

async function repositoryWithWorktree(): Promise<{ main: string; tree: string }> {
  const main = await newBoard();
  await changeWithTasks(main, 'shared', [{ title: 'One' }, { title: 'Two' }]);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: main, env, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'The board');
  const tree = join(tempDir(), 'feature');
  git('worktree', 'add', '-q', '-b', 'feature', tree);
  return { main, tree };
}

describe('a board found from a linked worktree', () => {
  it('says at its first write that it is the worktree\'s copy, naming the main board and --root; reads, --root and the main worktree say nothing', async () => {
    const { main, tree } = await repositoryWithWorktree();
    const here = await cli(tree, ['next', '--as', 'a6', '--json']);
    expect(here.code, here.stdout).toBe(0);
    expect(here.json.data.task.task_id).toBe('shared/T1');
    expect(here.json.notices).toHaveLength(1);
    expect(here.json.notices[0]).toContain(`the copy of agentd/ in the git worktree ${tree}`);
    expect(here.json.notices[0]).toContain(`pass --root ${main}`);
    const text = await cli(tree, ['task', 'progress', 'shared/T1', '--as', 'a6', '--percent', '10', '--message', 'Started.']);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain(`note: This board is the copy of agentd/ in the git worktree ${tree}`);
    // A read says nothing; nor does a write given --root, nor one in the main worktree.
    expect((await cli(tree, ['status', '--json'])).json.notices).toBeUndefined();
    const rooted = await cli(tree, ['next', '--as', 'a7', '--root', main, '--json']);
    expect(rooted.json.data.task.task_id).toBe('shared/T1');
    expect(rooted.json.notices).toBeUndefined();
    const inMain = await cli(main, ['next', '--as', 'a8', '--json']);
    expect(inMain.json.data.task.task_id).toBe('shared/T2');
    expect(inMain.json.notices).toBeUndefined();
    // A repository without a linked worktree's copy: a plain clone's board says nothing either.
    expect((await ok(main, ['status'])).changes).toBeDefined();
  });

  it('in a worktree whose branch holds no board, names the main worktree\'s board and --root', async () => {
    const main = tempDir();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: main, env, encoding: 'utf8' });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'Before the board');
    await ok(main, ['init']);
    git('add', '-A');
    git('commit', '-q', '-m', 'The board');
    const tree = join(tempDir(), 'old');
    git('worktree', 'add', '-q', '-b', 'old', tree, 'HEAD~1');
    const r = await cli(tree, ['next', '--as', 'w1', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({
      code: 'BOARD_NOT_FOUND',
      message: `No board (an agentd/ folder) was found in this folder or any folder above it: this git worktree's branch holds none, and the repository's main worktree has one, ${join(main, 'agentd')}.`,
      next_step: `Pass --root ${main} to work on that board.`,
    });
    // init there makes the branch's own board, and says what it is beside the main one.
    const made = await ok(tree, ['init']);
    expect(made.created.length).toBeGreaterThan(0);
    expect(made.warning).toBe(`This is a linked git worktree, and the repository's main worktree has a board, ${join(main, 'agentd')}/: the board made here is this branch's own, and its tasks and claims are not that board's. To work on the main board from here, pass --root ${main} (and remove ${join(tree, 'agentd')}/ if it was made by mistake).`);
  });

  it('started as an MCP server there without --root, says so on stderr, naming the main board', async () => {
    const { main, tree } = await repositoryWithWorktree();
    const r = spawnSync(process.execPath, [BIN, 'mcp'], { cwd: tree, env: childEnv(), input: '', encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`serving the copy of agentd/ in the git worktree ${tree}, not the board of the main worktree, ${main}`);
    const rooted = spawnSync(process.execPath, [BIN, 'mcp', '--root', main], { cwd: tree, env: childEnv(), input: '', encoding: 'utf8' });
    expect(rooted.status).toBe(0);
    expect(rooted.stderr).not.toContain('git worktree');
  });
});
