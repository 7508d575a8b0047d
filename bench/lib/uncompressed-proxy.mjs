// The console as it was served before precompression: a proxy in front of a Sluice server that asks
// for the console's files without compression and answers them with the old cache header
// (`public, max-age=0`, revalidated by ETag each load). The API and the events websocket pass as
// they are. A reference for bench/console-load.mjs measured in the same run.
import { createServer, request } from 'node:http';
import { connect } from 'node:net';

const isConsoleFile = (url) => url === '/admin' || url.startsWith('/admin/');

/** Listens on a free port of 127.0.0.1 and forwards to `target` (http://127.0.0.1:PORT). */
export async function startUncompressedProxy(target) {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    const consoleFile = isConsoleFile(req.url ?? '');
    if (consoleFile) delete headers['accept-encoding'];
    const upstream = request(
      { host: hostname, port, method: req.method, path: req.url, headers },
      (answer) => {
        const out = { ...answer.headers };
        if (consoleFile) {
          out['cache-control'] = 'public, max-age=0';
          delete out.vary;
        }
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // The events websocket: the upgrade request written as it came, then bytes both ways.
  server.on('upgrade', (req, socket, head) => {
    const up = connect(Number(port), hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      up.write(head);
      socket.pipe(up).pipe(socket);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
