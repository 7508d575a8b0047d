import { config as configSchema } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig } from './index.js';

/** The forms operators write (docs/config.md "Short forms"): read, checked, and written back. */
const read = (text: string) => parseConfigText(text).config;

/** Parses `text`, edits a copy of its config and writes it over the document (the API's save path). */
function edited(text: string, edit: (config: Record<string, any>) => void): string {
  const { config, document } = parseConfigText(text);
  const copy = structuredClone(config);
  edit(copy);
  return serializeConfig(copy, document);
}

describe('repeated listen directives', () => {
  const TEXT = 'http 80;\nhttp 8080;  # the second port\nadmin_https 9443;\nadmin_https 9444;\nrtmp 1935;\n';

  it('add their ports up instead of failing as set twice', () => {
    const config = read(TEXT);
    expect(config).toEqual({ http: [80, 8080], admin_https: [9443, 9444], rtmp: 1935 });
    expect(configSchema.safeParse(config).success).toBe(true);
    expect(read('http 80 8080;\nhttp 8081;\nhttps 443;\nhttps 8443;').http).toEqual([80, 8080, 8081]);
  });

  it('are written back as written while their ports stay, and read back to the same ports', () => {
    expect(serializeConfig(read(TEXT), parseConfigText(TEXT).document)).toBe(TEXT);
    const more = edited(TEXT, (c) => c.http.push(8081));
    expect(read(more).http).toEqual([80, 8080, 8081]);
    const fewer = edited(TEXT, (c) => (c.http = [8080]));
    expect(read(fewer).http).toEqual([8080]);
    expect(fewer).toContain('rtmp 1935;');
    expect(read(serializeConfig(read(TEXT)))).toEqual(read(TEXT));
  });

  it('still refuses a single-port directive set twice, where one port is all it holds', () => {
    expect(() => read('rtmp 1935;\nrtmp 1936;')).toThrow(/'rtmp' is set twice/);
  });
});

describe('a block written as a bare flag', () => {
  const TEXT = 'stream cam {\n  url udp://1;\n  thumbnails;\n}\n\nlive pub {\n  thumbnails;\n}\n';

  it('means the block is enabled', () => {
    const config = read(TEXT);
    expect(config.streams.cam.thumbnails).toEqual({ enabled: true });
    expect(config.lives.pub.thumbnails).toEqual({ enabled: true });
    expect(configSchema.safeParse(config).success).toBe(true);
  });

  it('round-trips: unchanged text stays, an edit inside the block reads back', () => {
    expect(serializeConfig(read(TEXT), parseConfigText(TEXT).document)).toBe(TEXT);
    const out = edited(TEXT, (c) => (c.streams.cam.thumbnails.url = 'http://thumbs/cam.jpg'));
    expect(read(out).streams.cam.thumbnails).toEqual({ enabled: true, url: 'http://thumbs/cam.jpg' });
    expect(read(out).lives.pub.thumbnails).toEqual({ enabled: true });
  });

  it('keeps a plain flag a boolean where the schema says so', () => {
    expect(read('stream cam {\n  static;\n}\n').streams.cam.static).toBe(true);
  });
});

describe('auth URL shorthand', () => {
  const TEXT =
    'stream cam {\n  url udp://1;\n  auth http://127.0.0.1:9/check;\n}\n\nlive pub {\n  auth http://auth/pub;\n}\n';

  it('is auth { url URL; }', () => {
    const config = read(TEXT);
    expect(config.streams.cam.auth).toEqual({ url: 'http://127.0.0.1:9/check' });
    expect(config.lives.pub.auth).toEqual({ url: 'http://auth/pub' });
    expect(config).toEqual(read(TEXT.replace(/auth (\S+);/g, 'auth {\n    url $1;\n  }')));
    expect(configSchema.safeParse(config).success).toBe(true);
  });

  it('round-trips: unchanged text stays, a new url reads back', () => {
    expect(serializeConfig(read(TEXT), parseConfigText(TEXT).document)).toBe(TEXT);
    const out = edited(TEXT, (c) => (c.streams.cam.auth.url = 'http://other/check'));
    expect(read(out).streams.cam.auth).toEqual({ url: 'http://other/check' });
    expect(read(serializeConfig(read(TEXT)))).toEqual(read(TEXT));
  });
});
