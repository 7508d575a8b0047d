#!/usr/bin/env node
// `npm test`: build, lint and typecheck, unit and integration tests (Vitest), then the console's
// end-to-end tests in Chromium (Playwright). Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const steps = [
  ['build', 'npm', ['run', 'build']],
  ['typecheck', 'npx', ['tsc', '-b', 'packages/server', 'packages/web']],
  ['lint', 'npm', ['run', 'lint']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
  ['end-to-end tests', 'npx', ['playwright', 'test', '-c', 'packages/web/playwright.config.ts']],
];
for (const [what, cmd, args] of steps) {
  const started = Date.now();
  console.log(`\n=== ${what}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm test: ${what} failed`);
    process.exit(1);
  }
  console.log(`=== ${what}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
