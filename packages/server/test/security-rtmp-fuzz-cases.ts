import fc from 'fast-check';
import { connect } from 'node:net';
import {
  chunkMessage,
  clientHandshake,
  command,
  type FlvTag,
  mediaMessage,
  SESSION_CHUNK_SIZE,
  setChunkSize,
  type WireMessage,
} from '../src/ingest/rtmp/rtmp-wire.js';

/**
 * RTMP fuzz sessions (issue 13): valid sessions with their messages and bytes changed, and random
 * bytes, each the whole of what one client sends on one connection. Shared by the Vitest fuzz
 * (security-rtmp-fuzz.test.ts) and the bench (bench/rtmp-fuzz.mjs).
 */

/** The valid sessions the mutations start from: a publish into `live/fuzz` with media, and a play of it. */
export function baseSessions(tags: FlvTag[]): WireMessage[][] {
  const connectTo = (app: string) =>
    command('connect', 1, { app, type: 'nonprivate', tcUrl: `rtmp://127.0.0.1/${app}` });
  const start = [setChunkSize(SESSION_CHUNK_SIZE), connectTo('live'), command('createStream', 2, null)];
  return [
    [
      ...start,
      { ...command('publish', 3, null, 'fuzz', 'live'), streamId: 1 },
      ...tags.map((t) => mediaMessage(t)),
    ],
    [...start, { ...command('play', 3, null, 'fuzz'), streamId: 1 }],
  ];
}

/**
 * The messages as chunks, each at the chunk size the previous set-chunk-size messages announced
 * (as the server reads them), so a changed size changes the framing that follows.
 */
export function chunkSession(messages: WireMessage[]): Buffer {
  let chunkSize = 128;
  const parts = [clientHandshake()];
  for (const message of messages) {
    parts.push(chunkMessage(message, chunkSize));
    if (message.type === 1 && message.payload.length >= 4) {
      const size = message.payload.readUInt32BE(0);
      // The server refuses sizes out of range; the encoder here just needs one that ends.
      chunkSize = size >= 1 && size <= 1 << 20 ? size : 128;
    }
  }
  return Buffer.concat(parts);
}

const messageEdit = fc.record(
  {
    at: fc.nat(),
    type: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 8, 9, 15, 16, 17, 18, 19, 20, 22, 255),
    cid: fc.integer({ min: 0, max: 400 }),
    declaredLength: fc.oneof(fc.nat(64), fc.nat(0xffffff)),
    cut: fc.nat(),
    payload: fc.uint8Array({ maxLength: 96 }),
    streamId: fc.nat(4),
    drop: fc.constant(true),
  },
  { requiredKeys: ['at'] },
);
type MessageEdit = typeof messageEdit extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(messages: WireMessage[], edit: MessageEdit): WireMessage[] {
  const i = edit.at % messages.length;
  if (edit.drop) return messages.filter((_, j) => j !== i);
  const m = { ...messages[i]! };
  if (edit.type !== undefined) m.type = edit.type;
  if (edit.cid !== undefined) m.cid = Math.max(2, edit.cid);
  if (edit.streamId !== undefined) m.streamId = edit.streamId;
  if (edit.payload !== undefined) m.payload = Buffer.from(edit.payload);
  if (edit.cut !== undefined) m.payload = m.payload.subarray(0, edit.cut % (m.payload.length + 1));
  if (edit.declaredLength !== undefined) m.declaredLength = edit.declaredLength;
  return messages.map((old, j) => (j === i ? m : old));
}

/** One session: a valid one with message edits, byte edits and a cut, or random bytes. */
export function sessionArbitrary(tags: FlvTag[]): fc.Arbitrary<Buffer> {
  const bases = baseSessions(tags);
  const mutated = fc
    .record({
      base: fc.nat(bases.length - 1),
      edits: fc.array(messageEdit, { maxLength: 3 }),
      bytes: fc.array(fc.record({ at: fc.nat(), value: fc.nat(255) }), { maxLength: 6 }),
      cutAt: fc.option(fc.nat(), { nil: undefined }),
    })
    .map(({ base, edits, bytes, cutAt }) => {
      const session = chunkSession(edits.reduce(applyEdit, bases[base]!));
      const handshake = clientHandshake().length;
      const after = session.length - handshake;
      // Byte edits land after the handshake, where the chunk parser reads them.
      for (const { at, value } of bytes) if (after > 0) session[handshake + (at % after)] = value;
      return cutAt === undefined ? session : session.subarray(0, cutAt % (session.length + 1));
    });
  const afterHandshake = fc
    .uint8Array({ maxLength: 2048 })
    .map((b) => Buffer.concat([clientHandshake(), Buffer.from(b)]));
  const random = fc.uint8Array({ maxLength: 4096 }).map((b) => Buffer.from(b));
  return fc.oneof(
    { weight: 7, arbitrary: mutated },
    { weight: 2, arbitrary: afterHandshake },
    { weight: 1, arbitrary: random },
  );
}

/**
 * Sends each session on its own connection, `concurrency` at a time, half-closing after the last
 * byte; resolves when the server has closed every one. A connection the server keeps longer than
 * `timeoutMs` after the client ended is counted, not waited for.
 */
export async function sendSessions(
  port: number,
  sessions: Buffer[],
  concurrency = 16,
  timeoutMs = 5000,
): Promise<{ stuck: number }> {
  let next = 0;
  let stuck = 0;
  const one = (session: Buffer) =>
    new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const timer = setTimeout(() => {
        stuck++;
        socket.destroy();
      }, timeoutMs);
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.end(session);
    });
  const worker = async () => {
    while (next < sessions.length) await one(sessions[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { stuck };
}
