/**
 * Shell completion: what `agentboard __complete` offers, and the scripts of `agentboard completion`
 * loaded into real bash, zsh and fish, which complete change and task ids from the board.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, NODE_ARGS, ok, tempDir } from '../helpers.js';

let dir: string;
let env: Record<string, string>;

const offered = async (...words: string[]) => (await cli(dir, ['__complete', '--', ...words])).stdout.split('\n').filter(Boolean);

/** Runs a shell in the board's folder, with `agentboard` on its PATH. */
function shell(program: string, script: string): string {
  const r = spawnSync(program, ['-c', script], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${program} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  dir = await newBoard();
  await changeWithTasks(dir, 'add-search', [
    { id: 'T1', title: 'Index the titles' },
    { id: 'T2', title: 'Search command' },
  ]);
  await changeWithTasks(dir, 'fix-login', [{ id: 'T1', title: 'Reset tokens expire' }]);
  await ok(dir, ['session', 'status', 'working', '--as', 'codex', '--message', 'Starting']);
  const bin = join(tempDir('agentboard-bin-'), 'bin');
  mkdirSync(bin);
  const wrapper = join(bin, 'agentboard');
  writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' ${NODE_ARGS.map((a) => `'${a}'`).join(' ')} '${BIN}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  env = childEnv({ PATH: `${bin}:${process.env.PATH}` });
});

describe('what completion offers', () => {
  it('commands, subcommands and the flags of a command, with the global flags that apply', async () => {
    expect(await offered('')).toEqual(expect.arrayContaining(['board', 'approve', 'status', 'task', 'completion']));
    expect(await offered('')).not.toContain('__complete');
    expect(await offered('ap')).toEqual(['approve']);
    expect(await offered('task', 'p')).toEqual(['progress']);
    expect(await offered('propose', 'x', '--w')).toEqual(['--why', '--what-changes']);
    expect(await offered('list', '--')).toEqual(expect.arrayContaining(['--phase', '--archived', '--root', '--json', '--help']));
    expect(await offered('list', '--')).not.toContain('--as');
  });

  it('change ids, task ids change by change, documents, and the values a flag takes', async () => {
    expect(await offered('board', '')).toEqual(['add-search', 'fix-login']);
    expect(await offered('task', 'show', '')).toEqual(['add-search/', 'fix-login/']);
    expect(await offered('task', 'show', 'add-search/')).toEqual(['add-search/T1', 'add-search/T2']);
    expect(await offered('approve', 'fix')).toEqual(['fix-login/', 'fix-login']);
    expect(await offered('approve', 'add-search', '')).toEqual(['proposal', 'spec', 'tasks', 'review', 'design']);
    expect(await offered('list', '--phase', 'impl')).toEqual(['implementation']);
    expect(await offered('task', 'list', '--status', 'in_')).toEqual(['in_progress', 'in_review']);
    expect(await offered('task', 'list', '--change', '')).toEqual(['add-search', 'fix-login']);
    expect(await offered('next', '--as', '')).toEqual(['codex', 'planner']);
    expect(await offered('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await offered('list', '--root', '')).toEqual(['__files__']);
  });

  it('the clients init --mcp wires and the tools import reads, as fixed values; a path after the tool', async () => {
    expect(await offered('init', '--mcp', '')).toEqual(['claude', 'codex', 'cursor', 'gemini', 'vscode']);
    expect(await offered('init', '--mcp', 'claude', '--mcp', 'c')).toEqual(['claude', 'codex', 'cursor']);
    expect(await offered('import', '')).toEqual(['agentd', 'openspec', 'spec-kit']);
    expect(await offered('import', 'o')).toEqual(['openspec']);
    expect(await offered('import', 'openspec', '')).toEqual(['__files__']);
    expect(await offered('import', '--dry-run', 'spec', '')).toEqual(['__files__']);
  });

  it('offers archived changes to the commands that read, and only to them', async () => {
    const archived = join(dir, 'agentd/archive/2026-11-01-old-search');
    mkdirSync(archived, { recursive: true });
    try {
      expect(await offered('show', '')).toEqual(['add-search', 'fix-login', 'old-search']);
      expect(await offered('show', 'old')).toEqual(['old-search']);
      expect(await offered('approve', '')).toEqual(expect.arrayContaining(['add-search', 'fix-login']));
      expect(await offered('approve', '')).not.toContain('old-search');
      expect(await offered('propose', 'old')).toEqual([]);
    } finally {
      rmSync(archived, { recursive: true, force: true });
    }
  });

  it('offers no ids outside a board, and refuses a shell it has no script for', async () => {
    expect((await cli(tempDir(), ['__complete', '--', 'board', ''])).stdout).toBe('');
    const r = await cli(dir, ['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Give one of: bash, zsh, fish');
  });
});

describe('the scripts in real shells', () => {
  it('bash completes commands, change ids and task ids', () => {
    const run = (words: string) =>
      shell('bash', `source <(agentboard completion bash); COMP_WORDS=(${words}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _agentboard; printf '%s\\n' "\${COMPREPLY[@]}"`);
    expect(run(`agentboard ap`)).toBe('approve\n');
    expect(run(`agentboard approve add-search/`)).toBe('add-search/T1\nadd-search/T2\n');
    expect(run(`agentboard task show fix`)).toBe('fix-login/\n');
    expect(run(`agentboard init --mcp c`)).toBe('claude\ncodex\ncursor\n');
    expect(run(`agentboard import sp`)).toBe('spec-kit\n');
  });

  it('zsh completes task ids, change ids going on without a space', () => {
    const stubs = `compdef() { :; }; compadd() { print -r -- "compadd $*"; }; _files() { print -r -- _files; }`;
    const run = (words: string) => shell('zsh', `${stubs}; source <(agentboard completion zsh); words=(${words}); CURRENT=\${#words}; _agentboard`);
    expect(run(`agentboard approve add-search/`)).toBe('compadd -Q -- add-search/T1 add-search/T2\n');
    expect(run(`agentboard task show ''`)).toBe('compadd -Q -S  -- add-search/ fix-login/\n');
    expect(run(`agentboard list --root ''`)).toBe('_files\n');
    expect(run(`agentboard init --mcp ''`)).toBe('compadd -Q -- claude codex cursor gemini vscode\n');
    expect(run(`agentboard import openspec ''`)).toBe('_files\n');
  });

  it('fish completes commands and task ids', () => {
    const run = (line: string) => shell('fish', `source (agentboard completion fish | psub); complete -C '${line}'`);
    expect(run('agentboard boa')).toBe('board\n');
    expect(run('agentboard task show add-search/')).toBe('add-search/T1\nadd-search/T2\n');
    expect(run('agentboard show add-search s')).toBe('spec\n');
    expect(run('agentboard init --mcp cu')).toBe('cursor\n');
    // After the tool, the folder to read: the shell offers the files here.
    expect(run('agentboard import agentd add-search-s')).toBe('add-search-spec.md\n');
  });
});
