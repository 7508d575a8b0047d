import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';
import { H264Units, packetizeH264 } from './h264-rtp.js';
import { OpusFeed } from './opus-feed.js';
import { RtpClock } from './rtp-clock.js';
import { TsH264Reader } from './ts-h264-reader.js';

/** One access unit ready for RTP: every viewer sends the same payloads under its own sequence numbers. */
export interface VideoFrame {
  keyframe: boolean;
  /** RTP timestamp (90 kHz). */
  timestamp: number;
  payloads: Buffer[];
}

/** One Opus packet: the timestamp rebased so that restarts of the audio ffmpeg leave no jump. */
export interface AudioPacket {
  timestamp: number;
  marker: boolean;
  payload: Buffer;
}

/** What the pipeline hands each viewer. */
export interface WhepSink {
  video(frame: VideoFrame): void;
  audio(packet: AudioPacket): void;
}

export interface PipelineContext {
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/** How often the pipeline looks whether the stream moved to a new bus (a restart, a transcoder). */
const BUS_CHECK_MS = 500;

/**
 * One stream's WebRTC media, shared by all its viewers: H.264 access units read from the stream's
 * packet bus and packetized once (RFC 6184, no re-encoding), the audio through one ffmpeg to Opus.
 * It runs while it has viewers; the last one leaving stops it.
 */
export class WhepPipeline {
  private readonly viewers = new Set<WhepSink>();
  private bus: PacketBus | undefined;
  private unsubscribe: (() => void) | undefined;
  private reader: TsH264Reader | undefined;
  private feed: Promise<OpusFeed | undefined> | undefined;
  /** The audio ffmpeg once it has started (chunks before that are not needed: it starts from the tables). */
  private audio: OpusFeed | undefined;
  private readonly units = new H264Units();
  private readonly videoClock = new RtpClock(90_000);
  private readonly audioClock = new RtpClock(48_000);
  private audioSsrc: number | undefined;
  private readonly watch: NodeJS.Timeout;
  /** While priming with the open GOP: parameter sets and tables are learnt, nothing is sent. */
  private priming = false;

  constructor(
    private readonly runtime: StreamRuntime,
    private readonly context: PipelineContext,
    private readonly onIdle: () => void,
  ) {
    this.watch = setInterval(() => this.follow(), BUS_CHECK_MS);
    this.follow();
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  add(viewer: WhepSink): void {
    this.viewers.add(viewer);
  }

  remove(viewer: WhepSink): void {
    if (!this.viewers.delete(viewer) || this.viewers.size > 0) return;
    this.stop();
    this.onIdle();
  }

  stop(): void {
    clearInterval(this.watch);
    this.detach();
  }

  /** Attaches to the stream's current bus, if it changed since. */
  private follow(): void {
    const bus = this.runtime.bus;
    if (bus === this.bus) return;
    this.detach();
    if (bus) this.attach(bus);
  }

  private attach(bus: PacketBus): void {
    this.bus = bus;
    const reader = new TsH264Reader((unit) => this.onVideo(unit.pts, unit.data));
    this.reader = reader;
    // A new source starts a new timeline: RTP timestamps go on from where the last left.
    this.videoClock.restart();
    this.priming = true;
    for (const part of bus.segmenter.liveStart()) reader.push(part);
    this.priming = false;
    // A stream just (re)started knows its tracks only later: the audio ffmpeg starts once one is audio.
    let seenTracks = -1;
    const startAudio = () => {
      if (this.feed || seenTracks === bus.demux.tracksVersion) return;
      seenTracks = bus.demux.tracksVersion;
      if (bus.demux.tracks(Date.now()).some((t) => t.content === 'audio')) this.feed = this.startFeed(bus);
    };
    startAudio();
    this.unsubscribe = bus.subscribe((packets) => {
      reader.push(packets);
      startAudio();
      if (this.audio) this.audio.write(reader.audioPackets(packets));
    });
  }

  private detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.bus = undefined;
    this.reader = undefined;
    this.audio = undefined;
    const feed = this.feed;
    this.feed = undefined;
    void feed?.then((f) => f?.close());
  }

  private startFeed(bus: PacketBus): Promise<OpusFeed | undefined> {
    return OpusFeed.start(
      {
        ffmpegPath: this.context.ffmpegPath,
        env: this.context.env,
        log: this.context.log,
        onPacket: (datagram) => this.onAudio(datagram),
      },
      // Only the tables: the open GOP's audio, seconds old, would come out at once, and a
      // viewer's jitter buffer would hold that much delay for a long while.
      () => [this.reader?.audioPackets(bus.demux.psiPackets) ?? bus.demux.psiPackets],
    ).then(
      (feed) => {
        // Still the bus it was started for: else detach() has closed it (or will).
        if (this.bus === bus) this.audio = feed;
        return feed;
      },
      (error: Error) => {
        this.context.log(`webrtc audio for ${this.runtime.name} did not start: ${error.message}`);
        return undefined;
      },
    );
  }

  private onVideo(pts: number, data: Buffer): void {
    const unit = this.units.take(data);
    if (this.priming || unit.units.length === 0) return;
    const frame: VideoFrame = {
      keyframe: unit.keyframe,
      timestamp: this.videoClock.map(pts, 3000),
      payloads: packetizeH264(unit.units),
    };
    for (const viewer of this.viewers) viewer.video(frame);
  }

  private onAudio(datagram: Buffer): void {
    // An RTP header of 12 bytes, version 2, no CSRC or extension (what ffmpeg's muxer writes).
    if (datagram.length <= 12 || datagram[0]! >> 6 !== 2) return;
    const ssrc = datagram.readUInt32BE(8);
    // A restarted ffmpeg picks a new SSRC and timestamp base.
    if (ssrc !== this.audioSsrc) {
      this.audioSsrc = ssrc;
      this.audioClock.restart();
    }
    const packet: AudioPacket = {
      timestamp: this.audioClock.map(datagram.readUInt32BE(4), 960),
      marker: (datagram[1]! & 0x80) !== 0,
      payload: datagram.subarray(12 + (datagram[0]! & 0x0f) * 4),
    };
    for (const viewer of this.viewers) viewer.audio(packet);
  }
}
