import { TsMuxer } from '../media/ts-muxer.js';
import { Mp4Error } from './mp4-box-reader.js';
import type { Mp4Track } from './mp4-movie.js';
import type { AudioEntry, VideoEntry } from './mp4-sample-entry.js';
import { VOD_PTS_OFFSET_S } from './vod-source.js';

/** The samples of one track that go into a segment: [from, to) in decode order. */
export interface TrackRange {
  track: Mp4Track;
  from: number;
  to: number;
}

/** Reads `length` bytes at `position` of the file, all of them or an Error. */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** Samples closer than this in the file are read in one read, with the bytes between. */
const COALESCE_GAP_BYTES = 64 * 1024;
/** One read is at most this long: a segment is a few reads, never the whole file in memory at once. */
const MAX_READ_BYTES = 4 * 1024 * 1024;
/** A segment with more sample data than this is a file with no keyframes for minutes: refused. */
export const MAX_SEGMENT_BYTES = 256 * 1024 * 1024;

const STREAM_TYPE_HEVC = 0x24;
const H264_AUD = Buffer.from([0, 0, 0, 1, 0x09, 0xf0]);
/** HEVC access unit delimiter (NAL type 35), pic_type 2: any slice type (H.265 §7.3.2.5). */
const HEVC_AUD = Buffer.from([0, 0, 0, 1, 0x46, 0x01, 0x50]);
const START_CODE = Buffer.from([0, 0, 0, 1]);
const TICKS_PER_S = 90_000;

/**
 * One segment as MPEG-TS: the samples read with a few positional reads, H.264/HEVC turned into
 * Annex B (an AUD, the parameter sets before each keyframe), AAC frames given ADTS headers, all
 * written by the live path's TsMuxer in decode order with 90 kHz PTS/DTS = file time + VOD_PTS_OFFSET_S.
 */
export async function muxTsSegment(
  readAt: ReadAt,
  video: TrackRange | undefined,
  audio: TrackRange | undefined,
): Promise<Buffer> {
  const ranges = [video, audio].filter((r): r is TrackRange => r !== undefined);
  const data = await readSamples(readAt, ranges);
  const out: Buffer[] = [];
  const videoEntry = video?.track.entry as VideoEntry | undefined;
  const muxer = new TsMuxer((packets) => out.push(packets), {
    video: video !== undefined,
    audio: audio !== undefined,
    videoStreamType: videoEntry?.codec === 'hevc' ? STREAM_TYPE_HEVC : undefined,
  });
  const v = video ? { range: video, i: video.from } : undefined;
  const a = audio ? { range: audio, i: audio.from } : undefined;
  // Interleave by decode time, as a player's demuxer wants the units.
  for (;;) {
    const vDts = v && v.i < v.range.to ? ticks(v.range.track, v.range.track.table.dts[v.i]!) : Infinity;
    const aDts = a && a.i < a.range.to ? ticks(a.range.track, a.range.track.table.dts[a.i]!) : Infinity;
    if (vDts === Infinity && aDts === Infinity) break;
    if (vDts <= aDts) {
      const { track } = v!.range;
      const table = track.table;
      const pts = ticks(track, table.dts[v!.i]! + (table.cts ? table.cts[v!.i]! : 0));
      const keyframe = isSync(table.sync, v!.i);
      muxer.writeVideo(
        annexB(videoEntry!, data.get(track)![v!.i - v!.range.from]!, keyframe, v!.i),
        vDts,
        pts,
        keyframe,
      );
      v!.i++;
    } else {
      const entry = a!.range.track.entry as AudioEntry;
      const raw = data.get(a!.range.track)![a!.i - a!.range.from]!;
      muxer.writeAudio(Buffer.concat([adtsHeader(entry, raw.length), raw]), aDts);
      a!.i++;
    }
  }
  return Buffer.concat(out);
}

