import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { chunks, makeClip } from '../../test/ts-fixtures.js';
import { PacketBus } from './packet-bus.js';

/** RFC 8216 numbering rules of the media playlist, as a strict player or validator checks them. */

function feed(bus: PacketBus, data: Buffer): void {
  for (const chunk of chunks(data, 1000)) bus.write(chunk);
}

/** Every playlist version the segmenter produced while `data` was fed (one per segment cut). */
function playlistsWhileFeeding(bus: PacketBus, data: Buffer): string[] {
  const versions: string[] = [];
  const off = bus.segmenter.onSegment(() => versions.push(bus.segmenter.playlist()!));
  feed(bus, data);
  off();
  return versions;
}

const targetDuration = (playlist: string) => Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(playlist)?.[1]);
const extinfs = (playlist: string) => [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));

/** AAC in one PES per frame, as a live encoder sends it (ffmpeg packs ~130 ms per PES into files). */
function liveAudioClip(seconds: number): Buffer {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`],
      ...['-c:a', 'aac', '-pes_payload_size', '0', '-f', 'mpegts', 'pipe:1'],
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
  return result.stdout;
}

describe('HLS numbering', () => {
  it('keeps EXT-X-TARGETDURATION at the configured duration and every EXTINF within it, long GOPs too', () => {
    // A keyframe every 4 s against a 2 s target.
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 10 });
    const versions = playlistsWhileFeeding(bus, makeClip({ seconds: 13, video: 'h264', gop: 100 }));
    expect(versions.length).toBeGreaterThanOrEqual(4);
    for (const playlist of versions) {
      expect(targetDuration(playlist)).toBe(2);
      for (const seconds of extinfs(playlist)) expect(Math.round(seconds)).toBeLessThanOrEqual(2);
    }
  });

  it('cuts on the keyframe nearest the target', () => {
    // Keyframes every 1.4 s: 1.4 s is nearer to 2 s than 2.8 s is (and 2.8 s rounds past the target).
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 10 });
    feed(bus, makeClip({ seconds: 8, video: 'h264', gop: 35 }));
    expect(bus.segmenter.segments.map((s) => s.durationMs)).toEqual([1400, 1400, 1400, 1400, 1400]);
    expect(targetDuration(bus.segmenter.playlist()!)).toBe(2);
  });

  it('cuts an audio-only stream at the audio frame nearest the target', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 10 });
    feed(bus, liveAudioClip(7));
    const durations = bus.segmenter.segments.map((s) => s.durationMs);
    expect(durations.length).toBe(3);
    // One AAC frame is 23.2 ms: the cut is within half a frame of 2 s.
    for (const d of durations) expect(Math.abs(d - 2000)).toBeLessThanOrEqual(12);
  });

  it('never numbers a restarted stream below what was served, with sub-second segments', () => {
    const clip = liveAudioClip(3);
    const first = new PacketBus({ targetDurationMs: 200, windowSize: 3 });
    feed(first, clip);
    const served = first.segmenter.segments.at(-1)!.sequence;
    expect(first.segmenter.segments.length).toBeGreaterThan(5);
    // The stream restarts at once (a config change, stream_restart with no source): a new bus.
    const second = new PacketBus({ targetDurationMs: 200, windowSize: 3 });
    feed(second, clip);
    expect(second.segmenter.segments[0]!.sequence).toBeGreaterThan(served);
  });

  it('lists at least three target durations of media, even when segment_count asks for fewer', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 2, keepAfterWindow: 0 });
    feed(bus, makeClip({ seconds: 11, video: 'h264', gop: 25 }));
    const playlist = bus.segmenter.playlist()!;
    // RFC 8216 §6.2.2: no segment leaves while the rest would last less than 3 × TARGETDURATION.
    const listed = extinfs(playlist);
    expect(listed.reduce((a, b) => a + b, 0) - listed[0]!).toBeLessThan(6);
    expect(listed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(6);
    // Every listed segment can still be fetched.
    const first = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);
    for (let i = 0; i < listed.length; i++) expect(bus.segmenter.get(first + i)).toBeDefined();
  });
});
