import { describe, expect, it } from 'vitest';
import { parseDashPiece, vodMpd } from './vod-dash-mpd.js';
import type { VodTrack } from './vod-source.js';

const tracks: VodTrack[] = [
  { id: 1, content: 'video', codec: 'avc1.64001f', bitrate: 2_000_000, width: 1280, height: 720, fps: 29.97 },
  {
    id: 2,
    content: 'audio',
    codec: 'mp4a.40.2',
    bitrate: 128_000,
    lang: 'eng',
    channels: 2,
    sample_rate: 48_000,
  },
  { id: 3, content: 'audio', codec: 'ac-3', bitrate: 384_000, lang: 'fra', channels: 6 },
];
const segments = [
  { startS: 0, durationS: 4 },
  { startS: 4, durationS: 4 },
  { startS: 8, durationS: 4 },
  { startS: 12, durationS: 1.5 },
];

describe('the MPD of a file', () => {
  const mpd = vodMpd(13.5, segments, tracks, '?token=a&b');

  it('is static with the duration, one AdaptationSet per track DASH carries (AC-3 left out)', () => {
    expect(mpd).toContain('type="static"');
    expect(mpd).toContain('mediaPresentationDuration="PT13.500S"');
    expect(mpd).toContain('maxSegmentDuration="PT4.000S"');
    expect(mpd.match(/<AdaptationSet /g)).toHaveLength(2);
    expect(mpd).toContain(
      'codecs="avc1.64001f" bandwidth="2000000" width="1280" height="720" frameRate="30000/1001"',
    );
    expect(mpd).toContain('lang="eng"');
    expect(mpd).not.toContain('ac-3');
  });

  it('lists the segments on 90 kHz from 10 s, equal lengths folded into @r, the last to the end', () => {
    const timeline = /<SegmentTimeline>([\s\S]*?)<\/SegmentTimeline>/.exec(mpd)![1]!.trim().split(/\n\s*/);
    expect(timeline).toEqual(['<S t="900000" d="360000" r="2"/>', '<S t="1980000" d="135000"/>']);
    expect(mpd).toContain('presentationTimeOffset="900000"');
  });

  it("names each track's pieces, with the query escaped for XML", () => {
    expect(mpd).toContain(
      'initialization="init-1.m4s?token=a&amp;b" media="seg-1-$Number$.m4s?token=a&amp;b"',
    );
    expect(parseDashPiece('init-2.m4s')).toEqual({ trackId: 2, init: true });
    expect(parseDashPiece('seg-2-17.m4s')).toEqual({ trackId: 2, init: false, index: 17 });
    expect(parseDashPiece('seg-2.m4s')).toBeUndefined();
  });
});
