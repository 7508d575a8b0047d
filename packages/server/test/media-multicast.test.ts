import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';
import { makeClip } from './ts-fixtures.js';

/** A multicast source, as a headend sends it: the server joins the group on the given interface. */
describe('a multicast UDP source', () => {
  let server: RunningServer;
  let timer: NodeJS.Timeout | undefined;
  const sender = createSocket('udp4');

  beforeAll(async () => {
    const port = await freePort();
    const group = `239.${(process.pid >> 8) & 255}.${process.pid & 255}.7`;
    server = await startServer({
      config: `${minimalConfig}stream mc {\n  url udp://127.0.0.1@${group}:${port};\n  static true;\n}\n`,
    });
    // The clip goes out in 7-packet datagrams, about real time, over the loopback interface.
    const clip = makeClip({ seconds: 4, video: 'h264', audio: 'aac' });
    await new Promise<void>((resolve) => sender.bind(resolve));
    sender.setMulticastInterface('127.0.0.1');
    sender.setMulticastLoopback(true);
    let o = 0;
    timer = setInterval(() => {
      for (let i = 0; i < 10; i++, o = (o + 1316) % (clip.length - 1316))
        sender.send(clip.subarray(o, o + 1316), port, group);
    }, 20);
  });
  afterAll(async () => {
    clearInterval(timer);
    sender.close();
    await server?.cleanup();
  });

  it('joins the group and reads the stream from it', async () => {
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'mc');
      return s.alive && s.media_info?.tracks.length === 2 ? s : undefined;
    }, 15_000);
    expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
  });
});
