import { configOrder } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { LiveStore } from '../../api/live-store.js';
import type { LiveView } from '../../api/live-state.js';
import { StreamIndex, type StreamMap } from './stream-index.js';

/**
 * What decides re-renders in the list: a StreamRow renders again only when the value its store
 * selector returns changes identity (useSyncExternalStore, behind memo), and the table only when
 * the index's rows do. These are those selectors, fed the way the websocket feeds the store.
 */
function liveStore(count: number): LiveStore {
  const streams: Record<string, object> = {};
  for (let i = 0; i < count; i++)
    streams[`cam${i}`] = {
      position: i,
      static: true,
      urls: [{ url: `udp://239.0.0.1:${i}` }],
      stats: { alive: true, bitrate: 100 },
    };
  const store = new LiveStore();
  store.replaceServer({ streams } as LiveView);
  return store;
}

const rowValue = (store: LiveStore, name: string) => store.viewAt(store.getState(), ['streams', name]);

describe('live rows', () => {
  it('a delta gives a new value to the rows it changed and to no other', () => {
    const store = liveStore(200);
    const before = Array.from({ length: 200 }, (_, i) => rowValue(store, `cam${i}`));
    store.applyServerDelta({
      streams: { cam7: { stats: { bitrate: 250 } }, cam150: { stats: { client_count: 2 } } },
    });
    const changed = before.flatMap((value, i) => (rowValue(store, `cam${i}`) === value ? [] : [`cam${i}`]));
    expect(changed).toEqual(['cam7', 'cam150']);
  });

  it('the table keeps its rows through deltas that change no order or filter', () => {
    const store = liveStore(200);
    const index = new StreamIndex();
    const spec = { filters: [], query: '', local: undefined, sort: configOrder };
    const rows = () => {
      index.update(store.viewAt(store.getState(), ['streams']) as StreamMap, true);
      return index.view(spec).names;
    };
    const first = rows();
    for (let second = 0; second < 5; second++)
      store.applyServerDelta({
        streams: { [`cam${second * 3}`]: { stats: { bitrate: 100 + second, lifetime: second * 1000 } } },
      });
    expect(rows()).toBe(first);
    store.applyServerDelta({ streams: { cam9: null } });
    expect(rows()).not.toBe(first);
    expect(rows()).toHaveLength(199);
  });
});
