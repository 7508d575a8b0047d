// The RTMP-publish mode of bench/media-ingest.mjs: N publishers push the 2 Mbit/s H.264/AAC clip over
// RTMP into a location of Sluice (live live {}), HLS out; then, in the same run, the same N into nginx
// with the RTMP module (hls on, segments on tmpfs). Both are fed by one light publisher process
// (rtmp-publisher.mjs replaying an FLV in real time), so the figures are the servers'. Prints CPU and
// memory per stream, how many streams hold real time, and publish → first playable segment (the
// first publisher alone, and the last one with N - 1 already publishing) beside the segment duration.
// BENCH_COMPARE_MAIN=/other/checkout/packages/server/dist/main.js adds a column for that build, run
// first, in the same run (before/after figures under the same load; BENCH_COMPARE_LABEL names it);
// BENCH_MAIN runs another build than this checkout's as the main column.
import { spawn, spawnSync } from 'node:child_process';
import { readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cpuSeconds, freePort, rssMb, sleep, startNginx, startSluice, stop } from './media.mjs';

const SEGMENT_S = 2;
const sequenceOf = (text) => {
  const first = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text ?? '')?.[1] ?? NaN);
  return first + (text ?? '').split('#EXTINF').length - 2;
};
const firstUri = (text) => /#EXTINF[^\n]*\n([^\n#][^\n]*)/.exec(text ?? '')?.[1];

/** The clip as FLV (AAC as raw frames): what an encoder publishes over RTMP. */
function flvOf(clip) {
  const path = join(tmpdir(), 'sluice-bench-clip.flv');
  const made = spawnSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', clip],
    ...['-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-f', 'flv', path],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg: ${made.stderr}`);
  return path;
}

/**
 * Feeds one server and measures it. `server`: pids(), playlist(i) → text or '', playable(i, text)
 * → whether its first segment reads as MPEG-TS, rtmpUrl.
 */
async function measure(server, { N, SECONDS, flv }) {
  const pids = () => server.pids();
  const sum = (f) => pids().reduce((s, pid) => s + f(pid), 0);
  await sleep(1000);
  const idleRss = sum(rssMb);
  const publisher = spawn(
    process.execPath,
    ['bench/lib/rtmp-publisher.mjs', flv, server.rtmpUrl, String(N)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const publishedAt = new Map();
  const waiters = new Map();
  createInterface({ input: publisher.stdout }).on('line', (line) => {
    const [what, i, at] = line.split(' ');
    if (what !== 'published') return;
    publishedAt.set(Number(i), Number(at));
    waiters.get(Number(i))?.();
  });
  const published = (i) => (publishedAt.has(i) ? Promise.resolve() : new Promise((r) => waiters.set(i, r)));
  /** Publish → first segment listed and readable, polled every 20 ms, in seconds. */
  const firstSegment = async (i) => {
    await published(i);
    for (;;) {
      const text = await server.playlist(i);
      if (firstUri(text) && (await server.playable(i, text))) return (Date.now() - publishedAt.get(i)) / 1000;
      if (Date.now() - publishedAt.get(i) > 30_000) return NaN;
      await sleep(20);
    }
  };
  const firstAlone = await firstSegment(0);
  const firstLoaded = N > 1 ? await firstSegment(N - 1) : firstAlone;
  for (let t = 0; t < 30; t++) {
    const texts = await Promise.all(Array.from({ length: N }, (_, i) => server.playlist(i)));
    if (texts.every((p) => p.includes('#EXTINF'))) break;
    await sleep(1000);
  }
  await sleep(4000);
  const cpu0 = sum(cpuSeconds);
  const pubCpu0 = cpuSeconds(publisher.pid);
  const load0 = loadavg()[0];
  const seq0 = await Promise.all(Array.from({ length: N }, (_, i) => server.playlist(i).then(sequenceOf)));
  await sleep(SECONDS * 1000);
  const cpu = sum(cpuSeconds) - cpu0;
  const pubCpu = cpuSeconds(publisher.pid) - pubCpu0;
  const rss = sum(rssMb);
  const filesMb = (await server.filesMb?.()) ?? 0;
  const seq1 = await Promise.all(Array.from({ length: N }, (_, i) => server.playlist(i).then(sequenceOf)));
  const holding = seq1.filter((s, i) => s - seq0[i] >= Math.floor(SECONDS / SEGMENT_S) - 2).length;
  await stop(publisher);
  return {
    holding,
    cpu,
    pubCpu,
    rss,
    filesMb,
    perStreamMb: (rss - idleRss + filesMb) / N,
    firstAlone,
    firstLoaded,
    load: [load0, loadavg()[0]],
  };
}

/** Sluice (this build, or the one at `main`) fed by N RTMP publishers into a location. */
async function measureSluice(main, options) {
  const sluiceRtmp = await freePort();
  const sluice = await startSluice(
    `http {http};\nedit_auth admin bench-pw;\nrtmp ${sluiceRtmp};\nlive live {\n  segment_duration ${SEGMENT_S * 1000};\n}\n`,
    main,
  );
  const sluicePlaylist = (i) =>
    fetch(`${sluice.base}/live/s${i}/video.m3u8`).then(
      (r) => (r.ok ? r.text() : ''),
      () => '',
    );
  const result = await measure(
    {
      pids: () => [sluice.child.pid],
      rtmpUrl: `rtmp://127.0.0.1:${sluiceRtmp}/live`,
      playlist: sluicePlaylist,
      playable: async (i, text) => {
        const r = await fetch(new URL(firstUri(text), `${sluice.base}/live/s${i}/video.m3u8`));
        return r.ok && new Uint8Array(await r.arrayBuffer())[0] === 0x47;
      },
    },
    options,
  );
  await sluice.stop();
  await rm(sluice.dir, { recursive: true, force: true });

  return result;
}

