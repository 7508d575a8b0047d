import { type BoxHeader, boxAt, child, childBoxes, Mp4Error, need } from './mp4-box-reader.js';
import { readSampleEntry, type SampleEntry } from './mp4-sample-entry.js';
import { readSampleTable, type SampleTable } from './mp4-sample-table.js';

/** An edit list moving a track by more than this is taken as damaged. */
const MAX_SHIFT_S = 86_400;

/** A track this reader can serve: H.264, HEVC or AAC, with its samples. */
export interface Mp4Track {
  id: number;
  entry: SampleEntry;
  /** Media timescale (units a second) of the sample times. */
  timescale: number;
  /** ISO 639-2 language from 'mdhd', when not 'und'. */
  lang: string | undefined;
  /** Presentation size from 'tkhd' (what players show), else the sample entry's. */
  width: number;
  height: number;
  table: SampleTable;
  /**
   * Added to a sample's media time (units) to get its time from the file's start: the edit list's
   * initial empty edit minus its media_time (the B-frame delay or AAC priming ffmpeg cuts away).
   */
  shiftUnits: number;
}

export interface Mp4Movie {
  tracks: Mp4Track[];
  /** Tracks skipped: their id and why (the codec, or a missing table). */
  skipped: { id: number; reason: string }[];
}

/** Reads every track of a 'moov' box; a damaged table throws Mp4Error, an unknown codec skips the track. */
export function readMovie(moov: Buffer, fileSizeBytes: number): Mp4Movie {
  const root = boxAt(moov, 0, moov.length);
  const movieTimescale = mvhdTimescale(moov, need(moov, root, 'mvhd'));
  const movie: Mp4Movie = { tracks: [], skipped: [] };
  for (const trak of childBoxes(moov, root.contentStart, root.end)) {
    if (trak.type !== 'trak') continue;
    const tkhd = need(moov, trak, 'tkhd');
    const v1 = moov[tkhd.contentStart] === 1;
    if (tkhd.contentStart + (v1 ? 96 : 84) > tkhd.end) throw new Mp4Error("a 'tkhd' box is cut short");
    const id = moov.readUInt32BE(tkhd.contentStart + (v1 ? 20 : 12));
    const mdia = need(moov, trak, 'mdia');
    const stbl = need(moov, need(moov, mdia, 'minf'), 'stbl');
    const entry = readSampleEntry(moov, need(moov, stbl, 'stsd'));
    if (typeof entry === 'string') {
      movie.skipped.push({ id, reason: `codec '${entry}' is not served` });
      continue;
    }
    const { timescale, lang } = readMdhd(moov, need(moov, mdia, 'mdhd'));
    const table = readSampleTable(moov, stbl, fileSizeBytes);
    if (table.count === 0) {
      movie.skipped.push({ id, reason: 'no samples in the movie header (a fragmented MP4?)' });
      continue;
    }
    const sizeAt = tkhd.contentStart + (v1 ? 88 : 76);
    const tkhdWidth = moov.readUInt32BE(sizeAt) / 65536;
    const tkhdHeight = moov.readUInt32BE(sizeAt + 4) / 65536;
    const video = entry.content === 'video';
    movie.tracks.push({
      id,
      entry,
      timescale,
      lang,
      width: video ? Math.round(tkhdWidth) || entry.width : 0,
      height: video ? Math.round(tkhdHeight) || entry.height : 0,
      table,
      shiftUnits: editShift(moov, child(moov, trak, 'edts'), timescale, movieTimescale),
    });
  }
  return movie;
}

function mvhdTimescale(moov: Buffer, mvhd: BoxHeader): number {
  const at = mvhd.contentStart + (moov[mvhd.contentStart] === 1 ? 20 : 12);
  if (at + 4 > mvhd.end) throw new Mp4Error("the 'mvhd' box is cut short");
  return moov.readUInt32BE(at) || 1000;
}

/** 'mdhd' (§8.4.2): the media timescale and the packed ISO 639-2/T language. */
function readMdhd(moov: Buffer, mdhd: BoxHeader): { timescale: number; lang: string | undefined } {
  const v1 = moov[mdhd.contentStart] === 1;
  const at = mdhd.contentStart + (v1 ? 20 : 12);
  if (at + (v1 ? 14 : 10) > mdhd.end) throw new Mp4Error("the 'mdhd' box is cut short");
  const timescale = moov.readUInt32BE(at);
  if (timescale === 0) throw new Mp4Error("a track's timescale is 0");
  const packed = moov.readUInt16BE(at + (v1 ? 12 : 8));
  const letters = [10, 5, 0].map((shift) => ((packed >> shift) & 0x1f) + 0x60);
  const lang = String.fromCharCode(...letters);
  return { timescale, lang: /^[a-z]{3}$/.test(lang) && lang !== 'und' ? lang : undefined };
}

/**
 * The edit list's effect on the track's start (§8.6.6): initial empty edits delay it, the first
 * real edit's media_time cuts that much off its beginning. Later edits are not followed: files
 * made by ffmpeg and cameras have at most these two.
 */
function editShift(
  moov: Buffer,
  edts: BoxHeader | undefined,
  timescale: number,
  movieTimescale: number,
): number {
  const elst = edts && child(moov, edts, 'elst');
  if (!elst || elst.contentStart + 8 > elst.end) return 0;
  const v1 = moov[elst.contentStart] === 1;
  const entryBytes = v1 ? 20 : 12;
  const count = Math.min(
    moov.readUInt32BE(elst.contentStart + 4),
    Math.floor((elst.end - elst.contentStart - 8) / entryBytes),
  );
  let emptyMovieUnits = 0;
  for (let i = 0; i < count; i++) {
    const at = elst.contentStart + 8 + i * entryBytes;
    const duration = v1 ? Number(moov.readBigUInt64BE(at)) : moov.readUInt32BE(at);
    const mediaTime = v1 ? Number(moov.readBigInt64BE(at + 8)) : moov.readInt32BE(at + 4);
    if (mediaTime === -1) {
      emptyMovieUnits += duration;
      continue;
    }
    const empty = Math.round((emptyMovieUnits * timescale) / movieTimescale);
    // A shift of more than a day is a damaged list, not an edit: play the media as it is.
    const shift = empty - mediaTime;
    return Number.isFinite(shift) && Math.abs(shift) <= MAX_SHIFT_S * timescale ? shift : 0;
  }
  return 0;
}
