import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from './events-client.js';
import { ADMIN, basicAuth, type RunningServer, startServer, waitFor } from './harness.js';

const form = (login: string, password: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ login, password }).toString(),
});

describe('login', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.cleanup());

  it('answers 403 to wrong credentials and sets no cookie', async () => {
    const response = await fetch(`${server.url}/admin/login`, form(ADMIN.login, 'nope'));
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toBe('Invalid login/password');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('sets a session cookie that authorises calls until logout', async () => {
    const response = await fetch(`${server.url}/admin/login`, form(ADMIN.login, ADMIN.password));
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/sluice_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
    const session = cookie.split(';')[0]!;
    expect(
      (await fetch(`${server.url}/flussonic/api/read_config`, { headers: { cookie: session } })).status,
    ).toBe(200);
    const logout = await fetch(`${server.url}/admin/logout`, {
      method: 'POST',
      headers: { cookie: session },
    });
    expect(logout.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect(
      (await fetch(`${server.url}/flussonic/api/read_config`, { headers: { cookie: session } })).status,
    ).toBe(401);
  });

  it('ends console sessions when the admin password changes', async () => {
    const session = (await fetch(`${server.url}/admin/login`, form(ADMIN.login, ADMIN.password))).headers
      .get('set-cookie')!
      .split(';')[0]!;
    const changed = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ edit_auth: { login: ADMIN.login, password: 'a-new-password' } }),
    });
    expect(changed.status).toBe(200);
    expect(
      (await fetch(`${server.url}/flussonic/api/read_config`, { headers: { cookie: session } })).status,
    ).toBe(401);
    expect(
      (
        await server.api('/flussonic/api/read_config', {
          headers: { authorization: basicAuth(ADMIN.login, 'a-new-password') },
        })
      ).status,
    ).toBe(200);
  });

  it('redirects / to the console', async () => {
    const response = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/admin');
  });
});

describe('events websocket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.cleanup());
  const events = `/flussonic/api/events`;

  it('refuses a connection without credentials', async () => {
    await expect(EventsClient.open(`${server.url}${events}`)).rejects.toThrow(/401/);
    await expect(
      EventsClient.open(`${server.url}${events}?auth=${Buffer.from('admin:bad').toString('base64')}`),
    ).rejects.toThrow(/401/);
  });

  it('sends the full config, then only what changed since that socket last asked', async () => {
    const a = await EventsClient.open(`${server.url}${events}`, { authorization: basicAuth() });
    const query = Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64');
    const b = await EventsClient.open(`${server.url}${events}?auth=${encodeURIComponent(query)}`);
    const full = await a.request('read_config', 'current_config');
    expect(full.partial_update).toBe(false);
    expect((full.data as Record<string, any>).stats.version).toBeDefined();
    await b.request('read_config', 'current_config');

    await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        streams: { fromb: { urls: ['udp://239.0.0.1:1'], title: 'Saved by another console' } },
      }),
    });
    // The other console's following polls see the change (it asks every second; counted by condition, not time).
    const delta = await waitFor(async () => {
      const event = await a.request('read_config_delta', 'current_config_delta');
      const data = event.data as Record<string, any>;
      return data.streams?.fromb ? data : undefined;
    });
    expect(delta.streams.fromb).toMatchObject({
      title: 'Saved by another console',
      urls: [{ url: 'udp://239.0.0.1:1' }],
    });
    // Only the changed stream, the config's new revision and the server stats, never the whole config again.
    expect(Object.keys(delta).every((k) => ['streams', 'stats', 'config_revision'].includes(k))).toBe(true);

    const next = await a.request('read_config_delta', 'current_config_delta');
    expect((next.data as Record<string, any>).streams).toBeUndefined();

    await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streams: { fromb: null } }),
    });
    const removed = await waitFor(async () => {
      const data = (await a.request('read_config_delta', 'current_config_delta')).data as Record<string, any>;
      return data.streams ? data : undefined;
    });
    expect(removed.streams).toEqual({ fromb: null });
    a.close();
    b.close();
  });

  it('pushes config_saved to subscribers of that topic until they unsubscribe', async () => {
    const client = await EventsClient.open(`${server.url}${events}`, { authorization: basicAuth() });
    const unknown = await client.request('subscribe:no_such_topic', 'error');
    expect(unknown.message).toMatch(/unknown topic: no_such_topic/);
    client.send('subscribe:config_saved');
    const save = () =>
      server.api('/flussonic/api/modify_config', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ streams: { topic_test: { urls: ['udp://239.0.0.1:1'] } } }),
      });
    // The subscription is registered before the next command is read: read_config orders them.
    await client.request('read_config', 'current_config');
    await save();
    await waitFor(() => client.events.some((e) => e.event === 'config_saved'));
    client.send('unsubscribe:config_saved');
    await client.request('read_config', 'current_config');
    const seen = client.events.filter((e) => e.event === 'config_saved').length;
    await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streams: { topic_test: null } }),
    });
    await client.request('read_config', 'current_config');
    expect(client.events.filter((e) => e.event === 'config_saved').length).toBe(seen);
    client.close();
  });

  it('answers an unknown command with an error event', async () => {
    const client = await EventsClient.open(`${server.url}${events}`, { authorization: basicAuth() });
    const error = await client.request('no_such_command', 'error');
    expect(error.message).toMatch(/unknown command/);
    client.close();
  });
});
