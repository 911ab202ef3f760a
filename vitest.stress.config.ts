// npm run test:stress: the long trials, kept out of npm test so that it stays quick: hundreds of
// kills, dozens of racing processes, long hand-edit races, end-to-end runs of `agentboard run`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 300_000,
    pool: 'forks',
    globalSetup: ['test/temp-root.ts'],
    fileParallelism: false,
  },
});
