// WHEP playback: (1) glass-to-glass latency in Chromium of a stream whose frames carry the wall
// clock (ms, as 20 black/white bars drawn by ffmpeg when the frame is made), read back from the
// picture at the moment it is shown (requestVideoFrameCallback), beside hls.js playing the same
// stream's HLS in the same page; (2) server CPU per WHEP viewer of one 2 Mbit/s stream (werift
// viewers in this process) beside HLS viewers (playlist + every new segment) of the same stream,
// as viewers per core. Env: WHEP_VIEWERS (default 10), HLS_VIEWERS (default the same).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from '@playwright/test';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { cpuSeconds, freePort, sleep, startSluice, stop } from '../lib/media.mjs';

const VIEWERS = Number(process.env.WHEP_VIEWERS ?? 10);
const HLS_VIEWERS = Number(process.env.HLS_VIEWERS ?? VIEWERS);

export async function run({ seconds }) {
  const udpPort = await freePort();
  const sluice = await startSluice(
    'http {http};\nedit_auth admin bench-pw;\n' +
      `stream clock {\n  url udp://127.0.0.1:${udpPort};\n  static true;\n}\n` +
      'stream load {\n  url test://?size=1280x720&bitrate=2000;\n  static true;\n}\n',
  );
  const source = clockSource(udpPort);
  try {
    await waitAlive(sluice, 'clock');
    await waitAlive(sluice, 'load');
    await latency(sluice, seconds);
    await viewersPerCore(sluice, seconds);
  } finally {
    await stop(source);
    await sluice.stop();
  }
}

/** ffmpeg: a 320x180 gray picture whose top 32 rows hold the wall clock's ms (low 20 bits, 16 px a bit), 25 fps, x264 zerolatency, TS over UDP. */
function clockSource(port) {
  const bars = "geq=lum='if(lt(Y\\,32)\\,255*mod(floor(floor(T*1000)/pow(2\\,floor(X/16)))\\,2)\\,128)'";
  const filter = `color=c=gray:size=320x180:rate=25,format=gray,realtime,settb=1/1000000,setpts=RTCTIME,${bars},setpts=N/25/TB,format=yuv420p`;
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', 'lavfi', '-i', filter],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-g', '25', '-b:v', '600k'],
      ...['-c:a', 'aac', '-b:a', '64k', '-f', 'mpegts', '-flush_packets', '1'],
      `udp://127.0.0.1:${port}?pkt_size=1316`,
    ],
    { stdio: 'ignore' },
  );
}

async function waitAlive(sluice, name) {
  for (let i = 0; i < 300; i++) {
    const config = await (await sluice.api('/flussonic/api/read_config')).json();
    if (config.streams?.[name]?.stats?.alive) return;
    await sleep(100);
  }
  throw new Error(`stream ${name} never came alive`);
}

