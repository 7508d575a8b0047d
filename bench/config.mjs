// Config store and live sync at scale: a 20,000-stream config of which 1% changes.
// Prints the modify_config round trip (beside a bare durable write of the same file), and the size
// and time of a read_config_delta (beside a full read_config).
import { spawn } from 'node:child_process';
import { mkdtemp, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const STREAMS = 20_000;
const CHANGED = STREAMS / 100;
const SINGLE_EDITS = 200;
const auth = `Basic ${Buffer.from('admin:bench-pw').toString('base64')}`;

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-'));
const configPath = join(dir, 'sluice.conf');
let text = `# bench config\nhttp ${port};\nedit_auth admin bench-pw;\n`;
for (let i = 0; i < STREAMS; i++) {
  text += `\n# camera ${i}\nstream cam${i} {\n  url udp://239.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1234;\n  title "Camera ${i}";\n}\n`;
}
await writeFile(configPath, text);

// BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server (written when it stops).
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const server = spawn(
  process.execPath,
  [...nodeArgs, 'packages/server/dist/main.js', '--config', configPath, '--host', '127.0.0.1'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const base = `http://127.0.0.1:${port}/flussonic/api`;
const started = performance.now();
for (;;) {
  const ok = await fetch(`${base}/server`, { headers: { authorization: auth } }).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  await new Promise((r) => setTimeout(r, 50));
}
const startupMs = performance.now() - started;

const time = async (fn) => {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
};
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const median = (xs) => quantile(xs, 0.5);
const modify = (delta) =>
  fetch(`${base}/modify_config`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(delta),
  }).then((r) => {
    if (!r.ok) throw new Error(`modify_config ${r.status}`);
    return r.text();
  });

// A websocket console that has read the full config.
const ws = new WebSocket(`ws://127.0.0.1:${port}/flussonic/api/events`, { headers: { authorization: auth } });
await new Promise((r) => ws.once('open', r));
const next = () => new Promise((r) => ws.once('message', (m) => r(m)));
const fullWs = next();
const fullWsStarted = performance.now();
ws.send('read_config');
const fullWsBytes = (await fullWs).length;
const fullWsMs = performance.now() - fullWsStarted;
// A second console opening now: the server shares the serialised message (http/full-message-cache.ts).
const ws2 = new WebSocket(`ws://127.0.0.1:${port}/flussonic/api/events`, {
  headers: { authorization: auth },
});
await new Promise((r) => ws2.once('open', r));
const [secondWsMs] = await time(() => {
  const answer = new Promise((r) => ws2.once('message', r));
  ws2.send('read_config');
  return answer;
});
ws2.close();

const single = [];
const bulk = [];
const deltas = [];
// One stream at a time, each a different stream spread over the config (enough calls for a p99).
for (let i = 0; i < SINGLE_EDITS; i++) {
  const name = `cam${(i * 7919) % STREAMS}`;
  single.push((await time(() => modify({ streams: { [name]: { title: `Renamed ${i}` } } })))[0]);
}
for (let round = 0; round < 7; round++) {
  const delta = { streams: {} };
  for (let i = 0; i < CHANGED; i++)
    delta.streams[`cam${(round * 997 + i * 89) % STREAMS}`] = { title: `Changed ${round}-${i}` };
  bulk.push((await time(() => modify(delta)))[0]);
  const answer = next();
  const [ms, message] = await time(async () => {
    ws.send('read_config_delta');
    return answer;
  });
  deltas.push({ ms, bytes: message.length });
}
const fulls = [];
for (let i = 0; i < 5; i++)
  fulls.push(
    await time(() =>
      fetch(`${base}/read_config`, { headers: { authorization: auth } }).then((r) => r.text()),
    ),
  );

// Reference: a bare durable write (temp file, fsync, rename, fsync folder) of the same file.
const fileText = await readFile(configPath, 'utf8');
const bare = [];
for (let i = 0; i < 20; i++) {
  bare.push(
    (
      await time(async () => {
        const f = await open(join(dir, 'ref.tmp'), 'w');
        await f.writeFile(fileText);
        await f.sync();
        await f.close();
        await rename(join(dir, 'ref.tmp'), join(dir, 'ref.conf'));
        const d = await open(dir, 'r');
        await d.sync();
        await d.close();
      })
    )[0],
  );
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const kb = (b) => `${(b / 1024).toFixed(1)} KiB`;
console.log(
  `config: ${STREAMS} streams, ${kb(fileText.length)} of text; server start to the first answered call ${fmt(startupMs)} (target < 3000 ms)`,
);
console.log(
  `modify_config, 1 stream changed:      median ${fmt(median(single))} (target < 20 ms), p99 ${fmt(quantile(single, 0.99))} (target < 40 ms), ${single.length} calls`,
);
console.log(`modify_config, ${CHANGED} streams (1%) changed: median ${fmt(median(bulk))} (target < 40 ms)`);
console.log(
  `  reference, bare durable write of the file (temp, fsync, rename, fsync folder): median ${fmt(median(bare))}, p99 ${fmt(quantile(bare, 0.99))}`,
);
console.log(
  `read_config_delta after a 1% change:   median ${fmt(median(deltas.map((d) => d.ms)))}, ${kb(median(deltas.map((d) => d.bytes)))}`,
);
console.log(
  `  reference, full read_config (HTTP):  median ${fmt(median(fulls.map((f) => f[0])))}, ${kb(fulls[0][1].length)}; full over the socket ${kb(fullWsBytes)}`,
);
console.log(
  `read_config over the events socket: first console ${fmt(fullWsMs)}, a second console right after ${fmt(secondWsMs)}`,
);
console.log(
  `delta is ${(fulls[0][1].length / median(deltas.map((d) => d.bytes))).toFixed(0)}x smaller than the full config`,
);
ws.close();
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await rm(dir, { recursive: true, force: true });
