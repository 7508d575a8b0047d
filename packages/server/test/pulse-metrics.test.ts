import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';

const run = promisify(execFile);
const TOKEN = 'scrape-7f3a9c';
let server: RunningServer;

/** Prometheus's own parser and linter (Debian's prometheus package): exit 0 only for valid text. */
async function promtool(text: string, dir: string): Promise<{ ok: boolean; output: string }> {
  const file = join(dir, 'scrape.prom');
  await writeFile(file, text);
  return run('sh', ['-c', `promtool check metrics < "$1"`, 'sh', file]).then(
    (r) => ({ ok: true, output: r.stdout + r.stderr }),
    (e: { stdout: string; stderr: string }) => ({ ok: false, output: e.stdout + e.stderr }),
  );
}

beforeAll(async () => {
  server = await startServer({
    config:
      `${minimalConfig}view_auth viewer v1ew-pw;\nmetrics_token ${TOKEN};\n` +
      // A push to a port where nobody listens: its state shows as retrying.
      `stream demo {\n  url test://?size=160x120&bitrate=150;\n  static true;\n  push rtmp://127.0.0.1:9/live/x;\n}\n` +
      `stream idle {\n  url test://?size=160x120;\n}\n`,
  });
});
afterAll(() => server?.cleanup());

describe('GET /metrics', () => {
  it('Prometheus text that promtool accepts, with the running stream, its push and the machine', async () => {
    // The stream has started and its push has failed once: the scrape shows both.
    const text = await waitFor(async () => {
      const r = await server.api('/metrics');
      const body = await r.text();
      return body.includes('sluice_stream_alive{stream="demo"} 1') &&
        body.includes('sluice_push_state{stream="demo",push="0",state="retrying"} 1')
        ? { r, body }
        : undefined;
    }, 60_000);
    expect(text.r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    // fetch asks for gzip, as Prometheus does; the text above is what it decoded.
    expect(text.r.headers.get('content-encoding')).toBe('gzip');
    const checked = await promtool(text.body, server.dir);
    expect(checked.output).toBe('');
    expect(checked.ok).toBe(true);
    expect(text.body).toContain('sluice_stream_alive{stream="idle"} 0');
    expect(text.body).toMatch(/^sluice_stream_input_bytes_per_second\{stream="demo"\} [1-9]\d*$/m);
    expect(text.body).toMatch(/^sluice_streams 2$/m);
    expect(text.body).toMatch(/^sluice_machine_cpu_usage_ratio (0|0\.\d+|1)$/m);
    expect(text.body).toMatch(/^sluice_server_cpu_usage_ratio 0\.\d+$/m);
    expect(text.body).toMatch(/^sluice_filesystem_size_bytes\{path="[^"]+"\} [1-9]\d*$/m);
    expect(text.body).toMatch(/^sluice_disk_io_busy_ratio\{disk="[a-z0-9]+"\} /m);
    expect(text.body).toMatch(/^sluice_event_loop_utilization_ratio 0\.\d+$/m);
    // The push's url may carry a key: it is no label.
    expect(text.body).not.toContain('127.0.0.1:9');
  });

  it('a view login and the scrape token may read it; nobody else', async () => {
    expect(
      (await server.api('/metrics', { headers: { authorization: basicAuth('viewer', 'v1ew-pw') } })).status,
    ).toBe(200);
    expect((await server.api('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      200,
    );
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect(
      (await server.api('/metrics', { headers: { authorization: 'Bearer not-the-token' } })).status,
    ).toBe(401);
    // The token reads /metrics only, and a view login does not read it back from the config.
    expect(
      (await server.api('/flussonic/api/read_config', { headers: { authorization: `Bearer ${TOKEN}` } }))
        .status,
    ).toBe(401);
    const viewed = await server.api('/flussonic/api/read_config', {
      headers: { authorization: basicAuth('viewer', 'v1ew-pw') },
    });
    expect(await viewed.text()).not.toContain(TOKEN);
  });
});
