// WHIP publish: server CPU of one 640x360 25 fps webcam-like publish when its H.264 is passed
// through (ffmpeg copies it), beside the same picture sent as VP8, which the server encodes to
// H.264 (the reference, same run). The publisher is werift in this process fed by an ffmpeg
// encoder (libx264 baseline or libvpx, ~1 Mbit/s) with Opus audio, so the machine's encoding CPU is
// the client's, not counted. Figures: server CPU (its process and its ffmpeg children, % of a core).
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { sleep, startSluice, stop } from '../lib/media.mjs';
import { treeCpuSeconds } from '../lib/dvr-recording.mjs';

const VIDEO = {
  H264: {
    codec: new RTCRtpCodecParameters({
      mimeType: 'video/H264',
      clockRate: 90000,
      parameters: 'packetization-mode=1;profile-level-id=42e01f;level-asymmetry-allowed=1',
      rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
    }),
    args: ['-c:v', 'libx264', '-profile:v', 'baseline', '-preset', 'veryfast', '-tune', 'zerolatency'],
  },
  VP8: {
    codec: new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90000 }),
    args: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8'],
  },
};

const bound = () =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => resolve(socket));
  });

/** Publishes into `name` over WHIP with `kind` video until stopped. */
async function publish(base, name, kind) {
  const opus = new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 });
  const pc = new RTCPeerConnection({
    iceUseIpv6: false,
    iceServers: [],
    codecs: { video: [VIDEO[kind].codec], audio: [opus] },
  });
  const [videoIn, audioIn] = [await bound(), await bound()];
  const video = new MediaStreamTrack({ kind: 'video' });
  const audio = new MediaStreamTrack({ kind: 'audio' });
  pc.addTransceiver(video, { direction: 'sendonly' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  videoIn.on('message', (p) => video.writeRtp(p));
  audioIn.on('message', (p) => audio.writeRtp(p));
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve());
  });
  const response = await fetch(`${base}/${name}/whip`, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp' },
    body: pc.localDescription.sdp,
  });
  const answer = await response.text();
  if (response.status !== 201) throw new Error(`WHIP ${kind}: ${response.status} ${answer}`);
  await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  const encoder = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25'],
      ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-map', '0:v', ...VIDEO[kind].args, '-b:v', '1000k', '-g', '50'],
      ...['-f', 'rtp', '-payload_type', '96', `rtp://127.0.0.1:${videoIn.address().port}?pkt_size=1200`],
      ...['-map', '1:a', '-c:a', 'libopus', '-f', 'rtp', '-payload_type', '111'],
      `rtp://127.0.0.1:${audioIn.address().port}`,
    ],
    { stdio: 'ignore' },
  );
  return async () => {
    await fetch(new URL(response.headers.get('location'), base), { method: 'DELETE' });
    await stop(encoder);
    await pc.close();
    videoIn.close();
    audioIn.close();
  };
}

/** Server CPU (% of a core) over `seconds` once the stream has media. */
async function measure(server, name, kind, seconds) {
  const end = await publish(server.base, name, kind);
  try {
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`${server.base}/${name}/video.m3u8`);
      if (r.ok && (await r.text()).split('#EXTINF').length > 2) break;
      await sleep(300);
    }
    const before = treeCpuSeconds(server.child.pid);
    await sleep(seconds * 1000);
    return ((treeCpuSeconds(server.child.pid) - before) / seconds) * 100;
  } finally {
    await end();
  }
}

export async function run({ seconds }) {
  const server = await startSluice(
    'http {http};\nedit_auth admin bench-pw;\n' +
      'stream a {\n  publish_enabled true;\n  static true;\n}\nstream b {\n  publish_enabled true;\n  static true;\n}\n',
  );
  try {
    const h264 = await measure(server, 'a', 'H264', seconds);
    const vp8 = await measure(server, 'b', 'VP8', seconds);
    const row = (label, cpu) => console.log(`${label.padEnd(52)} ${cpu.toFixed(1).padStart(5)}% of a core`);
    row('WHIP publish 640x360 25 fps, H.264 passed through', h264);
    row('WHIP publish 640x360 25 fps, VP8 encoded (reference)', vp8);
  } finally {
    await server.stop();
  }
}
