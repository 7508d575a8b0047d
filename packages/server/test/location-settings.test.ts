import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, rtmpPublisher, streamStats } from './media-helpers.js';

/** A publishing location's except and clients_timeout (spec 000 §3 Location, spec 001 §2 Location output). */
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
        `live ondemand {\n  clients_timeout 3;\n}\n`,
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
});
