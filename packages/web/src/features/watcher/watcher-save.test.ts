import { describe, expect, it } from 'vitest';
import { randomStreampointKey, watcherDelta } from './watcher-save.js';

describe('Watcher save (spec 002 §4)', () => {
  it('first save: endpoint enabled, rproxy with a 14-character key', () => {
    expect(watcherDelta(' /var/db/vsaas.db ', {}, () => 'k'.repeat(14))).toEqual({
      plugins: {
        vsaas: { database: '/var/db/vsaas.db', endpoint: 'enabled' },
        rproxy: { endpoint_auth: 'vsaas', streampoint_key: 'k'.repeat(14) },
      },
    });
  });
  it('a later save keeps the endpoint and rproxy as they are; clearing removes vsaas', () => {
    const current = { vsaas: { database: '/a', endpoint: 'custom' }, rproxy: { streampoint_key: 'x' } };
    expect(watcherDelta('/b', current)).toEqual({ plugins: { vsaas: { database: '/b' } } });
    expect(watcherDelta('  ', current)).toEqual({ plugins: { vsaas: null } });
  });
  it('keys are 14 letters or digits and differ', () => {
    const keys = new Set(Array.from({ length: 200 }, randomStreampointKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{14}$/);
  });
});
