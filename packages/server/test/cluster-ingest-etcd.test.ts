import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer, waitFor } from './harness.js';
import {
  capturers,
  type Etcd,
  formCluster,
  ingestState,
  type Link,
  playlistSegments,
  startEtcd,
  tcpLink,
} from './cluster-ingest-helpers.js';

const STREAM = 'sport';
const LEASE_SECONDS = 2;

async function etcdNotice(server: RunningServer): Promise<string | undefined> {
  const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
    stats: { status: Record<string, string> };
  };
  return config.stats.status.error_cluster_etcd;
}

/**
 * Coordinated mode: three real servers and a real etcd on loopback. Every connection a server
 * makes (to etcd, to each peer) goes through a forwarder of its own, so the test can cut one server
 * off. A sampler asks every server all along which streams run their source there: never two.
 */
describe('cluster ingest with etcd leases: never captured twice, frozen while etcd is away', () => {
  let servers: RunningServer[] = [];
  let etcd: Etcd;
  const toEtcd = new Map<RunningServer, Link>();
  const links = new Map<string, Link>();
  const link = (from: RunningServer, to: RunningServer) => links.get(`${from.port}>${to.port}`)!;
  let most = 0;
  let sampling = true;
  let sampler: Promise<void>;

  beforeAll(async () => {
    etcd = await startEtcd();
    servers = await Promise.all([startServer(), startServer(), startServer()]);
    for (const server of servers) {
      toEtcd.set(server, await tcpLink(etcd.port));
      for (const other of servers)
        if (other !== server) links.set(`${server.port}>${other.port}`, await tcpLink(other.port));
    }
    await formCluster(
      servers,
      STREAM,
      (server) => ({
        cluster_etcd: [`http://127.0.0.1:${toEtcd.get(server)!.port}`],
        cluster_lease_seconds: LEASE_SECONDS,
      }),
      (from, to) => `127.0.0.1:${link(from, to).port}`,
    );
    sampler = (async () => {
      while (sampling) {
        const states = await Promise.all(servers.map((s) => ingestState(s).catch(() => undefined)));
        most = Math.max(most, states.filter((s) => s?.running.includes(STREAM)).length);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
  }, 60_000);
  afterAll(async () => {
    sampling = false;
    await sampler;
    if (process.env.CLUSTER_TEST_LOGS) {
      const { writeFileSync } = await import('node:fs');
      for (const [i, s] of servers.entries()) writeFileSync(`/tmp/cluster-etcd-${i}.log`, s.output());
    }
    await Promise.all(servers.map((s) => s.cleanup()));
    await Promise.all([...toEtcd.values(), ...links.values()].map((l) => l.close()));
    await etcd?.cleanup();
  });

  const oneCapturer = async (among = servers) =>
    (
      await waitFor(async () => {
        const found = await capturers(among, STREAM);
        return found.length === 1 ? found : undefined;
      }, 30_000)
    )[0]!;

  it('the lease holder alone captures; cut from etcd it keeps capturing, and nobody else takes it', async () => {
    const holder = await oneCapturer();
    toEtcd.get(holder)!.cut();
    await waitFor(async () => (await etcdNotice(holder))?.includes('cluster ingest leases are frozen'));
    // Past the lease's life etcd has let the key go; the holder's peers see it still capturing.
    const keyGone = await waitFor(async () => {
      const body = (await (
        await fetch(`${etcd.url}/v3/kv/range`, {
          method: 'POST',
          body: JSON.stringify({ key: Buffer.from(`sluice/ingest/${STREAM}`).toString('base64') }),
        })
      ).json()) as { kvs?: unknown[] };
      return (body.kvs ?? []).length === 0;
    });
    expect(keyGone).toBe(true);
    expect(await capturers(servers, STREAM)).toEqual([holder]);
    for (const server of servers.filter((s) => s !== holder))
      expect(await waitFor(async () => (await playlistSegments(server, STREAM)).length > 0)).toBe(true);
    toEtcd.get(holder)!.heal();
    await waitFor(async () => (await etcdNotice(holder)) === undefined);
    expect(await capturers(servers, STREAM)).toEqual([holder]);
    expect(most).toBe(1);
  });

  it('a holder cut from etcd and its peers stops; another takes the lease; healed, it does not capture again', async () => {
    const holder = await oneCapturer();
    const others = servers.filter((s) => s !== holder);
    toEtcd.get(holder)!.cut();
    for (const other of others) {
      link(holder, other).cut();
      link(other, holder).cut();
    }
    const next = await oneCapturer(others);
    await waitFor(async () => (await capturers([holder], STREAM)).length === 0);
    toEtcd.get(holder)!.heal();
    for (const other of others) {
      link(holder, other).heal();
      link(other, holder).heal();
    }
    await waitFor(async () => (await etcdNotice(holder)) === undefined);
    await waitFor(async () => (await playlistSegments(holder, STREAM)).length > 0);
    expect(await capturers(servers, STREAM)).toEqual([next]);
    expect(most).toBe(1);
  });

  it('etcd stopped: a header notice on every server, and the capture goes on', async () => {
    const holder = await oneCapturer();
    await etcd.stop();
    for (const server of servers)
      expect(await waitFor(async () => etcdNotice(server))).toContain('cluster ingest leases are frozen');
    // Well past the lease's life, still the one capture, still played elsewhere.
    const since = Date.now();
    await waitFor(
      async () =>
        Date.now() - since > LEASE_SECONDS * 2000 && (await capturers(servers, STREAM)).length === 1,
    );
    expect(await capturers(servers, STREAM)).toEqual([holder]);
    const other = servers.find((s) => s !== holder)!;
    expect((await playlistSegments(other, STREAM)).length).toBeGreaterThan(0);
    expect(most).toBe(1);
  });
});
