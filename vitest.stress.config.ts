import { defineConfig } from 'vitest/config';

// The long trials (`npm run test:stress`): hundreds of kills, dozens of racing processes, long hand-edit races.
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
