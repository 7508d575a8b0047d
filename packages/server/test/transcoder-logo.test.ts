import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LOGO_CORNERS, type LogoList } from '@sluice/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, streamStats } from './media-helpers.js';
import { firstFrameRgb, makePng, variantSegments } from './transcoder-helpers.js';

/** The logo calls (spec 001 §7) and a logo burnt into a transcoded stream (spec 001 §4 Logo position). */
describe('transcoder logos', () => {
  let server: RunningServer;
  const white = makePng('white', 64, 32);
  const put = (name: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    server.api(`/flussonic/api/logo/${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', ...headers },
      body,
    });
  const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

  beforeAll(async () => {
    server = await startServer({ config: `${minimalConfig}view_auth viewer view-pw;\n` });
  });
  afterAll(() => server?.cleanup());

  it('uploads, lists, returns and replaces a logo, stored in the logos folder beside the config', async () => {
    expect(await (await server.api('/flussonic/api/logo')).json()).toEqual({});
    expect((await put('corner.png', white)).status).toBe(200);
    expect(await (await server.api('/flussonic/api/logo')).json()).toEqual({ 'corner.png': { streams: [] } });
    const got = await server.api('/flussonic/api/logo/corner.png', { headers: { accept: 'image/*' } });
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer())).toEqual(white);
    expect(await readdir(join(server.dir, 'logos'))).toEqual(['corner.png']);
    const red = makePng('red', 16, 16);
    expect((await put('corner.png', red)).status).toBe(200);
    expect(Buffer.from(await (await server.api('/flussonic/api/logo/corner.png')).arrayBuffer())).toEqual(
      red,
    );
    expect((await put('corner.png', white)).status).toBe(200);
  });

  it('refuses bad names, non-pictures, oversized bodies and missing logos, storing nothing', async () => {
    const bad = await put('..%2Fsluice.conf', white);
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatch(/^bad logo name "\.\.\/sluice\.conf"/);
    expect((await put('.hidden', white)).status).toBe(400);
    expect((await server.api('/flussonic/api/logo/..%2Fsluice.conf')).status).toBe(400);
    const text = await put('notes.png', 'not a picture', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(await errorOf(text)).toBe(
      'logo notes.png is no PNG, JPEG, GIF, WebP or BMP picture; nothing was stored',
    );
    expect((await put('huge.png', Buffer.concat([white, Buffer.alloc(3 * 1024 * 1024)]))).status).toBe(413);
    expect((await put('empty.png', Buffer.alloc(0))).status).toBe(400);
    expect((await server.api('/flussonic/api/logo/none.png')).status).toBe(404);
    expect((await server.api('/flussonic/api/logo/none.png', { method: 'DELETE' })).status).toBe(404);
    expect(await readdir(join(server.dir, 'logos'))).toEqual(['corner.png']);
  });

  it('answers nothing without credentials, and only reads with view credentials', async () => {
    const viewer = { authorization: basicAuth('viewer', 'view-pw') };
    expect((await server.api('/flussonic/api/logo/corner.png', { headers: viewer })).status).toBe(200);
    expect((await put('other.png', white, viewer)).status).toBe(403);
    expect(
      (await server.api('/flussonic/api/logo/corner.png', { method: 'DELETE', headers: viewer })).status,
    ).toBe(403);
    const anonymous = { authorization: 'Basic ' + Buffer.from('nobody:wrong').toString('base64') };
    expect((await fetch(`${server.url}/flussonic/api/logo`)).status).toBe(401);
    expect((await fetch(`${server.url}/flussonic/api/logo/corner.png`)).status).toBe(401);
    expect((await put('other.png', white, anonymous)).status).toBe(401);
    expect(
      (await server.api('/flussonic/api/logo/corner.png', { method: 'DELETE', headers: anonymous })).status,
    ).toBe(401);
    expect(Object.keys((await (await server.api('/flussonic/api/logo')).json()) as LogoList)).toEqual([
      'corner.png',
    ]);
  });

  it('burns the logo into the rendition at its corner, and refuses to delete it while in use', async () => {
    await modifyConfig(server, {
      streams: {
        tv: {
          urls: [{ url: 'test://?size=640x360&bitrate=600' }],
          static: true,
          transcoder: {
            global: { hw: 'cpu' },
            video: {
              '0': {
                bitrate: 600000,
                codec: 'h264',
                logo: { path: '@corner.png', ...LOGO_CORNERS.top_left },
              },
            },
          },
        },
      },
    });
    await waitFor(async () => (await streamStats(server, 'tv')).running_transcoder, 60_000);
    expect(await (await server.api('/flussonic/api/logo')).json()).toEqual({
      'corner.png': { streams: ['tv'] },
    });
    const segment = await variantSegments(`${server.url}/tv/tracks-v1/video.m3u8`, 1, 0);
    const pixel = firstFrameRgb(segment, 640, 360);
    // The logo covers x 10..73, y 10..41; the test pattern's top-left corner is dark (≤ 62).
    for (const [x, y] of [
      [14, 14],
      [42, 26],
      [70, 38],
    ])
      expect(
        pixel(x!, y!).every((c) => c > 200),
        `(${x}, ${y}) is ${pixel(x!, y!).join(',')}`,
      ).toBe(true);
    expect(pixel(5, 5).every((c) => c > 200)).toBe(false);

    const refused = await server.api('/flussonic/api/logo/corner.png', { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toBe('logo corner.png is used by stream(s) tv: remove it from them first');
    await modifyConfig(server, { streams: { tv: null } });
    expect((await server.api('/flussonic/api/logo/corner.png', { method: 'DELETE' })).status).toBe(200);
    expect(await (await server.api('/flussonic/api/logo')).json()).toEqual({});
    expect((await getText(`${server.url}/flussonic/api/logo/corner.png`)).status).toBe(401);
  });
});
