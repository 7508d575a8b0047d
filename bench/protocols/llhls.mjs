// LL-HLS blocking playlist reloads per second: CLIENTS players each asking for the next part
// (video.ll.m3u8?_HLS_msn=M&_HLS_part=P, held by the server until that part is cut), beside plain
// HLS playlist requests (video.m3u8, answered at once) from as many clients in the same run, on
// one test:// stream with 2 s segments and 0.5 s parts. Figures: requests/s, server CPU, CPU per
// 1000 requests, and for LL-HLS how long after the first answer for a part the last one went out.
import { Agent, get as httpGet } from 'node:http';
import { cpuSeconds, sleep, startSluice } from '../lib/media.mjs';

const CLIENTS = Number(process.env.LLHLS_CLIENTS ?? 200);
const CONFIG =
  'http {http};\nedit_auth admin bench-pw;\n' +
  'stream ll {\n  url test://?size=640x360&bitrate=800;\n  static true;\n  segment_duration 2000;\n}\n';

// One kept-alive connection per client: the server takes at most 256 connections from one address.
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

/** GET over the clients' agent: status and body text. */
function get(url) {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The newest part's segment and index in an LL playlist, and the next one to ask for. */
function nextPartOf(text) {
  let msn = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)[1]);
  let parts = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXT-X-PART:')) parts++;
    else if (line && !line.startsWith('#')) {
      msn++;
      parts = 0;
    }
  }
  return { msn, part: parts };
}

async function llClient(base, until, stats) {
  let text = (await get(`${base}/ll/video.ll.m3u8`)).text;
  while (Date.now() < until) {
    const { msn, part } = nextPartOf(text);
    const sentAt = Date.now();
    const response = await get(`${base}/ll/video.ll.m3u8?_HLS_msn=${msn}&_HLS_part=${part}`);
    text = response.text;
    if (response.status !== 200) {
      stats.errors++;
      stats.statuses[response.status] = (stats.statuses[response.status] ?? 0) + 1;
      text = (await get(`${base}/ll/video.ll.m3u8`)).text;
      continue;
    }
    stats.requests++;
    stats.answers.push({ key: `${msn}.${part}`, sentAt, answeredAt: Date.now() });
  }
}

/**
 * How long after the first answer for a part the other held requests for it were answered (p95):
 * only requests sent before that first answer count (they were all waiting for the same cut).
 */
function fanOutMs(answers) {
  const first = new Map();
  for (const a of answers) first.set(a.key, Math.min(first.get(a.key) ?? Infinity, a.answeredAt));
  const spreads = answers
    .filter((a) => a.sentAt < first.get(a.key))
    .map((a) => a.answeredAt - first.get(a.key))
    .sort((x, y) => x - y);
  return spreads.length ? spreads[Math.floor(spreads.length * 0.95)] : undefined;
}

async function plainClient(base, until, stats) {
  while (Date.now() < until) {
    const response = await get(`${base}/ll/video.m3u8`);
    if (response.status === 200) stats.requests++;
    else stats.errors++;
  }
}

async function measure(server, seconds, client) {
  const stats = { requests: 0, errors: 0, statuses: {}, answers: [] };
  const cpu0 = cpuSeconds(server.child.pid);
  const started = Date.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, () => client(server.base, until, stats)));
  const elapsed = (Date.now() - started) / 1000;
  const cpu = cpuSeconds(server.child.pid) - cpu0;
  return {
    perSecond: stats.requests / elapsed,
    errors: stats.errors ? `${stats.errors} ${JSON.stringify(stats.statuses)}` : 0,
    cpuPercent: (cpu / elapsed) * 100,
    cpuMsPer1000: stats.requests ? (cpu * 1000 * 1000) / stats.requests : 0,
    spreadMs: stats.answers.length ? fanOutMs(stats.answers) : undefined,
  };
}

export async function run({ seconds }) {
  const server = await startSluice(CONFIG);
  try {
    for (;;) {
      const r = await fetch(`${server.base}/ll/video.ll.m3u8`);
      if (r.ok && (await r.text()).includes('#EXTINF')) break;
      await sleep(200);
    }
    const idleCpu0 = cpuSeconds(server.child.pid);
    await sleep(2000);
    const idle = ((cpuSeconds(server.child.pid) - idleCpu0) / 2) * 100;
    const ll = await measure(server, seconds, llClient);
    const plain = await measure(server, seconds, plainClient);
    // CPU per 1000 requests above what packaging the stream costs anyway (the idle figure).
    const overIdle = (m) => ((m.cpuPercent - idle) * 10_000) / m.perSecond;
    const row = (label, m) =>
      console.log(
        `${label.padEnd(46)} ${m.perSecond.toFixed(0).padStart(7)} req/s  ${m.cpuPercent.toFixed(0).padStart(4)}% CPU  ` +
          `${m.cpuMsPer1000.toFixed(0).padStart(5)} ms CPU/1000 req (${overIdle(m).toFixed(0)} over idle)  errors ${m.errors}` +
          (m.spreadMs !== undefined ? `  held answers out within (p95) ${m.spreadMs} ms` : ''),
      );
    console.log(`server idle with the stream packaged (TS HLS + LL-HLS): ${idle.toFixed(0)}% CPU`);
    row(`LL-HLS blocking reload, ${CLIENTS} clients`, ll);
    row(`reference: plain HLS playlist, ${CLIENTS} clients`, plain);
  } finally {
    agent.destroy();
    await server.stop();
  }
}
