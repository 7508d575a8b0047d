import { TsPacketizer } from '../../media/ts-packetizer.js';

/** Bytes thrown away looking for sync before a body is judged not to be MPEG-TS. */
const MAX_UNSYNCED_BYTES = 64 * 1024;

/**
 * A publisher's body cut into whole TS packets by the packetizer every TS input uses, with a verdict:
 * a body from which over 64 KB had to be thrown away, more than a tenth of it, is not MPEG-TS
 * (a feed with a few damaged bytes now and then still is). Holds at most one partial packet.
 */
export class TsBodyCheck {
  private readonly packetizer = new TsPacketizer();
  private total = 0;
  /** Why the body is not MPEG-TS, once it is judged so. */
  garbage: string | undefined;

  push(chunk: Buffer): Buffer {
    this.total += chunk.length;
    const packets = this.packetizer.push(chunk);
    const dropped = this.packetizer.droppedBytes;
    if (dropped > MAX_UNSYNCED_BYTES && dropped * 10 > this.total)
      this.garbage = `${dropped} of ${this.total} bytes without TS packet sync`;
    return packets;
  }
}
