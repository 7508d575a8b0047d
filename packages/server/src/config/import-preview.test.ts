import type { Config } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { ConfigRejected } from './errors.js';
import { importedConfig, summarizeImport } from './import-preview.js';

const base = {
  http: [8080],
  edit_auth: { login: 'admin', password: 'pw' },
  streams: {
    a: { urls: [{ url: 'udp://239.0.0.1:1' }] },
    b: { urls: [{ url: 'udp://239.0.0.2:1' }] },
    c: { urls: [{ url: 'udp://239.0.0.3:1' }] },
  },
  sources: { '0': { urls: ['rtmp://origin.example'] } },
};
const running = importedConfig(base);

describe('importedConfig: an upload checked as the import would be', () => {
  it('normalizes like the store (names, positions) and drops the runtime figures', () => {
    const config = importedConfig({
      ...base,
      reset: true,
      now_ms: 5,
      stats: { uptime: 1 },
      streams: { ...base.streams, a: { ...base.streams.a, stats: { alive: true } } },
    });
    expect(config.streams?.a).toMatchObject({ name: 'a', position: 0 });
    expect(config.streams?.c).toMatchObject({ name: 'c', position: 2 });
    expect(config).not.toHaveProperty('now_ms');
    expect(config.streams?.a).not.toHaveProperty('stats');
  });

  it('refuses what the import would refuse, naming the field', () => {
    expect(() => importedConfig([1])).toThrow(ConfigRejected);
    expect(() => importedConfig({ http: [8080] })).toThrow(/edit_auth/);
    expect(() => importedConfig({ ...base, rtmp: 'x' })).toThrow(/rtmp/);
  });
});

describe('summarizeImport: what the confirmation lists', () => {
  it('names the items added, removed and changed, and the settings', () => {
    const { b: _b, ...kept } = base.streams;
    const next = importedConfig({
      ...base,
      rtmp: 1935,
      http: [8081],
      streams: { ...kept, a: { urls: [{ url: 'udp://239.0.0.9:1' }] }, d: { urls: [] }, e: {} },
    });
    const summary = summarizeImport(running, next);
    expect(summary.sections).toEqual({
      // c moved up a place when b went: not a change of c.
      streams: { added: ['d', 'e'], removed: ['b'], changed: ['a'] },
    });
    expect(summary.settings).toEqual({ added: ['rtmp'], removed: [], changed: ['http'] });
  });

  it('finds nothing to change in the running config uploaded again', () => {
    const summary = summarizeImport(running, importedConfig(JSON.parse(JSON.stringify(running)) as Config));
    expect(summary).toEqual({ sections: {}, settings: { added: [], removed: [], changed: [] } });
  });

  it('names a mirror by its first URL', () => {
    const summary = summarizeImport(running, importedConfig({ ...base, sources: {} }));
    expect(summary.sections.sources).toEqual({ added: [], removed: ['rtmp://origin.example'], changed: [] });
  });
});
