import { type BoxHeader, child, Mp4Error, need } from './mp4-box-reader.js';

/**
 * A track's samples, expanded from the sample table boxes (ISO 14496-12 §8.6–8.7) into typed
 * arrays indexed by sample number (0-based, decode order): about 24 bytes a sample, so a 2-hour
 * file's tables are a few MB and a segment's samples are found by binary search.
 */
export interface SampleTable {
  count: number;
  /** File offset and size of each sample. */
  offsets: Float64Array;
  sizes: Uint32Array;
  /** Decode time, media timescale units: 32-bit when the track's length fits (2 h at 90 kHz does). */
  dts: Float64Array | Uint32Array;
  /** Composition offset (PTS - DTS), media timescale units; undefined when there is no 'ctts'. */
  cts: Int32Array | undefined;
  /** 0-based numbers of the sync samples (keyframes), ascending; undefined: every sample is one. */
  sync: Uint32Array | undefined;
  /** The sum of the sample durations, media timescale units. */
  durationUnits: number;
  totalBytes: number;
}

/** Samples in one track beyond which a file is taken as hostile: 24 h at 96 kHz AAC is 8.1 million. */
export const MAX_SAMPLES = 10_000_000;

/** A FullBox's entry list: where entries start and how many fit, so no count in the file is trusted. */
function entries(moov: Buffer, box: BoxHeader, headerBytes: number, entryBytes: number): [number, number] {
  const first = box.contentStart + headerBytes;
  if (first > box.end) throw new Mp4Error(`the '${box.type}' box is cut short`);
  const declared = moov.readUInt32BE(first - 4);
  const room = Math.floor((box.end - first) / entryBytes);
  if (declared > room) {
    throw new Mp4Error(`the '${box.type}' box lists ${declared} entries but holds ${room}`);
  }
  return [first, declared];
}

export function readSampleTable(moov: Buffer, stbl: BoxHeader, fileSizeBytes: number): SampleTable {
  const { count, sizes } = readSizes(moov, stbl, fileSizeBytes);
  const offsets = readOffsets(moov, stbl, count, sizes, fileSizeBytes);
  const { dts, durationUnits } = readTimes(moov, stbl, count);
  let totalBytes = 0;
  for (let i = 0; i < count; i++) totalBytes += sizes[i]!;
  return {
    count,
    offsets,
    sizes,
    dts,
    cts: readCompositionOffsets(moov, stbl, count),
    sync: readSync(moov, stbl, count),
    durationUnits,
    totalBytes,
  };
}

/** 'stsz' (sizes, or one size for all) or 'stz2' (4, 8 or 16-bit sizes). */
function readSizes(
  moov: Buffer,
  stbl: BoxHeader,
  fileSizeBytes: number,
): { count: number; sizes: Uint32Array } {
  const stsz = child(moov, stbl, 'stsz');
  if (stsz) {
    if (stsz.contentStart + 12 > stsz.end) throw new Mp4Error("the 'stsz' box is cut short");
    const fixed = moov.readUInt32BE(stsz.contentStart + 4);
    if (fixed !== 0) {
      const count = moov.readUInt32BE(stsz.contentStart + 8);
      if (count > MAX_SAMPLES || count * fixed > fileSizeBytes) {
        throw new Mp4Error(`'stsz' lists ${count} samples of ${fixed} bytes: more than the file holds`);
      }
      return { count, sizes: new Uint32Array(count).fill(fixed) };
    }
    const [first, count] = entries(moov, stsz, 12, 4);
    checkCount(count);
    const sizes = new Uint32Array(count);
    for (let i = 0; i < count; i++) sizes[i] = moov.readUInt32BE(first + 4 * i);
    return { count, sizes };
  }
  const stz2 = need(moov, stbl, 'stz2');
  if (stz2.contentStart + 12 > stz2.end) throw new Mp4Error("the 'stz2' box is cut short");
  const fieldBits = moov[stz2.contentStart + 7]!;
  if (fieldBits !== 4 && fieldBits !== 8 && fieldBits !== 16)
    throw new Mp4Error(`'stz2' has ${fieldBits}-bit sizes`);
  const first = stz2.contentStart + 12;
  const count = moov.readUInt32BE(first - 4);
  if (count > ((stz2.end - first) * 8) / fieldBits)
    throw new Mp4Error("'stz2' lists more samples than it holds");
  checkCount(count);
  const sizes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    if (fieldBits === 16) sizes[i] = moov.readUInt16BE(first + 2 * i);
    else if (fieldBits === 8) sizes[i] = moov[first + i]!;
    else sizes[i] = (moov[first + (i >> 1)]! >> (i & 1 ? 0 : 4)) & 0x0f;
  }
  return { count, sizes };
}

