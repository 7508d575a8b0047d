import { describe, expect, it } from 'vitest';
import { archivePlaylistUrl } from './archive-url.js';
import {
  CELL_SECONDS,
  cellAtPx,
  cellStartS,
  newestScrollPx,
  playFromS,
  timelineLayout,
} from './timeline-geometry.js';

/** 12:00 UTC of some day, on a cell boundary. */
const T0 = 1_700_000_000 - (1_700_000_000 % CELL_SECONDS);

describe('DVR timeline geometry', () => {
  it('lays 180 s cells of 6 px from the archive start to now, gaps as empty runs', () => {
    // 10 min of archive from 12:01, a 12-minute gap, 6 min more; now is 13:00.
    const ranges = [
      { from: T0 + 60, duration: 600 },
      { from: T0 + 60 + 600 + 720, duration: 360 },
    ];
    const layout = timelineLayout(T0 + 60, T0 + 3600, ranges);
    expect(layout.firstCellS).toBe(T0);
    expect(layout.cellCount).toBe(21);
    expect(layout.widthPx).toBe(126);
    expect(layout.runs).toEqual([
      // 12:01-12:11 covers cells 12:00, 12:03, 12:06, 12:09.
      { firstCell: 0, cellCount: 4, filled: true },
      // 12:12-12:21 has nothing.
      { firstCell: 4, cellCount: 3, filled: false },
      // 12:23-12:29 touches 12:21, 12:24, 12:27.
      { firstCell: 7, cellCount: 3, filled: true },
      { firstCell: 10, cellCount: 11, filled: false },
    ]);
  });

  it('does not fill the next cell for a range ending on a cell boundary', () => {
    const layout = timelineLayout(T0, T0 + 2 * CELL_SECONDS, [{ from: T0, duration: CELL_SECONDS }]);
    expect(layout.runs).toEqual([
      { firstCell: 0, cellCount: 1, filled: true },
      { firstCell: 1, cellCount: 2, filled: false },
    ]);
  });

  it('refuses bounds it cannot draw, so the timeline hides itself', () => {
    expect(() => timelineLayout(0, T0, [])).toThrow(/too long/);
    expect(() => timelineLayout(Number.NaN, T0, [])).toThrow(/bad timeline bounds/);
  });

  it('maps a click to its cell and plays from where the archive starts inside it', () => {
    const ranges = [{ from: T0 + 60, duration: 600 }];
    const layout = timelineLayout(T0 + 60, T0 + 3600, ranges);
    expect(cellAtPx(layout, 0)).toBe(0);
    expect(cellAtPx(layout, 13)).toBe(2);
    expect(cellAtPx(layout, 10_000)).toBe(layout.cellCount - 1);
    expect(playFromS(cellStartS(layout, 0), ranges)).toBe(T0 + 60);
    expect(playFromS(cellStartS(layout, 2), ranges)).toBe(T0 + 360);
    expect(playFromS(cellStartS(layout, 5), ranges)).toBeUndefined();
  });

  it('scrolls to the newest end of a strip wider than 500 px', () => {
    const day = timelineLayout(T0, T0 + 86400, []);
    expect(day.widthPx).toBe(481 * 6);
    expect(newestScrollPx(day)).toBe(481 * 6 - 500);
    expect(newestScrollPx(timelineLayout(T0, T0 + 600, []))).toBe(0);
  });

  it('asks for the archive playlist from the moment to the archive end, in whole seconds inside it', () => {
    const ranges = [{ from: T0 + 0.4, duration: 100 }];
    expect(archivePlaylistUrl('cams/door 1', T0 + 0.4, ranges)).toBe(
      `/cams/door%201/archive-${T0 + 1}-99.m3u8`,
    );
  });
});
