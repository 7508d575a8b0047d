import type { ClientSession } from '@sluice/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from './events-client.js';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, streamStats } from './media-helpers.js';

/** Client sessions, close_sessions, and the stream topics of the events websocket (spec 001 §7). */
describe('sessions and stream topics', () => {
  let server: RunningServer;
  let events: EventsClient;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
    events = await EventsClient.open(`${server.url}/flussonic/api/events`, { authorization: basicAuth() });
  });
  afterAll(async () => {
    events?.close();
    await server?.cleanup();
  });

  const sessionsOf = async (name: string) =>
    ((await events.request(`sessions?name=${name}`, 'sessions')) as unknown as { sessions: ClientSession[] })
      .sessions;

  it('counts a player session by its token, with bytes, duration and user agent', async () => {
    const master = await fetch(`${server.url}/demo/index.m3u8?token=viewer-1`, {
      headers: { 'user-agent': 'TestPlayer/1' },
    });
    expect(master.status).toBe(200);
    await master.text();
    await getText(`${server.url}/demo/video.m3u8?token=viewer-1`);
    // Both requests carry the token: one session.
    const sessions = await sessionsOf('demo');
    expect(sessions).toHaveLength(1);
    const byToken = sessions.find((s) => s.token === 'viewer-1')!;
    expect(byToken).toMatchObject({ type: 'hls', ip: '127.0.0.1', user_agent: 'TestPlayer/1' });
    expect(byToken.bytes_sent).toBeGreaterThan(100);
    expect(byToken.duration).toBeGreaterThanOrEqual(0);
    await waitFor(async () => (await streamStats(server, 'demo')).client_count === 1);
  });

  it('closes a session on close_sessions: its next request is refused, others go on', async () => {
    const target = (await sessionsOf('demo')).find((s) => s.token === 'viewer-1')!;
    const response = await server.api('/flussonic/api/close_sessions', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `${target.id}\nno-such-id`,
    });
    expect(await response.json()).toEqual({ ok: true, closed: 1 });
    expect((await getText(`${server.url}/demo/video.m3u8?token=viewer-1`)).status).toBe(403);
    expect((await getText(`${server.url}/demo/video.m3u8?token=viewer-2`)).status).toBe(200);
    expect((await sessionsOf('demo')).map((s) => s.token)).not.toContain('viewer-1');
  });

  it('ends a continuous-TS connection whose session is closed', async () => {
    const response = await fetch(`${server.url}/demo/mpegts?token=tv-1`);
    const reader = response.body!.getReader();
    await reader.read();
    const id = (await sessionsOf('demo')).find((s) => s.token === 'tv-1')!.id;
    await server.api('/flussonic/api/close_sessions', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: id,
    });
    await waitFor(async () => (await reader.read()).done, 10_000);
  });

  it('applies the protocol switches and max_sessions without a restart', async () => {
    const before = (await streamStats(server, 'demo')).start_running_at;
    await modifyConfig(server, { streams: { demo: { protocols: { hls: false } } } });
    const off = await getText(`${server.url}/demo/index.m3u8`);
    expect(off).toEqual({ status: 403, text: 'hls is switched off for stream demo\n' });
    const ts = new AbortController();
    expect((await fetch(`${server.url}/demo/mpegts`, { signal: ts.signal })).status).toBe(200);
    ts.abort();
    await modifyConfig(server, { streams: { demo: { protocols: null } } });

    const open = (await sessionsOf('demo')).length;
    await modifyConfig(server, { streams: { demo: { max_sessions: open + 1 } } });
    expect((await getText(`${server.url}/demo/video.m3u8?token=one-more`)).status).toBe(200);
    const over = await getText(`${server.url}/demo/video.m3u8?token=too-many`);
    expect(over).toEqual({
      status: 403,
      text: `stream demo has its ${open + 1} sessions already (max_sessions)\n`,
    });
    expect((await getText(`${server.url}/demo/video.m3u8?token=one-more`)).status).toBe(200);
    await modifyConfig(server, { streams: { demo: { max_sessions: null } } });
    expect((await streamStats(server, 'demo')).start_running_at).toBe(before);
  });

  it('streams the stream log: the recent lines, then new ones as they come', async () => {
    const seen = events.events.length;
    events.send('log_media_start:demo');
    const lines = () =>
      events.events
        .slice(seen)
        .filter((e) => e.event === 'log.entry' && e.name === 'demo')
        .map((e) => String(e.text));
    await waitFor(() => lines().some((l) => l.endsWith(' started')));
    expect((await server.api('/flussonic/api/stream_restart/demo', { method: 'POST' })).status).toBe(200);
    await waitFor(() => lines().some((l) => l.includes('restarted by request')));
    events.send('log_media_stop:demo');
  });

  it('answers a traffic subscription with the per-minute series of the stream', async () => {
    const event = await events.request('pulse_subscribe:media/demo', 'pulse.traffic');
    expect(event).toMatchObject({ topic: 'media/demo', resolution: 'minute', partial_update: false });
    expect((event.series as { label: string }[]).map((s) => s.label)).toEqual(['input', 'output']);
    events.send('pulse_unsubscribe:media/demo');
  });
});
