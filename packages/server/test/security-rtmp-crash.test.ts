import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  amf0,
  chunkMessage,
  clientHandshake,
  command,
  type FlvTag,
  publishSession,
  setChunkSize,
} from '../src/ingest/rtmp/rtmp-wire.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { rtmpPublisher, streamStats } from './media-helpers.js';
import { answersApi, closedWithin, logLine, rawRtmp, recordedTags } from './security-rtmp-helpers.js';

const connect = (cmdObj: Parameters<typeof amf0>[0]) => chunkMessage(command('connect', 1, cmdObj));
const goodConnect = connect({ app: 'live', tcUrl: 'rtmp://127.0.0.1/live' });
/** Chunked at RTMP's initial 128 bytes: these sessions never set a chunk size. */
const message = (cid: number, type: number, payload: Buffer) => chunkMessage({ cid, type, payload }, 128);
/** A message is handled when the next chunk header arrives: this one follows each crafted message. */
const next = chunkMessage(command('createStream', 9, null));

/**
 * Each of these used to throw out of the RTMP parser and end the whole process (issue 13,
 * Critical). Each must now end only its connection, with a log line saying what was wrong.
 */
const variants: { name: string; parts: () => Buffer[]; logged: RegExp }[] = [
  {
    name: 'a connect whose tcUrl is not a URL',
    parts: () => [connect({ app: 'live', tcUrl: 'nope' })],
    logged: /tcUrl is not a URL/,
  },
  {
    name: 'a connect without its command object',
    parts: () => [chunkMessage(command('connect', 1))],
    logged: /without its command object/,
  },
  {
    name: 'a publish without a stream name',
    parts: () => [goodConnect, chunkMessage(command('publish', 3, null))],
    logged: /publish without a stream name/,
  },
  {
    name: 'a publish whose name is a number',
    parts: () => [goodConnect, chunkMessage(command('publish', 3, null, 5))],
    logged: /publish without a stream name/,
  },
  {
    name: 'a play without a stream name',
    parts: () => [goodConnect, chunkMessage(command('play', 3, null))],
    logged: /play without a stream name/,
  },
  {
    name: 'an empty video message right after the handshake',
    parts: () => [message(5, 9, Buffer.alloc(0)), message(5, 9, Buffer.from([0x17]))],
    logged: /video message of 1 bytes/,
  },
  {
    name: 'a set chunk size without its 4 bytes',
    parts: () => [message(2, 1, Buffer.alloc(0))],
    logged: /control message \(type 1\) of 0 bytes/,
  },
  {
    name: 'a window acknowledgement size without its 4 bytes',
    parts: () => [message(2, 5, Buffer.from([1]))],
    logged: /control message \(type 5\) of 1 bytes/,
  },
  { name: 'a chunk size of 0', parts: () => [chunkMessage(setChunkSize(0), 128)], logged: /chunk size 0/ },
  {
    name: 'an empty AMF command',
    parts: () => [message(3, 20, Buffer.alloc(0))],
    logged: /unreadable AMF command/,
  },
  {
    name: 'a truncated AMF command',
    parts: () => [message(3, 20, amf0('connect').subarray(0, 2))],
    logged: /unreadable AMF command/,
  },
  {
    name: 'an AMF value of unknown type',
    parts: () => [message(3, 20, Buffer.concat([amf0('connect'), Buffer.from([0x20])]))],
    logged: /unreadable AMF command/,
  },
  {
    name: 'an AMF object with a field of unknown type',
    parts: () => [
      message(3, 20, Buffer.concat([amf0('connect'), amf0(1), Buffer.from([3, 0, 1, 0x61, 0x20])])),
    ],
    logged: /unreadable AMF command/,
  },
  {
    name: 'an empty AMF3 command message',
    parts: () => [message(3, 17, Buffer.alloc(0))],
    logged: /unreadable AMF command/,
  },
  {
    name: 'AMF objects nested 15,000 deep',
    parts: () => [
      message(
        3,
        20,
        Buffer.concat([
          amf0('connect'),
          amf0(1),
          Buffer.alloc(4 * 15_000).fill(Buffer.from([3, 0, 1, 0x61])),
        ]),
      ),
    ],
    logged: /unreadable AMF command \(Maximum call stack/,
  },
  {
    name: 'a chunk size over 31 bits',
    parts: () => [chunkMessage(setChunkSize(0xffffffff), 128)],
    logged: /chunk size 4294967295/,
  },
  {
    name: 'a message of 16 MB before any publish',
    parts: () => [chunkMessage({ cid: 3, type: 20, payload: Buffer.alloc(16), declaredLength: 0xffffff })],
    logged: /a message of 16777215 bytes/,
  },
];

describe('RTMP input that used to crash the server', () => {
  let server: RunningServer;
  let port: number;
  let tags: FlvTag[];

  beforeAll(async () => {
    port = await freePort();
    server = await startServer({
      config: `${minimalConfig}rtmp ${port};\nlive live {\n  source_timeout 2;\n}\n`,
    });
    tags = recordedTags();
  });
  // A variant that still crashes leaves no server for the next one: it is started again, so each
  // variant is seen on its own.
  beforeEach(async () => {
    if (!(await answersApi(server))) await server.restart();
  });
  afterAll(() => server?.cleanup());

  for (const variant of variants) {
    it(`${variant.name}: ends that connection with a log line, the server keeps serving`, async () => {
      const connection = rawRtmp(port, [clientHandshake(), ...variant.parts(), next]);
      await closedWithin(connection, 10_000);
      expect(await answersApi(server)).toBe(true);
      expect(await logLine(server, variant.logged)).toMatch(/rtmp connection from 127\.0\.0\.1 ended: /);
    });
  }

  it('a video message shorter than its header inside a publish (FLV to MPEG-TS) ends only that publish', async () => {
    // A real publish into the location, then a 3-byte video message once the stream is muxing.
    const session = publishSession('live', 'short', tags.slice(0, 60));
    const connection = rawRtmp(port, session);
    await waitFor(async () => (await streamStats(server, 'live/short', 'live')).alive, 15_000);
    connection.socket.write(
      chunkMessage({ cid: 5, type: 9, payload: Buffer.from([0x27, 1, 0]), streamId: 1 }),
    );
    connection.socket.write(next);
    await closedWithin(connection, 10_000);
    expect(await answersApi(server)).toBe(true);
    expect(await logLine(server, /ended: a video message of 3 bytes/)).toBeTruthy();
  });

  it('a real encoder still publishes afterwards', async () => {
    const publisher = rtmpPublisher(`rtmp://127.0.0.1:${port}/live/after`);
    try {
      const stats = await waitFor(async () => {
        const s = await streamStats(server, 'live/after', 'live');
        return s.alive && (s.bitrate ?? 0) > 0 ? s : undefined;
      }, 20_000);
      expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
    } finally {
      await publisher.stop();
    }
  });
});
