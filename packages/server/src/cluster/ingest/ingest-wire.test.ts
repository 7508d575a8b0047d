import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchIngestState } from './ingest-peers.js';
import { ingestIdOf, ingestState, peerBaseUrl } from './ingest-wire.js';

describe('a peer’s ingest state from the network', () => {
  it('any JSON is either a well-formed state or refused, never a throw (10^4 cases)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = ingestState.safeParse(value);
        if (parsed.success) expect(typeof parsed.data.id).toBe('string');
      }),
      { numRuns: 10_000 },
    );
  });

  describe('over HTTP', () => {
    let server: Server;
    let body: Buffer = Buffer.alloc(0);
    let url = '';
    beforeAll(async () => {
      server = createServer((_, res) => res.end(body));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address() as { port: number };
      url = `http://127.0.0.1:${address.port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('random bytes are refused with a reason, a good answer is read', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
          body = Buffer.from(bytes);
          await expect(fetchIngestState(url, 'k', 2000)).rejects.toThrow(/JSON|unexpected/);
        }),
        { numRuns: 200 },
      );
      body = Buffer.from(
        JSON.stringify({ id: 'a:1', ingest: ['x'], capturing: [], failing: [], over_bandwidth: false }),
      );
      expect((await fetchIngestState(url, 'k', 2000)).id).toBe('a:1');
      body = Buffer.alloc(5 * 1024 * 1024, 0x20);
      await expect(fetchIngestState(url, 'k', 5000)).rejects.toThrow(/answer over/);
    });
  });

  it('names a server by hostname and first HTTP port; a peer line by its host and port', () => {
    expect(ingestIdOf({ http: [8080, 80] }, 'vm')).toBe('vm:8080');
    expect(ingestIdOf({ hostname: 'edge-1', http: [80] }, 'vm')).toBe('edge-1:80');
    expect(ingestIdOf({ hostname: 'edge-1:8081' }, 'vm')).toBe('edge-1:8081');
    expect(peerBaseUrl('127.0.0.1:8081', undefined)).toBe('http://127.0.0.1:8081');
    expect(peerBaseUrl('edge-2', 8080)).toBe('http://edge-2:8080');
    expect(peerBaseUrl('edge-2', undefined)).toBe('http://edge-2:80');
  });
});
