import { describe, expect, it } from 'vitest';
import { historyLinks, historyQuery, nextSort, readFlags, toggledSearch } from './history-query.js';

const params = (text: string) => new URLSearchParams(text);
const range = { from: 1000, to: 2000 };

describe('history query flags', () => {
  it('shows graph and sessions, not the report, unless the URL says otherwise', () => {
    expect(readFlags(params(''))).toEqual({ pulse: true, sessions: true, report: false });
    expect(readFlags(params('pulse=false&sessions=false&report=true'))).toEqual({
      pulse: false,
      sessions: false,
      report: true,
    });
  });

  it('each link flips its own flag in the URL and keeps the others', () => {
    expect(toggledSearch(params('sessions=false'), 'pulse')).toBe('?sessions=false&pulse=false');
    expect(toggledSearch(params('report=true'), 'report')).toBe('?report=false');
    expect(historyLinks(readFlags(params(''))).map((l) => l.label)).toEqual([
      'Hide graph',
      'Hide sessions',
      'Show report',
    ]);
    expect(
      historyLinks(readFlags(params('pulse=false&sessions=false&report=true'))).map((l) => l.label),
    ).toEqual(['Show graph', 'Show report']);
    expect(historyLinks(readFlags(params('report=true'))).map((l) => l.label)).toEqual([
      'Hide graph',
      'Show sessions',
    ]);
  });
});

describe('history sort', () => {
  it('cycles none, asc, desc, none; another column starts at asc', () => {
    const asc = nextSort(undefined, 'ip');
    expect(asc).toEqual({ column: 'ip', dir: 'asc' });
    const desc = nextSort(asc, 'ip');
    expect(desc).toEqual({ column: 'ip', dir: 'desc' });
    expect(nextSort(desc, 'ip')).toBeUndefined();
    expect(nextSort(desc, 'bytes')).toEqual({ column: 'bytes', dir: 'asc' });
  });
});

describe('history call', () => {
  const query = (path: string) => new URLSearchParams(path.split('?')[1]);

  it('asks for pulse and sessions when shown, sorted by the server field', () => {
    const q = query(
      historyQuery({ name: 'cam/1' }, range, readFlags(params('')), { column: 'proto', dir: 'desc' }),
    );
    expect(Object.fromEntries(q)).toEqual({
      vsn: '2',
      name: 'cam/1',
      from: '1000',
      to: '2000',
      pulse: 'true',
      sessions: 'true',
      sort: 'type',
      sort_dir: 'desc',
    });
    expect(
      query(historyQuery({ name: 'a' }, range, readFlags(params('')), { column: 'bytes', dir: 'asc' })).get(
        'sort',
      ),
    ).toBe('bytes_sent');
    expect(
      query(
        historyQuery({ name: 'a' }, range, readFlags(params('')), { column: 'created_at', dir: 'asc' }),
      ).get('sort'),
    ).toBe('created_at');
  });

  it('groups by type for the report, without sort; leaves out what is hidden', () => {
    const report = query(
      historyQuery({ name: 'a' }, range, readFlags(params('report=true')), { column: 'ip', dir: 'asc' }),
    );
    expect(report.get('group')).toBe('type');
    expect(report.has('sort')).toBe(false);
    const none = query(
      historyQuery({ name: 'a' }, range, readFlags(params('pulse=false&sessions=false')), undefined),
    );
    expect(none.has('pulse')).toBe(false);
    expect(none.has('sessions')).toBe(false);
  });

  it('asks for the streams of a location by prefix', () => {
    const q = query(historyQuery({ prefix: 'cams' }, range, readFlags(params('pulse=false')), undefined));
    expect(q.get('prefix')).toBe('cams');
    expect(q.has('name')).toBe(false);
  });
});
