import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Server-backed suites share one PostgreSQL and one Redis; files run in parallel, each in its own schema / key prefix.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Excalidraw's build imports ESM paths Node cannot resolve; inlining lets Vite resolve them for the restore test.
    server: { deps: { inline: ['@excalidraw/excalidraw'] } },
  },
});
