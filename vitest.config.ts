import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Server-backed suites share one PostgreSQL and one Redis; files run in parallel, each in its own schema / key prefix.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
