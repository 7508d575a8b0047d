import { beforeAll, describe, expect, it } from 'vitest';
import { chunks, ffprobe, makeClip } from '../../test/ts-fixtures.js';
import { PacketBus } from './packet-bus.js';
import { pidOf } from './ts-packet.js';

interface ProbeFrame {
  media_type: string;
  key_frame: number;
}

function feed(bus: PacketBus, data: Buffer, size = 1000): void {
  for (const chunk of chunks(data, size)) bus.write(chunk);
}

const firstVideoFrame = (segment: Buffer) =>
  (
    ffprobe(segment, ['-show_frames', '-select_streams', 'v', '-read_intervals', '%+#1'])
      .frames as ProbeFrame[]
  )[0]!;

describe('HlsSegmenter', () => {
  let clip: Buffer;
  beforeAll(() => {
    // 7 s with a keyframe every second: with a 2 s target, cuts at 2, 4 and 6 s.
    clip = makeClip({ seconds: 7, video: 'h264', audio: 'aac', fps: 25, gop: 25 });
  });

  it('cuts ~2 s segments at keyframes, each starting with the tables and a keyframe', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 5 });
    feed(bus, clip);
    const segments = bus.segmenter.segments;
    expect(segments.map((s) => s.durationMs)).toEqual([2000, 2000, 2000]);
    for (const segment of segments) {
      expect(pidOf(segment.data, 0)).toBe(0);
      expect(segment.data.length % 188).toBe(0);
      expect(firstVideoFrame(segment.data)).toMatchObject({ media_type: 'video', key_frame: 1 });
    }
    // Nothing lost or repeated: the segments hold the clip's first 6 s of video packets.
    const total = segments.reduce((n, s) => n + s.data.length, 0);
    expect(total).toBeLessThan(clip.length);
  });

  it('rolls the playlist window and keeps the media sequence counting', () => {
    // 1 s segments: segment_count 2 would list 2 s, under three target durations (RFC 8216 §6.2.2),
    // so three are listed.
    const bus = new PacketBus({ targetDurationMs: 1000, windowSize: 2, keepAfterWindow: 0 });
    feed(bus, clip);
    // Six segments were cut; the window and memory hold the newest three.
    const first = bus.segmenter.segments[0]!.sequence;
    expect(bus.segmenter.segments.map((s) => s.sequence)).toEqual([first, first + 1, first + 2]);
    expect(bus.segmenter.playlist()).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:1',
        `#EXT-X-MEDIA-SEQUENCE:${first}`,
        '#EXTINF:1.000,',
        `seg-${first}.ts`,
        '#EXTINF:1.000,',
        `seg-${first + 1}.ts`,
        '#EXTINF:1.000,',
        `seg-${first + 2}.ts`,
        '',
      ].join('\n'),
    );
    expect(bus.segmenter.playlist('?token=t1')).toContain(`seg-${first + 2}.ts?token=t1\n`);
    expect(bus.segmenter.get(first + 1)).toBe(bus.segmenter.segments[1]);
    expect(bus.segmenter.get(first - 1)).toBeUndefined();
  });

  it('marks the first segment after a source change as a discontinuity', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 6 });
    const short = makeClip({ seconds: 3, video: 'h264', audio: 'aac', gop: 25 });
    feed(bus, short);
    bus.discontinuity();
    feed(bus, short);
    feed(bus, short);
    // Told once (the switch), and found once (the timestamps ran backwards on the third clip).
    expect(bus.segmenter.segments.map((s) => s.discontinuity)).toEqual([false, false, true, false, true]);
    expect(bus.segmenter.playlist()).toContain('#EXT-X-DISCONTINUITY\n#EXTINF:');
    expect(bus.segmenter.segments.every((s) => s.durationMs > 0 && s.durationMs <= 3000)).toBe(true);
  });

  it('cuts an audio-only stream on audio frames', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 6 });
    feed(bus, makeClip({ seconds: 5, audio: 'aac' }));
    const durations = bus.segmenter.segments.map((s) => s.durationMs);
    expect(durations.length).toBe(2);
    for (const d of durations) expect(Math.abs(d - 2000)).toBeLessThan(100);
  });

  it('gives a new continuous-TS client the tables and the open segment from its keyframe', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 6 });
    feed(bus, clip);
    const start = Buffer.concat(bus.segmenter.liveStart());
    expect(pidOf(start, 0)).toBe(0);
    expect(firstVideoFrame(start)).toMatchObject({ media_type: 'video', key_frame: 1 });
  });
});
