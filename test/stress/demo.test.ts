/** npm run demo without a terminal, as in CI: agentboard run with the scripted agent, then the person's decisions. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliProcess, tempDir } from '../helpers.js';

describe('the demo', () => {
  it('runs the change through a refused spec, two workers, a fix round and an approval, and the person archives it', async () => {
    const r = cliProcess(tempDir(), ['demo']);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/\[spec\] ✗ spec refused \(attempt 1\): The spec was not submitted\./);
    expect(out).toMatch(/\[spec\] ✓ spec validated \(revision 1, attempt 2\)/);
    expect(out).toMatch(/T1 → scripted-w\d on agentboard\/add-search\/T1/);
    expect(out).toMatch(/T2 → scripted-w\d on agentboard\/add-search\/T2/);
    expect(new Set(out.match(/scripted-w\d(?= started on)/g))).toEqual(new Set(['scripted-w1', 'scripted-w2']));
    expect(out).toContain('[review] ✓ review round 1: NEEDS_FIX');
    expect(out).toContain('[review] round 1 (NEEDS_FIX) → fix tasks T4');
    expect(out).toContain('[review] ✓ review round 2: APPROVED');
    expect(out).toContain('$ agentboard approve add-search review\n  Approved the review of add-search.');
    expect(out).toMatch(/\$ agentboard archive add-search\n {2}Archived add-search to agentd\/archive\/\d{4}-\d\d-\d\d-add-search\./);
    expect(out).toContain('Merge agentboard/add-search/T4: Fix: Empty query');
  });

  it('--keep keeps the repository with its board and the tasks\' branches, and leaves no empty worktrees folder beside it', async () => {
    const tmp = tempDir();
    const r = cliProcess(tempDir(), ['demo', '--keep'], { env: { TMPDIR: tmp } });
    expect(r.code).toBe(0);
    const [kept] = readdirSync(tmp);
    expect(r.stdout).toContain(`The demo board is kept in ${join(tmp, kept!)}.`);
    expect(readdirSync(tmp)).toEqual([kept]);
    expect(existsSync(join(tmp, kept!, 'agentd', 'archive'))).toBe(true);
    const branches = execFileSync('git', ['branch', '--list', 'agentboard/*', '--format=%(refname:short)'], { cwd: join(tmp, kept!), encoding: 'utf8' });
    expect(branches.trim().split('\n')).toEqual(['agentboard/add-search/T1', 'agentboard/add-search/T2', 'agentboard/add-search/T3', 'agentboard/add-search/T4']);
  });
});
