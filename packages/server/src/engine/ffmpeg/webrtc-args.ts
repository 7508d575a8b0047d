import { head, liveH264Args } from './common-args.js';

/**
 * The ffmpeg side of WebRTC publishing (ingest/webrtc): the browser's RTP, decrypted by werift and
 * sent to local UDP ports, described to ffmpeg by an SDP text and turned into H.264/AAC in FLV, the
 * form every publish takes into a stream (the RTMP publish path).
 */

/** One received track as ffmpeg must be told of it. */
export interface RtpTrack {
  kind: 'video' | 'audio';
  /** Local UDP port the RTP goes to; RTCP (sender reports, for A/V sync) goes to port + 1. */
  port: number;
  payloadType: number;
  /** As in an rtpmap: VP8, H264, opus. */
  codec: string;
  clockRate: number;
  channels?: number;
  /** The fmtp parameters, when the codec has any (H.264 packetization-mode). */
  fmtp?: string;
}

/** The SDP ffmpeg reads on stdin: the tracks as plain RTP on 127.0.0.1 (werift already removed SRTP). */
export function rtpSdp(tracks: readonly RtpTrack[]): string {
  const lines = ['v=0', 'o=- 0 0 IN IP4 127.0.0.1', 's=Sluice WebRTC publish', 'c=IN IP4 127.0.0.1', 't=0 0'];
  for (const t of tracks) {
    lines.push(`m=${t.kind} ${t.port} RTP/AVP ${t.payloadType}`);
    const channels = t.channels && t.channels > 1 ? `/${t.channels}` : '';
    lines.push(`a=rtpmap:${t.payloadType} ${t.codec}/${t.clockRate}${channels}`);
    if (t.fmtp) lines.push(`a=fmtp:${t.payloadType} ${t.fmtp}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

export interface WebrtcIngestOptions {
  videoBitrateKbps: number;
  audioBitrateKbps: number;
  /** Keyframe spacing, which sets the HLS segment length of the stream. */
  keyframeSeconds: number;
  /** Output frames per second (frames are repeated or dropped to it). */
  frameRate: number;
  /**
   * The browser's H.264 is copied as it comes (no decode, no encode): its keyframes are asked for
   * every keyframeSeconds by the publisher (RTCP PLI) instead of made here.
   */
  videoCopy?: boolean;
}

export const WEBRTC_INGEST_DEFAULTS: WebrtcIngestOptions = {
  videoBitrateKbps: 1500,
  audioBitrateKbps: 128,
  keyframeSeconds: 2,
  frameRate: 30,
};

/**
 * ffmpeg reading the SDP on stdin, receiving the RTP it names, and writing H.264/AAC FLV on stdout.
 * VP8 is encoded to H.264 (HLS wants H.264 with steady keyframes); the browser's H.264 is copied
 * when `videoCopy` is set. Opus becomes AAC.
 */
export function webrtcIngestArgs(options: WebrtcIngestOptions = WEBRTC_INGEST_DEFAULTS): string[] {
  const { videoBitrateKbps, audioBitrateKbps, keyframeSeconds, frameRate, videoCopy } = options;
  return [
    ...head(),
    // The SDP comes on a pipe and names udp/rtp inputs; ffmpeg's default whitelist for sdp is file-only.
    '-protocol_whitelist',
    'pipe,udp,rtp',
    // Timestamps from arrival: the browser's RTP clocks start anywhere, and ffmpeg's own A/V sync
    // then holds even before the first sender report arrives.
    '-use_wallclock_as_timestamps',
    '1',
    '-f',
    'sdp',
    '-i',
    'pipe:0',
    // A webcam's frames come when they come: a constant rate, and steady keyframes for HLS.
    ...(videoCopy
      ? ['-c:v', 'copy']
      : liveH264Args(videoBitrateKbps, frameRate * keyframeSeconds, frameRate)),
    '-c:a',
    'aac',
    '-b:a',
    `${audioBitrateKbps}k`,
    '-ar',
    '48000',
    '-ac',
    '2',
    // FLV on a pipe can't be rewound to patch in duration and size at the end.
    '-flvflags',
    'no_duration_filesize',
    '-f',
    'flv',
    'pipe:1',
  ];
}
