import { RTCPeerConnection, type RtpPacket } from 'werift';

/** What a viewer received: RTP per kind, and the NAL type the first video payload started with. */
export interface WhepReception {
  videoPackets: number;
  audioPackets: number;
  /** NAL types seen in the first video packets (single units, or the unit inside FU-A/STAP-A). */
  firstVideoNalTypes: number[];
  videoPayloadType: number | undefined;
}

export interface WhepClient {
  status: number;
  location: string | undefined;
  etag: string | undefined;
  answer: string;
  /** The offer as sent. */
  offer: string;
  reception: WhepReception;
  pc: RTCPeerConnection;
  close: () => Promise<void>;
}

/**
 * A WHEP viewer in Node (werift): offers recvonly H.264 + Opus, posts the offer, applies the
 * answer and counts what arrives. Not a product client: the tests' and bench's player.
 */
export async function whepPlay(
  url: string,
  options: { headers?: Record<string, string>; mangleOffer?: (sdp: string) => string } = {},
): Promise<WhepClient> {
  const { RTCRtpCodecParameters } = await import('werift');
  const pc = new RTCPeerConnection({
    codecs: {
      video: [
        new RTCRtpCodecParameters({
          mimeType: 'video/H264',
          clockRate: 90000,
          payloadType: 102,
          parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
          rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
        }),
      ],
      audio: [
        new RTCRtpCodecParameters({
          mimeType: 'audio/opus',
          clockRate: 48000,
          channels: 2,
          payloadType: 111,
        }),
      ],
    },
    iceUseIpv6: false,
  });
  const reception: WhepReception = {
    videoPackets: 0,
    audioPackets: 0,
    firstVideoNalTypes: [],
    videoPayloadType: undefined,
  };
  pc.addTransceiver('video', { direction: 'recvonly' }).onTrack.subscribe((track) =>
    track.onReceiveRtp.subscribe((rtp: RtpPacket) => {
      reception.videoPackets++;
      reception.videoPayloadType = rtp.header.payloadType;
      if (reception.firstVideoNalTypes.length < 4) reception.firstVideoNalTypes.push(nalTypeOf(rtp.payload));
    }),
  );
  pc.addTransceiver('audio', { direction: 'recvonly' }).onTrack.subscribe((track) =>
    track.onReceiveRtp.subscribe(() => reception.audioPackets++),
  );
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve());
  });
  const offer = options.mangleOffer
    ? options.mangleOffer(pc.localDescription!.sdp)
    : pc.localDescription!.sdp;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', ...options.headers },
    body: offer,
  });
  const answer = await response.text();
  const location = response.headers.get('location') ?? undefined;
  if (response.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  return {
    status: response.status,
    location,
    etag: response.headers.get('etag') ?? undefined,
    answer,
    offer,
    reception,
    pc,
    close: () => pc.close(),
  };
}

/** The NAL unit type an H.264 RTP payload carries (the fragmented unit's for FU-A, 24 for STAP-A). */
function nalTypeOf(payload: Buffer): number {
  const type = payload[0]! & 0x1f;
  return type === 28 ? payload[1]! & 0x1f : type;
}
