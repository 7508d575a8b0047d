// Reading the test runners' JSON reports that scripts/test.mjs writes (unit.json, integration.json,
// playback.json from Vitest; e2e.json from Playwright): one row per test, for the slowest-test list
// of `npm run test:loaded` and the failed-test list at the end of `npm test`. CI shows only the tail
// of the output, so a failure must be named there, not only where the runner printed it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Lines of each failure's message shown in the summary: enough for the assertion, not the stack. */
const ERROR_LINES = 5;

// eslint-disable-next-line no-control-regex -- terminal colour codes in the runners' messages
const COLOURS = /\u001b\[[0-9;]*m/g;

/** The first lines of an error message, colours stripped and blank lines dropped. */
function firstLines(message) {
  return (
    String(message ?? '')
      .replace(COLOURS, '')
      .split('\n')
      // The stack's frames are in the runner's own output; the summary keeps the message.
      .filter((line) => line.trim() !== '' && !/^\s*at /.test(line))
      .slice(0, ERROR_LINES)
  );
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** [{ phase, name, ms, status, error: string[] }] from the reports in dir (missing ones skipped). */
export function readTestResults(dir, root) {
  const out = [];
  for (const phase of ['unit', 'integration', 'playback']) {
    const file = join(dir, `${phase}.json`);
    const report = existsSync(file) ? readJson(file) : undefined;
    for (const result of report?.testResults ?? []) {
      const path = result.name.replace(`${root}/`, '');
      const tests = result.assertionResults ?? [];
      for (const test of tests)
        out.push({
          phase,
          name: `${path} › ${test.fullName}`,
          ms: test.duration ?? 0,
          status: test.status,
          error: firstLines((test.failureMessages ?? [])[0]),
        });
      // A file that failed outside its tests (an import, a beforeAll) has its own message.
      if (result.status === 'failed' && result.message && !tests.some((t) => t.status === 'failed'))
        out.push({
          phase,
          name: `${path} › (the file)`,
          ms: 0,
          status: 'failed',
          error: firstLines(result.message),
        });
    }
  }
  const e2e = join(dir, 'e2e.json');
  const report = existsSync(e2e) ? readJson(e2e) : undefined;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        // A retried test has several results; the last one decides.
        const result = (test.results ?? []).at(-1);
        if (!result) continue;
        out.push({
          phase: 'e2e',
          name: `${spec.file} › ${[...titles, spec.title].join(' › ')}`,
          ms: result.duration,
          status: result.status,
          error: firstLines(result.error?.message ?? result.errors?.[0]?.message),
        });
      }
    for (const inner of suite.suites ?? []) walk(inner, suite.file ? [...titles, inner.title] : titles);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  // Errors outside any test (global setup, a worker that crashed).
  for (const error of report?.errors ?? [])
    out.push({
      phase: 'e2e',
      name: '(outside the tests)',
      ms: 0,
      status: 'failed',
      error: firstLines(error.message),
    });
  return out;
}

/** Statuses that are a failure: Vitest 'failed', Playwright 'failed', 'timedOut', 'interrupted'. */
export const isFailure = (status) => ['failed', 'timedOut', 'interrupted'].includes(status);
