import { type ChildProcess, spawn } from 'node:child_process';
import { type AdaptationTimeline, parseTimelines } from '../src/delivery/dash-mpd.js';
import { stopChild } from './media-helpers.js';

/**
 * An RTMP publisher as the issue reporter's: H.264 with two B-frames, a keyframe every 2 s, AAC.
 * At 30 fps RTMP's millisecond timestamps make frame durations 33/34 ms, so the end of a GOP lands
 * a fraction of a millisecond past its next keyframe. zerolatency keeps x264 from holding frames
 * back (no lookahead), so media time tracks the wall clock; the B-frames stay (-bf comes after it).
 */
export function bframePublisher(url: string, fps = 30): { stop: () => Promise<void>; child: ChildProcess } {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-re', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=${fps}`],
      ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ...['-bf', '2', '-g', String(fps * 2), '-keyint_min', String(fps * 2), '-sc_threshold', '0'],
      ...['-c:a', 'aac', '-f', 'flv', url],
    ],
    { stdio: 'ignore' },
  );
  return { stop: () => stopChild(child), child };
}

export interface MpdAnswer {
  text: string;
  /** When the answer arrived (ms since epoch). */
  atMs: number;
  headers: Headers;
  timelines: AdaptationTimeline[];
  availabilityStartMs: number;
  maxSegmentS: number;
}

export async function fetchMpd(url: string): Promise<MpdAnswer | undefined> {
  const response = await fetch(url);
  if (!response.ok) return undefined;
  const text = await response.text();
  const seconds = /maxSegmentDuration="PT([\d.]+)S"/.exec(text)?.[1];
  return {
    text,
    atMs: Date.now(),
    headers: response.headers,
    timelines: parseTimelines(text),
    availabilityStartMs: Date.parse(/availabilityStartTime="([^"]+)"/.exec(text)?.[1] ?? ''),
    maxSegmentS: Number(seconds),
  };
}

export const videoTimeline = (mpd: MpdAnswer): AdaptationTimeline | undefined =>
  mpd.timelines.find((t) => t.contentType === 'video');

/**
 * The wall clock of media time 0 as the server really makes media available, measured apart from
 * the MPD's availabilityStartTime: poll the MPD, and for each segment seen for the first time, its
 * end minus the moment it showed up. The smallest such value is the ingest clock plus the
 * packager's processing time.
 */
export async function measureMediaClock(url: string, durationMs: number): Promise<number> {
  const seen = new Set<number>();
  let best = Number.POSITIVE_INFINITY;
  let first = true;
  const deadline = Date.now() + durationMs;
  while (Date.now() < deadline) {
    const mpd = await fetchMpd(url);
    const video = mpd && videoTimeline(mpd);
    for (const s of video?.segments ?? []) {
      if (seen.has(s.number)) continue;
      seen.add(s.number);
      // Segments listed in the first answer were made before it: when, it does not tell.
      if (!first) best = Math.min(best, mpd!.atMs - ((s.t + s.d) / video!.timescale) * 1000);
    }
    if (video) first = false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return best;
}
