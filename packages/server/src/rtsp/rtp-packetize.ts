import type { VideoCodec } from './ts-units.js';
import { nalType } from './ts-units.js';

/** Largest RTP payload sent: a 1500-byte Ethernet MTU less IP, UDP and RTP headers, with room to spare. */
export const MAX_PAYLOAD_BYTES = 1400;

/** One RTP payload and whether it ends its access unit (the marker bit). */
export interface Payload {
  data: Buffer;
  last: boolean;
}

/**
 * The payloads of one video access unit: each NAL unit whole when it fits (single NAL unit
 * packets), else in fragments — FU-A (RFC 6184 §5.8) for H.264, FU (RFC 7798 §4.4.3) for HEVC.
 */
export function videoPayloads(codec: VideoCodec, nals: readonly Buffer[]): Payload[] {
  const out: Payload[] = [];
  nals.forEach((nal, index) => {
    const lastNal = index === nals.length - 1;
    if (nal.length <= MAX_PAYLOAD_BYTES) return void out.push({ data: nal, last: lastNal });
    const fragments = codec === 'h264' ? fuA(nal) : fuHevc(nal);
    fragments.forEach((data, i) => out.push({ data, last: lastNal && i === fragments.length - 1 }));
  });
  return out;
}

function fuA(nal: Buffer): Buffer[] {
  const indicator = (nal[0]! & 0xe0) | 28;
  const type = nal[0]! & 0x1f;
  return fragments(nal.subarray(1), MAX_PAYLOAD_BYTES - 2, (first, end) =>
    Buffer.from([indicator, (first ? 0x80 : 0) | (end ? 0x40 : 0) | type]),
  );
}

function fuHevc(nal: Buffer): Buffer[] {
  const type = nalType('hevc', nal);
  // The payload header: the NAL header with type 49 (FU), layer and temporal id kept.
  const h0 = (nal[0]! & 0x81) | (49 << 1);
  const h1 = nal[1]!;
  return fragments(nal.subarray(2), MAX_PAYLOAD_BYTES - 3, (first, end) =>
    Buffer.from([h0, h1, (first ? 0x80 : 0) | (end ? 0x40 : 0) | type]),
  );
}

function fragments(body: Buffer, size: number, header: (first: boolean, end: boolean) => Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let o = 0; o < body.length; o += size) {
    const end = o + size >= body.length;
    out.push(Buffer.concat([header(o === 0, end), body.subarray(o, Math.min(o + size, body.length))]));
  }
  return out;
}

/**
 * One AAC frame as MPEG-4 generic, AAC-hbr (RFC 3640 §3.3.6): a 16-bit AU-headers-length, one
 * AU-header (13-bit size, 3-bit index 0), the raw frame (its ADTS header removed).
 */
export function aacPayload(adts: Buffer): Buffer | undefined {
  const raw = adtsBody(adts);
  if (!raw || raw.length >= 1 << 13) return undefined;
  const header = Buffer.from([0x00, 0x10, (raw.length >> 5) & 0xff, (raw.length & 0x1f) << 3]);
  return Buffer.concat([header, raw]);
}

/** The raw AAC frames of a PES of ADTS frames (a PES may carry several). */
export function adtsFrames(pes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let o = 0; o + 7 <= pes.length;) {
    if (pes[o] !== 0xff || (pes[o + 1]! & 0xf0) !== 0xf0) break;
    const length = ((pes[o + 3]! & 0x03) << 11) | (pes[o + 4]! << 3) | (pes[o + 5]! >> 5);
    if (length < 7 || o + length > pes.length) break;
    out.push(pes.subarray(o, o + length));
    o += length;
  }
  return out;
}

function adtsBody(frame: Buffer): Buffer | undefined {
  if (frame.length < 7) return undefined;
  const headerLength = frame[1]! & 0x01 ? 7 : 9;
  return frame.length > headerLength ? frame.subarray(headerLength) : undefined;
}

/** What the SDP says of an ADTS stream: sample rate, channels, AudioSpecificConfig (ISO 14496-3 §1.6.2.1). */
export function adtsConfig(
  frame: Buffer,
): { sampleRate: number; channels: number; config: string } | undefined {
  if (frame.length < 7 || frame[0] !== 0xff) return undefined;
  const objectType = (frame[2]! >> 6) + 1;
  const frequencyIndex = (frame[2]! >> 2) & 0x0f;
  const channels = ((frame[2]! & 0x01) << 2) | (frame[3]! >> 6);
  const sampleRate = SAMPLE_RATES[frequencyIndex];
  if (sampleRate === undefined || channels === 0) return undefined;
  const config = (objectType << 11) | (frequencyIndex << 7) | (channels << 3);
  return { sampleRate, channels, config: config.toString(16).padStart(4, '0') };
}

export const SAMPLE_RATES = [
  96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
];
