import { H264_SPS, h264RecoveryFrameCount, h264SliceIsIntra, HEVC_SPS } from './h26x-nal.js';
import { ParameterSets } from './parameter-sets.js';
import { avcCodecString, parseH264Sps, parseHevcSps, parseMpeg2SequenceHeader } from './video-headers.js';

export type VideoCodec = 'h264' | 'hevc' | 'mp2v';

export interface VideoHeader {
  width: number;
  height: number;
  profile?: string;
  level?: string;
  /** RFC 6381 codec string for HLS, when known. */
  codecString?: string;
  /** The parameter set bytes, to notice when a new one differs. */
  raw: Buffer;
}

/** What the start of one access unit (a PES packet of video) turned out to be. */
export interface AccessUnitProbe {
  keyframe: boolean;
  header: VideoHeader | undefined;
  /**
   * For a keyframe that came without the parameter sets a decoder needs: the newest ones seen
   * (Annex B), to put in front of it where a segment starts.
   */
  parameterSets?: Buffer;
}

/** Bytes a probe may collect before it gives up on finding the first picture of an access unit. */
const PROBE_LIMIT = 64 * 1024;

/**
 * Reads the start of each video access unit until its first picture (slice) tells whether it is a
 * keyframe — a picture a decoder can start from, so a segment may begin there — picking up the
 * sequence header and parameter sets on the way. Keyframes are:
 * - H.264: IDR pictures; I-slice pictures with a recovery point SEI whose recovery_frame_cnt is 0
 *   (open GOP, §D.2.8), or flagged by the TS random_access_indicator (what muxers set on them);
 * - HEVC: IRAP pictures, NAL types 16–23 (BLA, IDR, CRA; H.265 §7.4.2.2);
 * - MPEG-2: I pictures after a sequence header in the same access unit.
 * Most access units decide within their first packet; x264's first frame carries a long SEI and
 * takes a few.
 */
export class VideoProbe {
  private bytes: Buffer = Buffer.alloc(0);
  private active = false;
  /** Where the next scan starts, so bytes already read are not read again. */
  private resumeAt = 0;
  private header: VideoHeader | undefined;
  private readonly parameterSets: ParameterSets | undefined;
  /** What the access unit being read said so far. */
  private randomAccess = false;
  private recoveryPoint = false;
  private sequenceHeader = false;

  /** `onDecided` is called once per access unit, in order, as soon as it is known. */
  constructor(
    private readonly codec: VideoCodec,
    private readonly onDecided: (probe: AccessUnitProbe) => void,
  ) {
    this.parameterSets = codec === 'mp2v' ? undefined : new ParameterSets(codec);
  }

  /**
   * Starts a new access unit; the previous one, if still undecided, is decided first.
   * `randomAccess`: the TS packet starting it had random_access_indicator set.
   */
  begin(data: Buffer, randomAccess = false): void {
    if (this.active) this.finish();
    this.bytes = Buffer.from(data);
    this.resumeAt = 0;
    this.active = true;
    this.randomAccess = randomAccess;
    this.recoveryPoint = false;
    this.sequenceHeader = false;
    this.parameterSets?.beginUnit();
    this.scan(false);
  }

  /** Adds bytes of the access unit being probed. */
  more(data: Buffer): void {
    if (!this.active) return;
    this.bytes = Buffer.concat([this.bytes, data]);
    if (this.bytes.length > PROBE_LIMIT) this.finish();
    else this.scan(false);
  }

  get isProbing(): boolean {
    return this.active;
  }

  /** Decides an access unit that ended before showing a picture: it is no keyframe. */
  private finish(): void {
    if (!this.scan(true)) this.decide(false);
  }

  /** `final`: no more bytes will come, so a header running to the end of the buffer is whole. Returns true once decided. */
  private scan(final: boolean): boolean {
    const b = this.bytes;
    let nalStart = nextStartCode(b, this.resumeAt);
    while (nalStart >= 0) {
      const next = nextStartCode(b, nalStart);
      const end = next >= 0 ? startCodeBegin(b, next) : b.length;
      const verdict = this.inspect(b, nalStart, end, next >= 0 || final);
      if (verdict === 'wait') {
        // Come back to this unit's start code when more bytes arrive.
        this.resumeAt = nalStart - 3;
        return false;
      }
      if (verdict !== 'continue') {
        this.decide(verdict === 'key');
        return true;
      }
      if (next < 0) {
        this.resumeAt = Math.max(nalStart, b.length - 3);
        return false;
      }
      nalStart = next;
    }
    this.resumeAt = Math.max(this.resumeAt, b.length - 3);
    return false;
  }

