import { randomBytes } from 'node:crypto';
import type { PacketBus } from '../media/packet-bus.js';
import { rtpHeader, senderReport } from './rtp-packet.js';
import { aacPayload, adtsConfig, adtsFrames, videoPayloads } from './rtp-packetize.js';
import type { DescribedTrack } from './sdp.js';
import { type MediaUnit, nalType, TsUnits, type VideoCodec } from './ts-units.js';

/** A player fed by a feed: RTP and RTCP per track index; false once it is gone or too far behind. */
export interface FeedPlayer {
  rtp(track: number, packet: Buffer): boolean;
  rtcp(track: number, packet: Buffer): boolean;
  /** The feed stopped (the stream stopped or restarted): the player's connection ends. */
  end(reason: string): void;
}

interface OutTrack {
  described: DescribedTrack;
  clockRate: number;
  ssrc: number;
  sequence: number;
  /** Random start of the RTP clock (RFC 3550 §5.1). */
  offset: number;
  lastTimestamp: number;
  packets: number;
  octets: number;
}

/** Where each track a player starts on begins: for RTP-Info. */
export interface TrackStart {
  sequence: number;
  timestamp: number;
}

/** RTP packets kept since the last keyframe, at most: a source without keyframes is not cached. */
const MAX_GOP_PACKETS = 8192;
const REPORT_EVERY_MS = 2000;

/**
 * One stream's RTP, built once for all its RTSP players: the stream's MPEG-TS is read into access
 * units (TsUnits), each is packetized once (RFC 6184/7798/3640) and the same bytes go to every
 * player. Packets since the last keyframe are kept, so a player joining starts on a keyframe at once.
 */
