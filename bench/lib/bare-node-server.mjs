// The ceiling of Node's own HTTP server on this machine: the bench's segment and playlist answered
// from memory with Sluice's headers and nothing else (no routing, sessions or authorization).
// With WORKERS > 1, node:cluster workers share the listening socket: what delivery workers could buy.
// Usage: node bare-node-server.mjs PORT WORKERS SEGMENT_FILE PLAYLIST_FILE
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, workers, segmentPath, playlistPath] = process.argv.slice(2);
if (cluster.isPrimary && Number(workers) > 1) {
  for (let i = 0; i < Number(workers); i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers)) worker.kill();
    process.exit(0);
  });
} else {
  const files = {
    '/live/segment.ts': [readFileSync(segmentPath), 'video/mp2t', 'max-age=60'],
    '/live/video.m3u8': [readFileSync(playlistPath), 'application/vnd.apple.mpegurl', 'no-cache'],
  };
  createServer((req, res) => {
    const file = files[req.url];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const [body, type, cache] = file;
    res.writeHead(200, [
      ...['access-control-allow-origin', '*', 'content-type', type],
      ...['content-length', String(body.length), 'cache-control', cache],
    ]);
    res.end(body);
  }).listen(Number(port), '127.0.0.1');
}
