// The load parts of the VOD bench: progressive MP4 with Range (requests/s, server CPU per GiB) and
// a crowd of HLS players seeking in many files, each beside nginx serving the same bytes with Range.
import { cpuSeconds } from './media.mjs';
import { get, keepAlive, loadFor, percentile, randomInt } from './http-load.mjs';

const GIB = 1024 ** 3;

/**
 * `connections` keep-alive clients fetching random `rangeBytes` ranges of a `sizeBytes` file for
 * `seconds`, from each target in turn (rounds alternate, so a load elsewhere falls on both alike).
 * targets: [{label, url, pids: () => number[]}]. Returns per target the round of median requests/s.
 */
export async function measureProgressive({ targets, sizeBytes, rounds, seconds, connections, rangeBytes }) {
  const runs = new Map(targets.map((t) => [t.label, []]));
  const next = (url) => () => {
    const start = randomInt(sizeBytes - rangeBytes);
    return { url, headers: { range: `bytes=${start}-${start + rangeBytes - 1}` } };
  };
  const cpuOf = (pids) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  for (let round = 0; round < rounds; round++)
    for (const target of targets) {
      const cpu0 = cpuOf(target.pids());
      const result = await loadFor({ seconds, concurrency: connections, next: next(target.url) });
      const cpuS = cpuOf(target.pids()) - cpu0;
      runs.get(target.label).push({
        rps: result.count / result.wallS,
        gibPerS: result.bytes / GIB / result.wallS,
        cpuPerGib: cpuS / (result.bytes / GIB),
        coreShare: cpuS / result.wallS,
        p50: percentile(result.latencies, 50),
        p99: percentile(result.latencies, 99),
        errors: result.errors,
        count: result.count,
      });
    }
  const median = (list) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
  return targets.map((t) => ({ label: t.label, median: median(runs.get(t.label)), all: runs.get(t.label) }));
}

const summary = (ms) => ({
  count: ms.length,
  p50: percentile(ms, 50),
  p95: percentile(ms, 95),
  p99: percentile(ms, 99),
});

const summaries = (r) => ({
  playlist: summary(r.playlist),
  segment: summary(r.segment),
  seek: summary(r.seek),
});

/**
 * `clients` players at once, each `seeks` times: a random file of `names`, its media playlist, then
 * the segment at a random point of it. Then the reference: as many nginx byte-range requests of the
 * same sizes, at random offsets of random files of `names`, by as many clients in the same order
 * (playlist-sized range, then segment-sized range).
 */
export async function measureSeeks({ sluiceBase, nginxBase, names, sizeBytes, clients, seeks }) {
  const pairs = [];
  const sluice = { playlist: [], segment: [], seek: [], errors: [], t0: performance.now(), wallS: 0 };
  let agent = keepAlive(clients);
  const player = async () => {
    for (let k = 0; k < seeks; k++) {
      const name = names[randomInt(names.length)];
      const playlist = await get(agent, `${sluiceBase}/vod/${name}/video.m3u8`, {}, true);
      sluice.playlist.push(playlist.ms);
      if (playlist.status !== 200) {
        sluice.errors.push(`video.m3u8 ${playlist.status} ${playlist.error?.message ?? ''}`);
        continue;
      }
      const uris = playlist.body.split('\n').filter((l) => /\.ts(\?|$)/.test(l));
      const segment = await get(agent, `${sluiceBase}/vod/${name}/${uris[randomInt(uris.length)]}`);
      sluice.segment.push(segment.ms);
      sluice.seek.push(playlist.ms + segment.ms);
      if (segment.status !== 200)
        sluice.errors.push(`segment ${segment.status} ${segment.error?.message ?? ''}`);
      else pairs.push([playlist.bytes, segment.bytes]);
    }
  };
  await Promise.all(Array.from({ length: clients }, player));
  sluice.wallS = (performance.now() - sluice.t0) / 1000;
  agent.destroy();

  agent = keepAlive(clients);
  const nginx = { playlist: [], segment: [], seek: [], errors: [], t0: performance.now(), wallS: 0 };
  const queue = [...pairs];
  const ranged = async (bytes, into) => {
    const start = randomInt(sizeBytes - bytes);
    const name = names[randomInt(names.length)];
    const answer = await get(agent, `${nginxBase}/${name}`, { range: `bytes=${start}-${start + bytes - 1}` });
    into.push(answer.ms);
    if (answer.status !== 206 || answer.bytes !== bytes) nginx.errors.push(`${answer.status}`);
    return answer.ms;
  };
  const reader = async () => {
    for (let pair = queue.pop(); pair; pair = queue.pop()) {
      const playlistMs = await ranged(pair[0], nginx.playlist);
      nginx.seek.push(playlistMs + (await ranged(pair[1], nginx.segment)));
    }
  };
  await Promise.all(Array.from({ length: clients }, reader));
  nginx.wallS = (performance.now() - nginx.t0) / 1000;
  agent.destroy();
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    playlistBytes: mean(pairs.map((p) => p[0])),
    segmentBytes: mean(pairs.map((p) => p[1])),
    sluice: { ...sluice, ...summaries(sluice) },
    nginx: { ...nginx, ...summaries(nginx) },
  };
}
