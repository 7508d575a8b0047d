// IPTV at scale (issue 24), each figure beside a reference measured in the same run:
// 1. GET /tv/api/users with a filter over 100,000 users (target < 50 ms), beside the same SQLite
//    query run directly in this process on the same file;
// 2. a subscriber's playlist of 1,000 IPTV streams (target < 50 ms), beside a plain HLS playlist
//    request (index.m3u8 of a running stream) on the same server;
// 3. iptv play authorization checks per second for 10,000 distinct tokens, cold (first check of
//    each session: the store is asked) and cached (the same sessions again), in process through the
//    server's PlayAuth, beside the bare SQLite key lookup and PlayAuth on a stream without auth.
// `npm run bench -- iptv [--users 100000] [--streams 1000] [--tokens 10000]`.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSluice } from './lib/media.mjs';
import { UserStore } from '../packages/server/dist/iptv/user-store.js';
import { IptvPlugin } from '../packages/server/dist/iptv/iptv-plugin.js';
import { PlayAuth } from '../packages/server/dist/auth/play-auth.js';
import Database from 'better-sqlite3';

const arg = (name) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const USERS = Number(arg('--users')) || 100_000;
const STREAMS = Number(arg('--streams')) || 1000;
const TOKENS = Number(arg('--tokens')) || 10_000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ms = (x) => `${x.toFixed(2)} ms`;
const row = (...cells) => console.log(`| ${cells.join(' | ')} |`);

/** Median and p95 of `count` timed runs of `run` (after three to warm up). */
async function timed(run, count = 30) {
  const times = [];
  for (let i = 0; i < count + 3; i++) {
    const t = performance.now();
    await run();
    if (i >= 3) times.push(performance.now() - t);
  }
  return { median: median(times), p95: p95(times) };
}

// ---- the user store: 100,000 users in one transaction ----
const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-iptv-'));
const database = join(dir, 'iptv.db');
const store = new UserStore(database);
const filled = performance.now();
store.createMany(
  Array.from({ length: USERS }, (_, i) => ({
    name: `Subscriber ${i}`,
    email: `user${i}@example.com`,
    max_sessions: i % 3 === 0 ? 2 : null,
  })),
);
console.log(
  `${USERS} users written in ${((performance.now() - filled) / 1000).toFixed(1)} s; load average ${load()}`,
);

// ---- the server: 1,000 IPTV streams (on demand, idle), one running stream for the reference ----
let config = `http {http};\nedit_auth admin bench-pw;\nplugin iptv { database ${database}; }\n`;
config += `stream ref {\n  url test://?size=320x180&bitrate=200;\n  static true;\n}\n`;
for (let i = 0; i < STREAMS; i++)
  config +=
    `stream ch${i} {\n  url udp://239.1.${(i >> 8) & 255}.${i & 255}:1234;\n  title "Channel ${i}";\n` +
    `  meta { iptv; group G${i % 20}; logo http://logos.example/${i}.png; }\n  auth { url http://127.0.0.1:{http}/tv/auth; }\n}\n`;
const server = await startSluice(config);
process.on('exit', () => server.child.exitCode === null && server.child.kill('SIGKILL'));

console.log(`\n1. users call over ${USERS} users (30 a page), load average ${load()}`);
row(
  'filter',
  'matching',
  'GET /tv/api/users',
  'store.list in process',
  'reference: SQLite LIKE page + count',
);
row('---', '---', '---', '---', '---');
const db = new Database(database, { readonly: true });
const where = `WHERE name LIKE @p ESCAPE '\\' OR email LIKE @p ESCAPE '\\' OR id = @id`;
const likePage = db.prepare(`SELECT * FROM users ${where} ORDER BY id LIMIT 30 OFFSET 0`);
const likeCount = db.prepare(`SELECT count(*) AS total FROM users ${where}`);
const cell = (t) => `${ms(t.median)} (${ms(t.p95)})`;
for (const q of ['user4242@', 'Subscriber 99', 'example.com']) {
  const path = `/tv/api/users?count=30&from=0&q=${encodeURIComponent(q)}`;
  const first = await (await server.api(path)).json();
  const http = await timed(async () => {
    const r = await server.api(path);
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    await r.arrayBuffer();
  });
  const direct = await timed(() => store.list(0, 30, q));
  const params = { p: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, id: -1 };
  const sql = await timed(() => [likePage.all(params), likeCount.get(params)]);
  row(`q=${q}`, first.total, cell(http), cell(direct), cell(sql));
}
db.close();
console.log('(median (p95) of 30 calls each)');

