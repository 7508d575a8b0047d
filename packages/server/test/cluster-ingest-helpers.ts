import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../src/cluster/proof.js';
import { freePort, type RunningServer, waitFor } from './harness.js';
import { modifyConfig, streamStats } from './media-helpers.js';

export const CLUSTER_KEY = 'ingest-cluster-key';
export const INGEST_SOURCE = 'test://?size=160x120&bitrate=150';

/** A TCP forwarder to 127.0.0.1:`target` that a test can cut (every connection dropped, new ones refused) and heal. */
export interface Link {
  port: number;
  cut: () => void;
  heal: () => void;
  close: () => Promise<void>;
}

export async function tcpLink(target: number): Promise<Link> {
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) return client.destroy();
    const upstream = connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    cut: () => {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    heal: () => {
      cut = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A real etcd on loopback ports with a temp data dir, stopped and started again by the test. */
export interface Etcd {
  url: string;
  port: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  cleanup: () => Promise<void>;
}

export async function startEtcd(): Promise<Etcd> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-etcd-'));
  const [port, peerPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'etcd',
      [
        '--data-dir',
        dir,
        '--listen-client-urls',
        url,
        '--advertise-client-urls',
        url,
        '--listen-peer-urls',
        peer,
        '--initial-advertise-peer-urls',
        peer,
        '--initial-cluster',
        `default=${peer}`,
      ],
      { stdio: 'ignore' },
    );
    await waitFor(
      () =>
        fetch(`${url}/health`).then(
          (r) => r.ok,
          () => false,
        ),
      20_000,
    );
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url,
    port,
    stop,
    start,
    cleanup: async () => (await stop(), await rm(dir, { recursive: true, force: true })),
  };
}

/** What a server says about cluster ingest (its peers' call, proved with the cluster key). */
export async function ingestState(
  server: RunningServer,
): Promise<{ id: string; capturing: string[]; running: string[] }> {
  const path = '/flussonic/api/cluster/ingest';
  const response = await fetch(`${server.url}${path}`, {
    headers: { [CLUSTER_PROOF_HEADER]: signClusterRequest(CLUSTER_KEY, path) },
    signal: AbortSignal.timeout(3000),
  });
  if (!response.ok) throw new Error(`ingest state: HTTP ${response.status}`);
  return (await response.json()) as { id: string; capturing: string[]; running: string[] };
}

/** The servers whose stats show `name`'s own source (not a pull from a peer) running. */
export async function capturers(servers: readonly RunningServer[], name: string): Promise<RunningServer[]> {
  const out: RunningServer[] = [];
  for (const server of servers) {
    const stats = await streamStats(server, name).catch(() => undefined);
    if (stats?.running && stats.url?.startsWith('test://')) out.push(server);
  }
  return out;
}

/**
 * Makes `servers` one cluster: each knows the others as peers (through `peerUrl(from, to)`, a
 * direct address by default), shares the key, asks its peers every 0.5 s; then adds the stream.
 */
export async function formCluster(
  servers: readonly RunningServer[],
  stream: string,
  extra: (server: RunningServer) => Record<string, unknown> = () => ({}),
  peerUrl: (from: RunningServer, to: RunningServer) => string = (_, to) => `127.0.0.1:${to.port}`,
): Promise<void> {
  for (const server of servers) {
    const peers: Record<string, unknown> = {};
    for (const other of servers)
      if (other !== server) peers[peerUrl(server, other)] = { name: peerUrl(server, other) };
    await modifyConfig(server, {
      hostname: '127.0.0.1',
      cluster_key: CLUSTER_KEY,
      cluster_ingest_poll_seconds: 0.5,
      peers,
      ...extra(server),
    });
  }
  for (const server of servers)
    await modifyConfig(server, {
      streams: { [stream]: { urls: [{ url: INGEST_SOURCE }], static: true, cluster_ingest: true } },
    });
}

/** Segment URIs of `name`'s HLS media playlist on `server` (empty while it can't be played). */
export async function playlistSegments(server: RunningServer, name: string): Promise<string[]> {
  const response = await fetch(`${server.url}/${name}/video.m3u8`, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) return [];
  const text = await response.text();
  return text.split('\n').filter((l) => l && !l.startsWith('#'));
}
