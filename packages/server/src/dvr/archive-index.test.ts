import { mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveIndex } from './archive-index.js';
import { segmentPath, streamFolder, temporarySegmentPath } from './layout.js';

const T0 = Date.UTC(2026, 10, 24, 9, 59, 56);
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

async function put(dir: string, startMs: number, durationMs: number, discontinuity = false, bytes = 10) {
  const path = segmentPath(dir, { startMs, durationMs, discontinuity });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, Buffer.alloc(bytes));
}

describe('archive index', () => {
  it('reads a stream folder back across hours, in time order, and drops half-written segments', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dvr-index-'));
    dirs.push(dir);
    for (let i = 0; i < 5; i++) await put(dir, T0 + i * 2000, 2000);
    // After a restart: a gap of 10 s, the new segment marked as not continuing the media.
    await put(dir, T0 + 20_000, 2000, true);
    await mkdir(dirname(temporarySegmentPath(dir, T0 + 22_000)), { recursive: true });
    await writeFile(temporarySegmentPath(dir, T0 + 22_000), 'partial');
    await writeFile(
      join(dirname(segmentPath(dir, { startMs: T0, durationMs: 1, discontinuity: false })), 'notes.txt'),
      '',
    );

    const index = await ArchiveIndex.load(dir);
    expect(index.count).toBe(6);
    expect(index.bytes).toBe(60);
    expect(index.firstMs).toBe(T0);
    expect(index.endMs).toBe(T0 + 22_000);
    expect(index.ranges()).toEqual([
      { fromMs: T0, durationMs: 10_000 },
      { fromMs: T0 + 20_000, durationMs: 2000 },
    ]);
    expect(index.at(5).discontinuity).toBe(true);
    // The hour changed at T0 + 4 s: both hour folders were read.
    expect(await readdir(join(dir, '2026', '11', '24'))).toEqual(['09', '10']);
    expect(await readdir(dirname(temporarySegmentPath(dir, T0 + 22_000)))).not.toContain(
      `.${T0 + 22_000}.tmp`,
    );
  });

  it('finds the segments overlapping a window, and retention takes the oldest first', () => {
    const index = new ArchiveIndex('/nowhere');
    for (let i = 0; i < 3000; i++)
      index.add({ startMs: T0 + i * 2000, durationMs: 2000, discontinuity: false, bytes: 1 });
    expect(index.segments(T0 + 3000, T0 + 6000).map((s) => s.startMs)).toEqual([T0 + 2000, T0 + 4000]);
    expect(index.segments(T0 - 5000, T0 + 1)).toHaveLength(1);
    expect(index.segments(T0 + 6_000_000, T0 + 7_000_000)).toEqual([]);
    expect(index.add({ startMs: T0, durationMs: 2000, discontinuity: false, bytes: 1 })).toBe(false);
    for (let i = 0; i < 2000; i++) expect(index.removeOldest()!.startMs).toBe(T0 + i * 2000);
    for (let i = 3000; i < 5000; i++)
      index.add({ startMs: T0 + i * 2000, durationMs: 2000, discontinuity: false, bytes: 1 });
    expect(index.count).toBe(3000);
    expect(index.firstMs).toBe(T0 + 4_000_000);
    expect(index.ranges()).toEqual([{ fromMs: T0 + 4_000_000, durationMs: 6_000_000 }]);
  });

  it('keeps a stream folder inside its root', () => {
    expect(streamFolder('/dvr', 'live/cam1')).toBe('/dvr/live/cam1');
    for (const bad of ['../etc', 'a/../../b', '/abs', 'a//b', '.', 'a\\b'])
      expect(streamFolder('/dvr', bad)).toBeUndefined();
  });
});
