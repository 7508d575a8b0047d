/**
 * H.264 access units (Annex B byte stream, as MPEG-TS carries them) into RTP payloads by RFC 6184,
 * packetization-mode 1: a NAL unit that fits goes alone (§5.6), a larger one in FU-A fragments
 * (§5.8). No re-encoding: the NAL units are the source's.
 */

/** RTP payload bytes per packet: leaves room for the RTP header, SRTP tag and extensions in a 1280-byte IPv6 minimum MTU. */
export const MAX_RTP_PAYLOAD_BYTES = 1150;

export const NAL_IDR = 5;
export const NAL_SPS = 7;
export const NAL_PPS = 8;
const NAL_AUD = 9;
const NAL_FILLER = 12;
const FU_A = 28;

/** The NAL units of an Annex B buffer (start codes of 3 or 4 bytes removed; trailing zeros kept off). */
export function splitAnnexB(data: Uint8Array): Uint8Array[] {
  const units: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  while (i + 2 < data.length) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      if (start >= 0) units.push(trimZeros(data.subarray(start, i)));
      i += 3;
      start = i;
    } else i++;
  }
  if (start >= 0 && start < data.length) units.push(trimZeros(data.subarray(start)));
  return units.filter((u) => u.length > 0);
}

/** A 4-byte start code leaves its first zero at the end of the unit before. */
function trimZeros(unit: Uint8Array): Uint8Array {
  let end = unit.length;
  while (end > 0 && unit[end - 1] === 0) end--;
  return unit.subarray(0, end);
}

export const nalType = (unit: Uint8Array): number => unit[0]! & 0x1f;

export interface H264AccessUnit {
  /** Whether it holds an IDR picture: where a viewer can start decoding. */
  keyframe: boolean;
  /** The NAL units to send, in order (delimiters and filler dropped, parameter sets put in front of an IDR). */
  units: Uint8Array[];
}

/**
 * Prepares access units for RTP: drops access unit delimiters and filler (useless in RTP, RFC 6184
 * §5.1), remembers the latest SPS and PPS, and puts them in front of an IDR that came without them
 * (a source may send them only once): a viewer that starts at that IDR can decode it.
 */
export class H264Units {
  private sps: Uint8Array | undefined;
  private pps: Uint8Array | undefined;

  take(annexB: Uint8Array): H264AccessUnit {
    const units = splitAnnexB(annexB).filter((u) => {
      const type = nalType(u);
      return type !== NAL_AUD && type !== NAL_FILLER && (u[0]! & 0x80) === 0;
    });
    let keyframe = false;
    let hasSps = false;
    let hasPps = false;
    for (const unit of units) {
      const type = nalType(unit);
      if (type === NAL_SPS) {
        this.sps = Uint8Array.from(unit);
        hasSps = true;
      } else if (type === NAL_PPS) {
        this.pps = Uint8Array.from(unit);
        hasPps = true;
      } else if (type === NAL_IDR) keyframe = true;
    }
    if (keyframe) {
      const front: Uint8Array[] = [];
      if (!hasSps && this.sps) front.push(this.sps);
      if (!hasPps && this.pps) front.push(this.pps);
      units.unshift(...front);
    }
    return { keyframe, units };
  }
}

/** RTP payloads of one access unit; the last one carries the marker bit (RFC 6184 §5.1). */
export function packetizeH264(units: readonly Uint8Array[], maxPayload = MAX_RTP_PAYLOAD_BYTES): Buffer[] {
  const payloads: Buffer[] = [];
  for (const unit of units) {
    if (unit.length <= maxPayload) {
      payloads.push(Buffer.from(unit));
      continue;
    }
    // FU indicator: the unit's F and NRI bits with type 28; FU header: S/E bits and the unit's type.
    const indicator = (unit[0]! & 0xe0) | FU_A;
    const type = unit[0]! & 0x1f;
    const body = unit.subarray(1);
    const step = maxPayload - 2;
    for (let offset = 0; offset < body.length; offset += step) {
      const end = Math.min(offset + step, body.length);
      const start = offset === 0 ? 0x80 : 0;
      const last = end === body.length ? 0x40 : 0;
      const payload = Buffer.allocUnsafe(2 + end - offset);
      payload[0] = indicator;
      payload[1] = start | last | type;
      payload.set(body.subarray(offset, end), 2);
      payloads.push(payload);
    }
  }
  return payloads;
}

/**
 * Reassembles RTP payloads of one access unit into NAL units (single units and FU-A): what a
 * receiver does, used by the tests and the bench's own checks of what went out.
 */
export function depacketizeH264(payloads: readonly Uint8Array[]): Uint8Array[] {
  const units: Uint8Array[] = [];
  let fragments: Uint8Array[] | undefined;
  for (const p of payloads) {
    if (nalType(p) !== FU_A) {
      units.push(p);
      continue;
    }
    if (p[1]! & 0x80) fragments = [Uint8Array.of((p[0]! & 0xe0) | (p[1]! & 0x1f))];
    fragments?.push(p.subarray(2));
    if (p[1]! & 0x40 && fragments) {
      units.push(Buffer.concat(fragments));
      fragments = undefined;
    }
  }
  return units;
}
