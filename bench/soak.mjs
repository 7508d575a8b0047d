// Soak: the built server under mixed load for a long while — RTMP publishers coming and going
// (one in five with a wrong password), HLS and MPEG-TS players, config edits through the API,
// right and wrong logins, and malformed traffic (random bytes at the RTMP port, garbage HTTP,
// 8 MB bodies with and without credentials) — with the server's resident memory (VmRSS) and open
// file descriptors sampled throughout. Growth is the median of the samples at the end against the
// median just after warm-up (the first 20 % of the run); over 5 % is flagged (exit code 1), as is a
// server that stopped answering. After the load, a quiet spell shows what is left open.
// Usage: npm run bench -- soak [--minutes 30] [--sample-seconds 5]
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiEdits, logins, malformed, players, publishers, tallyOf } from './lib/soak-load.mjs';
import { auth, freePort, rssMb, sleep, stop } from './lib/media.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const MINUTES = option('minutes', 30);
const SAMPLE_MS = option('sample-seconds', 5) * 1000;
const WARMUP_SHARE = 0.2;
const GROWTH_FLAG = 0.05;
const TABLE_ROWS = 30;
/** Longer than the server's 20 s session idle sweep: players' sessions are gone by then. */
const QUIET_MS = 25_000;

const [httpPort, rtmpPort] = [await freePort(), await freePort()];
const base = `http://127.0.0.1:${httpPort}`;
const dir = await mkdtemp(join(tmpdir(), 'sluice-soak-'));
const logPath = join(dir, 'server.log');
await writeFile(
  join(dir, 'sluice.conf'),
  `http ${httpPort};\nrtmp ${rtmpPort};\nedit_auth admin bench-pw;\n` +
    'live live {\n  source_timeout 2;\n}\n' +
    'stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\n' +
    'stream guarded {\n  publish_enabled true;\n  password s3cret;\n}\n',
);
const log = createWriteStream(logPath);
const server = spawn(
  process.execPath,
  ['packages/server/dist/main.js', '--config', join(dir, 'sluice.conf'), '--host', '127.0.0.1'],
  // As `npm start` runs it (scripts/start.mjs): glibc limited to two malloc arenas. SOAK_ARENAS=default
  // measures without that limit.
  {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env.SOAK_ARENAS === 'default' ? process.env : { MALLOC_ARENA_MAX: '2', ...process.env },
  },
);
server.stdout.pipe(log);
server.stderr.pipe(log);
const answers = () =>
  fetch(`${base}/flussonic/api/server`, {
    headers: { authorization: auth },
    signal: AbortSignal.timeout(10_000),
  }).then(
    (r) => r.ok,
    () => false,
  );
for (let tries = 0; !(await answers()); tries++) {
  if (server.exitCode !== null || tries > 300) throw new Error(`the server did not start; see ${logPath}`);
  await sleep(100);
}

const fdCount = () => {
  try {
    return readdirSync(`/proc/${server.pid}/fd`).length;
  } catch {
    return NaN;
  }
};
const sample = (startedMs) => ({
  s: (Date.now() - startedMs) / 1000,
  rss: rssMb(server.pid),
  fds: fdCount(),
});
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

await sleep(3000);
const idleBefore = sample(Date.now());
console.log(
  `soak of ${MINUTES} min on ${base} (rtmp ${rtmpPort}), sampled every ${SAMPLE_MS / 1000} s; ` +
    `idle before load: ${idleBefore.rss.toFixed(1)} MB RSS, ${idleBefore.fds} fds; server log ${logPath}`,
);

const started = Date.now();
const endsAt = started + MINUTES * 60_000;
const until = () => Date.now() >= endsAt || server.exitCode !== null;
const tally = tallyOf();
const live = new Set();
const common = { base, until, tally };
const load = Promise.all([
  publishers({ ...common, rtmpUrl: `rtmp://127.0.0.1:${rtmpPort}`, live }),
  players({ ...common, live }),
  apiEdits(common),
  logins({ ...common, password: 'bench-pw' }),
  malformed({ ...common, httpPort, rtmpPort }),
]);

const samples = [];
while (!until()) {
  await sleep(Math.min(SAMPLE_MS, Math.max(0, endsAt - Date.now())));
  if (server.exitCode === null) samples.push({ ...sample(started), publishers: live.size });
}
await load;
const alive = server.exitCode === null && (await answers());

// The table: about TABLE_ROWS rows, each the last sample of its stretch with the stretch's range.
console.log('\n  time    RSS MB (range)            fds (range)   publishers');
const per = Math.max(1, Math.ceil(samples.length / TABLE_ROWS));
for (let i = 0; i < samples.length; i += per) {
  const stretch = samples.slice(i, i + per);
  const last = stretch.at(-1);
  const range = (key, digits) =>
    `${Math.min(...stretch.map((x) => x[key])).toFixed(digits)}–${Math.max(...stretch.map((x) => x[key])).toFixed(digits)}`;
  console.log(
    `${`${(last.s / 60).toFixed(1)} min`.padStart(9)}  ${last.rss.toFixed(1).padStart(6)} (${range('rss', 1)})`.padEnd(
      36,
    ) +
      `${String(last.fds).padStart(5)} (${range('fds', 0)})`.padEnd(16) +
      `${last.publishers}`,
  );
}

// Growth: just after warm-up (20–30 % of the run) against the end (the last 10 %).
const runS = MINUTES * 60;
const window = (from, to) => samples.filter((x) => x.s >= from * runS && x.s <= to * runS);
const afterWarmup = window(WARMUP_SHARE, WARMUP_SHARE + 0.1);
const atEnd = window(0.9, 1.01);
let flagged = !alive;
console.log(`\ngrowth after warm-up (first ${WARMUP_SHARE * 100} % of the run), medians of the samples:`);
for (const [key, unit] of [
  ['rss', 'MB RSS'],
  ['fds', 'open fds'],
]) {
  const from = median(afterWarmup.map((x) => x[key]));
  const to = median(atEnd.map((x) => x[key]));
  const growth = (to - from) / from;
  const over = !(growth <= GROWTH_FLAG);
  flagged ||= over;
  console.log(
    `  ${unit.padEnd(9)} ${from.toFixed(1)} at ${(WARMUP_SHARE * 100).toFixed(0)}–${(WARMUP_SHARE * 100 + 10).toFixed(0)} % → ` +
      `${to.toFixed(1)} in the last 10 %: ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %` +
      `${over ? `  FLAGGED (over ${GROWTH_FLAG * 100} %)` : ''}`,
  );
}

if (alive) {
  await sleep(QUIET_MS);
  const quiet = sample(started);
  console.log(
    `quiet ${QUIET_MS / 1000} s after the load: ${quiet.rss.toFixed(1)} MB RSS, ${quiet.fds} fds ` +
      `(idle before load: ${idleBefore.rss.toFixed(1)} MB, ${idleBefore.fds} fds)`,
  );
}

console.log('\nwhat the server answered:');
for (const [what, count] of [...tally.counts].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`  ${String(count).padStart(6)}  ${what}`);
console.log(alive ? '\nthe server answered to the end' : `\nTHE SERVER STOPPED ANSWERING; see ${logPath}`);

await stop(server);
log.end();
if (alive) await rm(dir, { recursive: true, force: true });
else console.log(readFileSync(logPath, 'utf8').split('\n').slice(-30).join('\n'));
process.exitCode = flagged ? 1 : 0;
