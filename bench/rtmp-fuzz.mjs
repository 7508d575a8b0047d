// RTMP fuzz at scale (issue 13): N random and mutated-valid RTMP sessions (default 10^6), each on
// its own TCP connection, against the built server; prints sessions per second, the server's RSS
// and its log volume, and fails if the server stops answering its API or taking a real publish.
// The sessions are those of the Vitest fuzz (packages/server/test/security-rtmp-fuzz-cases.ts).
// Usage: npm run bench -- rtmp-fuzz [N=1000000] [CONCURRENCY=48]
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { tsImport } from 'tsx/esm/api';
import { auth, freePort, rssMb, sleep, stop } from './lib/media.mjs';

const N = Number(process.argv[2] ?? 1_000_000);
// Under the server's 64 connections per address.
const CONCURRENCY = Number(process.argv[3] ?? 48);
const BATCH = 2000;
const WARM_UP = 10_000;

const { sendSessions, sessionArbitrary } = await tsImport(
  '../packages/server/test/security-rtmp-fuzz-cases.ts',
  import.meta.url,
);
const { recordedTags } = await tsImport('../packages/server/test/security-rtmp-helpers.ts', import.meta.url);
const arbitrary = sessionArbitrary(recordedTags(1).slice(0, 30));

// The server, with its log counted rather than shown: every refused session writes a line.
const port = await freePort();
const rtmpPort = await freePort();
const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-fuzz-'));
await writeFile(
  join(dir, 'sluice.conf'),
  `http ${port};\nedit_auth admin bench-pw;\nrtmp ${rtmpPort};\nlive live {\n  source_timeout 2;\n}\n`,
);
const child = spawn(
  process.execPath,
  ['packages/server/dist/main.js', '--config', join(dir, 'sluice.conf')],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
const log = { lines: 0, bytes: 0, last: '' };
child.stderr.on('data', (d) => {
  log.bytes += d.length;
  const text = d.toString();
  log.lines += text.split('\n').length - 1;
  if (/uncaught|unhandled/.test(text)) log.last = text.slice(0, 500);
});
const answers = () =>
  fetch(`http://127.0.0.1:${port}/flussonic/api/server`, { headers: { authorization: auth } }).then(
    (r) => r.ok,
    () => false,
  );
while (!(await answers())) {
  if (child.exitCode !== null) throw new Error('the server exited');
  await sleep(100);
}

let seed = 1;
/** Sends `count` sessions in batches; returns the sessions a second and connections the server kept. */
async function run(count, report) {
  const started = Date.now();
  let stuck = 0;
  for (let done = 0; done < count; done += BATCH) {
    const sessions = fc.sample(arbitrary, { numRuns: Math.min(BATCH, count - done), seed: seed++ });
    stuck += (await sendSessions(rtmpPort, sessions, CONCURRENCY)).stuck;
    if (child.exitCode !== null) throw new Error(`the server exited after ${done} sessions: ${log.last}`);
    if (report && (done + BATCH) % 100_000 === 0)
      console.log(
        `  ${done + BATCH} sessions, ${Math.round((done + BATCH) / ((Date.now() - started) / 1000))}/s, RSS ${rssMb(child.pid).toFixed(0)} MB`,
      );
  }
  return { perSecond: count / ((Date.now() - started) / 1000), stuck };
}

await run(WARM_UP, false);
const rssBefore = rssMb(child.pid);
const logBefore = log.bytes;
console.log(
  `${N} fuzz sessions, ${CONCURRENCY} at a time; server RSS after ${WARM_UP} warm-up sessions: ${rssBefore.toFixed(0)} MB`,
);
const { perSecond, stuck } = await run(N, true);
const rssAfter = rssMb(child.pid);
console.log(`sessions per second: ${perSecond.toFixed(0)}`);
console.log(`server RSS: ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after`);
console.log(`server log: ${((log.bytes - logBefore) / 1e6).toFixed(1)} MB, ${log.lines} lines in all`);
console.log(`connections the server kept open past the client's end: ${stuck}`);

// Still serving: the API answers, and a real encoder's publish becomes a live stream.
const apiOk = await answers();
const publisher = spawn(
  'ffmpeg',
  [
    ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '25',
      '-f',
      'flv',
      `rtmp://127.0.0.1:${rtmpPort}/live/after`,
    ],
  ],
  { stdio: 'ignore' },
);
let alive = false;
for (let i = 0; i < 100 && !alive; i++) {
  await sleep(200);
  const config = await fetch(`http://127.0.0.1:${port}/flussonic/api/read_config`, {
    headers: { authorization: auth },
  }).then(
    (r) => r.json(),
    () => ({}),
  );
  alive = config.lives?.live?.streams?.['live/after']?.stats?.alive === true;
}
await stop(publisher);
console.log(
  `afterwards: API answers ${apiOk ? 'yes' : 'NO'}, a real publish goes live ${alive ? 'yes' : 'NO'}`,
);
await stop(child);
await rm(dir, { recursive: true, force: true });
if (!apiOk || !alive || log.last) process.exit(1);
