/**
 * The README's first change by hand, run exactly as written: its shell block, in a git repository
 * of its own, at a terminal (approving and archiving are a person's acts), with `agentboard` on
 * PATH as `npm link` puts it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ok, ROOT, tempDir } from '../helpers.js';

/** The shell block under a heading of the README. */
function blockUnder(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const from = readme.indexOf(`\n${heading}\n`);
  expect(from, heading).toBeGreaterThan(0);
  const start = readme.indexOf('```sh\n', from) + '```sh\n'.length;
  return readme.slice(start, readme.indexOf('\n```\n', start));
}

describe('the README', () => {
  it('has a first change by hand that runs as written, from init to the archive', async () => {
    const dir = tempDir('agentboard-readme-');
    spawnSync('git', ['init', '-q'], { cwd: dir });
    const bin = tempDir('agentboard-bin-');
    writeFileSync(join(bin, 'agentboard'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'agentboard'), 0o755);
    writeFileSync(join(dir, 'first.sh'), `set -e\n${blockUnder('### A first change, by hand')}\n`);
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: tempDir('agentboard-home-'), GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Dana', USER: 'dana', TERM: 'dumb' };
    // At a terminal: `script` gives the commands one, as a person running them has.
    const r = spawnSync('script', ['-qec', 'bash first.sh; echo "EXIT $?"', '/dev/null'], { cwd: dir, env, encoding: 'utf8' });
    expect(r.stdout, r.stdout).toContain('EXIT 0');
    expect(r.stdout).toContain('Archived add-search to agentd/archive/');
    const [archived] = readdirSync(join(dir, 'agentd/archive'));
    expect(archived).toMatch(/^\d{4}-\d{2}-\d{2}-add-search$/);
    const tasks = (await ok(dir, ['task', 'list', '--change', 'add-search'])).tasks;
    expect(tasks.map((t: { task_id: string; status: string }) => [t.task_id, t.status])).toEqual([
      ['add-search/T1', 'done'],
      ['add-search/T2', 'done'],
    ]);
  });
});
