import { H264_PPS, H264_SPS, HEVC_PPS, HEVC_SPS, HEVC_VPS, parameterSetId } from './h26x-nal.js';
import { PACKET_SIZE, SYNC_BYTE } from './ts-packet.js';

/** The parameter set types a picture needs, in the order a decoder wants them. */
const NEEDED: Record<'h264' | 'hevc', number[]> = {
  h264: [H264_SPS, H264_PPS],
  hevc: [HEVC_VPS, HEVC_SPS, HEVC_PPS],
};

const START_CODE = Buffer.from([0, 0, 0, 1]);

/**
 * The newest parameter sets of a video track, and which ones the access unit being read carried.
 * Encoders that send SPS/PPS only with the stream's first IDR (x264 with repeat-headers off, many
 * with global headers) leave every later cut point without them: a segment starting there does not
 * decode alone ("non-existing PPS 0 referenced") unless they are put back in front of it.
 */
export class ParameterSets {
  /** By type and id; each NAL unit without its start code. */
  private readonly sets = new Map<string, { type: number; nal: Buffer }>();
  private readonly inUnit = new Set<number>();

  constructor(private readonly codec: 'h264' | 'hevc') {}

  /** Whether this NAL type is a parameter set of the codec. */
  holds(type: number): boolean {
    return NEEDED[this.codec].includes(type);
  }

  beginUnit(): void {
    this.inUnit.clear();
  }

  remember(type: number, nal: Uint8Array): void {
    this.inUnit.add(type);
    const key = `${type}:${parameterSetId(type, nal)}`;
    if (!this.sets.get(key)?.nal.equals(nal)) this.sets.set(key, { type, nal: Buffer.from(nal) });
  }

  /** Annex B bytes of every kept set when the current unit lacks one a decoder needs; else undefined. */
  missingFromUnit(): Buffer | undefined {
    const needed = NEEDED[this.codec];
    if (needed.every((type) => this.inUnit.has(type))) return undefined;
    const parts: Buffer[] = [];
    for (const type of needed)
      for (const set of this.sets.values()) if (set.type === type) parts.push(START_CODE, set.nal);
    return parts.length > 0 ? Buffer.concat(parts) : undefined;
  }
}

export interface InsertAt {
  pid: number;
  /** Continuity counter of the first packet of the keyframe the sets go before. */
  continuity: number;
  streamId: number;
  pts: number | undefined;
  dts: number | undefined;
}

/**
 * TS packets of one PES carrying `annexB` (parameter sets), to go right before a keyframe's first
 * packet on its PID. They take the continuity counters just before the keyframe's, so the segment
 * reads continuously; the first packet's discontinuity_indicator (ISO 13818-1 §2.4.3.5) tells a
 * reader coming from the previous segment that the counter jumps there. The PES carries the
 * keyframe's timestamps, so players that start a sample per PES give it the right time.
 */
export function parameterSetPackets(annexB: Buffer, at: InsertAt): Buffer {
  const withDts = at.pts !== undefined && at.dts !== undefined && at.dts !== at.pts;
  const timestamps = at.pts === undefined ? [] : withDts ? [at.pts, at.dts!] : [at.pts];
  const headerData = Buffer.alloc(5 * timestamps.length);
  timestamps.forEach((ts, i) => writeTimestamp(headerData, i * 5, ts, i === 0 ? (withDts ? 3 : 2) : 1));
  const pesLength = 3 + headerData.length + annexB.length;
  const pes = Buffer.concat([
    Buffer.from([0, 0, 1, at.streamId, pesLength >> 8, pesLength & 0xff, 0x80]),
    Buffer.from([[0, 0x80, 0xc0][timestamps.length]!, headerData.length]),
    headerData,
    annexB,
  ]);
  const chunks: Buffer[] = [];
  // The first packet keeps two bytes for its adaptation field (length, flags).
  for (let offset = 0; offset < pes.length;) {
    const room = PACKET_SIZE - 4 - (offset === 0 ? 2 : 0);
    chunks.push(pes.subarray(offset, offset + room));
    offset += room;
  }
  const packets = chunks.map((payload, i) => {
    const packet = Buffer.alloc(PACKET_SIZE, 0xff);
    const adaptation = PACKET_SIZE - 4 - payload.length;
    const cc = (at.continuity - chunks.length + i) & 0x0f;
    packet[0] = SYNC_BYTE;
    packet[1] = (i === 0 ? 0x40 : 0) | (at.pid >> 8);
    packet[2] = at.pid & 0xff;
    packet[3] = (adaptation > 0 ? 0x30 : 0x10) | cc;
    if (adaptation > 0) packet[4] = adaptation - 1;
    if (adaptation > 1) packet[5] = i === 0 ? 0x80 : 0x00;
    payload.copy(packet, 4 + adaptation);
    return packet;
  });
  return Buffer.concat(packets);
}

/** A PTS or DTS field: 4-bit prefix, 33 bits with marker bits (ISO 13818-1 §2.4.3.7). */
function writeTimestamp(out: Buffer, o: number, ts: number, prefix: number): void {
  out[o] = (prefix << 4) | ((Math.floor(ts / 2 ** 30) & 0x07) << 1) | 1;
  out[o + 1] = (ts >> 22) & 0xff;
  out[o + 2] = (((ts >> 15) & 0x7f) << 1) | 1;
  out[o + 3] = (ts >> 7) & 0xff;
  out[o + 4] = ((ts & 0x7f) << 1) | 1;
}
