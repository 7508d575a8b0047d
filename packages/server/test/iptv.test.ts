import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, probeStreams, streamStats } from './media-helpers.js';
import { createUser, holdPlayer, type IptvUser, parseM3u, tvApi } from './iptv-helpers.js';

const VIEW = { login: 'viewer', password: 'view-secret-pw' };
const source = 'url test://?size=320x180&bitrate=300;\n  static true;';

/** Issue 24: the IPTV plugin's store, calls, playlists and authorization, on one real server. */
describe('IPTV plugin', () => {
  let server: RunningServer;
  let alice: IptvUser;
  let bob: IptvUser;
  /** Plays every channel (no max_sessions). */
  let viewer: IptvUser;
  const playlist = (user: IptvUser, type = '') =>
    getText(`${server.url}/tv/playlists/${user.id}.m3u?key=${user.key}${type ? `&type=${type}` : ''}`);

  beforeAll(async () => {
    const dvrRoot = join(await mkdtemp(join(tmpdir(), 'sluice-iptv-dvr-')), 'dvr');
    server = await startServer({
      config:
        `${minimalConfig}view_auth ${VIEW.login} ${VIEW.password};\n` +
        `stream news {\n  ${source}\n  title "News 24";\n  meta { iptv; group News; logo http://logos.example/news.png; tvg_id news.tv; }\n}\n` +
        `stream sport {\n  ${source}\n  dvr ${dvrRoot} 2d;\n  meta { iptv; group Sport; }\n}\n` +
        `stream backstage {\n  ${source}\n}\n`,
    });
    const iptvAuth = { auth: { url: `http://127.0.0.1:${server.port}/tv/auth` } };
    await modifyConfig(server, { streams: { news: iptvAuth, sport: iptvAuth } });
    await waitFor(
      async () => (await streamStats(server, 'news')).alive && (await streamStats(server, 'sport')).alive,
      30_000,
    );
  });
  afterAll(() => server?.cleanup());

  it('is "not configured" until enabled; a database path that cannot be opened is refused and changes nothing', async () => {
    expect(await tvApi(server, 'users?count=30&from=0')).toEqual({
      status: 409,
      body: { error: 'IPTV is not configured' },
    });
    const status = (await tvApi(server, 'status')).body;
    expect(status).toMatchObject({ configured: false, error: null });
    expect(status.default_database).toMatch(/iptv\.db$/);
    // A folder where a file is needed: SQLite can't open it.
    const bad = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plugins: { iptv: { database: server.dir } } }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^unable to access database on path /);
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as { plugins?: unknown };
    expect(config.plugins).toBeUndefined();
    await modifyConfig(server, { plugins: { iptv: { database: 'iptv/users.db' } } });
    expect((await tvApi(server, 'status')).body).toMatchObject({
      configured: true,
      error: null,
      user_count: 0,
    });
  });

  it('creates, lists, filters, updates and deletes users, with clear 400s and keys hidden from view logins', async () => {
    alice = await createUser(server, { name: 'Alice', email: 'alice@example.com', max_sessions: 2 });
    bob = await createUser(server, { name: 'Bob', email: 'bob@example.com' });
    viewer = await createUser(server, { name: 'Viewer', email: 'viewer@example.com' });
    expect(alice.key).toMatch(/^[0-9a-f]{32}$/);
    expect(bob.key).not.toBe(alice.key);
    expect(bob.max_sessions).toBeNull();
    const carol = await createUser(server, { name: 'Carol', email: 'carol@tv.example' });
    const found = await tvApi(server, 'users?count=30&from=0&q=TV.EXAMPLE');
    expect(found.body).toEqual({ users: [carol], total: 1 });
    const page = await tvApi(server, 'users?count=2&from=1');
    expect((page.body.users as IptvUser[]).map((u) => u.name)).toEqual(['Bob', 'Viewer']);
    expect(page.body.total).toBe(4);
    const asViewer = await tvApi(server, 'users', undefined, basicAuth(VIEW.login, VIEW.password));
    expect((asViewer.body.users as IptvUser[]).every((u) => u.key === '***')).toBe(true);
    expect(
      (await tvApi(server, 'user_delete', { id: carol.id }, basicAuth(VIEW.login, VIEW.password))).status,
    ).toBe(403);
    expect((await tvApi(server, 'users', undefined, basicAuth(ADMIN.login, 'wrong'))).status).toBe(401);

    for (const [body, error] of [
      [{ email: 'x@y' }, 'name is required'],
      [{ name: 'X' }, 'email is required'],
      [{ name: 'X', email: 'not an email' }, 'email must look like name@host'],
      [{ name: 'X', email: 'x@y', max_sessions: -1 }, 'max_sessions must be an integer from 0 to 10000'],
      ['[]', 'the body must be a JSON object (a user)'],
    ] as const)
      expect(await tvApi(server, 'user_create', body)).toEqual({ status: 400, body: { error } });
    expect(await tvApi(server, 'user_update', { id: 'x' })).toEqual({
      status: 400,
      body: { error: 'id must be a positive integer' },
    });
    expect(await tvApi(server, 'user_update', { id: 999, name: 'Z' })).toEqual({
      status: 404,
      body: { error: 'no IPTV user with id 999' },
    });
    expect((await tvApi(server, 'users?count=5000')).status).toBe(400);

    // Concurrent edits of one user: the last applied is kept whole, never a mix of two.
    const edits = Array.from({ length: 20 }, (_, i) => ({
      id: carol.id,
      name: `Carol ${i}`,
      email: `c${i}@tv.example`,
    }));
    const answers = await Promise.all(edits.map((e) => tvApi(server, 'user_update', e)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const stored = ((await tvApi(server, `users?q=${carol.id}`)).body.users as IptvUser[])[0]!;
    expect(stored.email).toBe(`c${stored.name.split(' ')[1]}@tv.example`);
    const renewed = (await tvApi(server, 'user_update', { ...stored, key: null })).body.user as IptvUser;
    expect(renewed.key).not.toBe(carol.key);
    expect(await tvApi(server, 'user_delete', { id: carol.id })).toEqual({ status: 200, body: { ok: true } });
    expect((await tvApi(server, 'user_delete', { id: carol.id })).status).toBe(404);
  });

  it('a playlist lists the IPTV streams in order with tvg, group and catch-up attributes; ffprobe plays each channel, HLS and MPEG-TS', async () => {
    const hls = await playlist(viewer);
    expect(hls.status).toBe(200);
    const { header, entries } = parseM3u(hls.text);
    expect(header).toBe('#EXTM3U');
    expect(entries.map((e) => e.title)).toEqual(['News 24', 'sport']);
    expect(entries[0]!.attrs).toEqual({
      'tvg-id': 'news.tv',
      'tvg-name': 'News 24',
      'tvg-logo': 'http://logos.example/news.png',
      'group-title': 'News',
    });
    expect(entries[1]!.attrs).toMatchObject({
      'group-title': 'Sport',
      catchup: 'flussonic',
      'catchup-days': '2',
    });
    expect(entries[0]!.url).toBe(`${server.url}/news/index.m3u8?token=${viewer.key}`);
    const ts = parseM3u((await playlist(viewer, 'mpegts')).text).entries;
    expect(ts.map((e) => e.url)).toEqual([
      `${server.url}/news/mpegts?token=${viewer.key}`,
      `${server.url}/sport/mpegts?token=${viewer.key}`,
    ]);
    for (const entry of [...entries, ...ts]) {
      const streams = probeStreams(entry.url);
      expect(streams.map((s) => s.codec_name).sort(), entry.url).toEqual(['aac', 'h264']);
    }
    // Without the user's token the same urls are refused.
    expect((await getText(`${server.url}/news/index.m3u8`)).status).toBe(403);
    expect((await getText(`${server.url}/news/index.m3u8?token=${'0'.repeat(32)}`)).status).toBe(403);
  }, 120_000);

  it('the catch-up url plays the archive of the DVR stream', async () => {
    const info = await waitFor(async () => {
      const stats = await streamStats(server, 'sport');
      return (stats.dvr_info?.duration ?? 0) >= 8 ? stats.dvr_info : undefined;
    }, 40_000);
    const sport = parseM3u((await playlist(viewer)).text).entries[1]!;
    const url = sport.attrs['catchup-source']!.replace('{utc}', String(info!.from)).replace(
      '{duration}',
      '6',
    );
    expect(url).toBe(`${server.url}/sport/index-${info!.from}-6.m3u8?token=${viewer.key}`);
    const archive = await getText(url);
    expect(archive.text).toContain('#EXT-X-ENDLIST');
    expect(
      probeStreams(url)
        .map((s) => s.codec_name)
        .sort(),
    ).toEqual(['aac', 'h264']);
    const tsSource = parseM3u((await playlist(viewer, 'mpegts')).text).entries[1]!.attrs['catchup-source']!;
    expect(tsSource).toBe(`${server.url}/sport/timeshift_abs-{utc}.ts?token=${viewer.key}`);
    expect(
      probeStreams(tsSource.replace('{utc}', String(info!.from)))
        .map((s) => s.codec_name)
        .sort(),
    ).toEqual(['aac', 'h264']);
  }, 90_000);

  it("another user's key gets 403 and no channel; a malformed request or unknown user 404 saying nothing more", async () => {
    const wrong = await getText(`${server.url}/tv/playlists/${alice.id}.m3u?key=${bob.key}`);
    expect(wrong.status).toBe(403);
    expect(wrong.text).not.toContain('EXTINF');
    expect(wrong.text).not.toContain('news');
    const answers = await Promise.all(
      [
        `/tv/playlists/999.m3u?key=${bob.key}`,
        `/tv/playlists/${alice.id}.txt?key=${alice.key}`,
        `/tv/playlists/${alice.id}.m3u`,
        `/tv/playlists/${alice.id}.m3u?key=${alice.key}&type=dash`,
        `/tv/playlists/${alice.id}.m3u?key=%E0%A4%A`,
      ].map((p) => getText(`${server.url}${p}`)),
    );
    expect(answers).toEqual(answers.map(() => ({ status: 404, text: '{"error":"no such playlist"}' })));
    expect(server.output()).toContain(`playlist of user ${alice.id} asked with a wrong key`);
    // The {address} auth url over HTTP, for servers using this one as their backend.
    const auth = await fetch(`${server.url}/tv/auth?name=news&token=${viewer.key}`);
    expect([auth.status, auth.headers.get('x-userid')]).toEqual([200, String(viewer.id)]);
    expect((await fetch(`${server.url}/tv/auth?name=news&token=nope`)).status).toBe(403);
  });

  it('300 random playlist requests get 200, 403 or 404 and nothing else', async () => {
    const piece = fc.oneof(
      fc.constantFrom(
        `${alice.id}`,
        '.m3u',
        '?',
        '&',
        'key=',
        alice.key,
        'type=mpegts',
        '%',
        '%E0%A4%A',
        '+',
        '/',
      ),
      fc.string({ maxLength: 8 }),
    );
    const targets = fc.sample(
      fc.array(piece, { maxLength: 6 }).map((p) => `/tv/playlists/${p.join('')}`),
      300,
    );
    const statuses = new Set<number>();
    for (const target of targets) {
      const answer = await fetch(`${server.url}${target.replace(/[\s#]/g, '')}`).catch(() => undefined);
      if (answer) statuses.add(answer.status);
    }
    expect(
      [...statuses].every((s) => [200, 400, 403, 404].includes(s)),
      [...statuses].join(),
    ).toBe(true);
    expect((await playlist(viewer)).status).toBe(200);
  });

  it('max_sessions 2: a third session is refused, a channel change of the same device replaces its session', async () => {
    const url = (stream: string) => `${server.url}/${stream}/mpegts?token=${alice.key}`;
    const tv = await holdPlayer(url('news'), 'Box/1', '127.0.0.11');
    expect(tv.status).toBe(200);
    // An HLS player on a phone: its session lasts while it keeps asking (session_idle_seconds).
    const phone = await fetch(`${server.url}/news/index.m3u8?token=${alice.key}`, {
      headers: { 'user-agent': 'Phone/1' },
    });
    expect(phone.status).toBe(200);
    const third = await holdPlayer(url('sport'), 'Tablet/1', '127.0.0.13');
    expect(third.status).toBe(403);
    expect(third.body).toContain(`IPTV user ${alice.id} has its 2 sessions already (max_sessions)`);
    // The box zaps to sport: its news session is closed (the connection ends), the new one plays.
    const zapped = await holdPlayer(url('sport'), 'Box/1', '127.0.0.11');
    expect(zapped.status).toBe(200);
    await tv.ended;
    zapped.close();
  }, 60_000);

  it('deleting the user ends their playback at once (within 10 s), and their playlist is gone', async () => {
    const player = await holdPlayer(`${server.url}/news/mpegts?token=${bob.key}`, 'Bob/1');
    expect(player.status).toBe(200);
    const deletedAt = Date.now();
    expect((await tvApi(server, 'user_delete', { id: bob.id })).status).toBe(200);
    const endedAt = await player.ended;
    // Ended by a check made at the deletion (not the next 10 s pass): well within the 10 s.
    expect(endedAt - deletedAt).toBeLessThan(10_000);
    expect((await getText(`${server.url}/news/index.m3u8?token=${bob.key}`)).status).toBe(403);
    expect((await playlist(bob)).status).toBe(404);
    expect(server.output()).toMatch(/ended: unknown IPTV token/);
  }, 40_000);
});