  private inspect(b: Buffer, s: number, end: number, whole: boolean): 'key' | 'delta' | 'wait' | 'continue' {
    if (s >= b.length) return 'wait';
    if (this.codec === 'h264') return this.inspectH264(b.subarray(s, end), whole);
    if (this.codec === 'hevc') {
      const type = (b[s]! >> 1) & 0x3f;
      if (this.parameterSets?.holds(type)) {
        if (!whole) return 'wait';
        const nal = b.subarray(s, end);
        this.parameterSets.remember(type, nal);
        if (type === HEVC_SPS) this.takeHevcSps(nal);
        return 'continue';
      }
      // VCL types are 0–31; 16–23 are the random access points (IRAP).
      if (type < 32) return type >= 16 && type <= 23 ? 'key' : 'delta';
      return 'continue';
    }
    const code = b[s]!;
    if (code === 0xb3) {
      if (end - s < 4) return whole ? 'continue' : 'wait';
      const size = parseMpeg2SequenceHeader(b.subarray(s + 1, end));
      if (size) this.header = { ...size, raw: Buffer.from(b.subarray(s, s + 8)) };
      this.sequenceHeader = true;
      return 'continue';
    }
    if (code === 0x00) {
      if (end - s < 3) return whole ? 'delta' : 'wait';
      // picture_coding_type follows the 10-bit temporal_reference; 1 is an I picture. Without a
      // sequence header before it, a decoder starting there knows neither size nor quantiser matrices.
      return ((b[s + 2]! >> 3) & 7) === 1 && this.sequenceHeader ? 'key' : 'delta';
    }
    return 'continue';
  }

  private inspectH264(nal: Buffer, whole: boolean): 'key' | 'delta' | 'wait' | 'continue' {
    const type = nal[0]! & 0x1f;
    if (this.parameterSets?.holds(type)) {
      if (!whole) return 'wait';
      this.parameterSets.remember(type, nal);
      if (type === H264_SPS) this.takeH264Sps(nal);
      return 'continue';
    }
    if (type === 6) {
      if (!whole) return 'wait';
      if (h264RecoveryFrameCount(nal) === 0) this.recoveryPoint = true;
      return 'continue';
    }
    if (type === 5) return 'key';
    if (type < 1 || type > 4) return 'continue';
    // A non-IDR picture is a cut point only if it is intra and says a decoder may start there.
    if (!this.recoveryPoint && !this.randomAccess) return 'delta';
    const intra = h264SliceIsIntra(nal);
    if (intra === undefined) return whole ? 'delta' : 'wait';
    return intra ? 'key' : 'delta';
  }

  private takeH264Sps(nal: Buffer): void {
    if (this.header?.raw.equals(nal)) return;
    const sps = parseH264Sps(nal);
    if (sps) this.header = { ...sps, codecString: avcCodecString(sps), raw: Buffer.from(nal) };
  }

  private takeHevcSps(nal: Buffer): void {
    if (this.header?.raw.equals(nal)) return;
    const sps = parseHevcSps(nal);
    if (sps)
      this.header = {
        width: sps.width,
        height: sps.height,
        profile: sps.profile,
        level: sps.level,
        raw: Buffer.from(nal),
      };
  }

  private decide(keyframe: boolean): void {
    this.active = false;
    this.bytes = Buffer.alloc(0);
    const parameterSets = keyframe ? this.parameterSets?.missingFromUnit() : undefined;
    this.onDecided(
      parameterSets ? { keyframe, header: this.header, parameterSets } : { keyframe, header: this.header },
    );
  }
}

/** Index just past the next 00 00 01 at or after `from`, or -1. */
function nextStartCode(b: Buffer, from: number): number {
  for (let i = from; i + 2 < b.length; i++) {
    if (b[i + 2]! > 1) {
      i += 2;
      continue;
    }
    if (b[i] === 0 && b[i + 1] === 0 && b[i + 2] === 1) return i + 3;
  }
  return -1;
}

/** Where the start code ending just before `afterCode` begins (a 4-byte code has a leading zero). */
function startCodeBegin(b: Buffer, afterCode: number): number {
  const begin = afterCode - 3;
  return begin > 0 && b[begin - 1] === 0 ? begin - 1 : begin;
}
