import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code (src/**/*.test.ts); integration tests (packages/server/test)
// start the real built server, so `npm test` builds before running them.
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/src/**/*.test.tsx',
      'packages/server/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
