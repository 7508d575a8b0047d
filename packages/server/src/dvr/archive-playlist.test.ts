import { parse as parseHls, setOptions as setHlsOptions } from 'hls-parser';
import type { MediaPlaylist } from 'hls-parser/types.js';
import { describe, expect, it } from 'vitest';
import { ArchiveIndex } from './archive-index.js';
import { livePlaylist, vodPlaylist } from './archive-playlist.js';
import { liveStartOf, windowAt } from './archive-window.js';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);

/** 10 segments of 2 s, a 30 s gap (an outage), then 10 more, the first of them flagged by the recorder. */
function archive(): ArchiveIndex {
  const index = new ArchiveIndex('/nowhere');
  for (let i = 0; i < 10; i++)
    index.add({ startMs: T0 + i * 2000, durationMs: 2000, discontinuity: false, bytes: 1 });
  for (let i = 0; i < 10; i++)
    index.add({ startMs: T0 + 50_000 + i * 2000, durationMs: 2000, discontinuity: i === 0, bytes: 1 });
  return index;
}

function strict(text: string): MediaPlaylist {
  setHlsOptions({ strictMode: true, silent: true });
  return parseHls(text) as MediaPlaylist;
}

describe('archive playlists', () => {
  it('a range is a finished VOD playlist with one discontinuity at the gap', () => {
    const index = archive();
    const text = vodPlaylist(index.segments(T0 + 10_000, T0 + 60_000), '?token=a');
    const playlist = strict(text);
    expect(playlist.playlistType).toBe('VOD');
    expect(playlist.endlist).toBe(true);
    expect(playlist.targetDuration).toBe(2);
    expect(playlist.segments).toHaveLength(10);
    expect(playlist.segments.map((s) => Boolean(s.discontinuity))).toEqual([
      ...Array<boolean>(5).fill(false),
      true,
      ...Array<boolean>(4).fill(false),
    ]);
    expect(playlist.segments[0]!.uri).toBe(`dvr/${T0 + 10_000}-2000.ts?token=a`);
    expect(playlist.segments[5]!.programDateTime?.getTime()).toBe(T0 + 50_000);
    expect(playlist.segments.reduce((sum, s) => sum + s.duration, 0)).toBe(20);
  });

  it('a discontinuity flagged by the recorder without a gap is marked too', () => {
    const index = new ArchiveIndex('/nowhere');
    for (let i = 0; i < 4; i++)
      index.add({ startMs: T0 + i * 2000, durationMs: 2000, discontinuity: i === 2, bytes: 1 });
    const playlist = strict(vodPlaylist(index.segments(T0, T0 + 8000), ''));
    expect(playlist.segments.map((s) => Boolean(s.discontinuity))).toEqual([false, false, true, false]);
  });

  it('a week of 2 s segments (302,400, dvr 7d) is one playlist listing every segment', () => {
    const index = new ArchiveIndex('/nowhere');
    const count = (7 * 86_400) / 2;
    for (let i = 0; i < count; i++)
      index.add({
        startMs: T0 + i * 2000,
        durationMs: i === 5 ? 2400 : 2000,
        discontinuity: false,
        bytes: 1,
      });
    // Was a RangeError (Math.max over more arguments than V8 takes).
    const text = vodPlaylist(index.segments(T0, T0 + 7 * 86_400_000), '');
    expect(text.match(/#EXTINF:/g)).toHaveLength(count);
    expect(text).toContain('#EXT-X-TARGETDURATION:3\n');
    expect(text.endsWith(`dvr/${T0 + (count - 1) * 2000}-2000.ts\n#EXT-X-ENDLIST\n`)).toBe(true);
  });

  it('timeshift_abs moves on with the clock, keeping numbers and discontinuity counts across reloads', () => {
    const index = archive();
    const shape = { kind: 'timeshift_abs' as const, fromMs: T0 + 4000 };
    const now = Date.UTC(2026, 10, 25);
    const start = liveStartOf(shape, now);
    const first = windowAt(index, shape, start, now)!;
    expect(first.segments[0]!.startMs).toBe(T0 + 4000);
    expect(first.mediaSequence).toBe(0);
    strict(livePlaylist(first, ''));
    // 30 s later the window has moved on across the gap (a gap takes no playing time): the numbers
    // went on, one discontinuity passed.
    const later = windowAt(index, shape, start, now + 30_000)!;
    const text = livePlaylist(later, '');
    const playlist = strict(text);
    expect(playlist.endlist).toBe(false);
    const firstSeq = later.mediaSequence;
    expect(later.segments[0]!.startMs).toBe(index.at(2 + firstSeq).startMs);
    expect(later.segments.at(-1)!.startMs).toBeGreaterThan(T0 + 50_000);
    expect(later.discontinuitySequence + (text.match(/#EXT-X-DISCONTINUITY\n/g)?.length ?? 0)).toBe(1);
  });

  it('timeshift_rel lists the last segments before now minus the delay; rewind reaches back `ago`', () => {
    const index = archive();
    const end = T0 + 70_000;
    const rel = { kind: 'timeshift_rel' as const, delayMs: 10_000 };
    const window = windowAt(index, rel, liveStartOf(rel, end), end)!;
    expect(window.segments.at(-1)!.startMs).toBe(T0 + 60_000);
    expect(window.segments).toHaveLength(6);
    const rewind = { kind: 'rewind' as const, agoMs: 30_000 };
    const all = windowAt(index, rewind, liveStartOf(rewind, end), end)!;
    expect(all.segments[0]!.startMs).toBe(T0 + 50_000 - 10_000 + 10_000);
    expect(all.segments.at(-1)!.startMs).toBe(T0 + 68_000);
    strict(livePlaylist(all, ''));
    // Later, with nothing new recorded, the window's old end moved on: two segments fewer.
    const next = windowAt(index, rewind, liveStartOf(rewind, end), end + 14_000);
    expect(next?.segments.length).toBe(all.segments.length - 2);
  });

  it('nothing in the window: no playlist', () => {
    const index = archive();
    const shape = { kind: 'timeshift_rel' as const, delayMs: 3_600_000 };
    const now = T0 + 70_000;
    expect(windowAt(index, shape, liveStartOf(shape, now), now)).toBeUndefined();
  });
});
