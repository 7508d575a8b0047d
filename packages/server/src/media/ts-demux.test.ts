import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunks, ffprobe, makeClip } from '../../test/ts-fixtures.js';
import { PacketBus } from './packet-bus.js';
import { TsDemux } from './ts-demux.js';
import { PACKET_SIZE, pidOf, startsUnit } from './ts-packet.js';

interface ProbeStream {
  codec_type: string;
  width?: number;
  height?: number;
  profile?: string;
  level?: number;
  sample_rate?: string;
  channels?: number;
}

function read(data: Buffer, chunkSize = 1000) {
  const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 3 });
  let now = 1_000_000;
  for (const chunk of chunks(data, chunkSize)) bus.write(chunk, (now += 10));
  return { bus, now };
}

describe('TsDemux', () => {
  let clip: Buffer;
  beforeAll(() => {
    clip = makeClip({ seconds: 4, video: 'h264', audio: 'aac', fps: 25, gop: 25, lang: 'eng' });
  });

  it('reads H.264 and AAC tracks as ffprobe does', () => {
    const { bus, now } = read(clip);
    const probed = (ffprobe(clip, ['-show_streams']).streams as ProbeStream[]) ?? [];
    const video = probed.find((s) => s.codec_type === 'video')!;
    const audio = probed.find((s) => s.codec_type === 'audio')!;
    const tracks = bus.demux.tracks(now);
    expect(tracks).toEqual([
      expect.objectContaining({
        track_id: 'v1',
        content: 'video',
        codec: 'h264',
        width: video.width,
        height: video.height,
        profile: video.profile,
        level: (video.level! / 10).toFixed(1),
        fps: 25,
      }),
      expect.objectContaining({
        track_id: 'a1',
        content: 'audio',
        codec: 'aac',
        lang: 'eng',
        profile: 'LC',
        sample_rate: Number(audio.sample_rate),
        channels: audio.channels,
      }),
    ]);
    expect(bus.demux.mediaInfo(now)).toMatchObject({ width: 320, height: 240 });
    expect(bus.demux.codecStrings()).toEqual([expect.stringMatching(/^avc1\.[0-9a-f]{6}$/), 'mp4a.40.2']);
  });

  it('flags exactly the keyframes: one a second at a 25-frame GOP', () => {
    // A demuxer alone: no segmenter takes the frames, so all 100 stay queued.
    const demux = new TsDemux();
    demux.pushChunk(clip, 0);
    const frames = demux.frames;
    expect(frames.length).toBe(100);
    expect(frames.filter((f) => f.keyframe).length).toBe(4);
    expect(frames.findIndex((f) => f.keyframe)).toBe(0);
  });

  it('counts a lost packet as one continuity error', () => {
    const videoPid = 0x100;
    let seen = 0;
    const parts: Buffer[] = [];
    for (let o = 0; o < clip.length; o += PACKET_SIZE) {
      if (pidOf(clip, o) === videoPid && ++seen === 500) continue;
      parts.push(clip.subarray(o, o + PACKET_SIZE));
    }
    expect(read(clip).bus.demux.errors.total).toBe(0);
    expect(read(Buffer.concat(parts)).bus.demux.errors.total).toBe(1);
  });

  it('reads HEVC with MP2, and MPEG-2 video with MP3', () => {
    const hevc = new TsDemux();
    hevc.pushChunk(makeClip({ seconds: 1, video: 'hevc', audio: 'mp2', width: 352, height: 288 }), 0);
    expect(hevc.tracks(0)).toEqual([
      expect.objectContaining({ codec: 'hevc', width: 352, height: 288, profile: 'Main' }),
      expect.objectContaining({ codec: 'mp2a', sample_rate: 44100, channels: 2 }),
    ]);
    expect(hevc.frames.filter((f) => f.keyframe).length).toBe(1);
    // No codec string for HEVC here: the master playlist then leaves CODECS out rather than list MP2 alone.
    expect(hevc.codecStrings()).toEqual([]);
    const mpeg2 = read(makeClip({ seconds: 1, video: 'mpeg2', audio: 'mp3', sampleRate: 48000 }));
    expect(mpeg2.bus.demux.tracks(mpeg2.now)).toEqual([
      expect.objectContaining({ codec: 'mp2v', width: 320, height: 240 }),
      expect.objectContaining({ codec: 'mp3', sample_rate: 48000, channels: 2 }),
    ]);
  });

  it('reads AC-3 audio', () => {
    const ac3 = read(makeClip({ seconds: 1, audio: 'ac3', sampleRate: 48000 }));
    expect(ac3.bus.demux.tracks(ac3.now)).toEqual([
      expect.objectContaining({ track_id: 'a1', codec: 'ac3', sample_rate: 48000, channels: 2 }),
    ]);
  });

  it('measures the bitrate of the bytes that arrived', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 3 });
    const start = 5_000_000;
    // 4 seconds at 250,000 bytes a second: 2,000 kbit/s.
    for (let ms = 0; ms < 4000; ms += 100) bus.write(clip.subarray(0, 25_004), start + ms);
    expect((bus.input.perSecond(start + 4000) * 8) / 1000).toBeCloseTo(2000.3, 0);
  });
});

