import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { MediaStreamTrack, RTCPeerConnection } from 'werift';
import { stopChild } from './media-helpers.js';

export interface WhipClient {
  /** The server's answer to the POST (201 with the SDP answer, or a refusal). */
  response: Response;
  body: string;
  /** The offer's candidates, left out of the offer: for a trickle PATCH. */
  candidates: string[];
  /** Takes the answer (when 201): media then flows. */
  connect: () => Promise<void>;
  stop: () => Promise<void>;
}

const bindUdp = (): Promise<Socket> =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => resolve(socket));
  });

/**
 * A WHIP publisher with werift as the browser: ffmpeg's test pattern as VP8 and a tone as Opus,
 * offered with POST; its candidates are left out of the offer (to be trickled) when `trickle`.
 */
export async function whipPublish(
  url: string,
  options: { trickle?: boolean; headers?: Record<string, string> } = {},
): Promise<WhipClient> {
  const [videoIn, audioIn] = [await bindUdp(), await bindUdp()];
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  const video = new MediaStreamTrack({ kind: 'video' });
  const audio = new MediaStreamTrack({ kind: 'audio' });
  pc.addTransceiver(video, { direction: 'sendonly' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  videoIn.on('message', (packet: Buffer) => video.writeRtp(packet));
  audioIn.on('message', (packet: Buffer) => audio.writeRtp(packet));
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve());
  });
  const full = pc.localDescription!.sdp;
  const candidates = full.split('\r\n').filter((line) => line.startsWith('a=candidate:'));
  const offer = options.trickle ? full.replace(/^a=(candidate:.*|end-of-candidates)\r\n/gm, '') : full;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', ...options.headers },
    body: offer,
  });
  const body = await response.text();
  let encoder: ChildProcess | undefined;
  const port = (s: Socket) => (s.address() as AddressInfo).port;
  return {
    response,
    body,
    candidates,
    connect: async () => {
      await pc.setRemoteDescription({ type: 'answer', sdp: body });
      encoder = spawn(
        'ffmpeg',
        [
          ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
          ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
          ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
          ...['-map', '0:v', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k'],
          ...[
            '-g',
            '25',
            '-f',
            'rtp',
            '-payload_type',
            '96',
            `rtp://127.0.0.1:${port(videoIn)}?pkt_size=1200`,
          ],
          ...['-map', '1:a', '-c:a', 'libopus', '-f', 'rtp', '-payload_type', '111'],
          `rtp://127.0.0.1:${port(audioIn)}`,
        ],
        { stdio: 'ignore' },
      );
    },
    stop: async () => {
      if (encoder) await stopChild(encoder);
      await pc.close();
      videoIn.close();
      audioIn.close();
    },
  };
}
