import { type FlvTag, FlvTagReader, flvTagBytes } from './flv-tags.js';
import { TsMuxer } from './ts-muxer.js';

const FLV_AUDIO = 8;
const FLV_VIDEO = 9;
const CODEC_AVC = 7;
const SOUND_AAC = 10;
/** How long after the first keyframe audio may still show up before the stream is taken for video only. */
const AUDIO_WAIT_MS = 1000;
/** Audio frames seen without video before the stream is taken for audio only. */
const AUDIO_ONLY_AFTER = 50;
/** FLV held while deciding: beyond this the publish goes to ffmpeg. */
const MAX_UNDECIDED_BYTES = 8 * 1024 * 1024;
/** An access unit delimiter: each H.264 access unit in MPEG-TS starts with one (H.222 §2.14). */
const AUD = Buffer.from([0, 0, 0, 1, 0x09, 0xf0]);
const START_CODE = Buffer.from([0, 0, 0, 1]);

/** An AVC NAL-units tag (AVCPacketType 1) of frame type 1. */
const isKeyframe = (p: FlvTag) => p.data[0]! >> 4 === 1 && p.data[1] === 1;

export type FlvVerdict = 'deciding' | 'native' | 'unsupported';

/**
 * Repackages an RTMP publish (FLV tags) to MPEG-TS in process, for H.264 and AAC, which is what
 * encoders publish: length-prefixed NAL units become Annex B with SPS/PPS before each keyframe,
 * raw AAC frames get ADTS headers, FLV milliseconds become 90 kHz PTS/DTS. Anything else
 * (HEVC, MP3…) is `unsupported`, and the caller hands the FLV so far to ffmpeg instead.
 */
export class FlvToTs {
  private readonly parser = new FlvTagReader((tag) => this.onTag(tag));
  private verdict: FlvVerdict = 'deciding';
  private held: Buffer[] = [];
  private heldBytes = 0;
  private pending: FlvTag[] = [];
  private muxer: TsMuxer | undefined;
  private nalLengthSize = 4;
  private parameterSets: Buffer[] = [];
  private audioConfig: { objectType: number; frequencyIndex: number; channels: number } | undefined;
  /** The tracks the program tables list: a track that shows up later is left out. */
  private tracks = { video: false, audio: false };
  private sawVideo = false;
  private sawAudio = false;
  private audioFrames = 0;

  /** `serviceName`: what the SDT calls the service (the stream name). */
  constructor(
    private readonly out: (packets: Buffer) => void,
    private readonly options: { serviceName?: string } = {},
  ) {}

  /**
   * Feeds FLV bytes; tells whether they go through in process, still wait, or need ffmpeg. The
   * tags are read in place, without a copy: the caller gives each buffer once and never reuses it.
   */
  push(flv: Buffer): FlvVerdict {
    if (this.verdict === 'unsupported') return this.verdict;
    if (this.verdict === 'deciding') {
      this.held.push(flv);
      this.heldBytes += flv.length;
      if (this.heldBytes > MAX_UNDECIDED_BYTES) this.verdict = 'unsupported';
    }
    if (this.parser.push(flv)) this.verdict = 'unsupported';
    if (this.verdict !== 'deciding') this.held = this.verdict === 'native' ? [] : this.held;
    return this.verdict;
  }

  /**
   * One tag given as its parts, `body` valid during the call only (RTMP's reused message buffer):
   * once native, muxed from it straight away; while deciding, kept as FLV bytes (a copy).
   */
  pushTag(type: number, timestampMs: number, body: Buffer): FlvVerdict {
    if (this.verdict !== 'native') return this.push(flvTagBytes(type, timestampMs, body));
    this.onTag({ type, timestampMs, data: body });
    return this.verdict;
  }

  /** The FLV received while deciding, for ffmpeg to start from when the verdict is `unsupported`. */
  takeHeld(): Buffer {
    const all = Buffer.concat(this.held);
    this.held = [];
    return all;
  }

  private onTag(packet: FlvTag): void {
    if (this.verdict === 'unsupported') return;
    const data = packet.data;
    if (data.length === 0) return;
    if (packet.type === FLV_VIDEO) {
      if ((data[0]! & 0x0f) !== CODEC_AVC) return void (this.verdict = 'unsupported');
      this.sawVideo = true;
    } else if (packet.type === FLV_AUDIO) {
      if (data[0]! >> 4 !== SOUND_AAC) return void (this.verdict = 'unsupported');
    } else {
      return;
    }
    if (!this.muxer) {
      this.pending.push(packet);
      this.decide(packet);
      return;
    }
    this.write(packet);
  }

