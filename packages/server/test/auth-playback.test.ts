import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../src/cluster/proof.js';
import { callsFor, firstBytes, startAuthBackend, type TestBackend } from './auth-helpers.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, segmentUris, streamStats } from './media-helpers.js';

/** Play authorization with a custom HTTP backend, on HLS and MPEG-TS (spec 001 §4 Auth type custom). */
describe('play authorization: custom backend', () => {
  let server: RunningServer;
  let backend: TestBackend;

  beforeAll(async () => {
    backend = await startAuthBackend(['good', 'ts-good']);
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
    await modifyConfig(server, { streams: { demo: { auth: { url: backend.url, extra: { site: 'tv7' } } } } });
  });
  afterAll(async () => {
    await server?.cleanup();
    await backend?.close();
  });

  it('HLS: the allowed token gets the playlists and segments, asking the backend once', async () => {
    const master = await fetch(`${server.url}/demo/index.m3u8?token=good`, {
      headers: { 'user-agent': 'AuthTest/1', referer: 'https://site.example/page' },
    });
    expect(master.status).toBe(200);
    expect(await master.text()).toContain('video.m3u8?token=good');
    // Later requests of the session (another user agent, no referer) use the same answer.
    const playlist = await getText(`${server.url}/demo/video.m3u8?token=good`);
    expect(playlist.status).toBe(200);
    const segments = segmentUris(playlist.text);
    expect(segments[0]).toMatch(/^seg-\d+\.ts\?token=good$/);
    for (const uri of segments.slice(0, 2)) {
      const segment = await fetch(`${server.url}/demo/${uri}`);
      expect(segment.status).toBe(200);
      expect(Buffer.from(await segment.arrayBuffer())[0]).toBe(0x47);
    }
    // The answer holds for the session: one call for four requests.
    const calls = callsFor(backend, 'good');
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(calls[0]!)).toMatchObject({
      name: 'demo',
      token: 'good',
      proto: 'hls',
      request_type: 'play',
      ip: '127.0.0.1',
      user_agent: 'AuthTest/1',
      referer: 'https://site.example/page',
      site: 'tv7',
    });
    expect(calls[0]!.get('session_id')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('HLS: the denied token, and no token, get 403 and no media', async () => {
    const playlist = await getText(`${server.url}/demo/video.m3u8?token=bad`);
    expect(playlist.status).toBe(403);
    expect(playlist.text).toMatch(/^access denied/);
    const good = await getText(`${server.url}/demo/video.m3u8?token=good`);
    const uri = segmentUris(good.text)[0]!.replace('token=good', 'token=bad');
    const segment = await fetch(`${server.url}/demo/${uri}`);
    expect(segment.status).toBe(403);
    expect(segment.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await segment.text()).includes('G')).toBe(false);
    expect((await getText(`${server.url}/demo/index.m3u8`)).status).toBe(403);
    expect(callsFor(backend, 'bad').length).toBeGreaterThanOrEqual(1);
  });

  it('MPEG-TS: the allowed token gets the stream, the denied one 403 and no bytes', async () => {
    const allowed = await firstBytes(`${server.url}/demo/mpegts?token=ts-good`);
    expect(allowed.status).toBe(200);
    expect(allowed.bytes[0]).toBe(0x47);
    expect(allowed.bytes[188]).toBe(0x47);
    expect(callsFor(backend, 'ts-good')[0]!.get('proto')).toBe('mpegts');
    const denied = await fetch(`${server.url}/demo/mpegts?token=ts-bad`);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toMatch(/^access denied: the auth backend denied/);
  });

  it('DASH and the preview are under the same authorization', async () => {
    expect((await getText(`${server.url}/demo/index.mpd?token=bad`)).status).toBe(403);
    expect((await getText(`${server.url}/demo/preview.jpg?token=bad`)).status).toBe(403);
  });

  it('a mirror proving the cluster key pulls a protected stream; a wrong proof is a viewer', async () => {
    await modifyConfig(server, { cluster_key: 'cluster-secret' });
    const pull = (key: string) =>
      firstBytes(`${server.url}/demo/mpegts`, {
        headers: { [CLUSTER_PROOF_HEADER]: signClusterRequest(key, '/demo/mpegts') },
      });
    const mirror = await pull('cluster-secret');
    expect(mirror.status).toBe(200);
    expect(mirror.bytes[0]).toBe(0x47);
    expect((await pull('not-the-key')).status).toBe(403);
    await waitFor(() =>
      server.output().includes('cluster pull of demo from 127.0.0.1 not accepted: wrong cluster key'),
    );
  });

  it('a restriction added while a player is on ends its session', async () => {
    const response = await fetch(`${server.url}/demo/mpegts?token=ts-good`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await modifyConfig(server, { streams: { demo: { auth: { domains: ['tv.example.com'] } } } });
    // Checked again within 10 s: the connection is ended.
    await waitFor(async () => (await reader.read()).done, 25_000);
    expect(server.output()).toMatch(/of demo \(mpegts, 127\.0\.0\.1\) ended: allowed domains are set/);
    await modifyConfig(server, { streams: { demo: { auth: { domains: null } } } });
  });

  it('a backend that is down denies, and the reason is logged', async () => {
    await modifyConfig(server, { streams: { demo: { auth: { url: 'http://127.0.0.1:9/down' } } } });
    expect((await getText(`${server.url}/demo/video.m3u8?token=good`)).status).toBe(403);
    await waitFor(() => server.output().includes('auth of demo: backend http://127.0.0.1:9/down failed'));
  });
});
