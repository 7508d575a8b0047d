import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: each test starts the real built server (packages/server/dist) on a free port
 * with a fresh temp config, and drives the built console in Debian's Chromium.
 */
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  // Two files at once on two cores: each test runs a server (and often ffmpeg) beside its Chromium,
  // so more workers only queue on the cores; fewer leave one idle while a test waits on media.
  workers: 2,
  // Budgets for a busy machine (`npm run test:loaded`): every wait is for a condition, so a larger
  // budget costs nothing when the condition comes and only says how long to wait before failing.
  // Under load a page's first render and a server's start take several seconds each.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
});
