// Builds benchmark boards with the real agentboard (in-process calls of the built CLI, so that
// generating 10,000 tasks takes seconds, not minutes). Boards are cached in .bench-tmp/.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const TMP = join(ROOT, '.bench-tmp');

const WHY = 'Benchmark boards need realistic changes so that the figures mean something for real boards.';
export const SPEC = `# Specification: Bench

## Overview

A generated change used to measure how agentboard behaves on large boards.

## Requirements

### R1: Work

The system MUST do the work.

## Acceptance Criteria

### Scenario: Work is done

- **WHEN** an agent works
- **THEN** the work is done
`;

async function call(main, args) {
  let out = '';
  const code = await main([...args, '--json'], { out: (t) => (out += t), err: (t) => (out += t) });
  if (code !== 0) throw new Error(`agentboard ${args.join(' ')}: ${out}`);
  return JSON.parse(out).data;
}

/** What a cached board was made as: one made by an older build (before the ledgers, say) is made again. */
const MADE_AS = 'agentboard bench board 3 (with the ledgers of the commands that wrote it, their headers summing up proposals and specs)';

/** A board of `changes` × `tasksPerChange` tasks, all ready to be worked on. */
export async function benchBoard(changes, tasksPerChange, { fresh = false } = {}) {
  const dir = join(TMP, `board-${changes}x${tasksPerChange}`);
  if (!fresh && madeAs(join(dir, '.complete')) === MADE_AS) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { main } = (await import(join(ROOT, 'bin', 'load.mjs'))).loadCli();
  await call(main, ['init', '--root', dir, '--as', 'human:bench']);
  const specFile = join(dir, 'spec.md');
  writeFileSync(specFile, SPEC);
  for (let c = 0; c < changes; c++) {
    const id = `change-${String(c).padStart(4, '0')}`;
    await call(main, ['propose', id, '--root', dir, '--as', 'planner', '--why', WHY, '--what-changes', 'Generated.', '--impact', 'None.', '--notes', 'Generated.']);
    await call(main, ['spec', id, '--root', dir, '--as', 'planner', '--from', specFile, '--notes', 'Generated.']);
    const tasks = Array.from({ length: tasksPerChange }, (_, t) => ({
      id: `T${t + 1}`,
      title: `Generated task ${t + 1} of ${id}`,
      description: 'Do the generated work and check it.',
      priority: ['low', 'medium', 'high', 'urgent'][(c + t) % 4],
      depends: t % 5 === 4 ? [`T${t}`] : [],
      skills: [['typescript', 'sql', 'docs'][t % 3]],
      files: [{ path: `src/${id}/file-${t}.ts`, action: 'create' }],
    }));
    const input = join(dir, 'tasks.json');
    writeFileSync(input, JSON.stringify({ tasks, notes: 'Generated.' }));
    await call(main, ['tasks', id, '--root', dir, '--as', 'planner', '--input', input]);
  }
  writeFileSync(join(dir, '.complete'), MADE_AS);
  return dir;
}

function madeAs(path) {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}
