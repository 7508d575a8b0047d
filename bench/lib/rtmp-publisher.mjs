// Publishes one pre-recorded FLV as N live RTMP streams, in real time, from one process: what N
// encoders would send (4096-byte chunks, as ffmpeg and OBS use), at a fraction of the CPU of N
// `ffmpeg -re -stream_loop -1 -c copy -f flv` (the publishers' CPU is not the server's).
// Stream i publishes to URL_PREFIX/s{i}. Stream 0 starts at once, the others after FIRST_ALONE_MS,
// spread over SPREAD_MS (so their keyframes don't all fall together). The clip loops, timestamps
// going on. Prints `published I EPOCH_MS` once the server answered NetStream.Publish.Start.
//   node rtmp-publisher.mjs FLV rtmp://127.0.0.1:PORT/APP COUNT [FIRST_ALONE_MS=4000] [SPREAD_MS=2000]
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

const [flvPath, urlPrefix, countArg, aloneArg = '4000', spreadArg = '2000'] = process.argv.slice(2);
const url = new URL(urlPrefix);
const app = url.pathname.slice(1);
const count = Number(countArg);
const CHUNK_SIZE = 4096;

/** The FLV's audio and video tags: type, timestamp (ms) and payload; sequence headers apart. */
function readTags(path) {
  const flv = readFileSync(path);
  const tags = [];
  for (let o = flv.readUInt32BE(5) + 4; o + 11 <= flv.length;) {
    const type = flv[o] & 0x1f;
    const size = flv.readUIntBE(o + 1, 3);
    const ts = flv.readUIntBE(o + 4, 3) | (flv[o + 7] << 24);
    const data = flv.subarray(o + 11, o + 11 + size);
    o += 11 + size + 4;
    if (type !== 8 && type !== 9) continue;
    // AVC/AAC sequence header: packet type byte 0.
    const config = data[1] === 0;
    tags.push({ type, ts, data, config });
  }
  return tags;
}
const tags = readTags(flvPath);
const headers = tags.filter((t) => t.config);
const media = tags.filter((t) => !t.config);
const frameMs = media.length > 1 ? media[media.length - 1].ts / (media.length - 1) : 40;
const loopMs = media[media.length - 1].ts + Math.round(frameMs);

// ---- AMF0 (commands only: strings, numbers, null, plain objects)
function amf(value) {
  if (value === null) return Buffer.from([5]);
  if (typeof value === 'number') {
    const b = Buffer.alloc(9);
    b[0] = 0;
    b.writeDoubleBE(value, 1);
    return b;
  }
  if (typeof value === 'string') {
    const s = Buffer.from(value);
    const b = Buffer.alloc(3);
    b[0] = 2;
    b.writeUInt16BE(s.length, 1);
    return Buffer.concat([b, s]);
  }
  const parts = [Buffer.from([3])];
  for (const [k, v] of Object.entries(value)) {
    const key = Buffer.from(k);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(key.length);
    parts.push(len, key, amf(v));
  }
  parts.push(Buffer.from([0, 0, 9]));
  return Buffer.concat(parts);
}

/** One RTMP message as chunks of CHUNK_SIZE: a type 0 header, then type 3 continuation headers. */
function chunks(csid, type, streamId, timestamp, payload) {
  const extended = timestamp >= 0xffffff;
  const header = Buffer.alloc(extended ? 16 : 12);
  header[0] = csid;
  header.writeUIntBE(extended ? 0xffffff : timestamp, 1, 3);
  header.writeUIntBE(payload.length, 4, 3);
  header[7] = type;
  header.writeUInt32LE(streamId, 8);
  if (extended) header.writeUInt32BE(timestamp, 12);
  const parts = [header];
  for (let o = 0; o < payload.length; o += CHUNK_SIZE) {
    if (o > 0) {
      parts.push(Buffer.from([0xc0 | csid]));
      if (extended) parts.push(header.subarray(12, 16));
    }
    parts.push(payload.subarray(o, o + CHUNK_SIZE));
  }
  return Buffer.concat(parts);
}
const command = (...values) => chunks(3, 20, 0, 0, Buffer.concat(values.map(amf)));

/** One publisher: handshake, connect, createStream, publish, then the tags at their time. */
function publish(index) {
  const name = `s${index}`;
  const socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  let received = Buffer.alloc(0);
  let step = 'handshake';
  let startedAt = 0;
  let next = 0;
  let loops = 0;
  const c1 = Buffer.alloc(1536);
  socket.write(Buffer.concat([Buffer.from([3]), c1]));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (step !== 'stopped') console.log(`closed ${index}`);
  });
  socket.on('data', (data) => {
    if (step === 'media') return;
    received = Buffer.concat([received, data]);
    if (step === 'handshake' && received.length >= 1 + 1536 * 2) {
      const s1 = received.subarray(1, 1537);
      received = received.subarray(1 + 1536 * 2);
      const setChunkSize = Buffer.alloc(4);
      setChunkSize.writeUInt32BE(CHUNK_SIZE);
      socket.write(Buffer.concat([s1, chunks(2, 1, 0, 0, setChunkSize)]));
      socket.write(
        command('connect', 1, { app, type: 'nonprivate', flashVer: 'FMLE/3.0', tcUrl: urlPrefix }),
      );
      step = 'connect';
    }
    const text = received.toString('latin1');
    if (step === 'connect' && text.includes('_result')) {
      received = Buffer.alloc(0);
      socket.write(command('createStream', 2, null));
      step = 'createStream';
    } else if (step === 'createStream' && text.includes('_result')) {
      received = Buffer.alloc(0);
      socket.write(chunks(8, 20, 1, 0, Buffer.concat(['publish', 3, null, name, 'live'].map(amf))));
      step = 'publish';
    } else if (step === 'publish' && text.includes('NetStream.Publish.Start')) {
      received = Buffer.alloc(0);
      step = 'media';
      startedAt = performance.now();
      console.log(`published ${index} ${Date.now()}`);
      for (const t of headers) socket.write(chunks(t.type === 8 ? 4 : 6, t.type, 1, 0, t.data));
      senders.push(send);
    }
  });
  function send(now) {
    const due = now - startedAt;
    const out = [];
    for (;;) {
      const tag = media[next];
      const ts = tag.ts + loops * loopMs;
      if (ts > due) break;
      out.push(chunks(tag.type === 8 ? 4 : 6, tag.type, 1, ts, tag.data));
      if (++next === media.length) {
        next = 0;
        loops++;
      }
    }
    if (out.length > 0) socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
  }
  return () => {
    step = 'stopped';
    socket.destroy();
  };
}

const senders = [];
const stops = [publish(0)];
const aloneMs = Number(aloneArg);
const spreadMs = Number(spreadArg);
for (let i = 1; i < count; i++)
  setTimeout(() => stops.push(publish(i)), aloneMs + Math.floor((i * spreadMs) / count));
setInterval(() => {
  const now = performance.now();
  for (const send of senders) send(now);
}, 10);
process.on('SIGTERM', () => {
  for (const stop of stops) stop();
  process.exit(0);
});
