// RTSP play of CLIENTS clients of one ~2 Mbit/s stream: server CPU per client, beside as many HLS
// clients of the same stream in the same run (reference). The RTSP clients are light Node clients
// (DESCRIBE, SETUP both tracks over TCP interleaved, PLAY, then read and count), so the machine's
// CPU goes to the server, not to 100 decoders; the HLS clients fetch the playlist every second and
// each new segment. Figures: server CPU (% of one core), CPU per client, bytes each client got per
// second against the stream's bitrate.
import { connect } from 'node:net';
import { Agent, get as httpGet } from 'node:http';
import { cpuSeconds, freePort, sleep, startSluice } from '../lib/media.mjs';

const CLIENTS = Number(process.env.RTSP_CLIENTS ?? 100);

/** One RTSP player over TCP interleaved; resolves with the bytes it received until `until`. */
function rtspClient(port, until) {
  return new Promise((resolve) => {
    const url = `rtsp://127.0.0.1:${port}/static/s`;
    const socket = connect(port, '127.0.0.1');
    let cseq = 0;
    let text = '';
    let session = '';
    let bytes = 0;
    let playing = false;
    const send = (method, target, headers = []) =>
      socket.write([`${method} ${target} RTSP/1.0`, `CSeq: ${++cseq}`, ...headers, '', ''].join('\r\n'));
    const steps = [
      () => send('DESCRIBE', url, ['Accept: application/sdp']),
      () => send('SETUP', `${url}/trackID=0`, ['Transport: RTP/AVP/TCP;unicast;interleaved=0-1']),
      () =>
        send('SETUP', `${url}/trackID=1`, [
          'Transport: RTP/AVP/TCP;unicast;interleaved=2-3',
          `Session: ${session}`,
        ]),
      () => send('PLAY', url, [`Session: ${session}`]),
    ];
    socket.on('connect', () => steps.shift()());
    socket.on('data', (d) => {
      if (playing) return void (bytes += d.length);
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (text.length < end + 4 + length) return;
      if (!text.startsWith('RTSP/1.0 200')) return void socket.destroy();
      session ||= /Session: ([^;\r]+)/.exec(text)?.[1] ?? '';
      const rest = text.slice(end + 4 + length);
      text = '';
      const next = steps.shift();
      if (next) return next();
      playing = true;
      bytes += rest.length;
    });
    const done = () => resolve(bytes);
    socket.on('error', done);
    socket.on('close', done);
    setTimeout(() => socket.destroy(), Math.max(0, until - Date.now()));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
function get(url) {
  return new Promise((resolve) => {
    httpGet(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', () => resolve({ status: 0, body: Buffer.alloc(0) }));
    }).on('error', () => resolve({ status: 0, body: Buffer.alloc(0) }));
  });
}

/** One HLS player: the media playlist every second, each segment not fetched yet. */
async function hlsClient(base, until) {
  const seen = new Set();
  let bytes = 0;
  while (Date.now() < until) {
    const playlist = (await get(`${base}/s/video.m3u8`)).body.toString();
    for (const uri of playlist.split('\n').filter((l) => l && !l.startsWith('#'))) {
      if (seen.has(uri)) continue;
      seen.add(uri);
      // Only segments cut after the client came: like a player that joined live.
      if (seen.size > 3) bytes += (await get(`${base}/s/${uri}`)).body.length;
    }
    await sleep(1000);
  }
  return bytes;
}

async function measure(server, seconds, client) {
  const cpu0 = cpuSeconds(server.child.pid);
  const started = Date.now();
  const until = started + seconds * 1000;
  const received = await Promise.all(Array.from({ length: CLIENTS }, () => client(until)));
  const elapsed = (Date.now() - started) / 1000;
  const cpu = cpuSeconds(server.child.pid) - cpu0;
  const total = received.reduce((a, b) => a + b, 0);
  return {
    cpuPercent: (cpu / elapsed) * 100,
    perClientMs: (cpu * 1000) / elapsed / CLIENTS,
    kbitPerClient: (total * 8) / 1000 / elapsed / CLIENTS,
    starved: received.filter((b) => b === 0).length,
  };
}

export async function run({ seconds }) {
  const rtspPort = await freePort();
  // The server takes 64 RTSP connections from one address by default; every client here is local.
  process.env.SLUICE_RTSP_MAX_CONNECTIONS_PER_IP = String(CLIENTS + 10);
  const server = await startSluice(
    `http {http};\nedit_auth admin bench-pw;\nrtsp ${rtspPort};\nmax_sessions_per_ip 1000;\n` +
      'stream s {\n  url test://?size=1280x720&bitrate=1850;\n  static true;\n}\n',
  );
  try {
    for (;;) {
      const r = await fetch(`${server.base}/s/video.m3u8`);
      if (r.ok && (await r.text()).split('#EXTINF').length > 3) break;
      await sleep(300);
    }
    const idle0 = cpuSeconds(server.child.pid);
    await sleep(3000);
    const idle = ((cpuSeconds(server.child.pid) - idle0) / 3) * 100;
    const rtsp = await measure(server, seconds, (until) => rtspClient(rtspPort, until));
    const hls = await measure(server, seconds, (until) => hlsClient(server.base, until));
    const row = (label, m) =>
      console.log(
        `${label.padEnd(40)} ${m.cpuPercent.toFixed(0).padStart(4)}% CPU  ${(m.perClientMs / 10).toFixed(2).padStart(6)}% CPU/client` +
          `  (${(m.cpuPercent - idle).toFixed(0)}% over idle)  ${m.kbitPerClient.toFixed(0).padStart(5)} kbit/s per client  starved ${m.starved}`,
      );
    console.log(
      `server idle with the stream (test:// 720p ~2 Mbit/s, HLS packaged): ${idle.toFixed(0)}% CPU`,
    );
    row(`RTSP play (TCP interleaved), ${CLIENTS} clients`, rtsp);
    row(`HLS (reference), ${CLIENTS} clients`, hls);
  } finally {
    await server.stop();
  }
}
