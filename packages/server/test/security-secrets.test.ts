import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from './events-client.js';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText } from './media-helpers.js';
import { plantSecrets } from './security-secrets-plants.js';

interface Login {
  login: string;
  password: string;
}

const json = (body: unknown, who: Login) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: basicAuth(who.login, who.password) },
  body: JSON.stringify(body),
});

/** Asserts that none of `secrets` is anywhere in `text` (the raw answer, not a parsed field). */
function expectNone(text: string, secrets: readonly string[], where: string): void {
  const leaked = secrets.filter((s) => text.includes(s));
  expect(leaked, `${where} leaks`).toEqual([]);
}

/**
 * Issue 13 (High): a view-only login read every secret. A distinct secret is planted in every field
 * of the secret table (SECRET_FIELDS, so a new field is planted too); a view_auth caller must find
 * none of them in any answer, and an edit caller finds them all.
 */
describe('view-only callers read no secret', () => {
  let server: RunningServer;
  const round1 = plantSecrets('one');
  const round2 = plantSecrets('two');
  const creds = (config: Record<string, unknown>, key: 'edit_auth' | 'view_auth') => config[key] as Login;
  const admin = creds(round1.config, 'edit_auth');
  const viewer = creds(round1.config, 'view_auth');
  const viewerToken = `viewer-token-${round1.secrets[0]}`;
  const as = (who: Login, path: string) =>
    server.api(path, { headers: { authorization: basicAuth(who.login, who.password) } });

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\n`,
    });
    const planted = { ...round1.config, streams: { ...(round1.config.streams as object) } };
    // The planted stream runs, so its stats show the active source url too.
    (planted.streams as Record<string, Record<string, unknown>>).planted!.static = true;
    const answer = await server.api('/flussonic/api/modify_config', {
      ...json(planted, { login: 'admin', password: 'test-secret-pw' }),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    await waitFor(async () => {
      const config = (await (await as(admin, '/flussonic/api/read_config')).json()) as Record<string, any>;
      return config.streams?.planted?.stats?.url && config.streams?.demo?.stats?.alive;
    }, 30_000);
  });
  afterAll(() => server?.cleanup());

  it('read_config: a view caller gets none, an edit caller gets them all', async () => {
    const shown = await (await as(viewer, '/flussonic/api/read_config')).text();
    expectNone(shown, round1.secrets, 'view read_config');
    // The console still has what it shows: the item, its source's host, an auth type.
    const config = JSON.parse(shown) as Record<string, any>;
    expect(config.streams.planted.urls[0].url).toMatch(
      /^http:\/\/user:\*\*\*@127\.0\.0\.1:9\/app\/s\?token=\*\*\*$/,
    );
    expect(config.streams.planted.stats.url).toContain('127.0.0.1:9');
    expect(config.edit_auth).toBeUndefined();
    const full = await (await as(admin, '/flussonic/api/read_config')).text();
    expect(round1.secrets.filter((s) => !full.includes(s))).toEqual([]);
  });

  it('server info: no admin token for a view caller', async () => {
    const info = (await (await as(admin, '/flussonic/api/server')).json()) as { admin_token?: string };
    expect(info.admin_token).toMatch(/.{16,}/);
    const shown = await (await as(viewer, '/flussonic/api/server')).text();
    expect(JSON.parse(shown)).not.toHaveProperty('admin_token');
    expectNone(shown, [info.admin_token!], 'view server info');
    expectNone(
      await (await as(viewer, '/flussonic/api/read_config')).text(),
      [info.admin_token!],
      'view read_config',
    );
  });

  it('websocket: the full config and the delta of an edit that changes every secret', async () => {
    const viewSocket = await EventsClient.open(`${server.url}/flussonic/api/events`, {
      authorization: basicAuth(viewer.login, viewer.password),
    });
    const editSocket = await EventsClient.open(`${server.url}/flussonic/api/events`, {
      authorization: basicAuth(admin.login, admin.password),
    });
    try {
      const full = await viewSocket.request('read_config', 'current_config');
      expectNone(JSON.stringify(full), round1.secrets, 'view websocket full config');
      await editSocket.request('read_config', 'current_config');

      // The sockets keep round 1's logins: a new password closes every socket opened with the old
      // one (an open socket outlives no credential), so round 2 leaves edit_auth and view_auth be.
      const logins = JSON.stringify([round2.config.edit_auth, round2.config.view_auth]);
      const secrets2 = round2.secrets.filter((s) => !logins.includes(s));
      const edit2 = { ...round2.config, edit_auth: admin, view_auth: viewer };
      const answer = await server.api('/flussonic/api/modify_config', json(edit2, admin));
      expect(answer.status, await answer.clone().text()).toBe(200);

      // The edit socket's delta carries every new secret: it is the edit that the view delta hides.
      const editSeen: Record<string, unknown>[] = [];
      await waitFor(async () => {
        editSeen.push(await editSocket.request('read_config_delta', 'current_config_delta'));
        const text = JSON.stringify(editSeen);
        return secrets2.every((s) => text.includes(s));
      }, 15_000);
      const viewSeen: Record<string, unknown>[] = [];
      await waitFor(async () => {
        viewSeen.push(await viewSocket.request('read_config_delta', 'current_config_delta'));
        // The delta that carries the edit: the planted stream's new source (hidden) is in it.
        return JSON.stringify(viewSeen).includes('"cluster_key":"***"');
      }, 15_000);
      expectNone(JSON.stringify(viewSocket.events), [...round1.secrets, ...secrets2], 'view websocket');
    } finally {
      viewSocket.close();
      editSocket.close();
    }
  });

  it("stream log, sessions and history: no viewer's token and no source password", async () => {
    const playlist = await getText(`${server.url}/demo/index.m3u8?token=${viewerToken}`);
    expect(playlist.status).toBe(200);
    const viewSocket = await EventsClient.open(`${server.url}/flussonic/api/events`, {
      authorization: basicAuth(viewer.login, viewer.password),
    });
    const editSocket = await EventsClient.open(`${server.url}/flussonic/api/events`, {
      authorization: basicAuth(admin.login, admin.password),
    });
    try {
      const sessions = (await editSocket.request('sessions?name=demo', 'sessions')) as {
        sessions: { id: string; token?: string }[];
      };
      expect(sessions.sessions.map((s) => s.token)).toContain(viewerToken);
      const shownSessions = await viewSocket.request('sessions?name=demo', 'sessions');
      expectNone(JSON.stringify(shownSessions), [viewerToken], 'view sessions');
      expect(JSON.stringify(shownSessions)).toContain('"token":"***"');

      viewSocket.send('log_media_start:planted');
      await waitFor(() => viewSocket.events.some((e) => e.event === 'log.entry'), 15_000);
      expectNone(JSON.stringify(viewSocket.events), [...round1.secrets, ...round2.secrets], 'view log');

      // Closing the session writes it to the session log, which history reads.
      const ids = sessions.sessions.map((s) => s.id).join('\n');
      const closed = await server.api('/flussonic/api/close_sessions', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization: basicAuth(admin.login, admin.password) },
        body: ids,
      });
      expect(closed.status).toBe(200);
      await waitFor(async () =>
        (await (await as(admin, '/flussonic/api/history?media=demo')).text()).includes(viewerToken),
      );
      for (const query of ['media=demo', 'vsn=2&name=demo&sessions=true']) {
        const shown = await (await as(viewer, `/flussonic/api/history?${query}`)).text();
        expectNone(shown, [viewerToken], `view history ${query}`);
        expect(shown).toContain('"token":"***"');
      }
    } finally {
      viewSocket.close();
      editSocket.close();
    }
  });
});
