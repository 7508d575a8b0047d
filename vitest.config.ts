import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three projects, so `npm test` times them apart: unit tests sit beside the code (src/**/*.test.ts);
// integration tests (packages/server/test) start the real built server, so `npm test` builds first;
// playback tests are integration tests that play a stream in Chromium and count its stalls. A stall
// is what the operator would notice, but a software decoder starved by two other test files at once
// stalls too: scripts/test.mjs runs them one at a time, after the rest.
// `vitest run --project unit` (or integration, playback) runs one of them.
const PLAYBACK = [
  'packages/server/test/ad-hlsjs.test.ts',
  'packages/server/test/iptv-hlsjs.test.ts',
  'packages/server/test/llhls-hlsjs.test.ts',
  'packages/server/test/media-dash-player.test.ts',
  'packages/server/test/media-dvr-player-archive.test.ts',
  'packages/server/test/media-embed-browser.test.ts',
  'packages/server/test/media-fmp4-dvr-player.test.ts',
  'packages/server/test/media-fmp4-hlsjs.test.ts',
  'packages/server/test/media-splice-dashjs.test.ts',
  'packages/server/test/media-splice-hlsjs.test.ts',
  'packages/server/test/media-vod-dashjs.test.ts',
  'packages/server/test/media-vod-hlsjs.test.ts',
  'packages/server/test/media-webvtt.test.ts',
  'packages/server/test/mss-dashjs.test.ts',
  'packages/server/test/webrtc-whep-flussonic.test.ts',
];
// A test's own waits carry its budgets (media starting, a stream stopping); on a busy machine they
// add up past 30 s, and the outer limit should not be the one that fails.
const SERVER_TIMEOUTS = { testTimeout: 120_000, hookTimeout: 120_000 };

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    // Integration tests mostly wait on servers and ffmpeg, so two files at once fill two cores
    // better than Vitest's default (cores - 1, one worker here); more would starve the ffmpegs.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['packages/server/test/**/*.test.ts'],
          exclude: PLAYBACK,
          ...SERVER_TIMEOUTS,
        },
      },
      // One file at a time: a root maxWorkers (or --maxWorkers) does not reach a project's workers.
      {
        extends: true,
        test: {
          name: 'playback',
          include: PLAYBACK,
          fileParallelism: false,
          maxWorkers: 1,
          ...SERVER_TIMEOUTS,
        },
      },
    ],
  },
});
