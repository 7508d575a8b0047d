import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import { audioOnlySegment } from '../media/audio-only.js';
import type { Variant } from '../media/hls-playlist.js';
import type { PacketBus } from '../media/packet-bus.js';
import { segmentBitRates } from '../media/segment-bit-rates.js';
import type { ClientSession } from './client-sessions.js';
import type { PlaybackDeps } from './playback.js';
import { refuse, send } from './respond.js';

/** The audio-only rendition's URLs: /{name}/audio.m3u8 and its segments /{name}/audio-N.ts. */
export const AUDIO_ONLY_RESOURCE = /^audio(?:\.m3u8|-(\d{1,15})\.ts)$/;

/**
 * add_audio_only: the master playlist lists one more variant, the stream's audio alone, cut from the
 * same segments (media/audio-only.ts). Not for an AES-128 stream: its keys and encryption are for
 * the full segments, so the variant is left out there rather than served in the clear.
 */
export function audioOnlyWanted(runtime: StreamRuntime, deps: PlaybackDeps): boolean {
  return runtime.spec.addAudioOnly === true && !deps.drm.encrypted(runtime.name);
}

/** The master playlist's line for the audio-only variant; undefined before a segment is cut. */
export function audioOnlyVariant(
  bus: PacketBus,
  segmentDurationMs: number,
  query: string,
): Variant | undefined {
  const segments = bus.segmenter.segments.map((s) => ({
    data: audioOnlySegment(s.data),
    durationMs: s.durationMs,
  }));
  const rates = segmentBitRates(segments, segmentDurationMs);
  if (!rates) return undefined;
  return {
    uri: `audio.m3u8${query}`,
    bandwidth: rates.peakBps,
    averageBandwidth: rates.averageBps,
    codecs: bus.demux.codecStrings().filter((c) => c.startsWith('mp4a')),
    resolution: undefined,
  };
}

/** audio.m3u8 (the media playlist with the audio segments' URIs) or one audio segment. */
export function serveAudioOnly(
  deps: PlaybackDeps,
  runtime: StreamRuntime,
  resource: string,
  token: string | undefined,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const bus = runtime.bus;
  if (!audioOnlyWanted(runtime, deps))
    return refuse(res, 404, `stream ${runtime.name} has no audio-only variant`);
  if (!bus) return refuse(res, 404, `stream ${runtime.name} is not running`);
  const sequence = AUDIO_ONLY_RESOURCE.exec(resource)?.[1];
  if (sequence === undefined) {
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    const playlist = bus.segmenter.playlist(query);
    if (!playlist) return refuse(res, 404, `stream ${runtime.name} has no media yet`);
    const body = playlist.replace(/^seg-(\d+)\.ts/gm, 'audio-$1.ts');
    return send(deps.sessions, session, req, res, 'application/vnd.apple.mpegurl', body, 'no-cache');
  }
  const segment = bus.segmenter.get(Number(sequence));
  if (!segment)
    return refuse(res, 404, `segment ${sequence} of ${runtime.name} is not (or no longer) available`);
  send(deps.sessions, session, req, res, 'video/mp2t', audioOnlySegment(segment.data), 'max-age=60');
}