/** The page: reads the bars of each shown frame; WebRTC in one video, hls.js in the other. */
async function latency(sluice, seconds) {
  const hlsJs = readFileSync('node_modules/hls.js/dist/hls.min.js');
  const pages = createServer((req, res) => {
    if (req.url === '/hls.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(hlsJs);
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise((r) => pages.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${pages.address().port}/`);
    await page.evaluate((base) => globalThis.start(base), sluice.base);
    await page.waitForFunction(
      () => globalThis.samples.webrtc.length > 25 && globalThis.samples.hls.length > 25,
      null,
      {
        timeout: 60_000,
      },
    );
    await page.evaluate(() => globalThis.reset());
    await sleep(seconds * 1000);
    const samples = await page.evaluate(() => globalThis.samples);
    const row = (label, values) => {
      const s = [...values].sort((a, b) => a - b);
      const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
      console.log(
        `${label.padEnd(34)} median ${at(0.5)} ms, p95 ${at(0.95)} ms, min ${s[0]} ms (${s.length} frames)`,
      );
    };
    console.log('glass-to-glass on loopback (frame made → frame shown in Chromium), target < 500 ms:');
    row('  WHEP (WebRTC, this server)', samples.webrtc);
    row('  reference: HLS (hls.js, same stream)', samples.hls);
  } finally {
    await browser.close();
    pages.close();
  }
}

const PAGE = `<!doctype html><video id="w" muted autoplay playsinline></video><video id="h" muted autoplay playsinline></video>
<script src="/hls.js"></script><script>
window.samples = { webrtc: [], hls: [] };
window.reset = () => { window.samples = { webrtc: [], hls: [] }; };
const canvas = new OffscreenCanvas(320, 32);
const ctx = canvas.getContext('2d', { willReadFrequently: true });
function stampOf(video) {
  ctx.drawImage(video, 0, 0, 320, 180, 0, 0, 320, 180);
  const row = ctx.getImageData(0, 16, 320, 1).data;
  let v = 0;
  for (let i = 0; i < 20; i++) if (row[(16 * i + 8) * 4] > 128) v += 2 ** i;
  return v;
}
function watch(video, list) {
  const frame = (now, meta) => {
    const shownMs = performance.timeOrigin + meta.expectedDisplayTime;
    const lag = (((Math.round(shownMs) - stampOf(video)) % 1048576) + 1048576) % 1048576;
    if (lag < 60000) window.samples[list].push(lag);
    video.requestVideoFrameCallback(frame);
  };
  video.requestVideoFrameCallback(frame);
}
window.start = async (base) => {
  const w = document.getElementById('w');
  const pc = new RTCPeerConnection();
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.ontrack = (e) => { w.srcObject = e.streams[0]; };
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => { setTimeout(r, 1000); pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && r(); });
  const answer = await fetch(base + '/clock/whep', { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: pc.localDescription.sdp });
  await pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
  watch(w, 'webrtc');
  const h = document.getElementById('h');
  const hls = new Hls({ liveSyncDurationCount: 1 });
  hls.loadSource(base + '/clock/index.m3u8');
  hls.attachMedia(h);
  watch(h, 'hls');
};
</script>`;

/** A Node WHEP viewer: counts the bytes it receives. */
async function whepViewer(url) {
  const pc = new RTCPeerConnection({
    codecs: {
      video: [
        new RTCRtpCodecParameters({
          mimeType: 'video/H264',
          clockRate: 90000,
          payloadType: 102,
          parameters: 'packetization-mode=1;profile-level-id=42e01f',
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
  const viewer = { bytes: 0, close: () => pc.close() };
  for (const kind of ['video', 'audio'])
    pc.addTransceiver(kind, { direction: 'recvonly' }).onTrack.subscribe((track) =>
      track.onReceiveRtp.subscribe((rtp) => (viewer.bytes += rtp.payload.length)),
    );
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => {
    if (pc.iceGatheringState === 'complete') r();
    pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && r());
  });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', 'user-agent': `bench-${Math.random()}` },
    body: pc.localDescription.sdp,
  });
  if (response.status !== 201) throw new Error(`WHEP ${response.status}: ${await response.text()}`);
  await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
  return viewer;
}

/** An HLS viewer: the media playlist each second, every segment not fetched yet. */
function hlsViewer(base, token, until) {
  const seen = new Set();
  const viewer = { bytes: 0 };
  viewer.done = (async () => {
    while (Date.now() < until) {
      const playlist = await (await fetch(`${base}/load/video.m3u8?token=${token}`)).text();
      for (const uri of playlist.split('\n').filter((l) => l && !l.startsWith('#'))) {
        if (seen.has(uri)) continue;
        seen.add(uri);
        viewer.bytes += (await (await fetch(`${base}/load/${uri}`)).arrayBuffer()).byteLength;
      }
      await sleep(1000);
    }
  })();
  return viewer;
}

/** The server's ffmpeg children that turn a stream's audio into Opus for WHEP viewers. */
function opusChildren(pid) {
  const children = spawnSync('pgrep', ['-P', String(pid)])
    .stdout.toString()
    .split('\n')
    .filter(Boolean);
  return children.filter((c) => {
    try {
      return readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('libopus');
    } catch {
      return false;
    }
  });
}

/** CPU (cores) of the server process, and of its WHEP audio ffmpeg (one per stream), over `ms`. */
async function measure(sluice, ms) {
  const opus = opusChildren(sluice.child.pid);
  const server0 = cpuSeconds(sluice.child.pid);
  const opus0 = opus.map((p) => cpuSeconds(p));
  const t0 = Date.now();
  await sleep(ms);
  const wallS = (Date.now() - t0) / 1000;
  const opusCores = opus.reduce((a, p, i) => a + (cpuSeconds(p) - opus0[i]), 0) / wallS;
  return { serverCores: (cpuSeconds(sluice.child.pid) - server0) / wallS, opusCores };
}

async function viewersPerCore(sluice, seconds) {
  const base = await measure(sluice, seconds * 1000);
  // WHEP: VIEWERS werift viewers of the 2 Mbit/s stream.
  const viewers = [];
  for (let i = 0; i < VIEWERS; i++) viewers.push(await whepViewer(`${sluice.base}/load/whep`));
  await sleep(3000); // every viewer past its first keyframe (GOP 2 s)
  const bytes0 = viewers.reduce((a, v) => a + v.bytes, 0);
  const t0 = Date.now();
  const whep = await measure(sluice, seconds * 1000);
  const whepKbps = ((viewers.reduce((a, v) => a + v.bytes, 0) - bytes0) * 8) / (Date.now() - t0) / VIEWERS;
  for (const v of viewers) await v.close();
  await sleep(2000);
  // HLS: as many players of the same stream.
  const until = Date.now() + (seconds + 3) * 1000;
  const players = Array.from({ length: HLS_VIEWERS }, (_, i) => hlsViewer(sluice.base, `bench${i}`, until));
  await sleep(3000);
  const hls = await measure(sluice, seconds * 1000);
  await Promise.all(players.map((p) => p.done));
  const perCore = (cores, n) => (cores > 0 ? Math.round(n / cores) : Infinity);
  const whepCores = Math.max(0, whep.serverCores - base.serverCores);
  const hlsCores = Math.max(0, hls.serverCores - base.serverCores);
  console.log(
    `one 2 Mbit/s stream (test:// 720p); server alone with no viewer: ${(base.serverCores * 100).toFixed(1)}% of a core`,
  );
  console.log(
    `  WHEP: ${VIEWERS} viewers (werift, ${whepKbps.toFixed(0)} kbit/s each received): server +${(whepCores * 100).toFixed(1)}% of a core, ${(
      (whepCores * 100) /
      VIEWERS
    ).toFixed(
      2,
    )}% per viewer → ${perCore(whepCores, VIEWERS)} viewers per core; the stream's one Opus ffmpeg (shared by all): ${(whep.opusCores * 100).toFixed(1)}%`,
  );
  console.log(
    `  reference: HLS, ${HLS_VIEWERS} players: server +${(hlsCores * 100).toFixed(1)}% of a core, ${(
      (hlsCores * 100) /
      HLS_VIEWERS
    ).toFixed(2)}% per player → ${perCore(hlsCores, HLS_VIEWERS)} players per core`,
  );
}
