import { spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { MediaStreamTrack, RTCPeerConnection, type RTCDtlsTransport } from 'werift';
import WebSocket from 'ws';
import { type WebrtcPublishReply, webrtcPublishReply } from '@sluice/api';
import { stopChild } from './media-helpers.js';

export interface WebrtcClient {
  /** The server's first reply: the answer (then media flows), or its error. */
  reply: Promise<WebrtcPublishReply>;
  /** Every reply so far (an error may follow the answer: the stream refused the publish). */
  replies: WebrtcPublishReply[];
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<number>;
  stop: () => Promise<void>;
}

const bindUdp = (): Promise<Socket> =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => resolve(socket));
  });

/** DTLS handshake message type of a HelloVerifyRequest (RFC 6347 §4.2.1). */
const HELLO_VERIFY_REQUEST = 3;

/** The handshake entry of werift's DTLS endpoint (not in its typings). */
interface Handshaker {
  onHandleHandshakes: (assembled: { msg_type: number }[]) => Promise<void>;
}

/**
 * werift's DTLS client fails the handshake on a second HelloVerifyRequest, which a server sends when
 * it answers the ClientHello after the client's first retransmission (0.5 s): a loaded server. A
 * browser's DTLS client takes it (RFC 6347 §4.2.1); this stand-in for a browser drops the repeat
 * (werift's server repeats the same cookie).
 */
function ignoreRepeatedHelloVerify(transport: RTCDtlsTransport): void {
  transport.onStateChange.subscribe((state) => {
    if (state !== 'connecting') return;
    // The endpoint is made right after this event, before its first ClientHello (100 ms on).
    queueMicrotask(() => {
      const dtls = transport.dtls as unknown as Handshaker | undefined;
      if (!dtls) return;
      const handle = dtls.onHandleHandshakes;
      let verified = false;
      dtls.onHandleHandshakes = (assembled) => {
        const fresh = assembled.filter((h) => h.msg_type !== HELLO_VERIFY_REQUEST || !verified);
        if (fresh.some((h) => h.msg_type === HELLO_VERIFY_REQUEST)) verified = true;
        return handle(fresh);
      };
    });
  });
}

/**
 * What a browser does when it publishes over WebRTC, with werift as the browser: ffmpeg encodes
 * the test pattern to VP8 and a tone to Opus as RTP, which a werift peer sends to the server after
 * the offer/answer over the publish websocket.
 */
export async function webrtcPublisher(
  url: string,
  options: {
    /**
     * Blocks this thread (the peer connection with it) that long once ICE connects: a publisher's
     * loaded machine answering late in the DTLS handshake.
     */
    stallAtIceMs?: number;
  } = {},
): Promise<WebrtcClient> {
  const [videoIn, audioIn] = [await bindUdp(), await bindUdp()];
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  const video = new MediaStreamTrack({ kind: 'video' });
  const audio = new MediaStreamTrack({ kind: 'audio' });
  pc.addTransceiver(video, { direction: 'sendonly' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  videoIn.on('message', (packet: Buffer) => video.writeRtp(packet));
  audioIn.on('message', (packet: Buffer) => audio.writeRtp(packet));
  const port = (s: Socket) => (s.address() as AddressInfo).port;
  const encoder = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
      ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-map', '0:v', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '400k'],
      ...['-g', '25', '-f', 'rtp', '-payload_type', '96', `rtp://127.0.0.1:${port(videoIn)}?pkt_size=1200`],
      ...['-map', '1:a', '-c:a', 'libopus', '-f', 'rtp', '-payload_type', '111'],
      `rtp://127.0.0.1:${port(audioIn)}`,
    ],
    { stdio: 'ignore' },
  );

  await pc.setLocalDescription(await pc.createOffer());
  for (const transport of pc.dtlsTransports) ignoreRepeatedHelloVerify(transport);
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve());
  });
  const socket = new WebSocket(url);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  const replies: WebrtcPublishReply[] = [];
  const reply = new Promise<WebrtcPublishReply>((resolve, reject) => {
    socket.once('open', () => socket.send(JSON.stringify({ type: 'offer', sdp: pc.localDescription!.sdp })));
    socket.on('message', (data: Buffer) => {
      replies.push(webrtcPublishReply.parse(JSON.parse(data.toString())));
      resolve(replies[0]!);
    });
    socket.once('error', reject);
  });
  const { stallAtIceMs } = options;
  if (stallAtIceMs)
    pc.iceConnectionStateChange.subscribe((state) => {
      if (state === 'connected') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallAtIceMs);
    });
  void reply.then(async (answer) => {
    if (answer.type === 'answer') await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
  });
  let stopped = false;
  return {
    reply,
    replies,
    closed,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      socket.close();
      await stopChild(encoder);
      await pc.close();
      videoIn.close();
      audioIn.close();
    },
  };
}
