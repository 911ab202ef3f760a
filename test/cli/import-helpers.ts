/** What the import tests share: a person at a terminal, a source written in a temp folder, an import of it, and the parts of its report. */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cli, tempDir, write } from '../helpers.js';

/** A person at a terminal: the import runs where no board (and so no person's key) exists yet. */
export const PERSON = { interactive: true, env: { AGENTBOARD_PERSON_KEY: '' } };

/** A source repository of these files, in a temp folder. */
export function source(files: Record<string, string>): string {
  const dir = tempDir('agentboard-source-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    write(dir, name, text);
  }
  return dir;
}

/** Imports `src` into a new folder: the run (exit code, data) and the folder. */
export async function imported(tool: string, src: string): Promise<{ board: string; code: number; data: any }> {
  const board = tempDir('agentboard-board-');
  const r = await cli(board, ['import', tool, src, '--json'], PERSON);
  return { board, code: r.code, data: r.json?.data };
}

/** Makes `dir` a git repository holding its files in one commit; returns the commit. */
export function commitAll(dir: string): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'source');
  return git('rev-parse', 'HEAD').stdout.trim();
}

export const row = (data: any, id: string) => data.changes.find((c: any) => c.change_id === id);
export const report = (data: any, file: string) => data.files.find((f: any) => f.file === file);

export const SK_SPEC =
  '# Feature Specification: Rooms\n\n**Input**: User description: "Let people book meeting rooms without asking the front desk."\n\n## User Scenarios & Testing\n\n### User Story 1 - Book (Priority: P1)\n\nA person books a room.\n\n**Acceptance Scenarios**:\n\n1. **Given** a free room, **When** a person books it, **Then** it is booked.\n\n## Requirements\n\n- **FR-001**: System MUST let people book rooms.\n';
export const SK_TASKS = '# Tasks\n\n## Phase 1: Setup\n\n- [X] T001 Create the project\n- [ ] T002 Add the booking form\n';
