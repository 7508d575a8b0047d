#!/usr/bin/env node
// `npm test`: build, typecheck, lint, unit, integration and playback tests (Vitest, one project each),
// then the console's end-to-end tests in Chromium (Playwright). A failed build stops it (nothing
// to test); any other failing phase is reported and the rest still run, so one run shows every
// failure. It ends with the wall time of every phase, so a slow one is seen before it adds up, and
// then each failed test with the first lines of its error: CI shows only the tail of the output.
//
// Each test runner writes a JSON report (unit.json, integration.json, playback.json, e2e.json) into
// a temp folder, or into `--report-dir DIR` when given: `npm run test:loaded` reads them for the
// slowest tests. `--phases build,unit` runs only those (to try this script, not to test the product).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFailure, readTestResults } from './test-reports.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reportAt = process.argv.indexOf('--report-dir');
const reportDir =
  reportAt > 0 ? resolve(process.argv[reportAt + 1]) : mkdtempSync(join(tmpdir(), 'sluice-test-reports-'));
mkdirSync(reportDir, { recursive: true });
/** Failed tests listed at the end; more would scroll the phase times out of a CI tail. */
const FAILURES_SHOWN = 10;

/** Vitest's arguments for one project, with a JSON report beside the usual output. */
const vitest = (project, ...extra) => [
  'vitest',
  'run',
  '--project',
  project,
  ...extra,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reportDir, `${project}.json`)}`,
];
const playwright = ['playwright', 'test', '-c', 'packages/web/playwright.config.ts', '--reporter=list,json'];

const allPhases = [
  { name: 'build', cmd: 'npm', args: ['run', 'build'] },
  { name: 'typecheck', cmd: 'npx', args: ['tsc', '-b', 'packages/server', 'packages/web'] },
  // Beside the typecheck (neither writes what the other reads), its output held until it ends so
  // the two do not interleave: ~40 s of ESLint would otherwise follow ~10 s of tsc on one core.
  { name: 'lint', cmd: 'npm', args: ['run', 'lint'], besidePrevious: true },
  { name: 'unit', cmd: 'npx', args: vitest('unit') },
  { name: 'integration', cmd: 'npx', args: vitest('integration') },
  // Browsers playing streams, one file at a time (see vitest.config.ts).
  { name: 'playback', cmd: 'npx', args: vitest('playback', '--maxWorkers', '1') },
  {
    name: 'e2e',
    cmd: 'npx',
    args: playwright,
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(reportDir, 'e2e.json') },
  },
];

const phasesAt = process.argv.indexOf('--phases');
const chosen = phasesAt > 0 ? process.argv[phasesAt + 1].split(',') : undefined;
const phases = chosen ? allPhases.filter((p) => chosen.includes(p.name)) : allPhases;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (ms) => `${Math.floor(Math.round(ms / 1000) / 60)} min ${Math.round(ms / 1000) % 60} s`;
const timed = [];
const startedAll = Date.now();
const failed = [];

/** Runs one phase; its output goes straight through, or is held and printed at its end. */
function run({ name, cmd, args, env = {} }, held) {
  const started = Date.now();
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((done) =>
    child.on('close', (code) => {
      if (held) process.stdout.write(`\n=== ${name} (ran beside the one before)\n${Buffer.concat(output)}`);
      const ok = code === 0;
      timed.push({ name, ms: Date.now() - started, ok });
      if (!ok) failed.push(name);
      done(ok);
    }),
  );
}

for (let i = 0; i < phases.length; i++) {
  const phase = phases[i];
  const beside = phases[i + 1]?.besidePrevious ? phases[++i] : undefined;
  console.log(`\n=== ${phase.name}`);
  const [ok] = await Promise.all([run(phase, false), beside && run(beside, true)]);
  if (!ok && phase.name === 'build') break;
}

console.log('\n=== wall time per phase');
for (const { name, ms, ok } of timed) {
  console.log(`${name.padEnd(12)} ${seconds(ms).padStart(9)}${ok ? '' : '  FAILED'}`);
}
console.log(
  `${'total'.padEnd(12)} ${seconds(Date.now() - startedAll).padStart(9)}  (${minutes(Date.now() - startedAll)})`,
);
const failures = readTestResults(reportDir, root).filter((test) => isFailure(test.status));
if (failures.length) {
  console.log(`\n=== ${failures.length} failed test${failures.length > 1 ? 's' : ''}`);
  for (const { phase, name, status, error } of failures.slice(0, FAILURES_SHOWN)) {
    console.log(`${phase}: ${name}${status === 'failed' ? '' : ` (${status})`}`);
    for (const line of error) console.log(`    ${line.slice(0, 200)}`);
  }
  if (failures.length > FAILURES_SHOWN) console.log(`… and ${failures.length - FAILURES_SHOWN} more`);
}
if (reportAt < 0) rmSync(reportDir, { recursive: true, force: true });
if (failed.length) {
  console.error(`npm test: ${failed.join(', ')} failed`);
  process.exit(1);
}
