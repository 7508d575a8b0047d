import { describe, expect, it } from 'vitest';
import {
  configOrder,
  isMediaFilter,
  matchesFilter,
  matchesLocalFilter,
  matchesQuery,
  nextSort,
  sortStreams,
  statusFilterOf,
  toggleFilter,
  toggleLocalFilter,
} from './media-list.js';
import type { StreamWithStats } from './status.js';

type Named = StreamWithStats & { name: string };
const s = (
  name: string,
  position: number,
  stats: Named['stats'] = {},
  extra: Partial<Named> = {},
): Named => ({
  name,
  position,
  static: true,
  urls: [{ url: `udp://239.0.0.${position}:1` }],
  stats,
  ...extra,
});

describe('media list filters', () => {
  it('status toggles exclude each other; dvr and transcoder are independent', () => {
    expect(toggleFilter(['online', 'dvr'], 'error')).toEqual(['dvr', 'error']);
    expect(toggleFilter(['error'], 'transcoder')).toEqual(['error', 'transcoder']);
    expect(toggleFilter(['error', 'transcoder'], 'error')).toEqual(['transcoder']);
  });

  it('matches status and feature filters', () => {
    const online = s('a', 0, { alive: true });
    const broken = s('b', 1, { source_error: 'refused' });
    const waiting = s('c', 2, {}, { static: false });
    const dvr = s(
      'd',
      3,
      { alive: true },
      { dvr: { root: '/storage' }, transcoder: { video: { '0': { bitrate: 1000000 } } } },
    );
    expect(
      [online, broken, waiting, dvr].filter((x) => matchesFilter(x, 'online', true)).map((x) => x.name),
    ).toEqual(['a', 'd']);
    expect(
      [online, broken, waiting, dvr].filter((x) => matchesFilter(x, 'error', true)).map((x) => x.name),
    ).toEqual(['b']);
    expect(
      [online, broken, waiting, dvr].filter((x) => matchesFilter(x, 'waiting', true)).map((x) => x.name),
    ).toEqual(['c']);
    expect([online, dvr].filter((x) => matchesFilter(x, 'dvr', true)).map((x) => x.name)).toEqual(['d']);
    expect([online, dvr].filter((x) => matchesFilter(x, 'transcoder', true)).map((x) => x.name)).toEqual([
      'd',
    ]);
  });

  it('matches the text query against name, title and urls', () => {
    expect(matchesQuery(s('Lobby', 0), 'lob')).toBe(true);
    expect(matchesQuery(s('x', 7), '239.0.0.7')).toBe(true);
    expect(matchesQuery(s('x', 0, {}, { title: 'Front door' }), 'door')).toBe(true);
    expect(matchesQuery(s('x', 0), 'nothing')).toBe(false);
  });
});

describe('status toggles by display status', () => {
  it('puts delay and drops under online, expecting publication under waiting, and nothing else anywhere', () => {
    expect(statusFilterOf('online')).toBe('online');
    expect(statusFilterOf('delay')).toBe('online');
    expect(statusFilterOf('drops')).toBe('online');
    expect(statusFilterOf('waiting')).toBe('waiting');
    expect(statusFilterOf('expecting')).toBe('waiting');
    expect(statusFilterOf('error')).toBe('error');
    expect(statusFilterOf('disabled')).toBeUndefined();
    expect(statusFilterOf('no_sources')).toBeUndefined();
  });

  it('reads only the known filter names from a link', () => {
    expect(['online', 'dvr', 'bogus', 'transcoder'].filter(isMediaFilter)).toEqual([
      'online',
      'dvr',
      'transcoder',
    ]);
  });
});

describe('local filter: none, published, no sources', () => {
  it('selecting the active one clears it', () => {
    expect(toggleLocalFilter(undefined, 'published')).toBe('published');
    expect(toggleLocalFilter('published', 'no_sources')).toBe('no_sources');
    expect(toggleLocalFilter('no_sources', 'no_sources')).toBeUndefined();
  });

  it('published needs publishing enabled and a publisher; no sources means nothing to pull or publish', () => {
    const publishing = s('p', 0, { published_from: '10.0.0.5' }, { urls: [{ url: 'publish://' }] });
    const idle = s('q', 1, {}, { urls: [{ url: 'publish://' }] });
    const empty = s('e', 2, {}, { urls: [] });
    const pulled = s('u', 3);
    expect(
      [publishing, idle, empty, pulled]
        .filter((x) => matchesLocalFilter(x, 'published', true))
        .map((x) => x.name),
    ).toEqual(['p']);
    expect(
      [publishing, idle, empty, pulled]
        .filter((x) => matchesLocalFilter(x, 'no_sources', true))
        .map((x) => x.name),
    ).toEqual(['e']);
    // Without the url_publish capability a publish:// url is no source at all.
    expect(matchesLocalFilter(idle, 'no_sources', false)).toBe(true);
    expect(matchesLocalFilter({ ...empty, publish_enabled: true }, 'no_sources', true)).toBe(false);
  });
});

describe('media list sorting (spec 000 §5)', () => {
  it('cycles none → ascending → descending → config order', () => {
    const asc = nextSort(configOrder, 'name');
    expect(asc).toEqual({ key: 'name', direction: 'asc' });
    const desc = nextSort(asc, 'name');
    expect(desc).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort(desc, 'name')).toEqual(configOrder);
    expect(nextSort(desc, 'clients')).toEqual({ key: 'clients', direction: 'asc' });
  });

  it('sorts missing values lowest, runtime missing as infinite, bitrate in 10 kbit steps', () => {
    const list = [
      s('a', 0, { client_count: 5, bitrate: 1005, lifetime: 10 }),
      s('b', 1, { bitrate: 1001 }),
      s('c', 2, { client_count: 1, bitrate: 2000, lifetime: 5 }),
    ];
    expect(sortStreams(list, { key: 'clients', direction: 'asc' }).map((x) => x.name)).toEqual([
      'b',
      'c',
      'a',
    ]);
    // 1005 and 1001 are the same 10 kbit step: config order breaks the tie.
    expect(sortStreams(list, { key: 'bitrate', direction: 'asc' }).map((x) => x.name)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(sortStreams(list, { key: 'runtime', direction: 'asc' }).map((x) => x.name)).toEqual([
      'c',
      'a',
      'b',
    ]);
    expect(sortStreams(list, { key: 'name', direction: 'desc' }).map((x) => x.name)).toEqual(['c', 'b', 'a']);
    // Descending puts the missing values last (they are lowest), and runtime's missing first (infinite).
    expect(sortStreams(list, { key: 'clients', direction: 'desc' }).map((x) => x.name)).toEqual([
      'a',
      'c',
      'b',
    ]);
    expect(sortStreams(list, { key: 'runtime', direction: 'desc' }).map((x) => x.name)).toEqual([
      'b',
      'a',
      'c',
    ]);
    // Ties keep config order in either direction.
    expect(sortStreams(list, { key: 'bitrate', direction: 'desc' }).map((x) => x.name)).toEqual([
      'c',
      'a',
      'b',
    ]);
    expect(sortStreams([list[2]!, list[0]!, list[1]!], configOrder).map((x) => x.name)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});
