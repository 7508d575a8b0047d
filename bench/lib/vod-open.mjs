// The opening parts of the VOD bench: how long a freshly started server takes to answer the first
// playlists and segments of a 2-hour file (its pages dropped from the page cache, then again warm),
// beside ffmpeg cutting the same kind of segment; and the server's memory per opened file.
import { spawnSync } from 'node:child_process';
import { rssMb, sleep } from './media.mjs';
import { get, keepAlive } from './http-load.mjs';
import { dropFromCache } from './vod-fixture.mjs';

/** Times a player's first requests of /vod/NAME on `base`, one after another, as it would send them. */
async function firstRequests(base, name, midSegment) {
  const agent = keepAlive(1);
  const steps = [
    ['index.m3u8', 200],
    ['video.m3u8', 200],
    ['seg-0.ts', 200],
    [`seg-${midSegment}.ts`, 200],
  ];
  const out = {};
  for (const [resource, status] of steps) {
    const answer = await get(agent, `${base}/vod/${name}/${resource}`, {}, resource.endsWith('.m3u8'));
    if (answer.status !== status) throw new Error(`${resource}: ${answer.status} ${answer.body}`);
    out[resource.startsWith('seg-') && resource !== 'seg-0.ts' ? 'seg-mid' : resource] = answer.ms;
    if (resource === 'video.m3u8')
      out.segments = answer.body.split('\n').filter((l) => l.endsWith('.ts')).length;
  }
  agent.destroy();
  return out;
}

/**
 * A fresh server (from `start`), the file's pages dropped from the page cache, then a player's
 * first requests (cold), then the same again (warm), then a file not opened yet, its pages dropped
 * (coldFile). `cachedAfterDrop` is 0 when the drop worked.
 */
export async function measureFirstAnswers({ start, path, name, otherName, durationS }) {
  const server = await start();
  try {
    // Seek to the middle of the file: segment of 1 h at ~4 s each (the file's keyframes every 2 s).
    const midSegment = Math.floor(durationS / 2 / 4);
    const cachedAfterDrop = dropFromCache(path);
    const cold = await firstRequests(server.base, name, midSegment);
    const warm = await firstRequests(server.base, name, midSegment);
    // What the disk costs apart from a new process's first request: a name not opened yet (a hard
    // link: the same pages), the page cache dropped again, on the now warmed-up server.
    dropFromCache(path);
    const coldFile = await firstRequests(server.base, otherName, midSegment);
    return { cold, warm, coldFile, cachedAfterDrop, midSegment };
  } finally {
    await server.stop();
  }
}

/** ffmpeg -ss T -i FILE -t 4 -c copy -f mpegts: one segment cut from the file by ffmpeg, in ms. */
export function ffmpegSegmentMs(path, atS) {
  const t0 = performance.now();
  const result = spawnSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-ss', String(atS), '-i', path],
    ...['-t', '4', '-map', '0', '-c', 'copy', '-f', 'mpegts', '-y', '/dev/null'],
  ]);
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr}`);
  return performance.now() - t0;
}

/** The reference for the first answers: ffmpeg cutting a segment in the middle, cold then warm. */
export function ffmpegReference(path, durationS) {
  const cachedAfterDrop = dropFromCache(path);
  const cold = ffmpegSegmentMs(path, durationS / 2);
  const warm = ffmpegSegmentMs(path, durationS / 2);
  return { cold, warm, cachedAfterDrop };
}

/** RSS (MB) once it has stopped moving by more than 1 MB over 0.5 s (at most 5 s). */
async function settledRss(pid) {
  let last = rssMb(pid);
  for (let i = 0; i < 10; i++) {
    await sleep(500);
    const now = rssMb(pid);
    if (Math.abs(now - last) < 1) return now;
    last = now;
  }
  return last;
}

/**
 * Server RSS before and after opening `names` (index.m3u8 then video.m3u8 of each, one after
 * another) on a fresh server; one other file is opened first so code loaded on first use is not
 * counted.
 */
export async function measureMemory({ start, warmName, names }) {
  const server = await start();
  try {
    const agent = keepAlive(1);
    const open = async (name) => {
      for (const resource of ['index.m3u8', 'video.m3u8']) {
        const answer = await get(agent, `${server.base}/vod/${name}/${resource}`);
        if (answer.status !== 200) throw new Error(`${name}/${resource}: ${answer.status}`);
      }
    };
    await open(warmName);
    const beforeMb = await settledRss(server.child.pid);
    const t0 = performance.now();
    for (const name of names) await open(name);
    const openMs = (performance.now() - t0) / names.length;
    const afterMb = await settledRss(server.child.pid);
    agent.destroy();
    return { beforeMb, afterMb, perFileMb: (afterMb - beforeMb) / names.length, openMs };
  } finally {
    await server.stop();
  }
}