console.log(`\n2. playlist of ${STREAMS} IPTV streams, load average ${load()}`);
const user = store.user(1);
const playlistPath = `/tv/playlists/${user.id}.m3u?key=${user.key}`;
for (;;) {
  const r = await fetch(`${server.base}/ref/index.m3u8`);
  await r.arrayBuffer();
  if (r.ok) break;
  await new Promise((r) => setTimeout(r, 200));
}
const getPlain = (url) => async () => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.arrayBuffer();
};
const size = (await (await fetch(`${server.base}${playlistPath}`)).arrayBuffer()).byteLength;
const list = await timed(getPlain(`${server.base}${playlistPath}`));
const listTs = await timed(getPlain(`${server.base}${playlistPath}&type=mpegts`));
const plain = await timed(getPlain(`${server.base}/ref/index.m3u8`));
row('request', 'median (p95)');
row('---', '---');
row(
  `/tv/playlists (HLS, ${STREAMS} channels, ${(size / 1024).toFixed(0)} KiB)`,
  `${ms(list.median)} (${ms(list.p95)})`,
);
row('/tv/playlists &type=mpegts', `${ms(listTs.median)} (${ms(listTs.p95)})`);
row('reference: /ref/index.m3u8 (plain HLS playlist)', `${ms(plain.median)} (${ms(plain.p95)})`);
await server.stop();

console.log(`\n3. iptv authorization, ${TOKENS} distinct tokens, in process, load average ${load()}`);
const log = { debug() {}, notice() {}, error() {} };
const plugin = new IptvPlugin(dir, log);
const authConfig = {
  plugins: { iptv: { database } },
  streams: { tv: { auth: { url: 'http://127.0.0.1:80/tv/auth' } }, open: {} },
};
plugin.apply(authConfig);
const auth = new PlayAuth({
  config: () => authConfig,
  geo: { country: () => '' },
  log,
  isAdminToken: () => false,
  iptv: plugin,
});
const tokens = [];
for (let id = 1; tokens.length < TOKENS; id += Math.floor(USERS / TOKENS)) tokens.push(store.user(id).key);
const request = (name, token, i) => ({
  name,
  ip: `10.0.${(i >> 8) & 255}.${i & 255}`,
  token,
  userAgent: 'bench',
  referer: undefined,
  proto: 'hls',
  requestType: 'play',
  sessionId: `s${i}`,
});
const perSecond = (run) => {
  const t = performance.now();
  let allowed = 0;
  for (let i = 0; i < tokens.length; i++) if (run(tokens[i], i)) allowed++;
  if (allowed !== tokens.length) throw new Error(`only ${allowed} of ${tokens.length} allowed`);
  return tokens.length / ((performance.now() - t) / 1000);
};
const rate = (x) => `${Math.round(x).toLocaleString('en')}/s`;
const cold = perSecond((token, i) => auth.check(request('tv', token, i)).allow);
const cached = perSecond((token, i) => auth.check(request('tv', token, i)).allow);
const lookup = perSecond((token) => store.userByKey(token) !== undefined);
const open = perSecond((token, i) => auth.check(request('open', token, i)).allow);
row('check', 'rate');
row('---', '---');
row('iptv, cold (each session asks the store)', rate(cold));
row('iptv, cached (the same sessions again)', rate(cached));
row('reference: bare SQLite lookup by key', rate(lookup));
row('reference: PlayAuth on a stream without auth', rate(open));
console.log(`\nload average at the end ${load()}`);
plugin.close();
store.close();
await rm(dir, { recursive: true, force: true });
