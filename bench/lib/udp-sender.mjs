// Plays one MPEG-TS clip as N live streams over UDP: stream i goes to 127.0.0.1:(basePort + i),
// 7 packets a datagram, paced at the clip's own byte rate, looping. Usage:
//   node udp-sender.mjs CLIP BASE_PORT COUNT BYTES_PER_SECOND
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';

const [clipPath, basePortArg, countArg, rateArg] = process.argv.slice(2);
const clip = readFileSync(clipPath);
const basePort = Number(basePortArg);
const count = Number(countArg);
const bytesPerSecond = Number(rateArg);
const DATAGRAM = 188 * 7;
const datagrams = [];
for (let o = 0; o + DATAGRAM <= clip.length; o += DATAGRAM) datagrams.push(clip.subarray(o, o + DATAGRAM));

const socket = createSocket('udp4');
socket.on('error', () => undefined);
const started = performance.now();
// Each stream starts at its own place in the clip, so they don't all cut segments at once.
const next = Array.from({ length: count }, (_, i) => Math.floor((i * datagrams.length) / count));
const sent = new Array(count).fill(0);

// Looping the clip would break the continuity counters where it starts over: each stream numbers its
// packets itself, as a live encoder would.
const counters = Array.from({ length: count }, () => new Uint8Array(8192));
function renumber(i, datagram) {
  const out = Buffer.from(datagram);
  for (let o = 0; o < out.length; o += 188) {
    if ((out[o + 3] & 0x10) === 0) continue;
    const pid = ((out[o + 1] & 0x1f) << 8) | out[o + 2];
    const cc = (counters[i][pid] + 1) & 0x0f;
    counters[i][pid] = cc;
    out[o + 3] = (out[o + 3] & 0xf0) | cc;
  }
  return out;
}

setInterval(() => {
  const due = Math.floor((((performance.now() - started) / 1000) * bytesPerSecond) / DATAGRAM);
  for (let i = 0; i < count; i++) {
    while (sent[i] < due) {
      socket.send(renumber(i, datagrams[next[i]]), basePort + i, '127.0.0.1');
      next[i] = (next[i] + 1) % datagrams.length;
      sent[i]++;
    }
  }
}, 5);
