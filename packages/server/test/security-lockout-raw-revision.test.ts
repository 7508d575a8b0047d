import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './harness.js';

const save = (body: string, ifMatch?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'text/plain', ...(ifMatch ? { 'if-match': ifMatch } : {}) },
  body,
});

/**
 * Issue 13 (Low): a save_raw_config read-modify-write silently undid a change made in between.
 * read_raw_config answers the file's revision as an ETag; save_raw_config with If-Match is refused
 * 409 when the file changed since. Without If-Match it still saves (older scripts).
 */
describe('save_raw_config and concurrent changes', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.cleanup());

  const readRaw = async () => {
    const answer = await server.api('/flussonic/api/read_raw_config');
    return { text: await answer.text(), etag: answer.headers.get('etag') ?? '' };
  };

  it('refuses a save made from a text someone changed since, and keeps their change', async () => {
    const loaded = await readRaw();
    expect(loaded.etag).toMatch(/^"[\w-]{10,}"$/);
    // Someone else adds a stream from the console meanwhile.
    const other = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streams: { theirs: { urls: ['udp://239.0.0.3:1'] } } }),
    });
    expect(other.status).toBe(200);
    const stale = await server.api(
      '/flussonic/api/save_raw_config',
      save(`${loaded.text}\nstream mine {\n  url udp://239.0.0.4:1;\n}\n`, loaded.etag),
    );
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: string }).error).toMatch(
      /changed by someone else.*read it again/,
    );
    const file = await readFile(server.configPath, 'utf8');
    expect(file).toContain('stream theirs');
    expect(file).not.toContain('stream mine');
  });

  it('saves with the current revision, and answers the new one', async () => {
    const loaded = await readRaw();
    const answer = await server.api(
      '/flussonic/api/save_raw_config',
      save(`${loaded.text}\nstream mine {\n  url udp://239.0.0.4:1;\n}\n`, loaded.etag),
    );
    expect(answer.status).toBe(200);
    const after = await readRaw();
    expect(after.text).toContain('stream mine');
    expect(answer.headers.get('etag')).toBe(after.etag);
    expect(after.etag).not.toBe(loaded.etag);
  });

  it('still saves without If-Match (API compatibility), and with If-Match: *', async () => {
    const loaded = await readRaw();
    const plain = await server.api('/flussonic/api/save_raw_config', save(`${loaded.text}# one\n`));
    expect(plain.status).toBe(200);
    const any = await server.api('/flussonic/api/save_raw_config', save(`${loaded.text}# two\n`, '*'));
    expect(any.status).toBe(200);
    expect(await readFile(server.configPath, 'utf8')).toContain('# two');
  });
});
