import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type RunningServer, startServer } from './harness.js';

const API = '/flussonic/api';

/** Three commented streams; the config of each is what `read_config` answers for it. */
const header = `# edge node: hand-written notes\nhttp {http};   # the console\nedit_auth ${ADMIN.login} ${ADMIN.password};\n\n`;
const lobby = `# the lobby camera, owned by facilities\nstream lobby {\n  url udp://239.0.0.1:1234;   # primary feed\n}\n\n`;
const hall = `# hall: replaced by the import\nstream hall {\n  url udp://239.0.0.2:1234;\n}\n\n`;
const yard = `# yard camera (night only)\nstream yard {\n  url udp://239.0.0.3:1234;   # IR\n  title "Yard";\n}\n`;

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * Issue 17: Upload config (modify_config with the reset marker) is written into the file's text
 * item by item, so the comments of what it leaves unchanged survive; preview_config_import says
 * what it would change before the operator confirms.
 */
describe('Upload config keeps the text of what it does not change', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config: header + lobby + hall + yard });
  });
  afterAll(() => server?.cleanup());

  const exported = async () => (await (await server.api(`${API}/read_config`)).json()) as Record<string, any>;

  it('previews a downloaded config changed in one stream of three, and saves nothing', async () => {
    const before = await readFile(server.configPath, 'utf8');
    const config = await exported();
    config.streams.hall.urls = [{ url: 'udp://239.0.0.22:1234' }];
    const answer = await server.api(`${API}/preview_config_import`, post({ ...config, reset: true }));
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { summary: unknown }).summary).toEqual({
      sections: { streams: { added: [], removed: [], changed: ['hall'] } },
      settings: { added: [], removed: [], changed: [] },
    });
    expect(await readFile(server.configPath, 'utf8')).toBe(before);
  });

  it('refuses a preview the import would refuse, with the reason', async () => {
    const answer = await server.api(`${API}/preview_config_import`, post({ http: [1] }));
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toMatch(/edit_auth/);
  });

  it('imports it: the other two streams keep their comments byte for byte', async () => {
    const config = await exported();
    config.streams.hall.urls = [{ url: 'udp://239.0.0.22:1234' }];
    const answer = await server.api(`${API}/modify_config`, post({ ...config, reset: true }));
    expect(answer.status).toBe(200);
    const text = await readFile(server.configPath, 'utf8');
    expect(text).toContain(lobby);
    expect(text).toContain(yard);
    expect(text.startsWith(header.replace('{http}', String(server.port)))).toBe(true);
    expect(text).toContain('udp://239.0.0.22:1234');
    expect(text).not.toContain('udp://239.0.0.2:1234');
  });

  it('imports a config without one stream: it goes with its comment, the others stay', async () => {
    const { streams, ...rest } = await exported();
    const { lobby: _gone, ...others } = streams as Record<string, unknown>;
    const answer = await server.api(`${API}/modify_config`, post({ ...rest, streams: others, reset: true }));
    expect(answer.status).toBe(200);
    const text = await readFile(server.configPath, 'utf8');
    expect(text).not.toContain('lobby');
    expect(text).toContain(yard);
  });
});

describe('a schema error of a raw-text save names its line', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.cleanup());

  it('answers 400 with the line of the offending item', async () => {
    const raw = await (await server.api(`${API}/read_raw_config`)).text();
    const lines = raw.split('\n').length;
    const text = `${raw}stream ok {\n  url udp://239.0.0.1:1;\n}\nstream bad {\n  url udp://239.0.0.1:2;\n  title [a b];\n}\n`;
    for (const path of ['parse_raw_config', 'save_raw_config']) {
      const answer = await server.api(`${API}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: text,
      });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error: string; line: number; column: number };
      expect(body.error).toMatch(/streams\.bad\.title/);
      // `title [a b];` is the 3rd line of `stream bad`, which starts 3 lines after the file's end.
      expect(body).toMatchObject({ line: lines + 5, column: 3 });
    }
  });
});
