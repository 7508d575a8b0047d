import { randomBytes } from 'node:crypto';
import {
  MediaStream,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  type RTCRtpSender,
  RtpHeader,
  RtpPacket,
} from 'werift';
import { dtlsServerRole } from '../ingest/webrtc/webrtc-publish.js';
import type { CodecChoice } from './whep-sdp.js';
import type { AudioPacket, VideoFrame, WhepSink } from './whep-pipeline.js';

/** How long gathering this side's ICE candidates may take before the answer goes with what it has. */
const GATHER_TIMEOUT_MS = 5000;
/** A viewer whose connection never comes up (no ICE, no DTLS) is ended after this. */
const CONNECT_TIMEOUT_MS = 30_000;
/** A connection 'disconnected' for this long is ended. */
const LOST_TIMEOUT_MS = 10_000;

/**
 * One WHEP viewer: a werift peer connection sending the stream's H.264 (as the pipeline packetized
 * it) and Opus. Its video starts at a keyframe, so the first picture decodes. A PLI or FIR from the
 * player can't be answered with a new keyframe (the source's encoder is not ours, and the video is
 * passed through): the player is repaired at the next keyframe of the source (its GOP, 2 s for
 * `test://`), and lost packets are resent on NACK by werift from its history.
 */
export class WhepViewer implements WhepSink {
  readonly id = randomBytes(16).toString('hex');
  /** The ICE username fragment of the player's offer: a trickle PATCH must carry the same. */
  remoteUfrag: string | undefined;
  /** Bytes of media handed to the network since last read (for the session's bytes_sent). */
  unreportedBytes = 0;
  /** Picture loss reports (PLI, FIR) received. */
  pictureLossCount = 0;
  private readonly pc: RTCPeerConnection;
  private videoSender: RTCRtpSender | undefined;
  private audioSender: RTCRtpSender | undefined;
  private videoSeq = randomBytes(2).readUInt16BE();
  private audioSeq = randomBytes(2).readUInt16BE();
  private videoStarted = false;
  private connected = false;
  private ended = false;
  private readonly connectTimer: NodeJS.Timeout;
  private lostTimer: NodeJS.Timeout | undefined;

  constructor(
    choice: CodecChoice,
    /** Whether the stream has video: then sound waits for the first picture. */
    private readonly hasVideo: boolean,
    private readonly onEnd: (reason: string) => void,
  ) {
    this.pc = new RTCPeerConnection({
      codecs: {
        video: choice.video
          ? [
              new RTCRtpCodecParameters({
                mimeType: 'video/H264',
                clockRate: 90000,
                payloadType: choice.video.payloadType,
                rtcpFeedback: [
                  { type: 'nack' },
                  { type: 'nack', parameter: 'pli' },
                  { type: 'ccm', parameter: 'fir' },
                ],
              }),
            ]
          : [],
        audio: choice.audio
          ? [
              new RTCRtpCodecParameters({
                mimeType: 'audio/opus',
                clockRate: 48000,
                channels: 2,
                payloadType: choice.audio.payloadType,
              }),
            ]
          : [],
      },
      iceUseIpv6: false,
    });
    // The player gets one media stream holding both tracks, as its <video> wants them.
    const stream = new MediaStream({ id: `sluice-${this.id.slice(0, 8)}` });
    if (choice.video) {
      this.videoSender = this.pc.addTransceiver('video', { direction: 'sendonly', streams: [stream] }).sender;
      this.videoSender.onPictureLossIndication.subscribe(() => this.pictureLossCount++);
    }
    if (choice.audio)
      this.audioSender = this.pc.addTransceiver('audio', { direction: 'sendonly', streams: [stream] }).sender;
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') this.connected = true;
      if (state === 'failed' || state === 'closed') this.close(`peer connection ${state}`);
      // ICE may come back from 'disconnected' (a moment of loss); gone for this long, it is over.
      clearTimeout(this.lostTimer);
      if (state === 'disconnected')
        this.lostTimer = setTimeout(() => this.close('peer connection lost'), LOST_TIMEOUT_MS);
    });
    this.connectTimer = setTimeout(() => {
      if (!this.connected) this.close('no connection within 30 s');
    }, CONNECT_TIMEOUT_MS);
  }

  /** Takes the (codec-restricted) offer and returns the answer with this side's candidates. */
  async answer(offerSdp: string): Promise<string> {
    this.remoteUfrag = /^a=ice-ufrag:(\S+)/m.exec(offerSdp)?.[1];
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    const answer = await this.pc.createAnswer();
    // As in the publish path: werift as DTLS client fails on a retransmitted ClientHello answer.
    await this.pc.setLocalDescription({ type: 'answer', sdp: dtlsServerRole(answer.sdp) });
    await this.gathered();
    const sdp = this.pc.localDescription?.sdp;
    if (!sdp) throw new Error('no local description');
    return sdp;
  }

  /** A trickled candidate of the player (an `a=candidate:` line's value). */
  async addCandidate(candidate: string, mid: string | undefined): Promise<void> {
    await this.pc.addIceCandidate({
      candidate,
      sdpMid: mid,
      sdpMLineIndex: mid === undefined ? 0 : undefined,
    });
  }

  video(frame: VideoFrame): void {
    const sender = this.videoSender;
    if (!sender || !this.connected) return;
    if (!this.videoStarted && !frame.keyframe) return;
    this.videoStarted = true;
    const last = frame.payloads.length - 1;
    frame.payloads.forEach((payload, i) => {
      this.videoSeq = (this.videoSeq + 1) & 0xffff;
      this.send(sender, payload, frame.timestamp, this.videoSeq, i === last);
    });
  }

  audio(packet: AudioPacket): void {
    // Audio waits for the first picture: sound long before any picture is of no use to a player.
    if (!this.audioSender || !this.connected || (this.hasVideo && this.videoSender && !this.videoStarted))
      return;
    this.audioSeq = (this.audioSeq + 1) & 0xffff;
    this.send(this.audioSender, packet.payload, packet.timestamp, this.audioSeq, packet.marker);
  }

  close(reason = 'closed'): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.connectTimer);
    clearTimeout(this.lostTimer);
    void this.pc.close().catch(() => undefined);
    this.onEnd(reason);
  }

  private send(sender: RTCRtpSender, payload: Buffer, timestamp: number, seq: number, marker: boolean): void {
    // A packet object of its own: werift rewrites the header (SSRC, payload type) and keeps it for NACKs.
    const header = new RtpHeader({ sequenceNumber: seq, timestamp, marker });
    this.unreportedBytes += payload.length + 12;
    sender.sendRtp(new RtpPacket(header, payload)).catch(() => undefined);
  }

  private gathered(): Promise<void> {
    if (this.pc.iceGatheringState === 'complete') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
      const { unSubscribe } = this.pc.iceGatheringStateChange.subscribe((state) => {
        if (state !== 'complete') return;
        clearTimeout(timer);
        unSubscribe();
        resolve();
      });
    });
  }
}
