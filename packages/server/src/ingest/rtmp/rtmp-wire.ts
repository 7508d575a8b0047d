/**
 * The bytes an RTMP client sends, built by hand: the handshake, chunked messages and AMF0 commands,
 * and a whole publish session from FLV tags. The security tests and the fuzz bench craft (and
 * break) sessions with it; the server never sends with it.
 */

/** An AMF0 value as this encoder writes it. */
export type Amf0 = number | string | boolean | null | undefined | { [key: string]: Amf0 };

const HANDSHAKE_BYTES = 1536;
/** The chunk size the sessions built here announce: big enough that a command is one chunk. */
export const SESSION_CHUNK_SIZE = 4096;

/** C0 (version 3), C1 and C2: a simple (digest-less) handshake, all at once. */
export function clientHandshake(): Buffer {
  return Buffer.concat([Buffer.from([3]), Buffer.alloc(HANDSHAKE_BYTES), Buffer.alloc(HANDSHAKE_BYTES)]);
}

export function amf0(value: Amf0): Buffer {
  if (typeof value === 'number') {
    const b = Buffer.alloc(9);
    b.writeDoubleBE(value, 1);
    return b;
  }
  if (typeof value === 'boolean') return Buffer.from([1, value ? 1 : 0]);
  if (typeof value === 'string') return Buffer.concat([Buffer.from([2]), lengthPrefixed(value)]);
  if (value === null) return Buffer.from([5]);
  if (value === undefined) return Buffer.from([6]);
  const fields = Object.entries(value).map(([k, v]) => Buffer.concat([lengthPrefixed(k), amf0(v)]));
  return Buffer.concat([Buffer.from([3]), ...fields, Buffer.from([0, 0, 9])]);
}

function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

export interface WireMessage {
  /** Chunk stream id, 2 to 65599. */
  cid: number;
  /** Message type: 1 set chunk size, 8 audio, 9 video, 18 data, 20 AMF0 command… */
  type: number;
  payload: Buffer;
  streamId?: number;
  timestamp?: number;
  /** The length the header claims; the payload's own length when not given. */
  declaredLength?: number;
}

function basicHeader(fmt: number, cid: number): Buffer {
  if (cid < 64) return Buffer.from([(fmt << 6) | cid]);
  if (cid < 320) return Buffer.from([fmt << 6, cid - 64]);
  return Buffer.from([(fmt << 6) | 1, (cid - 64) & 0xff, (cid - 64) >> 8]);
}

/** One message as chunks of `chunkSize`: a type 0 header, then type 3 continuations. */
export function chunkMessage(message: WireMessage, chunkSize = SESSION_CHUNK_SIZE): Buffer {
  const header = Buffer.alloc(11);
  header.writeUIntBE(Math.min(message.timestamp ?? 0, 0xffffff), 0, 3);
  header.writeUIntBE(message.declaredLength ?? message.payload.length, 3, 3);
  header[6] = message.type;
  header.writeUInt32LE(message.streamId ?? 0, 7);
  const parts = [basicHeader(0, message.cid), header];
  for (let o = 0; o < message.payload.length; o += chunkSize) {
    if (o > 0) parts.push(basicHeader(3, message.cid));
    parts.push(message.payload.subarray(o, o + chunkSize));
  }
  return Buffer.concat(parts);
}

/** An AMF0 command message (type 20) on chunk stream 3. */
export function command(name: string, transactionId: number, ...values: Amf0[]): WireMessage {
  return { cid: 3, type: 20, payload: Buffer.concat([amf0(name), amf0(transactionId), ...values.map(amf0)]) };
}

export function setChunkSize(size: number): WireMessage {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(size);
  return { cid: 2, type: 1, payload };
}

/** One FLV tag: type 8 audio, 9 video, 18 script data. */
export interface FlvTag {
  type: number;
  timestamp: number;
  data: Buffer;
}

/** The tags of an FLV file (as ffmpeg writes with `-f flv`). */
export function flvTags(flv: Buffer): FlvTag[] {
  const tags: FlvTag[] = [];
  for (let o = flv.readUInt32BE(5) + 4; o + 11 <= flv.length;) {
    const size = flv.readUIntBE(o + 1, 3);
    const timestamp = flv.readUIntBE(o + 4, 3) | (flv[o + 7]! << 24);
    tags.push({ type: flv[o]!, timestamp, data: flv.subarray(o + 11, o + 11 + size) });
    o += 11 + size + 4;
  }
  return tags;
}

/** A tag as the RTMP media message a publisher sends for it (audio on 4, video on 5, data on 6). */
export function mediaMessage(tag: FlvTag, streamId = 1): WireMessage {
  const cid = tag.type === 8 ? 4 : tag.type === 9 ? 5 : 6;
  return { cid, type: tag.type, payload: tag.data, streamId, timestamp: tag.timestamp };
}

/**
 * What an encoder publishing to rtmp://host/APP/NAME sends, message by message: the handshake,
 * set chunk size, connect, createStream, publish, then `tags` as media. Each entry is the bytes
 * of one step, so a test can cut or change one.
 */
export function publishSession(app: string, name: string, tags: FlvTag[] = []): Buffer[] {
  const connect = command('connect', 1, { app, type: 'nonprivate', tcUrl: `rtmp://localhost/${app}` });
  return [
    clientHandshake(),
    chunkMessage(setChunkSize(SESSION_CHUNK_SIZE), 128),
    chunkMessage(connect),
    chunkMessage(command('createStream', 2, null)),
    chunkMessage({ ...command('publish', 3, null, name, 'live'), streamId: 1 }),
    ...tags.map((tag) => chunkMessage(mediaMessage(tag))),
  ];
}
