import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SubtitlePackets, subtitlePmt, subtitleTs } from '../../test/subtitle-ts-fixture.js';
import { pesHeader } from '../media/ts-pes.js';
import { segmentTracks } from './teletext-tracks.js';
import { segmentVtt } from './webvtt-convert.js';

const VIDEO = 0x100;
const PTS = 1_234_567;

/** A segment's opening: PAT, a PMT with H.264 and both subtitle tracks, the first video PES. */
function segmentStart(): Buffer {
  const writer = new SubtitlePackets();
  const pat = subtitleTs(1).subarray(0, 188);
  const video = Buffer.alloc(188, 0xff);
  video.set([0x47, 0x40 | (VIDEO >> 8), VIDEO & 0xff, 0x10]);
  pesHeader(0xe0, PTS, undefined, 0).copy(video, 4);
  return Buffer.concat([pat, writer.psi(0x1000, subtitlePmt(1, VIDEO, VIDEO)), video]);
}

describe('the teletext subtitle pages of a segment', () => {
  it('reads the page, its language and the first video PTS from the tables', () => {
    expect(segmentTracks(segmentStart())).toEqual({
      tracks: [{ pid: 0x201, lang: 'deu', page: 888 }],
      videoPts: PTS,
    });
  });

  it('never throws on hostile tables (a source sends them), 10^4 cases', () => {
    const clip = segmentStart();
    const mutated = fc
      .array(fc.record({ at: fc.nat(clip.length - 1), value: fc.integer({ min: 0, max: 255 }) }), {
        minLength: 1,
        maxLength: 12,
      })
      .map((flips) => {
        const bytes = Buffer.from(clip);
        for (const { at, value } of flips) bytes[at] = value;
        return bytes;
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.uint8Array({ maxLength: 600 }).map(Buffer.from)), (bytes) => {
        const found = segmentTracks(bytes);
        for (const t of found.tracks) expect(t.lang).toMatch(/^[a-z]{3}$/);
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('a segment as WebVTT', () => {
  it('keeps the pages showing in the segment, each until the next, clipped to it, on the video clock', () => {
    const startS = PTS / 90_000;
    const cues = [
      { startS: startS - 0.5, text: 'Before' },
      { startS: startS + 0.25, text: 'During' },
      { startS: startS + 1.5, text: '' },
      { startS: startS + 3, text: 'After' },
    ];
    expect(segmentVtt(cues, PTS, 2000)).toBe(
      'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:1234567,LOCAL:00:00:00.000\n\n' +
        '00:00:00.000 --> 00:00:00.250\nBefore\n\n00:00:00.250 --> 00:00:01.500\nDuring\n\n',
    );
  });
});
