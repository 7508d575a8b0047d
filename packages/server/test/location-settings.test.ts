import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, rtmpPublisher, streamStats, udpSender } from './media-helpers.js';

/** A publishing location's except, clients_timeout and urls (spec 000 §3 Location, spec 001 §2 Location output). */
describe('location settings', () => {
  let server: RunningServer;
  let rtmp: string;
  const publishers: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    rtmp = `rtmp://127.0.0.1:${port}`;
    server = await startServer({
      config:
        `${minimalConfig}rtmp ${port};\n` +
        `live open {\n  except secret open/private;\n}\n` +
        `live ondemand {\n  clients_timeout 3;\n}\n` +
        `live pull {\n  url "udp://127.0.0.1:{NAME}";\n  clients_timeout 2;\n  except 9;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(publishers.map((p) => p.stop()));
    await server?.cleanup();
  });

  const publish = (path: string) => {
    const publisher = rtmpPublisher(`${rtmp}/${path}`);
    publishers.push(publisher);
    return publisher;
  };
  const publishedNames = async (prefix: string) => {
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
      lives: Record<string, { streams?: object }>;
    };
    return Object.keys(config.lives[prefix]?.streams ?? {});
  };

  it('refuses a name in except (as NAME or PREFIX/NAME) with a log line saying so, and takes others', async () => {
    const [secret, privately] = [publish('open/secret'), publish('open/private')];
    expect(await secret.exited).not.toBe(0);
    expect(await privately.exited).not.toBe(0);
    const output = server.output();
    expect(output).toContain('location open does not accept publishing open/secret (except)');
    expect(output).toContain('location open does not accept publishing open/private (except)');
    publish('open/cam');
    await waitFor(async () => (await publishedNames('open')).includes('open/cam'));
    expect(await publishedNames('open')).toEqual(['open/cam']);
  });

  it('turns a published stream off clients_timeout after its last client, its publisher disconnected', async () => {
    const publisher = publish('ondemand/cam');
    await waitFor(async () => (await streamStats(server, 'ondemand/cam', 'ondemand')).alive);
    // A player: its requests keep the stream on; the timeout counts from the last one.
    const playlist = await waitFor(async () => {
      const answer = await getText(`${server.url}/ondemand/cam/index.m3u8`);
      return answer.status === 200 ? answer : undefined;
    });
    const lastPlayAt = Date.now();
    expect(playlist.text).toContain('#EXTM3U');
    const exitCode = await waitFor(async () => {
      const code = await Promise.race([publisher.exited, Promise.resolve('running' as const)]);
      return code === 'running' ? undefined : { code };
    }, 30_000);
    expect(Date.now() - lastPlayAt).toBeGreaterThanOrEqual(3000);
    expect(exitCode.code).not.toBe(0);
    await waitFor(async () => !(await publishedNames('ondemand')).includes('ondemand/cam'));
    expect(server.output()).toContain(
      'published stream ondemand/cam removed: no clients for 3 s (clients_timeout)',
    );
  });

  it('pulls PREFIX/NAME for a player from the url with {NAME} filled in, on demand', async () => {
    const port = await freePort();
    publishers.push(udpSender(port));
    const playlist = await waitFor(async () => {
      const answer = await getText(`${server.url}/pull/${port}/index.m3u8`);
      return answer.status === 200 ? answer : undefined;
    }, 30_000);
    expect(playlist.text).toContain('#EXTM3U');
    const stats = await waitFor(async () => {
      const s = await streamStats(server, `pull/${port}`, 'pull');
      return s.alive && (s.bitrate ?? 0) > 0 ? s : undefined;
    });
    expect(stats.url).toBe(`udp://127.0.0.1:${port}`);
    // A name in except is not pulled.
    expect((await getText(`${server.url}/pull/9/index.m3u8`)).status).toBe(404);
    // No player: gone after the location's clients_timeout.
    await waitFor(async () => !(await publishedNames('pull')).includes(`pull/${port}`), 20_000);
    expect(server.output()).toContain(`published stream pull/${port} removed: no clients for 2 s`);
  });
});
