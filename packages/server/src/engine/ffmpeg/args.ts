/**
 * ffmpeg command lines as data: pure functions returning argv, tested by exact value. Nothing here
 * spawns, and nothing is ever joined into a shell string.
 */

/** Flags every child gets first. */
function head(): string[] {
  return [
    '-hide_banner',
    // Without -nostdin ffmpeg reads its stdin for interactive keys and can stop on a stray 'q'.
    '-nostdin',
    // level+ prefixes each line with [error]/[warning]…, which the stream log shows as is;
    // info keeps the one-time input and mapping description, and -nostats drops the progress
    // line ffmpeg would otherwise rewrite every half second.
    '-loglevel',
    'level+info',
    '-nostats',
  ];
}

/** MPEG-TS on stdout, which the engine reads into the stream's packet bus. */
function mpegtsToStdout(): string[] {
  return ['-f', 'mpegts', 'pipe:1'];
}

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
  const gop = String(Math.max(1, Math.round(fps * 2)));
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
    '-c:v',
    'libx264',
    // veryfast + zerolatency keep a demo stream cheap on a small machine: no B-frames, no lookahead.
    '-preset',
    'veryfast',
    '-tune',
    'zerolatency',
    // testsrc2 is RGB; x264 would pick 4:4:4, which browsers can't decode.
    '-pix_fmt',
    'yuv420p',
    '-b:v',
    `${videoBitrateKbps}k`,
    '-maxrate',
    `${videoBitrateKbps}k`,
    '-bufsize',
    `${videoBitrateKbps * 2}k`,
    // A keyframe every 2 s exactly, and none at scene cuts, so HLS segments are a steady 2 s.
    '-g',
    gop,
    '-keyint_min',
    gop,
    '-sc_threshold',
    '0',
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

export type RemuxKind = 'rtmp' | 'rtsp' | 'hls' | 'file';

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
    case 'file':
      // A file played as a live stream: at its own pace (-re), looping forever (-stream_loop -1).
      input.push('-re', '-stream_loop', '-1');
      break;
  }
  if (source.userAgent && source.kind !== 'file') input.push('-user_agent', source.userAgent);
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

export interface DashOutput {
  /** Where index.mpd and the segments are written. */
  manifestPath: string;
  videoCodec: string | undefined;
  audioCodec: string | undefined;
  segmentSeconds: number;
}

/** MP4 sample entries DASH players know, by the codec names media_info uses. */
const MP4_TAGS: Record<string, string> = {
  h264: 'avc1',
  hevc: 'hvc1',
  aac: 'mp4a',
  mp3: 'mp4a',
  ac3: 'ac-3',
  eac3: 'ec-3',
};

/** Whether a codec can go into DASH's fragmented MP4. */
export const dashCodec = (codec: string | undefined): boolean => codec !== undefined && codec in MP4_TAGS;

/** Packages MPEG-TS from stdin as live DASH (fragmented MP4 segments and a rolling MPD) in a folder. */
export function dashArgs(out: DashOutput): string[] {
  const sets: string[] = [];
  const maps: string[] = [];
  const tags: string[] = [];
  if (dashCodec(out.videoCodec)) {
    maps.push('-map', '0:v:0');
    // MPEG-TS stream types are no MP4 tags: ffmpeg refuses to copy them into MP4 unless told the right one.
    tags.push('-tag:v', MP4_TAGS[out.videoCodec!]!);
    sets.push(`id=${sets.length},streams=v`);
  }
  if (dashCodec(out.audioCodec)) {
    maps.push('-map', '0:a:0');
    tags.push('-tag:a', MP4_TAGS[out.audioCodec!]!);
    sets.push(`id=${sets.length},streams=a`);
  }
  return [
    ...head(),
    '-f',
    'mpegts',
    '-i',
    'pipe:0',
    ...maps,
    '-c',
    'copy',
    ...tags,
    '-f',
    'dash',
    '-seg_duration',
    String(out.segmentSeconds),
    // A rolling live window of 5 segments, and 3 more kept on disk for players a little behind.
    '-window_size',
    '5',
    '-extra_window_size',
    '3',
    '-use_template',
    '1',
    '-use_timeline',
    '1',
    '-adaptation_sets',
    sets.join(' '),
    '-remove_at_exit',
    '1',
    out.manifestPath,
  ];
}

/** Repackages MPEG-TS from stdin as FLV on stdout, for RTMP players. */
export function flvOutArgs(): string[] {
  return [
    ...head(),
    '-f',
    'mpegts',
    '-i',
    'pipe:0',
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    '-c',
    'copy',
    '-f',
    'flv',
    // A pipe can't be rewound: no seeking back at the end to fill in duration and size.
    '-flvflags',
    'no_duration_filesize',
    'pipe:1',
  ];
}

/** One JPEG per keyframe of MPEG-TS from stdin, for stream previews (thumbnails). */
export function thumbnailArgs(maxWidth: number): string[] {
  return [
    ...head(),
    // Decode keyframes only: a preview every GOP costs one picture's decode, not a whole stream's.
    '-skip_frame',
    'nokey',
    '-f',
    'mpegts',
    '-i',
    'pipe:0',
    '-map',
    '0:v:0',
    '-vf',
    `scale='min(${maxWidth},iw)':-2`,
    // One output picture per decoded one, whatever the timestamps say.
    '-fps_mode',
    'passthrough',
    '-c:v',
    'mjpeg',
    '-q:v',
    '5',
    '-f',
    'image2pipe',
    'pipe:1',
  ];
}