export class RtspFeed {
  readonly players = new Set<FeedPlayer>();
  /** When the feed last had a player, or was described (ms): idle feeds are stopped. */
  lastUsedMs = Date.now();
  private readonly units = new TsUnits((unit) => this.onUnit(unit));
  private readonly unsubscribe: () => void;
  private tracks: OutTrack[] | undefined;
  private videoSets = new Map<number, Buffer>();
  private videoCodec: VideoCodec | undefined;
  private audio: { sampleRate: number; channels: number; config: string } | undefined;
  private gop: { track: number; packet: Buffer }[] = [];
  private readonly sessionId = BigInt(`0x${randomBytes(6).toString('hex')}`).toString();
  /** The wall clock of the first unit's PTS, for sender reports. */
  private clockStart: { pts: number; ms: number } | undefined;
  private readonly reporter: NodeJS.Timeout;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly bus: PacketBus,
  ) {
    for (const part of bus.segmenter.liveStart()) this.units.push(part);
    this.unsubscribe = bus.subscribe((chunk) => this.units.push(chunk));
    this.reporter = setInterval(() => this.report(), REPORT_EVERY_MS);
    this.reporter.unref();
  }

  /** The SDP's tracks once every track of the stream has shown its codec setup; undefined before. */
  get described(): DescribedTrack[] | undefined {
    return this.tracks?.map((t) => t.described);
  }

  get sdpSessionId(): string {
    return this.sessionId;
  }

  stop(): void {
    clearInterval(this.reporter);
    this.unsubscribe();
    const players = [...this.players];
    this.players.clear();
    for (const player of players) player.end('the stream stopped or restarted');
  }

  /** Resolves with the SDP's tracks once known, or undefined after `timeoutMs`. */
  whenDescribed(timeoutMs: number): Promise<DescribedTrack[] | undefined> {
    if (this.tracks) return Promise.resolve(this.described);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(undefined);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(this.described);
      };
      this.waiters.add(done);
    });
  }

  /** Where a player added now starts on each track (its first packet): for RTP-Info. */
  starts(): TrackStart[] {
    return (this.tracks ?? []).map((t, index) => {
      const first = this.gop.find((p) => p.track === index)?.packet;
      return first
        ? { sequence: first.readUInt16BE(2), timestamp: first.readUInt32BE(4) }
        : { sequence: t.sequence & 0xffff, timestamp: t.lastTimestamp };
    });
  }

  /** Adds a player: it gets the packets since the last keyframe now, then everything live. */
  add(player: FeedPlayer, nowMs: number): void {
    const tracks = this.tracks ?? [];
    tracks.forEach((_, index) => player.rtcp(index, this.senderReport(index, nowMs)));
    for (const { track, packet } of this.gop) player.rtp(track, packet);
    this.players.add(player);
    this.lastUsedMs = nowMs;
  }

  remove(player: FeedPlayer): void {
    this.players.delete(player);
    this.lastUsedMs = Date.now();
  }

  private onUnit(unit: MediaUnit): void {
    this.clockStart ??= { pts: unit.pts, ms: Date.now() };
    if (!this.tracks) return this.learn(unit);
    const video = this.tracks.findIndex((t) => t.described.kind === 'video');
    const audio = this.tracks.findIndex((t) => t.described.kind === 'audio');
    if (unit.kind === 'video' && video >= 0) {
      if (unit.keyframe) this.gop = [];
      const payloads = videoPayloads(unit.codec, unit.nals);
      payloads.forEach((p) => this.send(video, p.data, unit.pts, p.last));
    } else if (unit.kind === 'audio' && audio >= 0) {
      adtsFrames(unit.adts).forEach((frame, i) => {
        const payload = aacPayload(frame);
        const rate = this.tracks![audio]!.clockRate;
        if (payload) this.send(audio, payload, unit.pts + Math.round((i * 1024 * 90000) / rate), true);
      });
    }
  }

  /** Before the SDP can be written: parameter sets from the first keyframe, the AAC setup from a frame. */
  private learn(unit: MediaUnit): void {
    if (unit.kind === 'video' && unit.keyframe) {
      this.videoCodec = unit.codec;
      const setTypes = unit.codec === 'h264' ? [7, 8] : [32, 33, 34];
      for (const nal of unit.nals) {
        const type = nalType(unit.codec, nal);
        if (setTypes.includes(type)) this.videoSets.set(type, Buffer.from(nal));
      }
    }
    if (unit.kind === 'audio') this.audio ??= adtsConfig(unit.adts);
    const needVideo = this.units.video !== undefined;
    const needAudio = this.units.audioPid !== undefined;
    const setsWanted = this.videoCodec === 'hevc' ? 3 : 2;
    const videoReady = !needVideo || (this.videoCodec !== undefined && this.videoSets.size >= setsWanted);
    if (!videoReady || (needAudio && !this.audio) || (!needVideo && !needAudio)) return;
    const tracks: OutTrack[] = [];
    const out = (described: DescribedTrack, clockRate: number): OutTrack => ({
      described,
      clockRate,
      ssrc: randomBytes(4).readUInt32BE(0),
      sequence: randomBytes(2).readUInt16BE(0),
      offset: randomBytes(4).readUInt32BE(0),
      lastTimestamp: 0,
      packets: 0,
      octets: 0,
    });
    if (needVideo && this.videoCodec) {
      const parameterSets = [...this.videoSets.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
      tracks.push(out({ kind: 'video', codec: this.videoCodec, payloadType: 96, parameterSets }, 90000));
    }
    if (needAudio && this.audio)
      tracks.push(out({ kind: 'audio', payloadType: 97, ...this.audio }, this.audio.sampleRate));
    this.tracks = tracks;
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
    // This unit (a keyframe, or audio) is the first one sent.
    this.onUnit(unit);
  }

  private rtpTime(track: OutTrack, pts: number): number {
    const ticks = track.clockRate === 90000 ? pts : Math.round((pts * track.clockRate) / 90000);
    return (ticks + track.offset) >>> 0;
  }

  private send(index: number, payload: Buffer, pts: number, marker: boolean): void {
    const track = this.tracks![index]!;
    const timestamp = this.rtpTime(track, pts);
    const packet = Buffer.concat([
      rtpHeader(track.described.payloadType, track.sequence, timestamp, track.ssrc, marker),
      payload,
    ]);
    track.sequence = (track.sequence + 1) & 0xffff;
    track.lastTimestamp = timestamp;
    track.packets++;
    track.octets += payload.length;
    if (this.gop.length < MAX_GOP_PACKETS) this.gop.push({ track: index, packet });
    for (const player of this.players) if (!player.rtp(index, packet)) this.players.delete(player);
  }

  private senderReport(index: number, nowMs: number): Buffer {
    const track = this.tracks![index]!;
    const start = this.clockStart ?? { pts: 0, ms: nowMs };
    const pts = start.pts + (nowMs - start.ms) * 90;
    return senderReport(track.ssrc, nowMs, this.rtpTime(track, pts), track.packets, track.octets);
  }

  private report(): void {
    if (!this.tracks || this.players.size === 0) return;
    const now = Date.now();
    this.lastUsedMs = now;
    this.tracks.forEach((_, index) => {
      const report = this.senderReport(index, now);
      for (const player of this.players) player.rtcp(index, report);
    });
  }
}
