import { describe, expect, it } from 'vitest';
import {
  hostText,
  lastUpdateText,
  loadText,
  serverRows,
  sourceAddress,
  sourceFilters,
} from './cluster-format.js';

describe('cluster overview figures (spec 002 §2)', () => {
  it("marks a persistent server '*' and any other '-', with its http, else https, port", () => {
    expect(hostText({ name: 'a', persistent: true, ports: { http: 80, https: 443 } })).toBe('* a:80');
    expect(hostText({ name: 'b', persistent: false, ports: { https: 443 } })).toBe('- b:443');
    expect(hostText({ name: 'c' })).toBe('- c');
  });

  it("shows Load as the bandwidth usage percent, or '-'", () => {
    expect(loadText(42.4)).toBe('42%');
    expect(loadText(0)).toBe('0%');
    expect(loadText(null)).toBe('-');
    expect(loadText(undefined)).toBe('-');
  });

  it('shows the last update as the clock time the figures were fetched', () => {
    const answered = new Date(2026, 0, 1, 10, 0, 5).getTime();
    expect(lastUpdateText(3000, answered)).toBe('10:00:02');
    expect(lastUpdateText(null, answered)).toBe('');
  });

  it('lists this server first, then peers, then sources', () => {
    const rows = serverRows({
      z: { name: 'z', is_peer: true },
      src: { name: 'src', is_source: true },
      me: { name: 'me' },
      a: { name: 'a', is_peer: true },
    });
    expect(rows.map((r) => r.name)).toEqual(['me', 'a', 'z', 'src']);
  });
});

describe('cluster sources (spec 002 §2)', () => {
  const source = { proto: 'http', name: 'origin', port: 8080, stream_count: 3 };
  it('shows the address', () => {
    expect(sourceAddress(source)).toBe('http://origin:8080');
    expect(sourceAddress({ ...source, port: undefined, prefix: 'live' })).toBe('http://origin/live');
    expect(sourceAddress({ ...source, prefix: '/' })).toBe('http://origin:8080');
  });
  it("says 'all ondemand', 'take only: (...)' and 'except: (...)'", () => {
    expect(sourceFilters({ ...source, only: [] })).toEqual(['all ondemand']);
    expect(sourceFilters({ ...source, only: ['a', 'b'] })).toEqual(['take only: (a, b)']);
    expect(sourceFilters({ ...source, except: ['x'] })).toEqual(['all ondemand', 'except: (x)']);
  });
});