export async function runRtmpIngest({ N, SECONDS, clip, sluiceOnly }) {
  const flv = flvOf(clip);
  const cores = (cpu) => `${((cpu / SECONDS) * 100).toFixed(2)}% of a core`;
  console.log(`RTMP publish: ${N} publishers of ${clip} as FLV, measured over ${SECONDS} s after warm-up`);

  // ---- Sluice: RTMP into a location, HLS out (segments in memory)
  process.env.SLUICE_RTMP_MAX_CONNECTIONS_PER_IP = String(N + 16);
  const compare = process.env.BENCH_COMPARE_MAIN;
  const before = compare ? await measureSluice(compare, { N, SECONDS, flv }) : undefined;
  const s = await measureSluice(process.env.BENCH_MAIN, { N, SECONDS, flv });

  // ---- nginx-rtmp: RTMP in, HLS out to tmpfs
  let n;
  if (!sluiceOnly) {
    const rtmpPort = await freePort();
    const hlsPath = `/dev/shm/sluice-bench-nginx-hls-${process.pid}`;
    const nginx = await startNginx(
      `rtmp { server { listen 127.0.0.1:${rtmpPort}; application live { live on; hls on; hls_path ${hlsPath}; hls_fragment ${SEGMENT_S}s; hls_playlist_length ${SEGMENT_S * 4}s; } } }`,
    );
    n = await measure(
      {
        pids: () => [nginx.child.pid, ...nginx.workers()],
        rtmpUrl: `rtmp://127.0.0.1:${rtmpPort}/live`,
        playlist: (i) => readFile(join(hlsPath, `s${i}.m3u8`), 'utf8').catch(() => ''),
        playable: async (_i, text) => {
          const size = await stat(join(hlsPath, firstUri(text))).then(
            (x) => x.size,
            () => 0,
          );
          return size > 0;
        },
        filesMb: () => Number(spawnSync('du', ['-sk', hlsPath]).stdout.toString().split('\t')[0]) / 1024,
      },
      { N, SECONDS, flv },
    );
    await nginx.stop();
    await rm(hlsPath, { recursive: true, force: true });
    await rm(nginx.dir, { recursive: true, force: true });
  }

  const both = (f) => [...(before ? [f(before)] : []), f(s), n ? f(n) : '(not run)'];
  const table = [
    [
      '',
      ...(before ? [`Sluice ${process.env.BENCH_COMPARE_LABEL ?? 'before'}`] : []),
      'Sluice (RTMP in, HLS in memory)',
      'nginx-rtmp (hls on, tmpfs)',
    ],
    ['streams holding real time', ...both((x) => `${x.holding} / ${N}`)],
    ['server CPU, all streams', ...both((x) => cores(x.cpu))],
    ['server CPU per stream', ...both((x) => cores(x.cpu / N))],
    ['server memory (RSS)', ...both((x) => `${x.rss.toFixed(0)} MB`)],
    ['segment files on tmpfs', ...both((x) => `${x.filesMb.toFixed(0)} MB`)],
    ['memory per stream (Δ RSS + files)', ...both((x) => `${x.perStreamMb.toFixed(2)} MB`)],
    ['publish → first segment, alone', ...both((x) => `${x.firstAlone.toFixed(2)} s`)],
    [`publish → first segment, ${N}th`, ...both((x) => `${x.firstLoaded.toFixed(2)} s`)],
    ['publisher process (not counted)', ...both((x) => cores(x.pubCpu))],
    ['load average (1 min) start → end', ...both((x) => `${x.load[0].toFixed(2)} → ${x.load[1].toFixed(2)}`)],
  ];
  for (const row of table) console.log(row.map((c, i) => c.padEnd(i === 0 ? 36 : 34)).join(''));
  if (n && before)
    console.log(
      `before → after: CPU per stream ${(before.cpu / n.cpu).toFixed(2)}× → ${(s.cpu / n.cpu).toFixed(2)}× nginx-rtmp's; ` +
        `memory per stream ${before.perStreamMb.toFixed(2)} → ${s.perStreamMb.toFixed(2)} MB`,
    );
  if (n)
    console.log(
      `ratios to nginx-rtmp: CPU per stream ${(s.cpu / n.cpu).toFixed(2)}× (target ≤ 1.0×); ` +
        `memory per stream ${s.perStreamMb.toFixed(2)} MB (target ≤ 3 MB)`,
    );
  console.log(
    `segment duration ${SEGMENT_S} s: first playable segment target ≤ ${SEGMENT_S + 0.5} s after publish`,
  );
}
