import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '@sluice/api';
import { afterAll, expect, it } from 'vitest';
import type { Engine } from '../../engine/engine.js';
import { LiveView } from '../../live/live-view.js';
import { createLogger } from '../../support/log.js';
import { ClusterIngest } from './cluster-ingest.js';
import { INGEST_STATE_PATH } from './ingest-wire.js';

// The field review (test/field-review) names this test for cluster_ingest_poll_seconds.
const asked: number[] = [];
const peer = createServer((req, res) => {
  if (req.url?.startsWith(INGEST_STATE_PATH)) asked.push(performance.now());
  res.writeHead(503).end();
});
/** No stream runs here: the rounds only ask and decide. */
const engine = { get: () => undefined, reconsider: () => undefined, traffic: () => ({ outputKbit: 0 }) };
const ingest = new ClusterIngest({
  engine: () => engine as unknown as Engine,
  view: new LiveView(),
  log: createLogger('error'),
  machineHostname: 'this-server',
});
afterAll(async () => {
  ingest.close();
  await new Promise((resolve) => peer.close(resolve));
});

it('asks each peer for its ingest state every cluster_ingest_poll_seconds (0.3 s here, not the default 1 s)', async () => {
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  const { port } = peer.address() as AddressInfo;
  ingest.apply({
    cluster_key: 'k',
    cluster_ingest_poll_seconds: 0.3,
    peers: { '127.0.0.1': { name: '127.0.0.1', port } },
    streams: { cam: { cluster_ingest: true } },
  } as Config);
  await expect.poll(() => asked.length, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(4);
  // Three intervals, each timed from the end of the last round: about 0.9 s; at the default, 3 s.
  const threeMs = asked[3]! - asked[0]!;
  expect(threeMs).toBeGreaterThan(850);
  expect(threeMs).toBeLessThan(2_700);
});
