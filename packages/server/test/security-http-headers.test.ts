import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer } from './harness.js';

const FRAMING_AND_SNIFFING = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

describe('security headers', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config: `${minimalConfig}stream demo {\n  url udp://239.0.0.1:1234;\n}\n` });
  });
  afterAll(() => server.cleanup());

  const headersOf = (response: Response) =>
    Object.fromEntries(Object.keys(FRAMING_AND_SNIFFING).map((h) => [h, response.headers.get(h)]));

  it('keeps the console and the API out of other sites’ frames, unsniffed, with no cross-site referrer', async () => {
    const index = await (await fetch(`${server.url}/admin`)).text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    const answers = {
      console: await fetch(`${server.url}/admin`),
      ...(script ? { 'console script': await fetch(`${server.url}${script}`) } : {}),
      'console deep link': await fetch(`${server.url}/admin/streams/demo`),
      api: await server.api('/flussonic/api/read_config'),
      'api without login': await fetch(`${server.url}/flussonic/api/read_config`),
      'unknown path': await fetch(`${server.url}/no/such/thing`),
    };
    for (const [what, response] of Object.entries(answers)) {
      expect(headersOf(response), `${what} (${response.status})`).toEqual(FRAMING_AND_SNIFFING);
    }
    expect(answers.api.status).toBe(200);
    expect(answers['api without login'].status).toBe(401);
  });

  it('leaves the player embed page embeddable in any site’s iframe', async () => {
    const embed = await fetch(`${server.url}/demo/embed.html`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-type')).toMatch(/^text\/html/);
    expect(embed.headers.get('x-frame-options')).toBeNull();
    expect(embed.headers.get('content-security-policy') ?? '').not.toContain('frame-ancestors');
  });
});
