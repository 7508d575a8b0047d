import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from './events-client.js';
import { basicAuth, type RunningServer, startServer, waitFor } from './harness.js';

const API = '/flussonic/api';

/**
 * Issue 17: every config-changing call takes the revision its edit was based on (If-Match), and a
 * stale one is refused 409 instead of undoing someone else's change. Calls without it work as
 * before (Flussonic's API has no revision).
 */
describe('config revisions on every save', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.cleanup());

  const modify = (delta: unknown, revision?: string) =>
    server.api(`${API}/modify_config`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(revision ? { 'if-match': `"${revision}"` } : {}),
      },
      body: JSON.stringify(delta),
    });
  const readRevision = async () => {
    const answer = await server.api(`${API}/read_config`);
    const body = (await answer.json()) as { config_revision: string };
    expect(answer.headers.get('etag')).toBe(`"${body.config_revision}"`);
    return body.config_revision;
  };
  const file = () => readFile(server.configPath, 'utf8');

  it('answers the revision in read_config, read_raw_config and each save', async () => {
    const revision = await readRevision();
    expect(revision).toMatch(/^[\w-]{10,}$/);
    const raw = await server.api(`${API}/read_raw_config`);
    expect(raw.headers.get('etag')).toBe(`"${revision}"`);
    const saved = await modify({ streams: { one: { urls: ['udp://239.0.0.1:1'] } } }, revision);
    expect(saved.status).toBe(200);
    const body = (await saved.json()) as { revision: string };
    expect(body.revision).not.toBe(revision);
    expect(body.revision).toBe(await readRevision());
  });

  it('refuses a save of a stream changed since, naming both revisions, and keeps the other change', async () => {
    const base = await readRevision();
    expect((await modify({ streams: { a: { urls: ['udp://239.0.0.2:1'], title: 'theirs' } } })).status).toBe(
      200,
    );
    const now = await readRevision();
    const stale = await modify({ streams: { a: { title: 'mine' } } }, base);
    expect(stale.status).toBe(409);
    const { error } = (await stale.json()) as { error: string };
    expect(error).toContain(base);
    expect(error).toContain(now);
    expect(await file()).toContain('theirs');
    expect(await file()).not.toContain('mine');
  });

  it('accepts a stale revision when only other items changed since (the delta keeps them)', async () => {
    const base = await readRevision();
    expect((await modify({ streams: { b: { urls: ['udp://239.0.0.3:1'] } } })).status).toBe(200);
    const answer = await modify({ streams: { one: { title: 'edited' } } }, base);
    expect(answer.status).toBe(200);
    const text = await file();
    expect(text).toMatch(/stream b\b/);
    expect(text).toContain('edited');
  });

  it('refuses any revision after a raw text save, and a stale import (reset); no revision still works', async () => {
    const base = await readRevision();
    const raw = await server.api(`${API}/read_raw_config`);
    const saved = await server.api(`${API}/save_raw_config`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `${await raw.text()}# by hand\n`,
    });
    expect(saved.status).toBe(200);
    expect((await modify({ streams: { one: { title: 'late' } } }, base)).status).toBe(409);
    const config = (await (await server.api(`${API}/read_config`)).json()) as Record<string, unknown>;
    const { stats: _s, now_ms: _n, ...exported } = config;
    expect((await modify({ ...exported, reset: true }, base)).status).toBe(409);
    // The export carries config_revision: an import of it must not write it into the file.
    expect((await modify({ ...exported, reset: true }, await readRevision())).status).toBe(200);
    expect(await file()).not.toContain('config_revision');
    expect((await modify({ streams: { one: { title: 'no revision' } } })).status).toBe(200);
    expect(await file()).toContain('no revision');
  });

  it('tells every events socket the new revision with the change', async () => {
    const events = await EventsClient.open(`${server.url}${API}/events`, { authorization: basicAuth() });
    try {
      const full = await events.request('read_config', 'current_config');
      const before = (full.data as { config_revision: string }).config_revision;
      expect(full.revision).toBe(before);
      const saved = (await (await modify({ streams: { c: { urls: ['udp://239.0.0.5:1'] } } })).json()) as {
        revision: string;
      };
      const delta = await waitFor(async () => {
        const event = await events.request('read_config_delta', 'current_config_delta');
        const data = event.data as { config_revision?: string; streams?: Record<string, unknown> };
        return data.config_revision ? { event, data } : undefined;
      });
      expect(delta.data.config_revision).toBe(saved.revision);
      expect(delta.event.revision).toBe(saved.revision);
      expect(delta.data.streams?.c).toBeDefined();
    } finally {
      events.close();
    }
  });
});
