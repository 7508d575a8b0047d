import { copyFile, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientSession, HistorySession } from '@sluice/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthBackend, type TestBackend } from './auth-helpers.js';
import { EventsClient } from './events-client.js';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, segmentUris } from './media-helpers.js';
import { makeMovie } from './vod-playback-fixture.js';

interface LiveFile {
  name: string;
  prefix: string;
  stats: { client_count: number; bytes_out: number; opened_at: number; media_info?: { tracks: unknown[] } };
}

/** VOD files as live streams are: sessions, opened files, history, play auth, switches (issue 16). */
describe('VOD playback: sessions, opened files, auth and switches', () => {
  let server: RunningServer;
  let media: string;
  let events: EventsClient;
  let backend: TestBackend;

  beforeAll(async () => {
    media = await mkdtemp(join(tmpdir(), 'sluice-vod-sessions-'));
    makeMovie(join(media, 'movie.mp4'), 10);
    backend = await startAuthBackend(['good', 'good2']);
    server = await startServer({ config: `${minimalConfig}file vod {\n  path ${media};\n}\n` });
    const urls = [{ url: media }];
    await modifyConfig(server, {
      vods: {
        locked: { urls, auth: { url: backend.url, max_sessions: 1 } },
        nodl: { urls, download: false, protocols: { mpegts: false } },
        off: { urls, disabled: true },
      },
    });
    events = await EventsClient.open(`${server.url}/flussonic/api/events`, { authorization: basicAuth() });
  }, 120_000);
  afterAll(async () => {
    events?.close();
    await server?.cleanup();
    await backend?.close();
    await rm(media, { recursive: true, force: true });
  });

  const view = async () =>
    (await (await server.api('/flussonic/api/read_config')).json()) as {
      files?: Record<string, LiveFile>;
      stats: { opened_files: number };
    };
  const sessionsOf = async (name: string) =>
    ((await events.request(`sessions?name=${name}`, 'sessions')) as unknown as { sessions: ClientSession[] })
      .sessions;

  it('a player is a session under the file name; the file is opened while it plays, then closed', async () => {
    const player = { headers: { 'user-agent': 'VodPlayer/1' } };
    const master = await fetch(`${server.url}/vod/movie.mp4/index.m3u8?token=s1`, player);
    expect(master.status).toBe(200);
    expect(await master.text()).toContain('video.m3u8?token=s1');
    const playlist = await getText(`${server.url}/vod/movie.mp4/video.m3u8?token=s1`);
    await (await fetch(`${server.url}/vod/movie.mp4/${segmentUris(playlist.text)[0]}`)).arrayBuffer();
    const [session] = await sessionsOf('vod/movie.mp4');
    expect(session).toMatchObject({ type: 'hls', token: 's1', user_agent: 'VodPlayer/1' });
    expect(session!.bytes_sent).toBeGreaterThan(10_000);

    const opened = await waitFor(async () => {
      const v = await view();
      return v.stats.opened_files === 1 && v.files?.['vod/movie.mp4']?.stats.media_info ? v : undefined;
    });
    const file = opened.files!['vod/movie.mp4']!;
    expect(file).toMatchObject({ name: 'vod/movie.mp4', prefix: 'vod', stats: { client_count: 1 } });
    expect(file.stats.media_info!.tracks).toEqual([
      expect.objectContaining({ track_id: 'v1', content: 'video', codec: 'h264', width: 320, height: 180 }),
      expect.objectContaining({ track_id: 'a1', content: 'audio', codec: 'aac' }),
    ]);
    expect(file.stats.opened_at).toBeGreaterThan(Date.now() - 60_000);

    const closed = await server.api('/flussonic/api/close_sessions', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: session!.id,
    });
    expect(await closed.json()).toEqual({ ok: true, closed: 1 });
    await waitFor(async () => {
      const v = await view();
      return v.stats.opened_files === 0 && v.files?.['vod/movie.mp4'] === undefined;
    });
    const history = await waitFor(async () => {
      const response = await server.api('/flussonic/api/history?media=vod/movie.mp4');
      const rows = ((await response.json()) as { sessions: HistorySession[] }).sessions;
      return rows.length > 0 ? rows : undefined;
    });
    expect(history[0]).toMatchObject({ name: 'vod/movie.mp4', type: 'hls', token: 's1' });
  });

  it('the file downloaded as it is counts as an mp4 session', async () => {
    const response = await fetch(`${server.url}/vod/movie.mp4?token=dl1`, {
      headers: { range: 'bytes=0-999' },
    });
    expect(response.status).toBe(206);
    await response.arrayBuffer();
    const sessions = await sessionsOf('vod/movie.mp4');
    expect(sessions.find((s) => s.token === 'dl1')).toMatchObject({ type: 'mp4', bytes_sent: 1000 });
  });

  it("play auth: the VOD's auth refuses a player without a good token, and holds max_sessions", async () => {
    const denied = await getText(`${server.url}/locked/movie.mp4/index.m3u8`);
    expect(denied.status).toBe(403);
    expect(denied.text).toContain('access denied');
    // Authorization comes first: a denied player is not told whether a file is there.
    expect((await getText(`${server.url}/locked/none.mp4/index.m3u8`)).status).toBe(403);
    expect((await getText(`${server.url}/locked/movie.mp4/index.m3u8?token=good`)).status).toBe(200);
    const second = await getText(`${server.url}/locked/movie.mp4/index.m3u8?token=good2`);
    expect(second.status).toBe(403);
    expect(second.text).toContain('locked/movie.mp4 has its 1 sessions already (max_sessions)');
  });

  it('download false switches the file as it is off, not HLS; the protocol switches apply', async () => {
    expect(await getText(`${server.url}/nodl/movie.mp4`)).toEqual({
      status: 403,
      text: JSON.stringify({
        error: 'download of nodl/movie.mp4 is switched off (vod nodl: download false)',
      }),
    });
    expect((await getText(`${server.url}/nodl/movie.mp4/index.m3u8`)).status).toBe(200);
    expect(await getText(`${server.url}/nodl/movie.mp4/mpegts`)).toEqual({
      status: 403,
      text: JSON.stringify({ error: 'mpegts is switched off for vod nodl' }),
    });
  });

  it('a disabled VOD answers 404 saying so', async () => {
    expect(await getText(`${server.url}/off/movie.mp4/index.m3u8`)).toEqual({
      status: 404,
      text: JSON.stringify({ error: 'vod off is disabled' }),
    });
  });

  it('a file deleted while playing: the next segment is a 404 and its session ends', async () => {
    await copyFile(join(media, 'movie.mp4'), join(media, 'gone.mp4'));
    const base = `${server.url}/vod/gone.mp4`;
    const playlist = await getText(`${base}/video.m3u8?token=g1`);
    const uris = segmentUris(playlist.text);
    expect((await fetch(`${base}/${uris[0]}`)).status).toBe(200);
    expect(await sessionsOf('vod/gone.mp4')).toHaveLength(1);
    await waitFor(async () => (await view()).files?.['vod/gone.mp4']);
    await unlink(join(media, 'gone.mp4'));
    const next = await getText(`${base}/${uris[1]}`);
    expect(next).toEqual({ status: 404, text: JSON.stringify({ error: 'file vod/gone.mp4 is not found' }) });
    expect(await sessionsOf('vod/gone.mp4')).toEqual([]);
    await waitFor(async () => (await view()).files?.['vod/gone.mp4'] === undefined);
  });

  it('a continuous TS of a file deleted while it is read ends, with the bytes it has', async () => {
    await copyFile(join(media, 'movie.mp4'), join(media, 'gone-ts.mp4'));
    const response = await fetch(`${server.url}/vod/gone-ts.mp4/mpegts`);
    const reader = response.body!.getReader();
    let bytes = (await reader.read()).value?.length ?? 0;
    await unlink(join(media, 'gone-ts.mp4'));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    expect(bytes).toBeGreaterThan(188 * 100);
    expect((await getText(`${server.url}/vod/movie.mp4/index.m3u8`)).status).toBe(200);
  });
});
