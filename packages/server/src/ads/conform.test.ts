import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdConformer, type AdTarget } from './conform.js';

const run = promisify(execFile);
let base: string;
let source: string;
let silent: string;

/** What ffprobe sees in a file: its streams and its video packets (size, keyframe flag). */
async function probe(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_streams',
    '-show_packets',
    '-show_format',
    '-of',
    'json',
    path,
  ]);
  const json = JSON.parse(stdout) as {
    streams: {
      index: number;
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      sample_rate?: string;
      channels?: number;
      r_frame_rate?: string;
    }[];
    packets: { stream_index: number; size: string; flags: string }[];
    format: { format_name: string };
  };
  const video = json.streams.find((s) => s.codec_type === 'video');
  const audio = json.streams.find((s) => s.codec_type === 'audio');
  const videoPackets = json.packets.filter((p) => p.stream_index === video?.index);
  return { format: json.format.format_name, video, audio, videoPackets };
}

const SOURCE: AdTarget = {
  video: { codec: 'h264', width: 640, height: 360, fps: 25 },
  audio: { codec: 'aac', sampleRate: 48000, channels: 2 },
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sluice-conform-'));
  source = join(base, 'spot.mp4');
  silent = join(base, 'silent.mp4');
  // 2 s of 640x360 at 25 fps with 48 kHz stereo AAC, a keyframe each second.
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25:duration=2',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=2',
    '-ac',
    '2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '25',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    source,
  ]);
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25:duration=1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    silent,
  ]);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('AdConformer with real ffmpeg', () => {
  it("re-encodes a 640x360 ad to the stream's 320x240, 30 fps, 44.1 kHz mono: MPEG-TS, keyframe first", async () => {
    const conformer = new AdConformer(join(base, 'cache-a'));
    const target: AdTarget = {
      video: { codec: 'h264', width: 320, height: 240, fps: 30 },
      audio: { codec: 'aac', sampleRate: 44100, channels: 1 },
    };
    const out = await conformer.conform(source, target);
    const seen = await probe(out);
    expect(seen.format).toBe('mpegts');
    expect(seen.video).toMatchObject({ codec_name: 'h264', width: 320, height: 240, r_frame_rate: '30/1' });
    expect(seen.audio).toMatchObject({ codec_name: 'aac', sample_rate: '44100', channels: 1 });
    expect(seen.videoPackets[0]?.flags).toContain('K');
    expect(conformer.runs).toBe(1);
  });

  it('remuxes an ad that already matches (its video packets unchanged), once: a second call and concurrent calls reuse it', async () => {
    const conformer = new AdConformer(join(base, 'cache-b'));
    const [first, concurrent] = await Promise.all([
      conformer.conform(source, SOURCE),
      conformer.conform(source, SOURCE),
    ]);
    expect(concurrent).toBe(first);
    expect(conformer.runs).toBe(1);
    const [inFile, outFile] = await Promise.all([probe(source), probe(first)]);
    expect(outFile.format).toBe('mpegts');
    expect(outFile.videoPackets.length).toBe(inFile.videoPackets.length);
    // Copied, not re-encoded: every frame keeps its size (an encoder would never hit them all).
    const sizes = (p: typeof inFile) => p.videoPackets.map((k) => Number(k.size));
    const delta = sizes(outFile).map((size, i) => size - (sizes(inFile)[i] ?? 0));
    // Annex B start codes and the parameter sets before each keyframe add a few bytes, nothing else.
    expect(delta.every((d) => d >= 0 && d < 64)).toBe(true);
    expect(outFile.videoPackets[0]?.flags).toContain('K');

    // A cache hit: a second call (even from a new conformer, as after a restart) starts no ffmpeg.
    expect(await conformer.conform(source, SOURCE)).toBe(first);
    const restarted = new AdConformer(join(base, 'cache-b'));
    expect(await restarted.conform(source, SOURCE)).toBe(first);
    expect(conformer.runs + restarted.runs).toBe(1);
    // No temp file is left beside it.
    expect((await readdir(join(base, 'cache-b'))).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it("gives an ad without audio the stream's audio track, as silence", async () => {
    const conformer = new AdConformer(join(base, 'cache-c'));
    const seen = await probe(await conformer.conform(silent, SOURCE));
    expect(seen.audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    expect(seen.video).toMatchObject({ width: 640, height: 360 });
  });

  it("rejects a broken file with a reason and leaves nothing in the cache; a crash's temp files and old copies go", async () => {
    const broken = join(base, 'broken.mp4');
    await writeFile(broken, Buffer.alloc(4096, 7));
    const cache = join(base, 'cache-d');
    await mkdir(cache);
    // What an earlier run left: a half-written temp file, a copy unused for 40 days, a recent one.
    await writeFile(join(cache, '.tmp-half.ts'), 'half');
    await writeFile(join(cache, 'old.ts'), 'old');
    const longAgo = new Date(Date.now() - 40 * 24 * 3600_000);
    await utimes(join(cache, 'old.ts'), longAgo, longAgo);
    await writeFile(join(cache, 'recent.ts'), 'recent');
    const conformer = new AdConformer(cache);
    await expect(conformer.conform(broken, SOURCE)).rejects.toThrow(/broken\.mp4/);
    await expect(conformer.conform(join(base, 'gone.mp4'), SOURCE)).rejects.toThrow(/can't be read/);
    expect(await readdir(cache)).toEqual(['recent.ts']);
  });

  it('close() ends a running ffmpeg (the call rejects, nothing is cached) and refuses new calls', async () => {
    const long = join(base, 'long.mp4');
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25:duration=30'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', long],
    ]);
    const cache = join(base, 'cache-e');
    const conformer = new AdConformer(cache);
    // 30 s up to 1080p HEVC: far longer than it takes to stop it.
    const big: AdTarget = { video: { codec: 'hevc', width: 1920, height: 1080, fps: 25 } };
    const call = conformer.conform(long, big);
    const settled = call.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await vi.waitFor(() => expect(conformer.runs).toBe(1), { timeout: 30_000, interval: 50 });
    conformer.close();
    expect(await settled).toMatch(/the server is stopping/);
    await expect(conformer.conform(source, SOURCE)).rejects.toThrow(/the server is stopping/);
    expect((await readdir(cache)).filter((n) => n.endsWith('.ts'))).toEqual([]);
  });
});
