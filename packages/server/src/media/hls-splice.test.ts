import { beforeAll, describe, expect, it } from 'vitest';
import { chunks, ffprobe, makeClip } from '../../test/ts-fixtures.js';
import { PacketBus } from './packet-bus.js';
import { hasPayload, isDiscontinuity, PACKET_SIZE, pidOf } from './ts-packet.js';

/**
 * A source switch as the engine makes one (bus.discontinuity() between the old source's last bytes
 * and the new one's first), with both sources cut mid-GOP as a failover finds them.
 */

interface ProbeFrame {
  key_frame: number;
  width: number;
}

const videoFrames = (data: Buffer): ProbeFrame[] =>
  ffprobe(data, ['-show_frames', '-select_streams', 'v', '-show_entries', 'frame=key_frame,width'])
    .frames as ProbeFrame[];

/** The video packets ffprobe reads, decodable or not; `flags` starts with K on a keyframe. */
const videoPackets = (data: Buffer): { flags: string }[] =>
  ffprobe(data, ['-show_packets', '-select_streams', 'v', '-show_entries', 'packet=flags']).packets as {
    flags: string;
  }[];

/** `data` from (or up to) about `fraction` of its length, on a packet boundary. */
const at = (data: Buffer, fraction: number) =>
  Math.floor((data.length * fraction) / PACKET_SIZE) * PACKET_SIZE;

function feed(bus: PacketBus, data: Buffer): void {
  for (const chunk of chunks(data, 1000)) bus.write(chunk);
}

