import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, freePort, minimalConfig, type RunningServer, startServer } from './harness.js';

const run = promisify(execFile);
/** Every secret the config below holds: none may be in a bundle. */
const SECRETS = [
  ADMIN.password,
  'viewer-pw-9',
  'src-pw-7',
  'pub-pw-5',
  'clusterkey-3',
  'metrics-tok-1',
  'spkey0123456789',
  'url-tok-4',
];
const config =
  `${minimalConfig}view_auth viewer viewer-pw-9;\ncluster_key clusterkey-3;\nmetrics_token metrics-tok-1;\n` +
  `plugin rproxy { endpoint_auth vsaas; streampoint_key spkey0123456789; }\n` +
  `stream cam { url rtmp://u:src-pw-7@127.0.0.1:9/live/x; password pub-pw-5; }\n`;

interface Received {
  body: Buffer;
  comment: string | undefined;
}

/** A support endpoint: answers {ticket} (or a 500 at /fail) and keeps what it got. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks),
        comment: req.headers['x-sluice-comment'] as string | undefined,
      });
      if (req.url === '/fail') res.writeHead(500).end('broken');
      else
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ticket: `T-${received.length}` }));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${port}`, received };
}

/** Unpacks a bundle with the system's tar: the format is what support's tools read. */
async function unpack(bytes: Buffer): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bundle-'));
  await writeFile(join(dir, 'bundle.tar.gz'), bytes);
  await run('tar', ['-xzf', 'bundle.tar.gz'], { cwd: dir });
  const files: Record<string, string> = {};
  for (const name of await readdir(dir))
    if (name !== 'bundle.tar.gz') files[name] = await readFile(join(dir, name), 'utf8');
  return files;
}

describe('Log upload: sendlogs and the support SSH access', () => {
  let server: RunningServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer({ config });
  });
  afterAll(async () => {
    await server.cleanup();
    receiver.server.close();
  });

  const setConfig = async (delta: Record<string, unknown>) => {
    const answer = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(delta),
    });
    expect(answer.status).toBe(200);
  };
  const sendlogs = (comment: string) =>
    server.api('/flussonic/api/sendlogs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ comment }),
    });
  const download = async () => {
    const answer = await server.api('/flussonic/api/sendlogs/bundle');
    expect(answer.status).toBe(200);
    return Buffer.from(await answer.arrayBuffer());
  };

  it('sends a bundle with config, stats, log and error reports, no secret in it, and answers the ticket', async () => {
    const report = await server.api('/flussonic/api/error/store', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ type: 'error', message: 'TypeError: bundled report' }]),
    });
    expect(report.status).toBe(200);
    await setConfig({ support_url: `${receiver.url}/upload?token=url-tok-4` });
    const answer = await sendlogs('camera 3 stalls, ticket 42');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ ticket: 'T-1' });
    expect(receiver.received).toHaveLength(1);
    expect(decodeURIComponent(receiver.received[0]!.comment!)).toBe('camera 3 stalls, ticket 42');
    const files = await unpack(receiver.received[0]!.body);
    expect(Object.keys(files).sort()).toEqual(
      expect.arrayContaining([
        'comment.txt',
        'config.json',
        'error-reports.json',
        'server.json',
        'server.log',
        'stats.json',
      ]),
    );
    expect(JSON.parse(files['config.json']!)).toMatchObject({ streams: { cam: { password: '***' } } });
    expect(files['error-reports.json']).toContain('TypeError: bundled report');
    // The server log of this run is there (its start, the upload itself).
    expect(files['server.log']).toMatch(/notice/);
    const everything = Object.values(files).join('\n');
    for (const secret of SECRETS) expect(everything, secret).not.toContain(secret);
  });

  it('with no support_url the bundle is made and downloaded instead', async () => {
    await setConfig({ support_url: null });
    const answer = await sendlogs('no url here');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { ticket: unknown; download: string };
    expect(body.ticket).toBeNull();
    expect(body.download).toBe('/flussonic/api/sendlogs/bundle');
    const files = await unpack(await download());
    expect(files['comment.txt']).toBe('no url here\n');
  });

  it('a failed upload answers 502 and keeps the bundle for download', async () => {
    await setConfig({ support_url: `${receiver.url}/fail` });
    const answer = await sendlogs('upload that fails');
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { error: string }).error).toContain('500');
    const files = await unpack(await download());
    expect(files['comment.txt']).toBe('upload that fails\n');
    expect((await sendlogs('ab')).status).toBe(400);
  });

  it('the SSH access says when no host is set, and shows ssh failing with its reason', async () => {
    const status = await server.api('/flussonic/api/ssh_agent_enabled');
    expect(await status.json()).toMatchObject({ state: 'unconfigured' });
    expect(
      await (await server.api('/flussonic/api/enable_ssh_agent', { method: 'POST' })).json(),
    ).toMatchObject({
      state: 'unconfigured',
    });
    // A host where nothing listens: real ssh runs and fails; its words are the reason.
    await setConfig({ support_ssh: `support@127.0.0.1:${await freePort()}` });
    const enabled = (await (
      await server.api('/flussonic/api/enable_ssh_agent', { method: 'POST' })
    ).json()) as {
      state: string;
      reason?: string;
    };
    expect(enabled.state).toBe('failed');
    expect(enabled.reason).toMatch(/refused/i);
    const disabled = await server.api('/flussonic/api/disable_ssh_agent', { method: 'POST' });
    expect(await disabled.json()).toMatchObject({ state: 'stopped' });
  });
});
