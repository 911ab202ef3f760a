/**
 * `agentboard demo`: `agentboard run` on a board in a temporary git repository, with the built-in
 * scripted agent as planner, two workers and reviewer (a real program that speaks MCP to its own
 * `agentboard mcp`, as an agent CLI would). The run shows its live view on a terminal and plain
 * lines elsewhere; the person's decisions are made by the demo, with the real CLI, and shown.
 */
import { mkdtempSync, realpathSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Io } from './main.js';
import { isAgentMarker } from '../domain/agent-markers.js';
import { newPersonKey, PERSON_KEY_VARIABLE, personKeyHash } from '../domain/people.js';
import { Board } from '../store/board.js';
import { renderPeople } from '../store/people.js';

const CHANGE = 'add-search';
const GOAL = 'Let people find their notes by the words they remember: an index kept up to date on save, and a search command with ranked results.';

export async function runDemo(io: Io, options: { keep: boolean }): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'agentboard-demo-'));
  const bin = realpathSync(process.argv[1]!);
  // The demo's board is its own, in a temporary folder: its person, Dana, acts there through a key
  // of her own, made below; markers of an agent's environment around the demo do not reach it.
  const env: Record<string, string> = { GIT_CONFIG_NOSYSTEM: '1' };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !isAgentMarker(k) && k !== PERSON_KEY_VARIABLE) env[k] = v;
  const shell = (command: string, args: string[]) => execa(command, args, { cwd: dir, env, stdin: 'ignore' });
  /** A command the person runs, shown with its output. */
  const person = async (args: string[], stdio: 'show' | 'inherit' = 'show') => {
    io.out(`\n$ agentboard ${args.map((a) => (/[\s"'{}]/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n`);
    if (stdio === 'inherit') return (await execa(process.execPath, [bin, ...args], { cwd: dir, env, stdio: 'inherit', reject: false })).exitCode ?? 1;
    const r = await execa(process.execPath, [bin, ...args], { cwd: dir, env, stdin: 'ignore', reject: false });
    io.out(`${String(r.stdout).trimEnd().replace(/^/gm, '  ')}\n`);
    if (r.exitCode !== 0) throw new Error(`agentboard ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
    return 0;
  };
  try {
    io.out(`agentboard demo in ${dir}\n\nA git repository with a board. Its agents are agentboard's scripted agent, a real program that\ntalks to its own agentboard MCP server, as Claude Code or Codex would: it plans, works and reviews.\n`);
    await shell('git', ['init', '-q']);
    await shell('git', ['config', 'user.name', 'Dana']);
    await shell('git', ['config', 'user.email', 'dana@example.com']);
    writeFileSync(join(dir, 'README.md'), '# Notes\n\nA notes app.\n');
    await person(['init']);
    const key = newPersonKey();
    await new Board(dir).mutate((tx) => tx.putBoardFile('people.yaml', renderPeople([{ name: 'human:Dana', key_sha256: personKeyHash(key), added: tx.now }])));
    env[PERSON_KEY_VARIABLE] = key;
    writeFileSync(
      join(dir, 'agentd', 'config.yaml'),
      [
        'agents:',
        `  scripted: { command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(bin)}, "scripted-agent"] }`,
        'run:',
        '  planner: scripted',
        '  reviewer: scripted',
        '  workers: [scripted]',
        '',
      ].join('\n'),
    );
    await shell('git', ['add', '-A']);
    await shell('git', ['commit', '-q', '-m', 'A notes app with a board']);

    io.out('\nDana, the person, runs the change: one planner, two workers in worktrees of their own, one reviewer.\nThe first spec is refused and written again with the findings; the review asks for a fix first.\n');
    const exit = await person(['run', CHANGE, '--goal', GOAL, '--workers', '2', '--merge'], 'inherit');
    if (exit !== 0) throw new Error(`agentboard run ended with exit code ${exit}`);

    io.out('\nThe review says APPROVED. Deciding on it, and archiving the change, are Dana\'s acts:\n');
    await person(['approve', CHANGE, 'review']);
    await person(['archive', CHANGE]);
    io.out('\nWhat the run did, and the work merged into Dana\'s branch:\n');
    await person(['runs']);
    io.out('\n$ git log --oneline --graph\n');
    io.out(`${String((await shell('git', ['log', '--oneline', '--graph'])).stdout).replace(/^/gm, '  ')}\n`);
    io.out(`\nThe demo board ${options.keep ? `is kept in ${dir}` : 'was in a temporary folder and has been removed'}.\n`);
    return 0;
  } catch (err) {
    io.err(`demo failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    if (!options.keep) {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.agentboard-worktrees`, { recursive: true, force: true });
    } else {
      // archive removed the task worktrees (their branches stay in the kept repository): the empty
      // folder that held them is not left beside it. rmdir removes no folder that still holds one.
      try {
        rmdirSync(`${dir}.agentboard-worktrees`);
      } catch {
        // not empty, or never made: nothing to tidy
      }
    }
  }
}
