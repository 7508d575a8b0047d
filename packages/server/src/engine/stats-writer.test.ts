import { describe, expect, it } from 'vitest';
import { LiveView } from '../live/live-view.js';
import { statsWrites } from './stats-writer.js';

const write = (view: LiveView, stats: Record<string, unknown>) =>
  view.setMany(statsWrites(view.snapshot, ['streams', 'a'], stats));

describe('statsWrites', () => {
  it('writes only the fields that changed, and removes the ones gone', () => {
    const view = new LiveView();
    view.applyDiff({ streams: { a: { urls: [{ url: 'test://' }] } } });
    write(view, { alive: true, bitrate: 800, media_info: { tracks: [] }, source_error: 'x' });
    const version = view.currentVersion;
    write(view, { alive: true, bitrate: 810, media_info: { tracks: [] } });
    expect(view.deltaSince(version)!.delta).toEqual({
      streams: { a: { stats: { bitrate: 810, source_error: null } } },
    });
  });

  it('never writes stats for an item that is gone', () => {
    const view = new LiveView();
    view.applyDiff({ streams: { a: { static: true } } });
    view.applyDiff({ streams: { a: null } });
    expect(statsWrites(view.snapshot, ['streams', 'a'], { alive: true })).toEqual([]);
  });
});
