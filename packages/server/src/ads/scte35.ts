import { crc32Mpeg } from '../media/crc32.js';

/**
 * SCTE 35 (2023) splice_info_section parsing (§9.6): what an upstream encoder says about ad breaks
 * in an MPEG-TS source. Input comes from the network: every length is checked against the bytes
 * there, the CRC_32 must hold, and the parser answers `{ error }` for anything else; it never throws.
 */

/** The table_id of every splice_info_section. */
export const SCTE35_TABLE_ID = 0xfc;
/** The PMT stream_type that carries SCTE 35 sections. */
export const SCTE35_STREAM_TYPE = 0x86;
/** 2^33: PTS values wrap here (90 kHz clock). */
const PTS_WRAP = 2 ** 33;

export interface BreakDuration {
  autoReturn: boolean;
  /** 90 kHz ticks. */
  duration90k: number;
}

export interface SpliceInsert {
  type: 'splice_insert';
  eventId: number;
  cancel: boolean;
  /** true: a break starts (cue-out); false: back to the network (cue-in). */
  outOfNetwork: boolean;
  programSplice: boolean;
  immediate: boolean;
  /** The splice point, 90 kHz, pts_adjustment applied; undefined when immediate or unspecified. */
  pts90k?: number;
  /** Per component when not a program splice (tag → pts). */
  components?: { tag: number; pts90k?: number }[];
  breakDuration?: BreakDuration;
  uniqueProgramId: number;
  availNum: number;
  availsExpected: number;
}

export type SpliceCommand =
  | { type: 'splice_null' }
  | SpliceInsert
  | { type: 'time_signal'; pts90k?: number }
  | { type: 'other'; commandType: number };

/** A segmentation_descriptor (§10.3.3), the fields a break needs. */
export interface SegmentationDescriptor {
  eventId: number;
  cancel: boolean;
  /** segmentation_type_id: 0x22/0x30/0x32/0x34/0x36 … starts, 0x23/0x31/0x33/0x35/0x37 … ends. */
  typeId?: number;
  /** 90 kHz ticks. */
  duration90k?: number;
}

export interface SpliceInfo {
  protocolVersion: number;
  encrypted: boolean;
  ptsAdjustment90k: number;
  tier: number;
  command: SpliceCommand;
  segmentations: SegmentationDescriptor[];
}

export type Scte35Parse = { info: SpliceInfo } | { error: string };

/** Reads big-endian fields inside [0, end) of `bytes`; a read past the end throws a RangeError caught below. */
class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
    private readonly end: number,
  ) {}
  u8(): number {
    if (this.at >= this.end) throw new RangeError('the section ends inside a field');
    return this.bytes[this.at++]!;
  }
  u16(): number {
    return this.u8() * 256 + this.u8();
  }
  u32(): number {
    return this.u16() * 65536 + this.u16();
  }
  /** A 33-bit value after `skip` high bits of its first byte: (1 + 32) bits in 5 bytes. */
  bits33(): number {
    const top = this.u8() & 0x01;
    return top * 2 ** 32 + this.u32();
  }
  remaining(): number {
    return this.end - this.at;
  }
}

/** The section at the start of `bytes` (a reassembled PSI section, the pointer field removed). */
export function parseSpliceInfo(bytes: Uint8Array): Scte35Parse {
  try {
    return parse(bytes);
  } catch (error) {
    return { error: error instanceof RangeError ? error.message : `unreadable section: ${String(error)}` };
  }
}

function parse(bytes: Uint8Array): Scte35Parse {
  if (bytes.length < 3) return { error: 'shorter than a section header' };
  if (bytes[0] !== SCTE35_TABLE_ID) return { error: `table_id 0x${bytes[0]!.toString(16)} is not 0xfc` };
  const sectionLength = ((bytes[1]! & 0x0f) << 8) | bytes[2]!;
  const end = 3 + sectionLength;
  if (end > bytes.length)
    return { error: `section_length ${sectionLength} runs past the ${bytes.length} bytes` };
  // protocol_version … CRC_32: 11 bytes of header after section_length, 4 of CRC.
  if (sectionLength < 11 + 4 + 2) return { error: `section_length ${sectionLength} is too short` };
  if (crc32Mpeg(bytes, 0, end) !== 0) return { error: 'CRC_32 mismatch' };
  const r = new Reader(bytes, 3, end - 4);
  const protocolVersion = r.u8();
  if (protocolVersion !== 0) return { error: `protocol_version ${protocolVersion} is not 0` };
  const b = r.u8();
  const encrypted = (b & 0x80) !== 0;
  r.at--;
  const ptsAdjustment90k = r.bits33();
  r.u8(); // cw_index
  const tierAndLength = r.u8() * 65536 + r.u16();
  const tier = tierAndLength >>> 12;
  const commandLength = tierAndLength & 0xfff;
  const commandType = r.u8();
  if (encrypted)
    return {
      info: {
        protocolVersion,
        encrypted,
        ptsAdjustment90k,
        tier,
        command: { type: 'other', commandType },
        segmentations: [],
      },
    };
  // 0xfff: a legacy length left unspecified; the command's own fields then say where it ends.
  if (commandLength !== 0xfff && commandLength > r.remaining())
    return { error: `splice_command_length ${commandLength} runs past the section` };
  const commandStart = r.at;
  const command = readCommand(r, commandType, ptsAdjustment90k);
  if (commandLength !== 0xfff) {
    if (command.type !== 'other' && r.at - commandStart !== commandLength)
      return {
        error: `splice command of ${r.at - commandStart} bytes, splice_command_length says ${commandLength}`,
      };
    r.at = commandStart + commandLength;
  } else if (command.type === 'other') return { error: 'an unknown splice command with no length' };
  const loopLength = r.u16();
  if (loopLength > r.remaining())
    return { error: `descriptor_loop_length ${loopLength} runs past the section` };
  const segmentations = readDescriptors(new Reader(bytes, r.at, r.at + loopLength));
  return { info: { protocolVersion, encrypted, ptsAdjustment90k, tier, command, segmentations } };
}

