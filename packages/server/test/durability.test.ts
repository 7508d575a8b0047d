import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer, waitFor } from './harness.js';

describe('durability', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.cleanup());

  const modify = (body: unknown) =>
    server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('holds every answered change and always parses after kill -9 during writes', async () => {
    const answered: string[] = [];
    let stop = false;
    // Several writers, so a write is in flight when the kill lands.
    const writers = Array.from({ length: 4 }, (_, w) =>
      (async () => {
        for (let i = 0; !stop; i++) {
          const name = `w${w}_${i}`;
          const response = await modify({
            streams: { [name]: { urls: [`udp://239.2.${w}.${i % 250}:1234`], title: 'x'.repeat(200) } },
          }).catch(() => undefined);
          if (response?.status === 200) answered.push(name);
        }
      })(),
    );
    await waitFor(() => answered.length >= 30, 20_000);
    await server.stop({ kill: true });
    stop = true;
    await Promise.all(writers);

    await server.restart();
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
      streams: Record<string, unknown>;
    };
    for (const name of answered) expect(config.streams[name], name).toBeDefined();
    const leftovers = (await readdir(server.dir)).filter((f) => f.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('keeps the last 50 versions in the history folder', async () => {
    for (let i = 0; i < 55; i++)
      expect((await modify({ streams: { [`h${i}`]: { urls: ['udp://239.3.0.1:1'] } } })).status).toBe(200);
    const history = await readdir(join(server.dir, 'history'));
    expect(history.length).toBe(50);
    const newest = history.sort().at(-1)!;
    const kept = await readFile(join(server.dir, 'history', newest), 'utf8');
    expect(kept).toContain('stream h53 ');
    expect(kept).not.toContain('stream h54 ');
  });
});
