import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveIndex } from './archive-index.js';
import { segmentPath } from './layout.js';
import { deleteOldest } from './retention.js';
import { StreamArchive } from './stream-archive.js';

const T0 = Date.UTC(2026, 10, 24, 9, 59, 58);
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

describe('retention on RAID 0 disks', () => {
  it('reads segments spread over disks into one index, deletes on a default disk and keeps a keep disk’s files', async () => {
    const root = await mkdtemp(join(tmpdir(), 'dvr-raid-'));
    dirs.push(root);
    const disks = [join(root, 'a', 'cam'), join(root, 'b', 'cam')];
    // Alternating disks, across an hour boundary.
    for (let i = 0; i < 4; i++) {
      const path = segmentPath(disks[i % 2]!, {
        startMs: T0 + i * 1000,
        durationMs: 1000,
        discontinuity: false,
      });
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, Buffer.alloc(10));
    }
    const archive = new StreamArchive(await ArchiveIndex.loadAll(disks));
    expect(archive.index.segments(0, Infinity).map((s) => s.disk)).toEqual([0, 1, 0, 1]);
    expect(archive.ranges).toEqual([{ fromMs: T0, durationMs: 4000 }]);
    // Disk b is `keep`: its segment leaves the archive, its file stays.
    const freed = await deleteOldest(archive, 2, (disk) => disk === 0);
    expect(freed).toBe(10);
    expect(archive.index.count).toBe(2);
    expect(await readdir(join(root, 'b', 'cam'), { recursive: true })).toContain(
      join('2026', '11', '24', '09', `${T0 + 1000}-1000.ts`),
    );
    // Disk a's emptied hour folder went; the next hour's stays.
    expect(await readdir(join(root, 'a', 'cam', '2026', '11', '24'))).toEqual(['10']);
  });
});
