import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import type { LocalServer } from './local-server.js';
import { PeerDirectory } from './peer-directory.js';

// The field review (test/field-review) names this test for peer_poll_seconds.
const asked: number[] = [];
const peer = createServer((_req, res) => {
  asked.push(performance.now());
  res.writeHead(404).end();
});
const directory = new PeerDirectory({ instance: 'this-server' } as LocalServer);
afterAll(async () => {
  directory.close();
  await new Promise((resolve) => peer.close(resolve));
});

it('polls a peer every peer_poll_seconds (1 s here, not the default 2 s)', async () => {
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  const { port } = peer.address() as AddressInfo;
  directory.apply({ cluster_key: 'k', peer_poll_seconds: 1, peers: { '127.0.0.1': { port } } });
  await expect.poll(() => asked.length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(4);
  // Three intervals, each timed from the end of the last poll: about 3 s; at the default, 6 s.
  const threeMs = asked[3]! - asked[0]!;
  expect(threeMs).toBeGreaterThan(2_700);
  expect(threeMs).toBeLessThan(5_400);
});
