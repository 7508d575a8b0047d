import { describe, expect, it } from 'vitest';
import { LiveStore } from '../../api/live-store.js';
import type { LiveView } from '../../api/live-state.js';

/**
 * What decides re-renders in the Origin servers list: a MirroredRow reads only
 * sources[POS].streams[NAME], and the mirror's head only its urls, lists and server states, each
 * through a store selector that re-renders on a new identity. These are those values, fed the way
 * the websocket feeds the store.
 */
function liveStore(count: number): LiveStore {
  const streams: Record<string, object> = {};
  for (let i = 0; i < count; i++)
    streams[`cam${i}`] = { name: `cam${i}`, static: true, stats: { alive: true, bitrate: 100 } };
  const store = new LiveStore();
  store.replaceServer({
    sources: {
      '0': {
        position: 0,
        urls: ['http://origin:8080'],
        except: ['x'],
        stats: { servers: [{ name: 'http://origin:8080', error: null, stream_names: Object.keys(streams) }] },
        streams,
      },
    },
  } as LiveView);
  return store;
}

const at = (store: LiveStore, ...path: string[]) => store.viewAt(store.getState(), ['sources', '0', ...path]);

describe('mirror rows', () => {
  it("a stream's figures give a new value to that stream's row alone, and none to the mirror's head", () => {
    const store = liveStore(200);
    const rows = Array.from({ length: 200 }, (_, i) => at(store, 'streams', `cam${i}`));
    const headKeys = ['urls', 'only', 'except', 'stats', 'title', 'dvr'];
    const head = headKeys.map((key) => at(store, key));
    store.applyServerDelta({
      sources: {
        '0': { streams: { cam7: { stats: { bitrate: 250 } }, cam150: { stats: { client_count: 2 } } } },
      },
    });
    const changed = rows.flatMap((value, i) =>
      at(store, 'streams', `cam${i}`) === value ? [] : [`cam${i}`],
    );
    expect(changed).toEqual(['cam7', 'cam150']);
    headKeys.forEach((key, i) => expect(at(store, key), key).toBe(head[i]));
  });

  it("a server's new state changes the head's server states and no stream row", () => {
    const store = liveStore(50);
    const rows = Array.from({ length: 50 }, (_, i) => at(store, 'streams', `cam${i}`));
    const stats = at(store, 'stats');
    store.applyServerDelta({
      sources: {
        '0': {
          stats: { servers: [{ name: 'http://origin:8080', error: 'connection refused', stream_names: [] }] },
        },
      },
    });
    expect(at(store, 'stats')).not.toBe(stats);
    expect(rows.every((value, i) => at(store, 'streams', `cam${i}`) === value)).toBe(true);
  });
});
