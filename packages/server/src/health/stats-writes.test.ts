import { diff } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { LiveView } from '../live/live-view.js';
import { statsWrites } from './stats-writes.js';

describe('statsWrites', () => {
  it('sends a notice that went as a null, so an open console drops it', () => {
    const view = new LiveView();
    const write = (stats: Record<string, unknown>) => view.setMany(statsWrites(view.snapshot.stats, stats));
    write({ uptime: 1, status: { error_listen_rtmp_1935: "Can't listen", error_disk_full: 'full' } });
    const version = view.currentVersion;
    // An open console that has read up to here: the log keeps what came after.
    view.track({ version });
    write({ uptime: 2, status: { error_disk_full: 'full' } });
    const delta = view.deltaSince(version)!.delta;
    expect(delta).toEqual({ stats: { uptime: 2, status: { error_listen_rtmp_1935: null } } });
    expect(view.snapshot.stats).toEqual({ uptime: 2, status: { error_disk_full: 'full' } });
    expect(diff(view.snapshot.stats, { uptime: 2, status: { error_disk_full: 'full' } })).toBeUndefined();
  });
});
