import type { MediaInfo } from '@sluice/api';
import type { ArchiveRange } from './archive-index.js';

/**
 * The JSON answers about an archive, in the shapes Flussonic's players and middleware read.
 *
 * ranges.json: `{ranges: [{opened_at, closed_at, from, duration}]}`. Flussonic's DVR player asks
 * `?closed_at_gte=MS&opened_at_lte=MS&limit=1000&resolution=0` with milliseconds, reads opened_at and
 * closed_at (dividing values over 1e10 by 1000, and asking again in seconds when an answer in
 * milliseconds came back empty), so they are answered in milliseconds; from/duration are the UNIX
 * seconds and seconds of dvr_info. `resolution` (merging ranges shorter than it) is not applied:
 * ranges are already whole stretches between gaps over 1 s.
 *
 * recording_status.json: `[{stream, ranges: [{from, duration}]}]`, seconds (middleware reads
 * `[0].ranges`; `?from=S` keeps the ranges that end after S).
 */

/** Times of 1e10 or more are milliseconds (1e10 s is the year 2286), as the DVR player tells them. */
const asMs = (value: number): number => (value >= 1e10 ? value : value * 1000);

function numberParam(params: URLSearchParams, key: string): number | undefined {
  const text = params.get(key);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : Number.NaN;
}

export type JsonAnswer = { body: unknown } | { status: 400; error: string };

export function rangesJson(ranges: readonly ArchiveRange[], params: URLSearchParams): JsonAnswer {
  const closedGte = numberParam(params, 'closed_at_gte');
  const openedLte = numberParam(params, 'opened_at_lte');
  const limit = numberParam(params, 'limit');
  for (const [key, value] of [
    ['closed_at_gte', closedGte],
    ['opened_at_lte', openedLte],
    ['limit', limit],
  ] as const)
    if (Number.isNaN(value) || (value !== undefined && value < 0))
      return { status: 400, error: `${key} must be a non-negative number, not "${params.get(key)}"` };
  const selected = ranges.filter(
    (r) =>
      (closedGte === undefined || r.fromMs + r.durationMs >= asMs(closedGte)) &&
      (openedLte === undefined || r.fromMs <= asMs(openedLte)),
  );
  const kept = limit === undefined ? selected : selected.slice(0, Math.floor(limit));
  return {
    body: {
      ranges: kept.map((r) => ({
        opened_at: r.fromMs,
        closed_at: r.fromMs + r.durationMs,
        from: Math.floor(r.fromMs / 1000),
        duration: Math.round(r.durationMs / 1000),
      })),
    },
  };
}

export function recordingStatusJson(
  name: string,
  ranges: readonly ArchiveRange[],
  params: URLSearchParams,
): JsonAnswer {
  const from = numberParam(params, 'from');
  if (Number.isNaN(from) || (from !== undefined && from < 0))
    return { status: 400, error: `from must be UNIX seconds, not "${params.get('from')}"` };
  const kept = from === undefined ? ranges : ranges.filter((r) => r.fromMs + r.durationMs > from * 1000);
  return {
    body: [
      {
        stream: name,
        ranges: kept.map((r) => ({
          from: Math.floor(r.fromMs / 1000),
          duration: Math.round(r.durationMs / 1000),
        })),
      },
    ],
  };
}

/** A stream's tracks as ffprobe reads them from an archive segment (when the stream isn't running). */
export interface ProbedTrack {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  channels?: number;
  sample_rate?: string;
}

const CODEC_NAMES: Record<string, string> = { mpeg2video: 'mp2v', mp2: 'mp2a' };

/** media_info (spec 000 §3 "Track") of probed tracks, in the engine's codec names. */
export function mediaInfoOf(streams: readonly ProbedTrack[]): MediaInfo {
  const tracks: MediaInfo['tracks'] = [];
  let v = 0;
  let a = 0;
  for (const s of streams) {
    const codec = CODEC_NAMES[s.codec_name] ?? s.codec_name;
    if (s.codec_type === 'video')
      tracks.push({ track_id: `v${++v}`, content: 'video', codec, width: s.width, height: s.height });
    else if (s.codec_type === 'audio')
      tracks.push({
        track_id: `a${++a}`,
        content: 'audio',
        codec,
        channels: s.channels,
        sample_rate: s.sample_rate === undefined ? undefined : Number(s.sample_rate),
      });
  }
  const video = tracks.find((t) => t.content === 'video');
  return { width: video?.width, height: video?.height, tracks };
}
