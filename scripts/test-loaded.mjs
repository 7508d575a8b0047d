#!/usr/bin/env node
// `npm run test:loaded`: the whole of `npm test` while a real ffmpeg encode keeps one core busy, as
// on a CI machine doing other work; then the slowest tests, read from the runners' JSON reports.
// A test that only passes on an idle machine waits for a time instead of a condition.
//
// `-- --only <cmd> <args…>` runs that command under the same load instead (one spec, one file:
// `npm run test:loaded -- --only npx playwright test -c packages/web/playwright.config.ts mirror-section`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTestResults } from './test-reports.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SLOWEST_SHOWN = 15;
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv.slice(onlyAt + 1) : undefined;

// One x264 thread on a 720p test pattern at 'medium' cannot keep up with real time, so it uses
// a whole core for as long as it runs; testsrc2 never ends, and a crash is restarted.
const LOAD_ARGS = [
  ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
  ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30'],
  ...['-filter_threads', '1', '-c:v', 'libx264', '-preset', 'medium', '-threads', '1'],
  ...['-f', 'null', '-'],
];
let loader;
let stopping = false;
/** CPU seconds of loaders that ended, and the last reading of the running one. */
let endedCpuS = 0;
let runningCpuS = 0;
function startLoad() {
  loader = spawn('nice', ['-n', '0', 'ffmpeg', ...LOAD_ARGS], { stdio: ['ignore', 'ignore', 'inherit'] });
  loader.on('exit', () => {
    endedCpuS += runningCpuS;
    runningCpuS = 0;
    if (!stopping) startLoad();
  });
}
/** CPU seconds the running loader used (utime + stime of /proc/PID/stat, at 100 ticks a second). */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are the 14th and 15th fields, 12th and 13th after the command name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const reportDir = mkdtempSync(join(tmpdir(), 'sluice-test-loaded-'));
const started = Date.now();
startLoad();
const sampler = setInterval(() => (runningCpuS = cpuSeconds(loader.pid) || runningCpuS), 2000);
const [cmd, ...args] = only ?? ['node', join(root, 'scripts', 'test.mjs'), '--report-dir', reportDir];
// Not spawnSync: the event loop must stay free to restart a loader that ended.
const run = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stopping = true;
    loader.kill('SIGKILL');
    run.kill(signal);
  });
const status = await new Promise((resolve) => run.on('exit', (code) => resolve(code ?? 1)));
runningCpuS = cpuSeconds(loader.pid) || runningCpuS;
const loadCpu = endedCpuS + runningCpuS;
clearInterval(sampler);
stopping = true;
loader.kill('SIGKILL');
const wallS = (Date.now() - started) / 1000;

const durations = readTestResults(reportDir, root).sort((a, b) => b.ms - a.ms);
if (durations.length) {
  console.log(`\n=== slowest ${SLOWEST_SHOWN} of ${durations.length} tests under load`);
  for (const { phase, name, ms, status } of durations.slice(0, SLOWEST_SHOWN)) {
    const mark = status === 'passed' ? '' : `  (${status})`;
    console.log(`${(ms / 1000).toFixed(1).padStart(6)} s  ${phase.padEnd(11)} ${name}${mark}`);
  }
}
console.log(`\nload: ffmpeg used ${loadCpu.toFixed(0)} CPU s in ${wallS.toFixed(0)} s of wall time`);
rmSync(reportDir, { recursive: true, force: true });
process.exit(status);