describe('a source switch in the HLS segmenter and the packet bus', () => {
  // Old source 320x240, new source 160x120: which frames landed where is told by their size.
  let oldClip: Buffer;
  let newClip: Buffer;
  beforeAll(() => {
    oldClip = makeClip({ seconds: 4, video: 'h264', audio: 'aac', gop: 25 });
    newClip = makeClip({ seconds: 5, video: 'h264', audio: 'aac', gop: 25, width: 160, height: 120 });
  });

  /** Old source up to ~3.3 s (mid-GOP), switch, new source from ~1.5 s (mid-GOP) to its end. */
  function splice(subscriber?: (data: Buffer) => void) {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 10 });
    feed(bus, oldClip.subarray(0, at(oldClip, 0.82)));
    const before = bus.segmenter.segments.length;
    bus.discontinuity();
    const off = subscriber ? bus.subscribe(subscriber) : undefined;
    feed(bus, newClip.subarray(at(newClip, 0.3)));
    off?.();
    return { bus, before };
  }

  it('closes the open segment at the last frame of the old source, with its real duration', () => {
    const { bus, before } = splice();
    const segments = bus.segmenter.segments;
    // The switch itself closes the segment the old source was filling: nothing of the new one in it.
    const last = segments[before]!;
    expect(last.discontinuity).toBe(false);
    const frames = videoFrames(last.data);
    expect(frames.every((f) => f.width === 320)).toBe(true);
    expect(last.durationMs).toBe(videoPackets(last.data).length * 40);
  });

  it('starts the new source at its first keyframe, marked as a discontinuity on that segment', () => {
    const { bus, before } = splice();
    const segments = bus.segmenter.segments;
    const first = segments[before + 1]!;
    expect(first.discontinuity).toBe(true);
    expect(videoPackets(first.data)[0]!.flags).toMatch(/^K/);
    const frames = videoFrames(first.data);
    expect(frames[0]).toEqual({ key_frame: 1, width: 160 });
    expect(frames.every((f) => f.width === 160)).toBe(true);
    expect(segments.slice(before + 2).every((s) => !s.discontinuity)).toBe(true);
    expect(bus.segmenter.playlist()).not.toContain('#EXTINF:0.000');
    for (const s of segments) expect(s.durationMs).toBeGreaterThan(0);
  });

  it("ends the new source's first segment at its second keyframe, then cuts at the target again", () => {
    const { bus, before } = splice();
    // Players near the live edge ran dry during the outage: one GOP (1 s here) reaches them sooner
    // than a whole target duration would.
    const durations = bus.segmenter.segments.slice(before + 1).map((s) => s.durationMs);
    expect(durations[0]).toBe(1000);
    expect(durations.slice(1, -1).every((ms) => ms === 2000)).toBe(true);
  });

  it('gives subscribers the new source from its first keyframe, each PID flagged discontinuous', () => {
    const received: Buffer[] = [];
    splice((data) => received.push(Buffer.from(data)));
    const out = Buffer.concat(received);
    expect(out.length % PACKET_SIZE).toBe(0);
    expect(videoPackets(out)[0]!.flags).toMatch(/^K/);
    expect(videoFrames(out)[0]).toEqual({ key_frame: 1, width: 160 });
    // The first packet of every PID after the switch carries the adaptation field's
    // discontinuity_indicator, so a TS client takes the counter and clock jump as intended.
    const firstOfPid = new Map<number, number>();
    for (let o = 0; o < out.length; o += PACKET_SIZE) {
      const pid = pidOf(out, o);
      if (!firstOfPid.has(pid)) firstOfPid.set(pid, o);
    }
    expect(firstOfPid.size).toBeGreaterThanOrEqual(4);
    for (const [pid, o] of firstOfPid)
      expect({ pid, flagged: isDiscontinuity(out, o) }).toEqual({ pid, flagged: true });
    // …and nothing is flagged after that first packet of each PID.
    let flagged = 0;
    for (let o = 0; o < out.length; o += PACKET_SIZE)
      if (isDiscontinuity(out, o) && hasPayload(out, o)) flagged++;
    expect(flagged).toBeLessThanOrEqual(firstOfPid.size);
  });

  it('makes no empty segment when the switch comes right after a cut', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 10 });
    // The old source stops just past its 2 s keyframe: the open segment holds one frame at most.
    feed(bus, oldClip.subarray(0, at(oldClip, 0.5)));
    bus.discontinuity();
    feed(bus, newClip.subarray(at(newClip, 0.3)));
    bus.discontinuity();
    feed(bus, oldClip.subarray(at(oldClip, 0.1)));
    expect(bus.segmenter.playlist()).not.toContain('#EXTINF:0.000');
    for (const s of bus.segmenter.segments) expect(s.durationMs).toBeGreaterThan(0);
    expect(bus.segmenter.segments.filter((s) => s.discontinuity).length).toBe(2);
  });

  it("keeps each segment's audio with its video, and ends the old source's audio and video together", () => {
    const { bus, before } = splice();
    const segments = bus.segmenter.segments;
    // The audio of a segment's last ~0.3 s comes after the next keyframe in the stream; it stays in
    // the segment it plays in. At the switch, the video stops where the audio does: players whose
    // buffer is the overlap of both (hls.js) see no hole at the discontinuity.
    for (const segment of segments.slice(0, before + 1)) {
      const { audio, video } = spans(segment.data);
      expect(audio.start).toBeGreaterThanOrEqual(video.start - 0.03);
      expect(audio.end).toBeGreaterThanOrEqual(video.end - 0.03);
    }
    const { audio, video } = spans(segments[before]!.data);
    expect(Math.abs(audio.end - video.end)).toBeLessThanOrEqual(0.15);
  });
});

/** First and last presentation times (s) of a segment's audio and video packets. */
function spans(data: Buffer): Record<'audio' | 'video', { start: number; end: number }> {
  const { packets } = ffprobe(data, [
    '-show_packets',
    '-show_entries',
    'packet=codec_type,pts_time,duration_time',
  ]) as { packets: { codec_type: 'audio' | 'video'; pts_time: string; duration_time: string }[] };
  const span = (type: string) => {
    const mine = packets.filter((p) => p.codec_type === type);
    const start = Math.min(...mine.map((p) => Number(p.pts_time)));
    const end = Math.max(...mine.map((p) => Number(p.pts_time) + Number(p.duration_time)));
    return { start, end };
  };
  return { audio: span('audio'), video: span('video') };
}