/** Media units to 90 kHz ticks from the file's start, plus the offset every VOD timestamp carries. */
function ticks(track: Mp4Track, units: number): number {
  return (
    Math.round(((units + track.shiftUnits) * TICKS_PER_S) / track.timescale) + VOD_PTS_OFFSET_S * TICKS_PER_S
  );
}

function isSync(sync: Uint32Array | undefined, i: number): boolean {
  if (!sync) return true;
  let lo = 0;
  let hi = sync.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sync[mid]! < i) lo = mid + 1;
    else hi = mid;
  }
  return sync[lo] === i;
}

/** Every sample of the ranges, read in file order with neighbours coalesced into one read. */
async function readSamples(readAt: ReadAt, ranges: TrackRange[]): Promise<Map<Mp4Track, Buffer[]>> {
  const wanted: { offset: number; size: number; list: Buffer[]; at: number }[] = [];
  const data = new Map<Mp4Track, Buffer[]>();
  let total = 0;
  for (const { track, from, to } of ranges) {
    const list: Buffer[] = new Array<Buffer>(to - from);
    data.set(track, list);
    for (let i = from; i < to; i++) {
      const size = track.table.sizes[i]!;
      total += size;
      wanted.push({ offset: track.table.offsets[i]!, size, list, at: i - from });
    }
  }
  if (total > MAX_SEGMENT_BYTES)
    throw new Mp4Error(`a segment holds ${total} bytes: keyframes too far apart`);
  wanted.sort((x, y) => x.offset - y.offset);
  for (let k = 0; k < wanted.length;) {
    const start = wanted[k]!.offset;
    let end = start + wanted[k]!.size;
    let last = k + 1;
    while (last < wanted.length) {
      const next = wanted[last]!;
      const nextEnd = Math.max(end, next.offset + next.size);
      if (next.offset - end > COALESCE_GAP_BYTES || nextEnd - start > MAX_READ_BYTES) break;
      end = nextEnd;
      last++;
    }
    const bytes = await readAt(start, end - start);
    for (; k < last; k++) {
      const w = wanted[k]!;
      w.list[w.at] = bytes.subarray(w.offset - start, w.offset - start + w.size);
    }
  }
  return data;
}

/** Length-prefixed NAL units to Annex B, with a delimiter first and the parameter sets before a keyframe. */
function annexB(entry: VideoEntry, sample: Buffer, keyframe: boolean, index: number): Buffer {
  const hevc = entry.codec === 'hevc';
  const parts: Buffer[] = [hevc ? HEVC_AUD : H264_AUD];
  if (keyframe) parts.push(entry.parameterSetsAnnexB);
  const n = entry.nalLengthSize;
  for (let o = 0; o < sample.length;) {
    if (o + n > sample.length)
      throw new Mp4Error(`video sample ${index + 1} is damaged (a NAL length is cut)`);
    const length = sample.readUIntBE(o, n);
    o += n;
    if (length > sample.length - o)
      throw new Mp4Error(`video sample ${index + 1} is damaged (a NAL runs past it)`);
    const nal = sample.subarray(o, o + length);
    o += length;
    // The delimiter is written above; one from the file too would make two.
    const type = hevc ? (nal[0]! >> 1) & 0x3f : nal[0]! & 0x1f;
    if (length > 0 && type !== (hevc ? 35 : 9)) parts.push(START_CODE, nal);
  }
  return Buffer.concat(parts);
}

/** A 7-byte ADTS header without CRC (ISO 14496-3 §1.A.2.2). */
function adtsHeader(entry: AudioEntry, rawLength: number): Buffer {
  const length = rawLength + 7;
  if (length > 0x1fff) throw new Mp4Error(`an AAC frame of ${rawLength} bytes is too long for ADTS`);
  const { adtsProfile, frequencyIndex, channelConfig } = entry;
  return Buffer.from([
    0xff,
    0xf1,
    (adtsProfile << 6) | (frequencyIndex << 2) | (channelConfig >> 2),
    ((channelConfig & 3) << 6) | (length >> 11),
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f,
    0xfc,
  ]);
}