function readCommand(r: Reader, type: number, adjust: number): SpliceCommand {
  switch (type) {
    case 0x00:
      return { type: 'splice_null' };
    case 0x05:
      return readSpliceInsert(r, adjust);
    case 0x06:
      return { type: 'time_signal', ...optionalPts(readSpliceTime(r, adjust)) };
    default:
      return { type: 'other', commandType: type };
  }
}

function readSpliceInsert(r: Reader, adjust: number): SpliceInsert {
  const eventId = r.u32();
  const cancel = (r.u8() & 0x80) !== 0;
  const base = { type: 'splice_insert' as const, eventId, cancel };
  if (cancel)
    return {
      ...base,
      outOfNetwork: false,
      programSplice: true,
      immediate: false,
      uniqueProgramId: 0,
      availNum: 0,
      availsExpected: 0,
    };
  const flags = r.u8();
  const outOfNetwork = (flags & 0x80) !== 0;
  const programSplice = (flags & 0x40) !== 0;
  const hasDuration = (flags & 0x20) !== 0;
  const immediate = (flags & 0x10) !== 0;
  let pts90k: number | undefined;
  let components: SpliceInsert['components'];
  if (programSplice && !immediate) pts90k = readSpliceTime(r, adjust);
  if (!programSplice) {
    const count = r.u8();
    components = [];
    for (let i = 0; i < count; i++) {
      const tag = r.u8();
      components.push({ tag, ...optionalPts(immediate ? undefined : readSpliceTime(r, adjust)) });
    }
  }
  const breakDuration = hasDuration ? readBreakDuration(r) : undefined;
  const uniqueProgramId = r.u16();
  const availNum = r.u8();
  const availsExpected = r.u8();
  return {
    ...base,
    outOfNetwork,
    programSplice,
    immediate,
    ...optionalPts(pts90k),
    ...(components ? { components } : {}),
    ...(breakDuration ? { breakDuration } : {}),
    uniqueProgramId,
    availNum,
    availsExpected,
  };
}

/** splice_time() (§9.8.1): the adjusted pts, or undefined when time_specified_flag is 0. */
function readSpliceTime(r: Reader, adjust: number): number | undefined {
  const first = r.u8();
  if ((first & 0x80) === 0) return undefined;
  r.at--;
  return (r.bits33() + adjust) % PTS_WRAP;
}

function readBreakDuration(r: Reader): BreakDuration {
  const first = r.u8();
  r.at--;
  return { autoReturn: (first & 0x80) !== 0, duration90k: r.bits33() };
}

function optionalPts(pts90k: number | undefined): { pts90k?: number } {
  return pts90k === undefined ? {} : { pts90k };
}

/** The segmentation_descriptors (tag 0x02, identifier 'CUEI') of a descriptor loop; others skipped. */
function readDescriptors(r: Reader): SegmentationDescriptor[] {
  const out: SegmentationDescriptor[] = [];
  while (r.remaining() >= 2) {
    const tag = r.u8();
    const length = r.u8();
    if (length > r.remaining()) throw new RangeError(`descriptor of ${length} bytes runs past its loop`);
    const next = r.at + length;
    if (tag === 0x02 && length >= 9 && r.u32() === 0x43554549) {
      const eventId = r.u32();
      const cancel = (r.u8() & 0x80) !== 0;
      if (cancel) out.push({ eventId, cancel });
      else {
        const flags = r.u8();
        const programSegmentation = (flags & 0x80) !== 0;
        const hasDuration = (flags & 0x40) !== 0;
        // delivery_not_restricted_flag and the restriction flags share this byte (§10.3.3.1).
        if (!programSegmentation) {
          const count = r.u8();
          for (let i = 0; i < count; i++) r.at += 6;
        }
        let duration90k: number | undefined;
        if (hasDuration) {
          const high = r.u8();
          duration90k = high * 2 ** 32 + r.u32();
        }
        r.u8(); // segmentation_upid_type
        const upidLength = r.u8();
        r.at += upidLength; // segmentation_upid
        const typeId = r.u8();
        if (r.at > next) throw new RangeError('a segmentation_descriptor runs past its length');
        out.push({ eventId, cancel, typeId, ...(duration90k === undefined ? {} : { duration90k }) });
      }
    }
    r.at = next;
  }
  return out;
}
