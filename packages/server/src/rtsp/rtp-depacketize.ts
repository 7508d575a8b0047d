import type { RtpPacket } from './rtp-packet.js';
import type { VideoCodec } from './ts-units.js';

/** A video access unit this large is not a frame: it is dropped rather than held on to. */
const MAX_UNIT_BYTES = 8 * 1024 * 1024;

/**
 * Rebuilds video access units from RTP: single NAL unit packets, STAP-A and FU-A (RFC 6184) for
 * H.264, AP and FU (RFC 7798) for HEVC. A unit ends at the marker bit or where the timestamp
 * changes; a lost fragment drops its NAL unit (the decoder conceals; the next keyframe heals).
 */
export class VideoDepacketizer {
  private nals: Buffer[] = [];
  private bytes = 0;
  private timestamp: number | undefined;
  private fragment: Buffer[] | undefined;
  private lastSequence: number | undefined;

  constructor(
    private readonly codec: VideoCodec,
    private readonly out: (nals: Buffer[], timestamp: number) => void,
  ) {}

  push(packet: RtpPacket): void {
    if (this.timestamp !== undefined && packet.timestamp !== this.timestamp) this.flush();
    const lost = this.lastSequence !== undefined && packet.sequence !== ((this.lastSequence + 1) & 0xffff);
    this.lastSequence = packet.sequence;
    if (lost) this.fragment = undefined;
    this.timestamp = packet.timestamp;
    const p = packet.payload;
    if (p.length < (this.codec === 'h264' ? 1 : 2)) return;
    if (this.codec === 'h264') this.h264(p);
    else this.hevc(p);
    if (this.bytes > MAX_UNIT_BYTES) {
      this.nals = [];
      this.bytes = 0;
      this.fragment = undefined;
    }
    if (packet.marker) this.flush();
  }

  private h264(p: Buffer): void {
    const type = p[0]! & 0x1f;
    if (type >= 1 && type <= 23) return this.add(p);
    if (type === 24) return this.aggregate(p.subarray(1));
    if (type === 28 && p.length > 2) {
      const fu = p[1]!;
      const body = p.subarray(2);
      this.fragmentPart(fu, body, () => Buffer.from([(p[0]! & 0xe0) | (fu & 0x1f)]));
    }
  }

  private hevc(p: Buffer): void {
    const type = (p[0]! >> 1) & 0x3f;
    if (type < 48) return this.add(p);
    if (type === 48) return this.aggregate(p.subarray(2));
    if (type === 49 && p.length > 3) {
      const fu = p[2]!;
      const body = p.subarray(3);
      this.fragmentPart(fu, body, () => Buffer.from([(p[0]! & 0x81) | ((fu & 0x3f) << 1), p[1]!]));
    }
  }

  /** Aggregation packets: 16-bit sizes, each followed by its NAL unit (no DON: non-interleaved). */
  private aggregate(b: Buffer): void {
    for (let o = 0; o + 2 <= b.length;) {
      const size = b.readUInt16BE(o);
      if (size === 0 || o + 2 + size > b.length) return;
      this.add(b.subarray(o + 2, o + 2 + size));
      o += 2 + size;
    }
  }

  private fragmentPart(fu: number, body: Buffer, header: () => Buffer): void {
    const start = (fu & 0x80) !== 0;
    const end = (fu & 0x40) !== 0;
    if (start) this.fragment = [header()];
    if (!this.fragment) return;
    this.fragment.push(Buffer.from(body));
    this.bytes += body.length;
    if (!end) return;
    this.add(Buffer.concat(this.fragment));
    this.fragment = undefined;
  }

  private add(nal: Buffer): void {
    this.nals.push(Buffer.from(nal));
    this.bytes += nal.length;
  }

  private flush(): void {
    const nals = this.nals;
    this.nals = [];
    this.bytes = 0;
    this.fragment = undefined;
    if (nals.length > 0 && this.timestamp !== undefined) this.out(nals, this.timestamp);
  }
}

/**
 * AAC frames from MPEG-4 generic RTP (RFC 3640), AAC-hbr or AAC-lbr: the AU headers give each
 * frame's size; frames after the first are `frameSamples` later each. Fragmented frames (a frame
 * over one packet) are not put back together: encoders keep AAC frames far below the MTU.
 */
export function aacFrames(payload: Buffer, sizeLength: number, indexLength: number): Buffer[] | undefined {
  if (payload.length < 2 || sizeLength <= 0 || sizeLength > 16) return undefined;
  const headersBits = payload.readUInt16BE(0);
  const headerBits = sizeLength + indexLength;
  const headersBytes = Math.ceil(headersBits / 8);
  if (headerBits <= 0 || 2 + headersBytes > payload.length) return undefined;
  const frames: Buffer[] = [];
  let offset = 2 + headersBytes;
  for (let bit = 0; bit + headerBits <= headersBits; bit += headerBits) {
    const size = readBits(payload.subarray(2, 2 + headersBytes), bit, sizeLength);
    if (offset + size > payload.length) return frames.length > 0 ? frames : undefined;
    frames.push(payload.subarray(offset, offset + size));
    offset += size;
  }
  return frames;
}

/**
 * AAC frames of MP4A-LATM with the config out of band (RFC 3016 §4, cpresent=0): each
 * AudioMuxElement is its PayloadLengthInfo (bytes summed while 255) and the frame.
 */
export function latmFrames(payload: Buffer): Buffer[] | undefined {
  const frames: Buffer[] = [];
  for (let o = 0; o < payload.length;) {
    let size = 0;
    while (o < payload.length && payload[o] === 0xff) size += payload[o++]!;
    if (o >= payload.length) return undefined;
    size += payload[o++]!;
    if (size === 0 || o + size > payload.length) return frames.length > 0 ? frames : undefined;
    frames.push(payload.subarray(o, o + size));
    o += size;
  }
  return frames;
}

function readBits(b: Buffer, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) value = (value << 1) | ((b[i >> 3]! >> (7 - (i & 7))) & 1);
  return value;
}

/** An ADTS header (ISO 14496-3 §1.A.2) for one raw frame, so the stream's TS carries AAC as HLS wants. */
export function adtsHeader(
  objectType: number,
  frequencyIndex: number,
  channels: number,
  frameBytes: number,
): Buffer {
  const length = frameBytes + 7;
  return Buffer.from([
    0xff,
    0xf1,
    (((objectType - 1) & 0x03) << 6) | ((frequencyIndex & 0x0f) << 2) | ((channels >> 2) & 0x01),
    ((channels & 0x03) << 6) | ((length >> 11) & 0x03),
    (length >> 3) & 0xff,
    ((length & 0x07) << 5) | 0x1f,
    0xfc,
  ]);
}
