import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, probeStreams } from './media-helpers.js';
import { mirrorView, originConfig, waitForServerError } from './mirror-helpers.js';

const KEY = 'modes-key';

/**
 * Spec 000 §4 Mirror modes on two real servers: `only` makes its names static and the rest on
 * demand, `except` leaves streams out, and a mirror follows its origin going down and coming back.
 */
describe('origin mirrors: static, on demand, ignored; origin down and back', () => {
  let origin: RunningServer;
  let mirror: RunningServer;

  beforeAll(async () => {
    origin = await startServer({ config: minimalConfig + originConfig(KEY) });
    // The mirror's key is the global cluster_key here (its sources entry has none of its own).
    mirror = await startServer({
      // Polls each second: the grace for a stream gone from the origin is 5 polls, not 10 s.
      config: `${minimalConfig}mirror_poll_seconds 1;\ncluster_key ${KEY};\nsource http://127.0.0.1:${origin.port} {\n  only a;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all([origin?.cleanup(), mirror?.cleanup()]);
  });

  const streams = async () => (await mirrorView(mirror)).streams;

  it('only: [a] → a runs static without clients, b waits on demand and starts on a request', async () => {
    const a = await waitFor(async () => {
      const s = await streams();
      return s.a?.stats.alive && s.b ? s : undefined;
    }, 25_000);
    expect(a.a).toMatchObject({ name: 'a', static: true });
    expect(a.b).toMatchObject({ name: 'b', static: false });
    // b is not pulled before anyone asks for it: not running, nothing received.
    expect(a.b!.stats.running).not.toBe(true);
    expect(a.b!.stats.bytes_in).toBeUndefined();

    // A player asks: b starts, plays, and is counted as a client.
    const probed = probeStreams(`${mirror.url}/b/index.m3u8`);
    expect(probed.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    const b = await waitFor(async () => {
      const stats = (await streams()).b?.stats;
      return stats?.running && stats.alive && (stats.client_count ?? 0) >= 1 ? stats : undefined;
    }, 15_000);
    expect(b.url).toBe(`tshttp://127.0.0.1:${origin.port}/b/mpegts`);
  });

  it('dropping only makes every stream static', async () => {
    await modifyConfig(mirror, { sources: { '0': { only: null } } });
    await waitFor(async () => (await streams()).b?.static === true);
    expect((await streams()).a?.static).toBe(true);
  });

  it('except: [b] → b is not listed and does not play; taking it out of except brings it back', async () => {
    await modifyConfig(mirror, { sources: { '0': { except: ['b'] } } });
    await waitFor(async () => !('b' in (await streams())));
    expect(Object.keys(await streams())).toEqual(['a']);
    expect((await getText(`${mirror.url}/b/index.m3u8`)).status).toBe(404);
    // The origin still lists it: the per-server state says so.
    expect((await mirrorView(mirror)).stats?.servers[0]?.stream_names).toEqual(['a', 'b']);

    // Restarted as on demand (spec 000 §4: removed from except, with an only list that lacks it).
    await modifyConfig(mirror, { sources: { '0': { except: null, only: ['a'] } } });
    const back = await waitFor(async () => (await streams()).b);
    expect(back.static).toBe(false);
  });

  it('origin stops → error on the mirror; origin back → online and playing again', async () => {
    await origin.stop();
    // A list call in flight as the origin goes may end 'connection reset' first; then every call is refused.
    expect(await waitForServerError(mirror, (e) => e === 'connection refused', '0', 20_000)).toBe(
      'connection refused',
    );
    // The streams stay, showing why they have no data.
    const down = await waitFor(async () => {
      const s = await streams();
      return s.a?.stats.source_error && !s.a.stats.alive ? s : undefined;
    }, 20_000);
    expect(down.a!.stats.source_error).toMatch(/refused|ECONNREFUSED|ended|reset|ECONNRESET/);
    expect(Object.keys(down).sort()).toEqual(['a', 'b']);

    await origin.restart();
    expect(await waitForServerError(mirror, (e) => e === null, '0', 20_000)).toBeNull();
    await waitFor(async () => {
      const a = (await streams()).a?.stats;
      return a?.alive && a.source_error === undefined;
    }, 30_000);
    const probed = probeStreams(`${mirror.url}/a/index.m3u8`);
    expect(probed.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });

  it('a stream deleted on the origin goes from the mirror after the grace period', async () => {
    await modifyConfig(origin, { streams: { b: null } });
    await waitFor(async () => {
      const servers = (await mirrorView(mirror)).stats?.servers;
      return servers?.[0]?.stream_names.join() === 'a';
    });
    await waitFor(async () => !('b' in (await streams())), 20_000);
    expect(Object.keys(await streams())).toEqual(['a']);
  });
});
