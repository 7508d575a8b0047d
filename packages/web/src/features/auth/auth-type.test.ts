import { describe, expect, it } from 'vitest';
import { authTypeChange, authTypeOptions, localHttpPort, shownAuthType } from './auth-type.js';

describe('auth type', () => {
  it('offers IPTV and Watcher only for a media with a name', () => {
    expect(authTypeOptions(true).map((o) => o.label)).toEqual([
      'none',
      'custom',
      'stalker',
      'securetoken',
      'IPTV',
      'Watcher',
    ]);
    expect(authTypeOptions(false).map((o) => o.value)).toEqual(['none', 'custom', 'stalker', 'securetoken']);
  });

  it('none and custom clear url and extra; the others set their url and keep extra', () => {
    expect(authTypeChange('none', 80)).toEqual({ url: null, extra: null });
    expect(authTypeChange('custom', 80)).toEqual({ url: null, extra: null });
    expect(authTypeChange('stalker', 80)).toEqual({ url: null });
    expect(authTypeChange('securetoken', 80)).toEqual({ url: 'securetoken://' });
    expect(authTypeChange('iptv', 8080)).toEqual({ url: 'http://127.0.0.1:8080/tv/auth' });
    expect(authTypeChange('vsaas', 8080)).toEqual({ url: 'vsaas://' });
  });

  it('shows the chosen type until the url says another one', () => {
    expect(shownAuthType(undefined, undefined)).toBe('none');
    expect(shownAuthType(undefined, 'custom')).toBe('custom');
    expect(shownAuthType(undefined, 'stalker')).toBe('stalker');
    expect(shownAuthType('http://b.example/auth', 'custom')).toBe('custom');
    // Another browser saved a securetoken url: the url wins over a stale choice.
    expect(shownAuthType('securetoken://k', 'custom')).toBe('securetoken');
    expect(shownAuthType('securetoken://k', undefined)).toBe('securetoken');
  });

  it('calls the local auth endpoints on the first HTTP port, 80 without one', () => {
    expect(localHttpPort([8080, 8081])).toBe(8080);
    expect(localHttpPort(undefined)).toBe(80);
  });
});
