import { spawnSync } from 'node:child_process';
import { waitFor } from './harness.js';
import { getBytes, getText, mediaSequence, segmentUris } from './media-helpers.js';

/** A still picture made by ffmpeg (lavfi `color`), as PNG bytes. */
export function makePng(color: string, width: number, height: number): Buffer {
  const result = spawnSync(
    'ffmpeg',
    [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        `color=c=${color}:size=${width}x${height}`,
      ],
      ...['-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
  return result.stdout;
}

/**
 * `count` consecutive segments of a variant playlist, cut after the first `skip` (rate control
 * settling after the start), concatenated.
 */
export async function variantSegments(playlistUrl: string, count: number, skip: number): Promise<Buffer> {
  const first = mediaSequence((await getText(playlistUrl)).text);
  const text = await waitFor(
    async () => {
      const { text } = await getText(playlistUrl);
      const uris = segmentUris(text);
      return mediaSequence(text) + uris.length - 1 >= first + skip + count ? text : undefined;
    },
    120_000,
    500,
  );
  const base = playlistUrl.slice(0, playlistUrl.lastIndexOf('/') + 1);
  const uris = segmentUris(text).slice(-count);
  return Buffer.concat(await Promise.all(uris.map((u) => getBytes(`${base}${u}`))));
}

/** Video bits per second of MPEG-TS bytes: the video packets' sizes over their time span. */
export function videoBitsPerSecond(ts: Buffer): number {
  const result = spawnSync(
    'ffprobe',
    [
      ...['-hide_banner', '-loglevel', 'error', '-select_streams', 'v:0'],
      ...['-show_entries', 'packet=size,dts_time', '-of', 'json', '-i', 'pipe:0'],
    ],
    { input: ts, maxBuffer: 64 * 1024 * 1024 },
  );
  const packets = (
    JSON.parse(result.stdout.toString()) as { packets: { size: string; dts_time?: string }[] }
  ).packets
    .filter((p) => p.dts_time !== undefined && p.dts_time !== 'N/A')
    .map((p) => [Number(p.dts_time), Number(p.size)] as [number, number]);
  const bytes = packets.reduce((sum, [, size]) => sum + size, 0);
  const times = packets.map(([dts]) => dts);
  // Each packet lasts one frame: the span is last − first plus one frame.
  const frame = (times[times.length - 1]! - times[0]!) / (times.length - 1);
  return (bytes * 8) / (times[times.length - 1]! - times[0]! + frame);
}

/** One decoded frame of MPEG-TS bytes as RGB, and its pixel reader. */
export function firstFrameRgb(ts: Buffer, width: number, height: number) {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'mpegts', '-i', 'pipe:0', '-map', '0:v:0'],
      ...['-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { input: ts, maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.stdout.length < width * height * 3)
    throw new Error(`no frame decoded: ${result.stderr.toString()}`);
  return (x: number, y: number): [number, number, number] => {
    const o = (y * width + x) * 3;
    return [result.stdout[o]!, result.stdout[o + 1]!, result.stdout[o + 2]!];
  };
}
