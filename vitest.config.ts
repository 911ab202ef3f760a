import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The long end-to-end runs have their own command: npm run test:stress (vitest.stress.config.ts).
    exclude: ['test/stress/**', '**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Three files at a time on two cores: most of a test's time is other processes (agents,
    // servers, git) starting and waiting on each other and on the disk, not this one. Measured on
    // two cores: two at a time kept the machine about 70 % busy (278 s), three 88 % (211 s).
    maxWorkers: 3,
    globalSetup: ['test/temp-root.ts'],
  },
});
