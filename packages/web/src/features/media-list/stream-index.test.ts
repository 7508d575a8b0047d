import { configOrder } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { applyServerDelta } from '../../api/live-tree.js';
import type { NamedStream } from './stream-facts.js';
import { type ListSpec, StreamIndex, type StreamMap } from './stream-index.js';

const spec = (over: Partial<ListSpec> = {}): ListSpec => ({
  filters: [],
  query: '',
  local: undefined,
  sort: configOrder,
  ...over,
});

const stream = (position: number, stats: NamedStream['stats'], extra: Partial<NamedStream> = {}) => ({
  position,
  static: true,
  urls: [{ url: `udp://239.0.0.${position}:1234` }],
  stats,
  ...extra,
});

/** A live view with enough streams that the store changes its `streams` map in place. */
function liveView() {
  const streams: Record<string, NamedStream> = {
    cam: stream(2, { alive: true, client_count: 3, bitrate: 900 }, { title: 'Lobby camera' }),
    news: stream(0, { alive: true, client_count: 1, bitrate: 2000 }, { dvr: { root: '/dvr' } }),
    broken: stream(1, { source_error: 'connection refused' }),
    idle: stream(3, {}, { static: false }),
    empty: stream(4, {}, { urls: [] }),
  };
  for (let i = 0; i < 100; i++) streams[`z${i}`] = stream(5 + i, {}, { disabled: true });
  return { streams } as { streams: StreamMap };
}

describe('StreamIndex', () => {
  it('lists in config order, filters by toggles, query and local filter, and counts per toggle', () => {
    const view = liveView();
    const index = new StreamIndex();
    index.update(view.streams, true);
    expect(index.view(spec()).names.slice(0, 5)).toEqual(['news', 'broken', 'cam', 'idle', 'empty']);
    expect(index.view(spec()).counts).toEqual({ online: 2, waiting: 1, error: 1, dvr: 1, transcoder: 0 });
    expect(index.view(spec({ filters: ['online'] })).names).toEqual(['news', 'cam']);
    expect(index.view(spec({ filters: ['online', 'dvr'] })).names).toEqual(['news']);
    expect(index.view(spec({ filters: ['error'] })).names).toEqual(['broken']);
    expect(index.view(spec({ query: ' LOBBY ' })).names).toEqual(['cam']);
    expect(index.view(spec({ query: '239.0.0.1:' })).counts).toMatchObject({ error: 1, online: 0 });
    expect(index.view(spec({ local: 'no_sources' })).names).toEqual(['empty']);
    expect(index.view(spec({ query: 'nothing like it' })).names).toEqual([]);
  });

  it('sorts with the sort rules, name and stats alike', () => {
    const index = new StreamIndex();
    index.update(liveView().streams, true);
    const names = (key: ListSpec['sort']['key'], direction: 'asc' | 'desc') =>
      index.view(spec({ sort: { key, direction }, filters: ['online'] })).names;
    expect(names('clients', 'asc')).toEqual(['news', 'cam']);
    expect(names('clients', 'desc')).toEqual(['cam', 'news']);
    expect(names('bitrate', 'desc')).toEqual(['news', 'cam']);
    expect(names('name', 'asc')).toEqual(['cam', 'news']);
    expect(names('position', 'desc')).toEqual(['cam', 'news']);
  });

  it('keeps the same view while a delta moves nothing, and redoes only what a change touches', () => {
    const view = liveView();
    // One index per table, as the console has: each remembers the view it last gave.
    const plain = new StreamIndex();
    const byClients = new StreamIndex();
    const clientsSpec = spec({ sort: { key: 'clients', direction: 'asc' } });
    const plainSpec = spec();
    const read = () => {
      plain.update(view.streams, true);
      byClients.update(view.streams, true);
      return [plain.view(plainSpec), byClients.view(clientsSpec)] as const;
    };
    const [first, firstByClients] = read();

    // A bitrate change in place: config order and counts stand, and so does the clients sort.
    applyServerDelta(view, { streams: { cam: { stats: { bitrate: 950 } } } });
    let [now, nowByClients] = read();
    expect(now).toBe(first);
    expect(nowByClients).toBe(firstByClients);

    // More clients: the clients sort changes, config order does not.
    applyServerDelta(view, { streams: { news: { stats: { client_count: 9 } } } });
    [now, nowByClients] = read();
    expect(now).toBe(first);
    expect(nowByClients.names.slice(-2)).toEqual(['cam', 'news']);

    // A stream goes to error: the counts and the error toggle follow; the rows shown stay the same array.
    applyServerDelta(view, { streams: { cam: { stats: { source_error: 'timeout' } } } });
    [now] = read();
    expect(now.counts).toMatchObject({ online: 1, error: 2 });
    expect(now.names).toBe(first.names);
    expect(plain.view(spec({ filters: ['error'] })).names).toEqual(['broken', 'cam']);
  });

  it('counts "with DVR" from the config dvr or the stats dvr_enabled, and follows a dvr_enabled delta', () => {
    const view = liveView();
    const index = new StreamIndex();
    index.update(view.streams, true);
    expect(index.view(spec()).counts.dvr).toBe(1);
    // A stream recording under a global DVR or an origin's dvr says so in its stats only.
    applyServerDelta(view, { streams: { cam: { stats: { dvr_enabled: true } } } });
    index.update(view.streams, true);
    expect(index.view(spec()).counts.dvr).toBe(2);
    expect(index.view(spec({ filters: ['dvr'] })).names).toEqual(['news', 'cam']);
    // The dvr config deleted (the DVR tab's path cleared): no longer counted.
    applyServerDelta(view, { streams: { news: { dvr: null } } });
    index.update(view.streams, true);
    expect(index.view(spec({ filters: ['dvr'] })).names).toEqual(['cam']);
  });

  it('looks only at the streams a delta touched, and still sees every change', () => {
    const view = liveView();
    const index = new StreamIndex();
    index.update(view.streams, true);
    applyServerDelta(view, { streams: { z7: { disabled: false, static: false, stats: {} } } });
    applyServerDelta(view, { streams: { z8: null } });
    index.update(view.streams, true);
    expect(index.view(spec()).counts.waiting).toBe(2);
    expect(index.view(spec()).total).toBe(104);
    // A new streams map (a whole config again) is read whole.
    index.update({ only: stream(0, {}) }, true);
    expect(index.view(spec()).names).toEqual(['only']);
  });

  it('follows streams added, deleted and moved', () => {
    const view = liveView();
    const index = new StreamIndex();
    index.update(view.streams, true);
    applyServerDelta(view, {
      streams: { idle: null, fresh: stream(0, {}), news: { position: 1 }, broken: { position: 2 } },
    });
    index.update(view.streams, true);
    expect(index.view(spec()).names.slice(0, 4)).toEqual(['fresh', 'news', 'broken', 'cam']);
    expect(index.view(spec()).total).toBe(105);
  });
});
