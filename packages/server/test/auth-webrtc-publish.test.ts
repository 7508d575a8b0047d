import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthBackend, type TestBackend } from './auth-helpers.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig, streamStats } from './media-helpers.js';
import { type WebrtcClient, webrtcPublisher } from './webrtc-client.js';

/** Publish authorization of WebRTC publishers, by a location's custom HTTP backend. */
describe('play authorization: WebRTC publish', () => {
  let server: RunningServer;
  let backend: TestBackend;
  const clients: WebrtcClient[] = [];

  beforeAll(async () => {
    backend = await startAuthBackend(['pub-ok']);
    server = await startServer({ config: `${minimalConfig}live live {\n  source_timeout 2;\n}\n` });
    await modifyConfig(server, { lives: { live: { auth: { url: backend.url } } } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await server?.cleanup();
    await backend?.close();
  });

  const publish = async (path: string) => {
    const client = await webrtcPublisher(`${server.url.replace(/^http/, 'ws')}/webrtc/publish/${path}`);
    clients.push(client);
    return client;
  };

  it('refuses a publisher the backend denies, takes the one it allows', async () => {
    const denied = await publish('live/web?token=pub-bad');
    const code = await denied.closed;
    // On failure, say what the server did with the publish.
    const said = server
      .output()
      .split('\n')
      .filter((l) => l.includes('live/web'))
      .join('\n');
    expect(code, `${JSON.stringify(denied.replies.at(-1))}\n${said}`).toBe(1008);
    expect(denied.replies.at(-1)).toEqual({
      type: 'error',
      message: 'access denied: the auth backend denied',
    });
    const asked = backend.calls.find((q) => q.get('token') === 'pub-bad')!;
    expect(Object.fromEntries(asked)).toMatchObject({
      name: 'live/web',
      proto: 'webrtc',
      request_type: 'publish',
    });

    const allowed = await publish('live/web?token=pub-ok');
    expect((await allowed.reply).type).toBe('answer');
    await waitFor(async () => (await streamStats(server, 'live/web', 'live')).alive, 30_000);
  }, 60_000);
});
