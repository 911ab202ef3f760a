// npm run test:stress: the long end-to-end runs of `agentboard run` (real agents' processes, git,
// kill -9), kept out of npm test so that it stays quick.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
