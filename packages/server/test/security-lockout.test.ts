import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const text = (body: string) => ({ method: 'POST', headers: { 'content-type': 'text/plain' }, body });

/**
 * Issue 13 (High): one accepted call ended remote management. Every write path refuses a config
 * with no edit_auth, no http port or no content, says why, and changes nothing on disk or live.
 */
describe('no call can lock the administrators out', () => {
  let server: RunningServer;
  let original: string;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream lobby {\n  url udp://239.0.0.1:1234;\n}\n`,
    });
    original = await readFile(server.configPath, 'utf8');
  });
  afterAll(() => server?.cleanup());

  /** The file is as it was, the running config still has its login and port, and the admin still gets in. */
  const expectUnchanged = async () => {
    expect(await readFile(server.configPath, 'utf8')).toBe(original);
    const live = await server.api('/flussonic/api/read_config');
    expect(live.status).toBe(200);
    const config = (await live.json()) as Record<string, any>;
    expect(config.edit_auth).toMatchObject({ login: 'admin' });
    expect(config.http).toEqual([server.port]);
    expect(config.streams.lobby).toBeDefined();
  };

  const withoutLine = (pattern: RegExp) =>
    original
      .split('\n')
      .filter((line) => !pattern.test(line))
      .join('\n');

  // Bodies are made when each test runs: the raw ones start from the file the server wrote.
  const refusals: [string, string, () => RequestInit, RegExp][] = [
    [
      'modify_config {"edit_auth":null}',
      'modify_config',
      () => json({ edit_auth: null }),
      /edit_auth is required/,
    ],
    ['modify_config {"http":[]}', 'modify_config', () => json({ http: [] }), /http port is required/],
    ['modify_config {"http":null}', 'modify_config', () => json({ http: null }), /http port is required/],
    [
      'an import without edit_auth',
      'modify_config',
      () => json({ reset: true, http: [1], streams: {} }),
      /must keep edit_auth/,
    ],
    [
      'an import without http',
      'modify_config',
      () => json({ reset: true, edit_auth: { login: 'admin', password: 'x' } }),
      /http port is required/,
    ],
    ['an empty save_raw_config', 'save_raw_config', () => text(''), /config text is empty/],
    ['a blank save_raw_config', 'save_raw_config', () => text('  \n\n'), /config text is empty/],
    [
      'a raw config without edit_auth',
      'save_raw_config',
      () => text(withoutLine(/^edit_auth /)),
      /edit_auth is required/,
    ],
    [
      'a raw config without http',
      'save_raw_config',
      () => text(withoutLine(/^http /)),
      /http port is required/,
    ],
  ];

  for (const [name, call, init, message] of refusals) {
    it(`refuses ${name} with why, and changes nothing`, async () => {
      const answer = await server.api(`/flussonic/api/${call}`, init());
      const body = (await answer.json()) as { error?: string };
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(body.error).toMatch(message);
      expect(body.error).toMatch(/nothing was changed|nobody could log in/);
      await expectUnchanged();
    });
  }

  it('refuses a hand-edited file without edit_auth on SIGHUP, keeping the running config', async () => {
    await writeFile(server.configPath, withoutLine(/^edit_auth /));
    server.process.kill('SIGHUP');
    await waitFor(() => /config reload refused.*edit_auth is required/.test(server.output()), 15_000);
    await writeFile(server.configPath, original);
    await expectUnchanged();
  });

  it('still takes an edit that keeps a login and a port', async () => {
    const answer = await server.api(
      '/flussonic/api/modify_config',
      json({ streams: { cam2: { urls: ['udp://239.0.0.2:1'] } } }),
    );
    expect(answer.status).toBe(200);
    expect(await readFile(server.configPath, 'utf8')).toContain('stream cam2');
  });
});
