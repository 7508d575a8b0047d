import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A custom auth backend for tests: allows the tokens in `allowed` (X-UserId user-TOKEN), 403 otherwise. */
export interface TestBackend {
  url: string;
  /** The query of every call, in order. */
  calls: URLSearchParams[];
  close: () => Promise<void>;
}

export async function startAuthBackend(allowed: readonly string[]): Promise<TestBackend> {
  const calls: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    calls.push(query);
    const token = query.get('token') ?? '';
    if (allowed.includes(token)) res.writeHead(200, { 'x-userid': `user-${token}` }).end('ok');
    else res.writeHead(403).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/auth`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The calls a backend got for one token. */
export const callsFor = (backend: TestBackend, token: string) =>
  backend.calls.filter((q) => q.get('token') === token);

/** The first bytes of a response (a continuous TS stream never ends), then the response is dropped. */
export async function firstBytes(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; bytes: Buffer }> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const reader = response.body!.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < 188 * 20) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
    total += value.length;
  }
  controller.abort();
  return { status: response.status, bytes: Buffer.concat(chunks) };
}
