import { PACKET_SIZE, SYNC_BYTE } from './ts-packet.js';

/**
 * Turns a byte stream (a pipe, a TCP body, UDP datagrams) into whole 188-byte packets. A chunk that
 * is already aligned passes through without a copy; otherwise bytes are joined with the leftover
 * of the previous chunk, and after garbage the packetizer re-locks on a sync byte that repeats
 * 188 bytes later.
 */
export class TsPacketizer {
  private leftover: Buffer | undefined;
  /** Bytes thrown away while looking for sync: a measure of a broken source. */
  droppedBytes = 0;

  /** Returns the whole packets of `chunk` (plus what was left over), possibly empty. */
  push(chunk: Buffer): Buffer {
    let data = chunk;
    if (this.leftover) {
      data = Buffer.concat([this.leftover, chunk]);
      this.leftover = undefined;
    }
    if (data.length % PACKET_SIZE === 0 && isAligned(data)) return data;
    const parts: Buffer[] = [];
    let o = 0;
    while (o < data.length) {
      if (data[o] !== SYNC_BYTE || (o + PACKET_SIZE < data.length && data[o + PACKET_SIZE] !== SYNC_BYTE)) {
        const next = findSync(data, o + 1);
        this.droppedBytes += next - o;
        o = next;
        continue;
      }
      let end = o;
      while (end + PACKET_SIZE <= data.length && data[end] === SYNC_BYTE) end += PACKET_SIZE;
      if (end > o) parts.push(data.subarray(o, end));
      if (end + PACKET_SIZE > data.length) {
        if (end < data.length) this.leftover = Buffer.from(data.subarray(end));
        break;
      }
      o = end;
    }
    if (parts.length === 1) return parts[0]!;
    return Buffer.concat(parts);
  }

  reset(): void {
    this.leftover = undefined;
  }
}

function isAligned(data: Buffer): boolean {
  for (let o = 0; o < data.length; o += PACKET_SIZE) if (data[o] !== SYNC_BYTE) return false;
  return true;
}

/** The next offset holding a sync byte, or the end. */
function findSync(data: Buffer, from: number): number {
  const i = data.indexOf(SYNC_BYTE, from);
  return i < 0 ? data.length : i;
}
