import { spawnSync } from 'node:child_process';

/** Short MPEG-TS clips made by the real ffmpeg, for media unit tests. Generated, never checked in. */
export interface ClipOptions {
  seconds: number;
  video?: 'h264' | 'hevc' | 'mpeg2' | undefined;
  audio?: 'aac' | 'mp2' | 'mp3' | 'ac3' | undefined;
  width?: number;
  height?: number;
  fps?: number;
  /** Frames between keyframes. */
  gop?: number;
  sampleRate?: number;
  lang?: string;
}

const videoCodec = {
  h264: ['libx264', '-preset', 'ultrafast'],
  hevc: ['libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none'],
  mpeg2: ['mpeg2video'],
};
const audioCodec = { aac: ['aac'], mp2: ['mp2'], mp3: ['libmp3lame'], ac3: ['ac3'] };

export function makeClip(o: ClipOptions): Buffer {
  const { width = 320, height = 240, fps = 25, gop = fps, sampleRate = 44100 } = o;
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
  if (o.video)
    args.push('-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}:duration=${o.seconds}`);
  if (o.audio)
    args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${sampleRate}:duration=${o.seconds}`);
  if (o.video) {
    args.push(
      '-c:v',
      ...videoCodec[o.video],
      '-pix_fmt',
      'yuv420p',
      '-g',
      String(gop),
      '-keyint_min',
      String(gop),
      '-sc_threshold',
      '0',
    );
    if (o.video === 'hevc')
      args.push('-x265-params', `keyint=${gop}:min-keyint=${gop}:scenecut=0:log-level=none`);
  }
  if (o.audio) args.push('-c:a', ...audioCodec[o.audio], '-ac', '2');
  if (o.lang) args.push('-metadata:s:a:0', `language=${o.lang}`);
  args.push('-f', 'mpegts', 'pipe:1');
  const result = spawnSync('ffmpeg', args, { maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
  return result.stdout;
}

/** Cuts `data` into chunks of `size` bytes (not a multiple of 188, to exercise re-alignment). */
export function chunks(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

/** Runs ffprobe on `data` and returns its JSON answer. */
export function ffprobe(data: Buffer, extra: string[]): Record<string, unknown> {
  const result = spawnSync(
    'ffprobe',
    ['-hide_banner', '-loglevel', 'error', '-of', 'json', ...extra, '-i', 'pipe:0'],
    {
      input: data,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`ffprobe failed: ${result.stderr.toString()}`);
  return JSON.parse(result.stdout.toString()) as Record<string, unknown>;
}

/** A short FLV (what an RTMP publisher sends) made by ffmpeg: H.264 with AAC, or with MP3. */
export function makeFlv(seconds: number, audio: 'aac' | 'mp3' = 'aac'): Buffer {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-bf', '2'],
      ...['-c:a', audio === 'aac' ? 'aac' : 'libmp3lame', '-ac', '2', '-f', 'flv', 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
  return result.stdout;
}
