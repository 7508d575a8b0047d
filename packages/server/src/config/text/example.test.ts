import { readFileSync } from 'node:fs';
import { config as configSchema } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig } from './index.js';

const EXAMPLE = readFileSync(new URL('./fixtures/example.conf', import.meta.url), 'utf8');
const comments = (text: string) => text.split('\n').flatMap((line) => /#.*$/.exec(line)?.[0] ?? []);

describe('a realistic hand-written file', () => {
  it('reads into a valid config', () => {
    const { config } = parseConfigText(EXAMPLE);
    expect(configSchema.safeParse(config).error).toBeUndefined();
    expect(config).toMatchObject({
      http: [80, 8080],
      edit_auth: { login: 'admin', password: 's3cret pass' },
      dvrs: {
        main: { disks: { sda: { position: 0, mode: 'keep' }, sdb: { position: 1 } }, schedule: [[0, 2359]] },
      },
      lives: { pub: { dvr: { reference: 'main' } } },
      sources: {
        '0': {
          urls: ['rtmp://origin-1.example.net', 'rtmp://origin-2.example.net'],
          only: ['news', 'sport'],
        },
      },
      vods: { vod: { urls: [{ url: '/media/vod' }], download: true } },
      streams: {
        sport1: {
          position: 0,
          dvr: { root: '/storage', dvr_limit: 172800, disk_limit: 90 },
          clients_timeout: 60,
        },
        news: { position: 1, protocols: { hls: true, dash: false } },
      },
    });
  });

  it('comes back byte for byte when nothing changed', () => {
    const { config, document } = parseConfigText(EXAMPLE);
    expect(serializeConfig(config, document)).toBe(EXAMPLE);
  });

  it("changes only one line when one stream's url changes through the API", () => {
    const { config, document } = parseConfigText(EXAMPLE);
    const next = structuredClone(config) as { streams: Record<string, { urls: { url: string }[] }> };
    (next.streams.sport1?.urls[0] as { url: string }).url = 'udp://239.0.0.9:1234';
    const out = serializeConfig(next, document);

    expect(comments(out)).toEqual(comments(EXAMPLE));
    const before = EXAMPLE.split('\n');
    const after = out.split('\n');
    expect(after).toHaveLength(before.length);
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [[before[i], line]]));
    expect(changed).toEqual([
      [
        '  url udp://239.0.0.1:1234 priority=1;   # multicast from the head end',
        '  url udp://239.0.0.9:1234 priority=1;   # multicast from the head end',
      ],
    ]);
    expect(parseConfigText(out).config).toEqual(next);
  });

  it('keeps every other comment when a stream is deleted, and adds a new one after the last stream', () => {
    const { config, document } = parseConfigText(EXAMPLE);
    const next = structuredClone(config) as { streams: Record<string, unknown> };
    delete next.streams.news;
    next.streams.music = { name: 'music', position: 1, urls: [{ url: 'udp://239.0.0.3:1234' }] };
    const out = serializeConfig(next, document);
    const newsComments = ['# News: 24/7', '# no DASH players'];
    expect(comments(out)).toEqual(comments(EXAMPLE).filter((c) => !newsComments.includes(c)));
    expect(out).toContain(
      '  clients_timeout 1m;\n}\n\nstream music {\n  url udp://239.0.0.3:1234;\n}\n\n# end of file',
    );
  });
});
