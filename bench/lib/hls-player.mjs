// A light real-time HLS player for the benches: reloads the media playlist, fetches each new
// segment once, and plays its buffer at wall-clock speed. A stall is the playhead reaching the end
// of what was downloaded; it lasts until the next segment arrives. No decoding: only the timing
// a viewer would notice.
import { Agent } from 'node:http';
import { get } from './http-load.mjs';

/** Where a new player starts: this many segments from the live edge (hls.js liveSyncDurationCount). */
const LIVE_SYNC_SEGMENTS = 3;

/** The media playlist's sequence number, target duration and segments (duration ms, uri). */
export function parseMediaPlaylist(text) {
  const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
  const targetS = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1] ?? 2);
  const segments = [];
  let durationMs = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXTINF:')) durationMs = Number.parseFloat(line.slice(8)) * 1000;
    else if (line && !line.startsWith('#')) segments.push({ durationMs, uri: line.trim() });
  }
  return { sequence, targetS, segments };
}

/**
 * Plays `playlistUrl` until `untilMs` (performance.now() time) on one keep-alive connection as
 * `userAgent` (a session of its own). Resolves with counts: segments, stalls, stalled ms, errors
 * (answers other than 200, failed connections, segments gone before they were fetched), segment
 * fetch times (ms) and the time to the first segment.
 */
export async function play(playlistUrl, userAgent, untilMs) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { 'user-agent': userAgent };
  const stats = {
    segments: 0,
    stalls: 0,
    stalledMs: 0,
    errors: 0,
    why: {},
    fetchMs: [],
    startupMs: undefined,
  };
  /** Counts an error by its cause: an HTTP status, 'failed' (no answer) or 'behind' (window left). */
  const failed = (cause) => {
    stats.errors++;
    stats.why[cause] = (stats.why[cause] ?? 0) + 1;
  };
  const t0 = performance.now();
  let next; // media sequence of the next segment to fetch
  let playStart; // when playback began (the first segment arrived)
  let bufferedMs = 0; // media downloaded, from the first segment on
  const stalledBy = (now) => now - playStart - stats.stalledMs - bufferedMs;
  while (performance.now() < untilMs) {
    const answer = await get(agent, playlistUrl, headers, true);
    let fresh = false;
    let targetS = 2;
    if (answer.status !== 200) failed(answer.status || 'failed');
    else {
      const playlist = parseMediaPlaylist(answer.body);
      targetS = playlist.targetS;
      const last = playlist.sequence + playlist.segments.length - 1;
      next ??= Math.max(playlist.sequence, last - LIVE_SYNC_SEGMENTS + 1);
      if (next < playlist.sequence) {
        // Fell out of the window: what was missed is lost (counted), go on from the oldest.
        failed('behind');
        next = playlist.sequence;
      }
      for (; next <= last && performance.now() < untilMs; next++) {
        const segment = playlist.segments[next - playlist.sequence];
        const url = new URL(segment.uri, playlistUrl).href;
        const got = await get(agent, url, headers);
        if (got.status !== 200) {
          failed(got.status || 'failed');
          continue;
        }
        const now = performance.now();
        stats.fetchMs.push(got.ms);
        stats.segments++;
        fresh = true;
        if (playStart === undefined) {
          playStart = now;
          stats.startupMs = now - t0;
        } else if (stalledBy(now) > 0) {
          stats.stalls++;
          stats.stalledMs += stalledBy(now);
        }
        bufferedMs += segment.durationMs;
      }
    }
    // hls.js's reload rhythm: a target duration after new segments, half of one otherwise.
    const waitMs = Math.min((fresh ? 1 : 0.5) * targetS * 1000, untilMs - performance.now());
    if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
  }
  // A stall still going on at the end counts too.
  if (playStart !== undefined && stalledBy(untilMs) > 0) {
    stats.stalls++;
    stats.stalledMs += stalledBy(untilMs);
  }
  agent.destroy();
  return stats;
}