  /**
   * Starts muxing once the tracks are known: at the first video keyframe when audio was seen too
   * (or none came within a second of it: video only), or after enough audio alone. Waiting for the
   * audio matters: its first tag is what says whether it is AAC.
   */
  private decide(packet: FlvTag): void {
    if (packet.type === FLV_AUDIO) {
      this.sawAudio = true;
      if (packet.data[1] === 1) this.audioFrames++;
    }
    const keyIndex = this.pending.findIndex((p) => p.type === FLV_VIDEO && isKeyframe(p));
    if (keyIndex < 0) {
      if (!this.sawVideo && this.audioFrames >= AUDIO_ONLY_AFTER) this.start(0);
      return;
    }
    if (!this.sawAudio && packet.timestampMs - this.pending[keyIndex]!.timestampMs < AUDIO_WAIT_MS) return;
    this.start(keyIndex);
  }

  private start(from: number): void {
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) if (p.data[1] === 0) this.configure(p);
    this.tracks = { video: this.sawVideo, audio: this.audioConfig !== undefined };
    this.muxer = new TsMuxer(this.out, { ...this.tracks, serviceName: this.options.serviceName });
    this.verdict = 'native';
    // What came before the first keyframe can't be decoded: the stream starts at it.
    for (const p of pending.slice(from)) this.write(p);
  }

  private configure(packet: FlvTag): void {
    if (packet.type === FLV_VIDEO) this.readAvcConfig(packet.data.subarray(5));
    else this.readAacConfig(packet.data.subarray(2));
  }

  private write(packet: FlvTag): void {
    const data = packet.data;
    if (data[1] === 0) return this.configure(packet);
    const dts = packet.timestampMs * 90;
    if (packet.type === FLV_VIDEO) {
      if (!this.tracks.video) return;
      // composition time: a signed 24-bit millisecond offset of PTS from DTS.
      const cts = (data.readUIntBE(2, 3) << 8) >> 8;
      const keyframe = data[0]! >> 4 === 1;
      this.muxer!.writeVideo(this.annexB(data.subarray(5), keyframe), dts, dts + cts * 90, keyframe);
    } else if (this.tracks.audio && this.audioConfig && this.muxer) {
      const raw = data.subarray(2);
      this.muxer.writeAudio([this.adtsHeader(raw.length), raw], dts);
    }
  }

  /** AVCDecoderConfigurationRecord (ISO 14496-15 §5.2.4.1): NAL length size, SPS and PPS. */
  private readAvcConfig(record: Buffer): void {
    if (record.length < 7) return;
    this.nalLengthSize = (record[4]! & 0x03) + 1;
    const sets: Buffer[] = [];
    let o = 5;
    for (const countMask of [0x1f, 0xff]) {
      const count = record[o++]! & countMask;
      for (let i = 0; i < count && o + 2 <= record.length; i++) {
        const length = record.readUInt16BE(o);
        // A copy: the record may be a view of a buffer its sender reuses (pushTag).
        sets.push(START_CODE, Buffer.from(record.subarray(o + 2, o + 2 + length)));
        o += 2 + length;
      }
    }
    this.parameterSets = sets;
  }

  /** AudioSpecificConfig (ISO 14496-3 §1.6.2.1): object type, sampling frequency index, channels. */
  private readAacConfig(config: Buffer): void {
    if (config.length < 2) return;
    this.audioConfig = {
      objectType: config[0]! >> 3,
      frequencyIndex: ((config[0]! & 0x07) << 1) | (config[1]! >> 7),
      channels: (config[1]! >> 3) & 0x0f,
    };
  }

  /** The access unit as Annex B, in pieces (views of the tag) the muxer copies straight into packets. */
  private annexB(nals: Buffer, keyframe: boolean): Buffer[] {
    const parts: Buffer[] = [AUD];
    if (keyframe) parts.push(...this.parameterSets);
    for (let o = 0; o + this.nalLengthSize <= nals.length;) {
      const length = nals.readUIntBE(o, this.nalLengthSize);
      const nal = nals.subarray(o + this.nalLengthSize, o + this.nalLengthSize + length);
      o += this.nalLengthSize + length;
      // The delimiter is written above; one in the stream too would make two.
      if (nal.length > 0 && (nal[0]! & 0x1f) !== 9) parts.push(START_CODE, nal);
    }
    return parts;
  }

  /** A 7-byte ADTS header without CRC (ISO 14496-3 §1.A.2.2). */
  private adtsHeader(rawLength: number): Buffer {
    const { objectType, frequencyIndex, channels } = this.audioConfig!;
    const length = rawLength + 7;
    return Buffer.from([
      0xff,
      0xf1,
      (((objectType - 1) & 3) << 6) | (frequencyIndex << 2) | (channels >> 2),
      ((channels & 3) << 6) | (length >> 11),
      (length >> 3) & 0xff,
      ((length & 7) << 5) | 0x1f,
      0xfc,
    ]);
  }
}
