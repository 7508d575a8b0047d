import { createSocket, type Socket } from 'node:dgram';
import { type MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, type RtpPacket } from 'werift';
import {
  type RtpTrack,
  rtpSdp,
  WEBRTC_INGEST_DEFAULTS,
  webrtcIngestArgs,
} from '../../engine/ffmpeg/webrtc-args.js';
import { Supervisor } from '../../engine/ffmpeg/supervisor.js';
import type { PublishAnswer } from '../../engine/publish-slots.js';
import type { PublishSink } from '../rtmp/rtmp-server.js';
import type { OfferCodecs } from './offer-codecs.js';
import { freeRtpPorts } from './rtp-ports.js';

/** The payload types ffmpeg is told of; forwarded packets are rewritten to them. */
const VIDEO_PT = 96;
const AUDIO_PT = 111;
/** Until ffmpeg writes its first output, the browser is asked for a keyframe this often. */
const KEYFRAME_ASK_MS = 1000;
/** A publish with no media out of ffmpeg by then (not connected, nothing sent) is given up. */
const START_TIMEOUT_MS = 20_000;
/**
 * A publish whose browser has sent no RTP for this long is ended: a publisher that closes its peer
 * connection without a word (Flussonic's Publisher sends no WHIP DELETE) would otherwise hold the
 * stream's WebRTC publish, its ffmpeg and its ports until the stream's source timeout, if it has one.
 */
const SILENCE_MS = 10_000;

/**
 * The answer with this side as the DTLS server (`a=setup:passive`; werift answers `active`). As
 * DTLS client, werift fails the handshake when its ClientHello is answered twice — which happens
 * whenever the publisher takes over 0.5 s (its first retransmission) to answer, as a loaded
 * machine does — and the publish ended at once with "peer connection failed". As DTLS server it
 * answers the publisher's retransmitted flights again, and a browser's DTLS client handles them.
 */
export function dtlsServerRole(answerSdp: string): string {
  return answerSdp.replace(/^a=setup:(?:active|actpass)(?=\r?$)/gm, 'a=setup:passive');
}

export interface WebrtcPublishOptions {
  /** The codecs chosen from the offer (offer-codecs.ts): the peer connection takes only these. */
  codecs: Pick<OfferCodecs, 'video' | 'audio'>;
  /**
   * Takes the stream's publish slot, as an RTMP publish does, giving the sink for the FLV (or why
   * not). Asked once ffmpeg has media, not at the offer: the stream's source timeout counts from
   * the publish's start, and ICE, DTLS and ffmpeg's probing can take longer than a short one.
   */
  acquire: () => PublishAnswer | Promise<PublishAnswer>;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  /** Lines for the server's log (ffmpeg's errors). */
  log: (line: string) => void;
  /** Called once the stream has taken the publish (its media flows into the stream). */
  onLive?: () => void;
  /** Called once when the publish ends, whatever ended it; `refused` when the stream did not take it. */
  onEnd: (reason: string, refused: boolean) => void;
}

/**
 * One browser publishing over WebRTC (the WHIP endpoint or the publish websocket): werift answers
 * its offer and receives its H.264 or VP8 and its Opus; the RTP goes to ffmpeg over local UDP, and
 * ffmpeg's H.264/AAC FLV goes to the stream's publish sink, exactly as an RTMP publisher's FLV does.
 * H.264 is copied, VP8 encoded. It ends when the peer disconnects, ffmpeg exits, the publish is
 * kicked (password, max bitrate, on_publish) or `close()` is called (socket closed, WHIP DELETE).
 */
export class WebrtcPublish {
  private readonly pc: RTCPeerConnection;
  private udp: Socket | undefined;
  private ffmpeg: Supervisor | undefined;
  private keyframeTimer: NodeJS.Timeout | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  /** When the last RTP came; undefined before the first (the start has its own timeout). */
  private lastRtpAt: number | undefined;
  private startTimer: NodeJS.Timeout | undefined;
  private videoSsrc: number | undefined;
  private outputSeen = false;
  private sink: PublishSink | undefined;
  private held: Buffer[] = [];
  private ended = false;
  /** Where each kind's RTP goes (ffmpeg's input ports), once chosen. */
  private ports = new Map<string, number>();

