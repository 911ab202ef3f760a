import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The long end-to-end runs have their own command: npm run test:stress (vitest.stress.config.ts).
    exclude: ['test/stress/**', '**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time: most of a test's time is other processes (agents, servers, git) and the
    // disk, not this one; vitest's default on two cores would be one file at a time.
    maxWorkers: 2,
    globalSetup: ['test/temp-root.ts'],
  },
});
