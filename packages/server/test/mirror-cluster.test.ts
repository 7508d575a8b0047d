import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../src/cluster/proof.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig, probeStreams } from './media-helpers.js';
import { mirrorView, originConfig, waitForServerError } from './mirror-helpers.js';

const KEY = 'origin-key-7';
const LIST = '/flussonic/api/cluster/streams';

/**
 * Two real servers on loopback: an origin with a cluster key and two test streams, and a mirror
 * whose `sources` point at it. The mirror lists, pulls and plays the origin's streams.
 */
describe('origin mirrors: the list call, listing, playing, errors', () => {
  let origin: RunningServer;
  let mirror: RunningServer;

  beforeAll(async () => {
    [origin, mirror] = await Promise.all([
      startServer({ config: minimalConfig + originConfig(KEY) }),
      // The mirror polls each second: a failed url is seen sooner than at the default 2 s.
      startServer({ config: `${minimalConfig}mirror_poll_seconds 1;\n` }),
    ]);
  });
  afterAll(async () => {
    if (process.env.MIRROR_TEST_LOGS) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync('/tmp/mirror-origin.log', origin.output());
      writeFileSync('/tmp/mirror-mirror.log', mirror.output());
    }
    await Promise.all([origin?.cleanup(), mirror?.cleanup()]);
  });

  const list = (server: RunningServer, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${LIST}`, { headers });

  it('the origin lists its streams only to a peer proving the cluster key', async () => {
    const bare = await list(origin);
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({ error: 'cluster key proof required' });
    // Admin credentials are not the cluster key.
    expect((await origin.api(LIST)).status).toBe(403);
    const wrong = await list(origin, { [CLUSTER_PROOF_HEADER]: signClusterRequest('not-the-key', LIST) });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: 'wrong cluster key' });
    const expired = signClusterRequest(KEY, LIST, Date.now() - 120_000);
    expect((await list(origin, { [CLUSTER_PROOF_HEADER]: expired })).status).toBe(403);

    const proof = signClusterRequest(KEY, LIST);
    const ok = await list(origin, { [CLUSTER_PROOF_HEADER]: proof });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { streams: { name: string; static: boolean }[] };
    expect(body.streams.map((s) => [s.name, s.static])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    // The same proof again is a replay: refused.
    const replay = await list(origin, { [CLUSTER_PROOF_HEADER]: proof });
    expect(replay.status).toBe(403);
    expect(await replay.json()).toEqual({ error: 'cluster key proof already used' });
  });

  it('a server without cluster_key answers no peer', async () => {
    const response = await list(mirror, { [CLUSTER_PROOF_HEADER]: signClusterRequest(KEY, LIST) });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'this server has no cluster_key' });
  });

  it("lists the origin's streams, runs them static without clients, and plays one", async () => {
    await modifyConfig(mirror, { sources: { '-1': { urls: [origin.url], cluster_key: KEY } } });
    expect(await waitForServerError(mirror, (e) => e === null)).toBeNull();
    const { stats } = await mirrorView(mirror);
    expect(stats?.servers).toEqual([{ name: origin.url, error: null, stream_names: ['a', 'b'] }]);

    // No `only`: both static, pulled and alive with nobody watching.
    const streams = await waitFor(async () => {
      const view = (await mirrorView(mirror)).streams;
      return view.a?.stats.alive && view.b?.stats.alive ? view : undefined;
    }, 25_000);
    expect(Object.keys(streams).sort()).toEqual(['a', 'b']);
    expect(streams.a).toMatchObject({ name: 'a', static: true });
    expect(streams.a!.stats.client_count).toBe(0);
    expect(streams.a!.stats.url).toBe(`tshttp://127.0.0.1:${origin.port}/a/mpegts`);
    expect(streams.a!.stats.lifetime).toBeGreaterThan(0);
    // Counted in the server's totals like local streams.
    await waitFor(async () => {
      const top = (await (await mirror.api('/flussonic/api/read_config')).json()) as {
        stats: { total_streams: number };
      };
      return top.stats.total_streams === 2;
    });

    // Played on the mirror at the same path as a local stream, and counted as a client there.
    const probed = probeStreams(`${mirror.url}/a/index.m3u8`);
    expect(probed.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(probed.find((s) => s.codec_name === 'h264')?.width).toBe(160);
    const counted = await waitFor(async () => {
      const a = (await mirrorView(mirror)).streams.a;
      return (a?.stats.client_count ?? 0) >= 1 ? a : undefined;
    });
    expect(counted.stats.client_count).toBeGreaterThanOrEqual(1);
  });

  it('shows a wrong cluster key and an unreachable url as errors naming the reason', async () => {
    const deadPort = await freePort();
    await modifyConfig(mirror, {
      sources: {
        '-1': { urls: [origin.url], cluster_key: 'not-the-key' },
      },
    });
    await modifyConfig(mirror, { sources: { '-1': { urls: [`http://127.0.0.1:${deadPort}`] } } });
    expect(await waitForServerError(mirror, (e) => e !== null, '1')).toBe(
      'cluster key rejected: wrong cluster key',
    );
    expect(await waitForServerError(mirror, (e) => e !== null, '2')).toBe('connection refused');
    // Neither has streams to show; the working mirror keeps its own.
    expect((await mirrorView(mirror, '1')).streams).toEqual({});
    expect((await mirrorView(mirror, '2')).streams).toEqual({});

    // Deleting the first of them renumbers the other: its state follows it.
    await modifyConfig(mirror, { sources: { '1': null } });
    expect(await waitForServerError(mirror, (e) => e === 'connection refused', '1')).toBe(
      'connection refused',
    );
    await modifyConfig(mirror, { sources: { '1': null } });
    await waitFor(async () => {
      const config = (await (await mirror.api('/flussonic/api/read_config')).json()) as {
        sources?: Record<string, unknown>;
      };
      return Object.keys(config.sources ?? {}).join() === '0';
    });
    expect(Object.keys((await mirrorView(mirror)).streams).sort()).toEqual(['a', 'b']);
  });

  it('fails over to the next url when the first is down', async () => {
    const deadPort = await freePort();
    const editedAt = Date.now();
    await modifyConfig(mirror, {
      sources: { '0': { urls: [`http://127.0.0.1:${deadPort}`, origin.url], cluster_key: KEY } },
    });
    // The edit restarts the pull (new sources): it tries the dead url first, then the origin.
    const a = await waitFor(async () => {
      const stats = (await mirrorView(mirror)).streams.a?.stats;
      const restarted = (stats?.start_running_at ?? 0) >= editedAt;
      return restarted && stats?.alive && stats.url === `tshttp://127.0.0.1:${origin.port}/a/mpegts`
        ? stats
        : undefined;
    }, 30_000);
    expect(a.alive).toBe(true);
    const { stats } = await mirrorView(mirror);
    expect(stats?.servers.map((s) => s.error)).toEqual(['connection refused', null]);
  });

  it('a local stream of the same name wins over the mirrored one', async () => {
    await modifyConfig(mirror, { streams: { a: { urls: [{ url: 'test://?size=320x240' }], static: true } } });
    await waitFor(async () => !('a' in (await mirrorView(mirror)).streams));
    const probed = await waitFor(() => {
      const streams = probeStreams(`${mirror.url}/a/index.m3u8`);
      return streams.find((s) => s.codec_name === 'h264')?.width === 320 ? streams : undefined;
    }, 20_000);
    expect(probed.length).toBe(2);
    expect(Object.keys((await mirrorView(mirror)).streams)).toEqual(['b']);
  });
});
