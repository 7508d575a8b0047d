import { describe, expect, it } from 'vitest';
import { longestSegmentS, parseTimelines, rewriteMpd } from './dash-mpd.js';

/** The shape ffmpeg 5.1's dash muxer writes (trimmed). */
const FFMPEG_MPD = `<?xml version="1.0" encoding="utf-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011"
\ttype="dynamic"
\tavailabilityStartTime="2026-11-24T05:51:21.619Z"
\tmaxSegmentDuration="PT2.0S"
\tsuggestedPresentationDelay="PT2S"
\tminBufferTime="PT4.0S">
\t<Period id="0" start="PT0.0S">
\t\t<AdaptationSet id="0" contentType="video" startWithSAP="1">
\t\t\t<Representation id="0" mimeType="video/mp4" codecs="avc1.4d401e" bandwidth="1662064">
\t\t\t\t<SegmentTemplate timescale="15360" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="8">
\t\t\t\t\t<SegmentTimeline>
\t\t\t\t\t\t<S t="31524" d="61440" r="1" />
\t\t\t\t\t\t<S d="30725" />
\t\t\t\t\t</SegmentTimeline>
\t\t\t\t</SegmentTemplate>
\t\t\t</Representation>
\t\t</AdaptationSet>
\t\t<AdaptationSet id="1" contentType="audio" startWithSAP="1">
\t\t\t<Representation id="1" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="71549">
\t\t\t\t<SegmentTemplate timescale="48000" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="8">
\t\t\t\t\t<SegmentTimeline>
\t\t\t\t\t\t<S t="0" d="96256" />
\t\t\t\t\t\t<S t="100000" d="95232" />
\t\t\t\t\t</SegmentTimeline>
\t\t\t\t</SegmentTemplate>
\t\t\t</Representation>
\t\t</AdaptationSet>
\t</Period>
</MPD>
`;

describe('parseTimelines', () => {
  it('expands each adaptation set timeline with numbers, repeats and explicit starts', () => {
    const [video, audio] = parseTimelines(FFMPEG_MPD);
    expect(video).toEqual({
      contentType: 'video',
      representationId: '0',
      timescale: 15360,
      segments: [
        { number: 8, t: 31524, d: 61440 },
        { number: 9, t: 92964, d: 61440 },
        { number: 10, t: 154404, d: 30725 },
      ],
    });
    expect(audio!.representationId).toBe('1');
    expect(audio!.segments).toEqual([
      { number: 8, t: 0, d: 96256 },
      { number: 9, t: 100000, d: 95232 },
    ]);
  });

  it('finds the longest segment of any set, in seconds', () => {
    expect(longestSegmentS(parseTimelines(FFMPEG_MPD))).toBe(4);
    expect(longestSegmentS([])).toBe(0);
  });
});

describe('rewriteMpd', () => {
  const clock = {
    availabilityStartMs: Date.UTC(2026, 10, 24, 5, 51, 16, 250),
    maxSegmentS: 2.00032,
    nowMs: 0,
    presentationDelayS: 6,
  };

  it('sets the clock from the media timeline, bounds maxSegmentDuration, and adds UTCTiming: http-xsdate on Sluice, then direct', () => {
    const mpd = rewriteMpd(
      FFMPEG_MPD,
      { ...clock, nowMs: Date.UTC(2026, 10, 24, 5, 52, 0, 5) },
      'index.mpd?utc&token=a&b',
    );
    expect(mpd).toContain('availabilityStartTime="2026-11-24T05:51:16.250Z"');
    expect(mpd).toContain('maxSegmentDuration="PT2.001S"');
    expect(mpd).toContain('suggestedPresentationDelay="PT6.000S"');
    expect(mpd).toMatch(
      /<\/Period>\n\t<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="index.mpd\?utc&amp;token=a&amp;b"\/>\n\t<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-11-24T05:52:00.005Z"\/>\n<\/MPD>/,
    );
    // Once only, also when ffmpeg writes one of its own.
    expect(rewriteMpd(mpd, clock, 'index.mpd?utc').match(/<UTCTiming/g)).toHaveLength(2);
  });
});
