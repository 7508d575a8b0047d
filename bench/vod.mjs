// VOD: files served by Sluice, each figure beside a reference measured in the same run.
//   1. progressive MP4 with Range: requests/s and server CPU per GiB served, vs nginx on the same file
//   2. a 2-hour 1080p MP4's first playlists and segments on a fresh server, cold (its pages dropped
//      from the page cache) and warm, vs the target (< 200 ms cold) and ffmpeg cutting a segment
//   3. CLIENTS players seeking at random in 20 files (playlist, then a segment), vs nginx byte
//      ranges of the same sizes
//   4. server memory per opened 2-hour file (distinct names: hard links)
//   5. a 2 GiB upload (POST /flussonic/api/upload) vs `cp` of the same file on the same disk
// Usage: npm run bench -- vod [SECONDS=10] [CONNECTIONS=50] [CLIENTS=200] [SEEKS=3] [FILES=50]
//   VOD_BENCH_PARTS=1,2,3,4,5: some parts only. Media is kept in os.tmpdir()/sluice-bench-vod.
import { chmodSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { freePort, startNginx, startSluice } from './lib/media.mjs';
import { BIG_NAME, CACHE, ROOT, bigFile, links, probe, uploadSource, warmCache } from './lib/vod-fixture.mjs';
import { measureProgressive, measureSeeks } from './lib/vod-load.mjs';
import { ffmpegReference, measureFirstAnswers, measureMemory } from './lib/vod-open.mjs';
import { measureUpload } from './lib/vod-upload.mjs';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = Number(process.argv[3] ?? 50);
const CLIENTS = Number(process.argv[4] ?? 200);
const SEEKS = Number(process.argv[5] ?? 3);
// Under the server's 64 sources kept open (vod/vod-sources.ts VOD_SOURCES_KEPT).
const FILES = Number(process.argv[6] ?? 50);
const ROUNDS = 3;
const RANGE_BYTES = 1024 * 1024;
const SEEK_FILES = 20;
const parts = (process.env.VOD_BENCH_PARTS ?? '1,2,3,4,5').split(',');

const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;
const ms = (x) => `${x.toFixed(0)} ms`;
const row = (...cells) => console.log(cells.map((c, i) => String(c).padEnd(i === 0 ? 44 : 34)).join(' '));
const config = `http {http};\nedit_auth admin bench-pw;\nfile vod {\n  path ${ROOT};\n}\n`;
const servers = [];
let nginx;
/** A fresh Sluice over ROOT, stopped (and its folder removed) by stop() or at the end. */
async function start() {
  const server = await startSluice(config);
  servers.push(server);
  const stop = server.stop;
  return {
    ...server,
    stop: async () => {
      await stop();
      await rm(server.dir, { recursive: true, force: true });
    },
  };
}

// Interrupted: the servers and nginx go with the bench.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));

const big = bigFile();
const info = probe(big.path);
const sizeBytes = statSync(big.path).size;
chmodSync(CACHE, 0o755);
chmodSync(ROOT, 0o755);
console.log(
  `file: ${big.path} (${big.made}), ${(sizeBytes / 1024 ** 3).toFixed(2)} GiB, ${info.width}x${info.height}, ` +
    `${(info.durationS / 3600).toFixed(2)} h; ${load()}`,
);
try {
  if (parts.includes('2')) {
    console.log(`\n2. first answers of the 2-hour file on a freshly started server; ${load()}`);
    const [otherName] = links(big.path, 'other', 1);
    const first = await measureFirstAnswers({
      start,
      path: big.path,
      name: BIG_NAME,
      otherName,
      durationS: info.durationS,
    });
    const ref = ffmpegReference(big.path, info.durationS);
    const cache = (bytes) => (bytes === 0 ? 'page cache dropped' : `page cache warm (${bytes} bytes left)`);
    row('', `cold (${cache(first.cachedAfterDrop)})`, 'warm (again)', 'new name, cache dropped, server warm');
    const runs = [first.cold, first.warm, first.coldFile];
    for (const key of ['index.m3u8', 'video.m3u8', 'seg-0.ts', 'seg-mid'])
      row(
        key === 'seg-mid' ? `seg-${first.midSegment}.ts (seek to 1 h)` : key,
        ...runs.map((r) => ms(r[key])),
      );
    const toFirst = (r) => r['index.m3u8'] + r['video.m3u8'] + r['seg-0.ts'];
    row('first segment (the three above in a row)', ...runs.map((r) => ms(toFirst(r))));
    row(`segments in video.m3u8`, first.cold.segments, '');
    row(
      'target: first playlist (index.m3u8) cold',
      '< 200 ms',
      first.cold['index.m3u8'] < 200 ? 'met' : 'NOT met',
    );
    row(
      `reference: ffmpeg -ss 3600 -t 4 -c copy -f mpegts`,
      `${ms(ref.cold)} (${cache(ref.cachedAfterDrop)})`,
      ms(ref.warm),
    );
  }

  if (parts.includes('4')) {
    console.log(`\n4. memory per opened file: ${FILES} hard links of the 2-hour file; ${load()}`);
    const names = links(big.path, 'mem', FILES);
    const memory = await measureMemory({ start, warmName: BIG_NAME, names });
    row('server RSS before / after', `${memory.beforeMb.toFixed(0)} MB / ${memory.afterMb.toFixed(0)} MB`);
    row(`per opened file (${FILES} files)`, `${memory.perFileMb.toFixed(1)} MB`);
    row('open (index.m3u8 + video.m3u8), mean', ms(memory.openMs));
  }

  if (parts.includes('1') || parts.includes('3')) {
    warmCache(big.path);
    const port = await freePort();
    nginx = await startNginx(
      'http { sendfile on; tcp_nopush on; access_log off; open_file_cache max=1000; ' +
        `server { listen 127.0.0.1:${port}; location / { root ${ROOT}; } } }`,
    );
    const nginxBase = `http://127.0.0.1:${port}`;
    const sluice = await start();
    if (parts.includes('1')) {
      console.log(
        `\n1. progressive MP4: ${CONNECTIONS} keep-alive connections fetching random ${RANGE_BYTES / 1024 / 1024} MiB ` +
          `ranges of the 2-hour file (page cache warm), ${ROUNDS} rounds of ${SECONDS} s each, median round; ${load()}`,
      );
      const results = await measureProgressive({
        targets: [
          { label: 'Sluice', url: `${sluice.base}/vod/${BIG_NAME}`, pids: () => [sluice.child.pid] },
          {
            label: 'nginx',
            url: `${nginxBase}/${BIG_NAME}`,
            pids: () => [nginx.child.pid, ...nginx.workers()],
          },
        ],
        sizeBytes,
        rounds: ROUNDS,
        seconds: SECONDS,
        connections: CONNECTIONS,
        rangeBytes: RANGE_BYTES,
      });
      const [s, n] = results.map((r) => r.median);
      row('', 'Sluice', 'nginx (sendfile, same file)');
      row('requests/s', s.rps.toFixed(0), n.rps.toFixed(0));
      row('GiB/s served', s.gibPerS.toFixed(2), n.gibPerS.toFixed(2));
      row(
        'server CPU',
        `${(s.coreShare * 100).toFixed(0)}% of a core`,
        `${(n.coreShare * 100).toFixed(0)}% of a core`,
      );
      row('server CPU per GiB/s (core-s per GiB)', s.cpuPerGib.toFixed(3), n.cpuPerGib.toFixed(3));
      row('latency p50 / p99', `${ms(s.p50)} / ${ms(s.p99)}`, `${ms(n.p50)} / ${ms(n.p99)}`);
      row('answers other than 206', `${s.errors} of ${s.count}`, `${n.errors} of ${n.count}`);
      row(
        'each round (requests/s)',
        results[0].all.map((r) => r.rps.toFixed(0)).join(', '),
        results[1].all.map((r) => r.rps.toFixed(0)).join(', '),
      );
    }
    if (parts.includes('3')) {
      const names = links(big.path, 'seek', SEEK_FILES);
      console.log(
        `\n3. ${CLIENTS} players at once, ${SEEKS} seeks each into random points of ${SEEK_FILES} 2-hour files ` +
          `(hard links, not opened before): video.m3u8 then a segment; reference: nginx byte ranges of the same sizes, ` +
          `${CLIENTS} clients; ${load()}`,
      );
      const seeks = await measureSeeks({
        sluiceBase: sluice.base,
        nginxBase,
        names,
        sizeBytes,
        clients: CLIENTS,
        seeks: SEEKS,
      });
      const pcts = (x) => `${ms(x.p50)} / ${ms(x.p95)} / ${ms(x.p99)} (${x.count})`;
      row('p50 / p95 / p99 (count)', 'Sluice', 'nginx byte ranges');
      row(
        `playlist (${(seeks.playlistBytes / 1024).toFixed(0)} KB)`,
        pcts(seeks.sluice.playlist),
        pcts(seeks.nginx.playlist),
      );
      row(
        `segment (${(seeks.segmentBytes / 1024).toFixed(0)} KB mean)`,
        pcts(seeks.sluice.segment),
        pcts(seeks.nginx.segment),
      );
      row('seek (playlist + segment)', pcts(seeks.sluice.seek), pcts(seeks.nginx.seek));
      row('errors', seeks.sluice.errors.length, seeks.nginx.errors.length);
      row(
        'wall time of all seeks',
        `${seeks.sluice.wallS.toFixed(1)} s`,
        `${seeks.nginx.wallS.toFixed(1)} s`,
      );
      if (seeks.sluice.errors.length)
        console.log(`   Sluice errors: ${[...new Set(seeks.sluice.errors)].join('; ')}`);
    }
    await sluice.stop();
    await nginx.stop();
  }

  if (parts.includes('5')) {
    const src = uploadSource();
    console.log(`\n5. upload of ${src} (2 GiB, source in the page cache) into ${ROOT}/upload; ${load()}`);
    const up = await measureUpload({ start, src, root: ROOT, subpath: 'upload' });
    if (up.status !== 200 || up.landedSize !== up.size)
      console.log(`   upload answered ${up.status}: ${up.body}`);
    const rate = (s) => `${(up.size / 1024 ** 2 / s).toFixed(0)} MiB/s (${s.toFixed(1)} s)`;
    row('', 'Sluice upload (fsync, rename)', 'cp / cp + sync FILE');
    row('2 GiB', rate(up.uploadS), `${rate(up.cpS)} / ${rate(up.cpSyncS)}`);
    row(
      'server peak RSS (VmHWM) before / after',
      `${up.rss.before.toFixed(0)} MB / ${up.rss.peak.toFixed(0)} MB`,
    );
  }
  console.log(`\n${load()}`);
} finally {
  await cleanUp();
}

async function cleanUp() {
  for (const server of servers) await server.stop();
  if (nginx) await nginx.stop();
  for (const dir of [...servers.map((s) => s.dir), nginx?.dir].filter(Boolean))
    await rm(dir, { recursive: true, force: true });
}
