import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchStreamNames, networkReason } from './mirror-poller.js';
import { CLUSTER_PROOF_HEADER, verifyClusterRequest } from './proof.js';

/** A stand-in origin on loopback answering by path prefix, so each failure kind is a real HTTP answer. */
describe('asking an origin for its streams', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = req.url ?? '';
      const send = (status: number, body: string) => res.writeHead(status).end(body);
      if (url.startsWith('/keyed/')) {
        const verdict = verifyClusterRequest({ url, headers: req.headers }, 'k1');
        if (verdict.ok) send(200, JSON.stringify({ streams: [{ name: 'a', static: true, alive: true }] }));
        else send(403, JSON.stringify({ error: verdict.reason }));
      } else if (url.startsWith('/html/')) send(200, '<html>');
      else if (url.startsWith('/odd/')) send(200, JSON.stringify({ items: [] }));
      else if (url.startsWith('/broken/')) send(500, JSON.stringify({ error: 'disk full' }));
      else send(404, JSON.stringify({ error: 'no such path' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('lists the names when the key is right, signing for the path it asks', async () => {
    expect(await fetchStreamNames(`${base}/keyed`, 'k1')).toEqual(['a']);
  });

  it('names each failure as the console shows it after "error: "', async () => {
    await expect(fetchStreamNames(`${base}/keyed`, 'k2')).rejects.toThrow(
      'cluster key rejected: wrong cluster key',
    );
    await expect(fetchStreamNames(`${base}/keyed`, undefined)).rejects.toThrow(
      'cluster key required: cluster key proof required',
    );
    await expect(fetchStreamNames(base, 'k1')).rejects.toThrow(
      'no Sluice origin there (HTTP 404 at /flussonic/api/cluster/streams)',
    );
    await expect(fetchStreamNames(`${base}/html`, 'k1')).rejects.toThrow('not JSON');
    await expect(fetchStreamNames(`${base}/odd`, 'k1')).rejects.toThrow('unexpected stream list');
    await expect(fetchStreamNames(`${base}/broken`, 'k1')).rejects.toThrow('HTTP 500: disk full');
    await expect(fetchStreamNames('rtmp://origin/live', 'k1')).rejects.toThrow('unsupported url');
  });

  it('a closed port is "connection refused"', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(fetchStreamNames(`http://127.0.0.1:${port}`, 'k1')).rejects.toThrow('connection refused');
  });

  it('maps timeouts and unknown hosts to plain words', () => {
    expect(networkReason(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(networkReason(Object.assign(new Error('fetch failed'), { cause: { code: 'ENOTFOUND' } }))).toBe(
      'host not found',
    );
  });

  it('sends the proof header, never the key', async () => {
    let seen: string | undefined;
    const spy = createServer((req, res) => {
      seen = JSON.stringify(req.headers) + (req.url ?? '');
      res.writeHead(200).end(JSON.stringify({ streams: [] }));
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
    await fetchStreamNames(`http://127.0.0.1:${(spy.address() as AddressInfo).port}`, 'very-secret-key');
    await new Promise<void>((resolve) => spy.close(() => resolve()));
    expect(seen).toContain(CLUSTER_PROOF_HEADER);
    expect(seen).not.toContain('very-secret-key');
  });
});
