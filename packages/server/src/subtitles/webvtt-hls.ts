import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { Segment } from '../media/segment-window.js';
import type { ClientSession } from '../delivery/client-sessions.js';
import type { PlaybackDeps } from '../delivery/playback.js';
import { refuse, send } from '../delivery/respond.js';
import { ConversionQueue, QUEUE_WAIT_MS, QueueTimeout, type SharedConversion } from './conversion-queue.js';
import { segmentTracks, type TeletextTrack } from './teletext-tracks.js';
import { segmentVtt, teletextCues } from './webvtt-convert.js';

/** The subtitle renditions' URLs: /{name}/subs-{lang}.m3u8 and their segments /{name}/subs-{lang}-N.vtt. */
export const SUBTITLES_RESOURCE = /^subs-([a-z]{3})(?:\.m3u8|-(\d{1,15})\.vtt)$/;
const GROUP = 'subs';

/**
 * Each segment's WebVTT per language, made once by one ffmpeg run on its first request (for every
 * viewer, never per viewer) and gone with the segment: bounded by the segment window, released
 * when the stream stops.
 */
const made = new WeakMap<Buffer, SharedConversion<Map<string, string>>>();
/** Every stream's conversions share one line: a burst of .vtt requests never means a burst of processes. */
const conversions = new ConversionQueue();
/** Seconds a client refused for a busy queue is told to wait before asking again. */
const RETRY_AFTER_S = 2;

/**
 * The teletext subtitle tracks of the newest segment that has any (an ad break's segments have
 * none, and the renditions stay listed through it): none for a transcoded stream.
 */
function tracksOf(runtime: StreamRuntime): TeletextTrack[] {
  const segments = runtime.bus?.segmenter.segments ?? [];
  if (runtime.transcoder) return [];
  for (let i = segments.length - 1; i >= 0; i--) {
    const { tracks } = segmentTracks(segments[i]!.data);
    if (tracks.length > 0) return tracks;
  }
  return [];
}

/**
 * The master playlist with a SUBTITLES group (RFC 8216 §4.3.4.1): one rendition per teletext
 * subtitle language, and every variant naming the group. Unchanged for a stream without any.
 */
export function withWebVtt(
  runtime: StreamRuntime,
  master: string | undefined,
  query: string,
): string | undefined {
  const tracks = tracksOf(runtime);
  if (!master || tracks.length === 0) return master;
  // Not DEFAULT: subtitles are the viewer's choice; AUTOSELECT lets a player pick its language.
  const media = tracks.map(
    (t) =>
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${GROUP}",LANGUAGE="${t.lang}",NAME="${t.lang}",` +
      `DEFAULT=NO,AUTOSELECT=YES,URI="subs-${t.lang}.m3u8${query}"`,
  );
  const lines = master.trimEnd().split('\n');
  const firstVariant = lines.findIndex((l) => l.startsWith('#EXT-X-STREAM-INF:'));
  if (firstVariant < 0) return master;
  const named = lines.map((l) => (l.startsWith('#EXT-X-STREAM-INF:') ? `${l},SUBTITLES="${GROUP}"` : l));
  named.splice(firstVariant, 0, ...media);
  return `${named.join('\n')}\n`;
}

/** subs-{lang}.m3u8 (the video playlist's segments, as .vtt) or one WebVTT segment. */
export function serveWebVtt(
  deps: PlaybackDeps,
  runtime: StreamRuntime,
  resource: string,
  token: string | undefined,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const [, lang, sequence] = SUBTITLES_RESOURCE.exec(resource) ?? [];
  const segmenter = runtime.bus?.segmenter;
  if (!segmenter) return refuse(res, 404, `stream ${runtime.name} is not running`);
  const track = tracksOf(runtime).find((t) => t.lang === lang);
  if (!track) return refuse(res, 404, `stream ${runtime.name} has no '${lang}' teletext subtitles`);
  if (sequence === undefined) {
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    const playlist = segmenter.playlist(query);
    if (!playlist) return refuse(res, 404, `stream ${runtime.name} has no media yet`);
    // Same media sequence, durations and discontinuities (ad breaks too) as the video: only the URIs differ.
    const marked = deps.ads ? deps.ads.playlist(runtime.name, playlist) : playlist;
    const body = marked.replace(/^seg-(\d+)\.ts/gm, `subs-${lang}-$1.vtt`);
    return send(deps.sessions, session, req, res, 'application/vnd.apple.mpegurl', body, 'no-cache');
  }
  const segment = segmenter.get(Number(sequence));
  if (!segment)
    return refuse(res, 404, `segment ${sequence} of ${runtime.name} is not (or no longer) available`);
  const previous = segment.discontinuity ? undefined : segmenter.get(segment.sequence - 1);
  const gone = (cancel: () => void) => res.once('close', cancel);
  void vttOf(runtime.name, segment, previous, gone).then((byLang) => {
    if (res.destroyed) return;
    if (byLang instanceof QueueTimeout) {
      res.setHeader('retry-after', String(RETRY_AFTER_S));
      return refuse(res, 503, `subtitle conversions of ${runtime.name} are busy: try again shortly`);
    }
    // A segment without the page (an ad) is an empty cue list on its own clock.
    const videoPts = segmentTracks(segment.data).videoPts;
    const text =
      byLang.get(track.lang) ??
      (videoPts === undefined ? undefined : segmentVtt([], videoPts, segment.durationMs));
    if (text === undefined) return refuse(res, 404, `segment ${sequence} of ${runtime.name} has no text`);
    send(deps.sessions, session, req, res, 'text/vtt; charset=utf-8', Buffer.from(text), 'max-age=60');
  });
}

/**
 * A segment's WebVTT per language. The previous segment is read too: a page sent there shows until
 * the next one, which may be in this segment.
 */
function vttOf(
  stream: string,
  segment: Segment,
  previous: Segment | undefined,
  gone: (cancel: () => void) => void,
): Promise<Map<string, string> | QueueTimeout> {
  const { tracks, videoPts } = segmentTracks(segment.data);
  if (videoPts === undefined || tracks.length === 0) return Promise.resolve(new Map());
  let pending = made.get(segment.data);
  if (!pending || pending.abandoned) {
    const input = previous ? Buffer.concat([previous.data, segment.data]) : segment.data;
    pending = conversions.add(stream, () =>
      teletextCues(input, tracks).then(
        (perTrack) =>
          new Map(tracks.map((t, i) => [t.lang, segmentVtt(perTrack[i]!, videoPts, segment.durationMs)])),
      ),
    );
    made.set(segment.data, pending);
  }
  return pending.wait(QUEUE_WAIT_MS, gone).catch((error: unknown) => {
    if (error instanceof QueueTimeout) return error;
    throw error;
  });
}
