import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig } from './media-helpers.js';
import { mirrorView } from './mirror-helpers.js';

const KEY = 'auth-mirror-key';

/**
 * A protected stream on an origin is pulled by a mirror that proves the cluster key, while viewers
 * of the origin are refused; on the mirror, the mirror's own auth governs its viewers.
 */
describe('play authorization across a mirror', () => {
  let origin: RunningServer;
  let mirror: RunningServer;

  beforeAll(async () => {
    [origin, mirror] = await Promise.all([
      startServer({
        config:
          `${minimalConfig}cluster_key ${KEY};\nauth_backend closed {\n  deny default;\n}\n` +
          `stream a {\n  url test://?size=160x120&bitrate=150;\n  static true;\n  auth {\n    url auth://closed;\n  }\n}\n`,
      }),
      startServer({
        config: `${minimalConfig}auth_backend gate {\n  allow token m-ok m-two;\n}\n`,
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([origin?.cleanup(), mirror?.cleanup()]);
  });

  it('the origin refuses its viewers but lets the mirror pull', async () => {
    await waitFor(async () => (await getText(`${origin.url}/a/video.m3u8`)).status === 403, 20_000);
    expect((await getText(`${origin.url}/a/mpegts`)).text).toMatch(/^access denied: auth backend closed/);
    await modifyConfig(mirror, {
      sources: {
        '-1': { urls: [origin.url], cluster_key: KEY, auth: { url: 'auth://gate', max_sessions: 1 } },
      },
    });
    await waitFor(async () => (await mirrorView(mirror)).streams.a?.stats.alive, 25_000);
  });

  it("the mirror's viewers are checked by the mirror's auth and max_sessions", async () => {
    const allowed = await waitFor(async () => {
      const r = await getText(`${mirror.url}/a/video.m3u8?token=m-ok`);
      return r.status === 200 ? r : undefined;
    }, 15_000);
    expect(allowed.text).toContain('#EXTINF');
    const denied = await getText(`${mirror.url}/a/video.m3u8?token=nope`);
    expect(denied).toEqual({
      status: 403,
      text: 'access denied: auth backend gate: no rule allowed it and allow_default is off\n',
    });
    const second = await getText(`${mirror.url}/a/video.m3u8?token=m-two`);
    expect(second.status).toBe(403);
    expect(second.text).toMatch(/max_sessions/);
  });
});
