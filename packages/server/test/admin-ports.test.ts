import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { httpsGet, tlsAnswers } from './https-helpers.js';
import { modifyConfig } from './media-helpers.js';

const get = (port: number, path: string, auth = true) =>
  fetch(`http://127.0.0.1:${port}${path}`, { headers: auth ? { authorization: basicAuth() } : {} });

/** Issue 19: with admin ports set, the public ports answer playback but not the console nor the API. */
describe('admin ports', () => {
  let server: RunningServer;
  let adminHttp: number;
  let adminHttps: number;
  let busy: Server;
  let busyPort: number;
  let busyMedia: Server;
  let busyMediaPort: number;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n  segment_duration 1;\n}\n`,
    });
    [adminHttp, adminHttps] = [await freePort(), await freePort()];
    // A port something else holds: asked for as an `https` port, it can't be bound.
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
    // And one asked for as the `rtmps` port: media listeners report the same way.
    busyMedia = createServer();
    await new Promise<void>((resolve) => busyMedia.listen(0, '127.0.0.1', resolve));
    busyMediaPort = (busyMedia.address() as { port: number }).port;
    await waitFor(async () => (await get(server.port, '/demo/video.m3u8', false)).status === 200, 30_000);
    // Set live, as an operator would from Settings: the admin ports open, the public one stops the API.
    await modifyConfig(server, {
      admin_http: [adminHttp],
      admin_https: [adminHttps],
      https: [busyPort],
      rtmps: busyMediaPort,
    });
    await waitFor(async () => (await get(adminHttp, '/flussonic/api/server').catch(() => undefined))?.ok);
  });
  afterAll(async () => {
    if (busy.listening) busy.close();
    if (busyMedia.listening) busyMedia.close();
    await server.cleanup();
  });

  it('the public port plays and answers 404 for the console and the API', async () => {
    const playlist = await get(server.port, '/demo/video.m3u8', false);
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toContain('#EXTM3U');
    expect((await get(server.port, '/flussonic/api/server')).status).toBe(404);
    expect((await get(server.port, '/flussonic/api/read_config')).status).toBe(404);
    expect((await get(server.port, '/admin/')).status).toBe(404);
  });

  it('the admin ports serve the console and the API (HTTP and HTTPS) and no playback', async () => {
    expect((await get(adminHttp, '/admin/')).status).toBe(200);
    expect((await get(adminHttp, '/flussonic/api/server', false)).status).toBe(401);
    expect((await get(adminHttp, '/flussonic/api/server')).status).toBe(200);
    expect((await get(adminHttp, '/demo/video.m3u8', false)).status).toBe(404);
    await waitFor(() => tlsAnswers(adminHttps));
    expect((await httpsGet(adminHttps, '/flussonic/api/server')).status).toBe(200);
    expect((await httpsGet(adminHttps, '/admin/')).status).toBe(200);
    expect((await httpsGet(adminHttps, '/demo/video.m3u8', {})).status).toBe(404);
  });

  it('a port that cannot be bound is a header notice', async () => {
    const notice = await waitFor(async () => {
      const config = (await (await get(adminHttp, '/flussonic/api/read_config')).json()) as {
        stats: { status: Record<string, string> };
      };
      return config.stats.status[`error_listen_https_${busyPort}`];
    });
    expect(notice).toMatch(new RegExp(`Can't listen on HTTPS port ${busyPort}: .*EADDRINUSE`));
    // Freed by whoever held it: bound on a retry, with no config change, and the notice goes.
    await new Promise<void>((resolve) => busy.close(() => resolve()));
    await waitFor(() => tlsAnswers(busyPort));
    await waitFor(async () => {
      const config = (await (await get(adminHttp, '/flussonic/api/read_config')).json()) as {
        stats: { status: Record<string, string> };
      };
      return config.stats.status[`error_listen_https_${busyPort}`] === undefined;
    });
  });

  it('an RTMPS port that cannot be bound is a header notice too, and is taken once freed', async () => {
    const status = async () =>
      (
        (await (await get(adminHttp, '/flussonic/api/read_config')).json()) as {
          stats: { status: Record<string, string> };
        }
      ).stats.status;
    const key = `error_listen_rtmps_${busyMediaPort}`;
    const notice = await waitFor(async () => (await status())[key]);
    expect(notice).toMatch(new RegExp(`Can't listen on RTMPS port ${busyMediaPort}: .*EADDRINUSE`));
    await new Promise<void>((resolve) => busyMedia.close(() => resolve()));
    await waitFor(() => tlsAnswers(busyMediaPort));
    await waitFor(async () => (await status())[key] === undefined);
  });

  it('removing the admin ports gives the console and the API back to the public port', async () => {
    const response = await fetch(`http://127.0.0.1:${adminHttp}/flussonic/api/modify_config`, {
      method: 'POST',
      headers: { authorization: basicAuth(), 'content-type': 'application/json' },
      body: JSON.stringify({ admin_http: null, admin_https: null, https: null }),
    });
    expect(response.status).toBe(200);
    await waitFor(async () => (await get(server.port, '/flussonic/api/server')).ok);
    await waitFor(async () => !(await tlsAnswers(adminHttps)));
    // Its open connections (this keep-alive one) end too.
    await waitFor(() =>
      get(adminHttp, '/admin/').then(
        () => false,
        () => true,
      ),
    );
  });
});
