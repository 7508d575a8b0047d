// A stand-in for the server's HTTP and events API, for console benches: it serves the built
// console, answers GET /flussonic/api/server, and speaks the events websocket (read_config,
// read_config_delta) over a generated live view whose stream stats change at a set rate. A real
// server would need hundreds of running sources to change that many stats each second; this keeps
// the machine's cores for the browser being measured. `ws` comes with the server's dependencies.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { WebSocketServer } from 'ws';

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Stream `i` of the generated config: statuses and features vary with i, cam0 has the top bitrate. */
export function generatedStream(i) {
  const url = `udp://239.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1234`;
  const running = i % 10 !== 3;
  return {
    name: `cam${i}`,
    position: i,
    title: `Camera ${i}`,
    urls: [{ url }],
    static: running,
    ...(i % 13 === 0 ? { dvr: { root: '/storage', dvr_limit: 86400 } } : {}),
    stats: running
      ? {
          alive: i % 17 !== 0,
          running: true,
          bitrate: i === 0 ? 50_000 : 500 + ((i * 7919) % 4000),
          client_count: (i * 31) % 12,
          lifetime: 1000 * ((i * 104_729) % 900_000),
          ts_delay: 40,
          retry_count: i % 17 === 0 ? 2 : 0,
          url,
          ...(i % 17 === 0 ? { source_error: 'connection refused' } : {}),
        }
      : { alive: false, running: false, client_count: 0 },
  };
}

export function generatedView(count) {
  const streams = {};
  for (let i = 0; i < count; i++) streams[`cam${i}`] = generatedStream(i);
  return { http: [80], streams, lives: {}, stats: serverStats(0, count) };
}

function serverStats(uptime, count) {
  return {
    version: '0.1.0',
    build: 0,
    uptime,
    total_streams: count,
    online_streams: Math.round(count * 0.85),
    total_clients: count * 5,
    input_kbit: count * 2000 + uptime,
    output_kbit: count * 3000,
    opened_files: 0,
    retroview_enabled: false,
    retroview_configured: true,
    status: {},
  };
}

/** Merges a change into a pending delta (objects key by key). */
function merge(into, change) {
  for (const [k, v] of Object.entries(change)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && into[k] && typeof into[k] === 'object')
      merge(into[k], v);
    else into[k] = v;
  }
}

/**
 * Starts the feed on a free port. Each second `changesPerSecond` streams change their stats
 * (bitrate, clients, lifetime, delay; one in ten also goes in or out of error). Like the server
 * (http/full-message-cache.ts), the current_config message is serialised once and shared by the
 * sockets asking within `shareFullMs` (BENCH_FEED_SHARE_MS; 0: built per socket, as before issue
 * 20's cache); such a socket's first delta holds what changed since it was built.
 */
export async function startLiveFeed({
  root,
  streams,
  changesPerSecond,
  shareFullMs = Number(process.env.BENCH_FEED_SHARE_MS ?? 30_000),
}) {
  const dist = join(root, 'packages/web/dist');
  const view = generatedView(streams);
  const sockets = new Map();
  /** The shared message: its text, when it was built, and the changes since (a pending delta). */
  let shared;
  let tick = 0;
  const info = {
    product: 'sluice',
    version: '0.1.0',
    build: 0,
    hostname: 'bench',
    chassis: false,
    capabilities: { url_publish: true, outputs: ['hls'], drm_applied: [] },
    transcoder_devices: [],
  };

  const http = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (path === '/flussonic/api/server') return res.end(JSON.stringify(info));
    if (path.startsWith('/flussonic/api/')) return res.end('{"ok":true}');
    const file = join(dist, normalize(path.replace(/^\/admin\/?/, '')));
    const target =
      file.startsWith(dist) && existsSync(file) && extname(file) ? file : join(dist, 'index.html');
    res.setHeader('content-type', types[extname(target)] ?? 'application/octet-stream');
    res.end(readFileSync(target));
  });
  const wss = new WebSocketServer({ server: http, path: '/flussonic/api/events' });
  wss.on('connection', (socket) => {
    sockets.set(socket, {});
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (raw) => {
      const command = raw.toString();
      if (command === 'read_config') {
        if (!shared || Date.now() - shared.at > shareFullMs) {
          const text = JSON.stringify({ event: 'current_config', data: view, partial_update: false });
          shared = { text, at: Date.now(), pending: {} };
        }
        sockets.set(socket, structuredClone(shared.pending));
        socket.send(shared.text);
      } else if (command === 'read_config_delta') {
        const pending = sockets.get(socket) ?? {};
        sockets.set(socket, {});
        const data = Object.keys(pending).length ? pending : null;
        socket.send(JSON.stringify({ event: 'current_config_delta', data, partial_update: false }));
      }
    });
  });

  const timer = setInterval(() => {
    tick++;
    const change = { stats: serverStats(tick, streams), streams: {} };
    for (let n = 0; n < changesPerSecond; n++) {
      const i = Math.floor(Math.random() * streams);
      const stats = view.streams[`cam${i}`].stats;
      if (!stats.running) continue;
      const next = {
        bitrate: Math.max(0, stats.bitrate + Math.round((Math.random() - 0.5) * 200)),
        client_count: Math.max(0, stats.client_count + (Math.random() < 0.5 ? -1 : 1)),
        lifetime: stats.lifetime + 1000,
        ts_delay: 20 + Math.round(Math.random() * 80),
      };
      if (n % 10 === 0) next.source_error = stats.source_error ? null : 'timeout';
      merge(stats, next);
      if (next.source_error === null) delete stats.source_error;
      change.streams[`cam${i}`] = { stats: next };
    }
    view.stats = change.stats;
    for (const pending of sockets.values()) merge(pending, structuredClone(change));
    if (shared) merge(shared.pending, structuredClone(change));
  }, 1000);

  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}`,
    view,
    close: async () => {
      clearInterval(timer);
      for (const socket of sockets.keys()) socket.terminate();
      await new Promise((resolve) => wss.close(resolve));
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
