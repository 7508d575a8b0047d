import { head, liveH264Args, mpegtsToStdout } from './common-args.js';

/**
 * ffmpeg command lines as data: pure functions returning argv, tested by exact value. Nothing here
 * spawns, and nothing is ever joined into a shell string. This file: the inputs (sources); the
 * outputs (DASH, RTMP play, previews, pushes) are in output-args.ts.
 */

export interface TestSourceOptions {
  width: number;
  height: number;
  fps: number;
  videoBitrateKbps: number;
  audioBitrateKbps: number;
  toneHz: number;
}

export const TEST_SOURCE_DEFAULTS: TestSourceOptions = {
  width: 640,
  height: 360,
  fps: 25,
  videoBitrateKbps: 800,
  audioBitrateKbps: 64,
  toneHz: 1000,
};

/** A generated live stream: ffmpeg's moving test pattern and a sine tone, H.264/AAC in MPEG-TS. */
export function testSourceArgs(options: TestSourceOptions = TEST_SOURCE_DEFAULTS): string[] {
  const { width, height, fps, videoBitrateKbps, audioBitrateKbps, toneHz } = options;
  return [
    ...head(),
    // -re paces each generated input at real time; lavfi would otherwise run as fast as the CPU allows.
    '-re',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=${fps}`,
    '-re',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${toneHz}:sample_rate=48000`,
    // testsrc2 is RGB: liveH264Args converts to 4:2:0. A keyframe every 2 s: steady 2 s HLS segments.
    ...liveH264Args(videoBitrateKbps, Math.max(1, Math.round(fps * 2))),
    '-c:a',
    'aac',
    '-b:a',
    `${audioBitrateKbps}k`,
    // sine is mono; players handle stereo everywhere.
    '-ac',
    '2',
    ...mpegtsToStdout(),
  ];
}

export type RemuxKind = 'rtmp' | 'rtsp' | 'hls' | 'file' | 'srt';

export interface RemuxInput {
  kind: RemuxKind;
  /** The URL ffmpeg opens: http(s) for HLS, a path for files. */
  input: string;
  /** Seconds of silence after which ffmpeg gives up on a network read (it then exits, and is restarted). */
  timeoutSeconds: number;
  /** RTSP: RTP over UDP instead of interleaved in the TCP connection. */
  rtpUdp?: boolean;
  /** RTSP: which tracks to take, 1-based, comma-separated ("1,2"); all video and audio otherwise. */
  tracks?: string;
  userAgent?: string;
}

/** Repackages a network or file input to MPEG-TS without re-encoding. */
export function remuxArgs(source: RemuxInput): string[] {
  const micros = String(Math.round(source.timeoutSeconds * 1_000_000));
  const input: string[] = [];
  switch (source.kind) {
    case 'rtmp':
      // rw_timeout (µs) ends a read that hangs on a silent server, instead of waiting forever.
      input.push('-rw_timeout', micros);
      break;
    case 'rtsp':
      // ffmpeg defaults to UDP then falls back to TCP after a delay; ask for the one configured.
      input.push('-rtsp_transport', source.rtpUdp ? 'udp' : 'tcp', '-timeout', micros);
      break;
    case 'hls':
      input.push('-rw_timeout', micros);
      break;
    case 'srt':
      // SRT carries MPEG-TS (caller mode by default; the URL may say mode=listener).
      input.push('-f', 'mpegts');
      break;
    case 'file':
      // A file played as a live stream: at its own pace (-re), looping forever (-stream_loop -1).
      input.push('-re', '-stream_loop', '-1');
      break;
  }
  // The schema refuses control characters in user_agent; stripped here too, so a value that came
  // another way (an older config file, a mirror) can't end ffmpeg's User-Agent line and add headers.
  const userAgent = source.userAgent && headerSafe(source.userAgent);
  if (userAgent && source.kind !== 'file') input.push('-user_agent', userAgent);
  return [
    ...head(),
    ...input,
    '-i',
    source.input,
    ...trackMaps(source.tracks),
    // Copy: the media is repackaged, never decoded, so a remux costs almost no CPU.
    '-c',
    'copy',
    ...mpegtsToStdout(),
  ];
}

/** A value for an HTTP request header: control characters (CR, LF, NUL…) removed. */
export function headerSafe(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed here
  return value.replace(/[\u0000-\u001f\u007f]/g, '');
}

/** `-map` options; the trailing `?` keeps ffmpeg going when an input has no audio (or no video). */
function trackMaps(tracks: string | undefined): string[] {
  const wanted = (tracks ?? '')
    .split(',')
    .map((t) => Number.parseInt(t.trim(), 10))
    .filter((n) => Number.isInteger(n) && n > 0);
  if (wanted.length === 0) return ['-map', '0:v?', '-map', '0:a?'];
  return wanted.flatMap((n) => ['-map', `0:${n - 1}`]);
}

/** Repackages an FLV byte stream arriving on stdin (an RTMP publish) to MPEG-TS. */
export function flvRemuxArgs(): string[] {
  return [
    ...head(),
    // The publisher's media arrives as FLV tags on stdin, written by the RTMP listener.
    '-f',
    'flv',
    '-i',
    'pipe:0',
    ...trackMaps(undefined),
    '-c',
    'copy',
    ...mpegtsToStdout(),
  ];
}
