import { describe, expect, it } from 'vitest';
import { type AccessUnitProbe, type VideoCodec, VideoProbe } from './video-probe.js';

/** Hand-made NAL units: just enough of each header for the verdict. */
const h264 = {
  aud: [0x09, 0xf0],
  sps: [0x67, 0x42, 0x00, 0x1e, 0xab, 0x40, 0x50, 0x1e, 0xc8],
  pps: [0x68, 0xce, 0x3c, 0x80],
  // Slice headers: first_mb_in_slice 0 ('1'), then slice_type as Exp-Golomb: 7 (I), 5 (P), 6 (B).
  idr: [0x65, 0x88, 0x84, 0x00],
  iSlice: [0x41, 0x88, 0x84, 0x00],
  pSlice: [0x41, 0x98, 0x84, 0x00],
  bSlice: [0x01, 0x9c, 0x84, 0x00],
  // SEI payloadType 6 (recovery point), size 1: recovery_frame_cnt 0, exact_match 1, broken_link 0.
  recovery0: [0x06, 0x06, 0x01, 0xc4, 0x80],
  // The same after a 17-byte user data message (what x264 writes first), recovery_frame_cnt 4.
  recovery4: [0x06, 0x05, 0x11, ...Array<number>(17).fill(0x11), 0x06, 0x02, 0x2c, 0x40, 0x80],
};

/** HEVC's two-byte NAL header for a type. */
const hevc = (type: number, ...rest: number[]) => [type << 1, 0x01, ...rest];

/** Annex B: each NAL unit after a four-byte start code. */
function annexB(...nals: number[][]): Buffer {
  return Buffer.concat(nals.map((nal) => Buffer.from([0, 0, 0, 1, ...nal])));
}

/** Probes access units one after another; returns each verdict. */
function probe(codec: VideoCodec, units: { data: Buffer; randomAccess?: boolean }[]): AccessUnitProbe[] {
  const out: AccessUnitProbe[] = [];
  const p = new VideoProbe(codec, (d) => out.push(d));
  for (const u of units) p.begin(u.data, u.randomAccess ?? false);
  // The next unit's start decides the last one.
  p.begin(annexB(codec === 'hevc' ? hevc(35, 0x50) : h264.aud));
  return out;
}

const keyframes = (codec: VideoCodec, ...units: { data: Buffer; randomAccess?: boolean }[]) =>
  probe(codec, units).map((d) => d.keyframe);

describe('VideoProbe keyframe verdicts (where a segment may start)', () => {
  it('H.264: an IDR is a keyframe, P and B pictures are not', () => {
    expect(
      keyframes(
        'h264',
        { data: annexB(h264.aud, h264.sps, h264.pps, h264.idr) },
        { data: annexB(h264.aud, h264.pSlice) },
        { data: annexB(h264.aud, h264.bSlice) },
      ),
    ).toEqual([true, false, false]);
  });

  it('H.264 open GOP: an I picture with a recovery point SEI of 0 frames is a keyframe', () => {
    expect(keyframes('h264', { data: annexB(h264.aud, h264.recovery0, h264.iSlice) })).toEqual([true]);
  });

  it('H.264: a recovery point that needs more frames (gradual refresh), or on a P picture, is not', () => {
    expect(
      keyframes(
        'h264',
        { data: annexB(h264.aud, h264.recovery4, h264.iSlice) },
        { data: annexB(h264.aud, h264.recovery0, h264.pSlice) },
      ),
    ).toEqual([false, false]);
  });

  it('H.264: an I picture is a keyframe when the TS random_access_indicator flags it, else not', () => {
    expect(
      keyframes(
        'h264',
        { data: annexB(h264.aud, h264.iSlice), randomAccess: true },
        { data: annexB(h264.aud, h264.iSlice) },
        { data: annexB(h264.aud, h264.pSlice), randomAccess: true },
      ),
    ).toEqual([true, false, false]);
  });

  it('H.264: a verdict waits for the slice header when a unit arrives in pieces', () => {
    const out: AccessUnitProbe[] = [];
    const p = new VideoProbe('h264', (d) => out.push(d));
    const unit = annexB(h264.aud, h264.recovery0, h264.iSlice);
    // Cut inside the SEI's start code, then inside the slice's.
    p.begin(unit.subarray(0, 9));
    p.more(unit.subarray(9, 16));
    expect(out).toEqual([]);
    p.more(unit.subarray(16, 20));
    expect(out).toEqual([]);
    p.more(unit.subarray(20));
    expect(out.map((d) => d.keyframe)).toEqual([true]);
  });

  it('HEVC: IRAP pictures (BLA, IDR, CRA) are keyframes; RASL and trailing pictures are not', () => {
    const unit = (type: number) => ({ data: annexB(hevc(35, 0x50), hevc(type, 0xaf, 0x00)) });
    expect(keyframes('hevc', unit(16), unit(19), unit(20), unit(21), unit(8), unit(1), unit(0))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('MPEG-2: an I picture is a keyframe only after a sequence header', () => {
    const sequenceHeader = [0xb3, 0x14, 0x00, 0xf0, 0x13, 0xff, 0xff, 0xe0];
    // Picture header: temporal_reference (10 bits), picture_coding_type (3 bits): 1 I, 2 P.
    const picture = (type: number) => [0x00, 0x00, type << 3, 0x00];
    expect(
      keyframes(
        'mp2v',
        { data: annexB(sequenceHeader, picture(1)) },
        { data: annexB(picture(1)) },
        { data: annexB(picture(2)) },
      ),
    ).toEqual([true, false, false]);
  });
});

describe('VideoProbe parameter sets for cut points that came without them', () => {
  it('H.264: a keyframe without SPS/PPS gets the last ones seen; one carrying them gets none', () => {
    const verdicts = probe('h264', [
      { data: annexB(h264.aud, h264.sps, h264.pps, h264.idr) },
      { data: annexB(h264.aud, h264.pSlice) },
      { data: annexB(h264.aud, h264.recovery0, h264.iSlice) },
    ]);
    expect(verdicts.map((d) => d.parameterSets)).toEqual([undefined, undefined, annexB(h264.sps, h264.pps)]);
  });

  it('H.264: two PPS ids are both kept, and a changed SPS replaces the old one', () => {
    const pps1 = [0x68, 0x4b, 0x8f, 0x20]; // pic_parameter_set_id 1 ('010')
    const sps2 = [...h264.sps.slice(0, -1), 0xc9];
    const verdicts = probe('h264', [
      { data: annexB(h264.sps, h264.pps, pps1, h264.idr) },
      { data: annexB(sps2, h264.pSlice) },
      { data: annexB(h264.iSlice), randomAccess: true },
    ]);
    expect(verdicts[2]!.parameterSets).toEqual(annexB(sps2, h264.pps, pps1));
  });

  it('HEVC: a CRA without VPS/SPS/PPS gets them', () => {
    const [vps, sps, pps] = [hevc(32, 0x0c, 0x01), hevc(33, 0x01, 0x01), hevc(34, 0xc1, 0x72)];
    const verdicts = probe('hevc', [
      { data: annexB(vps, sps, pps, hevc(19, 0xaf)) },
      { data: annexB(hevc(21, 0xaf)) },
    ]);
    expect(verdicts.map((d) => d.parameterSets)).toEqual([undefined, annexB(vps, sps, pps)]);
  });
});
