/**
 * `agentboard demo`: a board in a temporary folder, one change driven through every phase by
 * running the real `agentboard` command, each command printed before it runs, and the board
 * printed at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Io } from './main.js';

const CHANGE = 'add-search';

const SPEC = `# Specification: Full-text search

## Overview

Users need to find notes by their words. This change adds an index that is updated on every save and a search command that ranks notes by relevance.

## Requirements

### R1: Index on save

Saving a note MUST update the search index before the save returns.

### R2: Ranked results

The search command SHALL return matching notes ordered by relevance, best first.

## Acceptance Criteria

### Scenario: Find a saved note

- **GIVEN** a note containing "quarterly plan" was saved
- **WHEN** the user searches for "quarterly"
- **THEN** that note is the first result
`;

const TASKS = {
  tasks: [
    { id: 'T1', title: 'Build the search index', priority: 'high', skills: ['storage'], requirements: ['R1'], files: [{ path: 'src/index.ts', action: 'create' }], description: 'An inverted index from words to note ids, updated on save.' },
    { id: 'T2', title: 'Rank search results', depends: ['T1'], skills: ['search'], requirements: ['R2'], files: [{ path: 'src/rank.ts', action: 'create' }] },
    { id: 'T3', title: 'Add the search command', depends: ['T1'], requirements: ['R2'], files: [{ path: 'src/cli.ts', action: 'modify' }] },
  ],
  notes: 'Split ranking from indexing so the two can be worked on by different agents once the index exists.',
};

export async function runDemo(io: Io, options: { keep: boolean }): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'agentboard-demo-'));
  const bin = process.argv[1]!;
  const run = (args: string[], show = true): string => {
    if (show) io.out(`\n$ agentboard ${args.map((a) => (/[\s"'{}]/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n`);
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, USER: process.env.USER ?? 'demo' } });
    if (r.status !== 0) {
      io.err(r.stderr || r.stdout);
      throw new Error(`demo step failed: agentboard ${args.join(' ')}`);
    }
    if (show) io.out(r.stdout);
    return r.stdout;
  };
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  try {
    io.out(`agentboard demo in ${dir}\n`);
    run(['init']);
    run(['new', CHANGE, '--title', 'Full-text search', '--as', 'claude']);
    run([
      'propose', CHANGE, '--as', 'claude',
      '--why', 'People keep notes for years and can no longer find them by scrolling; they need to search by the words they remember.',
      '--what-changes', 'Add a search index updated on save, and a search command with ranked results.',
      '--impact', 'Saving becomes slightly slower; the notes folder gains an index file.',
      '--notes', 'Chose an inverted index over scanning files because boards reach thousands of notes.',
    ]);
    run(['spec', CHANGE, '--as', 'claude', '--from', file('spec.md', SPEC), '--notes', 'No additional notes: straightforward spec, nothing unexpected.']);
    run(['tasks', CHANGE, '--as', 'claude', '--input', file('tasks.json', JSON.stringify(TASKS))]);
    run(['agent', 'register', '--as', 'codex', '--name', 'Codex', '--role', 'Backend developer', '--skills', 'storage,typescript']);
    run(['agent', 'register', '--as', 'gemini', '--name', 'Gemini', '--role', 'Search developer', '--skills', 'search']);
    run(['next', '--as', 'codex']);
    run(['next', '--as', 'gemini']);
    run(['task', 'progress', `${CHANGE}/T1`, '--as', 'codex', '--percent', '60', '--message', 'Index structure and save hook written; tests next.']);
    run(['task', 'note', `${CHANGE}/T1`, 'Kept the index in one JSON file: simple, and fast enough below 100k notes.', '--as', 'codex']);
    run(['task', 'done', `${CHANGE}/T1`, '--as', 'codex']);
    run(['next', '--as', 'gemini']);
    run(['next', '--as', 'codex']);
    run(['ask', '--as', 'gemini', '--question', 'Should ties in ranking go to the newest note?', '--option', 'newest first', '--option', 'oldest first', '--default-action', 'newest first', '--timeout-minutes', '30']);
    run(['inputs']);
    run(['answer', 'input-1', 'newest first']);
    run(['session', 'submit', '--as', 'gemini', '--summary', 'Ranking by term frequency, ties to the newest note.', '--task', `${CHANGE}/T2`]);
    run(['next', '--as', 'gemini']);
    run(['approve', `${CHANGE}/T2`]);
    run(['task', 'done', `${CHANGE}/T3`, '--as', 'codex']);
    run([
      'review', CHANGE, '--as', 'gemini', '--verdict', 'APPROVED',
      '--summary', 'Index, ranking and command match the spec; the scenario passes.',
      '--notes', 'No additional notes: the review found nothing to fix.',
    ]);
    run(['validate', CHANGE]);
    run(['status']);
    run(['log', '--limit', '8']);
    run(['archive', CHANGE]);
    run(['list', '--archived']);
    io.out(`\nThe demo board ${options.keep ? `is kept in ${dir}` : 'was in a temporary folder and has been removed'}.\n`);
    return 0;
  } catch (err) {
    io.err(`${(err as Error).message}\n`);
    return 1;
  } finally {
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}
