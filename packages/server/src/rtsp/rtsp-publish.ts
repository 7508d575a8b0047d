import { TsMuxer } from '../media/ts-muxer.js';
import { readRtp } from './rtp-packet.js';
import { aacFrames, adtsHeader, latmFrames, VideoDepacketizer } from './rtp-depacketize.js';
import { SAMPLE_RATES } from './rtp-packetize.js';
import type { AnnouncedTrack } from './sdp.js';
import { nalType, type VideoCodec } from './ts-units.js';

const START_CODE = Buffer.from([0, 0, 0, 1]);
/** Access unit delimiters (H.222 §2.14 wants one before each H.264/HEVC unit in MPEG-TS). */
const AUD: Record<VideoCodec, Buffer> = {
  h264: Buffer.from([0, 0, 0, 1, 0x09, 0xf0]),
  hevc: Buffer.from([0, 0, 0, 1, 0x46, 0x01, 0x50]),
};
const PARAMETER_SET_TYPES: Record<VideoCodec, number[]> = { h264: [7, 8], hevc: [32, 33, 34] };
const STREAM_TYPE: Record<VideoCodec, number> = { h264: 0x1b, hevc: 0x24 };
/** Where PTS start: room below for decode times that run ahead of presentation (B-frames). */
const PTS_ORIGIN = 90_000;

/** One track's RTP clock, turned into 90 kHz from the publish's start (first packet arrival). */
class TrackClock {
  private first: number | undefined;
  private last = 0;
  private extended = 0;
  private offset90k = 0;

  constructor(private readonly clockRate: number) {}

  /** 90 kHz time of an RTP timestamp; `sinceStartMs`: when this track's first packet came. */
  pts(rtp: number, sinceStartMs: number): number {
    if (this.first === undefined) {
      this.first = rtp;
      this.last = rtp;
      this.offset90k = PTS_ORIGIN + Math.round(sinceStartMs * 90);
    }
    // The signed 32-bit step since the last packet: wraps and small reorders both come out right.
    this.extended += (rtp - this.last) | 0;
    this.last = rtp;
    return this.offset90k + Math.round((this.extended * 90000) / this.clockRate);
  }
}

/**
 * A publisher's RTP made into the stream's MPEG-TS in process: H.264/HEVC access units and AAC
 * frames are depacketized and muxed by the live path's TsMuxer (no ffmpeg). Audio and video are
 * lined up by the arrival of each track's first packet. RTP carries presentation times only; the
 * decode times are the presentation times less the largest reordering seen (B-frames).
 */
export class RtspPublish {
  private readonly muxer: TsMuxer;
  private readonly byChannel = new Map<number, (payload: Buffer) => void>();
  private readonly startMs = Date.now();
  private parameterSets: Buffer[] = [];
  private maxPts: number | undefined;
  private reorder = 0;
  private lastDts: number | undefined;
  /** Packets that were not RTP, or not of a known track. */
  dropped = 0;

  constructor(tracks: readonly AnnouncedTrack[], serviceName: string, out: (ts: Buffer) => void) {
    const video = tracks.find((t) => t.kind === 'video');
    const audio = tracks.find((t) => t.kind === 'audio');
    this.muxer = new TsMuxer(out, {
      video: video !== undefined,
      audio: audio !== undefined,
      videoStreamType: video ? STREAM_TYPE[video.codec] : undefined,
      serviceName,
    });
    if (video?.kind === 'video') this.parameterSets = video.parameterSets;
  }

  /** Which track the RTP of `channel` (interleaved channel, or a UDP port's index) belongs to. */
  bind(channel: number, track: AnnouncedTrack): void {
    const clock = new TrackClock(track.kind === 'video' ? 90000 : track.clockRate);
    const since = () => Date.now() - this.startMs;
    if (track.kind === 'video') {
      const depacketizer = new VideoDepacketizer(track.codec, (nals, rtp) =>
        this.writeVideo(track.codec, nals, clock.pts(rtp, since())),
      );
      this.byChannel.set(channel, (payload) => {
        const packet = readRtp(payload);
        if (packet?.payloadType === track.payloadType) depacketizer.push(packet);
        else this.dropped++;
      });
      return;
    }
    const samples90k = (1024 * 90000) / (SAMPLE_RATES[track.frequencyIndex] ?? track.clockRate);
    this.byChannel.set(channel, (payload) => {
      const packet = readRtp(payload);
      const frames =
        packet?.payloadType === track.payloadType
          ? track.format === 'latm'
            ? latmFrames(packet.payload)
            : aacFrames(packet.payload, track.sizeLength, track.indexLength)
          : undefined;
      if (!packet || !frames) return void this.dropped++;
      const pts = clock.pts(packet.timestamp, since());
      frames.forEach((frame, i) => {
        const header = adtsHeader(track.objectType, track.frequencyIndex, track.channels, frame.length);
        this.muxer.writeAudio(Buffer.concat([header, frame]), Math.round(pts + i * samples90k));
      });
    });
  }

  /** RTP received on `channel`; RTCP (odd channels a track was not bound to) is ignored. */
  receive(channel: number, payload: Buffer): boolean {
    const handler = this.byChannel.get(channel);
    if (!handler) return false;
    handler(payload);
    return true;
  }

  private writeVideo(codec: VideoCodec, nals: Buffer[], pts: number): void {
    const types = nals.map((nal) => nalType(codec, nal));
    const keyframe = types.some((t) => (codec === 'h264' ? t === 5 : t >= 16 && t <= 21));
    const setTypes = PARAMETER_SET_TYPES[codec];
    // In-band parameter sets replace those of the SDP; a keyframe without them gets them first.
    const inBand = nals.filter((_, i) => setTypes.includes(types[i]!));
    if (inBand.length > 0) this.parameterSets = inBand.map((nal) => Buffer.from(nal));
    const parts = [AUD[codec]];
    if (keyframe && inBand.length === 0) for (const set of this.parameterSets) parts.push(START_CODE, set);
    for (let i = 0; i < nals.length; i++) {
      if (types[i] === (codec === 'h264' ? 9 : 35)) continue;
      parts.push(START_CODE, nals[i]!);
    }
    this.muxer.writeVideo(Buffer.concat(parts), this.decodeTime(pts), pts, keyframe);
  }

  private decodeTime(pts: number): number {
    if (this.maxPts !== undefined && pts < this.maxPts)
      this.reorder = Math.max(this.reorder, this.maxPts - pts);
    this.maxPts = Math.max(this.maxPts ?? pts, pts);
    let dts = pts - this.reorder;
    if (this.lastDts !== undefined && dts <= this.lastDts) dts = Math.min(pts, this.lastDts + 1);
    this.lastDts = dts;
    return dts;
  }
}
