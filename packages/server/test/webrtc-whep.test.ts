import type { ClientSession } from '@sluice/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthBackend, type TestBackend } from './auth-helpers.js';
import { EventsClient } from './events-client.js';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig, streamStats } from './media-helpers.js';
import { whepPlay, type WhepClient } from './whep-client.js';

const SAMPLE_OFFER = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

/** WHEP playback (RFC 9725) with a Node WebRTC viewer: the wire, sessions, and refusals. */
describe('WHEP playback', () => {
  let server: RunningServer;
  let backend: TestBackend;
  let events: EventsClient;
  const clients: WhepClient[] = [];

  beforeAll(async () => {
    backend = await startAuthBackend(['good']);
    server = await startServer({
      config:
        `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n` +
        `stream lazy {\n  url test://?size=320x180&bitrate=300;\n}\n` +
        `stream guarded {\n  url test://?size=320x180&bitrate=300;\n}\n`,
    });
    await modifyConfig(server, { streams: { guarded: { auth: { url: backend.url } } } });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
    events = await EventsClient.open(`${server.url}/flussonic/api/events`, { authorization: basicAuth() });
  });
  afterAll(async () => {
    events?.close();
    for (const c of clients) await c.close();
    await server?.cleanup();
    await backend?.close();
  });

  it('answers an offer with 201, the answer and a Location; H.264 starts at a keyframe with SPS/PPS, and Opus flows', async () => {
    const client = await whepPlay(`${server.url}/demo/whep`, { headers: { 'user-agent': 'WhepTest/1' } });
    clients.push(client);
    expect(client.status).toBe(201);
    expect(client.location).toMatch(/^\/demo\/whep\/[0-9a-f]{32}$/);
    expect(client.answer).toMatch(/^v=0/);
    expect(client.answer).toMatch(/a=rtpmap:\d+ H264\/90000/);
    expect(client.answer).toContain('packetization-mode=1');
    expect(client.answer).toMatch(/a=sendonly/);
    await waitFor(() => client.reception.videoPackets > 50 && client.reception.audioPackets > 25, 20_000);
    // The first picture a viewer gets decodes: SPS and PPS, then the IDR.
    expect(client.reception.firstVideoNalTypes.slice(0, 3)).toEqual([7, 8, 5]);
    // The viewer is a session of the stream, of type webrtc, with bytes counted.
    const sessions = await waitFor(async () => {
      const stats = await streamStats(server, 'demo');
      return stats.client_count === 1 && (stats.bytes_out ?? 0) > 10_000 ? stats : undefined;
    });
    expect(sessions.client_count).toBe(1);
    const list = (await events.request('sessions?name=demo', 'sessions')) as unknown as {
      sessions: ClientSession[];
    };
    expect(list.sessions).toHaveLength(1);
    expect(list.sessions[0]).toMatchObject({ type: 'webrtc', user_agent: 'WhepTest/1', ip: '127.0.0.1' });
  });

  it('takes trickled candidates (204), refuses an ICE restart (422), and DELETE ends the viewer', async () => {
    const client = clients[0]!;
    const resource = `${server.url}${client.location!}`;
    const ufrag = /a=ice-ufrag:(\S+)/.exec(client.offer)![1]!;
    const patch = (body: string, headers: Record<string, string> = {}) =>
      fetch(resource, {
        method: 'PATCH',
        headers: { 'content-type': 'application/trickle-ice-sdpfrag', ...headers },
        body,
      });
    const trickle = await patch(
      `a=ice-ufrag:${ufrag}\r\na=mid:0\r\na=candidate:1 1 udp 2113937151 127.0.0.1 9 typ host\r\na=end-of-candidates\r\n`,
      { 'if-match': '*' },
    );
    expect(trickle.status).toBe(204);
    expect((await patch('a=ice-ufrag:other\r\na=ice-pwd:xxxxxxxxxxxxxxxxxxxxxxxx\r\n')).status).toBe(422);
    expect((await patch('garbage')).status).toBe(400);
    expect((await patch('a=mid:0\r\n', { 'if-match': '"nope"' })).status).toBe(412);
    expect((await fetch(resource, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(resource, { method: 'DELETE' })).status).toBe(404);
    await waitFor(() => server.output().includes('ended by the player (DELETE)'));
  });

  it('answers the CORS preflight a browser sends before the offer', async () => {
    const preflight = await fetch(`${server.url}/demo/whep`, {
      method: 'OPTIONS',
      headers: { origin: 'http://player.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
  });

  it('wakes an on-demand stream like an HLS request does', async () => {
    expect((await streamStats(server, 'lazy')).running).toBeFalsy();
    const client = await whepPlay(`${server.url}/lazy/whep`);
    clients.push(client);
    expect(client.status).toBe(201);
    await waitFor(() => client.reception.videoPackets > 10, 20_000);
    expect((await streamStats(server, 'lazy')).running).toBe(true);
    await client.close();
  });

  it('refuses bad offers with a clear 4xx and starts nothing', async () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', ...headers },
        body,
      });
    const garbage = await post('/guarded/whep', 'hello');
    expect(garbage.status).toBe(400);
    expect(await garbage.text()).toMatch(/v=0/);
    const noH264 = await whepPlay(`${server.url}/guarded/whep?token=good`, {
      mangleOffer: (sdp) => sdp.replace(/H264/g, 'VP8'),
    });
    expect(noH264.status).toBe(400);
    expect(noH264.answer).toMatch(/no H\.264/);
    await noH264.close();
    expect((await post('/missing/whep', SAMPLE_OFFER)).status).toBe(404);
    expect((await post('/guarded/whep', SAMPLE_OFFER, { 'content-type': 'text/plain' })).status).toBe(415);
    const huge = await post('/guarded/whep', `v=0\r\n${'a=x\r\n'.repeat(40_000)}`);
    expect(huge.status).toBe(413);
    const denied = await whepPlay(`${server.url}/guarded/whep`, { headers: { authorization: 'Bearer bad' } });
    expect(denied.status).toBe(403);
    expect(denied.answer).toMatch(/access denied/);
    await denied.close();
    // None of these woke the on-demand stream.
    expect((await streamStats(server, 'guarded')).running).toBeFalsy();
    // The right token as a Bearer header plays.
    const allowed = await whepPlay(`${server.url}/guarded/whep`, {
      headers: { authorization: 'Bearer good' },
    });
    clients.push(allowed);
    expect(allowed.status).toBe(201);
    await waitFor(() => allowed.reception.videoPackets > 10, 20_000);
  });
});
