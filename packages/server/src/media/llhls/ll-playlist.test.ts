import { describe, expect, it } from 'vitest';
import { type LlSegment, llMediaPlaylist } from './ll-playlist.js';

const clock = { wallAt0: Date.UTC(2026, 0, 1) };
const part = (number: number, ms: number, independent = false) => ({
  number,
  duration90k: ms * 90,
  independent,
  fragment: Buffer.alloc(0),
});
const segment = (
  msn: number,
  parts: ReturnType<typeof part>[],
  extra: Partial<LlSegment> = {},
): LlSegment => ({
  msn,
  parts,
  complete: true,
  initId: 'aaaaaaaa',
  discontinuity: false,
  start90k: (msn - 10) * 180_000,
  clock,
  ...extra,
});

describe('LL-HLS media playlist', () => {
  it('lists whole segments, parts of the newest, the open one, a preload hint; token on every URI', () => {
    const text = llMediaPlaylist({
      targetDurationS: 2,
      partTargetS: 0.5,
      segments: [
        segment(10, [part(100, 1000, true), part(101, 1000)]),
        segment(11, [part(102, 480, true), part(103, 480), part(104, 480), part(105, 480), part(106, 80)], {
          discontinuity: true,
          initId: 'bbbbbbbb',
        }),
        segment(12, [part(107, 480, true)], { complete: false, initId: 'bbbbbbbb' }),
      ],
      partsFromMsn: 11,
      discontinuitySequence: 3,
      nextPart: 108,
      query: '?token=t',
    });
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:9',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-PART-INF:PART-TARGET=0.500',
        '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.0,PART-HOLD-BACK=1.500',
        '#EXT-X-MEDIA-SEQUENCE:10',
        '#EXT-X-DISCONTINUITY-SEQUENCE:3',
        '#EXT-X-MAP:URI="ll-init-aaaaaaaa.mp4?token=t"',
        '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z',
        '#EXTINF:2.00000,',
        'll-10.m4s?token=t',
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-MAP:URI="ll-init-bbbbbbbb.mp4?token=t"',
        '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:02.000Z',
        '#EXT-X-PART:DURATION=0.48000,URI="ll-part-102.m4s?token=t",INDEPENDENT=YES',
        '#EXT-X-PART:DURATION=0.48000,URI="ll-part-103.m4s?token=t"',
        '#EXT-X-PART:DURATION=0.48000,URI="ll-part-104.m4s?token=t"',
        '#EXT-X-PART:DURATION=0.48000,URI="ll-part-105.m4s?token=t"',
        '#EXT-X-PART:DURATION=0.08000,URI="ll-part-106.m4s?token=t"',
        '#EXTINF:2.00000,',
        'll-11.m4s?token=t',
        '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:04.000Z',
        '#EXT-X-PART:DURATION=0.48000,URI="ll-part-107.m4s?token=t",INDEPENDENT=YES',
        '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="ll-part-108.m4s?token=t"',
        '',
      ].join('\n'),
    );
  });

  it('answers _HLS_skip with a delta update: whole segments past CAN-SKIP-UNTIL (6 targets) as one EXT-X-SKIP', () => {
    // Ten whole 2 s segments (msn 10-19), parts for the last two, an open one: 21 s listed.
    const segments = Array.from({ length: 10 }, (_, i) =>
      segment(10 + i, [part(100 + 2 * i, 1000, true), part(101 + 2 * i, 1000)], { discontinuity: i === 1 }),
    );
    segments.push(segment(20, [part(120, 1000, true)], { complete: false }));
    const input = {
      targetDurationS: 2,
      partTargetS: 0.5,
      segments,
      partsFromMsn: 18,
      discontinuitySequence: 0,
      nextPart: 121,
      query: '',
    };
    const full = llMediaPlaylist(input);
    const delta = llMediaPlaylist({ ...input, skip: true });
    expect(full).not.toContain('#EXT-X-SKIP');
    // The boundary is 21 - 12 = 9 s: the segments ending by then (10-13, 8 s) are skipped; 14 ends at 10 s.
    expect(delta).toContain(
      '#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-SKIP:SKIPPED-SEGMENTS=4\n#EXT-X-MAP:URI="ll-init-aaaaaaaa.mp4"',
    );
    expect(delta).not.toMatch(/ll-1[0-3]\.m4s|#EXT-X-DISCONTINUITY\n/);
    // After the skip it is the full playlist's tail, line for line.
    const tail = (text: string) =>
      text.slice(text.indexOf('#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:08.000Z'));
    expect(tail(delta)).toBe(tail(full));
    // Nothing to skip in a short playlist: the full one, no EXT-X-SKIP.
    expect(llMediaPlaylist({ ...input, segments: segments.slice(-4), skip: true })).not.toContain(
      '#EXT-X-SKIP',
    );
  });
});