  constructor(private readonly options: WebrtcPublishOptions) {
    const { video, audio } = options.codecs;
    // Only the codec chosen from the offer: werift then answers with it alone.
    this.pc = new RTCPeerConnection({
      codecs: {
        video: video
          ? [
              new RTCRtpCodecParameters({
                mimeType: `video/${video.codec}`,
                clockRate: 90000,
                payloadType: VIDEO_PT,
                rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
              }),
            ]
          : [],
        audio: audio
          ? [
              new RTCRtpCodecParameters({
                mimeType: 'audio/opus',
                clockRate: 48000,
                channels: 2,
                payloadType: AUDIO_PT,
              }),
            ]
          : [],
      },
      iceUseIpv6: false,
    });
    // Tracks are announced while the offer is taken, before the ports are known: looked up per packet.
    this.pc.onTrack.subscribe((track: MediaStreamTrack) => {
      track.onReceiveRtp.subscribe((rtp: RtpPacket) => {
        const port = this.ports.get(track.kind);
        if (port !== undefined) this.forward(rtp, track, port);
      });
    });
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'closed') this.end(`peer connection ${state}`);
    });
  }

  /** Takes the browser's offer (its candidates included) and returns the answer, candidates gathered. */
  async answer(offerSdp: string): Promise<string> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    const kinds = new Set(this.pc.getTransceivers().map((t) => t.kind));
    if (!kinds.has('video') && !kinds.has('audio')) throw new Error('the offer has no audio or video');
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription({ type: 'answer', sdp: dtlsServerRole(answer.sdp) });
    await this.gathered();
    const sdp = this.pc.localDescription?.sdp;
    if (!sdp) throw new Error('no local description');
    await this.startForwarding(kinds);
    // The socket may have closed meanwhile: nothing may be left running.
    if (this.ended) throw new Error('the publish ended while answering');
    this.startTimer = setTimeout(() => this.end('no media from the browser'), START_TIMEOUT_MS);
    this.silenceTimer = setInterval(() => {
      const silent = this.lastRtpAt !== undefined && Date.now() - this.lastRtpAt > SILENCE_MS;
      if (silent) this.end(`no media from the browser for ${SILENCE_MS / 1000} s`);
    }, 1000);
    return sdp;
  }

  /** A candidate the publisher trickled (WHIP PATCH): `a=candidate:…` without the `a=`. */
  async addCandidate(candidate: string, sdpMid: string | undefined): Promise<void> {
    if (this.ended) return;
    await this.pc.addIceCandidate({ candidate, sdpMid });
  }

  /** Whether the browser's H.264 is copied rather than encoded again. */
  get passthrough(): boolean {
    return this.options.codecs.video?.codec === 'H264';
  }

  /** Ends the publish (the socket closed, or anything else); safe to call more than once. */
  close(reason = 'closed'): void {
    this.end(reason);
  }

  private gathered(): Promise<void> {
    if (this.pc.iceGatheringState === 'complete') return Promise.resolve();
    return new Promise((resolve) => {
      const { unSubscribe } = this.pc.iceGatheringStateChange.subscribe((state) => {
        if (state !== 'complete') return;
        unSubscribe();
        resolve();
      });
    });
  }

  private async startForwarding(kinds: Set<string>): Promise<void> {
    const ports = await freeRtpPorts(kinds.size);
    if (this.ended) return;
    const tracks: RtpTrack[] = [];
    const portOf = new Map<string, number>();
    const { video } = this.options.codecs;
    if (kinds.has('video') && video) {
      const port = ports[tracks.length]!;
      portOf.set('video', port);
      // ffmpeg's H.264 depacketizer reads packetization-mode (and the profile) from the fmtp.
      const fmtp = video.codec === 'H264' ? video.fmtp : undefined;
      tracks.push({ kind: 'video', port, payloadType: VIDEO_PT, codec: video.codec, clockRate: 90000, fmtp });
    }
    if (kinds.has('audio')) {
      const port = ports[tracks.length]!;
      portOf.set('audio', port);
      tracks.push({
        kind: 'audio',
        port,
        payloadType: AUDIO_PT,
        codec: 'opus',
        clockRate: 48000,
        channels: 2,
      });
    }
    const udp = createSocket('udp4');
    udp.on('error', (error) => this.options.log(`webrtc forward: ${error.message}`));
    this.udp = udp;
    this.ports = portOf;
    this.ffmpeg = this.startFfmpeg(rtpSdp(tracks));
    // Copied H.264 has keyframes only when asked: asked every keyframe interval (HLS segments).
    const every = this.passthrough ? WEBRTC_INGEST_DEFAULTS.keyframeSeconds * 1000 : KEYFRAME_ASK_MS;
    if (kinds.has('video')) this.keyframeTimer = setInterval(() => this.askKeyframe(), every);
  }

  private forward(rtp: RtpPacket, track: MediaStreamTrack, port: number): void {
    if (this.ended || !this.udp) return;
    this.lastRtpAt = Date.now();
    // Only the media itself: another payload type than the negotiated codec's (RTX, FEC) is dropped.
    const negotiated = track.codec?.payloadType;
    if (negotiated !== undefined && rtp.header.payloadType !== negotiated) return;
    // ffmpeg was told fixed payload types; the browser's offer chose its own.
    rtp.header.payloadType = track.kind === 'video' ? VIDEO_PT : AUDIO_PT;
    if (track.kind === 'video') this.videoSsrc = rtp.header.ssrc;
    this.udp.send(rtp.serialize(), port, '127.0.0.1');
  }

  /** ffmpeg can only start decoding at a keyframe, and the browser sends one only at start or when asked. */
  private askKeyframe(): void {
    if (this.outputSeen && !this.passthrough) return clearInterval(this.keyframeTimer);
    const receiver = this.pc.getTransceivers().find((t) => t.kind === 'video')?.receiver;
    if (receiver && this.videoSsrc !== undefined)
      void receiver.sendRtcpPLI(this.videoSsrc).catch(() => undefined);
  }

  private startFfmpeg(sdp: string): Supervisor {
    const ffmpeg = new Supervisor({
      binary: this.options.ffmpegPath,
      args: webrtcIngestArgs({ ...WEBRTC_INGEST_DEFAULTS, videoCopy: this.passthrough }),
      env: this.options.env,
      withStdin: true,
      // A publish is not restarted: when ffmpeg goes, so does the publish.
      restart: false,
      logLines: 50,
      onStdout: (chunk) => this.output(chunk),
      // ffmpeg's errors only: its info lines for every publish would flood the server log.
      onLine: (line) => /\[(error|fatal)\]/.test(line) && this.options.log(line),
      onStateChange: (to) => {
        if (to !== 'finished' && to !== 'failed' && to !== 'killed') return;
        this.end(`ffmpeg ${to}${ffmpeg.status().lastError ? `: ${ffmpeg.status().lastError}` : ''}`);
      },
    });
    ffmpeg.start();
    ffmpeg.stdin?.end(sdp);
    return ffmpeg;
  }

  /** ffmpeg's FLV: held while the slot is being taken, then written to the sink. */
  private output(chunk: Buffer): void {
    if (this.ended) return;
    if (this.sink) return this.sink.write(chunk);
    this.held.push(chunk);
    if (this.outputSeen) return;
    this.outputSeen = true;
    clearTimeout(this.startTimer);
    Promise.resolve()
      .then(() => this.options.acquire())
      .then(
        (answer) => {
          if ('refused' in answer) return this.end(answer.refused, true);
          if (this.ended) return answer.end();
          this.sink = answer;
          this.options.onLive?.();
          answer.attach?.(() => this.end('disconnected by the server'));
          for (const held of this.held) answer.write(held);
          this.held = [];
        },
        (error: Error) => this.end(`publish failed: ${error.message}`),
      );
  }

  private end(reason: string, refused = false): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keyframeTimer);
    clearInterval(this.silenceTimer);
    clearTimeout(this.startTimer);
    this.sink?.end();
    this.held = [];
    this.udp?.close();
    void this.ffmpeg?.stop();
    void this.pc.close().catch(() => undefined);
    this.options.onEnd(reason, refused);
  }
}
