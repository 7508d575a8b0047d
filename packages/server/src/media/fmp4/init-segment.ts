import { box, fourCc, fullBox, u16, u32 } from './mp4-box.js';
import type { Fmp4Track } from './track.js';

/** The identity matrix of mvhd/tkhd (16.16 and 2.30 fixed point). */
const MATRIX = u32(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000);
/** mvhd's clock: durations are all 0 (fragmented), so only its presence matters. */
const MOVIE_TIMESCALE = 1000;

/**
 * The CMAF header (ISO 23000-19 §7.3): ftyp and a moov with one trak per track, no samples, and
 * mvex/trex saying the samples come in fragments. It depends only on the tracks' sample entries
 * (codec parameters), so segments of one encoder share the same bytes.
 */
export function initSegment(tracks: readonly Fmp4Track[]): Buffer {
  const ftyp = box('ftyp', fourCc('iso6'), u32(0), fourCc('iso6', 'cmfc', 'mp41'));
  const nextTrackId = Math.max(...tracks.map((t) => t.id)) + 1;
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0, 0, MOVIE_TIMESCALE, 0),
    u32(0x00010000), // rate 1.0
    u16(0x0100, 0), // volume 1.0, reserved
    u32(0, 0),
    MATRIX,
    Buffer.alloc(24), // pre_defined
    u32(nextTrackId),
  );
  const mvex = box('mvex', ...tracks.map((t) => fullBox('trex', 0, 0, u32(t.id, 1, 0, 0, 0))));
  return Buffer.concat([ftyp, box('moov', mvhd, ...tracks.map(trak), mvex)]);
}

function trak(t: Fmp4Track): Buffer {
  const video = t.kind === 'video';
  const tkhd = fullBox(
    'tkhd',
    0,
    3, // enabled, in movie
    u32(0, 0, t.id, 0, 0), // creation, modification, track_ID, reserved, duration
    u32(0, 0),
    u16(0, 0, video ? 0 : 0x0100, 0), // layer, alternate_group, volume, reserved
    MATRIX,
    u32((t.width ?? 0) * 0x10000, (t.height ?? 0) * 0x10000),
  );
  // Language "und" packed as three 5-bit letters (ISO 639-2/T, §8.4.2.3).
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, t.timescale, 0), u16(0x55c4, 0));
  const handler = video ? 'vide' : 'soun';
  const hdlr = fullBox('hdlr', 0, 0, u32(0), fourCc(handler), u32(0, 0, 0), Buffer.from(`${handler}\0`));
  const header = video ? fullBox('vmhd', 0, 1, u16(0, 0, 0, 0)) : fullBox('smhd', 0, 0, u16(0, 0));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), t.sampleEntry),
    fullBox('stts', 0, 0, u32(0)),
    fullBox('stsc', 0, 0, u32(0)),
    fullBox('stsz', 0, 0, u32(0, 0)),
    fullBox('stco', 0, 0, u32(0)),
  );
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', header, dinf, stbl)));
}
