/** One RTP packet (RFC 3550 §5.1) as read: what the depacketizers need. */
export interface RtpPacket {
  marker: boolean;
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

/** Reads an RTP packet; undefined for anything that is not one (wrong version, lengths past the end). */
export function readRtp(b: Buffer): RtpPacket | undefined {
  if (b.length < 12 || b[0]! >> 6 !== 2) return undefined;
  const csrcs = b[0]! & 0x0f;
  let offset = 12 + 4 * csrcs;
  if (b[0]! & 0x10) {
    if (b.length < offset + 4) return undefined;
    offset += 4 + 4 * b.readUInt16BE(offset + 2);
  }
  let end = b.length;
  if (b[0]! & 0x20) end -= b[b.length - 1]!;
  if (offset > end) return undefined;
  return {
    marker: (b[1]! & 0x80) !== 0,
    payloadType: b[1]! & 0x7f,
    sequence: b.readUInt16BE(2),
    timestamp: b.readUInt32BE(4),
    ssrc: b.readUInt32BE(8),
    payload: b.subarray(offset, end),
  };
}

/** The 12-byte header of an outgoing packet. */
export function rtpHeader(
  payloadType: number,
  sequence: number,
  timestamp: number,
  ssrc: number,
  marker: boolean,
): Buffer {
  const h = Buffer.alloc(12);
  h[0] = 0x80;
  h[1] = (marker ? 0x80 : 0) | (payloadType & 0x7f);
  h.writeUInt16BE(sequence & 0xffff, 2);
  h.writeUInt32BE(timestamp >>> 0, 4);
  h.writeUInt32BE(ssrc >>> 0, 8);
  return h;
}

/** 2208988800: seconds from the NTP epoch (1900) to the Unix epoch. */
const NTP_OFFSET_S = 2_208_988_800;

/**
 * An RTCP sender report (RFC 3550 §6.4.1) without report blocks: ties `rtpTime` to the wall clock
 * `nowMs`, so a player lines audio up with video, and counts what was sent.
 */
export function senderReport(
  ssrc: number,
  nowMs: number,
  rtpTime: number,
  packets: number,
  octets: number,
): Buffer {
  const b = Buffer.alloc(28);
  b[0] = 0x80;
  b[1] = 200;
  b.writeUInt16BE(6, 2);
  b.writeUInt32BE(ssrc >>> 0, 4);
  const seconds = Math.floor(nowMs / 1000);
  b.writeUInt32BE((seconds + NTP_OFFSET_S) >>> 0, 8);
  b.writeUInt32BE(Math.floor(((nowMs % 1000) / 1000) * 2 ** 32) >>> 0, 12);
  b.writeUInt32BE(rtpTime >>> 0, 16);
  b.writeUInt32BE(packets >>> 0, 20);
  b.writeUInt32BE(octets >>> 0, 24);
  return b;
}
