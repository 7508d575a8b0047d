import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkMessage, command, type FlvTag, publishSession } from '../src/ingest/rtmp/rtmp-wire.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig, streamStats } from './media-helpers.js';
import { closedWithin, logLine, logLines, rawRtmp, recordedTags } from './security-rtmp-helpers.js';

/** The streams published into location `prefix` that the server shows. */
async function publishedIn(server: RunningServer, prefix: string): Promise<string[]> {
  const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
    lives?: Record<string, { streams?: Record<string, unknown> }>;
  };
  return Object.keys(config.lives?.[prefix]?.streams ?? {});
}

/** Publishing into locations (issue 13, Medium and Low): nothing is created for a refused publisher. */
describe('RTMP publishing checks', () => {
  let server: RunningServer;
  let port: number;
  let tags: FlvTag[];

  beforeAll(async () => {
    port = await freePort();
    server = await startServer({ config: `${minimalConfig}rtmp ${port};\n` });
    await modifyConfig(server, {
      lives: {
        secured: { password: 'pub-pw', except: ['blocked', 'secured/also-blocked'], source_timeout: 30 },
        live: { source_timeout: 30 },
      },
    });
    tags = recordedTags(1);
  });
  afterAll(() => server?.cleanup());

  /** Publishes `app/name` over raw RTMP (a few real media messages) and waits for the server to close it. */
  const refusedPublish = async (app: string, name: string) =>
    closedWithin(rawRtmp(port, publishSession(app, name, tags.slice(0, 3))), 10_000);

  it('creates no stream for wrong or missing passwords in a publishing location', async () => {
    for (let i = 0; i < 30; i++)
      await refusedPublish('secured', i % 2 ? `guess${i}?password=wrong${i}` : `guess${i}`);
    expect(await publishedIn(server, 'secured')).toEqual([]);
    expect(
      logLines(server, /rtmp publish secured\/guess\d+ from 127\.0\.0\.1 refused: wrong or missing password/),
    ).toHaveLength(30);
    expect(logLines(server, /published stream secured\/guess/)).toEqual([]);

    // The right password still publishes.
    const good = rawRtmp(port, publishSession('secured', 'ok?password=pub-pw', tags));
    await waitFor(async () => (await publishedIn(server, 'secured')).includes('secured/ok'));
    good.socket.destroy();
  });

  it("refuses the location's except names, given within the location or in full", async () => {
    await refusedPublish('secured', 'blocked?password=pub-pw');
    await refusedPublish('secured', 'also-blocked?password=pub-pw');
    expect(await publishedIn(server, 'secured')).not.toContain('secured/blocked');
    expect(await publishedIn(server, 'secured')).not.toContain('secured/also-blocked');
    expect(
      await logLine(
        server,
        /refused: location secured does not accept publishing secured\/blocked \(except\)/,
      ),
    ).toBeTruthy();
  });

  it('refuses names the config would refuse (.., <, whitespace, control characters)', async () => {
    for (const name of ['..', 'a<b>', 'with space', 'tab\there', 'nul\u0000x', 'x'.repeat(600)])
      await refusedPublish('live', name);
    expect(await publishedIn(server, 'live')).toEqual([]);
    expect(logLines(server, /not a valid stream name/)).toHaveLength(6);
    // A name that is fine still publishes.
    const good = rawRtmp(port, publishSession('live', 'fine-name_1.2', tags));
    await waitFor(async () => (await streamStats(server, 'live/fine-name_1.2', 'live')).published_from);
    good.socket.destroy();
  });

  it('writes peer-given names into the log escaped, so CR/LF cannot forge a log line', async () => {
    const forged = '2030-01-01T00:00:00.000Z error FORGED';
    await refusedPublish('live', `x\r\n${forged} by publish`);
    // A play of a stream that does not exist, and an app with a newline, are refused and logged too.
    const connect = chunkMessage(
      command('connect', 1, { app: `live\n${forged} by app`, tcUrl: 'rtmp://127.0.0.1/live' }),
    );
    const play = chunkMessage({ ...command('play', 4, null, `y\n${forged} by play`), streamId: 1 });
    const [handshake, chunkSize] = publishSession('live', 'unused');
    await closedWithin(rawRtmp(port, [handshake!, chunkSize!, connect, play]), 10_000);
    await logLine(server, /by play/);
    expect(logLines(server, /^2030-01-01T00:00:00\.000Z error FORGED/)).toEqual([]);
    expect(await logLine(server, /x\\r\\n2030-01-01T00:00:00\.000Z error FORGED by publish/)).toMatch(
      /refused/,
    );
    expect(await logLine(server, /live\\n2030-01-01T00:00:00\.000Z error FORGED by app/)).toMatch(
      /rtmp play/,
    );
  });
});
