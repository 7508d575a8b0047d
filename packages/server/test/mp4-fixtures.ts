import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VodSource } from '../src/vod/vod-source.js';

/** Short MP4 files made by the real ffmpeg for the MP4 reader's tests (never checked in). */
export interface Mp4FileOptions {
  seconds: number;
  video?: 'h264' | 'hevc';
  /** Audio tracks: each a sine at its own rate, with an optional language. */
  audio?: { sampleRate: number; lang?: string }[];
  /** Frames between keyframes (25 fps). */
  gop?: number;
  bFrames?: number;
  faststart?: boolean;
  /** Audio starting this late (an initial empty edit in the audio track's edit list). */
  audioDelayS?: number;
  format?: 'mp4' | 'mov';
}

export function makeMp4(dir: string, name: string, o: Mp4FileOptions): string {
  const path = join(dir, name);
  const gop = o.gop ?? 25;
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
  if (o.video) args.push('-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${o.seconds}`);
  for (const [i, a] of (o.audio ?? []).entries()) {
    if (o.audioDelayS) args.push('-itsoffset', String(o.audioDelayS));
    args.push(
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${440 * (i + 1)}:sample_rate=${a.sampleRate}:duration=${o.seconds}`,
    );
  }
  const inputs = (o.video ? 1 : 0) + (o.audio?.length ?? 0);
  for (let i = 0; i < inputs; i++) args.push('-map', String(i));
  if (o.video === 'h264') {
    args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-bf', String(o.bFrames ?? 0));
    args.push('-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0');
  } else if (o.video === 'hevc') {
    const bf = o.bFrames ?? 0;
    args.push('-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hvc1');
    args.push('-x265-params', `keyint=${gop}:min-keyint=${gop}:scenecut=0:bframes=${bf}:log-level=none`);
  }
  if (o.video) args.push('-pix_fmt', 'yuv420p');
  if (o.audio) args.push('-c:a', 'aac', '-b:a', '64k');
  for (const [i, a] of (o.audio ?? []).entries())
    if (a.lang) args.push(`-metadata:s:a:${i}`, `language=${a.lang}`);
  if (o.faststart) args.push('-movflags', '+faststart');
  args.push('-f', o.format ?? 'mp4', path);
  run('ffmpeg', args);
  return path;
}

export function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr.toString()}`);
  return result.stdout.toString() + result.stderr.toString();
}

/** ffprobe's JSON answer about a file. */
export function probe(path: string, args: string[]): Record<string, Record<string, string>[]> {
  return JSON.parse(run('ffprobe', ['-v', 'error', '-of', 'json', ...args, path])) as Record<
    string,
    Record<string, string>[]
  >;
}

/** Presentation times of the video keyframes, as ffprobe decodes them. */
export function keyframeTimes(path: string): number[] {
  const frames = probe(path, [
    '-select_streams',
    'v:0',
    '-skip_frame',
    'nokey',
    '-show_entries',
    'frame=pts_time',
  ]);
  return (frames.frames ?? []).map((f) => Number(f.pts_time));
}

/** Each stream's start time, seconds (edit lists applied, as a player sees them). */
export function startTimes(path: string): number[] {
  return (probe(path, ['-show_entries', 'stream=start_time']).streams ?? []).map((s) => Number(s.start_time));
}

/** The codec names of a file's streams. */
export function streamCodecs(path: string): string[] {
  const streams = probe(path, ['-show_entries', 'stream=codec_name,sample_rate']).streams ?? [];
  return streams.map((s) => (s.sample_rate ? `${s.codec_name},${s.sample_rate}` : s.codec_name!));
}

export function probeDurationS(path: string): number {
  return Number(
    run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).trim(),
  );
}

/** Every segment of the source, concatenated as one MPEG-TS file (what a player plays in order). */
export async function writeAllSegments(source: VodSource, path: string, trackIds?: number[]): Promise<void> {
  const parts: Buffer[] = [];
  for (let i = 0; i < source.segments.length; i++) parts.push(await source.tsSegment(i, trackIds));
  writeFileSync(path, Buffer.concat(parts));
}

/** Timestamps and flags of one stream's packets in a file, seconds, in file order. */
export function packets(path: string, stream: 'v:0' | 'a:0'): { ptsS: number; key: boolean }[] {
  const found =
    probe(path, ['-select_streams', stream, '-show_entries', 'packet=pts_time,flags']).packets ?? [];
  return found.map((p) => ({ ptsS: Number(p.pts_time), key: (p.flags ?? '').includes('K') }));
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

/**
 * The same MP4 (moov at the end) with 64-bit boxes, as a file past 4 GB has them: the 'mdat' takes a
 * 64-bit size over the 8-byte 'free' box ffmpeg leaves before it (the media stays where it is),
 * the 'moov' too, and every 'stco' becomes a 'co64'.
 */
export function widenTo64Bit(file: Buffer): Buffer {
  const mdat = file.indexOf('mdat', 0, 'latin1') - 4;
  const free = mdat - 8;
  if (file.toString('latin1', free + 4, free + 8) !== 'free') throw new Error('no free box before mdat');
  const mdatSize = file.readUInt32BE(mdat);
  const head = Buffer.from(file.subarray(0, mdat + mdatSize));
  head.writeUInt32BE(1, free);
  head.write('mdat', free + 4, 'latin1');
  head.writeBigUInt64BE(BigInt(mdatSize + 8), free + 8);
  const moov = rewriteBox(file.subarray(mdat + mdatSize));
  const moovHead = Buffer.alloc(16);
  moovHead.writeUInt32BE(1, 0);
  moovHead.write('moov', 4, 'latin1');
  moovHead.writeBigUInt64BE(BigInt(moov.length + 8), 8);
  return Buffer.concat([head, moovHead, moov.subarray(8)]);
}

function rewriteBox(box: Buffer): Buffer {
  const type = box.toString('latin1', 4, 8);
  if (type === 'stco') {
    const count = box.readUInt32BE(12);
    const co64 = Buffer.alloc(16 + 8 * count);
    co64.writeUInt32BE(co64.length, 0);
    co64.write('co64', 4, 'latin1');
    co64.writeUInt32BE(count, 12);
    for (let i = 0; i < count; i++) co64.writeBigUInt64BE(BigInt(box.readUInt32BE(16 + 4 * i)), 16 + 8 * i);
    return co64;
  }
  if (!CONTAINERS.has(type)) return box.subarray(0, box.readUInt32BE(0));
  const children: Buffer[] = [];
  for (let at = 8; at < box.readUInt32BE(0); at += box.readUInt32BE(at)) {
    children.push(rewriteBox(box.subarray(at)));
  }
  const head = Buffer.from(box.subarray(0, 8));
  head.writeUInt32BE(8 + children.reduce((n, c) => n + c.length, 0), 0);
  return Buffer.concat([head, ...children]);
}