/** 6 s of x264 open GOP (a recovery-point I-frame every 2 s); `headersOnce`: SPS/PPS only before the first. */
function openGopClip(headersOnce: boolean): Buffer {
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
        'testsrc2=size=320x240:rate=25:duration=6',
      ],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-pix_fmt', 'yuv420p'],
      ...['-x264-params', 'open_gop=1:keyint=50:min-keyint=50:scenecut=0'],
      ...(headersOnce ? ['-flags', '+global_header'] : []),
      ...['-f', 'mpegts', 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
  return result.stdout;
}

describe('TsDemux on open-GOP H.264', () => {
  // Frames are in decode order: each I-frame comes before the B-frames shown ahead of it.
  it('flags the recovery-point I-frames as keyframes, one every 50 frames', () => {
    const demux = new TsDemux();
    demux.pushChunk(openGopClip(false), 0);
    const keyAt = demux.frames.flatMap((f, i) => (f.keyframe ? [i] : []));
    expect(keyAt).toEqual([0, 49, 99]);
    // The encoder repeats SPS/PPS before each: nothing to add.
    expect(demux.frames.some((f) => f.parameterSets)).toBe(false);
  });

  it('gives keyframes sent without SPS/PPS packets that make a stream cut there decodable', () => {
    const clip = openGopClip(true);
    const demux = new TsDemux();
    demux.pushChunk(clip, 0);
    const keys = demux.frames.flatMap((f, i) => (f.keyframe ? [{ i, sets: f.parameterSets }] : []));
    expect(keys.map((k) => [k.i, k.sets !== undefined])).toEqual([
      [0, false],
      [49, true],
      [99, true],
    ]);
    // Where the second keyframe's access unit starts, as a segment would.
    const videoPid = demux.primaryPid!;
    const unitStarts: number[] = [];
    for (let o = 0; o < clip.length; o += PACKET_SIZE)
      if (pidOf(clip, o) === videoPid && startsUnit(clip, o)) unitStarts.push(o);
    const from = clip.subarray(unitStarts[49]!);
    // The B-frames after an open-GOP I-frame reference the GOP before; a decoder starting at the
    // I-frame skips them, and x264's b-pyramid makes ffmpeg say so ("mmco: unref short failure").
    // That comes with open GOPs; anything else (a missing PPS) is a bad cut.
    const decode = (data: Buffer) =>
      spawnSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-f', 'null', '-'], { input: data })
        .stderr.toString()
        .split('\n')
        .filter((line) => line && !/mmco: unref short failure|Last message repeated/.test(line))
        .join('\n');
    expect(decode(Buffer.concat([demux.psiPackets, from]))).toContain('non-existing PPS');
    expect(decode(Buffer.concat([demux.psiPackets, keys[1]!.sets!, from]))).toBe('');
  });
});
