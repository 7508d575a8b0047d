import { config as configSchema } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { ConfigSyntaxError, parseConfigText, serializeConfig } from './index.js';

const read = (text: string) => parseConfigText(text).config as Record<string, unknown>;

describe('ad schedules (docs/config.md "Ad schedules")', () => {
  const text = `ad_schedule morning {
  slot 08:00:00 30;
  slot 09:00:00 15.5;
  file vod/ads/cola.mp4 2;
  file "vod/ads/two words.mp4" 1;
}
ad_schedule empty;
stream news {
  url test://one;
  ad_schedule morning;
}
`;
  const expected = {
    ad_schedules: [
      {
        name: 'morning',
        slots: [
          { from: '08:00:00', duration: 30 },
          { from: '09:00:00', duration: 15.5 },
        ],
        files: [
          { name: 'vod/ads/cola.mp4', weight: 2 },
          { name: 'vod/ads/two words.mp4', weight: 1 },
        ],
      },
      { name: 'empty', slots: [], files: [] },
    ],
    streams: { news: { name: 'news', position: 0, urls: [{ url: 'test://one' }], ad_schedule: 'morning' } },
  };

  it('reads the top-level blocks in order and the stream directive', () => {
    const config = read(text);
    expect(config).toEqual(expected);
    expect(configSchema.safeParse(config).success).toBe(true);
  });

  it('prints them back as blocks before the streams, reading back the same', () => {
    const printed = serializeConfig(expected);
    expect(printed).toContain('ad_schedule morning {\n  slot 08:00:00 30;\n');
    expect(printed).toContain('  file vod/ads/cola.mp4 2;\n');
    expect(printed).toContain('  ad_schedule morning;\n');
    expect(printed.indexOf('ad_schedule morning {')).toBeLessThan(printed.indexOf('stream news'));
    expect(read(printed)).toEqual(expected);
  });

  it('keeps a schedule with fields it cannot write as lines exactly (JSON)', () => {
    const odd = {
      ad_schedules: [{ name: 'x', slots: [{ from: '01:00:00', duration: 5, note: 'n' }], files: [] }],
    };
    expect(read(serializeConfig(odd))).toEqual(odd);
  });

  it('keeps the comments of schedules an edit leaves, and of slots it keeps', () => {
    const { config, document } = parseConfigText(`# ads
ad_schedule morning {
  slot 08:00:00 30; # breakfast break
  file vod/ads/cola.mp4 2;
}
# late ones
ad_schedule night {
  slot 23:00:00 10;
}
`);
    const copy = structuredClone(config) as typeof expected;
    copy.ad_schedules[0]!.slots.push({ from: '09:00:00', duration: 15 });
    const out = serializeConfig(copy, document);
    expect(read(out)).toEqual(copy);
    expect(out).toContain('slot 08:00:00 30; # breakfast break');
    expect(out).toContain('# late ones\nad_schedule night {');
    expect(out).toContain('slot 09:00:00 15;');
  });

  it('refuses a slot line without its duration, with the line', () => {
    expect(() => read('ad_schedule a {\n  slot 08:00:00;\n}\n')).toThrow(ConfigSyntaxError);
    expect(() => read('ad_schedule a {\n  slot 08:00:00;\n}\n')).toThrow(/slot HH:mm:ss SECONDS/);
  });
});
