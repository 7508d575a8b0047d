import { describe, expect, it } from 'vitest';
import { composePeriods, keyframeStart, spliceStart } from './dash-periods.js';

/** A TS packet of `pid` opening a PES of `streamId` with a PTS; `flags` is the adaptation field's flag byte. */
function pesPacket(pid: number, streamId: number, flags: number): Buffer {
  const p = Buffer.alloc(188, 0xff);
  p[0] = 0x47;
  p[1] = 0x40 | (pid >> 8);
  p[2] = pid & 0xff;
  p[3] = 0x30;
  p[4] = 1;
  p[5] = flags;
  Buffer.from([0, 0, 1, streamId, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1]).copy(p, 6);
  return p;
}

const DISCONTINUITY = 0x80;
const RANDOM_ACCESS = 0x40;

describe('spliceStart', () => {
  it("finds where a new source starts: each PID's first packet flagged, a PID seen again is the next splice", () => {
    const seen = new Set<number>();
    const plain = pesPacket(0x100, 0xe0, 0);
    const video = pesPacket(0x100, 0xe0, DISCONTINUITY | RANDOM_ACCESS);
    const audio = pesPacket(0x101, 0xc0, DISCONTINUITY);
    expect(spliceStart(Buffer.concat([plain, video, audio]), seen)).toBe(188);
    // The same splice's audio, in the rest of that chunk or a later one: no new splice.
    expect(spliceStart(audio, seen)).toBe(-1);
    expect(spliceStart(plain, seen)).toBe(-1);
    // The next switch flags the video again (the bus passes the new source from its keyframe).
    expect(spliceStart(Buffer.concat([plain, plain, video, audio]), seen)).toBe(376);
    expect(spliceStart(audio, seen)).toBe(-1);
  });
});

describe('keyframeStart', () => {
  it('finds a video PES flagged random access, not an audio one', () => {
    const audio = pesPacket(0x101, 0xc0, RANDOM_ACCESS);
    const keyframe = pesPacket(0x100, 0xe0, RANDOM_ACCESS);
    expect(keyframeStart(Buffer.concat([audio, pesPacket(0x100, 0xe0, 0), keyframe]))).toBe(376);
    expect(keyframeStart(audio)).toBe(-1);
  });
});

describe('composePeriods', () => {
  const mpd = (n: number) =>
    `<MPD type="dynamic">\n<Period id="0" start="PT0.0S">\n<AdaptationSet contentType="video">` +
    `<SegmentTemplate timescale="12800" initialization="init-stream$RepresentationID$.m4s" ` +
    `media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="${n}"><SegmentTimeline>` +
    `<S t="2560" d="25600" /></SegmentTimeline></SegmentTemplate></AdaptationSet>\n</Period>\n</MPD>\n`;

  it('lists each period with its start, presentation time offset and own segment URLs', () => {
    const text = composePeriods(mpd(7), [
      { id: 0, startS: 0, offsetS: 0, mpd: mpd(3), query: '' },
      { id: 4, startS: 12.3456, offsetS: 0.2, mpd: mpd(1), query: 'p=4' },
    ]);
    const periods = text.split('<Period').slice(1);
    expect(periods).toHaveLength(2);
    expect(periods[0]).toContain('id="0" start="PT0.000S"');
    expect(periods[0]).toContain('media="chunk-stream$RepresentationID$-$Number%05d$.m4s"');
    expect(periods[0]).toContain('startNumber="3"');
    expect(periods[1]).toContain('id="4" start="PT12.346S"');
    expect(periods[1]).toContain('presentationTimeOffset="2496"'); // 0.2 s less 5 ms: see FIRST_FRAME_LEAD_S
    expect(periods[1]).toContain('initialization="init-stream$RepresentationID$.m4s?p=4"');
    expect(periods[1]).toContain('media="chunk-stream$RepresentationID$-$Number%05d$.m4s?p=4"');
    expect(text.startsWith('<MPD type="dynamic">')).toBe(true);
    expect(text.trimEnd().endsWith('</MPD>')).toBe(true);
  });

  it("takes each representation's empty edit off its offset: MSE places its frames by tfdt", () => {
    const sets =
      '<MPD type="dynamic">\n<Period id="0" start="PT0.0S">' +
      '<AdaptationSet contentType="video"><Representation id="0"><SegmentTemplate timescale="12800">' +
      '</SegmentTemplate></Representation></AdaptationSet><AdaptationSet contentType="audio">' +
      '<Representation id="1"><SegmentTemplate timescale="44100"></SegmentTemplate></Representation>' +
      '</AdaptationSet>\n</Period>\n</MPD>\n';
    const editsS = new Map([
      ['0', 0.026],
      ['1', 0],
    ]);
    const text = composePeriods(sets, [
      { id: 2, startS: 5, offsetS: 0.105, mpd: sets, query: 'p=2', editsS },
    ]);
    // Video: (0.105 − 0.026 − 0.005) × 12800; audio: (0.105 − 0.005) × 44100.
    expect(text).toContain('presentationTimeOffset="947" timescale="12800"');
    expect(text).toContain('presentationTimeOffset="4410" timescale="44100"');
  });
});
