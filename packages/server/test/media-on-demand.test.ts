import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, streamStats, udpSender } from './media-helpers.js';

/** Waking an on-demand stream (spec 001 §2 Output: clients_timeout) when its source is slow to give media. */
describe('on-demand stream with a slow first segment', () => {
  let server: RunningServer;
  let udpPort: number;
  const senders: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    udpPort = await freePort();
    server = await startServer({
      config: `${minimalConfig}stream late {\n  url udp://127.0.0.1:${udpPort};\n  clients_timeout 1;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(senders.map((s) => s.stop()));
    await server?.cleanup();
  });

  it('keeps running past clients_timeout while its first player waits for media, then plays', async () => {
    const firstAsk = getText(`${server.url}/late/index.m3u8`);
    // The player is waiting: the stream runs for longer than its clients_timeout without stopping.
    await waitFor(async () => {
      const stats = await streamStats(server, 'late');
      if (server.output().includes('stream late: no clients'))
        throw new Error('stopped under its waiting player');
      return stats.running && (stats.lifetime ?? 0) >= 2500;
    });
    senders.push(udpSender(udpPort));
    // On a busy machine the first segment may come after the first ask gave up; a player asks again.
    const answers = [await firstAsk];
    if (answers[0]!.status !== 200)
      answers.push(
        await waitFor(async () => {
          const answer = await getText(`${server.url}/late/index.m3u8`);
          return answer.status === 200 ? answer : undefined;
        }),
      );
    expect(answers.at(-1)!.text).toContain('#EXT-X-STREAM-INF');
    expect(server.output()).not.toContain('stream late: no clients');
  });
});
