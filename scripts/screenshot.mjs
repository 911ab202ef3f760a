// The README's picture of the console: the demo's board (the notes app, its scripted agents, the
// change add-search planned by `agentboard run`), with agents at work on it, shown by `agentboard
// board` in a real terminal (tmux) at a fixed size, captured with its colours and drawn as an SVG.
//
//   npm run build && node scripts/screenshot.mjs [--out docs/console.svg] [--columns 120] [--rows 32]
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { screenToSvg } from './ansi-svg.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'agentboard.js');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const OUT = resolve(ROOT, arg('--out', 'docs/console.svg'));
const COLUMNS = Number(arg('--columns', 120));
const ROWS = Number(arg('--rows', 32));
const GOAL = 'Let people find their notes by the words they remember: an index kept up to date on save, and a search command with ranked results.';

const dir = mkdtempSync(join(tmpdir(), 'agentboard-screenshot-'));
const key = `abpk_${randomBytes(18).toString('hex')}`;
const home = join(dir, '.home');
mkdirSync(home);
const env = { PATH: process.env.PATH, HOME: home, USER: 'dana', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), TERM: 'xterm-256color', AGENTBOARD_PERSON_KEY: key };
const repo = join(dir, 'notes');
mkdirSync(repo);

function run(command, argv, extra = {}) {
  const r = spawnSync(command, argv, { cwd: repo, env: { ...env, ...extra }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}
const agentboard = (...argv) => run(process.execPath, [BIN, ...argv]);
const tmux = (...argv) => spawnSync('tmux', ['-L', `agentboard-screenshot-${process.pid}`, ...argv], { encoding: 'utf8' });

try {
  // The demo's repository and board, and Dana, its person.
  run('git', ['init', '-q']);
  run('git', ['config', 'user.name', 'Dana']);
  run('git', ['config', 'user.email', 'dana@example.com']);
  writeFileSync(join(repo, 'README.md'), '# Notes\n\nA notes app.\n');
  agentboard('init');
  writeFileSync(join(repo, 'agentd', 'people.yaml'), `people:\n  - name: human:Dana\n    key_sha256: ${createHash('sha256').update(key).digest('hex')}\n    added: ${new Date().toISOString()}\n`);
  writeFileSync(
    join(repo, 'agentd', 'config.yaml'),
    ['agents:', `  scripted: { command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(BIN)}, "scripted-agent"] }`, 'run:', '  planner: scripted', '  reviewer: scripted', '  workers: [scripted]', 'require_approval: [spec]', ''].join('\n'),
  );
  run('git', ['add', '-A']);
  run('git', ['commit', '-q', '-m', 'A notes app with a board']);

  // The planner writes the proposal and the spec; the spec waits for Dana's approval.
  run(process.execPath, [BIN, 'run', 'add-search', '--goal', GOAL, '--until', 'spec', '--json']);
  agentboard('approve', 'add-search', 'spec');
  run(process.execPath, [BIN, 'run', 'add-search', '--until', 'tasks', '--json']);
  for (const [title, extra] of [
    ['Fold accents in queries', ['--priority', 'high']],
    ['Index existing notes on first run', []],
    ['Benchmark search on 10,000 notes', ['--depends', 'T3']],
    ['Sample notes fixture', []],
    ['Document search in the README', ['--priority', 'low']],
  ]) agentboard('task', 'add', 'add-search', '--as', 'scripted-planner', '--title', title, ...extra);

  // Agents at work, each in its own process as they would be.
  for (const a of ['claude-w1', 'codex-w2', 'gemini-w3']) agentboard('session', 'status', 'working', '--as', a, '--message', 'Starting');
  agentboard('task', 'progress', 'add-search/T7', '--as', 'claude-w1', '--percent', '100', '--message', 'Fixture of 40 notes');
  agentboard('task', 'done', 'add-search/T7', '--as', 'claude-w1');
  agentboard('task', 'progress', 'add-search/T1', '--as', 'claude-w1', '--percent', '60', '--message', 'Index written; wiring the save hook');
  agentboard('task', 'progress', 'add-search/T2', '--as', 'codex-w2', '--percent', '100', '--message', 'Ranking by term frequency');
  agentboard('session', 'submit', '--as', 'codex-w2', '--summary', 'Ranks by term frequency, ties to the newest note', '--task', 'add-search/T2');
  agentboard('task', 'progress', 'add-search/T4', '--as', 'gemini-w3', '--percent', '20', '--message', 'Looking at Unicode folding');
  agentboard('task', 'block', 'add-search/T4', '--as', 'gemini-w3', '--reason', 'No sample notes with accents', '--severity', 'high');
  agentboard('session', 'status', 'working', '--as', 'kimi-w4', '--message', 'Starting');
  agentboard('task', 'progress', 'add-search/T5', '--as', 'kimi-w4', '--percent', '40', '--message', 'Walking the notes folder');
  agentboard('ask', '--as', 'kimi-w4', '--question', 'Index notes in .trash too?', '--option', 'no', '--option', 'yes', '--default-action', 'no');

  // The console, in a terminal of a fixed size.
  const vars = Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ');
  tmux('new-session', '-d', '-s', 'shot', '-x', String(COLUMNS), '-y', String(ROWS), `cd '${repo}' && exec env -i ${vars} '${process.execPath}' '${BIN}' board`);
  let screen = '';
  for (let i = 0; i < 200 && !screen.includes('IN PROGRESS'); i++) {
    spawnSync('sleep', ['0.1']);
    screen = tmux('capture-pane', '-p', '-t', 'shot').stdout;
  }
  if (!screen.includes('IN PROGRESS')) throw new Error(`the console did not show the board:\n${screen}`);
  spawnSync('sleep', ['0.5']);
  const coloured = tmux('capture-pane', '-e', '-p', '-t', 'shot').stdout;
  tmux('send-keys', '-t', 'shot', 'q');
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, screenToSvg(coloured, { columns: COLUMNS, rows: ROWS }));
  console.log(`${screen}\nwrote ${OUT}`);
} finally {
  tmux('kill-server');
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${repo}.agentboard-worktrees`, { recursive: true, force: true });
}
