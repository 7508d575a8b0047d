import { type ChildProcess, spawn } from 'node:child_process';
import { freePort, minimalConfig, type RunningServer, startServer } from './harness.js';
import { stopChild } from './media-helpers.js';

/**
 * The live sources the conformance suite plays through one server: each kind of input an operator
 * feeds Sluice, small (320x240) so seven encoders fit a busy machine. `gopFrames` keep a keyframe
 * every segment_duration, as an encoder set up for HLS does.
 */
export interface ConformanceSource {
  /** Stream name, and what the source is. */
  name: string;
  /** ffmpeg input and encoder arguments, before the output. */
  encoder: string[];
  via: 'udp' | 'rtmp';
  /** The stream's segment_duration, ms (default 2000). */
  segmentMs?: number;
  hasVideo: boolean;
  hasAudio: boolean;
  /**
   * Open GOP: the B-frames after a recovery point's I-frame refer to the GOP before, in the
   * previous segment. RFC 8216 §3 lets a segment carry the bitstream on from the previous one
   * unless EXT-X-INDEPENDENT-SEGMENTS says otherwise, so only these may fail to decode alone.
   */
  leadingPictures?: boolean;
}

const QUIET = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
const video = (fps: number) => ['-re', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${fps}`];
const audio = ['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'];
const x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'];
/** A keyframe every `frames` exactly, none at scene cuts. */
const gop = (frames: number) => ['-g', String(frames), '-keyint_min', String(frames), '-sc_threshold', '0'];
const aac = ['-c:a', 'aac', '-b:a', '64k'];
/**
 * A headend's muxer keeps TR 101 290's PCR limit (every 40 ms at most): ffmpeg's writes a PCR only
 * with a PES start by default (80 ms apart at 25 fps, 330 ms audio-only), which Sluice passes on
 * untouched from a TS source. One audio frame per PES and a PCR every 20 ms.
 */
const TR101290_MUX = ['-pcr_period', '20', '-pes_payload_size', '0'];

export const SOURCES: ConformanceSource[] = [
  {
    name: 'closed',
    encoder: [...video(25), ...audio, ...x264, '-tune', 'zerolatency', ...gop(50), ...aac],
    via: 'udp',
    hasVideo: true,
    hasAudio: true,
  },
  {
    name: 'bframes',
    encoder: [...video(25), ...audio, ...x264, '-bf', '3', ...gop(50), ...aac],
    via: 'udp',
    hasVideo: true,
    hasAudio: true,
  },
  {
    // Non-IDR I-frames with a recovery point SEI, leading B-frames referring across the cut.
    name: 'opengop',
    encoder: [
      ...video(25),
      ...audio,
      ...x264,
      '-bf',
      '3',
      '-x264-params',
      'open-gop=1:keyint=50:min-keyint=50:scenecut=0',
      ...aac,
    ],
    via: 'udp',
    hasVideo: true,
    hasAudio: true,
    leadingPictures: true,
  },
  {
    // FLV timestamps are whole milliseconds: at 30 fps frames are 33 or 34 ms apart.
    name: 'rtmp',
    encoder: [...video(30), ...audio, ...x264, '-bf', '3', ...gop(60), ...aac],
    via: 'rtmp',
    hasVideo: true,
    hasAudio: true,
  },
  {
    // 60 fps with sub-second segments (and a restart mid-run: sequence numbers must still grow).
    name: 'fps60',
    encoder: [...video(60), ...audio, ...x264, '-tune', 'zerolatency', ...gop(30), ...aac],
    via: 'udp',
    segmentMs: 500,
    hasVideo: true,
    hasAudio: true,
  },
  { name: 'audio', encoder: [...audio, ...aac], via: 'udp', hasVideo: false, hasAudio: true },
  {
    name: 'video',
    encoder: [...video(25), ...x264, '-tune', 'zerolatency', ...gop(50)],
    via: 'udp',
    hasVideo: true,
    hasAudio: false,
  },
];

export interface ConformanceRig {
  server: RunningServer;
  /** The HTTP base of a source's stream: `${base(name)}/video.m3u8`. */
  base: (name: string) => string;
  stop: () => Promise<void>;
}

/**
 * One server playing every source: UDP sources as configured streams, the RTMP one published into
 * the `live` location (its stream is `live/rtmp`).
 */
export async function startRig(sources: readonly ConformanceSource[]): Promise<ConformanceRig> {
  const rtmpPort = await freePort();
  const ports = new Map<string, number>();
  let config = `${minimalConfig}rtmp ${rtmpPort};\nlive live {\n  source_timeout 10;\n}\n`;
  for (const s of sources.filter((x) => x.via === 'udp')) {
    const port = await freePort();
    ports.set(s.name, port);
    const duration = s.segmentMs ? `  segment_duration ${s.segmentMs};\n` : '';
    config += `stream ${s.name} {\n  url udp://127.0.0.1:${port};\n  static true;\n${duration}}\n`;
  }
  const children: ChildProcess[] = [];
  const server = await startServer({ config });
  for (const s of sources) {
    const output =
      s.via === 'udp'
        ? [...TR101290_MUX, '-f', 'mpegts', `udp://127.0.0.1:${ports.get(s.name)}?pkt_size=1316`]
        : ['-f', 'flv', `rtmp://127.0.0.1:${rtmpPort}/live/${s.name}`];
    children.push(spawn('ffmpeg', [...QUIET, ...s.encoder, ...output], { stdio: 'ignore' }));
  }
  const names = new Map(sources.map((s) => [s.name, s.via === 'rtmp' ? `live/${s.name}` : s.name]));
  return {
    server,
    base: (name) => `${server.url}/${names.get(name) ?? name}`,
    stop: async () => {
      await Promise.all(children.map((c) => stopChild(c)));
      await server.cleanup();
    },
  };
}

/** Reads `url` as a continuous MPEG-TS response for `ms` (from its first byte). */
export async function captureTs(url: string, ms: number): Promise<Buffer> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } finally {
    controller.abort();
  }
  return Buffer.concat(parts);
}
