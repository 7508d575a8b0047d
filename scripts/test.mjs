#!/usr/bin/env node
// `npm test`: build, typecheck, lint, unit, integration and playback tests (Vitest, one project each),
// then the console's end-to-end tests in Chromium (Playwright). A failed build stops it (nothing
// to test); any other failing phase is reported and the rest still run, so one run shows every
// failure. It ends with the wall time of every phase, so a slow one is seen before it adds up.
//
// `--report-dir DIR` also writes each test runner's JSON report there (unit.json, integration.json,
// playback.json, e2e.json): `npm run test:loaded` reads them for the slowest tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reportAt = process.argv.indexOf('--report-dir');
const reportDir = reportAt > 0 ? resolve(process.argv[reportAt + 1]) : undefined;
if (reportDir) mkdirSync(reportDir, { recursive: true });

/** Vitest's arguments for one project, with a JSON report beside the usual output when asked. */
const vitest = (project, ...extra) => [
  'vitest',
  'run',
  '--project',
  project,
  ...extra,
  ...(reportDir
    ? ['--reporter=default', '--reporter=json', `--outputFile.json=${join(reportDir, `${project}.json`)}`]
    : []),
];
const playwright = [
  'playwright',
  'test',
  '-c',
  'packages/web/playwright.config.ts',
  ...(reportDir ? ['--reporter=list,json'] : []),
];

const phases = [
  { name: 'build', cmd: 'npm', args: ['run', 'build'] },
  { name: 'typecheck', cmd: 'npx', args: ['tsc', '-b', 'packages/server', 'packages/web'] },
  { name: 'lint', cmd: 'npm', args: ['run', 'lint'] },
  { name: 'unit', cmd: 'npx', args: vitest('unit') },
  { name: 'integration', cmd: 'npx', args: vitest('integration') },
  // Browsers playing streams, one file at a time (see vitest.config.ts).
  { name: 'playback', cmd: 'npx', args: vitest('playback', '--maxWorkers', '1') },
  {
    name: 'e2e',
    cmd: 'npx',
    args: playwright,
    env: reportDir ? { PLAYWRIGHT_JSON_OUTPUT_NAME: join(reportDir, 'e2e.json') } : {},
  },
];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (ms) => `${Math.floor(Math.round(ms / 1000) / 60)} min ${Math.round(ms / 1000) % 60} s`;
const timed = [];
const startedAll = Date.now();
const failed = [];
for (const { name, cmd, args, env = {} } of phases) {
  const started = Date.now();
  console.log(`\n=== ${name}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timed.push({ name, ms: Date.now() - started, ok: result.status === 0 });
  if (result.status === 0) continue;
  failed.push(name);
  if (name === 'build') break;
}

console.log('\n=== wall time per phase');
for (const { name, ms, ok } of timed) {
  console.log(`${name.padEnd(12)} ${seconds(ms).padStart(9)}${ok ? '' : '  FAILED'}`);
}
console.log(
  `${'total'.padEnd(12)} ${seconds(Date.now() - startedAll).padStart(9)}  (${minutes(Date.now() - startedAll)})`,
);
if (failed.length) {
  console.error(`npm test: ${failed.join(', ')} failed`);
  process.exit(1);
}
