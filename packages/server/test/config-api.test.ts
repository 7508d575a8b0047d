import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth, type RunningServer, startServer } from './harness.js';
import { call } from './security-auth-helpers.js';

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const text = (body: string) => ({ method: 'POST', headers: { 'content-type': 'text/plain' }, body });

describe('config calls', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      config: `# operator's note about ports\nhttp {http};\nedit_auth ${ADMIN.login} ${ADMIN.password};\nview_auth viewer viewpw;\n\n# the lobby camera\nstream lobby {\n  url udp://239.0.0.1:1234; # primary feed\n}\n`,
    });
  });
  afterAll(() => server.cleanup());

  it('refuses every call without valid credentials', async () => {
    const calls: [string, RequestInit?][] = [
      ['/flussonic/api/server'],
      ['/flussonic/api/read_config'],
      ['/flussonic/api/read_raw_config'],
      ['/flussonic/api/modify_config', json({ streams: { x: { urls: ['udp://239.0.0.2:1'] } } })],
      ['/flussonic/api/parse_raw_config', text('http 80;')],
      ['/flussonic/api/save_raw_config', text('http 80;')],
      ['/flussonic/api/error/store', json({ message: 'x' })],
    ];
    for (const [i, [path, init]] of calls.entries()) {
      for (const authorization of ['', basicAuth(ADMIN.login, 'wrong'), 'Bearer abc']) {
        // A wrong password from its own address each time: five from one address start the
        // failed-login backoff (429, security-auth.test.ts), which would hold up the tests below.
        const response = await call(`${server.url}${path}`, {
          method: init?.method,
          body: init?.body as string | undefined,
          headers: { ...(init?.headers as Record<string, string> | undefined), authorization },
          from: `127.0.4.${i + 1}`,
        });
        expect(response.status, `${path} with "${authorization}"`).toBe(401);
      }
    }
    expect(await readFile(server.configPath, 'utf8')).not.toContain('stream x');
  });

  it('lets view_auth read but not change, and hides the admin password from it', async () => {
    const viewer = { authorization: basicAuth('viewer', 'viewpw') };
    const read = await server.api('/flussonic/api/read_config', { headers: viewer });
    expect(read.status).toBe(200);
    const body = (await read.json()) as Record<string, unknown>;
    expect(body.streams).toBeDefined();
    expect(body.edit_auth).toBeUndefined();
    const write = await server.api('/flussonic/api/modify_config', {
      ...json({ http: [1] }),
      headers: { ...viewer, 'content-type': 'application/json' },
    });
    expect(write.status).toBe(403);
  });

  it('answers server info and read_config with the server stats', async () => {
    const info = (await (await server.api('/flussonic/api/server')).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ product: 'sluice', build: 0 });
    expect(typeof info.version).toBe('string');
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    expect(config.stats).toMatchObject({
      total_streams: 1,
      online_streams: 0,
      total_clients: 0,
      // Pulse collects from the start, into its default file beside the config.
      retroview_enabled: true,
      retroview_configured: true,
    });
    expect(config.stats.uptime).toBeGreaterThanOrEqual(0);
    expect(config.streams.lobby).toMatchObject({
      name: 'lobby',
      position: 0,
      urls: [{ url: 'udp://239.0.0.1:1234' }],
    });
  });

  it('applies a delta, writes it to the file and keeps the hand-written comments', async () => {
    const response = await server.api(
      '/flussonic/api/modify_config',
      json({ streams: { cam2: { urls: ['udp://239.0.0.1:5000'], title: 'Second camera' } } }),
    );
    expect(response.status).toBe(200);
    const file = await readFile(server.configPath, 'utf8');
    expect(file).toContain('stream cam2');
    expect(file).toContain('Second camera');
    expect(file).toContain("# operator's note about ports");
    expect(file).toContain('# the lobby camera');
    expect(file).toContain('# primary feed');
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    expect(config.streams.cam2).toMatchObject({ name: 'cam2', position: 1, title: 'Second camera' });
  });

  it('deletes with null and creates a mirror at the next position with "-1"', async () => {
    await server.api(
      '/flussonic/api/modify_config',
      json({ sources: { '-1': { urls: ['http://origin-a:8080'] } } }),
    );
    await server.api(
      '/flussonic/api/modify_config',
      json({ sources: { '-1': { urls: ['http://origin-b:8080'], cluster_key: 'k1' } } }),
    );
    let config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    expect(config.sources).toMatchObject({
      '0': { urls: ['http://origin-a:8080'] },
      '1': { urls: ['http://origin-b:8080'], cluster_key: 'k1' },
    });
    await server.api(
      '/flussonic/api/modify_config',
      json({ sources: { '0': null }, streams: { cam2: { title: null } } }),
    );
    config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    expect(config.sources).toEqual({
      '1': undefined,
      '0': expect.objectContaining({ urls: ['http://origin-b:8080'], position: 0 }),
    });
    expect(config.streams.cam2.title).toBeUndefined();
  });

  it('refuses bad input with a message naming the problem, and changes nothing', async () => {
    const before = await readFile(server.configPath, 'utf8');
    const cases: [RequestInit, RegExp][] = [
      [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"streams": {' }, /JSON/i],
      [json([1, 2]), /JSON object/],
      [json({ streams: { x: { urls: 'udp://a' } } }), /streams\.x\.urls/],
      [json({ http: ['eighty'] }), /http\.0/],
      [json({ rtmp: 70000 }), /rtmp: a port is 1 to 65535/],
      [json({ streams: { '../etc': { urls: ['udp://a'] } } }), /streams/],
      [json({ streams: { ok: { static: 'yes' } } }), /streams\.ok\.static/],
      [json({ reset: 'yes' }), /reset/],
    ];
    for (const [init, message] of cases) {
      const response = await server.api('/flussonic/api/modify_config', init);
      expect(response.status, String(init.body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    expect(await readFile(server.configPath, 'utf8')).toBe(before);
  });

  it('keeps unknown keys and sections', async () => {
    const response = await server.api(
      '/flussonic/api/modify_config',
      json({ future_section: { knob: 3 }, streams: { lobby: { new_option: 'on' } } }),
    );
    expect(response.status).toBe(200);
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    expect(config.future_section).toEqual({ knob: 3 });
    expect(config.streams.lobby.new_option).toBe('on');
  });

  it('reads, checks and saves the raw config text', async () => {
    const raw = await (await server.api('/flussonic/api/read_raw_config')).text();
    expect(raw).toBe(await readFile(server.configPath, 'utf8'));

    const bad = await server.api(
      '/flussonic/api/parse_raw_config',
      text('http 80;\nstream x {\n  url udp://a\n}\n'),
    );
    expect(bad.status).toBe(400);
    const error = (await bad.json()) as { error: string; line: number; column: number };
    // Reported right after the last argument, where the missing ';' belongs.
    expect(error).toMatchObject({ line: 3, column: 14 });
    expect(error.error).toMatch(/expected ';'/);
    expect(await readFile(server.configPath, 'utf8')).toBe(raw);

    const good = `${raw}\n# added by hand\nstream byhand {\n  url udp://239.0.0.9:1;\n}\n`;
    expect((await server.api('/flussonic/api/parse_raw_config', text(good))).status).toBe(200);
    expect(await readFile(server.configPath, 'utf8')).toBe(raw);
    expect((await server.api('/flussonic/api/save_raw_config', text(good))).status).toBe(200);
    expect(await readFile(server.configPath, 'utf8')).toBe(good);
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    expect(config.streams.byhand).toBeDefined();

    const invalid = await server.api('/flussonic/api/save_raw_config', text('http 80;\nrtmp 99999;\n'));
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toMatch(/rtmp/);
    expect(await readFile(server.configPath, 'utf8')).toBe(good);
  });

  it('stores console error reports', async () => {
    const response = await server.api(
      '/flussonic/api/error/store',
      json({ events: [{ message: 'TypeError: x is undefined' }] }),
    );
    expect(response.status).toBe(200);
  });

  it('keeps every one of 50 concurrent changes', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.api(
          '/flussonic/api/modify_config',
          json({ streams: { [`c${i}`]: { urls: [`udp://239.1.0.${i}:1234`] } } }),
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    for (let i = 0; i < 50; i++) expect(config.streams[`c${i}`], `c${i}`).toBeDefined();
    const file = await readFile(server.configPath, 'utf8');
    for (let i = 0; i < 50; i++) expect(file).toContain(`stream c${i} `);
  });

  it('keeps the config, comments included, across a restart', async () => {
    const before = await readFile(server.configPath, 'utf8');
    await server.restart();
    expect(await readFile(server.configPath, 'utf8')).toBe(before);
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    expect(config.streams.c49).toBeDefined();
    expect(config.future_section).toEqual({ knob: 3 });
    expect(before).toContain('# the lobby camera');
  });
});

describe('config upload', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.cleanup());

  it('leaves the runtime streams of locations and mirrors out of an uploaded config', async () => {
    const exported = (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
    const upload = {
      ...exported,
      lives: { cams: { prefix: 'cams', streams: { cams_door: { stats: { alive: true } } } } },
      sources: { '0': { urls: ['http://origin-c:8080'], streams: { news: { name: 'news', static: true } } } },
      reset: true,
    };
    const answer = await server.api('/flussonic/api/modify_config', json(upload));
    expect(answer.status).toBe(200);
    const file = await readFile(server.configPath, 'utf8');
    expect(file).toContain('live cams');
    expect(file).toContain('http://origin-c:8080');
    expect(file).not.toContain('cams_door');
    expect(file).not.toContain('news');
  });
});
