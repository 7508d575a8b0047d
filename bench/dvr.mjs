// DVR: what recording costs and how fast the archive answers, each figure beside a reference
// measured in the same run.
//   1. extra CPU per recorded 2 Mbit/s stream: N UDP streams with `dvr ROOT 1h` vs the same N without
//   2. bytes written per byte received while recording
//   3. a 24 h archive playlist (43,200 segments) vs the same bytes as a static file from nginx
//   4. MP4 export speed (media seconds per wall second) vs plain ffmpeg on the same segment files
//   5. a restarted server's time until S day-long archives answer vs `find ROOT -type f | wc -l`
// Usage: npm run bench -- dvr [N=100] [SECONDS=30] [S=10] [EXPORT_MINUTES=10]
//   DVR_BENCH_DIR=/path: where the archives go (default the temp folder; it must hold hard links)
//   DVR_BENCH_PARTS=recording | archive: one half only
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { clipBytesPerSecond, makeClip } from './lib/media.mjs';
import { measureRecording } from './lib/dvr-recording.mjs';
import { buildArchives, measureExport, measurePlaylist, measureRestart } from './lib/dvr-archive.mjs';

const N = Number(process.argv[2] ?? 100);
const SECONDS = Number(process.argv[3] ?? 30);
const S = Number(process.argv[4] ?? 10);
const EXPORT_SECONDS = Number(process.argv[5] ?? 10) * 60;
const EXPORT_ROUNDS = 3;
const parts = process.env.DVR_BENCH_PARTS ?? 'recording,archive';
const clip = makeClip(20);
const BYTES_PER_SECOND = clipBytesPerSecond(clip);
const base = mkdtempSync(join(process.env.DVR_BENCH_DIR ?? tmpdir(), 'sluice-bench-dvr-'));
const pct = (x) => `${(x * 100).toFixed(3)}%`;
const ms = (x) => `${x.toFixed(1)} ms`;
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const row = (...cells) => console.log(cells.map((c, i) => String(c).padEnd(i === 0 ? 52 : 40)).join('  '));
// Others' work on the machine moves every figure: the load average is printed with them.
const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  if (parts.includes('recording')) {
    console.log(
      `\n1–2. ${N} UDP streams of ${Math.round((BYTES_PER_SECOND * 8) / 1000)} kbit/s, windows of ${SECONDS} s, DVR root in ${base}; ${load()}`,
    );
    const root = join(base, 'rec');
    const windows = await measureRecording({
      n: N,
      seconds: SECONDS,
      root,
      clip,
      bytesPerSecond: BYTES_PER_SECOND,
    });
    const [before, recording, after] = windows;
    // Share of one core per stream over a window.
    const perStream = (w) => w.cpu / w.windowSeconds / N;
    row('', ...windows.map((w) => w.label));
    row('streams alive at the end', ...windows.map((w) => `${w.alive} / ${N}`));
    row(
      'server CPU (+ children), all streams',
      ...windows.map((w) => `${pct(w.cpu / w.windowSeconds)} of a core`),
    );
    row('server CPU per stream', ...windows.map((w) => `${pct(perStream(w))} of a core`));
    // Over 100% where the sender caught up after a stall (a loaded machine): that window is not real time.
    row(
      'received (stats bytes_in), % of real time',
      ...windows.map(
        (w) =>
          `${(w.received / 1e6).toFixed(1)} MB, ${((w.received / (N * BYTES_PER_SECOND * w.windowSeconds)) * 100).toFixed(0)}%`,
      ),
    );
    row('segment files added under the DVR root', ...windows.map((w) => w.files));
    row(
      'file bytes added (allocated blocks)',
      ...windows.map(
        (w) => `${(w.diskBytes / 1e6).toFixed(1)} MB (${(w.diskAllocated / 1e6).toFixed(1)} MB)`,
      ),
    );
    row('server write_bytes (/proc/PID/io)', ...windows.map((w) => `${(w.written / 1e6).toFixed(1)} MB`));
    const baseline = (perStream(before) + perStream(after)) / 2;
    console.log(
      `1. extra CPU per recorded stream: ${pct(perStream(recording) - baseline)} of a core ` +
        `(with DVR ${pct(perStream(recording))}, without ${pct(baseline)} = mean of the windows before and after; ` +
        `they differ by ${pct(Math.abs(perStream(before) - perStream(after)))}); target ≤ 0.1%`,
    );
    console.log(
      `2. bytes written per byte received: files ${(recording.diskBytes / recording.received).toFixed(3)}, ` +
        `allocated blocks ${(recording.diskAllocated / recording.received).toFixed(3)}, ` +
        `write_bytes ${(recording.written / recording.received).toFixed(3)}; target ≤ 1.05 ` +
        `(${recording.files} segments for ${N} streams × ${SECONDS} s ≈ ${Math.round((N * recording.windowSeconds) / 2)} expected; ` +
        `streams with dvr_error: ${recording.dvrErrors})`,
    );
    console.log(`   ${load()}`);
    spawnSync('rm', ['-rf', root]);
  }

  if (parts.includes('archive')) {
    console.log(
      `\n3–5. ${S} archives of 24 h (2 s segments, hard links to one real one) and ${EXPORT_SECONDS / 60} min of real segments; ${load()}`,
    );
    const fixture = buildArchives({
      base,
      streams: S,
      exportSeconds: EXPORT_SECONDS,
      rounds: EXPORT_ROUNDS,
      clip,
    });
    console.log(
      `fixture: ${fixture.cut.length} real segments cut by ffmpeg in ${s(fixture.cutMs)}; ` +
        `${S} × 43,200 hard links in ${s(fixture.dayMs)}`,
    );
    const restart = await measureRestart(fixture);
    try {
      const playlist = await measurePlaylist(restart.sluice, fixture, base);
      const exports = await measureExport(restart.sluice, fixture, base, EXPORT_SECONDS, EXPORT_ROUNDS);
      row('', 'Sluice', 'reference');
      row(
        `3. 24 h playlist (${playlist.segments} segments, ${(playlist.bytes / 1e6).toFixed(2)} MB), 20 GETs`,
        `median ${ms(playlist.product.median)}, p95 ${ms(playlist.product.p95)}`,
        `${playlist.reference.what}: median ${ms(playlist.reference.median)}, p95 ${ms(playlist.reference.p95)}`,
      );
      // Media seconds (as ffprobe reads the file made) per wall second.
      const speeds = (walls, media) => walls.map((wall, i) => media[i] / (wall / 1000));
      const product = median(speeds(exports.product, exports.mediaSeconds));
      const reference = median(speeds(exports.reference, exports.referenceMediaSeconds));
      row(
        `4. MP4 export of ${EXPORT_SECONDS / 60} min (${(exports.bytes / 1e6).toFixed(0)} MB), ${EXPORT_ROUNDS} rounds`,
        `${product.toFixed(1)}× real time (median ${s(median(exports.product))})`,
        `ffmpeg concat -c copy +faststart: ${reference.toFixed(1)}× (median ${s(median(exports.reference))})`,
      );
      console.log(
        `   exports hold ${exports.mediaSeconds.map((x) => x.toFixed(1)).join(', ')} s of media (${EXPORT_SECONDS} s asked); ` +
          'targets: playlist < 50 ms, export ≥ 20× real time',
      );
      row(
        `5. restart with ${S} day archives (${restart.files} files)`,
        `API ${s(restart.apiMs)}, dvr_info of all ${s(restart.infoMs)}, ranges.json of all ${s(restart.rangesMs)}`,
        `find ROOT -type f | wc -l: ${s(restart.findMs)} (warm cache, as the server's)`,
      );
      console.log(`   ${load()}`);
    } finally {
      await restart.sluice.stop();
      spawnSync('rm', ['-rf', restart.sluice.dir]);
    }
  }
} finally {
  const t0 = performance.now();
  spawnSync('rm', ['-rf', base]);
  console.log(`cleaned up ${base} in ${s(performance.now() - t0)}`);
}
