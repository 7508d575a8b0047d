import { minimalConfig, type RunningServer, startServer } from '../../server/test/harness.js';

export const CLUSTER_KEY = 'e2e-cluster-k3y';
export const VIEWER = { login: 'watcher', password: 'look-only-pw' };

/**
 * Three real servers on loopback that name each other as peers, polling every second. Peers are
 * keyed by host (spec 000 §3), so each is reached on its own loopback address: the servers listen
 * on every address, A is 127.0.0.1, B 127.0.0.2 and C 127.0.0.3.
 *
 * - A (`sluice-a`, has total_bandwidth, a view-only login): peers B and C; two mirrors, one of B
 *   (all on demand, except `junk`) and one of a host that is not there (only `a` and `b`).
 * - B (`sluice-b`): a running test:// stream `bcast`; peers A and C.
 * - C (`sluice-c`): peers A and B.
 * - All three hold `shared`, a cluster ingest stream: one of them captures it.
 */
export interface ClusterOfThree {
  a: RunningServer;
  b: RunningServer;
  c: RunningServer;
  stop: () => Promise<void>;
}

const common = (name: string) =>
  `${minimalConfig}hostname ${name};\ncluster_key ${CLUSTER_KEY};\npeer_poll_seconds 1;\n`;
const shared = 'stream shared {\n  url test://?size=160x90&bitrate=100;\n  static;\n  cluster_ingest;\n}\n';
const ONSERVER = ['--host', '0.0.0.0'];

export async function startClusterOfThree(): Promise<ClusterOfThree> {
  const [b, c] = await Promise.all([
    startServer({
      config: `${common('sluice-b')}stream bcast {\n  url test://?size=160x90&bitrate=100;\n  static;\n}\n${shared}`,
      args: ONSERVER,
    }),
    startServer({ config: `${common('sluice-c')}${shared}`, args: ONSERVER }),
  ]);
  const a = await startServer({
    config: [
      common('sluice-a'),
      `view_auth ${VIEWER.login} ${VIEWER.password};\n`,
      'total_bandwidth 100m;\n',
      `peer 127.0.0.2:${b.port};\npeer 127.0.0.3:${c.port};\n`,
      `source http://127.0.0.2:${b.port} {\n  except junk;\n}\n`,
      'source http://127.0.0.9:9 {\n  only a b;\n}\n',
      shared,
    ].join(''),
    args: ONSERVER,
  });
  const peer = (host: string, port: number, position: number) => ({ [host]: { name: host, port, position } });
  const others: [RunningServer, Record<string, unknown>][] = [
    [b, { ...peer('127.0.0.1', a.port, 1), ...peer('127.0.0.3', c.port, 2) }],
    [c, { ...peer('127.0.0.1', a.port, 1), ...peer('127.0.0.2', b.port, 2) }],
  ];
  for (const [server, peers] of others) {
    const answer = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ peers }),
    });
    if (!answer.ok) throw new Error(`peers of ${server.url}: ${answer.status} ${await answer.text()}`);
  }
  return {
    a,
    b,
    c,
    stop: async () => {
      await Promise.all([a, b, c].map((server) => server.cleanup()));
    },
  };
}
