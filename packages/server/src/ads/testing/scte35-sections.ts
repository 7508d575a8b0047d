import { crc32Mpeg } from '../../media/crc32.js';
import { patSection, pmtSection, sectionPackets } from '../../media/ts-tables.js';

/** Builders of SCTE 35 sections for tests, field by field as SCTE 35 §9 lays them out. */

/** Writes fields MSB first, as SCTE 35 §9 lays them out. */
export class Bits {
  private bits: number[] = [];
  put(value: number, width: number): this {
    for (let i = width - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2);
    return this;
  }
  bytes(): number[] {
    if (this.bits.length % 8) throw new Error(`${this.bits.length} bits is no whole byte`);
    const out: number[] = [];
    for (let i = 0; i < this.bits.length; i += 8)
      out.push(this.bits.slice(i, i + 8).reduce((a, b) => a * 2 + b, 0));
    return out;
  }
}

/** splice_time() §9.8.1. */
export const spliceTime = (b: Bits, pts?: number) =>
  pts === undefined ? b.put(0, 1).put(0x7f, 7) : b.put(1, 1).put(0x3f, 6).put(pts, 33);

export interface InsertFields {
  eventId: number;
  outOfNetwork: boolean;
  pts?: number;
  durationTicks?: number;
  immediate?: boolean;
}

/** splice_insert() §9.7.3, a program splice. */
export function spliceInsert(f: InsertFields): number[] {
  const b = new Bits().put(f.eventId, 32).put(0, 1).put(0x7f, 7);
  b.put(f.outOfNetwork ? 1 : 0, 1)
    .put(1, 1)
    .put(f.durationTicks === undefined ? 0 : 1, 1);
  b.put(f.immediate ? 1 : 0, 1)
    .put(0, 1)
    .put(0x7, 3);
  if (!f.immediate) spliceTime(b, f.pts);
  if (f.durationTicks !== undefined) b.put(1, 1).put(0x3f, 6).put(f.durationTicks, 33);
  return b.put(0x1234, 16).put(1, 8).put(2, 8).bytes();
}

/** splice_info_section() §9.6 around a command: header, descriptors, CRC_32 computed. */
export function scte35Section(
  commandType: number,
  command: number[],
  opts: { adjust?: number; descriptors?: number[] } = {},
) {
  const descriptors = opts.descriptors ?? [];
  const body = new Bits()
    .put(0, 8) // protocol_version
    .put(0, 1) // encrypted_packet
    .put(0, 6) // encryption_algorithm
    .put(opts.adjust ?? 0, 33)
    .put(0, 8) // cw_index
    .put(0xfff, 12) // tier
    .put(command.length, 12)
    .put(commandType, 8)
    .bytes();
  const rest = [...body, ...command, descriptors.length >> 8, descriptors.length & 0xff, ...descriptors];
  const length = rest.length + 4;
  const head = [0xfc, 0x30 | (length >> 8), length & 0xff];
  const withoutCrc = Buffer.from([...head, ...rest, 0, 0, 0, 0]);
  const crc = crc32Mpeg(withoutCrc, 0, withoutCrc.length - 4);
  withoutCrc.writeUInt32BE(crc, withoutCrc.length - 4);
  return withoutCrc;
}

/** The SCTE 35 PID the tests' programs list beside their video. */
export const SCTE_PID = 0x1f0;

/**
 * A PAT and a PMT (program 1 on 0x1000) listing H.264 video on 0x100 and SCTE 35 on SCTE_PID, as
 * a broadcaster's do, with continuity counter `cc`: they replace ffmpeg's own tables in test feeds.
 */
export const tablesWithScte35 = (cc: number): Buffer =>
  Buffer.concat([
    sectionPackets(0, patSection(1, 0x1000), cc),
    sectionPackets(
      0x1000,
      pmtSection(1, 0x100, [
        { pid: 0x100, streamType: 0x1b },
        { pid: SCTE_PID, streamType: 0x86 },
      ]),
      cc,
    ),
  ]);