function checkCount(count: number): void {
  if (count > MAX_SAMPLES) throw new Mp4Error(`a track lists ${count} samples, more than ${MAX_SAMPLES}`);
}

/** Chunk offsets ('stco' or 'co64') spread over the samples by 'stsc'; every sample must lie in the file. */
function readOffsets(
  moov: Buffer,
  stbl: BoxHeader,
  count: number,
  sizes: Uint32Array,
  fileSizeBytes: number,
): Float64Array {
  const co64 = child(moov, stbl, 'co64');
  const chunkBox = co64 ?? need(moov, stbl, 'stco');
  const wide = co64 !== undefined;
  const [chunkFirst, chunks] = entries(moov, chunkBox, 8, wide ? 8 : 4);
  const chunkOffset = (c: number) =>
    wide ? Number(moov.readBigUInt64BE(chunkFirst + 8 * c)) : moov.readUInt32BE(chunkFirst + 4 * c);
  const stsc = need(moov, stbl, 'stsc');
  const [stscFirst, runs] = entries(moov, stsc, 8, 12);
  const offsets = new Float64Array(count);
  let sample = 0;
  for (let r = 0; r < runs && sample < count; r++) {
    const at = stscFirst + 12 * r;
    const firstChunk = moov.readUInt32BE(at) - 1;
    const perChunk = moov.readUInt32BE(at + 4);
    const nextChunk = r + 1 < runs ? moov.readUInt32BE(at + 12) - 1 : chunks;
    if (firstChunk < 0 || nextChunk <= firstChunk || nextChunk > chunks) {
      throw new Mp4Error(`'stsc' entry ${r + 1} points at chunks that are not there`);
    }
    for (let c = firstChunk; c < nextChunk && sample < count; c++) {
      let offset = chunkOffset(c);
      for (let k = 0; k < perChunk && sample < count; k++, sample++) {
        if (offset + sizes[sample]! > fileSizeBytes) {
          throw new Mp4Error(`sample ${sample + 1} lies past the end of the file (the file is cut short?)`);
        }
        offsets[sample] = offset;
        offset += sizes[sample]!;
      }
    }
  }
  if (sample < count) throw new Mp4Error(`'stsc' and the chunk offsets place ${sample} of ${count} samples`);
  return offsets;
}

/** Decode times from the 'stts' runs. */
function readTimes(
  moov: Buffer,
  stbl: BoxHeader,
  count: number,
): { dts: Float64Array | Uint32Array; durationUnits: number } {
  const stts = need(moov, stbl, 'stts');
  const [first, runs] = entries(moov, stts, 8, 8);
  let lengthUnits = 0;
  for (let r = 0, left = count; r < runs && left > 0; r++) {
    const n = Math.min(moov.readUInt32BE(first + 8 * r), left);
    lengthUnits += n * moov.readUInt32BE(first + 8 * r + 4);
    left -= n;
  }
  const dts = lengthUnits < 2 ** 32 ? new Uint32Array(count) : new Float64Array(count);
  let sample = 0;
  let time = 0;
  for (let r = 0; r < runs && sample < count; r++) {
    const n = moov.readUInt32BE(first + 8 * r);
    const delta = moov.readUInt32BE(first + 8 * r + 4);
    for (let k = 0; k < n && sample < count; k++, sample++) {
      dts[sample] = time;
      time += delta;
    }
  }
  if (sample < count) throw new Mp4Error(`'stts' gives times to ${sample} of ${count} samples`);
  return { dts, durationUnits: time };
}

/** 'ctts' version 0 or 1; offsets are read as signed either way, as writers put negative ones in v0. */
function readCompositionOffsets(moov: Buffer, stbl: BoxHeader, count: number): Int32Array | undefined {
  const ctts = child(moov, stbl, 'ctts');
  if (!ctts) return undefined;
  const [first, runs] = entries(moov, ctts, 8, 8);
  const cts = new Int32Array(count);
  let sample = 0;
  for (let r = 0; r < runs && sample < count; r++) {
    const n = moov.readUInt32BE(first + 8 * r);
    const offset = moov.readInt32BE(first + 8 * r + 4);
    for (let k = 0; k < n && sample < count; k++, sample++) cts[sample] = offset;
  }
  return cts;
}

/** 'stss': 1-based sync sample numbers; out-of-range or unordered entries are dropped. */
function readSync(moov: Buffer, stbl: BoxHeader, count: number): Uint32Array | undefined {
  const stss = child(moov, stbl, 'stss');
  if (!stss) return undefined;
  const [first, n] = entries(moov, stss, 8, 4);
  const sync = new Uint32Array(n);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const number = moov.readUInt32BE(first + 4 * i) - 1;
    if (number >= 0 && number < count && (kept === 0 || number > sync[kept - 1]!)) sync[kept++] = number;
  }
  return sync.subarray(0, kept);
}
