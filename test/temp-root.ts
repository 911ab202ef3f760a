/**
 * Global setup of both test runs: every temporary folder of a run (boards, homes, remotes) is made
 * under one folder of its own, removed when the run ends, so that runs leave nothing in the
 * system's temporary folder. AGENTBOARD_KEEP_TEST_TMP=1 keeps it (and says where) to look at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'agentboard-run-'));
  // The test files run in processes started after this: they make their folders under it (helpers.ts tempDir).
  process.env.AGENTBOARD_TEST_TMP = root;
  return () => {
    if (process.env.AGENTBOARD_KEEP_TEST_TMP === '1') process.stderr.write(`test folders kept in ${root}\n`);
    else rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
