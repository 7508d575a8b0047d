import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';
import { capturers, formCluster, ingestState, playlistSegments } from './cluster-ingest-helpers.js';

const STREAM = 'news';

/**
 * Three real servers on loopback, each the others' peer, one `cluster_ingest` stream with a
 * test:// source (real ffmpeg). Default mode: rendezvous hashing over the live peers.
 */
describe('cluster ingest: captured on one server, pulled by the others, taken over when it dies', () => {
  let servers: RunningServer[] = [];

  beforeAll(async () => {
    servers = await Promise.all([startServer(), startServer(), startServer()]);
    await formCluster(servers, STREAM);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.cleanup()));
  });

  it('runs the source on exactly one server; the others play it pulled from that one', async () => {
    const [capturer] = await waitFor(async () => {
      const found = await capturers(servers, STREAM);
      return found.length === 1 && (await streamStats(found[0]!, STREAM)).alive ? found : undefined;
    }, 30_000);
    // Every server agrees on who captures it.
    const id = `127.0.0.1:${capturer!.port}`;
    for (const server of servers)
      await waitFor(
        async () => (await ingestState(server)).capturing.includes(STREAM) === (server === capturer),
      );
    expect((await ingestState(capturer!)).id).toBe(id);

    // Viewers on the other two play it; each pulls it once from the capturer over the cluster channel.
    for (const server of servers.filter((s) => s !== capturer)) {
      const segments = await waitFor(async () => {
        const uris = await playlistSegments(server, STREAM);
        return uris.length > 0 ? uris : undefined;
      }, 30_000);
      const segment = await fetch(new URL(segments.at(-1)!, `${server.url}/${STREAM}/`));
      expect(segment.status).toBe(200);
      expect((await segment.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      // Its stats name the capturer as the source (written once a second: waited for, not read once).
      const pulledFrom = `tshttp://127.0.0.1:${capturer!.port}/${STREAM}/mpegts`;
      const url = await waitFor(async () => {
        const now = (await streamStats(server, STREAM)).url;
        return now === pulledFrom ? now : undefined;
      }, 10_000).catch(async () => (await streamStats(server, STREAM)).url);
      expect(url).toBe(pulledFrom);
    }
    expect(await capturers(servers, STREAM)).toEqual([capturer]);
  });

  it('a killed capturer is replaced within 5 s, and every surviving server plays on', async () => {
    const [dead] = await capturers(servers, STREAM);
    const survivors = servers.filter((s) => s !== dead);
    const seen = new Map<RunningServer, Set<string>>();
    for (const server of survivors) seen.set(server, new Set(await playlistSegments(server, STREAM)));

    const killedAt = Date.now();
    await dead!.stop({ kill: true });
    const [next] = await waitFor(async () => {
      const found = await capturers(survivors, STREAM);
      return found.length === 1 ? found : undefined;
    }, 20_000);
    // The new capture started (its own source running) within 5 s of the kill.
    expect(Date.now() - killedAt).toBeLessThan(5000);

    // Both survivors serve segments made after the kill: the new capturer its own, the other pulled from it.
    for (const server of survivors) {
      const fresh = await waitFor(async () => {
        const uris = await playlistSegments(server, STREAM);
        const unseen = uris.filter((u) => !seen.get(server)!.has(u));
        return unseen.length > 0 ? unseen : undefined;
      }, 20_000);
      const segment = await fetch(new URL(fresh.at(-1)!, `${server.url}/${STREAM}/`));
      expect(segment.status).toBe(200);
    }
    const puller = survivors.find((s) => s !== next)!;
    expect((await streamStats(puller, STREAM)).url).toBe(`tshttp://127.0.0.1:${next!.port}/${STREAM}/mpegts`);
    expect(await capturers(survivors, STREAM)).toEqual([next]);
  });
});
