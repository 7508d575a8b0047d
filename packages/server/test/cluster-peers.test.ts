import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterServers } from '@sluice/api';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig } from './media-helpers.js';

const KEY = 'peers-key-5';
const common = `cluster_key ${KEY};\npeer_poll_seconds 1;\n`;
/** Each server is reached at its own loopback address (127.0.0.1, .2, .3): bound to all of them. */
const ANY_LOOPBACK = ['--host', '0.0.0.0'];
const shared = `stream shared {\n  url test://?size=160x120&bitrate=150;\n}\n`;

/** Listens on `host` (a loopback address of its own): `answer` decides what each request gets. */
async function tinyServer(host: string, answer: (res: import('node:http').ServerResponse) => void) {
  const server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

/**
 * Three real servers on loopback, each with the other two as peers (127.0.0.1, .2 and .3: `peers`
 * is keyed by host), plus on A: itself (as localhost), a peer answering garbage and one never
 * answering. Shared by the file: the cases run in order (stop and wrong key last).
 */
describe('cluster peers: live figures, faults, load redirect', () => {
  let a: RunningServer;
  let b: RunningServer;
  let c: RunningServer;
  let garbage: Server;
  let silent: Server;

  beforeAll(async () => {
    [a, b, c, garbage, silent] = await Promise.all([
      startServer({ config: minimalConfig + common + shared, args: ANY_LOOPBACK }),
      startServer({ config: minimalConfig + common + shared, args: ANY_LOOPBACK }),
      startServer({ config: minimalConfig + common, args: ANY_LOOPBACK }),
      tinyServer('127.0.0.4', (res) => res.end('<html>not a peer</html>')),
      // Accepts, never answers: a hung peer.
      tinyServer('127.0.0.5', () => undefined),
    ]);
    const peer = (host: string, port: number) => ({ [host]: { name: host, port } });
    await Promise.all([
      modifyConfig(a, {
        peers: {
          ...peer('127.0.0.2', b.port),
          ...peer('127.0.0.3', c.port),
          ...peer('localhost', a.port),
          ...peer('127.0.0.4', portOf(garbage)),
          ...peer('127.0.0.5', portOf(silent)),
        },
      }),
      modifyConfig(b, { peers: { ...peer('127.0.0.1', a.port), ...peer('127.0.0.3', c.port) } }),
      modifyConfig(c, { peers: { ...peer('127.0.0.1', a.port), ...peer('127.0.0.2', b.port) } }),
    ]);
  });
  afterAll(async () => {
    garbage?.closeAllConnections();
    silent?.closeAllConnections();
    garbage?.close();
    silent?.close();
    await Promise.all([a?.cleanup(), b?.cleanup(), c?.cleanup()]);
  });

  const servers = async (server: RunningServer): Promise<ClusterServers> => {
    const response = await server.api('/flussonic/api/cluster_servers');
    expect(response.status).toBe(200);
    return (await response.json()) as ClusterServers;
  };

  it('each server sees the other two with live figures; faulty peers show their error', async () => {
    for (const [server, others] of [
      [a, ['127.0.0.2', '127.0.0.3']],
      [b, ['127.0.0.1', '127.0.0.3']],
      [c, ['127.0.0.1', '127.0.0.2']],
    ] as const) {
      const first = await waitFor(async () => {
        const all = await servers(server);
        return others.every((name) => all[name]?.error === null) ? all : undefined;
      }, 20_000);
      for (const name of others) {
        const peer = first[name]!;
        expect(peer).toMatchObject({ persistent: true, is_peer: true, is_source: false });
        expect(peer.version).toMatch(/^\d+\.\d+/);
        expect(peer.ports?.http).toBeGreaterThan(0);
        expect(peer.memory_usage).toBeGreaterThan(0);
        expect(peer.fetch_delay).toBeLessThan(10_000);
      }
      // Live: the peers' uptimes move on at the next polls.
      await waitFor(async () => {
        const now = await servers(server);
        return others.every((name) => (now[name]?.uptime ?? 0) > (first[name]?.uptime ?? 0));
      }, 15_000);
    }
    const seenByA = await servers(a);
    expect(seenByA['127.0.0.2']?.stream_count).toBe(1);
    expect(seenByA['127.0.0.3']?.stream_count).toBe(0);
    // A itself, once: the `peer localhost:PORT` line naming it is recognised and not shown again.
    const self = Object.values(seenByA).filter((s) => s.self === true);
    expect(self).toHaveLength(1);
    expect(self[0]).toMatchObject({ persistent: true, is_peer: false, fetch_delay: 0, error: null });
    expect(seenByA.localhost).toBeUndefined();
    expect(a.output()).toMatch(/peer localhost is this server itself/);
    // The garbage and the silent peer: their errors, and they held up nobody (B answered meanwhile).
    const faults = await waitFor(async () => {
      const all = await servers(a);
      return all['127.0.0.5']?.error === 'timeout' ? all : undefined;
    });
    expect(faults['127.0.0.4']?.error).toBe('the peer answered something that is not JSON');
    expect(faults['127.0.0.2']?.error).toBe(null);
    expect(faults['127.0.0.2']?.fetch_delay).toBeLessThan(3000);
  });

  it('answers the ?server, ?ingest and ?sources forms; peers are answered only with the key', async () => {
    const detail = await a.api('/flussonic/api/cluster_servers?server=127.0.0.2');
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as { streams: Record<string, { stats: { alive: boolean } }> };
    expect(Object.keys(body.streams)).toEqual(['shared']);
    expect((await a.api('/flussonic/api/cluster_servers?server=nobody')).status).toBe(404);
    expect(await (await a.api('/flussonic/api/cluster_servers?ingest=true')).json()).toEqual({ streams: [] });
    expect(await (await a.api('/flussonic/api/cluster_servers?sources=true')).json()).toEqual({
      sources: [],
    });
    // The console call needs credentials; the peer call needs the key proof, not credentials.
    expect((await fetch(`${a.url}/flussonic/api/cluster_servers`)).status).toBe(401);
    expect((await a.api('/flussonic/api/cluster/server')).status).toBe(403);
  });

  it('over its total_bandwidth, A sends a new viewer (302) to the least-loaded peer with the stream', async () => {
    // 1 bit/s: any viewer's bytes put A over 100 %.
    await modifyConfig(a, { total_bandwidth: 1 });
    const entry = `${a.url}/shared/index.m3u8`;
    const target = `http://127.0.0.2:${b.port}/shared/index.m3u8`;
    const location = await waitFor(
      async () => {
        const response = await fetch(entry, { redirect: 'manual' });
        if (response.status === 302) return response.headers.get('location');
        // Served here (not loaded yet): watching makes A's output grow.
        const playlist = await response.text();
        const media = playlist.split('\n').find((l) => l && !l.startsWith('#'));
        if (media) await fetch(new URL(media, entry)).then((r) => r.arrayBuffer());
        return undefined;
      },
      40_000,
      300,
    );
    expect(location).toBe(target);
    const self = Object.values(await servers(a)).find((s) => s.self);
    expect(self?.bandwidth_usage).toBeGreaterThan(100);
    // The viewer plays there.
    const there = await fetch(location!);
    expect(there.status).toBe(200);
    expect(await there.text()).toMatch(/^#EXTM3U/);
    // C has no such stream: it is never the target; a stream no peer has is served here.
    await modifyConfig(a, { total_bandwidth: null });
  });

  it('a stopped peer shows its error within seconds, the others keep updating; a wrong key shows', async () => {
    await b.stop({ kill: true });
    const stoppedAt = Date.now();
    for (const server of [a, c]) {
      // A poll in flight at the kill says 'connection reset'; the next one, refused.
      await waitFor(async () => (await servers(server))['127.0.0.2']?.error === 'connection refused', 10_000);
    }
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    // A and C go on seeing each other, freshly.
    const before = (await servers(a))['127.0.0.3']!.uptime ?? 0;
    await waitFor(async () => ((await servers(a))['127.0.0.3']?.uptime ?? 0) > before, 10_000);
    expect((await servers(c))['127.0.0.1']?.error).toBe(null);

    await modifyConfig(c, { cluster_key: 'another-key' });
    const wrong = await waitFor(async () => {
      const error = (await servers(a))['127.0.0.3']?.error;
      return error && error !== null ? error : undefined;
    }, 10_000);
    expect(wrong).toBe('wrong cluster key');
  });
});
