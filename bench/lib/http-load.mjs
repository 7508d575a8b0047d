// A small HTTP load generator for the benches (no wrk/autocannon on this machine): keep-alive
// connections of one http.Agent, each answer read to its end and thrown away, timed per request.
import { Agent, request } from 'node:http';

export const keepAlive = (sockets) => new Agent({ keepAlive: true, maxSockets: sockets });

/**
 * One GET through `agent`; resolves (never rejects) with the status (0 when the connection failed),
 * the body's bytes and the time to its last byte in ms. `keepBody` keeps the text (playlists).
 */
export function get(agent, url, headers = {}, keepBody = false) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent, headers }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          ms: performance.now() - t0,
          body: keepBody ? Buffer.concat(chunks).toString() : '',
        }),
      );
      res.on('error', (error) => resolve({ status: 0, bytes, ms: performance.now() - t0, error }));
    });
    req.on('error', (error) => resolve({ status: 0, bytes: 0, ms: performance.now() - t0, error }));
    req.end();
  });
}

/**
 * `concurrency` clients, each sending `next()`'s request ({url, headers}) as soon as its last one
 * is answered, for `seconds`. Returns the count, bytes, latencies (ms) and answers other than
 * `okStatus`.
 */
export async function loadFor({ seconds, concurrency, next, okStatus = 206 }) {
  const agent = keepAlive(concurrency);
  const deadline = performance.now() + seconds * 1000;
  const latencies = [];
  let bytes = 0;
  let errors = 0;
  const t0 = performance.now();
  const client = async () => {
    while (performance.now() < deadline) {
      const { url, headers } = next();
      const answer = await get(agent, url, headers);
      latencies.push(answer.ms);
      bytes += answer.bytes;
      if (answer.status !== okStatus) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const wallS = (performance.now() - t0) / 1000;
  agent.destroy();
  return { count: latencies.length, bytes, latencies, errors, wallS };
}

/** The p-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const randomInt = (n) => Math.floor(Math.random() * n);
