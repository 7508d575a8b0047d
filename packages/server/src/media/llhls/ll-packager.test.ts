import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../../test/ts-fixtures.js';
import { LlPackager } from './ll-packager.js';

/** Feeds a TS clip as a bus would: aligned chunks of 7 packets. */
function feed(packager: LlPackager, ts: Buffer): void {
  for (let o = 0; o < ts.length; o += 188 * 7)
    packager.push(ts.subarray(o, Math.min(ts.length, o + 188 * 7)));
}

const partsListed = (text: string) => text.split('\n').filter((l) => l.startsWith('#EXT-X-PART:'));

/**
 * The packager on real ffmpeg output: 4 s at 25 fps with a keyframe every second, 1 s segments:
 * parts of at most 0.5 s, whole segments being their parts, H.264 and HEVC; damaged input never throws.
 */
describe('LL-HLS packager', () => {
  let h264: Buffer;
  let hevc: Buffer;
  beforeAll(() => {
    h264 = makeClip({ seconds: 4, video: 'h264', audio: 'aac', width: 160, height: 96, gop: 25 });
    hevc = makeClip({ seconds: 2, video: 'hevc', audio: 'aac', width: 160, height: 96, gop: 25 });
  });

  it('cuts H.264 into 0.48 s parts, 1 s segments, one init, each part a CMAF chunk', () => {
    const packager = new LlPackager({ segmentMs: 1000, windowSize: 4, now: () => 1_000 });
    let updates = 0;
    packager.onUpdate(() => updates++);
    feed(packager, h264);
    const text = packager.playlist()!;
    // Three whole segments (the fourth waits for the frame after its last); two parts each.
    expect(text.match(/^#EXTINF:1\.00000,$/gm)).toHaveLength(3);
    const parts = partsListed(text);
    expect(parts.every((l) => /DURATION=0\.(48|04)000/.test(l))).toBe(true);
    expect(packager.current?.codecs[0]).toMatch(/^avc1\./);
    expect(packager.current?.codecs[1]).toBe('mp4a.40.2');
    expect(packager.current?.resolution).toEqual({ width: 160, height: 96 });
    const position = packager.position!;
    expect(position.complete).toBe(false);
    expect(updates).toBeGreaterThan(parts.length);
    // A whole segment is its parts back to back, one styp at its head.
    const first = Number(/^#EXT-X-MEDIA-SEQUENCE:(\d+)$/m.exec(text)![1]);
    const segment = packager.segment(first)!;
    expect(segment.subarray(4, 8).toString()).toBe('styp');
    expect(segment.indexOf('styp', 8)).toBe(-1);
    const number = Number(/ll-part-(\d+)\.m4s/.exec(parts[0]!)![1]);
    expect(packager.part(number)!.subarray(4, 8).toString()).toBe('styp');
    expect(packager.part(packager.nextPart)).toBeUndefined();
    const init = /ll-init-([0-9a-f]{8})\.mp4/.exec(text)![1]!;
    expect(packager.init(init)!.includes(Buffer.from('avcC'))).toBe(true);
  });

  it('cuts HEVC alike, hvcC in the init', () => {
    const packager = new LlPackager({ segmentMs: 1000, windowSize: 4 });
    feed(packager, hevc);
    const text = packager.playlist()!;
    expect(partsListed(text).length).toBeGreaterThanOrEqual(3);
    expect(packager.current?.codecs[0]).toMatch(/^hvc1\./);
    const init = /ll-init-([0-9a-f]{8})\.mp4/.exec(text)![1]!;
    expect(packager.init(init)!.includes(Buffer.from('hvcC'))).toBe(true);
  });

  it('keeps only the window and a few segments after it, parts and all', () => {
    const packager = new LlPackager({ segmentMs: 1000, windowSize: 1 });
    for (let i = 0; i < 3; i++) feed(packager, h264);
    expect(packager.playlist()!.match(/^#EXTINF:/gm)!.length).toBeLessThanOrEqual(1);
    // Window 1 + 2 kept after it + the open one, at ~25 KB per 1 s segment of this clip.
    expect(packager.memoryBytes).toBeLessThan(4 * 60_000);
  });

  it('takes damaged input without throwing (300 damaged copies)', () => {
    const mutation = fc.record({
      at: fc.nat(),
      value: fc.integer({ min: 0, max: 255 }),
      cut: fc.nat({ max: 400 }),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 30 }), (mutations) => {
        let bytes = Buffer.from(h264.subarray(0, 188 * 600));
        for (const m of mutations) {
          const at = m.at % bytes.length;
          bytes[at] = m.value;
          if (m.cut > 200) bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.cut)]);
        }
        const packager = new LlPackager({ segmentMs: 1000, windowSize: 4 });
        feed(packager, bytes.subarray(0, bytes.length - (bytes.length % 188)));
        packager.playlist();
      }),
      { numRuns: 300 },
    );
  });
});
