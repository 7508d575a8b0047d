import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HistorySession, HistoryV2Response, ReportRow } from '@sluice/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstBytes, startAuthBackend, type TestBackend } from './auth-helpers.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, segmentUris, streamStats } from './media-helpers.js';

/** The session log and GET /flussonic/api/history (spec 001 §2 History tab, §7 history call). */
describe('session log and history', () => {
  let server: RunningServer;
  let backend: TestBackend;
  let startedAt: number;

  beforeAll(async () => {
    backend = await startAuthBackend(['alice', 'bob']);
    server = await startServer({
      config:
        `${minimalConfig}session_log logs/sessions;\ngeoip_overrides {\n  127.0.0.1 FR;\n}\n` +
        `stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
    await modifyConfig(server, { streams: { demo: { auth: { url: backend.url } } } });
    startedAt = Date.now();
    // alice plays HLS (a playlist and two segments), bob MPEG-TS; carol is denied: no session.
    const playlist = await getText(`${server.url}/demo/video.m3u8?token=alice`);
    for (const uri of segmentUris(playlist.text).slice(0, 2))
      await fetch(`${server.url}/demo/${uri}`).then((r) => r.arrayBuffer());
    expect(
      (await firstBytes(`${server.url}/demo/mpegts?token=bob`, { headers: { 'user-agent': 'BobTV/2' } }))
        .status,
    ).toBe(200);
    expect((await getText(`${server.url}/demo/video.m3u8?token=carol`)).status).toBe(403);
    // Stopping the server ends the open sessions: each is written to the log, which outlives the restart.
    await server.restart();
  });
  afterAll(async () => {
    await server?.cleanup();
    await backend?.close();
  });

  const history = async <T>(query: string): Promise<T> => {
    const response = await server.api(`/flussonic/api/history?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  it('keeps the log in the session_log folder, and answers only with credentials', async () => {
    expect(existsSync(join(server.dir, 'logs', 'sessions', 'sessions.sqlite3'))).toBe(true);
    const anonymous = await fetch(`${server.url}/flussonic/api/history?media=demo`);
    expect(anonymous.status).toBe(401);
  });

  it('lists the closed sessions of a stream with what they did', async () => {
    const { sessions } = await history<{ sessions: HistorySession[] }>('media=demo');
    expect(sessions.map((s) => s.token).sort()).toEqual(['alice', 'bob']);
    const alice = sessions.find((s) => s.token === 'alice')!;
    expect(alice).toMatchObject({
      type: 'hls',
      ip: '127.0.0.1',
      country: 'FR',
      user_id: 'user-alice',
      name: 'demo',
    });
    expect(alice.bytes_sent).toBeGreaterThan(1000);
    expect(alice.created_at).toBeGreaterThanOrEqual(startedAt);
    expect(alice.duration).toBe(alice.deleted_at - alice.created_at);
    const bob = sessions.find((s) => s.token === 'bob')!;
    expect(bob).toMatchObject({ type: 'mpegts', user_agent: 'BobTV/2', user_id: 'user-bob' });
    expect(bob.bytes_sent).toBeGreaterThanOrEqual(188 * 20);
    expect((await history<{ sessions: HistorySession[] }>('media=other')).sessions).toEqual([]);
  });

  it('vsn=2: sessions in a time range, sorted by a column either way', async () => {
    const range = `vsn=2&name=demo&from=${startedAt - 1000}&to=${Date.now()}&sessions=true`;
    const byBytes = await history<HistoryV2Response>(`${range}&sort=bytes&sort_dir=desc`);
    const bytes = (byBytes.sessions as HistorySession[]).map((s) => s.bytes_sent);
    expect(bytes).toHaveLength(2);
    expect(bytes[0]).toBeGreaterThanOrEqual(bytes[1]!);
    const up = await history<HistoryV2Response>(`${range}&sort=bytes&sort_dir=asc`);
    expect((up.sessions as HistorySession[]).map((s) => s.bytes_sent)).toEqual([...bytes].reverse());
    const byProto = await history<HistoryV2Response>(`${range}&sort=proto&sort_dir=desc`);
    expect((byProto.sessions as HistorySession[]).map((s) => s.type)).toEqual(['mpegts', 'hls']);
    expect(byProto.pulse).toBeUndefined();
    const before = await history<HistoryV2Response>(
      `vsn=2&name=demo&from=0&to=${startedAt - 60_000}&sessions=true`,
    );
    expect(before.sessions).toEqual([]);
  });

  it('vsn=2 group=type: the report by protocol and country', async () => {
    const report = await history<HistoryV2Response>(`vsn=2&name=demo&sessions=true&group=type`);
    const rows = report.sessions as ReportRow[];
    expect(rows.map((r) => [r.type, r.country, r.count])).toEqual([
      ['hls', 'FR', 1],
      ['mpegts', 'FR', 1],
    ]);
    for (const row of rows) {
      expect(row.avg_bytes).toBe(row.total_bytes);
      expect(row.avg_duration).toBe(row.total_duration);
      expect(row.total_bytes).toBeGreaterThan(0);
    }
  });

  it('vsn=2 pulse=true: per-minute traffic and clients of the stream', async () => {
    const answer = await history<HistoryV2Response>(`vsn=2&name=demo&from=${startedAt - 60_000}&pulse=true`);
    expect(answer.sessions).toBeUndefined();
    expect(answer.pulse!.map((s) => s.label)).toEqual(['input', 'output', 'clients']);
    const clients = answer.pulse!.find((s) => s.label === 'clients')!.points;
    expect(clients.every(([t]) => t % 60_000 === 0)).toBe(true);
    // Both players were on within a second of each other: one or two per minute, never more.
    const minute = Math.floor(startedAt / 60_000) * 60_000;
    expect(clients.find(([t]) => t === minute)?.[1]).toBeGreaterThanOrEqual(1);
    expect(Math.max(...clients.map(([, v]) => v))).toBeLessThanOrEqual(2);
  });

  it('refuses bad parameters, naming them', async () => {
    for (const [query, parameter] of [
      ['vsn=2&sort=nope', 'sort'],
      ['vsn=2&sort_dir=sideways', 'sort_dir'],
      ['vsn=2&from=yesterday', 'from'],
      ['vsn=2&group=ip', 'group'],
      ['vsn=2&pulse=maybe', 'pulse'],
      ['vsn=7', 'vsn'],
    ] as const) {
      const response = await server.api(`/flussonic/api/history?${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(new RegExp(`^${parameter}:`));
    }
  });
});
