import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import { masterPlaylist } from '../media/hls-playlist.js';
import type { PacketBus } from '../media/packet-bus.js';
import { segmentBitRates } from '../media/segment-bit-rates.js';
import type { ClientSession } from './client-sessions.js';
import { audioOnlyVariant, audioOnlyWanted } from './audio-only-hls.js';
import { withWebVtt } from '../subtitles/webvtt-hls.js';
import { waitForFirstMedia } from './first-media-wait.js';
import type { PlaybackDeps } from './playback.js';
import { refuse, send } from './respond.js';

/** How long a playlist request waits for the first segment of a stream that is just starting. */
const FIRST_SEGMENT_WAIT_MS = 10_000;

/** The master (index.m3u8) or media (video.m3u8) playlist of a live stream or of one of its variants. */
export function servePlaylist(
  deps: PlaybackDeps,
  name: string,
  master: boolean,
  token: string | undefined,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
  variant?: number,
): void {
  // A playlist request is what wakes an on-demand stream.
  const runtime = deps.engine.touch(name);
  if (!runtime || runtime.spec.disabled) return refuse(res, 404, `stream ${name} is disabled`);
  const answer = () => answerPlaylist(deps, runtime, name, master, token, session, req, res, variant);
  // A running stream answers at once, with no promise per request (the common case, by far).
  if (!runtime.transcoder && runtime.bus?.segmenter.playlist() !== undefined) return answer();
  void waitForFirstMedia(runtime, session, FIRST_SEGMENT_WAIT_MS).then((ready) =>
    ready ? answer() : refuse(res, 404, `stream ${name} has no media yet`),
  );
}

function answerPlaylist(
  deps: PlaybackDeps,
  runtime: StreamRuntime,
  name: string,
  master: boolean,
  token: string | undefined,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
  variant?: number,
): void {
  const bus = variant ? runtime.transcoder?.variant(variant) : runtime.bus;
  if (!bus) return refuse(res, 404, `stream ${name} is not running (or has no variant ${variant})`);
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const plain = master
    ? withWebVtt(
        runtime,
        withAudioOnly(
          deps,
          runtime,
          runtime.transcoder?.master(query) ?? masterFor(bus, runtime, query),
          query,
        ),
        query,
      )
    : bus.segmenter.playlist(query);
  // A variant's key lines point up to the stream's keys (/{name}/key-N.key).
  const marked = plain && !master && !variant && deps.ads ? deps.ads.playlist(name, plain) : plain;
  const body = marked && !master ? deps.drm.playlist(name, marked, query, variant ? '../' : '') : marked;
  if (!body) return refuse(res, 404, `stream ${name} has no media yet`);
  send(deps.sessions, session, req, res, 'application/vnd.apple.mpegurl', bytesOf(bus, body), 'no-cache');
}

/** add_audio_only: the audio-only variant's lines appended to the master (audio-only-hls.ts). */
function withAudioOnly(
  deps: PlaybackDeps,
  runtime: StreamRuntime,
  master: string | undefined,
  query: string,
): string | undefined {
  const bus = runtime.bus;
  if (!master || !bus || !audioOnlyWanted(runtime, deps)) return master;
  const variant = audioOnlyVariant(bus, runtime.spec.segmentDurationMs, query);
  return variant ? master + masterPlaylist([variant]).split('\n').slice(2).join('\n') : master;
}

/** Each bus's last playlist as bytes: every player of a stream reads the same text until the next segment. */
const lastBytes = new WeakMap<PacketBus, { text: string; bytes: Buffer }>();

function bytesOf(bus: PacketBus, text: string): Buffer {
  const last = lastBytes.get(bus);
  if (last?.text === text) return last.bytes;
  const bytes = Buffer.from(text);
  lastBytes.set(bus, { text, bytes });
  return bytes;
}

/**
 * One variant: the stream as it is (a transcoded stream lists its renditions instead), with the
 * peak and average segment bit rates of its segments; none before its first segment.
 */
function masterFor(bus: PacketBus, runtime: StreamRuntime, query: string): string | undefined {
  // The playlist window and the segments kept after it: all a player that read a playlist may fetch.
  const rates = segmentBitRates(bus.segmenter.segments, runtime.spec.segmentDurationMs);
  if (!rates) return undefined;
  return masterPlaylist([
    {
      uri: `video.m3u8${query}`,
      bandwidth: rates.peakBps,
      averageBandwidth: rates.averageBps,
      codecs: bus.demux.codecStrings(),
      resolution: bus.demux.resolution,
    },
  ]);
}
