import { describe, expect, it } from 'vitest';
import { dvrSettingsOf, resolveDvr } from './dvr-settings.js';

const dvrs = { main: { name: 'main', root: '/storage', dvr_limit: 3600, disk_limit: 90 } };

describe('dvr settings', () => {
  it('resolves `dvr @NAME` through the global storage, the item overriding its limits', () => {
    expect(resolveDvr({ reference: 'main', dvr_limit: 60 }, dvrs)).toMatchObject({
      root: '/storage',
      dvrLimitSeconds: 60,
      diskLimitPercent: 90,
      storage: { name: 'main' },
    });
    expect(resolveDvr({ reference: 'gone' }, dvrs)).toBeUndefined();
    expect(resolveDvr({ root: '/own', disk_space: 1000 }, dvrs)).toMatchObject({
      root: '/own',
      diskSpaceBytes: 1000,
      storage: undefined,
    });
  });

  it("finds a stream's, a published stream's (longest prefix) and a mirrored stream's dvr", () => {
    const config = {
      dvrs,
      streams: { a: { dvr: { root: '/a' } }, b: {} },
      lives: { live: { dvr: { root: '/l' } }, 'live/hd': { dvr: { reference: 'main' } } },
      sources: { '0': { dvr: { root: '/m' } } },
    };
    const mirrorOf = (name: string) => (name === 'remote' ? '0' : undefined);
    expect(dvrSettingsOf(config, 'a', mirrorOf)?.root).toBe('/a');
    expect(dvrSettingsOf(config, 'b', mirrorOf)).toBeUndefined();
    expect(dvrSettingsOf(config, 'live/cam', mirrorOf)?.root).toBe('/l');
    expect(dvrSettingsOf(config, 'live/hd/cam', mirrorOf)?.root).toBe('/storage');
    expect(dvrSettingsOf(config, 'remote', mirrorOf)?.root).toBe('/m');
    expect(dvrSettingsOf(config, 'other', mirrorOf)).toBeUndefined();
  });
});
