// A viewer redirected at Load > 100 % (issue 22): two Sluice servers, peers of each other, both with
// the stream `shared`; A's total_bandwidth is 1 bit/s, so once A sends anything it is over 100 %.
// Prints A's Load as cluster_servers shows it, and the time a new viewer takes from asking A for
// the playlist to holding B's playlist (302 + B's answer) beside asking B directly (the reference),
// over ROUNDS viewers. Arguments: [ROUNDS=50]
import { loadavg } from 'node:os';
import { auth, sleep, startSluice } from '../lib/media.mjs';

const KEY = 'bench-redirect-key';
const base = `http {http};\nedit_auth admin bench-pw;\ncluster_key ${KEY};\npeer_poll_seconds 1;\n`;
const stream = `stream shared {\n  url test://?size=160x120&bitrate=150;\n  static true;\n}\n`;

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

async function timed(url) {
  const t0 = performance.now();
  const response = await fetch(url, { redirect: 'follow' });
  await response.text();
  return { ms: performance.now() - t0, url: response.url, status: response.status };
}

export async function run({ args = [] } = {}) {
  const rounds = Number(args[0] ?? 50);
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const [a, b] = await Promise.all([startSluice(base + stream), startSluice(base + stream)]);
  try {
    const modify = (server, delta) =>
      server.api('/flussonic/api/modify_config', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(delta),
      });
    await modify(a, { peers: { '127.0.0.1': { name: '127.0.0.1', port: b.port } }, total_bandwidth: 1 });
    const entry = `${a.base}/shared/index.m3u8`;
    // Watch on A until it is over its total_bandwidth and redirects.
    for (let i = 0; ; i++) {
      const response = await fetch(entry, { redirect: 'manual' });
      if (response.status === 302) break;
      const playlist = await response.text();
      const media = playlist.split('\n').find((l) => l && !l.startsWith('#'));
      if (media) await fetch(new URL(media, entry)).then((r) => r.arrayBuffer());
      if (i > 600) throw new Error('A never redirected');
      await sleep(100);
    }
    const servers = await (
      await fetch(`${a.base}/flussonic/api/cluster_servers`, { headers: { authorization: auth } })
    ).json();
    const self = Object.values(servers).find((s) => s.self);
    console.log(`A's Load: ${self.bandwidth_usage} % (output ${self.output_bitrate} kbit/s over 1 bit/s)`);
    const direct = [];
    const redirected = [];
    let elsewhere = 0;
    for (let i = 0; i < rounds; i++) {
      direct.push((await timed(`${b.base}/shared/index.m3u8`)).ms);
      const via = await timed(entry);
      if (!via.url.startsWith(b.base) || via.status !== 200) elsewhere++;
      redirected.push(via.ms);
    }
    console.log(`${rounds} new viewers, median time to hold the playlist:`);
    console.log(`  via A (302 to B, then B):  ${median(redirected).toFixed(1)} ms`);
    console.log(`  reference, B directly:     ${median(direct).toFixed(1)} ms`);
    console.log(
      `  ratio ${(median(redirected) / median(direct)).toFixed(2)}x; viewers not ending on B: ${elsewhere}`,
    );
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  }
}
