import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureArchive, probe } from '../../test/dvr-archive-fixture.js';
import { ArchiveExports } from './archive-export.js';
import { ArchiveIndex } from './archive-index.js';
import { byteRange } from './archive-respond.js';

describe('MP4 export of an archive range', () => {
  let dir: string;
  let index: ArchiveIndex;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dvr-export-'));
    const fixture = await makeFixtureArchive(join(dir, 'dvr'), 'cam', {
      startMs: Date.UTC(2026, 10, 24, 8, 59, 56),
    });
    index = await ArchiveIndex.load(fixture.dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('two requests for the same segments share one file, removed once neither reads it', async () => {
    const scratchDir = await mkdtemp(join(dir, 'scratch-'));
    const exports = new ArchiveExports({ scratchDir, ffmpegPath: 'ffmpeg', env: process.env, lingerMs: 0 });
    // Across the gap: the second part starts a new time base, and the MP4 runs on without a jump.
    const segments = index.segments(index.firstMs!, index.endMs!);
    const [a, b] = await Promise.all([exports.acquire(index, segments), exports.acquire(index, segments)]);
    expect(a.path).toBe(b.path);
    expect(await readdir(scratchDir)).toEqual([a.path.split('/').at(-1)]);
    const probed = probe(a.path);
    expect(Math.abs(probed.durationS - 20)).toBeLessThanOrEqual(2);
    a.release();
    expect(await readdir(scratchDir)).toHaveLength(1);
    b.release();
    await expect
      .poll(async () => (await readdir(scratchDir)).length, { timeout: 10_000, interval: 20 })
      .toBe(0);
    await exports.close();
  });

  it('an export that fails says why and leaves nothing behind', async () => {
    const scratchDir = await mkdtemp(join(dir, 'scratch-'));
    const exports = new ArchiveExports({ scratchDir, ffmpegPath: 'ffmpeg', env: process.env, lingerMs: 0 });
    const gone = new ArchiveIndex(join(dir, 'nothing-here'));
    gone.add({ startMs: Date.UTC(2026, 0, 1), durationMs: 2000, discontinuity: false, bytes: 1 });
    await expect(exports.acquire(gone, [gone.at(0)])).rejects.toThrow(/ffmpeg failed/);
    expect(await readdir(scratchDir)).toEqual([]);
  });
});

describe('byte ranges of a download', () => {
  it('reads one range, a suffix, an open end; refuses what lies past the end', () => {
    expect(byteRange(undefined, 1000)).toBeUndefined();
    expect(byteRange('bytes=100-199', 1000)).toEqual({ start: 100, end: 199 });
    expect(byteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=0-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(byteRange('bytes=1000-', 1000)).toBeNull();
    expect(byteRange('bytes=0-1,5-9', 1000)).toBeUndefined();
  });
});
